#include "format_blocks.h"

#include "vk_formats.h"

/* Depth/stencil: the copied aspect's size (the spec's "depth/stencil buffer copy" rules). */
static uint32_t depth_stencil_bytes(VkFormat f, VkImageAspectFlags aspect)
{
    if (aspect & VK_IMAGE_ASPECT_STENCIL_BIT)
        return f == VK_FORMAT_S8_UINT || f == VK_FORMAT_D16_UNORM_S8_UINT || f == VK_FORMAT_D24_UNORM_S8_UINT ||
                       f == VK_FORMAT_D32_SFLOAT_S8_UINT
                   ? 1
                   : 0;
    switch (f) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT:
        return 2;
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
        return 4;
    default:
        return 0;
    }
}

bool format_block(VkFormat f, VkImageAspectFlags aspect, struct format_block *out)
{
    *out = (struct format_block){0, 1, 1};
    if (f >= VK_FORMAT_D16_UNORM && f <= VK_FORMAT_D32_SFLOAT_S8_UINT) {
        out->bytes = depth_stencil_bytes(f, aspect);
        return out->bytes > 0;
    }
    /* everything else as vk.xml's <formats> gives it (registry/codegen/gen_formats.py) */
    return vk_format_block_size(f, &out->bytes, &out->width, &out->height) && out->bytes > 0;
}
