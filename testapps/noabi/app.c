/* calimcp's no-ABI test app: a module without the calimero_abi_v1 section,
 * as an app built with an SDK that predates embedded ABIs looks to calimcp.
 * It has no abi.json, so testapps/build.sh appends no section.
 *
 *   init()  the first state, a root document (creating a context calls it;
 *           see ../include/calimero.h)
 */
#include "../include/calimero.h"

EXPORT(init) void init(void) { state_init(); counter_bump(); }
