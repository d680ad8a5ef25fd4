/* Area `dispatch`: compute limits, against the device in use and against the target fleet.
 * At pipeline creation the local size, its product and the shared memory; at record time the
 * group counts; at submit the counts of indirect dispatches whose arguments the host can read. */
#ifndef PREFLIGHT_LAYER_CHECK_DISPATCH_H
#define PREFLIGHT_LAYER_CHECK_DISPATCH_H

#include "state_command_buffers.h"
#include "state_device.h"
#include "state_pipelines.h"

void check_dispatch_pipeline(struct layer_device *ld, const struct pipeline_state *p, VkShaderModule module,
                             const char *call);
/* Takes the device's and the target devices' group count limits together, once per device. */
void check_dispatch_device_init(struct layer_device *ld);
void check_dispatch_groups(struct layer_device *ld, struct command_buffer_state *cb, const uint32_t base[3],
                           const uint32_t count[3], const char *call);
/* The work bounds of the bound compute pipeline's shader with the values pushed so far (none
 * present when the shader has none, or the value was not pushed in this recording). */
void dispatch_bounds_now(const struct command_buffer_state *cb, struct dispatch_bounds *out);
/* A dispatch whose invocations fall short of a bound (command `command_index`). */
void check_dispatch_coverage(struct layer_device *ld, struct command_buffer_state *cb,
                             const struct dispatch_bounds *bounds, const uint32_t base[3], const uint32_t count[3],
                             const char *call, const char *how, uint32_t command_index);
/* An indirect dispatch at the current command, with the bounds pushed so far: its arguments are
 * checked at submit (check_dispatch_indirect_at_submit). */
void check_dispatch_indirect_recorded(struct command_buffer_state *cb, VkBuffer buffer, VkDeviceSize offset);
/* vkCmdExecuteCommands: the secondary's indirect dispatches, now at the primary's current command. */
void check_dispatch_indirect_executed(struct command_buffer_state *primary,
                                      const struct command_buffer_state *secondary);
/* Checks the recorded indirect dispatches of `cb` as it is submitted to `queue`. */
void check_dispatch_indirect_at_submit(struct layer_device *ld, struct command_buffer_state *cb, VkQueue queue);

#endif
