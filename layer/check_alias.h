/* Area `alias` (check_alias.c): read/write overlaps between the bindings, fixed-function buffers
 * and attachments of one dispatch or draw. */
#ifndef PREFLIGHT_LAYER_CHECK_ALIAS_H
#define PREFLIGHT_LAYER_CHECK_ALIAS_H

#include "check_hazard.h"
#include "layer_state.h"

/* Buffers the command reads outside descriptors: vertex, index, indirect. */
struct alias_fixed_reads {
    uint32_t count;
    VkBuffer buffer[MAX_VERTEX_BINDINGS + 2];
    VkDeviceSize offset[MAX_VERTEX_BINDINGS + 2];
    VkDeviceSize size[MAX_VERTEX_BINDINGS + 2]; /* VK_WHOLE_SIZE: to the end of the buffer */
    const char *what[MAX_VERTEX_BINDINGS + 2];
};

/* Also returns the command's buffer accesses, for the hazard check: the bound state's cached list
 * when nothing changed, else `scratch` filled. */
const struct hazard_accesses *check_alias_command(struct layer_device *ld, struct command_buffer_state *cb,
                                                  struct bound_state *b, const struct alias_fixed_reads *fixed,
                                                  const char *call, struct hazard_accesses *scratch);
/* The layout binding `binding` of a bound set, or NULL. */
const struct set_layout_binding *check_layout_binding(const struct set_state *set, uint32_t binding);

#endif
