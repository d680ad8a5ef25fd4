/* What transfer commands and render-pass operations touch, as memory ranges (command_access_regions.c):
 * buffers, images and views in the hazard tracker's terms, the regions of copies, fills, clears,
 * blits and resolves (with format_blocks.h), and the load, store and resolve operations on
 * attachments. The accesses of dispatches and draws are command_access.h's. */
#ifndef PREFLIGHT_LAYER_COMMAND_ACCESS_REGIONS_H
#define PREFLIGHT_LAYER_COMMAND_ACCESS_REGIONS_H

#include "state_device.h"
#include "state_resources.h"
#include "memory_access.h"
#include "image_area.h"

/* Resources as memory ranges (false for an unknown one or an empty range). The buffer range of `buffer` in memory terms, for barriers and transfer commands. */
bool access_buffer_range(struct layer_device *ld, uint64_t buffer, VkDeviceSize offset, VkDeviceSize size,
                         struct hazard_access *out);

/* An image subresource range (mips, layers) in the tracker's terms. A 3D image's "layers" are its
 * depth slices: a subresource range of one covers every slice. A multi-planar image's planes are
 * layers too (plane p's layer l is p * arrayLayers + l), the planes `aspect` names
 * (VK_IMAGE_ASPECT_PLANE_n_BIT; any other aspect: every plane). */
bool access_image_range(struct layer_device *ld, uint64_t image, VkImageAspectFlags aspect, uint32_t base_mip,
                        uint32_t mip_count, uint32_t base_layer, uint32_t layer_count, struct hazard_access *out);
/* One mip level of a copy region: array layers [base_layer, +layer_count) of the planes `aspect`
 * names, or for a 3D image the depth slices [z, z + depth) of that level. */
bool access_image_region(struct layer_device *ld, uint64_t image, VkImageAspectFlags aspect, uint32_t mip,
                         uint32_t base_layer, uint32_t layer_count, int32_t z, uint32_t depth,
                         struct hazard_access *out);
/* What an image view covers (`layers` 0: the view's own layer count; `one_mip`: its base level
 * only, as attachments). A 2D or 2D-array view of a 3D image covers the slices it names. */
bool access_view_range(struct layer_device *ld, const struct image_view_state *view, uint32_t layers, bool one_mip,
                       struct hazard_access *out);

/* Whether a depth/stencil attachment in `layout` is written (not a read-only layout). */
static inline bool depth_layout_writable(VkImageLayout layout)
{
    switch (layout) {
    case VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_STENCIL_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL: /* depth (the aspect shaders sample) read-only */
    case VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL:
    case VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL:
        return false;
    default:
        return true;
    }
}

/* Which operation on an attachment: depth/stencil loads happen in EARLY_FRAGMENT_TESTS, stores in
 * LATE_FRAGMENT_TESTS, color ones and resolves in COLOR_ATTACHMENT_OUTPUT. */
enum attachment_op { ATTACHMENT_LOAD, ATTACHMENT_STORE, ATTACHMENT_RESOLVE };
/* An attachment's access by a load, store or resolve operation (`layers` 0: the view's layers),
 * with the render area `area` (NULL: every pixel, as layout transitions touch them): bounding the
 * access under render_area = pixels, named only under render_area = attachment (image_area.h). */
bool command_attachment_access(struct layer_device *ld, VkImageView view, uint32_t layers, bool depth,
                               enum attachment_op op, bool write, const struct image_rect *area,
                               struct hazard_access *out);

/* Image-to-image commands (copy, blit, resolve): `count` regions `stride` bytes apart, their
 * source and destination VkImageSubresourceLayers at `src_at` and `dst_at`, each followed by its
 * VkOffset3D and the region's VkExtent3D at `extent_at`, or (blits, `extent_at` 0) by two corners. */
void command_transfer_image_pairs(struct layer_device *ld, struct hazard_accesses *out, VkImage src, VkImage dst,
                                  uint32_t count, const void *regions, size_t stride, size_t src_at, size_t dst_at,
                                  size_t extent_at);

/* Transfer commands' accesses (TRANSFER-stage reads and writes), appended to `out` while it has
 * room; what the layer does not know (an unknown buffer or image, a format without a block size)
 * is left out. */
void command_transfer_buffer(struct layer_device *ld, struct hazard_accesses *out, uint64_t buffer, VkDeviceSize offset,
                             VkDeviceSize size, bool write);
/* Whole subresource ranges (clears). */
void command_transfer_image(struct layer_device *ld, struct hazard_accesses *out, VkImage image,
                            const VkImageSubresourceRange *range, bool write);
/* A region's texels: its offset and extent (VkOffset3D and VkExtent3D as a copy names them). */
struct texel_box {
    int32_t x, y, z;
    uint32_t width, height, depth;
};
static inline struct texel_box texel_box_of(VkOffset3D offset, VkExtent3D extent)
{
    return (struct texel_box){offset.x, offset.y, offset.z, extent.width, extent.height, extent.depth};
}
/* One region of a copy: the rectangle of its box on its layers, or on the depth slices
 * [z, z + depth) of a 3D image (image_area.h: copies into disjoint rectangles do not meet). */
void command_transfer_image_region(struct layer_device *ld, struct hazard_accesses *out, VkImage image,
                                   const VkImageSubresourceLayers *layers, const struct texel_box *box, bool write);
/* The bytes of `buffer` a buffer<->image copy region reads or writes. */
void command_transfer_buffer_image_region(struct layer_device *ld, struct hazard_accesses *out, VkBuffer buffer,
                                          VkImage image, const VkBufferImageCopy *region, bool write);

#endif
