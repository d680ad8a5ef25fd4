/* Area `hazard`: accesses of commands to the same memory and the dependencies between them,
 * inside one command buffer at record time (check_hazard.c) and across command buffers,
 * submissions and queues at submit time (check_hazard_submit.c). */
#ifndef PREFLIGHT_LAYER_CHECK_HAZARD_H
#define PREFLIGHT_LAYER_CHECK_HAZARD_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "memory_access.h"

struct layer_device;
struct command_buffer_state;

/* The accesses of one command (checked against earlier commands, then recorded). */
void hazard_command(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_accesses *accesses,
                    const char *call);
/* The same, as part of the earlier command `command_index` (a rendering's store operations belong
 * to the vkCmdBeginRendering that started it: its load operations are not checked against them). */
void hazard_command_at(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_accesses *accesses,
                       const char *call, uint32_t command_index);
/* A pipeline barrier or event wait: stage masks and memory barriers (sync1 flags widened). */
void hazard_barrier(struct command_buffer_state *cb, uint64_t src_stages, uint64_t dst_stages,
                    const struct hazard_memory_barrier *barriers, uint32_t count);
/* vkCmdPipelineBarrier and vkCmdWaitEvents (check_hazard_barriers.c): the memory, buffer and image
 * barriers under `src`/`dst`, then the image barriers' layout transitions. */
void hazard_sync1_barrier(struct command_buffer_state *cb, VkPipelineStageFlags src, VkPipelineStageFlags dst,
                          uint32_t memory_count, const VkMemoryBarrier *memory, uint32_t buffer_count,
                          const VkBufferMemoryBarrier *buffers, uint32_t image_count,
                          const VkImageMemoryBarrier *images, const char *call);
/* One VkDependencyInfo (vkCmdPipelineBarrier2, vkCmdWaitEvents2): each barrier with its own masks. */
void hazard_dependency_info(struct command_buffer_state *cb, const VkDependencyInfo *info, const char *call);
/* A pipeline barrier with one global memory barrier that repeats the last barrier logged (same
 * stage masks as given, same access masks): logged as a repeat without converting it again.
 * False when it is not such a repeat (then log it with hazard_barrier). */
bool hazard_repeat_global_barrier(struct command_buffer_state *cb, uint64_t src_stages, uint64_t dst_stages,
                                  uint64_t src_access, uint64_t dst_access);
/* An image memory barrier whose layout transition (old != new layout) writes the subresources:
 * earlier accesses must be in the barrier's first scope, later ones are ordered after it. */
void hazard_image_transition(struct layer_device *ld, struct command_buffer_state *cb, uint64_t src_stages,
                             uint64_t dst_stages, const struct hazard_memory_barrier *barrier, const char *call);
/* Render passes (check_hazard_pass.c): at vkCmdBeginRenderPass the dependencies from
 * VK_SUBPASS_EXTERNAL and subpass 0 entered; entering and leaving subpass cb->subpass (its
 * dependencies, first-use transitions and load operations; last-use store operations); at the end
 * the last subpass left, the dependencies into VK_SUBPASS_EXTERNAL and the final transitions. */
struct render_pass_state;
void hazard_pass_begin(struct layer_device *ld, struct command_buffer_state *cb, const struct render_pass_state *r);
void hazard_pass_enter_subpass(struct layer_device *ld, struct command_buffer_state *cb,
                               const struct render_pass_state *r);
void hazard_pass_leave_subpass(struct layer_device *ld, struct command_buffer_state *cb,
                               const struct render_pass_state *r);
void hazard_pass_end(struct layer_device *ld, struct command_buffer_state *cb, const struct render_pass_state *r);
/* Dynamic rendering: the load operations now, the store and resolve operations kept for
 * hazard_rendering_end (vkCmdEndRendering), as part of the vkCmdBeginRendering command. */
void hazard_rendering_begin(struct layer_device *ld, struct command_buffer_state *cb, const VkRenderingInfo *info);
void hazard_rendering_end(struct layer_device *ld, struct command_buffer_state *cb);
/* A full barrier: where the layer does not model the synchronization (render pass boundaries,
 * secondary command buffers), it assumes the application's is right. */
void hazard_forget(struct command_buffer_state *cb);
/* vkEndCommandBuffer: brings every range up to the last barrier, for submit time. */
void hazard_end(struct command_buffer_state *cb);
/* vkCmdExecuteCommands: a secondary's accesses and barriers, in the primary's order (its entry
 * accesses checked against the primary's uses so far, then its final state merged in). */
void hazard_execute(struct layer_device *ld, struct command_buffer_state *primary,
                    const struct command_buffer_state *secondary);
/* A new recording: forgets, keeping the memory. hazard_free releases it. */
void hazard_reset(struct command_buffer_state *cb);
void hazard_free(struct command_buffer_state *cb);

#endif
