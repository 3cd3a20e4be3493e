/* calimcp's kv test app: string keys to string values that hold on merod
 * 0.11.0-rc.4 and rc.25 and reach joined nodes (the shared app/kv.c keeps raw
 * storage keys, which rc.25 refuses; see ../include/calimero.h). Each key's
 * value is an entry of the app's state map, stored as the raw JSON string
 * token calimcp sent (key "k:" + key token); "n" counts the sets.
 *
 *   set(key, value)   stores value under key, emits Written {key, value}
 *   get(key)          the value, or null
 *   count()           how many sets this context has seen (on any node)
 *   init()            the first state, count 0 (creating a context calls it)
 */
#include "../include/calimero.h"

static u8 in[1 << 12];
static u8 kbuf[1 << 12];
static u8 vbuf[1 << 12];
static u8 out[1 << 13];

typedef struct { const u8 *p; usize n; } Tok;

/* The raw JSON token after `"name":` in the compact object calimcp sends. */
static Tok field(const u8 *s, usize n, const char *name) {
    Tok t = {0, 0};
    usize nl = slen(name);
    for (usize i = 0; i + nl + 3 <= n; i++) {
        if (s[i] != '"') continue;
        usize j = 0;
        while (j < nl && s[i + 1 + j] == (u8)name[j]) j++;
        if (j != nl || s[i + 1 + nl] != '"' || s[i + 2 + nl] != ':') continue;
        usize a = i + 3 + nl, b = a;
        if (b < n && s[b] == '"') {
            b++;
            while (b < n && s[b] != '"') { if (s[b] == '\\') b++; b++; }
            b++;
        } else {
            while (b < n && s[b] != ',' && s[b] != '}') b++;
        }
        if (b > n) return t;
        t.p = s + a; t.n = b - a;
        return t;
    }
    return t;
}

static usize input(void) {
    h_input(0);
    return read_reg_into(0, in, sizeof in);
}

/* The state key of a key token: "k:" + the token. */
static usize state_key(Tok key) {
    if (key.n + 2 > sizeof kbuf) __builtin_trap();
    kbuf[0] = 'k'; kbuf[1] = ':';
    mcopy(kbuf + 2, key.p, key.n);
    return key.n + 2;
}

EXPORT(init) void init(void) {
    static u8 zero[8];
    state_init();
    state_put((const u8 *)"n", 1, zero, 8);
    state_commit();
}

EXPORT(set) void set(void) {
    usize n = input();
    Tok key = field(in, n, "key"), val = field(in, n, "value");
    if (!key.p || !val.p) __builtin_trap();
    state_put(kbuf, state_key(key), val.p, val.n);
    /* Written {"key":K,"value":V} */
    usize o = 0;
    static const char a[] = "{\"key\":", b[] = ",\"value\":";
    if (key.n + val.n + 32 > sizeof out) __builtin_trap();
    mcopy(out + o, (const u8 *)a, sizeof a - 1); o += sizeof a - 1;
    mcopy(out + o, key.p, key.n); o += key.n;
    mcopy(out + o, (const u8 *)b, sizeof b - 1); o += sizeof b - 1;
    mcopy(out + o, val.p, val.n); o += val.n;
    out[o++] = '}';
    emit_event("Written", out, o);
    counter_bump(); /* also commits the value written above */
}

EXPORT(get) void get(void) {
    usize n = input();
    Tok key = field(in, n, "key");
    if (!key.p) __builtin_trap();
    long v = state_get(kbuf, state_key(key), vbuf, sizeof vbuf);
    if (v >= 0) return_ok(vbuf, (usize)v);
    else return_ok((const u8 *)"null", 4);
}

EXPORT(count) void count(void) {
    u64 sets = counter_load();
    char tmp[24]; int k = 0;
    if (sets == 0) tmp[k++] = '0';
    while (sets) { tmp[k++] = (char)('0' + sets % 10); sets /= 10; }
    for (int i = 0; i < k; i++) out[i] = (u8)tmp[k - 1 - i];
    return_ok(out, (usize)k);
}
