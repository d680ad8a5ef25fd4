/* Area `dispatch`: compute limits, against the device in use and against the target fleet.
 * At pipeline creation the local size, its product and the shared memory; at record time the
 * group counts; at submit the counts of indirect dispatches whose arguments the host can read. */
#ifndef PREFLIGHT_LAYER_CHECK_DISPATCH_H
#define PREFLIGHT_LAYER_CHECK_DISPATCH_H

#include "layer_state.h"

void check_dispatch_pipeline(struct layer_device *ld, const struct pipeline_state *p, VkShaderModule module,
                             const char *call);
void check_dispatch_groups(struct layer_device *ld, struct command_buffer_state *cb, const uint32_t base[3],
                           const uint32_t count[3], const char *call);
/* Checks the recorded indirect dispatches of `cb` as it is submitted to `queue`. */
void check_dispatch_indirect_at_submit(struct layer_device *ld, struct command_buffer_state *cb, VkQueue queue);

#endif
