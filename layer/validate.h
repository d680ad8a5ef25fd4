/* One validator per command kind. A hook records what the command sets in the state (bound
 * pipelines and sets, vertex buffers, attachments, the buffers it may write), then calls its
 * validator, which runs the checks in one order and moves the command index on:
 *
 *   dispatch, draw:   limits (dispatch) -> bindings -> command_access -> alias -> hazard -> lifetime
 *   transfer:         command_access (the hook's regions) -> hazard
 *   barriers:         hazard (memory, buffer and image barriers; layout transitions)
 *   rendering:        load/store operations and dependencies -> hazard
 *
 * Each check reports its own findings; the validators only decide which checks a command meets. */
#ifndef PREFLIGHT_LAYER_VALIDATE_H
#define PREFLIGHT_LAYER_VALIDATE_H

#include "check_hazard.h"
#include "command_access.h"
#include "layer_state.h"

/* vkCmdDispatch, vkCmdDispatchBase: groups [base, base + count). */
void validate_dispatch(struct layer_device *ld, struct command_buffer_state *cb, const uint32_t base[3],
                       const uint32_t count[3], const char *call);
/* vkCmdDispatchIndirect: the group counts are read from `buffer` at submit. */
void validate_dispatch_indirect(struct layer_device *ld, struct command_buffer_state *cb, VkBuffer buffer,
                                VkDeviceSize offset, const char *call);
/* Every draw: its vertex, index and indirect buffers in `fixed` (NULL: none). */
void validate_draw(struct layer_device *ld, struct command_buffer_state *cb, const struct command_fixed_reads *fixed,
                   const char *call);
/* A transfer command with its accesses (command_access.h's command_transfer_*). */
void validate_transfer(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_accesses *accesses,
                       const char *call);
/* vkCmdPipelineBarrier, vkCmdWaitEvents (an event wait counts as a barrier at the wait). Inline:
 * engines repeat one global barrier between dispatches, a case that needs no conversion and is
 * decided here without passing ten arguments on. */
void validate_barrier_converted(struct command_buffer_state *cb, VkPipelineStageFlags src, VkPipelineStageFlags dst,
                                uint32_t memory_count, const VkMemoryBarrier *memory, uint32_t buffer_count,
                                const VkBufferMemoryBarrier *buffers, uint32_t image_count,
                                const VkImageMemoryBarrier *images, const char *call);
static inline void validate_barrier(struct command_buffer_state *cb, VkPipelineStageFlags src, VkPipelineStageFlags dst,
                                    uint32_t memory_count, const VkMemoryBarrier *memory, uint32_t buffer_count,
                                    const VkBufferMemoryBarrier *buffers, uint32_t image_count,
                                    const VkImageMemoryBarrier *images, const char *call)
{
    if (memory_count == 1 && buffer_count == 0 && image_count == 0 &&
        hazard_repeat_global_barrier(cb, src, dst, memory[0].srcAccessMask, memory[0].dstAccessMask))
        cb->command_index++;
    else
        validate_barrier_converted(cb, src, dst, memory_count, memory, buffer_count, buffers, image_count, images,
                                   call);
}
/* vkCmdPipelineBarrier2 (one VkDependencyInfo), vkCmdWaitEvents2 (one per event). */
void validate_dependencies(struct command_buffer_state *cb, uint32_t count, const VkDependencyInfo *infos,
                           const char *call);
/* Render passes: `r` the pass (NULL: unknown, its synchronization assumed right). At
 * vkCmdNextSubpass the subpass cb->subpass is left, then (the hook moved cb->subpass on and set
 * the new subpass's attachments) the next one entered. */
void validate_render_pass_begin(struct layer_device *ld, struct command_buffer_state *cb,
                                const struct render_pass_state *r);
void validate_subpass_leave(struct layer_device *ld, struct command_buffer_state *cb,
                            const struct render_pass_state *r);
void validate_subpass_enter(struct layer_device *ld, struct command_buffer_state *cb,
                            const struct render_pass_state *r);
/* vkCmdBeginRendering (after the hook set the attachments), vkCmdEndRendering and vkCmdEndRenderPass. */
void validate_rendering_begin(struct layer_device *ld, struct command_buffer_state *cb, const VkRenderingInfo *info);
void validate_rendering_end(struct layer_device *ld, struct command_buffer_state *cb);

#endif
