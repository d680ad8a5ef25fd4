/* The validators of validate.h: which checks each command kind meets, in which order. */
#include "validate.h"

#include "check_alias.h"
#include "check_binding.h"
#include "check_dispatch.h"
#include "check_hazard.h"
#include "check_lifetime.h"

/* What every dispatch and draw meets once its own checks ran: the bindings, the accesses (alias
 * pairs, then the hazard tracker) and the lifetime notes of what it uses. */
static void validate_bound_command(struct layer_device *ld, struct command_buffer_state *cb, struct bound_state *b,
                                   const struct command_fixed_reads *fixed, const struct dispatch_shape *dispatch,
                                   const char *call)
{
    check_binding_command(ld, cb, b, call);
    struct command_access_scratch scratch;
    struct command_accesses accesses;
    command_accesses_of(ld, cb, b, fixed, &scratch, &accesses);
    /* a bound state seen before has no accesses left to pair */
    command_accesses_judged(b, &accesses,
                            accesses.count > 1 && check_alias_command(ld, cb, b, &accesses, dispatch, call));
    hazard_command(ld, cb, accesses.memory, call);
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
    struct dispatch_shape shape = {base, count, cb->push_constants, cb->push_valid};
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

void validate_barrier_converted(struct command_buffer_state *cb, VkPipelineStageFlags src, VkPipelineStageFlags dst,
                                uint32_t memory_count, const VkMemoryBarrier *memory, uint32_t buffer_count,
                                const VkBufferMemoryBarrier *buffers, uint32_t image_count,
                                const VkImageMemoryBarrier *images, const char *call)
{
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
                                const struct render_pass_state *r)
{
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

void validate_rendering_begin(struct layer_device *ld, struct command_buffer_state *cb, const VkRenderingInfo *info)
{
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
