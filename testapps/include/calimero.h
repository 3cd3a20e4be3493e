/* Shared by calimcp's C test apps: the calimero-runtime host functions (module
 * "env") and a state that holds and syncs on merod 0.11.0-rc.4 and rc.25.
 *
 * What each node version expects of an app's state (read from calimero-runtime,
 * calimero-storage and calimero-context at 0.11.0-rc.4 on crates.io and at
 * core 051f0848, the rc.25 binary):
 *
 *  - Raw `storage_write`/`storage_read` keys: rc.4 zero-pads a key shorter
 *    than 32 bytes; rc.25 (crates/context/src/handlers/execute/storage.rs,
 *    `ContextStorage::state_key`) refuses any key that is not exactly 32 bytes:
 *    the write is a silent no-op and the read a miss. That is why the shared
 *    app/kv.c (keys like "__rev" and the user's key) reads `null` back on rc.25.
 *  - The root hash: both versions take the root hash the guest passes to
 *    `commit` (or the one `flush_delta` sets) as the context's root. rc.4 takes
 *    any 32 bytes. rc.25 serves a joining node a snapshot only when that root
 *    is the Merkle root of the context's calimero-storage entities ("Boundary
 *    mismatch - state changed during sync" otherwise), and an app that keeps
 *    no entities has a zero Merkle root, so a joiner stays `Uninitialized` on
 *    both versions (rc.4: the snapshot it receives has a zero root).
 *  - A joined node applies each delta from a peer by running the app's own
 *    `__calimero_sync_next` export with the delta's artifact (a borsh
 *    `StorageDelta`) as input; an app without that export never applies one.
 *
 * So these apps keep their state in one calimero-storage map through the
 * host-side CRDT collections both versions offer to SDKs that cannot walk the
 * storage tree themselves (the JS SDK's `js_crdt_map_*`): the map has a fixed
 * id, and the first `js_crdt_map_insert` creates it as a child of the root
 * entity (the runtime's load-or-recreate path), so every entry is a real
 * entity and the Merkle root is real. `flush_delta` then sets the call's root
 * hash to that Merkle root and its artifact to the recorded actions (no
 * `commit` call); `__calimero_sync_next` hands a peer's delta to
 * `apply_storage_delta`.
 *
 * The root entity itself must have an entry, or rc.4's snapshot generation
 * drops it as an orphan index ("dropping non-bundle records ...
 * orphan_index_without_entry=1") and the joiner computes a zero root: `init`
 * writes a root document once with `persist_root_state` (`state_init`).
 * Only once: a second write of the root document fails on rc.4
 * ("Merge failed: No merge function registered for root entity": rc.4's
 * storage merges every rewrite of the app root and has no merger for an
 * opaque C document; rc.25 falls back to last-writer-wins there).
 */
#ifndef CALIMCP_TESTAPP_H
#define CALIMCP_TESTAPP_H

typedef unsigned long long u64;
typedef unsigned int u32;
typedef unsigned long usize;
typedef unsigned char u8;

typedef struct { u64 ptr; u64 len; } Buffer;
typedef struct { u64 tag; Buffer buf; } ValueReturn;
typedef struct { Buffer kind; Buffer data; } Event;

#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))
#define EXPORT(name) __attribute__((export_name(#name)))
#define P(x) ((u64)(usize)(x))

IMPORT(input) void h_input(u64 register_id);
IMPORT(register_len) u64 h_register_len(u64 register_id);
IMPORT(read_register) u32 h_read_register(u64 register_id, u64 buf_ptr);
IMPORT(value_return) void h_value_return(u64 ptr);
IMPORT(emit) void h_emit(u64 event_ptr);
IMPORT(js_crdt_map_get) int h_map_get(u64 map_id_ptr, u64 key_ptr, u64 register_id);
IMPORT(js_crdt_map_insert) int h_map_insert(u64 map_id_ptr, u64 key_ptr, u64 value_ptr, u64 register_id);
IMPORT(persist_root_state) void h_persist_root_state(u64 doc_ptr, u64 created_at, u64 updated_at);
IMPORT(apply_storage_delta) void h_apply_storage_delta(u64 delta_ptr);
IMPORT(flush_delta) int h_flush_delta(void);

#define STATE_REG 7

static usize slen(const char *s) { usize n = 0; while (s[n]) n++; return n; }
static void mcopy(u8 *d, const u8 *s, usize n) { for (usize i = 0; i < n; i++) d[i] = s[i]; }

/* Reads register `reg` into `dst` (at most `cap` bytes, a trap beyond); returns its length. */
static usize read_reg_into(u64 reg, u8 *dst, usize cap) {
    static Buffer b;
    u64 n = h_register_len(reg);
    if (n == (u64)-1) return 0;
    if (n > cap) __builtin_trap();
    b.ptr = P(dst); b.len = n;
    if (h_read_register(reg, P(&b)) != 1) __builtin_trap();
    return (usize)n;
}

/* The app's state map (its id is fixed: the runtime creates it on first use). */
static const u8 STATE_MAP[32] = {'c', 'a', 'l', 'i', 'm', 'c', 'p', '-', 't', 'e', 's', 't', 'a', 'p', 'p'};
static Buffer state_id_buf, state_key_buf, state_val_buf;

/* Reads `key` into `dst` (at most `cap` bytes); returns its length, or -1 when absent. */
static long state_get(const u8 *key, usize klen, u8 *dst, usize cap) {
    state_id_buf.ptr = P(STATE_MAP); state_id_buf.len = sizeof STATE_MAP;
    state_key_buf.ptr = P(key); state_key_buf.len = klen;
    int r = h_map_get(P(&state_id_buf), P(&state_key_buf), STATE_REG);
    if (r < 0) __builtin_trap();
    if (r == 0) return -1;
    return (long)read_reg_into(STATE_REG, dst, cap);
}

/* Stores `key` = `val` (each call's writes become its delta in `state_commit`). */
static void state_put(const u8 *key, usize klen, const u8 *val, usize vlen) {
    state_id_buf.ptr = P(STATE_MAP); state_id_buf.len = sizeof STATE_MAP;
    state_key_buf.ptr = P(key); state_key_buf.len = klen;
    state_val_buf.ptr = P(val); state_val_buf.len = vlen;
    if (h_map_insert(P(&state_id_buf), P(&state_key_buf), P(&state_val_buf), STATE_REG) < 0) __builtin_trap();
}

/* The root document, written once by `init` before anything else (see above). */
static void state_init(void) {
    static const char doc[] = "calimcp test app";
    static Buffer b;
    b.ptr = P(doc); b.len = sizeof doc - 1;
    h_persist_root_state(P(&b), 0, 0);
}

/* Commits this call's writes: the root hash becomes the Merkle root, the artifact the delta. */
static void state_commit(void) { h_flush_delta(); }

/* Applies a peer's delta: what a joined node runs for every delta it receives. */
static u8 sync_buf[1 << 18];
EXPORT(__calimero_sync_next) void calimero_sync_next(void) {
    static Buffer b;
    h_input(0);
    usize n = read_reg_into(0, sync_buf, sizeof sync_buf);
    b.ptr = P(sync_buf); b.len = n;
    h_apply_storage_delta(P(&b));
}

/* A u64 counter under the key "n": the state of apps that only need "something changed". */
static u64 counter_load(void) {
    u8 d[8]; u64 v = 0;
    long n = state_get((const u8 *)"n", 1, d, sizeof d);
    for (long i = 0; i < n && i < 8; i++) v |= (u64)d[i] << (8 * i);
    return v;
}
static void counter_bump(void) {
    u64 v = counter_load() + 1;
    static u8 d[8];
    for (int i = 0; i < 8; i++) d[i] = (u8)(v >> (8 * i));
    state_put((const u8 *)"n", 1, d, 8);
    state_commit();
}

static void emit_event(const char *kind, const u8 *data, usize n) {
    static Event ev;
    ev.kind.ptr = P(kind); ev.kind.len = slen(kind);
    ev.data.ptr = P(data); ev.data.len = n;
    h_emit(P(&ev));
}

static void return_ok(const u8 *p, usize n) {
    static ValueReturn r;
    r.tag = 0; r.buf.ptr = P(p); r.buf.len = n;
    h_value_return(P(&r));
}

#endif
