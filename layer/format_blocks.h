/* Texel block sizes of formats, for the bytes a buffer<->image copy touches in the buffer: the
 * registry's table (vk.xml), with the spec's per-aspect rule for depth/stencil formats. */
#ifndef PREFLIGHT_LAYER_FORMAT_BLOCKS_H
#define PREFLIGHT_LAYER_FORMAT_BLOCKS_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

struct format_block {
    uint32_t bytes, width, height; /* one block: its size in a buffer and its texels */
};

/* The block of `format` as buffer copies of `aspect` lay it out (depth/stencil formats copy one
 * aspect at a time); false for formats the layer does not know (multi-planar, vendor ones). */
bool format_block(VkFormat format, VkImageAspectFlags aspect, struct format_block *out);

#endif
