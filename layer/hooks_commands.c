/* Command pools and command buffers: what is bound at each bind point, the debug-label stack,
 * a running command index (so findings can name "command 12"), and the dispatches the checks
 * look at. Recording touches only the command buffer's own state: no lock beyond map lookups. */
#include <stdlib.h>
#include <string.h>

#include "array_grow.h"
#include "layer_hooks.h"
#include "state_command_buffers.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "state_pipelines.h"
#include "validate.h"
#include "state_objects.h"

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateCommandPool(VkDevice device, const VkCommandPoolCreateInfo *info,
                                                               const VkAllocationCallbacks *allocator,
                                                               VkCommandPool *pool)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateCommandPool(device, info, allocator, pool);
    if (result == VK_SUCCESS) {
        hook_object_created(ld, OBJECT_KIND_command_pool, HANDLE(*pool), calloc(1, sizeof(struct command_pool_state)));
    }
    return result;
}

static void forget_command_buffer(struct layer_device *ld, VkCommandBuffer cb)
{
    command_buffers_forgotten();
    struct command_buffer_state *s = command_buffer_state_take(ld, HANDLE((uintptr_t)cb));
    if (s != NULL)
        command_buffer_free_state(s);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyCommandPool(VkDevice device, VkCommandPool pool,
                                                            const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    validate_destroy(ld, VK_OBJECT_TYPE_COMMAND_POOL, HANDLE(pool), NULL, "vkDestroyCommandPool");
    struct command_pool_state *p = command_pool_state_take(ld, HANDLE(pool));
    for (uint32_t i = 0; p != NULL && i < p->count; ++i)
        forget_command_buffer(ld, p->buffers[i]);
    layer_object_release(OBJECT_KIND_command_pool, p);
    ld->dispatch.DestroyCommandPool(device, pool, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkResetCommandPool(VkDevice device, VkCommandPool pool,
                                                              VkCommandPoolResetFlags flags)
{
    struct layer_device *ld = layer_device_of(device);
    validate_reset(ld, VK_OBJECT_TYPE_COMMAND_POOL, HANDLE(pool), "vkResetCommandPool");
    struct command_pool_state *p = command_pool_state_in(ld, HANDLE(pool));
    for (uint32_t i = 0; p != NULL && i < p->count; ++i) {
        struct command_buffer_state *s = command_buffer_state_in(ld, HANDLE((uintptr_t)p->buffers[i]));
        if (s)
            command_buffer_reset_state(s);
    }
    return ld->dispatch.ResetCommandPool(device, pool, flags);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkAllocateCommandBuffers(VkDevice device,
                                                                    const VkCommandBufferAllocateInfo *info,
                                                                    VkCommandBuffer *buffers)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.AllocateCommandBuffers(device, info, buffers);
    if (result != VK_SUCCESS)
        return result;
    struct command_pool_state *pool = command_pool_state_in(ld, HANDLE(info->commandPool));
    for (uint32_t i = 0; i < info->commandBufferCount; ++i) {
        struct command_buffer_state *s = calloc(1, sizeof(*s));
        if (s == NULL)
            continue;
        s->handle = buffers[i];
        s->pool = info->commandPool;
        s->device = ld;
        bound_state_init(&s->compute);
        bound_state_init(&s->graphics);
        hook_object_created(ld, OBJECT_KIND_command_buffer, HANDLE((uintptr_t)buffers[i]), s);
        if (pool != NULL) {
            VkCommandBuffer *grown = array_grow(pool->buffers, &pool->capacity, pool->count + 1, sizeof(*grown), 16);
            if (grown == NULL)
                continue;
            pool->buffers = grown;
            pool->buffers[pool->count++] = buffers[i];
        }
    }
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkFreeCommandBuffers(VkDevice device, VkCommandPool pool, uint32_t count,
                                                            const VkCommandBuffer *buffers)
{
    struct layer_device *ld = layer_device_of(device);
    struct command_pool_state *p = command_pool_state_in(ld, HANDLE(pool));
    for (uint32_t i = 0; i < count; ++i) {
        if (buffers[i] == VK_NULL_HANDLE)
            continue;
        validate_destroy(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, HANDLE((uintptr_t)buffers[i]), NULL,
                         "vkFreeCommandBuffers");
        forget_command_buffer(ld, buffers[i]);
        for (uint32_t k = 0; p != NULL && k < p->count; ++k)
            if (p->buffers[k] == buffers[i]) {
                p->buffers[k] = p->buffers[--p->count];
                break;
            }
    }
    ld->dispatch.FreeCommandBuffers(device, pool, count, buffers);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkBeginCommandBuffer(VkCommandBuffer command_buffer,
                                                                const VkCommandBufferBeginInfo *info)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb) {
        validate_begin(ld, command_buffer, "vkBeginCommandBuffer");
        command_buffer_reset_state(cb); /* begin implicitly resets */
    }
    return ld->dispatch.BeginCommandBuffer(command_buffer, info);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkEndCommandBuffer(VkCommandBuffer command_buffer)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb)
        validate_end(cb);
    return ld->dispatch.EndCommandBuffer(command_buffer);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkResetCommandBuffer(VkCommandBuffer command_buffer,
                                                                VkCommandBufferResetFlags flags)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb) {
        validate_begin(ld, command_buffer, "vkResetCommandBuffer");
        command_buffer_reset_state(cb);
    }
    return ld->dispatch.ResetCommandBuffer(command_buffer, flags);
}

static struct bound_state *bound_at(struct command_buffer_state *cb, VkPipelineBindPoint bind_point)
{
    return bind_point == VK_PIPELINE_BIND_POINT_COMPUTE ? &cb->compute : &cb->graphics;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdBindPipeline(VkCommandBuffer command_buffer, VkPipelineBindPoint bind_point,
                                                         VkPipeline pipeline)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL) {
        struct bound_state *b = bound_at(cb, bind_point);
        /* the same pipeline again needs no lookup (destroying a bound one invalidates the command buffer) */
        struct pipeline_state *p =
            b->pipeline && b->pipeline->handle == pipeline ? b->pipeline : pipeline_state_in(ld, HANDLE(pipeline));
        if (p != NULL)
            validate_bind_pipeline(cb, p, "vkCmdBindPipeline");
        if (p != b->pipeline) {
            if (p)
                STATE_RETAIN(p);
            pipeline_release(b->pipeline);
            b->pipeline = p;
            bound_state_changed(b);
        }
        cb->command_index++;
    }
    ld->dispatch.CmdBindPipeline(command_buffer, bind_point, pipeline);
}

/* The state of `handle`: from its recent-set memo at `b` while no set left the device's map since
 * the memo was taken, else from the map (and memoized). `*memo`: the memo that names it now, or
 * NULL. */
static struct set_state *set_state_recent(struct layer_device *ld, struct bound_state *b, VkDescriptorSet handle,
                                          struct bound_set_memo **memo)
{
    *memo = NULL;
    if (handle == VK_NULL_HANDLE)
        return NULL;
    /* read before the map: a set freed after it makes the memo taken now stale */
    uint64_t set_epoch = __atomic_load_n(&ld->set_epoch, __ATOMIC_ACQUIRE);
    if ((*memo = bound_set_memo_find(b, HANDLE(handle), set_epoch)) != NULL)
        return (*memo)->set;
    struct set_state *s = descriptor_set_state_in(ld, HANDLE(handle));
    if (s != NULL)
        *memo = bound_set_memo_store(b, HANDLE(handle), s, set_epoch);
    return s;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdBindDescriptorSets(VkCommandBuffer command_buffer,
                                                               VkPipelineBindPoint bind_point, VkPipelineLayout layout,
                                                               uint32_t first_set, uint32_t set_count,
                                                               const VkDescriptorSet *sets, uint32_t dynamic_count,
                                                               const uint32_t *dynamic_offsets)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL) {
        struct bound_state *b = bound_at(cb, bind_point);
        struct bound_set_memo *memo = NULL;
        uint32_t next_dynamic = 0;
        bool changed = false;
        for (uint32_t i = 0; i < set_count && first_set + i < MAX_BOUND_SETS; ++i) {
            uint32_t index = first_set + i;
            struct set_state *s = sets[i] != VK_NULL_HANDLE && b->sets[index] && b->sets[index]->handle == sets[i]
                                      ? b->sets[index] /* freeing a bound set invalidates the command buffer */
                                      : set_state_recent(ld, b, sets[i], &memo);
            if (s == NULL && sets[i] != VK_NULL_HANDLE) {
                validate_bind_unknown_set(ld, cb, sets[i], "vkCmdBindDescriptorSets");
                b->stale_mask |= 1u << index;
            }
            if (s != b->sets[index]) {
                if (s != NULL)
                    b->stale_mask &= ~(1u << index);
                if (s)
                    STATE_RETAIN(s);
                set_state_release(b->sets[index]);
                b->sets[index] = s;
                b->set_mask = s ? b->set_mask | 1u << index : b->set_mask & ~(1u << index);
                changed = true;
            }
            /* dynamic offsets are consumed set by set, binding by binding, element by element */
            if ((s == NULL || s->layout->dynamic_count == 0) && b->dynamic_count[index] == 0)
                continue; /* no dynamic offsets now or before */
            uint32_t offsets[MAX_DYNAMIC_PER_SET], count = 0;
            for (uint32_t k = 0; s != NULL && k < s->layout->binding_count; ++k) {
                VkDescriptorType type = s->layout->bindings[k].type;
                if (type != VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC &&
                    type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)
                    continue;
                for (uint32_t e = 0; e < s->layout->bindings[k].count; ++e, ++next_dynamic)
                    if (next_dynamic < dynamic_count && count < MAX_DYNAMIC_PER_SET)
                        offsets[count++] = dynamic_offsets[next_dynamic];
            }
            if (count != b->dynamic_count[index] ||
                memcmp(offsets, b->dynamic_offsets[index], count * sizeof(offsets[0])) != 0) {
                memcpy(b->dynamic_offsets[index], offsets, count * sizeof(offsets[0]));
                b->dynamic_count[index] = count;
                b->dynamic_mask = count ? b->dynamic_mask | 1u << index : b->dynamic_mask & ~(1u << index);
                changed = true;
            }
        }
        if (changed)
            bound_state_sets_changed(b, first_set, set_count, memo);
        cb->command_index++;
    }
    ld->dispatch.CmdBindDescriptorSets(command_buffer, bind_point, layout, first_set, set_count, sets, dynamic_count,
                                       dynamic_offsets);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdBeginDebugUtilsLabelEXT(VkCommandBuffer command_buffer,
                                                                    const VkDebugUtilsLabelEXT *label)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL && cb->label_depth < MAX_LABEL_DEPTH && label && label->pLabelName)
        cb->labels[cb->label_depth++] = strdup(label->pLabelName);
    else if (cb != NULL && cb->label_depth < MAX_LABEL_DEPTH)
        cb->labels[cb->label_depth++] = strdup("");
    if (cb != NULL)
        command_buffer_labels_changed(ld, cb);
    if (ld->dispatch.CmdBeginDebugUtilsLabelEXT)
        ld->dispatch.CmdBeginDebugUtilsLabelEXT(command_buffer, label);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdEndDebugUtilsLabelEXT(VkCommandBuffer command_buffer)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL && cb->label_depth > 0) {
        free(cb->labels[--cb->label_depth]);
        command_buffer_labels_changed(ld, cb);
    }
    if (ld->dispatch.CmdEndDebugUtilsLabelEXT)
        ld->dispatch.CmdEndDebugUtilsLabelEXT(command_buffer);
}

/* Validates the dispatch; returns the device, for the call down. */
static struct layer_device *dispatched(VkCommandBuffer command_buffer, const uint32_t base[3], const uint32_t count[3],
                                       const char *call)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL)
        validate_dispatch(ld, cb, base, count, call);
    return ld;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDispatch(VkCommandBuffer command_buffer, uint32_t x, uint32_t y, uint32_t z)
{
    const uint32_t base[3] = {0, 0, 0}, count[3] = {x, y, z};
    dispatched(command_buffer, base, count, "vkCmdDispatch")->dispatch.CmdDispatch(command_buffer, x, y, z);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDispatchBase(VkCommandBuffer command_buffer, uint32_t bx, uint32_t by,
                                                         uint32_t bz, uint32_t x, uint32_t y, uint32_t z)
{
    const uint32_t base[3] = {bx, by, bz}, count[3] = {x, y, z};
    dispatched(command_buffer, base, count, "vkCmdDispatchBase")
        ->dispatch.CmdDispatchBase(command_buffer, bx, by, bz, x, y, z);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdDispatchIndirect(VkCommandBuffer command_buffer, VkBuffer buffer,
                                                             VkDeviceSize offset)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL)
        validate_dispatch_indirect(ld, cb, buffer, offset, "vkCmdDispatchIndirect");
    ld->dispatch.CmdDispatchIndirect(command_buffer, buffer, offset);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdPipelineBarrier(VkCommandBuffer command_buffer, VkPipelineStageFlags src,
                                                            VkPipelineStageFlags dst, VkDependencyFlags flags,
                                                            uint32_t memory_count, const VkMemoryBarrier *memory,
                                                            uint32_t buffer_count, const VkBufferMemoryBarrier *buffers,
                                                            uint32_t image_count, const VkImageMemoryBarrier *images)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL)
        validate_barrier(cb, src, dst, memory_count, memory, buffer_count, buffers, image_count, images,
                         "vkCmdPipelineBarrier");
    ld->dispatch.CmdPipelineBarrier(command_buffer, src, dst, flags, memory_count, memory, buffer_count, buffers,
                                    image_count, images);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdWaitEvents(VkCommandBuffer command_buffer, uint32_t event_count,
                                                       const VkEvent *events, VkPipelineStageFlags src,
                                                       VkPipelineStageFlags dst, uint32_t memory_count,
                                                       const VkMemoryBarrier *memory, uint32_t buffer_count,
                                                       const VkBufferMemoryBarrier *buffers, uint32_t image_count,
                                                       const VkImageMemoryBarrier *images)
{
    /* The wait's first scope is limited to what preceded the vkCmdSetEvent; treating it as a
     * barrier at the wait can only hide a finding, never invent one. */
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL)
        validate_barrier(cb, src, dst, memory_count, memory, buffer_count, buffers, image_count, images,
                         "vkCmdWaitEvents");
    ld->dispatch.CmdWaitEvents(command_buffer, event_count, events, src, dst, memory_count, memory, buffer_count,
                               buffers, image_count, images);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdPipelineBarrier2(VkCommandBuffer command_buffer,
                                                             const VkDependencyInfo *info)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL)
        validate_dependencies(cb, info != NULL ? 1 : 0, info, "vkCmdPipelineBarrier2");
    ld->dispatch.CmdPipelineBarrier2(command_buffer, info);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdWaitEvents2(VkCommandBuffer command_buffer, uint32_t count,
                                                        const VkEvent *events, const VkDependencyInfo *infos)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL)
        validate_dependencies(cb, infos != NULL ? count : 0, infos, "vkCmdWaitEvents2");
    ld->dispatch.CmdWaitEvents2(command_buffer, count, events, infos);
}

/* Pushed values, for the checks that compare a dispatch with a shader's push-constant bound. */
static VKAPI_ATTR void VKAPI_CALL hook_vkCmdPushConstants(VkCommandBuffer command_buffer, VkPipelineLayout layout,
                                                          VkShaderStageFlags stages, uint32_t offset, uint32_t size,
                                                          const void *values)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL && values != NULL && offset < MAX_PUSH_CONSTANT_BYTES) {
        /* (a size past the block, even one that would wrap offset + size, is cut at its end) */
        uint32_t end = size < MAX_PUSH_CONSTANT_BYTES - offset ? offset + size : MAX_PUSH_CONSTANT_BYTES;
        memcpy(cb->push_constants + offset, values, end - offset);
        for (uint32_t word = (offset + 3) / 4; word < end / 4; ++word) /* the whole words written */
            cb->push_valid |= 1ull << word;
        cb->push_version++;
    } /* not counted in command_index, like the other state commands the layer does not hook */
    ld->dispatch.CmdPushConstants(command_buffer, layout, stages, offset, size, values);
}

/* A secondary's accesses, barriers, indirect dispatches and writes become the primary's, in
 * execution order. */
static VKAPI_ATTR void VKAPI_CALL hook_vkCmdExecuteCommands(VkCommandBuffer command_buffer, uint32_t count,
                                                            const VkCommandBuffer *secondaries)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    for (uint32_t i = 0; cb != NULL && i < count; ++i) {
        struct command_buffer_state *s = command_buffer_state_in(ld, HANDLE((uintptr_t)secondaries[i]));
        if (s == NULL)
            continue;
        for (uint32_t k = 0; k < s->written_count; ++k)
            command_buffer_note_written(cb, s->written_buffers[k]);
        validate_execute(ld, cb, s);
    }
    if (cb)
        cb->command_index++;
    ld->dispatch.CmdExecuteCommands(command_buffer, count, secondaries);
}

const struct layer_hook command_hooks[] = {
    LAYER_HOOK(vkCmdExecuteCommands),       LAYER_HOOK(vkCmdPipelineBarrier),
    LAYER_HOOK(vkCmdPipelineBarrier2),      LAYER_HOOK(vkCmdWaitEvents),
    LAYER_HOOK(vkCmdWaitEvents2),           LAYER_HOOK(vkCreateCommandPool),
    LAYER_HOOK(vkDestroyCommandPool),       LAYER_HOOK(vkResetCommandPool),
    LAYER_HOOK(vkAllocateCommandBuffers),   LAYER_HOOK(vkFreeCommandBuffers),
    LAYER_HOOK(vkBeginCommandBuffer),       LAYER_HOOK(vkEndCommandBuffer),
    LAYER_HOOK(vkResetCommandBuffer),       LAYER_HOOK(vkCmdBindPipeline),
    LAYER_HOOK(vkCmdBindDescriptorSets),    LAYER_HOOK(vkCmdBeginDebugUtilsLabelEXT),
    LAYER_HOOK(vkCmdEndDebugUtilsLabelEXT), LAYER_HOOK(vkCmdDispatch),
    LAYER_HOOK(vkCmdDispatchBase),          LAYER_HOOK(vkCmdDispatchIndirect),
    LAYER_HOOK(vkCmdPushConstants),
};
const size_t command_hook_count = sizeof(command_hooks) / sizeof(command_hooks[0]);
