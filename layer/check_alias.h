/* Area `alias` (check_alias.c): read/write overlaps between the bindings, fixed-function buffers
 * and attachments of one dispatch or draw. */
#ifndef PREFLIGHT_LAYER_CHECK_ALIAS_H
#define PREFLIGHT_LAYER_CHECK_ALIAS_H

#include "alias_witness.h"
#include "command_access.h"

/* Reports the pairs of `acc` (a command's accesses with bound state `b`) that overlap with a
 * write; whether any pair met (reported, or allowed as a feedback loop, or to be judged again with
 * the next dispatch's values). Buffer descriptor pairs are judged with `dispatch` (NULL for a draw
 * or an indirect dispatch): an ERROR only for a proven meeting (alias_witness.h). */
bool check_alias_command(struct layer_device *ld, struct command_buffer_state *cb, const struct bound_state *b,
                         const struct command_accesses *acc, const struct dispatch_shape *dispatch, const char *call);

#endif
