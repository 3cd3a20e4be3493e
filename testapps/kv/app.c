/* calimcp's kv test app: the methods, arguments, answers and errors of the
 * shared ../shared/realnode/app/kv.c (add, boom, count, echo, get, get_result,
 * set, init; missing_in_wasm only in the ABI), with a state that holds on merod
 * 0.11.0-rc.4 and rc.25 and reaches joined nodes. app/kv.c keeps raw storage
 * keys, which rc.25 refuses (its `get` reads null after `set`), and a fake
 * root, which leaves a joiner uninitialized; here each key is an entry of the
 * app's state map ("k:" + key, the value's raw JSON token), "n" counts the
 * commits, and `set` also emits Written {key, value} (the one addition to the
 * ABI). See ../include/calimero.h for what each version expects.
 */
#include "../include/calimero.h"

typedef struct { Buffer file; u32 line; u32 col; } Location;

IMPORT(panic_utf8) void h_panic_utf8(u64 msg_ptr, u64 loc_ptr);
IMPORT(log_utf8) void h_log_utf8(u64 ptr);

static u8 heap[1 << 18];
static usize heap_top;

static void *alloc(usize n) {
    usize at = (heap_top + 7) & ~(usize)7;
    heap_top = at + n;
    if (heap_top > sizeof heap) __builtin_trap();
    return &heap[at];
}

static int meq(const u8 *a, usize al, const char *b) {
    usize bl = slen(b);
    if (al != bl) return 0;
    for (usize i = 0; i < al; i++) if (a[i] != (u8)b[i]) return 0;
    return 1;
}

/* ---- a growable output string ---- */
typedef struct { u8 *p; usize len; usize cap; } Str;
static Str str_new(usize cap) { Str s; s.p = alloc(cap); s.len = 0; s.cap = cap; return s; }
static void str_put(Str *s, const u8 *b, usize n) {
    if (s->len + n > s->cap) __builtin_trap();
    mcopy(s->p + s->len, b, n); s->len += n;
}
static void str_cs(Str *s, const char *c) { str_put(s, (const u8 *)c, slen(c)); }
static void str_u64(Str *s, u64 v) {
    char tmp[24]; int i = 0;
    if (v == 0) tmp[i++] = '0';
    while (v) { tmp[i++] = (char)('0' + v % 10); v /= 10; }
    while (i) { u8 c = (u8)tmp[--i]; str_put(s, &c, 1); }
}

/* ---- host wrappers ---- */
static Buffer *buf(const u8 *p, usize n) { Buffer *b = alloc(sizeof *b); b->ptr = P(p); b->len = n; return b; }

static void ret(u64 tag, const u8 *p, usize n) {
    ValueReturn *v = alloc(sizeof *v);
    v->tag = tag; v->buf.ptr = P(p); v->buf.len = n;
    h_value_return(P(v));
}
static void ret_ok(Str s) { ret(0, s.p, s.len); }
static void ret_err(Str s) { ret(1, s.p, s.len); }

__attribute__((noreturn)) static void panic_msg(const u8 *msg, usize n, u32 line) {
    static const char file[] = "src/lib.rs";
    Location *l = alloc(sizeof *l);
    l->file.ptr = P(file); l->file.len = sizeof file - 1; l->line = line; l->col = 9;
    h_panic_utf8(P(buf(msg, n)), P(l));
    __builtin_trap();
}
__attribute__((noreturn)) static void panic_str(Str s, u32 line) { panic_msg(s.p, s.len, line); }

static u8 *read_reg(u64 reg, usize *out_len) {
    u64 n = h_register_len(reg);
    if (n == (u64)-1) { *out_len = 0; return 0; }
    u8 *p = alloc((usize)n + 1);
    if (h_read_register(reg, P(buf(p, (usize)n))) != 1) __builtin_trap();
    *out_len = (usize)n;
    return p;
}

static void log_cs(const char *m) { h_log_utf8(P(buf((const u8 *)m, slen(m)))); }

/* ---- minimal JSON object scanner: field name -> raw value token ---- */
typedef struct { const u8 *name; usize nlen; const u8 *val; usize vlen; } Field;
typedef struct { Field f[8]; int n; int ok; } Obj;

static usize ws(const u8 *s, usize i, usize n) { while (i < n && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) i++; return i; }
static usize skip_string(const u8 *s, usize i, usize n) { /* s[i] == '"' */
    i++;
    while (i < n && s[i] != '"') { if (s[i] == '\\') i++; i++; }
    return i < n ? i + 1 : (usize)-1;
}
static usize skip_value(const u8 *s, usize i, usize n) {
    if (i >= n) return (usize)-1;
    if (s[i] == '"') return skip_string(s, i, n);
    if (s[i] == '{' || s[i] == '[') {
        int depth = 0;
        while (i < n) {
            if (s[i] == '"') { i = skip_string(s, i, n); if (i == (usize)-1) return i; continue; }
            if (s[i] == '{' || s[i] == '[') depth++;
            if (s[i] == '}' || s[i] == ']') { depth--; if (depth == 0) return i + 1; }
            i++;
        }
        return (usize)-1;
    }
    usize st = i;
    while (i < n && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' && s[i] != '\n' && s[i] != '\t' && s[i] != '\r') i++;
    return i > st ? i : (usize)-1;
}
static Obj parse_obj(const u8 *s, usize n) {
    Obj o; o.n = 0; o.ok = 0;
    usize i = ws(s, 0, n);
    if (i >= n || s[i] != '{') return o;
    i = ws(s, i + 1, n);
    if (i < n && s[i] == '}') { o.ok = ws(s, i + 1, n) == n; return o; }
    for (;;) {
        if (i >= n || s[i] != '"' || o.n == 8) return o;
        usize e = skip_string(s, i, n); if (e == (usize)-1) return o;
        Field *f = &o.f[o.n++]; f->name = s + i + 1; f->nlen = e - i - 2;
        i = ws(s, e, n); if (i >= n || s[i] != ':') return o;
        i = ws(s, i + 1, n);
        e = skip_value(s, i, n); if (e == (usize)-1) return o;
        f->val = s + i; f->vlen = e - i;
        i = ws(s, e, n);
        if (i < n && s[i] == ',') { i = ws(s, i + 1, n); continue; }
        if (i < n && s[i] == '}') { o.ok = ws(s, i + 1, n) == n; return o; }
        return o;
    }
}

/* Reads the input object and checks it has exactly the given fields
 * (deny_unknown_fields, like the SDK); panics otherwise, SDK-style. */
static Obj args(const char *method, const char *expected, const char **names, int count) {
    usize n; u8 *in;
    h_input(0);
    in = read_reg(0, &n);
    Obj o = parse_obj(in, n);
    Str m = str_new(512);
    if (!o.ok) {
        str_cs(&m, method); str_cs(&m, ": failed to deserialize arguments (expected "); str_cs(&m, expected);
        str_cs(&m, "): not a JSON object");
        panic_str(m, 10);
    }
    for (int i = 0; i < o.n; i++) {
        int known = 0;
        for (int j = 0; j < count; j++) if (meq(o.f[i].name, o.f[i].nlen, names[j])) known = 1;
        if (!known) {
            str_cs(&m, method); str_cs(&m, ": failed to deserialize arguments (expected "); str_cs(&m, expected);
            str_cs(&m, "): unknown field `"); str_put(&m, o.f[i].name, o.f[i].nlen); str_cs(&m, "`");
            panic_str(m, 11);
        }
    }
    for (int j = 0; j < count; j++) {
        int found = 0;
        for (int i = 0; i < o.n; i++) if (meq(o.f[i].name, o.f[i].nlen, names[j])) found = 1;
        if (!found) {
            str_cs(&m, method); str_cs(&m, ": failed to deserialize arguments (expected "); str_cs(&m, expected);
            str_cs(&m, "): missing field `"); str_cs(&m, names[j]); str_cs(&m, "`");
            panic_str(m, 12);
        }
    }
    return o;
}
static Field *field(Obj *o, const char *name) {
    for (int i = 0; i < o->n; i++) if (meq(o->f[i].name, o->f[i].nlen, name)) return &o->f[i];
    return 0;
}
static void want_string(const char *method, const char *expected, Field *f) {
    if (f->vlen < 2 || f->val[0] != '"') {
        Str m = str_new(512);
        str_cs(&m, method); str_cs(&m, ": failed to deserialize arguments (expected "); str_cs(&m, expected);
        str_cs(&m, "): invalid type for `"); str_put(&m, f->name, f->nlen); str_cs(&m, "`, expected a string");
        panic_str(m, 13);
    }
}

/* ---- state: entries of the app's state map (../include/calimero.h) ---- */
/* "n" counts the commits (init and every set), as app/kv.c's "__rev" does. */
static u64 read_rev(void) { return counter_load(); }
static void commit_rev(void) { counter_bump(); }

/* The state key of a key: "k:" + the key's bytes (between the quotes). */
static Buffer *key_buf(Field *k) {
    u8 *p = alloc(k->vlen);
    p[0] = 'k'; p[1] = ':';
    mcopy(p + 2, k->val + 1, k->vlen - 2);
    return buf(p, k->vlen);
}


static int key_ok(const char *method, Field *k) {
    if (k->vlen - 2 > 32) {
        Str e = str_new(256);
        str_cs(&e, "{\"kind\":\"KeyTooLong\",\"max\":32,\"method\":\""); str_cs(&e, method); str_cs(&e, "\"}");
        ret_err(e);
        return 0;
    }
    return 1;
}

/* ---- methods ---- */
EXPORT(init) void init(void) {
    log_cs("kv-c: init");
    state_init();
    commit_rev();
}

EXPORT(set) void set(void) {
    static const char *names[] = {"key", "value"};
    static const char exp[] = "{ key: String, value: String }";
    Obj o = args("set", exp, names, 2);
    Field *k = field(&o, "key"), *v = field(&o, "value");
    want_string("set", exp, k); want_string("set", exp, v);
    if (!key_ok("set", k)) return;
    Buffer *kb = key_buf(k);
    state_put((const u8 *)(usize)kb->ptr, (usize)kb->len, v->val, v->vlen);
    /* Written {"key":K,"value":V}: the raw tokens calimcp sent */
    Str e = str_new(k->vlen + v->vlen + 32);
    str_cs(&e, "{\"key\":"); str_put(&e, k->val, k->vlen);
    str_cs(&e, ",\"value\":"); str_put(&e, v->val, v->vlen); str_cs(&e, "}");
    emit_event("Written", e.p, e.len);
    commit_rev(); /* also commits the value written above */
}

EXPORT(get) void get(void) {
    static const char *names[] = {"key"};
    static const char exp[] = "{ key: String }";
    Obj o = args("get", exp, names, 1);
    Field *k = field(&o, "key");
    want_string("get", exp, k);
    if (!key_ok("get", k)) return;
    Buffer *kb = key_buf(k);
    static u8 val[1 << 12];
    long got = state_get((const u8 *)(usize)kb->ptr, (usize)kb->len, val, sizeof val);
    if (got >= 0) {
        usize n = (usize)got; u8 *p = val;
        Str out = str_new(n + 1); str_put(&out, p, n); ret_ok(out);
    } else {
        Str out = str_new(8); str_cs(&out, "null"); ret_ok(out);
    }
}

EXPORT(get_result) void get_result(void) {
    static const char *names[] = {"key"};
    static const char exp[] = "{ key: String }";
    Obj o = args("get_result", exp, names, 1);
    Field *k = field(&o, "key");
    want_string("get_result", exp, k);
    if (!key_ok("get_result", k)) return;
    Buffer *kb = key_buf(k);
    static u8 val[1 << 12];
    long got = state_get((const u8 *)(usize)kb->ptr, (usize)kb->len, val, sizeof val);
    if (got >= 0) {
        usize n = (usize)got; u8 *p = val;
        Str out = str_new(n + 1); str_put(&out, p, n); ret_ok(out);
    } else {
        Str e = str_new(512);
        str_cs(&e, "{\"kind\":\"NotFound\",\"key\":"); str_put(&e, k->val, k->vlen); str_cs(&e, "}");
        ret_err(e);
    }
}

EXPORT(echo) void echo(void) {
    static const char *names[] = {"message"};
    static const char exp[] = "{ message: String }";
    Obj o = args("echo", exp, names, 1);
    Field *m = field(&o, "message");
    want_string("echo", exp, m);
    Str out = str_new(m->vlen + 1); str_put(&out, m->val, m->vlen); ret_ok(out);
}

static int parse_u64(Field *f, u64 *out) {
    u64 v = 0;
    if (f->vlen == 0 || f->vlen > 20) return 0;
    for (usize i = 0; i < f->vlen; i++) {
        u8 c = f->val[i];
        if (c < '0' || c > '9') return 0;
        u64 d = (u64)(c - '0');
        if (v > (~(u64)0 - d) / 10) return 0;
        v = v * 10 + d;
    }
    *out = v; return 1;
}

EXPORT(add) void add(void) {
    static const char *names[] = {"a", "b"};
    static const char exp[] = "{ a: u64, b: u64 }";
    Obj o = args("add", exp, names, 2);
    u64 a = 0, b = 0;
    if (!parse_u64(field(&o, "a"), &a) || !parse_u64(field(&o, "b"), &b)) {
        Str m = str_new(256);
        str_cs(&m, "add: failed to deserialize arguments (expected "); str_cs(&m, exp); str_cs(&m, "): invalid u64");
        panic_str(m, 20);
    }
    if (a + b < a) {
        Str e = str_new(64); str_cs(&e, "\"overflow\""); ret_err(e); return;
    }
    Str out = str_new(32); str_u64(&out, a + b); ret_ok(out);
}

EXPORT(count) void count(void) {
    static const char *names[] = {0};
    Obj o = args("count", "{}", names, 0); (void)o;
    Str out = str_new(32); str_u64(&out, read_rev()); ret_ok(out);
}

EXPORT(boom) void boom(void) {
    static const char *names[] = {"message"};
    static const char exp[] = "{ message: String }";
    Obj o = args("boom", exp, names, 1);
    Field *m = field(&o, "message");
    want_string("boom", exp, m);
    panic_msg(m->val + 1, m->vlen - 2, 42);
}
