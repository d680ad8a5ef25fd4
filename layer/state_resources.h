/* The states of device memory, buffers, buffer views, images, image views and swapchains (hooks_resources.c,
 * hooks_swapchain.c): sizes, usage and which memory range backs each resource (aliasing and hazards
 * are judged on memory, not on handles). */
#ifndef PREFLIGHT_LAYER_STATE_RESOURCES_H
#define PREFLIGHT_LAYER_STATE_RESOURCES_H

#include <stdbool.h>
#include <vulkan/vulkan_core.h>

struct memory_state {
    VkDeviceMemory handle;
    VkDeviceSize size;
    VkMemoryPropertyFlags properties;
    void *mapped; /* the app's mapping, while mapped */
    VkDeviceSize mapped_offset, mapped_size;
};

struct buffer_state {
    VkBuffer handle;
    VkDeviceSize size;
    VkBufferUsageFlags usage;
    VkDeviceMemory memory;
    VkDeviceSize memory_offset;
};

struct image_state {
    VkImage handle;
    VkFormat format;
    VkExtent3D extent;
    uint32_t mip_levels, array_layers;
    VkImageUsageFlags usage;
    VkDeviceMemory memory;
    VkDeviceSize memory_offset;
    VkImageType type; /* 3D images are tracked by depth slice (hazard_image_slices) */
    bool swapchain;   /* owned by a swapchain (hooks_swapchain.c), not the application */
};

struct image_view_state {
    VkImageView handle;
    VkImage image;
    VkFormat format;
    VkImageSubresourceRange range;
    VkImageViewType view_type; /* a 2D or 2D-array view of a 3D image names depth slices as layers */
};

/* A texel buffer view (vkCreateBufferView): the buffer bytes [offset, offset + range) it reads
 * and writes, `range` resolved when created (VK_WHOLE_SIZE: to the end of the buffer, rounded
 * down to whole texels of `format`, as the specification sizes such a view). */
struct buffer_view_state {
    VkBufferView handle;
    VkBuffer buffer;
    VkFormat format;
    VkDeviceSize offset, range;
};

/* A swapchain's images (hooks_swapchain.c): the layer tracks them like the application's own. */
struct swapchain_state {
    uint32_t image_count;
    VkImage *images;
    VkFormat format;
    VkExtent2D extent;
    uint32_t layers;
};

#endif
