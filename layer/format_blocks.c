#include "format_blocks.h"

/* The core formats by VkFormat value ranges (vk.xml order). */
static uint32_t uncompressed_bytes(VkFormat f)
{
    if (f == VK_FORMAT_R4G4_UNORM_PACK8 || (f >= VK_FORMAT_R8_UNORM && f <= VK_FORMAT_R8_SRGB))
        return 1;
    if ((f >= VK_FORMAT_R4G4B4A4_UNORM_PACK16 && f <= VK_FORMAT_A1R5G5B5_UNORM_PACK16) ||
        (f >= VK_FORMAT_R8G8_UNORM && f <= VK_FORMAT_R8G8_SRGB) ||
        (f >= VK_FORMAT_R16_UNORM && f <= VK_FORMAT_R16_SFLOAT))
        return 2;
    if (f >= VK_FORMAT_R8G8B8_UNORM && f <= VK_FORMAT_B8G8R8_SRGB)
        return 3;
    if ((f >= VK_FORMAT_R8G8B8A8_UNORM && f <= VK_FORMAT_A2B10G10R10_SINT_PACK32) ||
        (f >= VK_FORMAT_R16G16_UNORM && f <= VK_FORMAT_R16G16_SFLOAT) ||
        (f >= VK_FORMAT_R32_UINT && f <= VK_FORMAT_R32_SFLOAT) || f == VK_FORMAT_B10G11R11_UFLOAT_PACK32 ||
        f == VK_FORMAT_E5B9G9R9_UFLOAT_PACK32)
        return 4;
    if (f >= VK_FORMAT_R16G16B16_UNORM && f <= VK_FORMAT_R16G16B16_SFLOAT)
        return 6;
    if ((f >= VK_FORMAT_R16G16B16A16_UNORM && f <= VK_FORMAT_R16G16B16A16_SFLOAT) ||
        (f >= VK_FORMAT_R32G32_UINT && f <= VK_FORMAT_R32G32_SFLOAT) ||
        (f >= VK_FORMAT_R64_UINT && f <= VK_FORMAT_R64_SFLOAT))
        return 8;
    if (f >= VK_FORMAT_R32G32B32_UINT && f <= VK_FORMAT_R32G32B32_SFLOAT)
        return 12;
    if ((f >= VK_FORMAT_R32G32B32A32_UINT && f <= VK_FORMAT_R32G32B32A32_SFLOAT) ||
        (f >= VK_FORMAT_R64G64_UINT && f <= VK_FORMAT_R64G64_SFLOAT))
        return 16;
    if (f >= VK_FORMAT_R64G64B64_UINT && f <= VK_FORMAT_R64G64B64_SFLOAT)
        return 24;
    if (f >= VK_FORMAT_R64G64B64A64_UINT && f <= VK_FORMAT_R64G64B64A64_SFLOAT)
        return 32;
    return 0;
}

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

/* ASTC block footprints, in VkFormat order (each as UNORM and SRGB). */
static const uint8_t astc_blocks[][2] = {{4, 4}, {5, 4},  {5, 5},  {6, 5},  {6, 6},   {8, 5},   {8, 6},
                                         {8, 8}, {10, 5}, {10, 6}, {10, 8}, {10, 10}, {12, 10}, {12, 12}};

bool format_block(VkFormat f, VkImageAspectFlags aspect, struct format_block *out)
{
    *out = (struct format_block){0, 1, 1};
    if (f >= VK_FORMAT_D16_UNORM && f <= VK_FORMAT_D32_SFLOAT_S8_UINT)
        out->bytes = depth_stencil_bytes(f, aspect);
    else if (f >= VK_FORMAT_BC1_RGB_UNORM_BLOCK && f <= VK_FORMAT_EAC_R11G11_SNORM_BLOCK) {
        out->width = out->height = 4;
        bool eight = (f >= VK_FORMAT_BC1_RGB_UNORM_BLOCK && f <= VK_FORMAT_BC1_RGBA_SRGB_BLOCK) ||
                     (f >= VK_FORMAT_BC4_UNORM_BLOCK && f <= VK_FORMAT_BC4_SNORM_BLOCK) ||
                     (f >= VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK && f <= VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK) ||
                     (f >= VK_FORMAT_EAC_R11_UNORM_BLOCK && f <= VK_FORMAT_EAC_R11_SNORM_BLOCK);
        out->bytes = eight ? 8 : 16;
    } else if (f >= VK_FORMAT_ASTC_4x4_UNORM_BLOCK && f <= VK_FORMAT_ASTC_12x12_SRGB_BLOCK) {
        const uint8_t *b = astc_blocks[(f - VK_FORMAT_ASTC_4x4_UNORM_BLOCK) / 2];
        *out = (struct format_block){16, b[0], b[1]};
    } else {
        out->bytes = uncompressed_bytes(f);
    }
    return out->bytes > 0;
}
