/* calimcp's registry test app: an `init` that takes arguments.
 * init(owner: String, limit: u32) keeps both in the app's state; the views
 * owner() and limit() read them back (raw JSON tokens, as sent). init panics,
 * SDK-style, on input that is not exactly {"owner": "...", "limit": N}.
 * State as in ../include/calimero.h (one calimero-storage map), so it holds on
 * merod 0.11.0-rc.4 and rc.25 and reaches joined nodes. abi.json keeps its
 * methods sorted by name: rc.25 ignores an embedded ABI whose methods are not.
 */
#include "../include/calimero.h"

typedef struct { Buffer file; u32 line; u32 col; } Location;
IMPORT(panic_utf8) void h_panic_utf8(u64 msg_ptr, u64 loc_ptr);

static u8 in_buf[1 << 12];

__attribute__((noreturn)) static void fail(const char *msg) {
    static const char file[] = "src/lib.rs";
    static Location l;
    static Buffer m;
    l.file.ptr = P(file); l.file.len = sizeof file - 1; l.line = 1; l.col = 1;
    m.ptr = P(msg); m.len = slen(msg);
    h_panic_utf8(P(&m), P(&l));
    __builtin_trap();
}

static usize ws(const u8 *s, usize i, usize n) {
    while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) i++;
    return i;
}

/* The raw token of key `name` in the flat object s[0..n] (strings without escapes
 * of quotes, numbers); 0 when absent. Counts the keys into *keys. */
static const u8 *token(const u8 *s, usize n, const char *name, usize *tlen, int *keys) {
    usize i = ws(s, 0, n), nl = slen(name);
    const u8 *found = 0;
    *keys = 0;
    if (i >= n || s[i] != '{') fail("init: failed to deserialize arguments (expected { owner: String, limit: u32 }): not a JSON object");
    i = ws(s, i + 1, n);
    while (i < n && s[i] != '}') {
        if (s[i] != '"') fail("init: failed to deserialize arguments: bad key");
        usize ks = i + 1, ke = ks;
        while (ke < n && s[ke] != '"') ke++;
        i = ws(s, ke + 1, n);
        if (i >= n || s[i] != ':') fail("init: failed to deserialize arguments: no colon");
        i = ws(s, i + 1, n);
        usize vs = i;
        if (i < n && s[i] == '"') { i++; while (i < n && s[i] != '"') { if (s[i] == '\\') i++; i++; } i++; }
        else while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ' ') i++;
        (*keys)++;
        if (ke - ks == nl) {
            int eq = 1;
            for (usize j = 0; j < nl; j++) if (s[ks + j] != (u8)name[j]) eq = 0;
            if (eq) { found = s + vs; *tlen = i - vs; }
        }
        i = ws(s, i, n);
        if (i < n && s[i] == ',') i = ws(s, i + 1, n);
    }
    return found;
}

EXPORT(init) void init(void) {
    h_input(0);
    usize n = read_reg_into(0, in_buf, sizeof in_buf);
    usize ol = 0, ll = 0; int keys = 0;
    const u8 *owner = token(in_buf, n, "owner", &ol, &keys);
    const u8 *limit = token(in_buf, n, "limit", &ll, &keys);
    if (!owner || owner[0] != '"') fail("init: failed to deserialize arguments (expected { owner: String, limit: u32 }): missing field `owner`");
    if (!limit || limit[0] < '0' || limit[0] > '9') fail("init: failed to deserialize arguments (expected { owner: String, limit: u32 }): missing field `limit`");
    if (keys != 2) fail("init: failed to deserialize arguments (expected { owner: String, limit: u32 }): unknown field");
    state_init();
    state_put((const u8 *)"owner", 5, owner, ol);
    state_put((const u8 *)"limit", 5, limit, ll);
    state_commit();
}

static u8 out_buf[1 << 12];

static void view(const char *key) {
    long got = state_get((const u8 *)key, slen(key), out_buf, sizeof out_buf);
    if (got < 0) { static const char null_[] = "null"; return_ok((const u8 *)null_, 4); return; }
    return_ok(out_buf, (usize)got);
}

EXPORT(owner) void owner(void) { view("owner"); }
EXPORT(limit) void limit(void) { view("limit"); }
