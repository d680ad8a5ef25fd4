/* Device memory, buffers, images and views: sizes, usage and which memory range backs each
 * resource (aliasing and hazards are judged on memory, not on handles). */
#include <stdlib.h>
#include <string.h>

#include "format_blocks.h"
#include "layer_hooks.h"
#include "state_device.h"
#include "state_resources.h"
#include "validate.h"

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkAllocateMemory(VkDevice device, const VkMemoryAllocateInfo *info,
                                                            const VkAllocationCallbacks *allocator,
                                                            VkDeviceMemory *memory)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.AllocateMemory(device, info, allocator, memory);
    if (result != VK_SUCCESS)
        return result;
    struct memory_state *m = calloc(1, sizeof(*m));
    if (m != NULL) {
        VkPhysicalDeviceMemoryProperties properties;
        ld->instance->dispatch.GetPhysicalDeviceMemoryProperties(ld->physical, &properties);
        m->handle = *memory;
        m->size = info->allocationSize;
        if (info->memoryTypeIndex < properties.memoryTypeCount)
            m->properties = properties.memoryTypes[info->memoryTypeIndex].propertyFlags;
        hook_object_created(ld, OBJECT_KIND_memory, HANDLE(*memory), m);
    }
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkFreeMemory(VkDevice device, VkDeviceMemory memory,
                                                    const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_memory, HANDLE(memory), "vkFreeMemory");
    ld->dispatch.FreeMemory(device, memory, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkMapMemory(VkDevice device, VkDeviceMemory memory, VkDeviceSize offset,
                                                       VkDeviceSize size, VkMemoryMapFlags flags, void **data)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.MapMemory(device, memory, offset, size, flags, data);
    struct memory_state *m = memory_state_in(ld, HANDLE(memory));
    if (result == VK_SUCCESS && m != NULL) {
        m->mapped = *data;
        m->mapped_offset = offset;
        m->mapped_size = size == VK_WHOLE_SIZE ? m->size - offset : size;
    }
    if (result == VK_SUCCESS)
        validate_map(ld, memory, offset, size);
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkUnmapMemory(VkDevice device, VkDeviceMemory memory)
{
    struct layer_device *ld = layer_device_of(device);
    struct memory_state *m = memory_state_in(ld, HANDLE(memory));
    if (m != NULL)
        m->mapped = NULL;
    ld->dispatch.UnmapMemory(device, memory);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateBuffer(VkDevice device, const VkBufferCreateInfo *info,
                                                          const VkAllocationCallbacks *allocator, VkBuffer *buffer)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateBuffer(device, info, allocator, buffer);
    if (result == VK_SUCCESS) {
        struct buffer_state *b = calloc(1, sizeof(*b));
        if (b != NULL) {
            b->handle = *buffer;
            b->size = info->size;
            b->usage = info->usage;
            /* VK_KHR_maintenance5: VkBufferUsageFlags2CreateInfoKHR replaces info->usage (the
             * struct is newer than the headers we build against, hence the raw sType) */
            for (const VkBaseInStructure *s = info->pNext; s != NULL; s = s->pNext)
                if ((uint32_t)s->sType == 1000470006u)
                    b->usage = (VkBufferUsageFlags) * (const uint64_t *)(const void *)(s + 1);
            hook_object_created(ld, OBJECT_KIND_buffer, HANDLE(*buffer), b);
        }
    }
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyBuffer(VkDevice device, VkBuffer buffer,
                                                       const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_buffer, HANDLE(buffer), "vkDestroyBuffer");
    resource_epoch_bump(ld);
    ld->dispatch.DestroyBuffer(device, buffer, allocator);
}

/* vkBind*Memory*: the memory range that backs a buffer or image from now on. A buffer's moves what
 * descriptors of it resolved to (the resource epoch); an image's descriptors name the image. */
static void bind_memory(struct layer_device *ld, enum layer_object_kind kind, uint64_t handle, VkDeviceMemory memory,
                        VkDeviceSize offset)
{
    struct buffer_state *b = kind == OBJECT_KIND_buffer ? buffer_state_in(ld, handle) : NULL;
    struct image_state *i = kind == OBJECT_KIND_image ? image_state_in(ld, handle) : NULL;
    if (b != NULL) {
        b->memory = memory;
        b->memory_offset = offset;
    } else if (i != NULL) {
        i->memory = memory;
        i->memory_offset = offset;
    }
    if (kind == OBJECT_KIND_buffer)
        resource_epoch_bump(ld);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkBindBufferMemory(VkDevice device, VkBuffer buffer, VkDeviceMemory memory,
                                                              VkDeviceSize offset)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.BindBufferMemory(device, buffer, memory, offset);
    if (result == VK_SUCCESS)
        bind_memory(ld, OBJECT_KIND_buffer, HANDLE(buffer), memory, offset);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkBindBufferMemory2(VkDevice device, uint32_t count,
                                                               const VkBindBufferMemoryInfo *infos)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.BindBufferMemory2(device, count, infos);
    if (result == VK_SUCCESS)
        for (uint32_t i = 0; i < count; ++i)
            bind_memory(ld, OBJECT_KIND_buffer, HANDLE(infos[i].buffer), infos[i].memory, infos[i].memoryOffset);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateImage(VkDevice device, const VkImageCreateInfo *info,
                                                         const VkAllocationCallbacks *allocator, VkImage *image)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateImage(device, info, allocator, image);
    if (result == VK_SUCCESS) {
        struct image_state *s = calloc(1, sizeof(*s));
        if (s != NULL) {
            s->handle = *image;
            s->format = info->format;
            s->extent = info->extent;
            s->mip_levels = info->mipLevels;
            s->array_layers = info->arrayLayers;
            s->usage = info->usage;
            s->type = info->imageType;
            hook_object_created(ld, OBJECT_KIND_image, HANDLE(*image), s);
        }
    }
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyImage(VkDevice device, VkImage image,
                                                      const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_image, HANDLE(image), "vkDestroyImage");
    resource_epoch_bump(ld);
    ld->dispatch.DestroyImage(device, image, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkBindImageMemory(VkDevice device, VkImage image, VkDeviceMemory memory,
                                                             VkDeviceSize offset)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.BindImageMemory(device, image, memory, offset);
    if (result == VK_SUCCESS)
        bind_memory(ld, OBJECT_KIND_image, HANDLE(image), memory, offset);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkBindImageMemory2(VkDevice device, uint32_t count,
                                                              const VkBindImageMemoryInfo *infos)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.BindImageMemory2(device, count, infos);
    if (result == VK_SUCCESS)
        for (uint32_t i = 0; i < count; ++i)
            bind_memory(ld, OBJECT_KIND_image, HANDLE(infos[i].image), infos[i].memory, infos[i].memoryOffset);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateImageView(VkDevice device, const VkImageViewCreateInfo *info,
                                                             const VkAllocationCallbacks *allocator, VkImageView *view)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateImageView(device, info, allocator, view);
    if (result == VK_SUCCESS) {
        struct image_view_state *s = calloc(1, sizeof(*s));
        if (s != NULL) {
            s->handle = *view;
            s->image = info->image;
            s->format = info->format;
            s->range = info->subresourceRange;
            s->view_type = info->viewType;
            hook_object_created(ld, OBJECT_KIND_image_view, HANDLE(*view), s);
        }
    }
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyImageView(VkDevice device, VkImageView view,
                                                          const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_image_view, HANDLE(view), "vkDestroyImageView");
    resource_epoch_bump(ld);
    ld->dispatch.DestroyImageView(device, view, allocator);
}

/* Samplers have no state here: only the lifetime check, against the descriptors of pending work. */
static VKAPI_ATTR void VKAPI_CALL hook_vkDestroySampler(VkDevice device, VkSampler sampler,
                                                        const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    validate_destroy(ld, VK_OBJECT_TYPE_SAMPLER, HANDLE(sampler), NULL, "vkDestroySampler");
    ld->dispatch.DestroySampler(device, sampler, allocator);
}

/* A texel buffer view: the buffer bytes its descriptors read and write (descriptor_writes.c). The
 * range is resolved now, against the buffer's size: VK_WHOLE_SIZE is the largest multiple of the
 * format's texel size that fits between the offset and the buffer's end (a format the layer does
 * not know keeps every byte to the end, which covers at least the view's texels). */
static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateBufferView(VkDevice device, const VkBufferViewCreateInfo *info,
                                                              const VkAllocationCallbacks *allocator,
                                                              VkBufferView *view)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateBufferView(device, info, allocator, view);
    if (result != VK_SUCCESS)
        return result;
    struct buffer_view_state *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return result;
    s->handle = *view;
    s->buffer = info->buffer;
    s->format = info->format;
    s->offset = info->offset;
    s->range = info->range;
    const struct buffer_state *b = buffer_state_in(ld, HANDLE(info->buffer));
    if (info->range == VK_WHOLE_SIZE) {
        /* the offset comes from the application: no wrap when it is past the buffer's end */
        VkDeviceSize rest = b != NULL && info->offset < b->size ? b->size - info->offset : 0;
        struct format_block block;
        if (format_block(info->format, VK_IMAGE_ASPECT_COLOR_BIT, &block) && block.bytes > 0)
            rest -= rest % block.bytes;
        s->range = b != NULL ? rest : VK_WHOLE_SIZE;
    }
    hook_object_created(ld, OBJECT_KIND_buffer_view, HANDLE(*view), s);
    return result;
}

/* Descriptors resolved the view when they were written; the lifetime check looks for it in the
 * descriptors of pending work. */
static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyBufferView(VkDevice device, VkBufferView view,
                                                           const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_buffer_view, HANDLE(view), "vkDestroyBufferView");
    resource_epoch_bump(ld);
    ld->dispatch.DestroyBufferView(device, view, allocator);
}

const struct layer_hook resource_hooks[] = {
    LAYER_HOOK(vkAllocateMemory),   LAYER_HOOK(vkFreeMemory),        LAYER_HOOK(vkMapMemory),
    LAYER_HOOK(vkUnmapMemory),      LAYER_HOOK(vkCreateBuffer),      LAYER_HOOK(vkDestroyBuffer),
    LAYER_HOOK(vkBindBufferMemory), LAYER_HOOK(vkBindBufferMemory2), LAYER_HOOK(vkCreateImage),
    LAYER_HOOK(vkDestroyImage),     LAYER_HOOK(vkBindImageMemory),   LAYER_HOOK(vkBindImageMemory2),
    LAYER_HOOK(vkCreateImageView),  LAYER_HOOK(vkDestroyImageView),  LAYER_HOOK(vkDestroySampler),
    LAYER_HOOK(vkCreateBufferView), LAYER_HOOK(vkDestroyBufferView),
};
const size_t resource_hook_count = sizeof(resource_hooks) / sizeof(resource_hooks[0]);
