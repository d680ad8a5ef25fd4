/* Queues and synchronization objects: fences, semaphores (binary and timeline) and events are
 * tracked from creation to destruction; submissions run the checks that need submit time (the
 * counts of indirect dispatches the host can read). */
#include <stdlib.h>

#include "check_dispatch.h"
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

static void submitted(struct layer_device *ld, VkQueue queue, VkCommandBuffer command_buffer)
{
    struct command_buffer_state *cb = command_buffer_state_of(command_buffer);
    if (cb != NULL && cb->indirect_count > 0)
        check_dispatch_indirect_at_submit(ld, cb, queue);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkQueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits,
                                                         VkFence fence)
{
    struct layer_device *ld = layer_device_of(queue);
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t k = 0; k < submits[i].commandBufferCount; ++k)
            submitted(ld, queue, submits[i].pCommandBuffers[k]);
    return ld->dispatch.QueueSubmit(queue, count, submits, fence);
}

static void submitted2(struct layer_device *ld, VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits)
{
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t k = 0; k < submits[i].commandBufferInfoCount; ++k)
            submitted(ld, queue, submits[i].pCommandBufferInfos[k].commandBuffer);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkQueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits,
                                                          VkFence fence)
{
    struct layer_device *ld = layer_device_of(queue);
    submitted2(ld, queue, count, submits);
    return ld->dispatch.QueueSubmit2(queue, count, submits, fence);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkQueueSubmit2KHR(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits,
                                                             VkFence fence)
{
    struct layer_device *ld = layer_device_of(queue);
    submitted2(ld, queue, count, submits);
    return ld->dispatch.QueueSubmit2KHR(queue, count, submits, fence);
}

const struct layer_hook queue_hooks[] = {
    LAYER_HOOK(vkCreateFence),     LAYER_HOOK(vkDestroyFence),      LAYER_HOOK(vkCreateSemaphore),
    LAYER_HOOK(vkDestroySemaphore), LAYER_HOOK(vkCreateEvent),      LAYER_HOOK(vkDestroyEvent),
    LAYER_HOOK(vkQueueSubmit),     LAYER_HOOK(vkQueueSubmit2),      LAYER_HOOK(vkQueueSubmit2KHR),
};
const size_t queue_hook_count = sizeof(queue_hooks) / sizeof(queue_hooks[0]);
