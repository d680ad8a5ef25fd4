/* Swapchains: their images become images of the layer like the application's own (so barriers,
 * render passes and copies on them are tracked), and presentation is a queue of its own for the
 * submit-time hazard tracker (check_hazard_submit.h): vkQueuePresentKHR waits on its semaphores
 * and reads the presented images; vkAcquireNextImageKHR signals its semaphore and fence after the
 * presentation engine's reads, so the first write to an acquired image must be ordered after the
 * wait on that semaphore (its stage mask, chained through the barriers after it). */
#include <stdlib.h>
#include <string.h>

#include "command_access_regions.h"
#include "layer_hooks.h"
#include "state_device.h"
#include "state_resources.h"
#include "validate.h"
#include "state_objects.h"

#define PRESENT_WAITS 16
#define PRESENT_IMAGES 16

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR *info,
                                                                const VkAllocationCallbacks *allocator,
                                                                VkSwapchainKHR *swapchain)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateSwapchainKHR(device, info, allocator, swapchain);
    if (result != VK_SUCCESS)
        return result;
    struct swapchain_state *s = calloc(1, sizeof(*s));
    if (s != NULL) {
        s->format = info->imageFormat;
        s->extent = info->imageExtent;
        s->layers = info->imageArrayLayers ? info->imageArrayLayers : 1;
        hook_object_created(ld, OBJECT_KIND_swapchain, HANDLE(*swapchain), s);
    }
    return result;
}

/* The swapchain's images as image states, once (the list does not change for its lifetime). */
static void note_images(struct layer_device *ld, struct swapchain_state *s, uint32_t count, const VkImage *images)
{
    if (s->images != NULL || count == 0 || (s->images = calloc(count, sizeof(VkImage))) == NULL)
        return;
    s->image_count = count;
    for (uint32_t i = 0; i < count; ++i) {
        s->images[i] = images[i];
        struct image_state *image = calloc(1, sizeof(*image));
        if (image == NULL)
            continue;
        *image = (struct image_state){.handle = images[i],
                                      .format = s->format,
                                      .extent = {s->extent.width, s->extent.height, 1},
                                      .mip_levels = 1,
                                      .array_layers = s->layers,
                                      .type = VK_IMAGE_TYPE_2D,
                                      .swapchain = true};
        free(image_state_take(ld, HANDLE(images[i]))); /* a stale state of a reused handle */
        hook_object_created(ld, OBJECT_KIND_image, HANDLE(images[i]), image);
    }
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkGetSwapchainImagesKHR(VkDevice device, VkSwapchainKHR swapchain,
                                                                   uint32_t *count, VkImage *images)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.GetSwapchainImagesKHR(device, swapchain, count, images);
    struct swapchain_state *s = swapchain_state_in(ld, HANDLE(swapchain));
    /* VK_INCOMPLETE lists only some: the full list comes with a later call */
    if (result == VK_SUCCESS && images != NULL && s != NULL)
        note_images(ld, s, *count, images);
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                                                             const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    struct swapchain_state *s = swapchain_state_take(ld, HANDLE(swapchain));
    for (uint32_t i = 0; s != NULL && i < s->image_count; ++i)
        free(image_state_take(ld, HANDLE(s->images[i])));
    if (s != NULL)
        validate_swapchain_destroy(ld, s->images, s->image_count);
    layer_object_release(OBJECT_KIND_swapchain, s);
    resource_epoch_bump(ld);
    ld->dispatch.DestroySwapchainKHR(device, swapchain, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkAcquireNextImageKHR(VkDevice device, VkSwapchainKHR swapchain,
                                                                 uint64_t timeout, VkSemaphore semaphore, VkFence fence,
                                                                 uint32_t *index)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.AcquireNextImageKHR(device, swapchain, timeout, semaphore, fence, index);
    if (result == VK_SUCCESS || result == VK_SUBOPTIMAL_KHR)
        validate_acquire(ld, semaphore, fence);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkAcquireNextImage2KHR(VkDevice device,
                                                                  const VkAcquireNextImageInfoKHR *info,
                                                                  uint32_t *index)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.AcquireNextImage2KHR(device, info, index);
    if (info != NULL && (result == VK_SUCCESS || result == VK_SUBOPTIMAL_KHR))
        validate_acquire(ld, info->semaphore, info->fence);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkQueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *info)
{
    struct layer_device *ld = layer_device_of(queue);
    if (info != NULL) {
        struct semaphore_op waits[PRESENT_WAITS];
        struct hazard_access images[PRESENT_IMAGES];
        uint32_t wait_count = 0, image_count = 0;
        for (uint32_t i = 0; i < info->waitSemaphoreCount && wait_count < PRESENT_WAITS; ++i)
            waits[wait_count++] = (struct semaphore_op){info->pWaitSemaphores[i], 0, ~0ull};
        for (uint32_t i = 0; i < info->swapchainCount && image_count < PRESENT_IMAGES; ++i) {
            const struct swapchain_state *s = swapchain_state_in(ld, HANDLE(info->pSwapchains[i]));
            if (s != NULL && info->pImageIndices[i] < s->image_count &&
                access_image_range(ld, HANDLE(s->images[info->pImageIndices[i]]), VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0,
                                   VK_REMAINING_ARRAY_LAYERS, &images[image_count]))
                image_count++;
        }
        validate_present(ld, queue, waits, wait_count, images, image_count);
    }
    return ld->dispatch.QueuePresentKHR(queue, info);
}

const struct layer_hook swapchain_hooks[] = {
    LAYER_HOOK(vkCreateSwapchainKHR),  LAYER_HOOK(vkGetSwapchainImagesKHR), LAYER_HOOK(vkDestroySwapchainKHR),
    LAYER_HOOK(vkAcquireNextImageKHR), LAYER_HOOK(vkAcquireNextImage2KHR),  LAYER_HOOK(vkQueuePresentKHR),
};
const size_t swapchain_hook_count = sizeof(swapchain_hooks) / sizeof(swapchain_hooks[0]);
