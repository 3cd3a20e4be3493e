/* calimcp's events test app: freestanding C against the calimero-runtime
 * 0.11.0-rc.4 host functions (module "env"), built by testapps/build.sh.
 *
 * It emits application events the way calimero-sdk's #[app::event] macro does:
 * emit(Event { kind: Buffer, data: Buffer }) with `kind` the variant's name and
 * `data` the JSON of its payload (`null` for a payload-less variant). The
 * node delivers them in a StateMutation to /ws and /sse subscribers.
 *
 *   insert(key, n)  emits Inserted with its own arguments as the payload
 *   clear()         emits Cleared, no payload (`null`)
 *   bad()           emits Inserted with a payload the ABI forbids
 *   mystery()       emits Mystery, an event the ABI does not declare
 *   quiet()         emits nothing
 *   touch()         commits a new root and emits nothing (a bare StateMutation)
 *   init()          commits a first root (creating a context calls it)
 */
typedef unsigned long long u64;
typedef unsigned long usize;
typedef unsigned char u8;

typedef struct { u64 ptr; u64 len; } Buffer;
typedef struct { Buffer kind; Buffer data; } Event;

#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))
#define EXPORT(name) __attribute__((export_name(#name)))

IMPORT(input) void h_input(u64 register_id);
IMPORT(register_len) u64 h_register_len(u64 register_id);
IMPORT(read_register) unsigned int h_read_register(u64 register_id, u64 buf_ptr);
IMPORT(emit) void h_emit(u64 event_ptr);
IMPORT(commit) void h_commit(u64 root_ptr, u64 artifact_ptr);

#define P(x) ((u64)(usize)(x))

static u8 heap[1 << 16];
static Buffer bufs[4];
static Event ev;

static usize slen(const char *s) { usize n = 0; while (s[n]) n++; return n; }

static void emit(const char *kind, const u8 *data, usize n) {
    ev.kind.ptr = P(kind); ev.kind.len = slen(kind);
    ev.data.ptr = P(data); ev.data.len = n;
    h_emit(P(&ev));
}
static void emit_cs(const char *kind, const char *data) { emit(kind, (const u8 *)data, slen(data)); }

EXPORT(insert) void insert(void) {
    h_input(0);
    u64 n = h_register_len(0);
    if (n == (u64)-1 || n > sizeof heap) __builtin_trap();
    bufs[0].ptr = P(heap); bufs[0].len = n;
    if (h_read_register(0, P(&bufs[0])) != 1) __builtin_trap();
    emit("Inserted", heap, (usize)n);
}

EXPORT(clear) void clear(void) { emit_cs("Cleared", "null"); }
EXPORT(bad) void bad(void) { emit_cs("Inserted", "{\"key\":7,\"n\":\"many\"}"); }
EXPORT(mystery) void mystery(void) { emit_cs("Mystery", "{\"what\":\"undeclared\"}"); }
EXPORT(quiet) void quiet(void) {}

/* borsh(StorageDelta::Actions(vec![])) = 00 00000000; the root is arbitrary but fixed. */
static u8 root[32] = {1, 2, 3, 4};
static const u8 artifact[5] = {0, 0, 0, 0, 0};
static void commit(void) {
    bufs[1].ptr = P(root); bufs[1].len = sizeof root;
    bufs[2].ptr = P(artifact); bufs[2].len = sizeof artifact;
    h_commit(P(&bufs[1]), P(&bufs[2]));
}
EXPORT(init) void init(void) { commit(); }
EXPORT(touch) void touch(void) { root[4]++; commit(); }
