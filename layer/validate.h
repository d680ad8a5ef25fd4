/* One validator per hook kind: every check of the layer is reached from here (validate.c). A hook
 * records what its call sets in the state (bound pipelines and sets, vertex buffers, attachments,
 * objects created), then calls its validator, which runs the checks in one order:
 *
 *   dispatch, draw:   limits (dispatch) -> bindings -> command_access -> alias -> hazard -> lifetime
 *   transfer:         command_access (the hook's regions) -> hazard
 *   barriers:         hazard (memory, buffer and image barriers; layout transitions)
 *   rendering:        lifetime notes -> load/store operations and dependencies -> hazard
 *   recording:        lifetime (begin, reset, binds), hazard (end, secondaries), dispatch (indirect)
 *   creation:         binding (shader modules, descriptor writes), dispatch and binding (pipelines)
 *   destroy, reset:   lifetime, then the hazard tracker forgets the object's memory
 *   update:           lifetime (a set pending work uses)
 *   submit:           dispatch (indirect counts) -> queue_progress -> hazard -> lifetime
 *   wait:             queue_progress -> hazard and lifetime retire what it completed -> host (readbacks)
 *   host access:      host (map, flush, invalidate)
 *
 * Each check reports its own findings; the validators only decide which checks a call meets. */
#ifndef PREFLIGHT_LAYER_VALIDATE_H
#define PREFLIGHT_LAYER_VALIDATE_H

#include "check_hazard_submit.h"
#include "command_access.h"
#include "state_command_buffers.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "state_pipelines.h"

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
/* vkCmdPipelineBarrier, vkCmdWaitEvents (an event wait counts as a barrier at the wait). */
void validate_barrier(struct command_buffer_state *cb, VkPipelineStageFlags src, VkPipelineStageFlags dst,
                      uint32_t memory_count, const VkMemoryBarrier *memory, uint32_t buffer_count,
                      const VkBufferMemoryBarrier *buffers, uint32_t image_count, const VkImageMemoryBarrier *images,
                      const char *call);
/* vkCmdPipelineBarrier2 (one VkDependencyInfo), vkCmdWaitEvents2 (one per event). */
void validate_dependencies(struct command_buffer_state *cb, uint32_t count, const VkDependencyInfo *infos,
                           const char *call);
/* Render passes: `r` the pass (NULL: unknown, its synchronization assumed right), begun with
 * `framebuffer` (VK_NULL_HANDLE: imageless, or unknown) and the views in cb->pass_views. At
 * vkCmdNextSubpass the subpass cb->subpass is left, then (the hook moved cb->subpass on and set
 * the new subpass's attachments) the next one entered. */
void validate_render_pass_begin(struct layer_device *ld, struct command_buffer_state *cb,
                                const struct render_pass_state *r, VkFramebuffer framebuffer);
void validate_subpass_leave(struct layer_device *ld, struct command_buffer_state *cb,
                            const struct render_pass_state *r);
void validate_subpass_enter(struct layer_device *ld, struct command_buffer_state *cb,
                            const struct render_pass_state *r);
/* vkCmdBeginRendering (after the hook set the attachments), vkCmdEndRendering and vkCmdEndRenderPass. */
void validate_rendering_begin(struct layer_device *ld, struct command_buffer_state *cb, const VkRenderingInfo *info);
void validate_rendering_end(struct layer_device *ld, struct command_buffer_state *cb);

/* --- recording ----------------------------------------------------------------------------------- */
/* vkBeginCommandBuffer, vkResetCommandBuffer (before the hook resets the state; `cb` may be NULL). */
void validate_begin(struct layer_device *ld, VkCommandBuffer cb, const char *call);
/* vkEndCommandBuffer. */
void validate_end(struct command_buffer_state *cb);
/* vkCmdBindPipeline with a pipeline the layer knows. */
void validate_bind_pipeline(struct command_buffer_state *cb, const struct pipeline_state *p, const char *call);
/* vkCmdBindDescriptorSets naming `set`, which is no live descriptor set of the layer. */
void validate_bind_unknown_set(struct layer_device *ld, struct command_buffer_state *cb, VkDescriptorSet set,
                               const char *call);
/* vkCmdExecuteCommands, one secondary: its accesses, barriers, references and indirect dispatches
 * become the primary's. */
void validate_execute(struct layer_device *ld, struct command_buffer_state *primary,
                      const struct command_buffer_state *secondary);

/* --- creation ------------------------------------------------------------------------------------ */
/* vkCreateShaderModule (its code as the application passed it). */
void validate_shader_module(struct layer_device *ld, VkShaderModule module, const uint32_t *code, size_t size,
                            const char *call);
/* One stage of a pipeline, as reflected into `r`. */
void validate_pipeline_stage(struct layer_device *ld, VkShaderModule module, const char *entry,
                             VkShaderStageFlagBits stage, const struct reflect_result *r, const char *call);
/* A pipeline with every stage reflected (`module`: its first stage's, for messages). */
void validate_pipeline(struct layer_device *ld, const struct pipeline_state *p, VkShaderModule module,
                       const char *call);

/* --- destroy, reset, update ---------------------------------------------------------------------- */
/* Before the object goes, with its state (NULL: none, or one the layer does not track; pipelines
 * and descriptor sets are then not looked for in pending work, a set's handle is only remembered
 * as freed). Command buffers are freed here, pools destroyed. */
void validate_destroy(struct layer_device *ld, VkObjectType type, uint64_t handle, const void *state, const char *call);
/* A swapchain's images go with it: the hazard tracker forgets them. */
void validate_swapchain_destroy(struct layer_device *ld, const VkImage *images, uint32_t count);
/* vkResetCommandPool, vkResetDescriptorPool. */
void validate_reset(struct layer_device *ld, VkObjectType type, uint64_t handle, const char *call);
/* A descriptor set's handle freed with its pool (destroyed or reset), and allocated (again). */
void validate_set_freed(struct layer_device *ld, uint64_t set);
void validate_set_allocated(struct layer_device *ld, uint64_t set);
/* Before `binding` of `set` (NULL: a set the layer does not track) is written or copied into. */
void validate_update(struct layer_device *ld, const struct set_state *set, uint32_t binding, const char *call);
/* vkUpdateDescriptorSets: one write, before it is applied (the binding, then its resources' usage). */
void validate_write(struct layer_device *ld, const struct set_state *set, const VkWriteDescriptorSet *write,
                    const char *call);

/* --- queues -------------------------------------------------------------------------------------- */
/* One batch of vkQueueSubmit or vkQueueSubmit2 (a long one in parts), before the call goes down:
 * queue_progress numbers and orders it, then the checks that need submit time run. */
void validate_submit(struct layer_device *ld, VkQueue queue, const struct queue_batch *batch);
/* Waits that returned VK_SUCCESS: queue_progress learns what each shows complete, the checks retire
 * it, then the completed writes the host is about to read are judged (`call` names the wait). vkWaitForFences: with waitAll
 * false only one is known signaled; counting all can only hide a finding. */
void validate_fences_waited(struct layer_device *ld, uint32_t count, const VkFence *fences, const char *call);
void validate_queue_idle(struct layer_device *ld, VkQueue queue, const char *call);
void validate_device_idle(struct layer_device *ld, const char *call);
/* vkWaitSemaphores: every semaphore reached its value, or (VK_SEMAPHORE_WAIT_ANY_BIT) at least one
 * did, which one unknown: then nothing is known complete unless there was only one. */
void validate_semaphores_waited(struct layer_device *ld, const VkSemaphoreWaitInfo *info, const char *call);
/* vkGetSemaphoreCounterValue: the counter is at `value`. */
void validate_counter_read(struct layer_device *ld, VkSemaphore semaphore, uint64_t value, const char *call);
/* vkSignalSemaphore, after it succeeded. */
void validate_host_signal(struct layer_device *ld, const VkSemaphoreSignalInfo *info);
/* vkQueuePresentKHR (waits and presented images, hooks_swapchain.c) and vkAcquireNextImageKHR. */
void validate_present(struct layer_device *ld, VkQueue queue, const struct semaphore_op *waits, uint32_t wait_count,
                      const struct hazard_access *images, uint32_t image_count);
void validate_acquire(struct layer_device *ld, VkSemaphore semaphore, VkFence fence);

/* --- host access --------------------------------------------------------------------------------- */
void validate_map(struct layer_device *ld, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize size);
void validate_flush(struct layer_device *ld, uint32_t count, const VkMappedMemoryRange *ranges);
void validate_invalidate(struct layer_device *ld, uint32_t count, const VkMappedMemoryRange *ranges);

/* --- the device ---------------------------------------------------------------------------------- */
/* At vkCreateDevice (the checks' per-device state, and what they keep in command buffers) and at
 * vkDestroyDevice (before the object maps go). */
void validate_device_created(struct layer_device *ld);
void validate_device_destroyed(struct layer_device *ld);

#endif
