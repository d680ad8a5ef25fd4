/* Area `hazard`: barriers and event waits in the tracker's terms. A sync1 barrier is its memory,
 * buffer and image barriers under one pair of stage masks; a sync2 dependency carries stage masks
 * per barrier. Buffers are described by the memory range behind them (everything, for a buffer
 * the layer does not know: no false finding), images by subresource; an image barrier whose
 * layouts differ is also a layout transition, applied after the memory part. */
#include "check_hazard.h"
#include "command_access_regions.h"
#include "state_command_buffers.h"
#include "state_device.h"

/* An image barrier's subresources in the tracker's terms (false for an image the layer does not
 * know). */
#define MAX_BARRIERS 64
static bool image_barrier_range(struct layer_device *ld, VkImage image, const VkImageSubresourceRange *range,
                                VkAccessFlags2 src_access, VkAccessFlags2 dst_access, uint32_t src_family,
                                uint32_t dst_family, struct hazard_memory_barrier *out)
{
    struct hazard_access r;
    if (!access_image_range(ld, HANDLE(image), range->aspectMask, range->baseMipLevel, range->levelCount,
                            range->baseArrayLayer, range->layerCount, &r))
        return false;
    *out = hazard_barrier_over(&r, src_access, dst_access);
    out->ownership_transfer =
        src_family != dst_family && src_family != VK_QUEUE_FAMILY_IGNORED && dst_family != VK_QUEUE_FAMILY_IGNORED;
    return true;
}

/* A buffer barrier in the tracker's terms: its memory range, or everything for a buffer the layer
 * does not know (no false finding). */
static struct hazard_memory_barrier buffer_barrier_of(struct layer_device *ld, VkBuffer buffer, VkDeviceSize offset,
                                                      VkDeviceSize size, VkAccessFlags2 src_access,
                                                      VkAccessFlags2 dst_access)
{
    struct hazard_access range;
    if (access_buffer_range(ld, HANDLE(buffer), offset, size, &range))
        return hazard_barrier_over(&range, src_access, dst_access);
    return (struct hazard_memory_barrier){.global = true, .src_access = src_access, .dst_access = dst_access};
}

/* A sync1 barrier or event wait: its memory, buffer and image barriers under one pair of stage
 * masks, then the image barriers' layout transitions (after the memory part). */
void hazard_sync1_barrier(struct command_buffer_state *cb, VkPipelineStageFlags src, VkPipelineStageFlags dst,
                          uint32_t memory_count, const VkMemoryBarrier *memory, uint32_t buffer_count,
                          const VkBufferMemoryBarrier *buffers, uint32_t image_count,
                          const VkImageMemoryBarrier *images, const char *call)
{
    struct layer_device *ld = cb->device;
    struct hazard_memory_barrier converted[MAX_BARRIERS];
    bool transition[MAX_BARRIERS];
    uint32_t n = 0, next_image = 0;
    for (; next_image < image_count && n < MAX_BARRIERS; ++next_image) {
        const VkImageMemoryBarrier *m = &images[next_image];
        if (image_barrier_range(ld, m->image, &m->subresourceRange, m->srcAccessMask, m->dstAccessMask,
                                m->srcQueueFamilyIndex, m->dstQueueFamilyIndex, &converted[n]))
            transition[n++] = m->oldLayout != m->newLayout;
    }
    uint32_t image_end = n;
    for (uint32_t i = 0; i < memory_count && n < MAX_BARRIERS; ++i)
        converted[n++] = (struct hazard_memory_barrier){
            .global = true, .src_access = memory[i].srcAccessMask, .dst_access = memory[i].dstAccessMask};
    for (uint32_t i = 0; i < buffer_count && n < MAX_BARRIERS; ++i)
        converted[n++] = buffer_barrier_of(ld, buffers[i].buffer, buffers[i].offset, buffers[i].size,
                                           buffers[i].srcAccessMask, buffers[i].dstAccessMask);
    hazard_barrier(cb, src, dst, converted, n);
    for (uint32_t k = 0; k < image_end; ++k)
        if (transition[k])
            hazard_image_transition(ld, cb, src, dst, &converted[k], call);
    for (; next_image < image_count; ++next_image) { /* past MAX_BARRIERS: transitions still happen */
        const VkImageMemoryBarrier *m = &images[next_image];
        struct hazard_memory_barrier b;
        if (m->oldLayout != m->newLayout &&
            image_barrier_range(ld, m->image, &m->subresourceRange, m->srcAccessMask, m->dstAccessMask,
                                m->srcQueueFamilyIndex, m->dstQueueFamilyIndex, &b))
            hazard_image_transition(ld, cb, src, dst, &b, call);
    }
}

/* Synchronization2: each barrier carries its own stage masks. */
void hazard_dependency_info(struct command_buffer_state *cb, const VkDependencyInfo *info, const char *call)
{
    for (uint32_t i = 0; i < info->memoryBarrierCount; ++i) {
        const VkMemoryBarrier2 *m = &info->pMemoryBarriers[i];
        struct hazard_memory_barrier b = {
            .global = true, .src_access = m->srcAccessMask, .dst_access = m->dstAccessMask};
        hazard_barrier(cb, m->srcStageMask, m->dstStageMask, &b, 1);
    }
    for (uint32_t i = 0; i < info->bufferMemoryBarrierCount; ++i) {
        const VkBufferMemoryBarrier2 *m = &info->pBufferMemoryBarriers[i];
        struct hazard_memory_barrier b =
            buffer_barrier_of(cb->device, m->buffer, m->offset, m->size, m->srcAccessMask, m->dstAccessMask);
        hazard_barrier(cb, m->srcStageMask, m->dstStageMask, &b, 1);
    }
    for (uint32_t i = 0; i < info->imageMemoryBarrierCount; ++i) {
        const VkImageMemoryBarrier2 *m = &info->pImageMemoryBarriers[i];
        struct hazard_memory_barrier b;
        if (!image_barrier_range(cb->device, m->image, &m->subresourceRange, m->srcAccessMask, m->dstAccessMask,
                                 m->srcQueueFamilyIndex, m->dstQueueFamilyIndex, &b)) {
            hazard_barrier(cb, m->srcStageMask, m->dstStageMask, NULL, 0); /* unknown image: execution only */
            continue;
        }
        hazard_barrier(cb, m->srcStageMask, m->dstStageMask, &b, 1);
        if (m->oldLayout != m->newLayout)
            hazard_image_transition(cb->device, cb, m->srcStageMask, m->dstStageMask, &b, call);
    }
}
