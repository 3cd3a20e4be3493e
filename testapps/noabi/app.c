/* calimcp's no-ABI test app: a module without the calimero_abi_v1 section,
 * as an app built with an SDK that predates embedded ABIs looks to calimcp.
 * It has no abi.json, so testapps/build.sh appends no section.
 *
 *   init()  commits a first root (creating a context calls it)
 */
typedef unsigned long long u64;
typedef unsigned long usize;
typedef unsigned char u8;

typedef struct { u64 ptr; u64 len; } Buffer;

#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))
#define EXPORT(name) __attribute__((export_name(#name)))

IMPORT(commit) void h_commit(u64 root_ptr, u64 artifact_ptr);

#define P(x) ((u64)(usize)(x))

static const u8 root[32] = {9, 9, 9};
static const u8 artifact[5] = {0, 0, 0, 0, 0};
static Buffer bufs[2];

EXPORT(init) void init(void) {
    bufs[0].ptr = P(root); bufs[0].len = sizeof root;
    bufs[1].ptr = P(artifact); bufs[1].len = sizeof artifact;
    h_commit(P(&bufs[0]), P(&bufs[1]));
}
