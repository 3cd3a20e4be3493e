/* calimcp's typed test app: every method takes one parameter `v` and returns
 * it unchanged, so a test can send each kind the ABI knows (integers at their
 * extremes, records, lists, maps, variants, bytes, 32-byte ids as strings,
 * nullable values) through calimcp, the real node and back. calimcp sends the
 * arguments as compact JSON, `{"v":VALUE}`: the app returns VALUE's bytes.
 * Freestanding C against the calimero-runtime host functions; its state (a
 * counter set by init) is a root document, so it runs and syncs on merod
 * 0.11.0-rc.4 and rc.25 (see ../include/calimero.h).
 */
#include "../include/calimero.h"

static u8 heap[1 << 16];
static Buffer in_buf;
static ValueReturn ret;

static void echo(void) {
    h_input(0);
    u64 n = h_register_len(0);
    if (n == (u64)-1 || n > sizeof heap) __builtin_trap();
    in_buf.ptr = P(heap); in_buf.len = n;
    if (h_read_register(0, P(&in_buf)) != 1) __builtin_trap();
    /* {"v":VALUE} -> VALUE */
    static const char head[] = "{\"v\":";
    usize h = sizeof head - 1;
    if (n < h + 1) __builtin_trap();
    for (usize i = 0; i < h; i++) if (heap[i] != (u8)head[i]) __builtin_trap();
    ret.tag = 0; ret.buf.ptr = P(heap + h); ret.buf.len = n - h - 1;
    h_value_return(P(&ret));
}

EXPORT(echo_u64) void echo_u64(void) { echo(); }
EXPORT(echo_i64) void echo_i64(void) { echo(); }
EXPORT(echo_string) void echo_string(void) { echo(); }
EXPORT(echo_record) void echo_record(void) { echo(); }
EXPORT(echo_list) void echo_list(void) { echo(); }
EXPORT(echo_map) void echo_map(void) { echo(); }
EXPORT(echo_variant) void echo_variant(void) { echo(); }
EXPORT(echo_bytes) void echo_bytes(void) { echo(); }
EXPORT(echo_id) void echo_id(void) { echo(); }
EXPORT(echo_nullable) void echo_nullable(void) { echo(); }

EXPORT(init) void init(void) { state_init(); counter_bump(); }
