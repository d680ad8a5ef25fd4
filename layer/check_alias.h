/* Area `alias` (check_alias.c): read/write overlaps between the bindings, fixed-function buffers
 * and attachments of one dispatch or draw. */
#ifndef PREFLIGHT_LAYER_CHECK_ALIAS_H
#define PREFLIGHT_LAYER_CHECK_ALIAS_H

#include "command_access.h"

/* Reports the pairs of `acc` (a command's accesses with bound state `b`) that overlap with a
 * write; whether any pair met (reported, or allowed as a feedback loop). */
bool check_alias_command(struct layer_device *ld, struct command_buffer_state *cb, const struct bound_state *b,
                         const struct command_accesses *acc, const char *call);

#endif
