/* Queues and synchronization objects: fences, semaphores (binary and timeline) and events are
 * tracked from creation to destruction; submissions run the checks that need submit time (the
 * counts of indirect dispatches the host can read) and record what they write for the host
 * checks, which waits and vkInvalidateMappedMemoryRanges then consult. */
#include <stdlib.h>

#include "check_dispatch.h"
#include "check_host.h"
#include "layer_hooks.h"
#include "layer_state.h"

#define HANDLE(h) ((uint64_t)(h))

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateFence(VkDevice device, const VkFenceCreateInfo *info,
                                                         const VkAllocationCallbacks *allocator, VkFence *fence)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateFence(device, info, allocator, fence);
    struct fence_state *f = result == VK_SUCCESS ? calloc(1, sizeof(*f)) : NULL;
    if (f != NULL) {
        f->signaled = (info->flags & VK_FENCE_CREATE_SIGNALED_BIT) != 0;
        handle_map_put(&ld->fences, HANDLE(*fence), f);
    }
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyFence(VkDevice device, VkFence fence, const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    free(handle_map_take(&ld->fences, HANDLE(fence)));
    ld->dispatch.DestroyFence(device, fence, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo *info,
                                                             const VkAllocationCallbacks *allocator, VkSemaphore *semaphore)
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
        handle_map_put(&ld->semaphores, HANDLE(*semaphore), s);
    }
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                                          const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    free(handle_map_take(&ld->semaphores, HANDLE(semaphore)));
    ld->dispatch.DestroySemaphore(device, semaphore, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateEvent(VkDevice device, const VkEventCreateInfo *info,
                                                         const VkAllocationCallbacks *allocator, VkEvent *event)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateEvent(device, info, allocator, event);
    void *e = result == VK_SUCCESS ? calloc(1, 1) : NULL;
    if (e != NULL)
        handle_map_put(&ld->events, HANDLE(*event), e);
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyEvent(VkDevice device, VkEvent event, const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    free(handle_map_take(&ld->events, HANDLE(event)));
    ld->dispatch.DestroyEvent(device, event, allocator);
}

/* A submission's command buffers, one at a time: the checks that need submit time, and the batch
 * for the host checks (in chunks: a submit may be large). */
#define HOST_CHUNK 64
struct submission {
    VkQueue queue;
    VkFence fence;
    struct command_buffer_state *batch[HOST_CHUNK];
    uint32_t count;
};

static void submitted(struct layer_device *ld, struct submission *s, VkCommandBuffer command_buffer)
{
    /* the queue's device owns the command buffer: no registry lookup needed */
    struct command_buffer_state *cb = handle_map_get(&ld->command_buffers, HANDLE((uintptr_t)command_buffer));
    if (cb != NULL && cb->indirect_count > 0)
        check_dispatch_indirect_at_submit(ld, cb, s->queue);
    s->batch[s->count++] = cb;
    if (s->count == HOST_CHUNK) {
        host_submitted(ld, s->queue, s->fence, s->batch, s->count);
        s->count = 0;
    }
}

/* The last chunk; always recorded, even empty: the submission's fence must be known. */
static void submission_done(struct layer_device *ld, struct submission *s)
{
    host_submitted(ld, s->queue, s->fence, s->batch, s->count);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkQueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits,
                                                         VkFence fence)
{
    struct layer_device *ld = layer_device_of(queue);
    struct submission s = {.queue = queue, .fence = fence, .count = 0};
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t k = 0; k < submits[i].commandBufferCount; ++k)
            submitted(ld, &s, submits[i].pCommandBuffers[k]);
    submission_done(ld, &s);
    return ld->dispatch.QueueSubmit(queue, count, submits, fence);
}

static void submitted2(struct layer_device *ld, VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits,
                       VkFence fence)
{
    struct submission s = {.queue = queue, .fence = fence, .count = 0};
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t k = 0; k < submits[i].commandBufferInfoCount; ++k)
            submitted(ld, &s, submits[i].pCommandBufferInfos[k].commandBuffer);
    submission_done(ld, &s);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkQueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits,
                                                          VkFence fence)
{
    struct layer_device *ld = layer_device_of(queue);
    submitted2(ld, queue, count, submits, fence);
    return ld->dispatch.QueueSubmit2(queue, count, submits, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkQueueSubmit2KHR(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits,
                                                             VkFence fence)
{
    struct layer_device *ld = layer_device_of(queue);
    submitted2(ld, queue, count, submits, fence);
    return ld->dispatch.QueueSubmit2KHR(queue, count, submits, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkWaitForFences(VkDevice device, uint32_t count, const VkFence *fences,
                                                           VkBool32 wait_all, uint64_t timeout)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.WaitForFences(device, count, fences, wait_all, timeout);
    /* with waitAll false only one is known signaled; counting all can only hide a finding */
    for (uint32_t i = 0; result == VK_SUCCESS && i < count; ++i)
        host_fence_waited(ld, fences[i]);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkGetFenceStatus(VkDevice device, VkFence fence)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.GetFenceStatus(device, fence);
    if (result == VK_SUCCESS)
        host_fence_waited(ld, fence);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkQueueWaitIdle(VkQueue queue)
{
    struct layer_device *ld = layer_device_of(queue);
    VkResult result = ld->dispatch.QueueWaitIdle(queue);
    if (result == VK_SUCCESS)
        host_queue_idle(ld, queue);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkDeviceWaitIdle(VkDevice device)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.DeviceWaitIdle(device);
    if (result == VK_SUCCESS)
        host_device_idle(ld);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkWaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo *info,
                                                            uint64_t timeout)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.WaitSemaphores(device, info, timeout);
    if (result == VK_SUCCESS)
        host_device_idle(ld); /* not modelled: assume everything done */
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkWaitSemaphoresKHR(VkDevice device, const VkSemaphoreWaitInfo *info,
                                                               uint64_t timeout)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.WaitSemaphoresKHR(device, info, timeout);
    if (result == VK_SUCCESS)
        host_device_idle(ld);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkGetSemaphoreCounterValue(VkDevice device, VkSemaphore semaphore,
                                                                      uint64_t *value)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.GetSemaphoreCounterValue(device, semaphore, value);
    if (result == VK_SUCCESS)
        host_device_idle(ld); /* polling a timeline value: not modelled, assume done */
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkGetSemaphoreCounterValueKHR(VkDevice device, VkSemaphore semaphore,
                                                                         uint64_t *value)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.GetSemaphoreCounterValueKHR(device, semaphore, value);
    if (result == VK_SUCCESS)
        host_device_idle(ld);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkInvalidateMappedMemoryRanges(VkDevice device, uint32_t count,
                                                                          const VkMappedMemoryRange *ranges)
{
    struct layer_device *ld = layer_device_of(device);
    host_check_invalidate(ld, count, ranges);
    return ld->dispatch.InvalidateMappedMemoryRanges(device, count, ranges);
}

const struct layer_hook queue_hooks[] = {
    LAYER_HOOK(vkWaitForFences),        LAYER_HOOK(vkGetFenceStatus),     LAYER_HOOK(vkQueueWaitIdle),
    LAYER_HOOK(vkDeviceWaitIdle),       LAYER_HOOK(vkWaitSemaphores),     LAYER_HOOK(vkWaitSemaphoresKHR),
    LAYER_HOOK(vkGetSemaphoreCounterValue), LAYER_HOOK(vkGetSemaphoreCounterValueKHR),
    LAYER_HOOK(vkInvalidateMappedMemoryRanges),
    LAYER_HOOK(vkCreateFence),     LAYER_HOOK(vkDestroyFence),      LAYER_HOOK(vkCreateSemaphore),
    LAYER_HOOK(vkDestroySemaphore), LAYER_HOOK(vkCreateEvent),      LAYER_HOOK(vkDestroyEvent),
    LAYER_HOOK(vkQueueSubmit),     LAYER_HOOK(vkQueueSubmit2),      LAYER_HOOK(vkQueueSubmit2KHR),
};
const size_t queue_hook_count = sizeof(queue_hooks) / sizeof(queue_hooks[0]);
