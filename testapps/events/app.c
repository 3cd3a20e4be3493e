/* calimcp's events test app: freestanding C against the calimero-runtime host
 * functions (module "env"), built by testapps/build.sh. Runs on merod
 * 0.11.0-rc.4 and rc.25 alike; its state (a u64 counter of mutating calls) is a
 * root document that a joined node syncs (see ../include/calimero.h).
 *
 * It emits application events the way calimero-sdk's #[app::event] macro does:
 * emit(Event { kind: Buffer, data: Buffer }) with `kind` the variant's name and
 * `data` the JSON of its payload (`null` for a payload-less variant). Every
 * emitting call also changes the state, so its events travel to peers in the
 * call's delta. The node delivers them in a StateMutation to /ws and /sse
 * subscribers, on its own and on every joined node.
 *
 *   insert(key, n)  emits Inserted with its own arguments as the payload
 *   clear()         emits Cleared, no payload (`null`)
 *   bad()           emits Inserted with a payload the ABI forbids
 *   mystery()       emits Mystery, an event the ABI does not declare
 *   quiet()         emits nothing, changes nothing
 *   touch()         changes the state and emits nothing (a bare StateMutation)
 *   init()          the first state (creating a context calls it)
 */
#include "../include/calimero.h"

static u8 heap[1 << 16];

EXPORT(insert) void insert(void) {
    h_input(0);
    usize n = read_reg_into(0, heap, sizeof heap);
    emit_event("Inserted", heap, n);
    counter_bump();
}

static void emit_cs(const char *kind, const char *data) { emit_event(kind, (const u8 *)data, slen(data)); }

EXPORT(clear) void clear(void) { emit_cs("Cleared", "null"); counter_bump(); }
EXPORT(bad) void bad(void) { emit_cs("Inserted", "{\"key\":7,\"n\":\"many\"}"); counter_bump(); }
EXPORT(mystery) void mystery(void) { emit_cs("Mystery", "{\"what\":\"undeclared\"}"); counter_bump(); }
EXPORT(quiet) void quiet(void) {}
EXPORT(init) void init(void) { state_init(); counter_bump(); }
EXPORT(touch) void touch(void) { counter_bump(); }
