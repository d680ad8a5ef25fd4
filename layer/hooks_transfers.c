/* Transfer commands: copies, fills, updates, blits, resolves, clears outside a render pass and
 * query result copies, in both the original and the VkCopy*Info2 forms. Each hook notes the
 * buffers it writes, takes the command's accesses from command_access.h and hands them to
 * validate_transfer. */
#include <stddef.h>

#include "command_access_regions.h"
#include "layer_hooks.h"
#include "state_command_buffers.h"
#include "state_device.h"
#include "validate.h"

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdCopyBuffer(VkCommandBuffer command_buffer, VkBuffer src, VkBuffer dst,
                                                       uint32_t count, const VkBufferCopy *regions)
{
    struct command_buffer_state *cb;
    struct layer_device *ld = command_buffer_device(command_buffer, &cb);
    if (cb) {
        command_buffer_note_written(cb, HANDLE(dst));
        struct hazard_accesses accesses = {.count = 0};
        for (uint32_t i = 0; i < count && accesses.count + 2 <= HAZARD_MAX_ACCESSES; ++i) {
            command_transfer_buffer(cb->device, &accesses, HANDLE(src), regions[i].srcOffset, regions[i].size, false);
            command_transfer_buffer(cb->device, &accesses, HANDLE(dst), regions[i].dstOffset, regions[i].size, true);
        }
        validate_transfer(cb->device, cb, &accesses, "vkCmdCopyBuffer");
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
        command_transfer_buffer(cb->device, &accesses, HANDLE(dst), offset, size, true);
        validate_transfer(cb->device, cb, &accesses, "vkCmdFillBuffer");
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
        command_transfer_buffer(cb->device, &accesses, HANDLE(dst), offset, size, true);
        validate_transfer(cb->device, cb, &accesses, "vkCmdUpdateBuffer");
    }
    ld->dispatch.CmdUpdateBuffer(command_buffer, dst, offset, size, data);
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
            command_transfer_buffer_image_region(cb->device, &accesses, src, dst, &regions[i], false);
            struct texel_box box = texel_box_of(regions[i].imageOffset, regions[i].imageExtent);
            command_transfer_image_region(cb->device, &accesses, dst, &regions[i].imageSubresource, &box, true);
        }
        validate_transfer(cb->device, cb, &accesses, "vkCmdCopyBufferToImage");
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
            struct texel_box box = texel_box_of(regions[i].imageOffset, regions[i].imageExtent);
            command_transfer_image_region(cb->device, &accesses, src, &regions[i].imageSubresource, &box, false);
            command_transfer_buffer_image_region(cb->device, &accesses, dst, src, &regions[i], true);
        }
        validate_transfer(cb->device, cb, &accesses, "vkCmdCopyImageToBuffer");
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

static void image_to_image(VkCommandBuffer command_buffer, VkImage src, VkImage dst, uint32_t count,
                           const void *regions, size_t stride, size_t src_at, size_t dst_at, size_t extent_at,
                           const char *call)
{
    struct command_buffer_state *cb;
    command_buffer_device(command_buffer, &cb);
    if (cb == NULL)
        return;
    struct hazard_accesses accesses = {.count = 0};
    command_transfer_image_pairs(cb->device, &accesses, src, dst, count, regions, stride, src_at, dst_at, extent_at);
    validate_transfer(cb->device, cb, &accesses, call);
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
        command_transfer_image(cb->device, &accesses, image, &ranges[i], true);
    validate_transfer(cb->device, cb, &accesses, call);
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
        command_transfer_buffer(cb->device, &accesses, HANDLE(dst), offset, (VkDeviceSize)(count - 1) * stride + one,
                                true);
        validate_transfer(cb->device, cb, &accesses, "vkCmdCopyQueryPoolResults");
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
        command_transfer_buffer(cb->device, &accesses, HANDLE(info->srcBuffer), r->srcOffset, r->size, false);
        command_transfer_buffer(cb->device, &accesses, HANDLE(info->dstBuffer), r->dstOffset, r->size, true);
    }
    validate_transfer(cb->device, cb, &accesses, call);
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
        command_transfer_buffer_image_region(cb->device, &accesses, info->srcBuffer, info->dstImage, &r, false);
        struct texel_box box = texel_box_of(r.imageOffset, r.imageExtent);
        command_transfer_image_region(cb->device, &accesses, info->dstImage, &r.imageSubresource, &box, true);
    }
    validate_transfer(cb->device, cb, &accesses, call);
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
        struct texel_box box = texel_box_of(r.imageOffset, r.imageExtent);
        command_transfer_image_region(cb->device, &accesses, info->srcImage, &r.imageSubresource, &box, false);
        command_transfer_buffer_image_region(cb->device, &accesses, info->dstBuffer, info->srcImage, &r, true);
    }
    validate_transfer(cb->device, cb, &accesses, call);
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
