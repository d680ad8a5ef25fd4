/* What transfer commands, attachments and views touch (command_access_regions.h): buffer ranges in memory
 * terms, image subresources (mip levels x array layers, or x depth slices for a 3D image), the
 * TRANSFER-stage accesses of copies, fills, updates, blits, resolves and clears, and the
 * attachment accesses of render-pass load, store and resolve operations. */
#include "command_access_regions.h"

#include <stddef.h>

#include "format_blocks.h"
#include "state_device.h"
#include "state_resources.h"
#include "vk_formats.h"

bool access_buffer_range(struct layer_device *ld, uint64_t buffer, VkDeviceSize offset, VkDeviceSize size,
                         struct hazard_access *out)
{
    struct buffer_state *b = buffer_state_in(ld, buffer);
    if (b == NULL || offset >= b->size)
        return false;
    VkDeviceSize length = size == VK_WHOLE_SIZE || size > b->size - offset ? b->size - offset : size; /* no wrap */
    out->image = false;
    out->evaluated = false;
    out->area = 0;
    out->layer_begin = 0;
    out->layer_end = 1;
    out->resource = buffer;
    out->key = b->memory ? HANDLE(b->memory) : buffer;
    out->begin = (b->memory ? b->memory_offset : 0) + offset;
    out->end = out->begin + length;
    return length > 0;
}

/* Depth slices of level `mip` of a 3D image. */
static uint32_t depth_at(const struct image_state *i, uint32_t mip)
{
    uint32_t depth = mip < 32 ? i->extent.depth >> mip : 0;
    return depth ? depth : 1;
}

/* The area id of `rect` on level `mip` of `image` (0 when it covers the whole level). */
static uint32_t area_at_level(const struct image_state *image, uint32_t mip, struct image_rect rect)
{
    uint32_t width = mip < 32 ? image->extent.width >> mip : 0, height = mip < 32 ? image->extent.height >> mip : 0;
    return image_area_id(rect, width ? width : 1, height ? height : 1);
}

/* The rectangle [x, x + width) x [y, y + height) of a region, clamped at 0 and without wrapping. */
static struct image_rect rect_of(int32_t x, int32_t y, uint32_t width, uint32_t height)
{
    uint32_t x0 = x > 0 ? (uint32_t)x : 0, y0 = y > 0 ? (uint32_t)y : 0;
    uint64_t x1 = (uint64_t)x0 + width, y1 = (uint64_t)y0 + height;
    return (struct image_rect){x0, y0, x1 > UINT32_MAX ? UINT32_MAX : (uint32_t)x1,
                               y1 > UINT32_MAX ? UINT32_MAX : (uint32_t)y1};
}

/* The planes `aspect` names of a multi-planar image, folded into the layer dimension (plane p's
 * layer l is p * arrayLayers + l): planes are separate memory, so work on one plane never meets
 * work on another. COLOR (or no plane bit) names every plane; several planes with part of the
 * layers cover the layers between them too (a superset, for a rare shape). */
static void fold_planes(const struct image_state *i, VkImageAspectFlags aspect, struct hazard_access *out)
{
    uint32_t planes = vk_format_plane_count(i->format), first = planes, last = 0;
    if (planes <= 1)
        return;
    for (uint32_t p = 0; p < planes; ++p)
        if (aspect & ((uint32_t)VK_IMAGE_ASPECT_PLANE_0_BIT << p)) {
            first = first == planes ? p : first;
            last = p;
        }
    if (first == planes) {
        first = 0;
        last = planes - 1;
    }
    out->layer_begin += first * i->array_layers;
    out->layer_end += last * i->array_layers;
}

bool access_image_range(struct layer_device *ld, uint64_t image, VkImageAspectFlags aspect, uint32_t base_mip,
                        uint32_t mip_count, uint32_t base_layer, uint32_t layer_count, struct hazard_access *out)
{
    struct image_state *i = image_state_in(ld, image);
    if (i == NULL || base_mip >= i->mip_levels || base_layer >= i->array_layers)
        return false;
    /* counts come from the application: compared with what is left, never added (no wrap) */
    uint32_t mips = mip_count == VK_REMAINING_MIP_LEVELS || mip_count > i->mip_levels - base_mip
                        ? i->mip_levels - base_mip
                        : mip_count;
    uint32_t layers = layer_count == VK_REMAINING_ARRAY_LAYERS || layer_count > i->array_layers - base_layer
                          ? i->array_layers - base_layer
                          : layer_count;
    out->image = true;
    out->evaluated = false;
    out->area = 0;
    out->key = out->resource = image;
    out->begin = base_mip;
    out->end = (uint64_t)base_mip + mips;
    out->layer_begin = base_layer;
    out->layer_end = base_layer + layers;
    if (i->type == VK_IMAGE_TYPE_3D) { /* every slice of every level named (slices counted at level 0's size) */
        out->layer_begin = 0;
        out->layer_end = depth_at(i, 0);
    } else {
        fold_planes(i, aspect, out);
    }
    return mips > 0 && layers > 0;
}

bool access_image_region(struct layer_device *ld, uint64_t image, VkImageAspectFlags aspect, uint32_t mip,
                         uint32_t base_layer, uint32_t layer_count, int32_t z, uint32_t depth,
                         struct hazard_access *out)
{
    struct image_state *i = image_state_in(ld, image);
    if (i == NULL || i->type != VK_IMAGE_TYPE_3D)
        return access_image_range(ld, image, aspect, mip, 1, base_layer, layer_count, out);
    if (!access_image_range(ld, image, aspect, mip, 1, 0, 1, out))
        return false;
    /* the slices of this level: a level has its own depth, and ranges of one level compare slice by
     * slice (a range over several levels names all of their slices) */
    uint32_t slices = depth_at(i, mip), first = z > 0 ? (uint32_t)z : 0;
    if (first >= slices)
        return false;
    out->layer_begin = first;
    out->layer_end = depth == 0 || depth > slices - first ? slices : first + depth;
    return true;
}

bool access_view_range(struct layer_device *ld, const struct image_view_state *v, uint32_t layers, bool one_mip,
                       struct hazard_access *out)
{
    if (v == NULL)
        return false;
    const struct image_state *i = image_state_in(ld, HANDLE(v->image));
    if (i != NULL && i->type == VK_IMAGE_TYPE_3D &&
        (v->view_type == VK_IMAGE_VIEW_TYPE_2D || v->view_type == VK_IMAGE_VIEW_TYPE_2D_ARRAY)) {
        uint32_t count = layers ? layers : v->range.layerCount;
        return access_image_region(ld, HANDLE(v->image), v->range.aspectMask, v->range.baseMipLevel, 0, 1,
                                   (int32_t)v->range.baseArrayLayer, count == VK_REMAINING_ARRAY_LAYERS ? 0 : count,
                                   out);
    }
    return access_image_range(ld, HANDLE(v->image), v->range.aspectMask, v->range.baseMipLevel,
                              one_mip ? 1 : v->range.levelCount, v->range.baseArrayLayer,
                              layers ? layers : v->range.layerCount, out);
}

/* A transfer command's access to a buffer range. */
void command_transfer_buffer(struct layer_device *ld, struct hazard_accesses *accesses, uint64_t buffer,
                             VkDeviceSize offset, VkDeviceSize size, bool write)
{
    struct hazard_access *h = &accesses->a[accesses->count];
    if (accesses->count == HAZARD_MAX_ACCESSES || !access_buffer_range(ld, buffer, offset, size, h))
        return;
    h->stages = HAZARD_STAGES_TRANSFER;
    h->access = write ? HAZARD_ACCESS_TRANSFER_WRITES : HAZARD_ACCESS_TRANSFER_READS;
    h->read = !write;
    h->write = write;
    accesses->count++;
}

/* A transfer command's access to image subresources. */
static void add_image_access(struct hazard_accesses *accesses, bool write)
{
    struct hazard_access *h = &accesses->a[accesses->count];
    h->stages = HAZARD_STAGES_TRANSFER;
    h->access = write ? HAZARD_ACCESS_TRANSFER_WRITES : HAZARD_ACCESS_TRANSFER_READS;
    h->read = !write;
    h->write = write;
    accesses->count++;
}

/* Whole subresource ranges (clears). */
void command_transfer_image(struct layer_device *ld, struct hazard_accesses *accesses, VkImage image,
                            const VkImageSubresourceRange *range, bool write)
{
    if (accesses->count < HAZARD_MAX_ACCESSES &&
        access_image_range(ld, HANDLE(image), range->aspectMask, range->baseMipLevel, range->levelCount,
                           range->baseArrayLayer, range->layerCount, &accesses->a[accesses->count]))
        add_image_access(accesses, write);
}

/* One region of a copy: the texels of its box on its layers (or, for a 3D image, the depth slices
 * [z, z + depth)), as a rectangle of the level (image_area.h). */
void command_transfer_image_region(struct layer_device *ld, struct hazard_accesses *accesses, VkImage image,
                                   const VkImageSubresourceLayers *layers, const struct texel_box *box, bool write)
{
    struct hazard_access *h = &accesses->a[accesses->count];
    if (accesses->count == HAZARD_MAX_ACCESSES ||
        !access_image_region(ld, HANDLE(image), layers->aspectMask, layers->mipLevel, layers->baseArrayLayer,
                             layers->layerCount, box->z, box->depth, h))
        return;
    const struct image_state *i = image_state_in(ld, HANDLE(image));
    if (i != NULL)
        h->area = area_at_level(i, layers->mipLevel, rect_of(box->x, box->y, box->width, box->height));
    add_image_access(accesses, write);
}

/* The bytes of `buffer` a buffer<->image copy region reads or writes: rows of
 * bufferRowLength texels, slices of bufferImageHeight rows, in texel blocks of the image's format
 * (the aspect's, for depth/stencil). Formats the layer does not know are left out. */
void command_transfer_buffer_image_region(struct layer_device *ld, struct hazard_accesses *accesses, VkBuffer buffer,
                                          VkImage image, const VkBufferImageCopy *r, bool write)
{
    struct image_state *i = image_state_in(ld, HANDLE(image));
    struct format_block block;
    if (i == NULL || r->imageExtent.width == 0 || r->imageExtent.height == 0 || r->imageExtent.depth == 0 ||
        !format_block(i->format, r->imageSubresource.aspectMask, &block))
        return;
    uint64_t row_texels = r->bufferRowLength ? r->bufferRowLength : r->imageExtent.width;
    uint64_t slice_rows = r->bufferImageHeight ? r->bufferImageHeight : r->imageExtent.height;
    uint64_t row_blocks = (row_texels + block.width - 1) / block.width;
    uint64_t slice_blocks = row_blocks * ((slice_rows + block.height - 1) / block.height);
    uint64_t slices = r->imageExtent.depth > 1 ? r->imageExtent.depth : r->imageSubresource.layerCount;
    uint64_t rows = (r->imageExtent.height + block.height - 1) / block.height;
    uint64_t last_row = (r->imageExtent.width + block.width - 1) / block.width;
    uint64_t blocks = (slices ? slices - 1 : 0) * slice_blocks + (rows - 1) * row_blocks + last_row;
    command_transfer_buffer(ld, accesses, HANDLE(buffer), r->bufferOffset, blocks * block.bytes, write);
}

/* The box a region's side covers: from its offset and the extent, or between a blit's corners. */
static struct texel_box region_box(const char *region, size_t subresource_at, size_t extent_at)
{
    const VkOffset3D *offsets = (const VkOffset3D *)(region + subresource_at + sizeof(VkImageSubresourceLayers));
    if (extent_at != 0) {
        const VkExtent3D *extent = (const VkExtent3D *)(region + extent_at);
        return (struct texel_box){offsets[0].x,  offsets[0].y,   offsets[0].z,
                                  extent->width, extent->height, extent->depth};
    }
    struct texel_box box;
    int32_t corners[3][2] = {{offsets[0].x, offsets[1].x}, {offsets[0].y, offsets[1].y}, {offsets[0].z, offsets[1].z}};
    int32_t *low[3] = {&box.x, &box.y, &box.z};
    uint32_t *size[3] = {&box.width, &box.height, &box.depth};
    for (int d = 0; d < 3; ++d) {
        int32_t a = corners[d][0], b = corners[d][1];
        *low[d] = a < b ? a : b;
        *size[d] = (uint32_t)((int64_t)(a < b ? b : a) - (a < b ? a : b));
    }
    return box;
}

void command_transfer_image_pairs(struct layer_device *ld, struct hazard_accesses *out, VkImage src, VkImage dst,
                                  uint32_t count, const void *regions, size_t stride, size_t src_at, size_t dst_at,
                                  size_t extent_at)
{
    for (uint32_t i = 0; i < count; ++i) {
        const char *region = (const char *)regions + i * stride;
        struct texel_box box = region_box(region, src_at, extent_at);
        command_transfer_image_region(ld, out, src, (const VkImageSubresourceLayers *)(region + src_at), &box, false);
        box = region_box(region, dst_at, extent_at);
        command_transfer_image_region(ld, out, dst, (const VkImageSubresourceLayers *)(region + dst_at), &box, true);
    }
}

/* An attachment's access by a load, store or resolve operation (`layers` 0: the view's layers). A
 * resolve of depth/stencil may be described either way: both stages are named, so either barrier
 * covers it. */
bool command_attachment_access(struct layer_device *ld, VkImageView view, uint32_t layers, bool depth,
                               enum attachment_op op, bool write, const struct image_rect *area,
                               struct hazard_access *out)
{
    if (!access_view_range(ld, image_view_state_in(ld, HANDLE(view)), layers, true, out))
        return false;
    out->area = 0;
    const struct image_state *image = area != NULL ? image_state_in(ld, out->key) : NULL;
    if (image != NULL) {
        /* the render area is named in messages either way; under render_area = attachment (the
         * load and store paragraphs) it does not bound the memory the operation may access */
        out->area = area_at_level(image, (uint32_t)out->begin, *area);
        if (out->area != 0 && ld->instance->settings.render_area_whole_attachment)
            out->area |= IMAGE_AREA_WHOLE_MEMORY;
    }
    uint64_t color_access = write ? HAZARD_ACCESS_COLOR_WRITE : HAZARD_ACCESS_COLOR_READ;
    uint64_t depth_access = write ? HAZARD_ACCESS_DEPTH_WRITE : HAZARD_ACCESS_DEPTH_READ;
    if (!depth)
        out->stages = STAGE_COLOR_ATTACHMENT_OUTPUT;
    else if (op == ATTACHMENT_RESOLVE)
        out->stages = HAZARD_STAGES_DEPTH_TESTS | STAGE_COLOR_ATTACHMENT_OUTPUT;
    else
        out->stages = op == ATTACHMENT_LOAD ? STAGE_EARLY_FRAGMENT_TESTS : STAGE_LATE_FRAGMENT_TESTS;
    out->access = depth ? depth_access | (op == ATTACHMENT_RESOLVE ? color_access : 0) : color_access;
    out->read = !write;
    out->write = write;
    return true;
}
