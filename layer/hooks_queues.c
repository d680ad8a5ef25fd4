/* Queues and synchronization objects: fences and semaphores (binary and timeline) are tracked
 * from creation to destruction (events need no state: their dependencies are recorded at
 * vkCmdWaitEvents); each submission is handed to validate_submit batch by batch, each successful
 * wait to the validator of what it shows complete, and mapped-range flushes and invalidations to
 * the host checks' validators. */
#include <stdlib.h>
#include <string.h>

#include "layer_hooks.h"
#include "state_command_buffers.h"
#include "state_device.h"
#include "validate.h"

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateFence(VkDevice device, const VkFenceCreateInfo *info,
                                                         const VkAllocationCallbacks *allocator, VkFence *fence)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateFence(device, info, allocator, fence);
    if (result == VK_SUCCESS)
        hook_object_created(ld, OBJECT_KIND_fence, HANDLE(*fence), calloc(1, sizeof(struct fence_state)));
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyFence(VkDevice device, VkFence fence,
                                                      const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_fence, HANDLE(fence), "vkDestroyFence");
    ld->dispatch.DestroyFence(device, fence, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *info,
                                                             const VkAllocationCallbacks *allocator,
                                                             VkSemaphore *semaphore)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateSemaphore(device, info, allocator, semaphore);
    struct semaphore_state *s = result == VK_SUCCESS ? calloc(1, sizeof(*s)) : NULL;
    if (s != NULL) {
        s->type = VK_SEMAPHORE_TYPE_BINARY;
        for (const VkBaseInStructure *n = info->pNext; n != NULL; n = n->pNext)
            if (n->sType == VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO) {
                s->type = ((const VkSemaphoreTypeCreateInfo *)n)->semaphoreType;
                s->initial_value = ((const VkSemaphoreTypeCreateInfo *)n)->initialValue;
            }
        hook_object_created(ld, OBJECT_KIND_semaphore, HANDLE(*semaphore), s);
    }
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                                          const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_semaphore, HANDLE(semaphore), "vkDestroySemaphore");
    ld->dispatch.DestroySemaphore(device, semaphore, allocator);
}

/* The state of a command buffer the queue's device owns (no registry lookup needed); NULL for one
 * the layer does not know. */
static struct command_buffer_state *submitted(struct layer_device *ld, VkCommandBuffer command_buffer)
{
    return command_buffer_state_in(ld, HANDLE((uintptr_t)command_buffer));
}

/* One batch for validate_submit: its waits, command buffers and signals. Arrays
 * beyond the stack sizes are cut: a dropped wait becomes an unmatched one (a full dependency),
 * a dropped signal only hides later findings. */
#define BATCH_OPS PROGRESS_MAX_WAITS
#define BATCH_BUFFERS 64
struct batch_builder {
    struct semaphore_op waits[BATCH_OPS], signals[BATCH_OPS];
    struct command_buffer_state *buffers[BATCH_BUFFERS];
    struct queue_batch batch;
};

static void batch_begin(struct batch_builder *b)
{
    memset(&b->batch, 0, sizeof(b->batch));
    b->batch.waits = b->waits;
    b->batch.signals = b->signals;
    b->batch.command_buffers = b->buffers;
}

static void batch_wait(struct batch_builder *b, VkSemaphore semaphore, uint64_t value, uint64_t stages)
{
    if (b->batch.wait_count == BATCH_OPS) { /* the last slot becomes "wait for everything" */
        semaphore = VK_NULL_HANDLE;
        b->batch.wait_count--;
    }
    b->waits[b->batch.wait_count++] = (struct semaphore_op){semaphore, value, stages};
}

static void batch_signal(struct batch_builder *b, VkSemaphore semaphore, uint64_t value)
{
    if (b->batch.signal_count < BATCH_OPS)
        b->signals[b->batch.signal_count++] = (struct semaphore_op){semaphore, value, 0};
}

static void batch_buffer(struct layer_device *ld, struct batch_builder *b, VkQueue queue,
                         struct command_buffer_state *cb)
{
    if (b->batch.command_buffer_count == BATCH_BUFFERS) { /* a long batch: checked in parts */
        VkFence fence = b->batch.fence;
        b->batch.fence = VK_NULL_HANDLE;
        validate_submit(ld, queue, &b->batch);
        b->batch.wait_count = b->batch.signal_count = b->batch.command_buffer_count = 0;
        b->batch.fence = fence;
    }
    b->buffers[b->batch.command_buffer_count++] = cb;
}

/* A fence-only submission (no batches) still signals its fence after all earlier work. */
static void fence_only(struct layer_device *ld, VkQueue queue, VkFence fence)
{
    struct batch_builder b;
    batch_begin(&b);
    b.batch.fence = fence;
    validate_submit(ld, queue, &b.batch);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkQueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits,
                                                         VkFence fence)
{
    struct layer_device *ld = layer_device_of(queue);
    struct batch_builder b;
    for (uint32_t i = 0; i < count; ++i) {
        const VkSubmitInfo *info = &submits[i];
        const VkTimelineSemaphoreSubmitInfo *values = NULL;
        for (const VkBaseInStructure *n = info->pNext; n != NULL; n = n->pNext)
            if (n->sType == VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO)
                values = (const VkTimelineSemaphoreSubmitInfo *)n;
        batch_begin(&b);
        for (uint32_t k = 0; k < info->waitSemaphoreCount; ++k)
            batch_wait(&b, info->pWaitSemaphores[k],
                       values && values->pWaitSemaphoreValues && k < values->waitSemaphoreValueCount
                           ? values->pWaitSemaphoreValues[k]
                           : 0,
                       info->pWaitDstStageMask ? info->pWaitDstStageMask[k] : VK_PIPELINE_STAGE_ALL_COMMANDS_BIT);
        for (uint32_t k = 0; k < info->commandBufferCount; ++k)
            batch_buffer(ld, &b, queue, submitted(ld, info->pCommandBuffers[k]));
        for (uint32_t k = 0; k < info->signalSemaphoreCount; ++k)
            batch_signal(&b, info->pSignalSemaphores[k],
                         values && values->pSignalSemaphoreValues && k < values->signalSemaphoreValueCount
                             ? values->pSignalSemaphoreValues[k]
                             : 0);
        b.batch.fence = i + 1 == count ? fence : VK_NULL_HANDLE;
        validate_submit(ld, queue, &b.batch);
    }
    if (count == 0 && fence != VK_NULL_HANDLE)
        fence_only(ld, queue, fence);
    return ld->dispatch.QueueSubmit(queue, count, submits, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkQueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits,
                                                          VkFence fence)
{
    struct layer_device *ld = layer_device_of(queue);
    struct batch_builder b;
    for (uint32_t i = 0; i < count; ++i) {
        const VkSubmitInfo2 *info = &submits[i];
        batch_begin(&b);
        for (uint32_t k = 0; k < info->waitSemaphoreInfoCount; ++k)
            batch_wait(&b, info->pWaitSemaphoreInfos[k].semaphore, info->pWaitSemaphoreInfos[k].value,
                       info->pWaitSemaphoreInfos[k].stageMask);
        for (uint32_t k = 0; k < info->commandBufferInfoCount; ++k)
            batch_buffer(ld, &b, queue, submitted(ld, info->pCommandBufferInfos[k].commandBuffer));
        for (uint32_t k = 0; k < info->signalSemaphoreInfoCount; ++k)
            batch_signal(&b, info->pSignalSemaphoreInfos[k].semaphore, info->pSignalSemaphoreInfos[k].value);
        b.batch.fence = i + 1 == count ? fence : VK_NULL_HANDLE;
        validate_submit(ld, queue, &b.batch);
    }
    if (count == 0 && fence != VK_NULL_HANDLE)
        fence_only(ld, queue, fence);
    return ld->dispatch.QueueSubmit2(queue, count, submits, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkWaitForFences(VkDevice device, uint32_t count, const VkFence *fences,
                                                           VkBool32 wait_all, uint64_t timeout)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.WaitForFences(device, count, fences, wait_all, timeout);
    if (result == VK_SUCCESS)
        validate_fences_waited(ld, count, fences, "vkWaitForFences");
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkGetFenceStatus(VkDevice device, VkFence fence)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.GetFenceStatus(device, fence);
    if (result == VK_SUCCESS)
        validate_fences_waited(ld, 1, &fence, "vkGetFenceStatus");
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkQueueWaitIdle(VkQueue queue)
{
    struct layer_device *ld = layer_device_of(queue);
    VkResult result = ld->dispatch.QueueWaitIdle(queue);
    if (result == VK_SUCCESS)
        validate_queue_idle(ld, queue, "vkQueueWaitIdle");
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkDeviceWaitIdle(VkDevice device)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.DeviceWaitIdle(device);
    if (result == VK_SUCCESS)
        validate_device_idle(ld, "vkDeviceWaitIdle");
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkWaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo *info,
                                                            uint64_t timeout)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.WaitSemaphores(device, info, timeout);
    if (result == VK_SUCCESS)
        validate_semaphores_waited(ld, info, "vkWaitSemaphores");
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkWaitSemaphoresKHR(VkDevice device, const VkSemaphoreWaitInfo *info,
                                                               uint64_t timeout)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.WaitSemaphoresKHR(device, info, timeout);
    if (result == VK_SUCCESS)
        validate_semaphores_waited(ld, info, "vkWaitSemaphoresKHR");
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkGetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore,
                                                                      uint64_t *value)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.GetSemaphoreCounterValue(device, semaphore, value);
    if (result == VK_SUCCESS)
        validate_counter_read(ld, semaphore, *value, "vkGetSemaphoreCounterValue");
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkGetSemaphoreCounterValueKHR(VkDevice device, VkSemaphore semaphore,
                                                                         uint64_t *value)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.GetSemaphoreCounterValueKHR(device, semaphore, value);
    if (result == VK_SUCCESS)
        validate_counter_read(ld, semaphore, *value, "vkGetSemaphoreCounterValueKHR");
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkSignalSemaphore(VkDevice device, const VkSemaphoreSignalInfo *info)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.SignalSemaphore(device, info);
    if (result == VK_SUCCESS)
        validate_host_signal(ld, info);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkInvalidateMappedMemoryRanges(VkDevice device, uint32_t count,
                                                                          const VkMappedMemoryRange *ranges)
{
    struct layer_device *ld = layer_device_of(device);
    validate_invalidate(ld, count, ranges);
    return ld->dispatch.InvalidateMappedMemoryRanges(device, count, ranges);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkFlushMappedMemoryRanges(VkDevice device, uint32_t count,
                                                                     const VkMappedMemoryRange *ranges)
{
    struct layer_device *ld = layer_device_of(device);
    validate_flush(ld, count, ranges);
    return ld->dispatch.FlushMappedMemoryRanges(device, count, ranges);
}

const struct layer_hook queue_hooks[] = {
    LAYER_HOOK(vkWaitForFences),
    LAYER_HOOK(vkGetFenceStatus),
    LAYER_HOOK(vkQueueWaitIdle),
    LAYER_HOOK(vkDeviceWaitIdle),
    LAYER_HOOK(vkWaitSemaphores),
    LAYER_HOOK(vkWaitSemaphoresKHR),
    LAYER_HOOK(vkGetSemaphoreCounterValue),
    LAYER_HOOK(vkGetSemaphoreCounterValueKHR),
    LAYER_HOOK(vkSignalSemaphore),
    LAYER_HOOK(vkInvalidateMappedMemoryRanges),
    LAYER_HOOK(vkFlushMappedMemoryRanges),
    LAYER_HOOK(vkCreateFence),
    LAYER_HOOK(vkDestroyFence),
    LAYER_HOOK(vkCreateSemaphore),
    LAYER_HOOK(vkDestroySemaphore),
    LAYER_HOOK(vkQueueSubmit),
    LAYER_HOOK(vkQueueSubmit2),
};
const size_t queue_hook_count = sizeof(queue_hooks) / sizeof(queue_hooks[0]);
