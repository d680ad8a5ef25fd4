/* The validators of validate.h: which checks each hook kind meets, in which order. */
#include "validate.h"

#include <string.h>

#include "access_footprint.h"
#include "check_alias.h"
#include "check_binding.h"
#include "check_dispatch.h"
#include "check_hazard.h"
#include "check_host.h"
#include "check_lifetime.h"
#include "host_unseen.h"
#include "queue_progress.h"
#include "state_command_buffers.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "state_pipelines.h"

/* What every dispatch and draw meets once its own checks ran: the bindings, the accesses (alias
 * pairs, then the hazard tracker) and the lifetime notes of what it uses. */
static void validate_bound_command(struct layer_device *ld, struct command_buffer_state *cb, struct bound_state *b,
                                   const struct command_fixed_reads *fixed, const struct dispatch_shape *dispatch,
                                   const char *call)
{
    check_binding_command(ld, cb, b, call);
    struct command_access_scratch scratch;
    struct command_accesses accesses;
    command_accesses_of(ld, cb, b, fixed, dispatch, &scratch, &accesses); /* dispatch: the compute state's */
    /* a bound state seen before has no accesses left to pair */
    command_accesses_judged(b, &accesses,
                            accesses.count > 1 && check_alias_command(ld, cb, b, &accesses, dispatch, call));
    /* a dispatch's buffers as the bytes its shader reaches, where they can be proven */
    const struct hazard_accesses *memory = accesses.memory;
    if (!accesses.memory_narrowed && dispatch != NULL && b == &cb->compute && b->pipeline != NULL)
        memory = access_footprints_memoized(&cb->footprints, &b->pipeline->shader, dispatch, memory);
    hazard_command(ld, cb, memory, call);
    lifetime_note_bound(cb, b, call);
    cb->command_index++;
}

void validate_dispatch(struct layer_device *ld, struct command_buffer_state *cb, const uint32_t base[3],
                       const uint32_t count[3], const char *call)
{
    command_note_shader_writes(ld, cb);
    check_dispatch_groups(ld, cb, base, count, call);
    if (cb->compute.pipeline != NULL && cb->compute.pipeline->shader.has_bounds) {
        struct dispatch_bounds bounds;
        dispatch_bounds_now(cb, &bounds);
        if (bounds.present)
            check_dispatch_coverage(ld, cb, &bounds, base, count, call, "", cb->command_index);
    }
    struct dispatch_shape shape = {base, count, cb->push_constants, cb->push_valid, cb->push_version};
    validate_bound_command(ld, cb, &cb->compute, NULL, &shape, call);
}

void validate_dispatch_indirect(struct layer_device *ld, struct command_buffer_state *cb, VkBuffer buffer,
                                VkDeviceSize offset, const char *call)
{
    command_note_shader_writes(ld, cb);
    check_dispatch_indirect_recorded(cb, buffer, offset);
    struct command_fixed_reads args = {.count = 0};
    command_fixed_read(&args, buffer, offset, sizeof(VkDispatchIndirectCommand), "indirect buffer");
    validate_bound_command(ld, cb, &cb->compute, &args, NULL, call);
}

void validate_draw(struct layer_device *ld, struct command_buffer_state *cb, const struct command_fixed_reads *fixed,
                   const char *call)
{
    validate_bound_command(ld, cb, &cb->graphics, fixed, NULL, call);
}

void validate_transfer(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_accesses *accesses,
                       const char *call)
{
    hazard_command(ld, cb, accesses, call);
    cb->command_index++;
}

void validate_barrier(struct command_buffer_state *cb, VkPipelineStageFlags src, VkPipelineStageFlags dst,
                      uint32_t memory_count, const VkMemoryBarrier *memory, uint32_t buffer_count,
                      const VkBufferMemoryBarrier *buffers, uint32_t image_count, const VkImageMemoryBarrier *images,
                      const char *call)
{
    /* engines repeat one global barrier between dispatches: that needs no conversion */
    if (!(memory_count == 1 && buffer_count == 0 && image_count == 0 &&
          hazard_repeat_global_barrier(cb, src, dst, memory[0].srcAccessMask, memory[0].dstAccessMask)))
        hazard_sync1_barrier(cb, src, dst, memory_count, memory, buffer_count, buffers, image_count, images, call);
    cb->command_index++;
}

void validate_dependencies(struct command_buffer_state *cb, uint32_t count, const VkDependencyInfo *infos,
                           const char *call)
{
    for (uint32_t i = 0; i < count; ++i)
        hazard_dependency_info(cb, &infos[i], call);
    cb->command_index++;
}

void validate_render_pass_begin(struct layer_device *ld, struct command_buffer_state *cb,
                                const struct render_pass_state *r, VkFramebuffer framebuffer)
{
    const char *call = "vkCmdBeginRenderPass";
    if (framebuffer != VK_NULL_HANDLE)
        lifetime_note_object(cb, VK_OBJECT_TYPE_FRAMEBUFFER, HANDLE(framebuffer), 0, call);
    lifetime_note_object(cb, VK_OBJECT_TYPE_RENDER_PASS, HANDLE(cb->render_pass), 0, call);
    for (uint32_t i = 0; i < cb->pass_view_count; ++i)
        if (image_view_state_in(ld, HANDLE(cb->pass_views[i])) != NULL)
            lifetime_note_object(cb, VK_OBJECT_TYPE_IMAGE_VIEW, HANDLE(cb->pass_views[i]), 0, call);
    if (r != NULL)
        hazard_pass_begin(ld, cb, r);
    else
        hazard_forget(cb); /* an unknown render pass: assume the application right */
    cb->command_index++;
}

void validate_subpass_leave(struct layer_device *ld, struct command_buffer_state *cb, const struct render_pass_state *r)
{
    if (r != NULL)
        hazard_pass_leave_subpass(ld, cb, r);
}

void validate_subpass_enter(struct layer_device *ld, struct command_buffer_state *cb, const struct render_pass_state *r)
{
    if (r != NULL)
        hazard_pass_enter_subpass(ld, cb, r);
    else
        hazard_forget(cb);
    cb->command_index++;
}

/* The views a dynamic rendering renders to and resolves into, for the lifetime checks. */
static void note_rendering_views(struct layer_device *ld, struct command_buffer_state *cb, const VkRenderingInfo *info)
{
    const VkRenderingAttachmentInfo *depth_stencil[2] = {info->pDepthAttachment, info->pStencilAttachment};
    for (uint32_t i = 0; i < info->colorAttachmentCount + 2; ++i) {
        const VkRenderingAttachmentInfo *a = i < info->colorAttachmentCount
                                                 ? &info->pColorAttachments[i]
                                                 : depth_stencil[i - info->colorAttachmentCount];
        if (a == NULL)
            continue;
        VkImageView views[2] = {a->imageView,
                                a->resolveMode != VK_RESOLVE_MODE_NONE ? a->resolveImageView : VK_NULL_HANDLE};
        for (int k = 0; k < 2; ++k)
            if (views[k] != VK_NULL_HANDLE && image_view_state_in(ld, HANDLE(views[k])) != NULL)
                lifetime_note_object(cb, VK_OBJECT_TYPE_IMAGE_VIEW, HANDLE(views[k]), 0, "vkCmdBeginRendering");
    }
}

void validate_rendering_begin(struct layer_device *ld, struct command_buffer_state *cb, const VkRenderingInfo *info)
{
    note_rendering_views(ld, cb, info);
    hazard_rendering_begin(ld, cb, info);
    cb->command_index++;
}

void validate_rendering_end(struct layer_device *ld, struct command_buffer_state *cb)
{
    if (cb->dynamic_rendering) {
        hazard_rendering_end(ld, cb);
    } else if (cb->render_pass != VK_NULL_HANDLE) {
        const struct render_pass_state *r = render_pass_state_in(ld, (uint64_t)cb->render_pass);
        if (r != NULL)
            hazard_pass_end(ld, cb, r);
        else
            hazard_forget(cb);
    }
    cb->command_index++;
}

/* --- recording ----------------------------------------------------------------------------------- */

void validate_begin(struct layer_device *ld, VkCommandBuffer cb, const char *call)
{
    lifetime_check_command_buffer(ld, cb, true, call);
}

void validate_end(struct command_buffer_state *cb)
{
    hazard_end(cb);
}

void validate_bind_pipeline(struct command_buffer_state *cb, const struct pipeline_state *p, const char *call)
{
    lifetime_note_object(cb, VK_OBJECT_TYPE_PIPELINE, HANDLE(p->handle), p->id, call);
}

void validate_bind_unknown_set(struct layer_device *ld, struct command_buffer_state *cb, VkDescriptorSet set,
                               const char *call)
{
    lifetime_check_bind_set(ld, cb, set, call);
}

void validate_execute(struct layer_device *ld, struct command_buffer_state *primary,
                      const struct command_buffer_state *secondary)
{
    hazard_execute(ld, primary, secondary);
    lifetime_note_executed(primary, secondary);
    check_dispatch_indirect_executed(primary, secondary);
}

/* --- creation ------------------------------------------------------------------------------------ */

void validate_shader_module(struct layer_device *ld, VkShaderModule module, const uint32_t *code, size_t size,
                            const char *call)
{
    if (ld->instance->settings.spirv_validation)
        check_binding_module(ld, module, code, size, call);
}

void validate_pipeline_stage(struct layer_device *ld, VkShaderModule module, const char *entry,
                             VkShaderStageFlagBits stage, const struct reflect_result *r, const char *call)
{
    check_binding_unreflected(ld, module, entry, stage, r, call);
}

void validate_pipeline(struct layer_device *ld, const struct pipeline_state *p, VkShaderModule module, const char *call)
{
    if (p->bind_point == VK_PIPELINE_BIND_POINT_COMPUTE)
        check_dispatch_pipeline(ld, p, module, call);
    check_binding_pipeline(ld, p, module, call);
}

/* --- destroy, reset, update ---------------------------------------------------------------------- */

void validate_destroy(struct layer_device *ld, VkObjectType type, uint64_t handle, const void *state, const char *call)
{
    switch (type) {
    case VK_OBJECT_TYPE_COMMAND_BUFFER:
        lifetime_check_command_buffer(ld, (VkCommandBuffer)(uintptr_t)handle, false, call);
        break;
    case VK_OBJECT_TYPE_COMMAND_POOL:
        lifetime_check_command_pool(ld, (VkCommandPool)handle, true, call);
        break;
    case VK_OBJECT_TYPE_DESCRIPTOR_POOL:
        lifetime_check_descriptor_pool(ld, (VkDescriptorPool)handle, true, call);
        break;
    case VK_OBJECT_TYPE_DESCRIPTOR_SET: /* only this set, not an earlier one of a recycled handle */
        if (state != NULL)
            lifetime_check_destroy(ld, type, handle, ((const struct set_state *)state)->id, call);
        lifetime_set_freed(ld, handle);
        break;
    case VK_OBJECT_TYPE_PIPELINE: /* likewise */
        if (state != NULL)
            lifetime_check_destroy(ld, type, handle, ((const struct pipeline_state *)state)->id, call);
        break;
    default:
        lifetime_check_destroy(ld, type, handle, 0, call);
        break;
    }
    /* a new image or allocation may get the same handle: the pending uses keyed by it are dropped */
    if (type == VK_OBJECT_TYPE_IMAGE || type == VK_OBJECT_TYPE_DEVICE_MEMORY)
        hazard_forget_key(ld, handle);
}

void validate_swapchain_destroy(struct layer_device *ld, const VkImage *images, uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i)
        hazard_forget_key(ld, HANDLE(images[i]));
}

void validate_reset(struct layer_device *ld, VkObjectType type, uint64_t handle, const char *call)
{
    if (type == VK_OBJECT_TYPE_COMMAND_POOL)
        lifetime_check_command_pool(ld, (VkCommandPool)handle, false, call);
    else if (type == VK_OBJECT_TYPE_DESCRIPTOR_POOL)
        lifetime_check_descriptor_pool(ld, (VkDescriptorPool)handle, false, call);
}

void validate_set_freed(struct layer_device *ld, uint64_t set)
{
    lifetime_set_freed(ld, set);
}

void validate_set_allocated(struct layer_device *ld, uint64_t set)
{
    lifetime_set_allocated(ld, set);
}

void validate_update(struct layer_device *ld, const struct set_state *set, uint32_t binding, const char *call)
{
    lifetime_check_update(ld, set, binding, call);
}

void validate_write(struct layer_device *ld, const struct set_state *set, const VkWriteDescriptorSet *w,
                    const char *call)
{
    lifetime_check_update(ld, set, w->dstBinding, call);
    /* only the array the type names is valid: the others may hold anything (the spec ignores them) */
    VkDescriptorType t = w->descriptorType;
    bool buffers = t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
                   t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC || t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
    bool images = t == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || t == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
                  t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER || t == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
    for (uint32_t k = 0; (buffers || images) && k < w->descriptorCount; ++k) {
        uint64_t resource = buffers && w->pBufferInfo ? HANDLE(w->pBufferInfo[k].buffer)
                            : images && w->pImageInfo ? HANDLE(w->pImageInfo[k].imageView)
                                                      : 0;
        if (resource != 0)
            check_binding_resource(ld, w->dstSet, w->descriptorType, resource, call);
    }
}

/* --- queues -------------------------------------------------------------------------------------- */

/* The work queue_progress knows complete leaves the checks' pending state. */
static void retire_completed(struct layer_device *ld)
{
    hazard_retire_completed(ld);
    lifetime_retire_completed(ld);
}

void validate_submit(struct layer_device *ld, VkQueue queue, const struct queue_batch *batch)
{
    for (uint32_t i = 0; i < batch->command_buffer_count; ++i) {
        struct command_buffer_state *cb = batch->command_buffers[i];
        if (cb != NULL && cb->indirect_count > 0)
            check_dispatch_indirect_at_submit(ld, cb, queue);
    }
    struct progress_batch ordered;
    progress_submit(ld, queue, batch, &ordered);
    hazard_submit_batch(ld, &ordered, batch);
    lifetime_submit_batch(ld, &ordered, batch);
    retire_completed(ld); /* past PROGRESS_MAX_PENDING in flight on a queue, its oldest counts as complete */
}

/* After a wait completed work: its uses retired, then the completed writes to readback buffers
 * the host is about to read. */
static void validate_completed(struct layer_device *ld, const char *call)
{
    retire_completed(ld);
    host_report_readbacks(ld, call);
}

void validate_fences_waited(struct layer_device *ld, uint32_t count, const VkFence *fences, const char *call)
{
    for (uint32_t i = 0; i < count; ++i)
        progress_fence_waited(ld, fences[i]);
    validate_completed(ld, call);
}

void validate_queue_idle(struct layer_device *ld, VkQueue queue, const char *call)
{
    progress_queue_idle(ld, queue);
    validate_completed(ld, call);
}

void validate_device_idle(struct layer_device *ld, const char *call)
{
    progress_device_idle(ld);
    validate_completed(ld, call);
}

void validate_semaphores_waited(struct layer_device *ld, const VkSemaphoreWaitInfo *info, const char *call)
{
    if (info != NULL && !((info->flags & VK_SEMAPHORE_WAIT_ANY_BIT) && info->semaphoreCount > 1))
        for (uint32_t i = 0; i < info->semaphoreCount; ++i)
            progress_semaphore_reached(ld, info->pSemaphores[i], info->pValues[i], false);
    validate_completed(ld, call);
}

void validate_counter_read(struct layer_device *ld, VkSemaphore semaphore, uint64_t value, const char *call)
{
    progress_semaphore_reached(ld, semaphore, value, true);
    validate_completed(ld, call);
}

void validate_host_signal(struct layer_device *ld, const VkSemaphoreSignalInfo *info)
{
    if (info != NULL)
        progress_host_signal(ld, info->semaphore, info->value);
}

void validate_present(struct layer_device *ld, VkQueue queue, const struct semaphore_op *waits, uint32_t wait_count,
                      const struct hazard_access *images, uint32_t image_count)
{
    struct progress_batch ordered;
    progress_present(ld, queue, waits, wait_count, &ordered);
    hazard_present(ld, &ordered, images, image_count);
}

void validate_acquire(struct layer_device *ld, VkSemaphore semaphore, VkFence fence)
{
    progress_acquired(ld, semaphore, fence);
}

/* --- host access --------------------------------------------------------------------------------- */

void validate_map(struct layer_device *ld, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize size)
{
    host_check_map(ld, memory, offset, size);
}

void validate_flush(struct layer_device *ld, uint32_t count, const VkMappedMemoryRange *ranges)
{
    host_check_flush(ld, count, ranges);
}

void validate_invalidate(struct layer_device *ld, uint32_t count, const VkMappedMemoryRange *ranges)
{
    host_check_invalidate(ld, count, ranges);
}

/* The command buffer's memo of narrowed dispatch accesses (access_footprint.h), as a part of it. */
static void footprints_reset(struct command_buffer_state *cb)
{
    access_footprint_memo_reset(cb->footprints);
}
static void footprints_free(struct command_buffer_state *cb)
{
    access_footprint_memo_free(&cb->footprints);
}

/* --- the device ---------------------------------------------------------------------------------- */

void validate_device_created(struct layer_device *ld)
{
    check_dispatch_device_init(ld);
    /* what the checks keep in each command buffer, reset and freed by the state module */
    static const struct command_buffer_part parts[] = {
        {hazard_reset, hazard_free}, {lifetime_reset, lifetime_free}, {footprints_reset, footprints_free}};
    _Static_assert(sizeof(parts) / sizeof(parts[0]) <= MAX_COMMAND_BUFFER_PARTS, "room for every part");
    memcpy(ld->command_buffer_parts, parts, sizeof(parts));
    ld->command_buffer_part_count = sizeof(parts) / sizeof(parts[0]);
}

void validate_device_destroyed(struct layer_device *ld)
{
    unseen_writes_free(ld);
    hazard_queues_free(ld);
    lifetime_tracker_free(ld);
    progress_free(ld);
}
