/* Transfer commands: copies, fills, updates, blits, resolves, clears outside a render pass and
 * query result copies, as the hazard tracker sees them (TRANSFER-stage reads and writes of buffer
 * ranges and image subresources), in both the original and the VkCopy*Info2 forms. */
#include <stddef.h>

#include "check_hazard.h"
#include "format_blocks.h"
#include "layer_hooks.h"
#include "layer_state.h"

#define HANDLE(h) ((uint64_t)(h))

/* A transfer command's access to a buffer range. */
static void add_transfer(struct layer_device *ld, struct hazard_accesses *accesses, uint64_t buffer,
                         VkDeviceSize offset, VkDeviceSize size, bool write)
{
    struct hazard_access *h = &accesses->a[accesses->count];
    if (accesses->count == HAZARD_MAX_ACCESSES || !hazard_buffer_range(ld, buffer, offset, size, h))
        return;
    h->stages = HAZARD_STAGES_TRANSFER;
    h->access = write ? HAZARD_ACCESS_TRANSFER_WRITES : HAZARD_ACCESS_TRANSFER_READS;
    h->read = !write;
    h->write = write;
    accesses->count++;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdCopyBuffer(VkCommandBuffer command_buffer, VkBuffer src, VkBuffer dst,
                                                       uint32_t count, const VkBufferCopy *regions)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb) {
        command_buffer_note_written(cb, HANDLE(dst));
        struct hazard_accesses accesses = {.count = 0};
        for (uint32_t i = 0; i < count && accesses.count + 2 <= HAZARD_MAX_ACCESSES; ++i) {
            add_transfer(cb->device, &accesses, HANDLE(src), regions[i].srcOffset, regions[i].size, false);
            add_transfer(cb->device, &accesses, HANDLE(dst), regions[i].dstOffset, regions[i].size, true);
        }
        hazard_command(cb->device, cb, &accesses, "vkCmdCopyBuffer");
        cb->command_index++;
    }
    ld->dispatch.CmdCopyBuffer(command_buffer, src, dst, count, regions);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdFillBuffer(VkCommandBuffer command_buffer, VkBuffer dst,
                                                       VkDeviceSize offset, VkDeviceSize size, uint32_t data)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb) {
        command_buffer_note_written(cb, HANDLE(dst));
        struct hazard_accesses accesses = {.count = 0};
        add_transfer(cb->device, &accesses, HANDLE(dst), offset, size, true);
        hazard_command(cb->device, cb, &accesses, "vkCmdFillBuffer");
        cb->command_index++;
    }
    ld->dispatch.CmdFillBuffer(command_buffer, dst, offset, size, data);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdUpdateBuffer(VkCommandBuffer command_buffer, VkBuffer dst,
                                                         VkDeviceSize offset, VkDeviceSize size, const void *data)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb) {
        command_buffer_note_written(cb, HANDLE(dst));
        struct hazard_accesses accesses = {.count = 0};
        add_transfer(cb->device, &accesses, HANDLE(dst), offset, size, true);
        hazard_command(cb->device, cb, &accesses, "vkCmdUpdateBuffer");
        cb->command_index++;
    }
    ld->dispatch.CmdUpdateBuffer(command_buffer, dst, offset, size, data);
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
static void add_image_transfer(struct layer_device *ld, struct hazard_accesses *accesses, VkImage image,
                               uint32_t base_mip, uint32_t mip_count, uint32_t base_layer, uint32_t layer_count,
                               bool write)
{
    if (accesses->count < HAZARD_MAX_ACCESSES && hazard_image_range(ld, HANDLE(image), base_mip, mip_count, base_layer,
                                                                    layer_count, &accesses->a[accesses->count]))
        add_image_access(accesses, write);
}

/* One region of a copy: its layers, or the depth slices [z, z + depth) of a 3D image. */
static void image_regions(struct command_buffer_state *cb, struct hazard_accesses *accesses, VkImage image,
                          const VkImageSubresourceLayers *layers, int32_t z, uint32_t depth, bool write)
{
    if (accesses->count < HAZARD_MAX_ACCESSES &&
        hazard_image_region(cb->device, HANDLE(image), layers->mipLevel, layers->baseArrayLayer, layers->layerCount, z,
                            depth, &accesses->a[accesses->count]))
        add_image_access(accesses, write);
}

/* The bytes of `buffer` a buffer<->image copy region reads or writes: rows of
 * bufferRowLength texels, slices of bufferImageHeight rows, in texel blocks of the image's format
 * (the aspect's, for depth/stencil). Formats the layer does not know are left out. */
static void buffer_image_region(struct layer_device *ld, struct hazard_accesses *accesses, VkBuffer buffer,
                                VkImage image, const VkBufferImageCopy *r, bool write)
{
    struct image_state *i = handle_map_get(&ld->images, HANDLE(image));
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
    add_transfer(ld, accesses, HANDLE(buffer), r->bufferOffset, blocks * block.bytes, write);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdCopyBufferToImage(VkCommandBuffer command_buffer, VkBuffer src, VkImage dst,
                                                              VkImageLayout layout, uint32_t count,
                                                              const VkBufferImageCopy *regions)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL) {
        struct hazard_accesses accesses = {.count = 0};
        for (uint32_t i = 0; i < count; ++i) {
            buffer_image_region(cb->device, &accesses, src, dst, &regions[i], false);
            image_regions(cb, &accesses, dst, &regions[i].imageSubresource, regions[i].imageOffset.z,
                          regions[i].imageExtent.depth, true);
        }
        hazard_command(cb->device, cb, &accesses, "vkCmdCopyBufferToImage");
        cb->command_index++;
    }
    ld->dispatch.CmdCopyBufferToImage(command_buffer, src, dst, layout, count, regions);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdCopyImageToBuffer(VkCommandBuffer command_buffer, VkImage src,
                                                              VkImageLayout layout, VkBuffer dst, uint32_t count,
                                                              const VkBufferImageCopy *regions)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL) {
        command_buffer_note_written(cb, HANDLE(dst));
        struct hazard_accesses accesses = {.count = 0};
        for (uint32_t i = 0; i < count; ++i) {
            image_regions(cb, &accesses, src, &regions[i].imageSubresource, regions[i].imageOffset.z,
                          regions[i].imageExtent.depth, false);
            buffer_image_region(cb->device, &accesses, dst, src, &regions[i], true);
        }
        hazard_command(cb->device, cb, &accesses, "vkCmdCopyImageToBuffer");
        cb->command_index++;
    }
    ld->dispatch.CmdCopyImageToBuffer(command_buffer, src, layout, dst, count, regions);
}

/* Image-to-image commands (copy, blit, resolve) read source subresources and write destination
 * ones. REGIONS(type) is how their regions are laid out: array stride, and where the source and
 * destination subresources are (VkImageCopy, VkImageBlit, VkImageResolve and their *2 forms all
 * name them so), each followed by its offset (copies, resolves: one VkOffset3D and the region's
 * `extent`) or its two corners (blits: BLIT_REGIONS, no extent). */
#define REGIONS(type)                                                                                                  \
    sizeof(type), offsetof(type, srcSubresource), offsetof(type, dstSubresource), offsetof(type, extent)
#define BLIT_REGIONS(type) sizeof(type), offsetof(type, srcSubresource), offsetof(type, dstSubresource), 0

/* The depth slices a region's side covers: from its offset and the extent, or between a blit's corners. */
static void region_slices(const char *region, size_t subresource_at, size_t extent_at, int32_t *z, uint32_t *depth)
{
    const VkOffset3D *offsets = (const VkOffset3D *)(region + subresource_at + sizeof(VkImageSubresourceLayers));
    if (extent_at != 0) {
        *z = offsets[0].z;
        *depth = ((const VkExtent3D *)(region + extent_at))->depth;
        return;
    }
    int32_t a = offsets[0].z, b = offsets[1].z;
    *z = a < b ? a : b;
    *depth = (uint32_t)(a < b ? b - a : a - b);
}

static void image_to_image(VkCommandBuffer command_buffer, VkImage src, VkImage dst, uint32_t count,
                           const void *regions, size_t stride, size_t src_at, size_t dst_at, size_t extent_at,
                           const char *call)
{
    struct command_buffer_state *cb;
    command_buffer_device(command_buffer, &cb);
    if (cb == NULL)
        return;
    struct hazard_accesses accesses = {.count = 0};
    for (uint32_t i = 0; i < count; ++i) {
        const char *region = (const char *)regions + i * stride;
        int32_t z;
        uint32_t depth;
        region_slices(region, src_at, extent_at, &z, &depth);
        image_regions(cb, &accesses, src, (const VkImageSubresourceLayers *)(region + src_at), z, depth, false);
        region_slices(region, dst_at, extent_at, &z, &depth);
        image_regions(cb, &accesses, dst, (const VkImageSubresourceLayers *)(region + dst_at), z, depth, true);
    }
    hazard_command(cb->device, cb, &accesses, call);
    cb->command_index++;
}

/* Clears outside a render pass write the listed subresource ranges. */
static void clear_ranges(VkCommandBuffer command_buffer, VkImage image, uint32_t count,
                         const VkImageSubresourceRange *ranges, const char *call)
{
    struct command_buffer_state *cb;
    command_buffer_device(command_buffer, &cb);
    if (cb == NULL)
        return;
    struct hazard_accesses accesses = {.count = 0};
    for (uint32_t i = 0; i < count; ++i)
        add_image_transfer(cb->device, &accesses, image, ranges[i].baseMipLevel, ranges[i].levelCount,
                           ranges[i].baseArrayLayer, ranges[i].layerCount, true);
    hazard_command(cb->device, cb, &accesses, call);
    cb->command_index++;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdCopyImage(VkCommandBuffer command_buffer, VkImage src,
                                                      VkImageLayout src_layout, VkImage dst, VkImageLayout dst_layout,
                                                      uint32_t count, const VkImageCopy *regions)
{
    image_to_image(command_buffer, src, dst, count, regions, REGIONS(VkImageCopy), "vkCmdCopyImage");
    layer_device_of(command_buffer)
        ->dispatch.CmdCopyImage(command_buffer, src, src_layout, dst, dst_layout, count, regions);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdBlitImage(VkCommandBuffer command_buffer, VkImage src,
                                                      VkImageLayout src_layout, VkImage dst, VkImageLayout dst_layout,
                                                      uint32_t count, const VkImageBlit *regions, VkFilter filter)
{
    image_to_image(command_buffer, src, dst, count, regions, BLIT_REGIONS(VkImageBlit), "vkCmdBlitImage");
    layer_device_of(command_buffer)
        ->dispatch.CmdBlitImage(command_buffer, src, src_layout, dst, dst_layout, count, regions, filter);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdClearColorImage(VkCommandBuffer command_buffer, VkImage image,
                                                            VkImageLayout layout, const VkClearColorValue *color,
                                                            uint32_t count, const VkImageSubresourceRange *ranges)
{
    clear_ranges(command_buffer, image, count, ranges, "vkCmdClearColorImage");
    layer_device_of(command_buffer)->dispatch.CmdClearColorImage(command_buffer, image, layout, color, count, ranges);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdResolveImage(VkCommandBuffer command_buffer, VkImage src,
                                                         VkImageLayout src_layout, VkImage dst,
                                                         VkImageLayout dst_layout, uint32_t count,
                                                         const VkImageResolve *regions)
{
    image_to_image(command_buffer, src, dst, count, regions, REGIONS(VkImageResolve), "vkCmdResolveImage");
    layer_device_of(command_buffer)
        ->dispatch.CmdResolveImage(command_buffer, src, src_layout, dst, dst_layout, count, regions);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdClearDepthStencilImage(VkCommandBuffer command_buffer, VkImage image,
                                                                   VkImageLayout layout,
                                                                   const VkClearDepthStencilValue *value,
                                                                   uint32_t count,
                                                                   const VkImageSubresourceRange *ranges)
{
    clear_ranges(command_buffer, image, count, ranges, "vkCmdClearDepthStencilImage");
    layer_device_of(command_buffer)
        ->dispatch.CmdClearDepthStencilImage(command_buffer, image, layout, value, count, ranges);
}

/* Query results land in the buffer: each query's values (one per result, or per enabled pipeline
 * statistic, plus availability) at its stride. The pool's statistics are not tracked, so one
 * value per query is counted, and the stride, when larger, bounds what a query can write. */
static VKAPI_ATTR void VKAPI_CALL hook_vkCmdCopyQueryPoolResults(VkCommandBuffer command_buffer, VkQueryPool pool,
                                                                 uint32_t first, uint32_t count, VkBuffer dst,
                                                                 VkDeviceSize offset, VkDeviceSize stride,
                                                                 VkQueryResultFlags flags)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb != NULL && count > 0) {
        command_buffer_note_written(cb, HANDLE(dst));
        VkDeviceSize value = (flags & VK_QUERY_RESULT_64_BIT) ? 8 : 4;
        VkDeviceSize one = value * ((flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) ? 2 : 1);
        struct hazard_accesses accesses = {.count = 0};
        add_transfer(cb->device, &accesses, HANDLE(dst), offset, (VkDeviceSize)(count - 1) * stride + one, true);
        hazard_command(cb->device, cb, &accesses, "vkCmdCopyQueryPoolResults");
        cb->command_index++;
    }
    ld->dispatch.CmdCopyQueryPoolResults(command_buffer, pool, first, count, dst, offset, stride, flags);
}

/* --- the synchronization2-era copy commands (VkCopy*Info2), core and KHR, as their originals --- */

static void copy_buffer2(VkCommandBuffer command_buffer, const VkCopyBufferInfo2 *info, const char *call)
{
    struct command_buffer_state *cb;
    command_buffer_device(command_buffer, &cb);
    if (cb == NULL || info == NULL)
        return;
    command_buffer_note_written(cb, HANDLE(info->dstBuffer));
    struct hazard_accesses accesses = {.count = 0};
    for (uint32_t i = 0; i < info->regionCount && accesses.count + 2 <= HAZARD_MAX_ACCESSES; ++i) {
        const VkBufferCopy2 *r = &info->pRegions[i];
        add_transfer(cb->device, &accesses, HANDLE(info->srcBuffer), r->srcOffset, r->size, false);
        add_transfer(cb->device, &accesses, HANDLE(info->dstBuffer), r->dstOffset, r->size, true);
    }
    hazard_command(cb->device, cb, &accesses, call);
    cb->command_index++;
}

static VkBufferImageCopy buffer_image_copy1(const VkBufferImageCopy2 *r)
{
    return (VkBufferImageCopy){r->bufferOffset,     r->bufferRowLength, r->bufferImageHeight,
                               r->imageSubresource, r->imageOffset,     r->imageExtent};
}

static void copy_buffer_to_image2(VkCommandBuffer command_buffer, const VkCopyBufferToImageInfo2 *info,
                                  const char *call)
{
    struct command_buffer_state *cb;
    command_buffer_device(command_buffer, &cb);
    if (cb == NULL || info == NULL)
        return;
    struct hazard_accesses accesses = {.count = 0};
    for (uint32_t i = 0; i < info->regionCount; ++i) {
        VkBufferImageCopy r = buffer_image_copy1(&info->pRegions[i]);
        buffer_image_region(cb->device, &accesses, info->srcBuffer, info->dstImage, &r, false);
        image_regions(cb, &accesses, info->dstImage, &r.imageSubresource, r.imageOffset.z, r.imageExtent.depth, true);
    }
    hazard_command(cb->device, cb, &accesses, call);
    cb->command_index++;
}

static void copy_image_to_buffer2(VkCommandBuffer command_buffer, const VkCopyImageToBufferInfo2 *info,
                                  const char *call)
{
    struct command_buffer_state *cb;
    command_buffer_device(command_buffer, &cb);
    if (cb == NULL || info == NULL)
        return;
    command_buffer_note_written(cb, HANDLE(info->dstBuffer));
    struct hazard_accesses accesses = {.count = 0};
    for (uint32_t i = 0; i < info->regionCount; ++i) {
        VkBufferImageCopy r = buffer_image_copy1(&info->pRegions[i]);
        image_regions(cb, &accesses, info->srcImage, &r.imageSubresource, r.imageOffset.z, r.imageExtent.depth, false);
        buffer_image_region(cb->device, &accesses, info->dstBuffer, info->srcImage, &r, true);
    }
    hazard_command(cb->device, cb, &accesses, call);
    cb->command_index++;
}

/* The image-to-image copies of the *2 forms: the same region walk with their own region types. */
#define IMAGE_TO_IMAGE2(function, info_type, layout)                                                                   \
    static void function(VkCommandBuffer command_buffer, const info_type *info, const char *call)                      \
    {                                                                                                                  \
        if (info)                                                                                                      \
            image_to_image(command_buffer, info->srcImage, info->dstImage, info->regionCount, info->pRegions, layout,  \
                           call);                                                                                      \
    }
IMAGE_TO_IMAGE2(copy_image2, VkCopyImageInfo2, REGIONS(VkImageCopy2))
IMAGE_TO_IMAGE2(blit_image2, VkBlitImageInfo2, BLIT_REGIONS(VkImageBlit2))
IMAGE_TO_IMAGE2(resolve_image2, VkResolveImageInfo2, REGIONS(VkImageResolve2))

/* A hook of a *2 command: its check, then the call down (its KHR alias finds the same hook:
 * layer_dispatch_alias_of). */
#define INFO2_HOOK(command, info_type, check)                                                                          \
    static VKAPI_ATTR void VKAPI_CALL hook_vk##command(VkCommandBuffer command_buffer, const info_type *info)          \
    {                                                                                                                  \
        check(command_buffer, info, "vk" #command);                                                                    \
        layer_device_of(command_buffer)->dispatch.command(command_buffer, info);                                       \
    }
INFO2_HOOK(CmdCopyBuffer2, VkCopyBufferInfo2, copy_buffer2)
INFO2_HOOK(CmdCopyBufferToImage2, VkCopyBufferToImageInfo2, copy_buffer_to_image2)
INFO2_HOOK(CmdCopyImageToBuffer2, VkCopyImageToBufferInfo2, copy_image_to_buffer2)
INFO2_HOOK(CmdCopyImage2, VkCopyImageInfo2, copy_image2)
INFO2_HOOK(CmdBlitImage2, VkBlitImageInfo2, blit_image2)
INFO2_HOOK(CmdResolveImage2, VkResolveImageInfo2, resolve_image2)

const struct layer_hook transfer_hooks[] = {
    LAYER_HOOK(vkCmdCopyBuffer),
    LAYER_HOOK(vkCmdFillBuffer),
    LAYER_HOOK(vkCmdUpdateBuffer),
    LAYER_HOOK(vkCmdCopyBufferToImage),
    LAYER_HOOK(vkCmdCopyImageToBuffer),
    LAYER_HOOK(vkCmdCopyImage),
    LAYER_HOOK(vkCmdBlitImage),
    LAYER_HOOK(vkCmdResolveImage),
    LAYER_HOOK(vkCmdClearColorImage),
    LAYER_HOOK(vkCmdClearDepthStencilImage),
    LAYER_HOOK(vkCmdCopyQueryPoolResults),
    LAYER_HOOK(vkCmdCopyBuffer2),
    LAYER_HOOK(vkCmdCopyBufferToImage2),
    LAYER_HOOK(vkCmdCopyImageToBuffer2),
    LAYER_HOOK(vkCmdCopyImage2),
    LAYER_HOOK(vkCmdBlitImage2),
    LAYER_HOOK(vkCmdResolveImage2),
};
const size_t transfer_hook_count = sizeof(transfer_hooks) / sizeof(transfer_hooks[0]);
