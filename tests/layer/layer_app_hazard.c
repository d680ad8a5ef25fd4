/* layer_app's hazard scenarios: missing or insufficient barriers inside a command buffer (copies,
 * dispatches, images and layout transitions, mip chains, dynamic rendering, render passes and
 * subpasses, secondaries), across command buffers, submissions and queues (checked at submit),
 * and the spec's rules on patterns of real programs; each bug beside its correct twin.
 * Scenarios: hazard-passes-apart(-dependency), hazard-passes-overlap(-dependency), hazard-raw, hazard-raw-fixed, hazard-war, hazard-war-execution-only, hazard-waw,
 * hazard-insufficient, hazard-copy2, hazard-waw-read-barrier, hazard-waw-exec-barrier, hazard-disjoint,
 * hazard-event, hazard-event2, hazard-event2-raw, hazard-sync2, hazard-image-raw, hazard-image-fixed,
 * hazard-transition-war, hazard-transition-fixed, hazard-readback-waw, hazard-readback-disjoint,
 * hazard-copy-image2, hazard-mipchain(-raw), hazard-input-attachment(-raw), hazard-depth-passes(-waw),
 * hazard-rendering-raw, hazard-rendering-memory-access, hazard-rendering-fixed,
 * hazard-secondary-raw, hazard-secondary-fixed, hazard-renderpass-raw, hazard-renderpass-fixed,
 * hazard-subpass-raw, hazard-subpass-fixed; at submit: hazard-submit-raw, -fixed, -separate,
 * -semaphore, -timeline, -fence, hazard-cross-queue, hazard-cross-queue-semaphore,
 * hazard-cross-queue-stage; real programs' patterns: hazard-runtime-index(-fixed),
 * hazard-transitions-ordered, hazard-3d-slices(-overlap), hazard-top-of-pipe-wait(-fixed),
 * hazard-sampled-after-pass(-fixed), hazard-vertex-scope(-fixed), hazard-load-without-read(-fixed),
 * hazard-clear-blit-waw, hazard-clear-blit-fixed, swapchain-present-war, swapchain-present-fixed
 * (headless surface), hazard-timeline-reach, hazard-planes(-same); an engine's repeated loop and what breaks it:
 * hazard-steady-break, hazard-steady-fill, hazard-steady-fixed. */
#include <string.h>

#include "layer_app_objects.h"
#include "layer_test_spirv.h"

/* Transfer writes, compute reads and writes, in the orders and with the barriers each scenario
 * names; the correct ones are submitted and run. */
static void scenario_hazard(struct objects *o, const char *name)
{
    VkDeviceSize step = o->a->properties.limits.minStorageBufferOffsetAlignment;
    if (step < 4096)
        step = 4096;
    VkBuffer src = new_buffer(o, 2 * step, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkBuffer dst = new_buffer(o, 4096,
                              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                                  VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    bool disjoint = strcmp(name, "hazard-disjoint") == 0;
    struct copy_setup c = copy_setup(o, src, disjoint ? step : 0, dst);
    struct recording r = begin(o->a, "hazard-cb");
    bool submit = true;
    const VkPipelineStageFlags transfer = VK_PIPELINE_STAGE_TRANSFER_BIT,
                               compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    if (strcmp(name, "hazard-raw") == 0 || strcmp(name, "hazard-raw-fixed") == 0 || disjoint) {
        label(o->a, r.cb, "upload");            /* the finding names the labels active at the earlier command */
        vkCmdFillBuffer(r.cb, src, 0, 4096, 1); /* writes src [0, 4096) */
        o->a->end_label(r.cb);
        if (strcmp(name, "hazard-raw-fixed") == 0)
            buffer_barrier(r.cb, src, transfer, VK_ACCESS_TRANSFER_WRITE_BIT, compute, VK_ACCESS_SHADER_READ_BIT);
        copy_run(r.cb, &c);
        submit = strcmp(name, "hazard-raw") != 0;
    } else if (strcmp(name, "hazard-war") == 0 || strcmp(name, "hazard-war-execution-only") == 0) {
        copy_run(r.cb, &c); /* reads src */
        if (strcmp(name, "hazard-war-execution-only") == 0)
            vkCmdPipelineBarrier(r.cb, compute, transfer, 0, 0, NULL, 0, NULL, 0, NULL);
        vkCmdFillBuffer(r.cb, src, 0, 4096, 2);
        submit = strcmp(name, "hazard-war") != 0;
    } else if (strcmp(name, "hazard-copy2") == 0 || strcmp(name, "hazard-copy2-khr") == 0) {
        /* the VkCopyBufferInfo2 form reads what the fill wrote; -khr calls it by its KHR alias,
         * which the layer serves with the core command's hook */
        vkCmdFillBuffer(r.cb, src, 0, 4096, 1);
        VkBufferCopy2 region = {.sType = VK_STRUCTURE_TYPE_BUFFER_COPY_2, .srcOffset = 0, .dstOffset = 0, .size = 256};
        VkCopyBufferInfo2 copy = {.sType = VK_STRUCTURE_TYPE_COPY_BUFFER_INFO_2,
                                  .srcBuffer = src,
                                  .dstBuffer = dst,
                                  .regionCount = 1,
                                  .pRegions = &region};
        PFN_vkCmdCopyBuffer2KHR copy_khr =
            (PFN_vkCmdCopyBuffer2KHR)vkGetDeviceProcAddr(o->a->device, "vkCmdCopyBuffer2KHR");
        if (strcmp(name, "hazard-copy2-khr") == 0 && copy_khr == NULL) {
            printf("skip: VK_KHR_copy_commands2 is not available\n");
        } else if (strcmp(name, "hazard-copy2-khr") == 0) {
            copy_khr(r.cb, &copy);
        } else {
            vkCmdCopyBuffer2(r.cb, &copy);
        }
        submit = false;
    } else if (strcmp(name, "hazard-waw") == 0) {
        vkCmdFillBuffer(r.cb, dst, 0, 4096, 1);
        copy_run(r.cb, &c); /* writes dst */
        submit = false;
    } else if (strcmp(name, "hazard-waw-read-barrier") == 0 || strcmp(name, "hazard-waw-exec-barrier") == 0) {
        /* two dispatches write dst; the barrier between them makes the first visible to shader
         * reads only, not to the second's writes (-exec: orders them, no memory dependency) */
        copy_run(r.cb, &c);
        bool exec = strcmp(name, "hazard-waw-exec-barrier") == 0;
        buffer_barrier(r.cb, dst, compute, exec ? 0 : VK_ACCESS_SHADER_WRITE_BIT, compute,
                       exec ? 0 : VK_ACCESS_SHADER_READ_BIT);
        copy_run(r.cb, &c);
        submit = false;
    } else if (strncmp(name, "hazard-steady", 13) == 0) {
        /* an engine's loop: the same dispatch (reads src, writes dst) eight times, one global
         * SHADER_WRITE -> SHADER_READ|SHADER_WRITE barrier after each, which the layer meets on a
         * fast path once the state repeats; then what breaks the loop must still be found:
         * -break: the last two dispatches with an execution-only barrier between (WAW on dst);
         * -fill: a fill of src right after a loop barrier (WAR: the barrier orders compute only),
         *        then the loop's barrier again and the dispatch, which reads the fill's write (RAW);
         * -fixed: the loop alone, submitted */
        VkMemoryBarrier loop = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
        for (int i = 0; i < 8; ++i) {
            copy_run(r.cb, &c);
            vkCmdPipelineBarrier(r.cb, compute, compute, 0, 1, &loop, 0, NULL, 0, NULL);
        }
        if (strcmp(name, "hazard-steady-break") == 0) {
            copy_run(r.cb, &c);
            vkCmdPipelineBarrier(r.cb, compute, compute, 0, 0, NULL, 0, NULL, 0, NULL);
            copy_run(r.cb, &c);
        } else if (strcmp(name, "hazard-steady-fill") == 0) {
            vkCmdFillBuffer(r.cb, src, 0, 4096, 3);
            vkCmdPipelineBarrier(r.cb, compute, compute, 0, 1, &loop, 0, NULL, 0, NULL);
            copy_run(r.cb, &c);
        }
        submit = strcmp(name, "hazard-steady-fixed") == 0;
    } else if (strcmp(name, "hazard-insufficient") == 0) {
        /* the dispatch writes dst; the barrier makes it visible to shader reads, but dst is then
         * read as indirect arguments (DRAW_INDIRECT stage, INDIRECT_COMMAND_READ access) */
        copy_run(r.cb, &c);
        buffer_barrier(r.cb, dst, compute, VK_ACCESS_SHADER_WRITE_BIT, compute, VK_ACCESS_SHADER_READ_BIT);
        vkCmdDispatchIndirect(r.cb, dst, 0);
        submit = false;
    } else if (strcmp(name, "hazard-event") == 0) {
        VkEventCreateInfo info = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
        VkEvent event;
        CHECK(vkCreateEvent(o->a->device, &info, NULL, &event));
        vkCmdFillBuffer(r.cb, src, 0, 4096, 1);
        vkCmdSetEvent(r.cb, event, transfer);
        VkMemoryBarrier m = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                             .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                             .dstAccessMask = VK_ACCESS_SHADER_READ_BIT};
        vkCmdWaitEvents(r.cb, 1, &event, transfer, compute, 1, &m, 0, NULL, 0, NULL);
        copy_run(r.cb, &c);
        finish(o->a, &r, true);
        vkDestroyEvent(o->a->device, event, NULL);
        return;
    } else if (strcmp(name, "hazard-event2") == 0 || strcmp(name, "hazard-event2-raw") == 0) {
        /* sync2 events: the same dependency at the set and the wait; -raw waits for fragment shaders */
        VkEventCreateInfo info = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
        VkEvent event;
        CHECK(vkCreateEvent(o->a->device, &info, NULL, &event));
        vkCmdFillBuffer(r.cb, src, 0, 4096, 1);
        bool wrong = strcmp(name, "hazard-event2-raw") == 0;
        VkMemoryBarrier2 m = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                              .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                              .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                              .dstStageMask = wrong ? VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT
                                                    : VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                              .dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT};
        VkDependencyInfo dep = {
            .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &m};
        vkCmdSetEvent2(r.cb, event, &dep);
        vkCmdWaitEvents2(r.cb, 1, &event, &dep);
        copy_run(r.cb, &c);
        finish(o->a, &r, !wrong);
        vkDestroyEvent(o->a->device, event, NULL);
        return;
    } else if (strcmp(name, "hazard-sync2") == 0) {
        vkCmdFillBuffer(r.cb, src, 0, 4096, 1);
        VkBufferMemoryBarrier2 b = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
                                    .srcStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT,
                                    .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                    .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                    .dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                                    .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                    .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                    .buffer = src,
                                    .offset = 0,
                                    .size = 4096}; /* exactly the range the fill wrote */
        VkDependencyInfo dep = {
            .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .bufferMemoryBarrierCount = 1, .pBufferMemoryBarriers = &b};
        vkCmdPipelineBarrier2(r.cb, &dep);
        copy_run(r.cb, &c);
    }
    finish(o->a, &r, submit);
}

/* A mip chain made by blits, level by level (the pattern of most texture loaders):
 *   hazard-mipchain: level 0 cleared, then per level i a barrier turning level i-1 from
 *     TRANSFER_DST to TRANSFER_SRC (TRANSFER_WRITE -> TRANSFER_READ), a blit i-1 -> i, and level i-1
 *     to SHADER_READ_ONLY for fragment shaders; the last level after the loop. Correct.
 *   hazard-mipchain-raw: every level in GENERAL, a TRANSFER_WRITE -> TRANSFER_READ barrier over
 *     level i-1 before each blit except the one before blitting level 2 to 3: one RAW on level 2. */
static void scenario_mipchain(struct objects *o, const char *name)
{
    const uint32_t levels = 7; /* 64x64 down to 1x1 */
    VkImage image = new_image(
        o, levels, VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    bool buggy = strcmp(name, "hazard-mipchain-raw") == 0;
    VkImageLayout dst_layout = buggy ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    VkImageLayout src_layout = buggy ? VK_IMAGE_LAYOUT_GENERAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    const VkPipelineStageFlags transfer = VK_PIPELINE_STAGE_TRANSFER_BIT,
                               fragment = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
    struct recording r = begin(o->a, "mipchain-cb");
    VkImageMemoryBarrier all = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                .newLayout = dst_layout,
                                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                .image = image,
                                .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 1}};
    vkCmdPipelineBarrier(r.cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, transfer, 0, 0, NULL, 0, NULL, 1, &all);
    VkClearColorValue color = {.float32 = {1, 0, 0, 0}};
    VkImageSubresourceRange level0 = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(r.cb, image, dst_layout, &color, 1, &level0);
    for (uint32_t i = 1; i < levels; ++i) {
        if (!buggy)
            level_barrier(r.cb, image, i - 1, dst_layout, src_layout, VK_ACCESS_TRANSFER_WRITE_BIT, transfer,
                          VK_ACCESS_TRANSFER_READ_BIT);
        else if (i != 3)
            level_barrier(r.cb, image, i - 1, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL,
                          VK_ACCESS_TRANSFER_WRITE_BIT, transfer, VK_ACCESS_TRANSFER_READ_BIT);
        int32_t size = 64 >> (i - 1);
        VkImageBlit blit = {.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, i - 1, 0, 1},
                            .srcOffsets = {{0, 0, 0}, {size, size, 1}},
                            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, i, 0, 1},
                            .dstOffsets = {{0, 0, 0}, {size / 2, size / 2, 1}}};
        vkCmdBlitImage(r.cb, image, src_layout, image, dst_layout, 1, &blit, VK_FILTER_NEAREST);
        if (!buggy)
            level_barrier(r.cb, image, i - 1, src_layout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          VK_ACCESS_TRANSFER_READ_BIT, fragment, VK_ACCESS_SHADER_READ_BIT);
    }
    if (!buggy)
        level_barrier(r.cb, image, levels - 1, dst_layout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                      VK_ACCESS_TRANSFER_WRITE_BIT, fragment, VK_ACCESS_SHADER_READ_BIT);
    finish(o->a, &r, !buggy);
}

/* alias_image.comp writes storage image `written` and samples `sampled`; then a copy reads
 * `written` (RAW without a barrier) or a layout transition rewrites `sampled` (WAR when the
 * transition's first scope is TOP_OF_PIPE). */
static void scenario_image_hazard(struct objects *o, const char *name)
{
    const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
    VkImage written = new_image(o, 1, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    VkImage sampled = new_image(o, 1, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    VkBuffer readback = new_buffer(o, 64 * 64 * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkDescriptorSetLayout set_layout = new_set_layout(o, types, 2);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_alias_image, layer_test_spirv_alias_image_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    write_image(o, set, 0, types[0], new_view(o, written, 0));
    write_image(o, set, 1, types[1], new_view(o, sampled, 0));
    struct recording r = begin(o->a, "image-hazard-cb");
    const VkPipelineStageFlags compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               transfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
    image_barrier(r.cb, written, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                  0, compute, VK_ACCESS_SHADER_WRITE_BIT);
    image_barrier(r.cb, sampled, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                  0, compute, VK_ACCESS_SHADER_READ_BIT);
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(r.cb, 8, 8, 1);
    bool submit = true;
    if (strcmp(name, "hazard-image-raw") == 0 || strcmp(name, "hazard-image-fixed") == 0 ||
        strncmp(name, "hazard-readback-", 16) == 0) {
        bool fixed = strcmp(name, "hazard-image-raw") != 0;
        if (fixed) /* a transition to TRANSFER_SRC_OPTIMAL that also orders the write before the copy */
            image_barrier(r.cb, written, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, compute,
                          VK_ACCESS_SHADER_WRITE_BIT, transfer, VK_ACCESS_TRANSFER_READ_BIT);
        /* hazard-readback-disjoint copies the upper 32 rows only: bytes [0, 8192) of the buffer */
        bool half = strcmp(name, "hazard-readback-disjoint") == 0;
        VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                    .imageExtent = {64, half ? 32 : 64, 1}};
        vkCmdCopyImageToBuffer(r.cb, written, fixed ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_GENERAL,
                               readback, 1, &region);
        if (half) /* the rest of the buffer: no overlap with the copy's rows */
            vkCmdFillBuffer(r.cb, readback, 8192, 8192, 0);
        else if (strcmp(name, "hazard-readback-waw") == 0) /* the copy's last texel, no barrier */
            vkCmdFillBuffer(r.cb, readback, 64 * 64 * 4 - 4, 4, 0);
        submit = fixed && strcmp(name, "hazard-readback-waw") != 0;
        if (submit) /* a readback: the host reads it after the wait, so the writes are made visible to it */
            buffer_barrier(r.cb, readback, transfer, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                           VK_ACCESS_HOST_READ_BIT);
    } else if (strcmp(name, "hazard-copy-image2") == 0) {
        /* vkCmdCopyImage2 right after the dispatch: reads what it wrote, writes what it sampled */
        VkImageCopy2 region = {.sType = VK_STRUCTURE_TYPE_IMAGE_COPY_2,
                               .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                               .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                               .extent = {64, 64, 1}};
        VkCopyImageInfo2 copy = {.sType = VK_STRUCTURE_TYPE_COPY_IMAGE_INFO_2,
                                 .srcImage = written,
                                 .srcImageLayout = VK_IMAGE_LAYOUT_GENERAL,
                                 .dstImage = sampled,
                                 .dstImageLayout = VK_IMAGE_LAYOUT_GENERAL,
                                 .regionCount = 1,
                                 .pRegions = &region};
        vkCmdCopyImage2(r.cb, &copy);
        submit = false;
    } else {
        bool fixed = strcmp(name, "hazard-transition-fixed") == 0;
        image_barrier(r.cb, sampled, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      fixed ? compute : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, transfer, VK_ACCESS_TRANSFER_WRITE_BIT);
        submit = fixed;
    }
    finish(o->a, &r, submit);
}

/* hazard-rendering-raw / -fixed: dynamic rendering clears and stores an image (in GENERAL), then a
 * dispatch samples it: without a barrier, and with COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE
 * -> COMPUTE_SHADER/SHADER_READ; -memory-access with MEMORY_WRITE -> MEMORY_READ instead. */
static void scenario_rendering(struct objects *o, const char *name)
{
    if (!o->a->dynamic_rendering) {
        printf("skip: no dynamic rendering\n");
        return;
    }
    const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
    VkImage written = new_image(o, 1, VK_IMAGE_USAGE_STORAGE_BIT);
    VkImage target = new_image(o, 1, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkImageView target_view = new_view(o, target, 0);
    VkDescriptorSetLayout set_layout = new_set_layout(o, types, 2);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_alias_image, layer_test_spirv_alias_image_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    write_image(o, set, 0, types[0], new_view(o, written, 0));
    write_image(o, set, 1, types[1], target_view);
    struct recording r = begin(o->a, "rendering-cb");
    const VkPipelineStageFlags compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               color = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    image_barrier(r.cb, written, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                  0, compute, VK_ACCESS_SHADER_WRITE_BIT);
    image_barrier(r.cb, target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                  0, color, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
    VkRenderingAttachmentInfo attachment = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                            .imageView = target_view,
                                            .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
                                            .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                            .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
    VkRenderingInfo rendering = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                                 .renderArea = {{0, 0}, {64, 64}},
                                 .layerCount = 1,
                                 .colorAttachmentCount = 1,
                                 .pColorAttachments = &attachment};
    vkCmdBeginRendering(r.cb, &rendering);
    vkCmdEndRendering(r.cb);
    bool generic = strcmp(name, "hazard-rendering-memory-access") == 0; /* MEMORY_WRITE -> MEMORY_READ */
    bool fixed = strcmp(name, "hazard-rendering-fixed") == 0 || generic;
    if (fixed) {
        VkMemoryBarrier m = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                             .srcAccessMask =
                                 generic ? VK_ACCESS_MEMORY_WRITE_BIT : VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                             .dstAccessMask = generic ? VK_ACCESS_MEMORY_READ_BIT : VK_ACCESS_SHADER_READ_BIT};
        vkCmdPipelineBarrier(r.cb, color, compute, 0, 1, &m, 0, NULL, 0, NULL);
    }
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(r.cb, 8, 8, 1);
    finish(o->a, &r, fixed);
}

/* hazard-renderpass-raw / -fixed: a render pass clears and stores an image (final layout GENERAL),
 * then a dispatch samples it; -fixed has the dependency into VK_SUBPASS_EXTERNAL that makes the
 * store visible to compute reads, -raw only the implicit one. */
static void scenario_render_pass(struct objects *o, const char *name)
{
    const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
    VkImage written = new_image(o, 1, VK_IMAGE_USAGE_STORAGE_BIT);
    VkImage target = new_image(o, 1, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkImageView target_view = new_view(o, target, 0);
    bool fixed = strcmp(name, "hazard-renderpass-fixed") == 0;
    VkAttachmentDescription color = {.format = VK_FORMAT_R32_SFLOAT,
                                     .samples = VK_SAMPLE_COUNT_1_BIT,
                                     .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                     .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                     .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                     .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                     .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                     .finalLayout = VK_IMAGE_LAYOUT_GENERAL};
    VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1, .pColorAttachments = &ref};
    VkSubpassDependency after = {.srcSubpass = 0,
                                 .dstSubpass = VK_SUBPASS_EXTERNAL,
                                 .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                 .dstStageMask = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                 .dstAccessMask = VK_ACCESS_SHADER_READ_BIT};
    VkRenderPassCreateInfo pass_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                        .attachmentCount = 1,
                                        .pAttachments = &color,
                                        .subpassCount = 1,
                                        .pSubpasses = &subpass,
                                        .dependencyCount = fixed ? 1 : 0,
                                        .pDependencies = &after};
    new_render_pass(o, &pass_info, &target_view);
    VkDescriptorSetLayout set_layout = new_set_layout(o, types, 2);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_alias_image, layer_test_spirv_alias_image_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    write_image(o, set, 0, types[0], new_view(o, written, 0));
    write_image(o, set, 1, types[1], target_view);
    struct recording r = begin(o->a, "render-pass-cb");
    image_barrier(r.cb, written, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                  0, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
    VkClearValue clear = {.color = {{0, 0, 0, 0}}};
    VkRenderPassBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                        .renderPass = o->render_pass,
                                        .framebuffer = o->framebuffer,
                                        .renderArea = {{0, 0}, {64, 64}},
                                        .clearValueCount = 1,
                                        .pClearValues = &clear};
    vkCmdBeginRenderPass(r.cb, &begin_info, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdEndRenderPass(r.cb);
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(r.cb, 8, 8, 1);
    finish(o->a, &r, fixed);
}

/* hazard-subpass-raw / -fixed: in a two-subpass render pass, a draw of the first subpass writes a
 * storage buffer from its fragment shader and a draw of the second reads it; the dependency from
 * subpass 0 to 1 covers only the color attachment (-raw) or the fragment shader's write too. */
static void scenario_subpass(struct objects *o, const char *name)
{
    if (!o->a->fragment_stores) {
        printf("skip: no fragmentStoresAndAtomics\n");
        return;
    }
    bool fixed = strcmp(name, "hazard-subpass-fixed") == 0;
    VkImage target = new_image(o, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkImageView target_view = new_view(o, target, 0);
    VkBuffer data = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkAttachmentDescription color = {.format = VK_FORMAT_R32_SFLOAT,
                                     .samples = VK_SAMPLE_COUNT_1_BIT,
                                     .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                     .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                     .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                     .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                     .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                     .finalLayout = VK_IMAGE_LAYOUT_GENERAL};
    VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpasses[2] = {
        {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1, .pColorAttachments = &ref},
        {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1, .pColorAttachments = &ref}};
    const VkPipelineStageFlags color_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                               fragment = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT;
    VkSubpassDependency between = {
        .srcSubpass = 0,
        .dstSubpass = 1,
        .srcStageMask = color_stage | (fixed ? fragment : 0),
        .dstStageMask = color_stage | (fixed ? fragment : 0),
        .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | (fixed ? VK_ACCESS_SHADER_WRITE_BIT : 0),
        .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                         (fixed ? VK_ACCESS_SHADER_READ_BIT : 0)};
    VkRenderPassCreateInfo pass_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                        .attachmentCount = 1,
                                        .pAttachments = &color,
                                        .subpassCount = 2,
                                        .pSubpasses = subpasses,
                                        .dependencyCount = 1,
                                        .pDependencies = &between};
    new_render_pass(o, &pass_info, &target_view);
    const VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    VkDescriptorSetLayout set_layout = new_set_layout(o, &type, 1);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkDescriptorSet set = new_set(o, set_layout);
    write_buffer(o, set, 0, type, data, 0, 4096);
    VkPipeline writer = new_fullscreen_pipeline(o, layout, o->render_pass, 0, layer_test_spirv_ssbo_write,
                                                layer_test_spirv_ssbo_write_size);
    VkPipeline reader = new_fullscreen_pipeline(o, layout, o->render_pass, 1, layer_test_spirv_ssbo_read,
                                                layer_test_spirv_ssbo_read_size);
    struct recording r = begin(o->a, "subpass-cb");
    VkClearValue clear = {.color = {{0, 0, 0, 0}}};
    VkRenderPassBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                        .renderPass = o->render_pass,
                                        .framebuffer = o->framebuffer,
                                        .renderArea = {{0, 0}, {64, 64}},
                                        .clearValueCount = 1,
                                        .pClearValues = &clear};
    vkCmdBeginRenderPass(r.cb, &begin_info, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_GRAPHICS, writer);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
    vkCmdDraw(r.cb, 3, 1, 0, 0);
    vkCmdNextSubpass(r.cb, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_GRAPHICS, reader);
    vkCmdDraw(r.cb, 3, 1, 0, 0);
    vkCmdEndRenderPass(r.cb);
    /* recorded only: lavapipe's rasterizer threads race among themselves under ThreadSanitizer */
    finish(o->a, &r, false);
}

/* A deferred-shading pass: subpass 0 draws into attachment A (cleared, not stored), subpass 1 reads
 * A as an input attachment and draws into B.
 *   hazard-input-attachment: the 0 -> 1 dependency makes A's writes visible to fragment shader
 *     input attachment reads (COLOR_ATTACHMENT_OUTPUT/COLOR_ATTACHMENT_WRITE -> FRAGMENT_SHADER/
 *     INPUT_ATTACHMENT_READ, by region). Correct.
 *   hazard-input-attachment-raw: the dependency stops at COLOR_ATTACHMENT_OUTPUT: one RAW. */
static void scenario_input_attachment(struct objects *o, const char *name)
{
    bool fixed = strcmp(name, "hazard-input-attachment") == 0;
    VkImage gbuffer = new_image(o, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT);
    VkImage target = new_image(o, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkImageView views[2] = {new_view(o, gbuffer, 0), new_view(o, target, 0)};
    VkAttachmentDescription attachments[2];
    for (int i = 0; i < 2; ++i)
        attachments[i] = (VkAttachmentDescription){.format = VK_FORMAT_R32_SFLOAT,
                                                   .samples = VK_SAMPLE_COUNT_1_BIT,
                                                   .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                   .storeOp = i == 0 ? VK_ATTACHMENT_STORE_OP_DONT_CARE
                                                                     : VK_ATTACHMENT_STORE_OP_STORE,
                                                   .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                                   .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                                   .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                                   .finalLayout = VK_IMAGE_LAYOUT_GENERAL};
    VkAttachmentReference a_ref = {0, VK_IMAGE_LAYOUT_GENERAL}, b_ref = {1, VK_IMAGE_LAYOUT_GENERAL};
    VkSubpassDescription subpasses[2] = {
        {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1, .pColorAttachments = &a_ref},
        {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
         .inputAttachmentCount = 1,
         .pInputAttachments = &a_ref,
         .colorAttachmentCount = 1,
         .pColorAttachments = &b_ref}};
    VkSubpassDependency between = {
        .srcSubpass = 0,
        .dstSubpass = 1,
        .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        .dstStageMask = fixed ? VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT : VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        .dstAccessMask = fixed ? VK_ACCESS_INPUT_ATTACHMENT_READ_BIT : VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        .dependencyFlags = VK_DEPENDENCY_BY_REGION_BIT};
    VkRenderPassCreateInfo pass_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                        .attachmentCount = 2,
                                        .pAttachments = attachments,
                                        .subpassCount = 2,
                                        .pSubpasses = subpasses,
                                        .dependencyCount = 1,
                                        .pDependencies = &between};
    new_render_pass(o, &pass_info, views);
    const VkDescriptorType type = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
    VkDescriptorSetLayoutBinding binding = {0, type, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 1, .pBindings = &binding};
    VkDescriptorSetLayout set_layout;
    CHECK(vkCreateDescriptorSetLayout(o->a->device, &set_info, NULL, &set_layout));
    o->set_layouts[o->set_layout_count++] = set_layout;
    VkPipelineLayout empty_layout = new_pipeline_layout(o, NULL, 0), layout = new_pipeline_layout(o, &set_layout, 1);
    VkDescriptorSet set = new_set(o, set_layout);
    write_image(o, set, 0, type, views[0]);
    VkPipeline writer = new_fullscreen_pipeline(o, empty_layout, o->render_pass, 0, layer_test_spirv_color,
                                                layer_test_spirv_color_size);
    VkPipeline reader = new_fullscreen_pipeline(o, layout, o->render_pass, 1, layer_test_spirv_input_read,
                                                layer_test_spirv_input_read_size);
    struct recording r = begin(o->a, "deferred-cb");
    VkClearValue clears[2] = {{.color = {{0, 0, 0, 0}}}, {.color = {{0, 0, 0, 0}}}};
    VkRenderPassBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                        .renderPass = o->render_pass,
                                        .framebuffer = o->framebuffer,
                                        .renderArea = {{0, 0}, {64, 64}},
                                        .clearValueCount = 2,
                                        .pClearValues = clears};
    vkCmdBeginRenderPass(r.cb, &begin_info, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_GRAPHICS, writer);
    vkCmdDraw(r.cb, 3, 1, 0, 0);
    vkCmdNextSubpass(r.cb, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_GRAPHICS, reader);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
    vkCmdDraw(r.cb, 3, 1, 0, 0);
    vkCmdEndRenderPass(r.cb);
    /* recorded only: lavapipe's rasterizer threads race among themselves under ThreadSanitizer */
    finish(o->a, &r, false);
}

/* Two render passes in a row over the same color and depth attachments (clear, color stored, depth
 * not), as frames of a renderer that share one depth buffer:
 *   hazard-depth-passes-waw: the external dependency a well-known tutorial used, whose first scope
 *     (COLOR_ATTACHMENT_OUTPUT | EARLY_FRAGMENT_TESTS) misses where the first pass's depth store
 *     happens (LATE_FRAGMENT_TESTS): the second pass's depth layout transition is a WAW;
 *   hazard-depth-passes: the corrected dependency (LATE_FRAGMENT_TESTS, with the writes' access). */
static void scenario_depth_passes(struct objects *o, const char *name)
{
    bool fixed = strcmp(name, "hazard-depth-passes") == 0;
    VkImage color = new_image(o, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkImage depth = new_image_of(o, VK_FORMAT_D32_SFLOAT, 1, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT);
    VkImageViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                       .image = depth,
                                       .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                       .format = VK_FORMAT_D32_SFLOAT,
                                       .subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1}};
    VkImageView depth_view;
    CHECK(vkCreateImageView(o->a->device, &view_info, NULL, &depth_view));
    o->views[o->view_count++] = depth_view;
    VkImageView views[2] = {new_view(o, color, 0), depth_view};
    VkAttachmentDescription attachments[2] = {{.format = VK_FORMAT_R32_SFLOAT,
                                               .samples = VK_SAMPLE_COUNT_1_BIT,
                                               .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                               .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                               .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                               .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                               .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                               .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
                                              {.format = VK_FORMAT_D32_SFLOAT,
                                               .samples = VK_SAMPLE_COUNT_1_BIT,
                                               .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                               .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                               .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                               .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                               .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                               .finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL}};
    VkAttachmentReference color_ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference depth_ref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                                    .colorAttachmentCount = 1,
                                    .pColorAttachments = &color_ref,
                                    .pDepthStencilAttachment = &depth_ref};
    const VkPipelineStageFlags color_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                               early = VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT,
                               late = VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
    VkSubpassDependency external = {
        .srcSubpass = VK_SUBPASS_EXTERNAL,
        .dstSubpass = 0,
        .srcStageMask = color_stage | (fixed ? late : early),
        .srcAccessMask =
            fixed ? VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT : 0,
        .dstStageMask = color_stage | early | (fixed ? late : 0),
        .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};
    VkRenderPassCreateInfo pass_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                        .attachmentCount = 2,
                                        .pAttachments = attachments,
                                        .subpassCount = 1,
                                        .pSubpasses = &subpass,
                                        .dependencyCount = 1,
                                        .pDependencies = &external};
    new_render_pass(o, &pass_info, views);
    VkClearValue clears[2] = {{.color = {{0, 0, 0, 0}}}, {.depthStencil = {1, 0}}};
    VkRenderPassBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                        .renderPass = o->render_pass,
                                        .framebuffer = o->framebuffer,
                                        .renderArea = {{0, 0}, {64, 64}},
                                        .clearValueCount = 2,
                                        .pClearValues = clears};
    struct recording r = begin(o->a, "depth-cb");
    for (int frame = 0; frame < 2; ++frame) {
        vkCmdBeginRenderPass(r.cb, &begin_info, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdEndRenderPass(r.cb);
    }
    finish(o->a, &r, fixed);
}

/* hazard-secondary-raw / -fixed: the primary fills a buffer, then executes a secondary whose
 * dispatch reads it; -fixed starts the secondary with the barrier. */
static void scenario_secondary(struct objects *o, const char *name)
{
    VkBuffer src = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkBuffer dst = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct copy_setup c = copy_setup(o, src, 0, dst);
    struct recording r = begin(o->a, "primary-cb");
    VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                         .commandPool = r.pool,
                                         .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
                                         .commandBufferCount = 1};
    VkCommandBuffer secondary;
    CHECK(vkAllocateCommandBuffers(o->a->device, &alloc, &secondary));
    if (o->a->set_name) {
        VkDebugUtilsObjectNameInfoEXT n = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                           .objectType = VK_OBJECT_TYPE_COMMAND_BUFFER,
                                           .objectHandle = (uint64_t)(uintptr_t)secondary,
                                           .pObjectName = "secondary-cb"};
        o->a->set_name(o->a->device, &n);
    }
    VkCommandBufferInheritanceInfo inheritance = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
    VkCommandBufferBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                           .pInheritanceInfo = &inheritance};
    CHECK(vkBeginCommandBuffer(secondary, &begin_info));
    bool fixed = strcmp(name, "hazard-secondary-fixed") == 0;
    if (fixed)
        buffer_barrier(secondary, src, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    copy_run(secondary, &c);
    CHECK(vkEndCommandBuffer(secondary));
    vkCmdFillBuffer(r.cb, src, 0, 4096, 1);
    vkCmdExecuteCommands(r.cb, 1, &secondary);
    finish(o->a, &r, fixed);
}

/* --- submit time: a fill in one command buffer, a dispatch reading what it wrote in another --- */

/* hazard-submit-*: the fill and the dispatch in two command buffers, ordered (or not) by what
 * each scenario names; hazard-cross-queue*: the same on two queues of one family (-stage: the
 * semaphore wait's stage mask misses the reading stage). */
static void scenario_submit(struct objects *o, const char *name)
{
    struct app *a = o->a;
    bool cross = strncmp(name, "hazard-cross-queue", 18) == 0;
    if (cross && a->queue2 == VK_NULL_HANDLE) {
        printf("skip: the device has one queue in its compute family\n");
        return;
    }
    bool timeline = strcmp(name, "hazard-submit-timeline") == 0;
    if (timeline && !a->timeline) {
        printf("skip: no timeline semaphores\n");
        return;
    }
    VkBuffer src = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkBuffer dst = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct copy_setup c = copy_setup(o, src, 0, dst);
    struct recording fill = begin(a, "fill-cb"), read = begin(a, "read-cb");
    vkCmdFillBuffer(fill.cb, src, 0, 4096, 1);
    if (strcmp(name, "hazard-submit-fixed") == 0) /* the later command buffer starts with the barrier */
        buffer_barrier(read.cb, src, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    copy_run(read.cb, &c);
    CHECK(vkEndCommandBuffer(fill.cb));
    CHECK(vkEndCommandBuffer(read.cb));
    VkSemaphore semaphore = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    if (strcmp(name, "hazard-submit-raw") == 0 || strcmp(name, "hazard-submit-fixed") == 0) {
        VkCommandBuffer both[2] = {fill.cb, read.cb};
        VkSubmitInfo info = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 2, .pCommandBuffers = both};
        CHECK(vkQueueSubmit(a->queue, 1, &info, VK_NULL_HANDLE));
    } else if (strcmp(name, "hazard-submit-separate") == 0) {
        submit_one(a->queue, fill.cb, VK_NULL_HANDLE, VK_NULL_HANDLE, false, VK_NULL_HANDLE);
        submit_one(a->queue, read.cb, VK_NULL_HANDLE, VK_NULL_HANDLE, false, VK_NULL_HANDLE);
    } else if (strcmp(name, "hazard-submit-semaphore") == 0 || timeline ||
               strcmp(name, "hazard-cross-queue-semaphore") == 0 || strcmp(name, "hazard-cross-queue-stage") == 0) {
        /* -stage: the second queue waits at TRANSFER, but reads in the compute shader */
        submit_wait_stage = strcmp(name, "hazard-cross-queue-stage") == 0 ? VK_PIPELINE_STAGE_TRANSFER_BIT
                                                                          : VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
        semaphore = new_semaphore(a, timeline);
        submit_one(a->queue, fill.cb, VK_NULL_HANDLE, semaphore, timeline, VK_NULL_HANDLE);
        submit_one(cross ? a->queue2 : a->queue, read.cb, semaphore, VK_NULL_HANDLE, timeline, VK_NULL_HANDLE);
    } else if (strcmp(name, "hazard-submit-fence") == 0) {
        fence = new_fence(a);
        submit_one(a->queue, fill.cb, VK_NULL_HANDLE, VK_NULL_HANDLE, false, fence);
        CHECK(vkWaitForFences(a->device, 1, &fence, VK_TRUE, UINT64_MAX));
        submit_one(a->queue, read.cb, VK_NULL_HANDLE, VK_NULL_HANDLE, false, VK_NULL_HANDLE);
    } else { /* hazard-cross-queue: nothing orders the two queues */
        submit_one(a->queue, fill.cb, VK_NULL_HANDLE, VK_NULL_HANDLE, false, VK_NULL_HANDLE);
        submit_one(a->queue2, read.cb, VK_NULL_HANDLE, VK_NULL_HANDLE, false, VK_NULL_HANDLE);
    }
    CHECK(vkDeviceWaitIdle(a->device));
    if (semaphore != VK_NULL_HANDLE)
        vkDestroySemaphore(a->device, semaphore, NULL);
    if (fence != VK_NULL_HANDLE)
        vkDestroyFence(a->device, fence, NULL);
    vkDestroyCommandPool(a->device, fill.pool, NULL);
    vkDestroyCommandPool(a->device, read.pool, NULL);
}

/* --- soak: many recordings and submissions; the layer's memory must not grow with them --- */

/* hazard-runtime-index / -fixed: a fill writes the buffer behind element 1 of a descriptor array
 * that the shader indexes through a helper's parameter with a pushed value; the dispatch reads it
 * with no barrier (-fixed: TRANSFER_WRITE -> SHADER_READ). */
static void scenario_runtime_index(struct objects *o, const char *name)
{
    bool fixed = strcmp(name, "hazard-runtime-index-fixed") == 0;
    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 2, .pBindings = bindings};
    VkDescriptorSetLayout set_layout;
    CHECK(vkCreateDescriptorSetLayout(o->a->device, &info, NULL, &set_layout));
    o->set_layouts[o->set_layout_count++] = set_layout;
    VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                              .setLayoutCount = 1,
                                              .pSetLayouts = &set_layout,
                                              .pushConstantRangeCount = 1,
                                              .pPushConstantRanges = &push};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(o->a->device, &layout_info, NULL, &layout));
    o->pipeline_layouts[o->pipeline_layout_count++] = layout;
    VkPipeline pipeline = new_compute(o, layer_test_spirv_runtime_index, layer_test_spirv_runtime_index_size, layout);
    VkBuffer luma = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBuffer chroma = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkBuffer out = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorSet set = new_set(o, set_layout);
    VkDescriptorBufferInfo planes[2] = {{luma, 0, VK_WHOLE_SIZE}, {chroma, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = set,
                                  .dstBinding = 0,
                                  .descriptorCount = 2,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                  .pBufferInfo = planes};
    vkUpdateDescriptorSets(o->a->device, 1, &write, 0, NULL);
    write_buffer(o, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out, 0, VK_WHOLE_SIZE);
    struct recording r = begin(o->a, "runtime-index-cb");
    vkCmdFillBuffer(r.cb, chroma, 0, 4096, 3);
    if (fixed)
        buffer_barrier(r.cb, chroma, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    const uint32_t plane = 1;
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(r.cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &plane);
    vkCmdDispatch(r.cb, 4096 / 4 / 64, 1, 1);
    finish(o->a, &r, fixed);
}

/* hazard-transitions-ordered: a barrier transitions an image (UNDEFINED -> GENERAL) and the next
 * render pass transitions it again (GENERAL -> COLOR_ATTACHMENT_OPTIMAL) with only the implicit
 * dependency, whose first scope is empty: layout transitions are ordered among themselves in
 * submission order, so this is correct (GStreamer's Vulkan elements do it). */
static void scenario_transitions_ordered(struct objects *o)
{
    VkImage target = new_image(o, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkImageView view = new_view(o, target, 0);
    VkAttachmentDescription color = {.format = VK_FORMAT_R32_SFLOAT,
                                     .samples = VK_SAMPLE_COUNT_1_BIT,
                                     .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                     .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                     .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                     .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                     .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
                                     .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1, .pColorAttachments = &ref};
    VkRenderPassCreateInfo pass_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                        .attachmentCount = 1,
                                        .pAttachments = &color,
                                        .subpassCount = 1,
                                        .pSubpasses = &subpass};
    new_render_pass(o, &pass_info, &view);
    struct recording r = begin(o->a, "transitions-cb");
    image_barrier(r.cb, target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                  0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0);
    VkClearValue clear = {.color = {{0, 0, 0, 0}}};
    VkRenderPassBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                        .renderPass = o->render_pass,
                                        .framebuffer = o->framebuffer,
                                        .renderArea = {{0, 0}, {64, 64}},
                                        .clearValueCount = 1,
                                        .pClearValues = &clear};
    vkCmdBeginRenderPass(r.cb, &begin_info, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdEndRenderPass(r.cb);
    finish(o->a, &r, true);
}

/* hazard-3d-slices / -overlap: copies into a 3D image slice by slice (zink copies 3D textures so)
 * with no barrier between: different depth slices do not overlap; -overlap's second copy covers
 * the first's slice again (WAW). */
static void scenario_3d_slices(struct objects *o, const char *name)
{
    bool overlap = strcmp(name, "hazard-3d-slices-overlap") == 0;
    VkImageCreateInfo info = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                              .imageType = VK_IMAGE_TYPE_3D,
                              .format = VK_FORMAT_R32_SFLOAT,
                              .extent = {16, 16, 4},
                              .mipLevels = 1,
                              .arrayLayers = 1,
                              .samples = VK_SAMPLE_COUNT_1_BIT,
                              .tiling = VK_IMAGE_TILING_OPTIMAL,
                              .usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                              .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    VkImage volume;
    CHECK(vkCreateImage(o->a->device, &info, NULL, &volume));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(o->a->device, volume, &req);
    VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  .allocationSize = req.size,
                                  .memoryTypeIndex = memory_type(o->a, req.memoryTypeBits, 0)};
    VkDeviceMemory memory;
    CHECK(vkAllocateMemory(o->a->device, &alloc, NULL, &memory));
    CHECK(vkBindImageMemory(o->a->device, volume, memory, 0));
    o->memories[o->memory_count++] = memory;
    o->images[o->image_count++] = volume;
    VkBuffer texels = new_buffer(o, 16 * 16 * 4 * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    struct recording r = begin(o->a, "slices-cb");
    image_barrier(r.cb, volume, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                  VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    for (int32_t z = 0; z < 4; ++z) {
        VkBufferImageCopy region = {.bufferOffset = (VkDeviceSize)z * 16 * 16 * 4,
                                    .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                                    .imageOffset = {0, 0, overlap && z == 1 ? 0 : z},
                                    .imageExtent = {16, 16, overlap && z == 1 ? 2 : 1}};
        vkCmdCopyBufferToImage(r.cb, texels, volume, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    }
    finish(o->a, &r, !overlap);
}

/* hazard-top-of-pipe-wait / -fixed: one submission clears an image (a transfer write) and signals
 * a semaphore; the next waits for it at TOP_OF_PIPE and transitions the image with srcStageMask
 * TOP_OF_PIPE, which in a first scope is no stage: nothing orders the transition after the clear
 * (ffmpeg 5.1's filters after an upload). -fixed waits at TRANSFER and names TRANSFER as source. */
static void scenario_top_of_pipe_wait(struct objects *o, const char *name)
{
    bool fixed = strcmp(name, "hazard-top-of-pipe-wait-fixed") == 0;
    VkImage image = new_image(o, 1, VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    VkSemaphore uploaded = new_semaphore(o->a, false);
    VkFence fence = new_fence(o->a);
    struct recording upload = begin(o->a, "upload-cb"), use = begin(o->a, "filter-cb");
    image_barrier(upload.cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                  VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkClearColorValue value = {{1, 0, 0, 0}};
    VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(upload.cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &value, 1, &all);
    CHECK(vkEndCommandBuffer(upload.cb));
    const VkPipelineStageFlags source = fixed ? VK_PIPELINE_STAGE_TRANSFER_BIT : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
    image_barrier(use.cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, source,
                  fixed ? VK_ACCESS_TRANSFER_WRITE_BIT : 0, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT);
    CHECK(vkEndCommandBuffer(use.cb));
    submit_one(o->a->queue, upload.cb, VK_NULL_HANDLE, uploaded, false, VK_NULL_HANDLE);
    submit_wait_stage = source;
    submit_one(o->a->queue, use.cb, uploaded, VK_NULL_HANDLE, false, fence);
    submit_wait_stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    CHECK(vkWaitForFences(o->a->device, 1, &fence, VK_TRUE, UINT64_MAX));
    vkDestroyFence(o->a->device, fence, NULL);
    vkDestroySemaphore(o->a->device, uploaded, NULL);
    vkDestroyCommandPool(o->a->device, upload.pool, NULL);
    vkDestroyCommandPool(o->a->device, use.pool, NULL);
}

/* hazard-sampled-after-pass / -fixed: a render pass renders an image whose final layout is
 * SHADER_READ_ONLY_OPTIMAL, with no dependency into VK_SUBPASS_EXTERNAL: the implicit one's second
 * scope is empty, so the next pass, whose draw samples the image, races with the store and the
 * final transition. -fixed declares COLOR_ATTACHMENT_OUTPUT/WRITE -> FRAGMENT_SHADER/SHADER_READ. */
static void scenario_sampled_after_pass(struct objects *o, const char *name)
{
    bool fixed = strcmp(name, "hazard-sampled-after-pass-fixed") == 0;
    VkImage shadow = new_image(o, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    VkImage frame = new_image(o, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkImageView shadow_view = new_view(o, shadow, 0), frame_view = new_view(o, frame, 0);
    VkSubpassDependency after = {.srcSubpass = 0,
                                 .dstSubpass = VK_SUBPASS_EXTERNAL,
                                 .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                 .dstStageMask = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                                 .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                 .dstAccessMask = VK_ACCESS_SHADER_READ_BIT};
    VkRenderPass first, second;
    VkFramebuffer first_fb, second_fb;
    second_pass(o, shadow_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, fixed ? &after : NULL, &first, &first_fb);
    second_pass(o, frame_view, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, NULL, &second, &second_fb);
    const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
    VkDescriptorSetLayout set_layout = new_set_layout(o, types, 1);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline =
        new_fullscreen_pipeline(o, layout, second, 0, layer_test_spirv_sample, layer_test_spirv_sample_size);
    VkDescriptorSet set = new_set(o, set_layout);
    write_image_in(o, set, 0, types[0], shadow_view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
    struct recording r = begin(o->a, "passes-cb");
    run_pass(r.cb, first, first_fb, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    run_pass(r.cb, second, second_fb, pipeline, layout, set);
    finish(o->a, &r, fixed);
    vkDestroyFramebuffer(o->a->device, first_fb, NULL);
    vkDestroyFramebuffer(o->a->device, second_fb, NULL);
    vkDestroyRenderPass(o->a->device, first, NULL);
    vkDestroyRenderPass(o->a->device, second, NULL);
}

/* hazard-vertex-scope / -fixed: a fill writes a storage buffer that a draw's fragment shader reads;
 * the barrier's destination is VERTEX_SHADER with SHADER_READ: the fragment shader is logically
 * later, so it is ordered, but the access scope holds only the vertex shader's reads. -fixed names
 * FRAGMENT_SHADER. */
static void scenario_vertex_scope(struct objects *o, const char *name)
{
    bool fixed = strcmp(name, "hazard-vertex-scope-fixed") == 0;
    VkImage frame = new_image(o, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkImageView frame_view = new_view(o, frame, 0);
    VkRenderPass pass;
    VkFramebuffer framebuffer;
    second_pass(o, frame_view, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, NULL, &pass, &framebuffer);
    const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    VkDescriptorSetLayout set_layout = new_set_layout(o, types, 1);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline =
        new_fullscreen_pipeline(o, layout, pass, 0, layer_test_spirv_ssbo_read, layer_test_spirv_ssbo_read_size);
    VkBuffer data = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkDescriptorSet set = new_set(o, set_layout);
    write_buffer(o, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, data, 0, VK_WHOLE_SIZE);
    struct recording r = begin(o->a, "vertex-scope-cb");
    vkCmdFillBuffer(r.cb, data, 0, 4096, 1);
    buffer_barrier(r.cb, data, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   fixed ? VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT : VK_PIPELINE_STAGE_VERTEX_SHADER_BIT,
                   VK_ACCESS_SHADER_READ_BIT);
    run_pass(r.cb, pass, framebuffer, pipeline, layout, set);
    finish(o->a, &r, fixed);
    vkDestroyFramebuffer(o->a->device, framebuffer, NULL);
    vkDestroyRenderPass(o->a->device, pass, NULL);
}

/* hazard-load-without-read / -fixed: a barrier transitions an image to COLOR_ATTACHMENT_OPTIMAL
 * with dstAccessMask COLOR_ATTACHMENT_WRITE only, then a render pass LOADs it (a read): nothing
 * made the transition visible to attachment reads (zink's and mpv's pattern). -fixed adds
 * COLOR_ATTACHMENT_READ. */
static void scenario_load_without_read(struct objects *o, const char *name)
{
    bool fixed = strcmp(name, "hazard-load-without-read-fixed") == 0;
    VkImage target = new_image(o, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkImageView view = new_view(o, target, 0);
    VkRenderPass pass;
    VkFramebuffer framebuffer;
    pass_with(o, view, VK_ATTACHMENT_LOAD_OP_LOAD, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, NULL, &pass, &framebuffer);
    struct recording r = begin(o->a, "load-cb");
    image_barrier(r.cb, target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                  VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                  VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | (fixed ? VK_ACCESS_COLOR_ATTACHMENT_READ_BIT : 0));
    run_pass(r.cb, pass, framebuffer, VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE);
    finish(o->a, &r, fixed);
    vkDestroyFramebuffer(o->a->device, framebuffer, NULL);
    vkDestroyRenderPass(o->a->device, pass, NULL);
}

/* hazard-clear-blit-waw / -fixed: an image is cleared, then a blit writes it with no barrier
 * between the two transfer writes (GStreamer's vulkansink); -fixed orders them. */
static void scenario_clear_blit(struct objects *o, const char *name)
{
    bool fixed = strcmp(name, "hazard-clear-blit-fixed") == 0;
    VkImage source = new_image(o, 1, VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    VkImage target = new_image(o, 1, VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    struct recording r = begin(o->a, "blit-cb");
    const VkPipelineStageFlags transfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
    image_barrier(r.cb, source, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                  VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, transfer, VK_ACCESS_TRANSFER_READ_BIT);
    image_barrier(r.cb, target, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                  VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, transfer, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkClearColorValue black = {{0, 0, 0, 0}};
    VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(r.cb, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &black, 1, &all);
    if (fixed)
        image_barrier(r.cb, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      transfer, VK_ACCESS_TRANSFER_WRITE_BIT, transfer, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkImageBlit region = {.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                          .srcOffsets = {{0, 0, 0}, {64, 64, 1}},
                          .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                          .dstOffsets = {{8, 8, 0}, {40, 40, 1}}};
    vkCmdBlitImage(r.cb, source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, target, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                   &region, VK_FILTER_NEAREST);
    finish(o->a, &r, fixed);
}

/* swapchain-present-war / -fixed: frames on a headless swapchain (VK_EXT_headless_surface): acquire,
 * transition the image from UNDEFINED, clear it, transition it to PRESENT_SRC, submit waiting for the
 * acquire semaphore at TRANSFER, present. -war's first transition has srcStageMask TOP_OF_PIPE: it
 * chains to no wait, so on an image's second use it may run while the presentation engine still
 * reads the frame before (mpv's and GStreamer's pattern). -fixed names TRANSFER, the stage waited
 * on. */
static void scenario_swapchain(struct objects *o, const char *name)
{
    if (!o->a->headless) {
        printf("skip: no VK_EXT_headless_surface\n");
        return;
    }
    bool fixed = strcmp(name, "swapchain-present-fixed") == 0;
    struct app *a = o->a;
    PFN_vkCreateHeadlessSurfaceEXT create_surface =
        (PFN_vkCreateHeadlessSurfaceEXT)vkGetInstanceProcAddr(a->instance, "vkCreateHeadlessSurfaceEXT");
    VkHeadlessSurfaceCreateInfoEXT surface_info = {.sType = VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
    VkSurfaceKHR surface;
    CHECK(create_surface(a->instance, &surface_info, NULL, &surface));
    VkSurfaceCapabilitiesKHR caps;
    CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(a->physical, surface, &caps));
    uint32_t format_count = 1;
    VkSurfaceFormatKHR format;
    VkResult formats = vkGetPhysicalDeviceSurfaceFormatsKHR(a->physical, surface, &format_count, &format);
    if (formats != VK_SUCCESS && formats != VK_INCOMPLETE)
        exit(3);
    VkSwapchainCreateInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = surface,
        .minImageCount = caps.minImageCount,
        .imageFormat = format.format,
        .imageColorSpace = format.colorSpace,
        .imageExtent = {64, 64},
        .imageArrayLayers = 1,
        .imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = caps.currentTransform,
        .compositeAlpha = (VkCompositeAlphaFlagBitsKHR)(caps.supportedCompositeAlpha & -caps.supportedCompositeAlpha),
        .presentMode = VK_PRESENT_MODE_FIFO_KHR,
        .clipped = VK_TRUE};
    VkSwapchainKHR swapchain;
    CHECK(vkCreateSwapchainKHR(a->device, &info, NULL, &swapchain));
    uint32_t image_count = 0;
    CHECK(vkGetSwapchainImagesKHR(a->device, swapchain, &image_count, NULL));
    VkImage images[16];
    image_count = image_count > 16 ? 16 : image_count;
    CHECK(vkGetSwapchainImagesKHR(a->device, swapchain, &image_count, images));
    VkSemaphore acquired = new_semaphore(a, false), rendered = new_semaphore(a, false);
    VkFence fence = new_fence(a);
    const VkPipelineStageFlags transfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
    for (uint32_t frame = 0; frame < 2 * image_count + 1; ++frame) {
        uint32_t index;
        VkResult acquire = vkAcquireNextImageKHR(a->device, swapchain, UINT64_MAX, acquired, VK_NULL_HANDLE, &index);
        if (acquire != VK_SUCCESS && acquire != VK_SUBOPTIMAL_KHR)
            exit(3);
        struct recording r = begin(a, "frame-cb");
        image_barrier(r.cb, images[index], VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      fixed ? transfer : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, transfer, VK_ACCESS_TRANSFER_WRITE_BIT);
        VkClearColorValue color = {{frame * 0.1f, 0, 0, 1}};
        VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        vkCmdClearColorImage(r.cb, images[index], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &all);
        image_barrier(r.cb, images[index], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
                      transfer, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0);
        CHECK(vkEndCommandBuffer(r.cb));
        VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                               .waitSemaphoreCount = 1,
                               .pWaitSemaphores = &acquired,
                               .pWaitDstStageMask = &transfer,
                               .commandBufferCount = 1,
                               .pCommandBuffers = &r.cb,
                               .signalSemaphoreCount = 1,
                               .pSignalSemaphores = &rendered};
        CHECK(vkQueueSubmit(a->queue, 1, &submit, fence));
        VkPresentInfoKHR present = {.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
                                    .waitSemaphoreCount = 1,
                                    .pWaitSemaphores = &rendered,
                                    .swapchainCount = 1,
                                    .pSwapchains = &swapchain,
                                    .pImageIndices = &index};
        VkResult presented = vkQueuePresentKHR(a->queue, &present);
        if (presented != VK_SUCCESS && presented != VK_SUBOPTIMAL_KHR)
            exit(3);
        CHECK(vkWaitForFences(a->device, 1, &fence, VK_TRUE, UINT64_MAX));
        CHECK(vkResetFences(a->device, 1, &fence));
        vkDestroyCommandPool(a->device, r.pool, NULL);
    }
    CHECK(vkDeviceWaitIdle(a->device));
    vkDestroyFence(a->device, fence, NULL);
    vkDestroySemaphore(a->device, acquired, NULL);
    vkDestroySemaphore(a->device, rendered, NULL);
    vkDestroySwapchainKHR(a->device, swapchain, NULL);
    vkDestroySurfaceKHR(a->instance, surface, NULL);
    printf("swapchain: %u images, %u frames\n", image_count, 2 * image_count + 1);
}

/* hazard-timeline-reach: a fill signals a timeline semaphore to 2; the next submission waits for 1
 * and reads what the fill wrote: the signal of 2 reaches 1, so it orders the read (correct). */
static void scenario_timeline_reach(struct objects *o)
{
    struct app *a = o->a;
    if (!a->timeline) {
        printf("skip: no timeline semaphores\n");
        return;
    }
    VkBuffer src = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkBuffer dst = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct copy_setup c = copy_setup(o, src, 0, dst);
    struct recording fill = begin(a, "fill-cb"), read = begin(a, "read-cb");
    vkCmdFillBuffer(fill.cb, src, 0, 4096, 1);
    copy_run(read.cb, &c);
    CHECK(vkEndCommandBuffer(fill.cb));
    CHECK(vkEndCommandBuffer(read.cb));
    VkSemaphore semaphore = new_semaphore(a, true);
    const uint64_t two = 2, one = 1;
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkTimelineSemaphoreSubmitInfo signal_values = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                                   .signalSemaphoreValueCount = 1,
                                                   .pSignalSemaphoreValues = &two};
    VkSubmitInfo signal = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                           .pNext = &signal_values,
                           .commandBufferCount = 1,
                           .pCommandBuffers = &fill.cb,
                           .signalSemaphoreCount = 1,
                           .pSignalSemaphores = &semaphore};
    CHECK(vkQueueSubmit(a->queue, 1, &signal, VK_NULL_HANDLE));
    VkTimelineSemaphoreSubmitInfo wait_values = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                                 .waitSemaphoreValueCount = 1,
                                                 .pWaitSemaphoreValues = &one};
    VkSubmitInfo wait = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .pNext = &wait_values,
                         .waitSemaphoreCount = 1,
                         .pWaitSemaphores = &semaphore,
                         .pWaitDstStageMask = &stage,
                         .commandBufferCount = 1,
                         .pCommandBuffers = &read.cb};
    CHECK(vkQueueSubmit(a->queue, 1, &wait, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(a->queue));
    vkDestroySemaphore(a->device, semaphore, NULL);
    vkDestroyCommandPool(a->device, fill.pool, NULL);
    vkDestroyCommandPool(a->device, read.pool, NULL);
}

/* Godot's directional shadow atlas in small: two render passes over parts of one 64x64 color
 * attachment, each LOAD/STORE with the same layout before, during and after (so no implicit
 * dependency), back to back. The spec limits load and store operations to the render area: passes
 * over disjoint halves do not meet; overlapping ones race unless an external dependency orders
 * the second after the first's stores. */
static void scenario_partial_passes(struct objects *o, const char *name)
{
    bool overlap = strstr(name, "overlap") != NULL, dependency = strstr(name, "dependency") != NULL;
    VkImage image = new_image(o, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    VkImageView view = new_view(o, image, 0);
    VkSubpassDependency external = {.srcSubpass = VK_SUBPASS_EXTERNAL,
                                    .dstSubpass = 0,
                                    .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                    .dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                    .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                    .dstAccessMask =
                                        VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT};
    VkRenderPass pass;
    VkFramebuffer framebuffer;
    pass_with(o, view, VK_ATTACHMENT_LOAD_OP_LOAD, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, dependency ? &external : NULL, &pass, &framebuffer);
    /* the first pass draws the left half; the second the right half, or x 16..47 (overlapping) */
    VkRect2D areas[2] = {{{0, 0}, {32, 64}}, {{overlap ? 16 : 32, 0}, {32, 64}}};
    struct recording r = begin(o->a, "atlas-cb");
    image_barrier(r.cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                  VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                  VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
    for (int i = 0; i < 2; ++i) {
        VkRenderPassBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                            .renderPass = pass,
                                            .framebuffer = framebuffer,
                                            .renderArea = areas[i]};
        label(o->a, r.cb, i == 0 ? "split-0" : "split-1");
        vkCmdBeginRenderPass(r.cb, &begin_info, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdEndRenderPass(r.cb);
        o->a->end_label(r.cb);
    }
    finish(o->a, &r, true);
    vkDestroyFramebuffer(o->a->device, framebuffer, NULL);
    vkDestroyRenderPass(o->a->device, pass, NULL);
}

/* ffmpeg's libplacebo filter in small: a frame of a multi-planar format (G8_B8_R8_3PLANE_420) is
 * rendered plane by plane, each plane through an R8_UNORM view of its plane (aspect PLANE_n) in a
 * render pass of its own, each submission waiting for the frame's timeline value, which a
 * submission before them signaled and the host has seen reached:
 *   hazard-planes: plane 0, then plane 1, no dependency between them: the planes are separate
 *     memory (silent).
 *   hazard-planes-same: plane 0 twice. The timeline's signal came before both passes in
 *     submission order, so its wait orders neither after the other: write-after-write. */
static void scenario_planes(struct objects *o, const char *name)
{
    struct app *a = o->a;
    const VkFormat frame_format = VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, plane_format = VK_FORMAT_R8_UNORM;
    const VkImageCreateFlags flags = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
    VkImageFormatProperties supported;
    if (!a->timeline || vkGetPhysicalDeviceImageFormatProperties(
                            a->physical, frame_format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, flags, &supported) != VK_SUCCESS) {
        printf("skip: no timeline semaphores or no multi-planar color attachments\n");
        return;
    }
    VkImageCreateInfo info = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                              .flags = flags,
                              .imageType = VK_IMAGE_TYPE_2D,
                              .format = frame_format,
                              .extent = {64, 64, 1},
                              .mipLevels = 1,
                              .arrayLayers = 1,
                              .samples = VK_SAMPLE_COUNT_1_BIT,
                              .tiling = VK_IMAGE_TILING_OPTIMAL,
                              .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                              .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    VkImage frame;
    CHECK(vkCreateImage(a->device, &info, NULL, &frame));
    o->images[o->image_count++] = frame;
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(a->device, frame, &req);
    VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  .allocationSize = req.size,
                                  .memoryTypeIndex = memory_type(a, req.memoryTypeBits, 0)};
    VkDeviceMemory memory;
    CHECK(vkAllocateMemory(a->device, &alloc, NULL, &memory));
    o->memories[o->memory_count++] = memory;
    CHECK(vkBindImageMemory(a->device, frame, memory, 0));

    VkAttachmentDescription color = {.format = plane_format,
                                     .samples = VK_SAMPLE_COUNT_1_BIT,
                                     .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                     .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                     .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                     .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                     .initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                     .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1, .pColorAttachments = &ref};
    VkRenderPassCreateInfo pass_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                        .attachmentCount = 1,
                                        .pAttachments = &color,
                                        .subpassCount = 1,
                                        .pSubpasses = &subpass};
    VkRenderPass pass;
    CHECK(vkCreateRenderPass(a->device, &pass_info, NULL, &pass));
    /* plane 0 is 64x64, plane 1 (4:2:0) 32x32 */
    bool same = strcmp(name, "hazard-planes-same") == 0;
    VkFramebuffer framebuffers[2];
    for (uint32_t i = 0; i < 2; ++i) {
        uint32_t plane = same ? 0 : i, size = plane == 0 ? 64 : 32;
        VkImageViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                           .image = frame,
                                           .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                           .format = plane_format,
                                           .subresourceRange = {VK_IMAGE_ASPECT_PLANE_0_BIT << plane, 0, 1, 0, 1}};
        VkImageViewUsageCreateInfo usage = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_USAGE_CREATE_INFO,
                                            .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT};
        view_info.pNext = &usage;
        VkImageView view;
        CHECK(vkCreateImageView(a->device, &view_info, NULL, &view));
        o->views[o->view_count++] = view;
        VkFramebufferCreateInfo fb = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                      .renderPass = pass,
                                      .attachmentCount = 1,
                                      .pAttachments = &view,
                                      .width = size,
                                      .height = size,
                                      .layers = 1};
        CHECK(vkCreateFramebuffer(a->device, &fb, NULL, &framebuffers[i]));
    }

    /* the frame made ready (every plane: aspect COLOR of a non-disjoint image), signaling 1 */
    VkSemaphore ready = new_semaphore(a, true);
    struct recording prepare = begin(a, "frame-prepare-cb");
    image_barrier(prepare.cb, frame, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                  VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                  VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
    CHECK(vkEndCommandBuffer(prepare.cb));
    submit_one(a->queue, prepare.cb, VK_NULL_HANDLE, ready, true, VK_NULL_HANDLE);
    const uint64_t one = 1;
    VkSemaphoreWaitInfo host_wait = {
        .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1, .pSemaphores = &ready, .pValues = &one};
    CHECK(vkWaitSemaphores(a->device, &host_wait, UINT64_MAX));

    struct recording passes[2] = {begin(a, "plane-pass-0"), begin(a, same ? "plane-pass-0-again" : "plane-pass-1")};
    VkPipelineStageFlags stage = submit_wait_stage;
    submit_wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    for (uint32_t i = 0; i < 2; ++i) {
        uint32_t size = same || i == 0 ? 64 : 32;
        VkRenderPassBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                            .renderPass = pass,
                                            .framebuffer = framebuffers[i],
                                            .renderArea = {{0, 0}, {size, size}}};
        vkCmdBeginRenderPass(passes[i].cb, &begin_info, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdEndRenderPass(passes[i].cb);
        CHECK(vkEndCommandBuffer(passes[i].cb));
        submit_one(a->queue, passes[i].cb, ready, VK_NULL_HANDLE, true, VK_NULL_HANDLE);
    }
    submit_wait_stage = stage;
    CHECK(vkQueueWaitIdle(a->queue));
    vkDestroySemaphore(a->device, ready, NULL);
    vkDestroyCommandPool(a->device, prepare.pool, NULL);
    for (uint32_t i = 0; i < 2; ++i) {
        vkDestroyCommandPool(a->device, passes[i].pool, NULL);
        vkDestroyFramebuffer(a->device, framebuffers[i], NULL);
    }
    vkDestroyRenderPass(a->device, pass, NULL);
}

/* hazard-texel-*: a dispatch writes a buffer through a storage texel buffer (texel_write.comp, an
 * r32ui view), then one reads it through a uniform texel buffer (texel_read.comp) and
 * one through a storage buffer (alias_copy.comp). -raw: no barrier, two reads after the write;
 * -fixed: SHADER_WRITE -> SHADER_READ between them (correct); -disjoint: the write's view is the
 * buffer's first 4096 bytes, the reads' the last 4096 (the uniform view's range VK_WHOLE_SIZE from
 * its offset), no barrier (correct). */
static void scenario_texel(struct objects *o, const char *name)
{
    bool fixed = strcmp(name, "hazard-texel-fixed") == 0, disjoint = strcmp(name, "hazard-texel-disjoint") == 0;
    VkBuffer texels = new_buffer(o, 8192,
                                 VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |
                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBuffer sampled = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBuffer copied = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    if (o->a->set_name) {
        VkDebugUtilsObjectNameInfoEXT n = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                           .objectType = VK_OBJECT_TYPE_BUFFER,
                                           .objectHandle = (uint64_t)texels,
                                           .pObjectName = "texels"};
        o->a->set_name(o->a->device, &n);
    }
    VkDeviceSize read_at = disjoint ? 4096 : 0;
    VkBufferViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                                        .buffer = texels,
                                        .format = VK_FORMAT_R32_UINT,
                                        .offset = 0,
                                        .range = 4096};
    VkBufferView write_view, read_view;
    CHECK(vkCreateBufferView(o->a->device, &view_info, NULL, &write_view));
    view_info.offset = read_at;
    view_info.range = disjoint ? VK_WHOLE_SIZE : 4096;
    CHECK(vkCreateBufferView(o->a->device, &view_info, NULL, &read_view));

    const VkDescriptorType write_types[] = {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER};
    VkDescriptorSetLayout write_layout = new_set_layout(o, write_types, 1);
    VkPipelineLayout write_pipeline_layout = new_pipeline_layout(o, &write_layout, 1);
    VkPipeline write_pipeline =
        new_compute(o, layer_test_spirv_texel_write, layer_test_spirv_texel_write_size, write_pipeline_layout);
    VkDescriptorSet write_set = new_set(o, write_layout);
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = write_set,
                                  .dstBinding = 0,
                                  .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
                                  .pTexelBufferView = &write_view};
    vkUpdateDescriptorSets(o->a->device, 1, &write, 0, NULL);

    const VkDescriptorType read_types[] = {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    VkDescriptorSetLayout read_layout = new_set_layout(o, read_types, 2);
    VkPipelineLayout read_pipeline_layout = new_pipeline_layout(o, &read_layout, 1);
    VkPipeline read_pipeline =
        new_compute(o, layer_test_spirv_texel_read, layer_test_spirv_texel_read_size, read_pipeline_layout);
    VkDescriptorSet read_set = new_set(o, read_layout);
    write = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                   .dstSet = read_set,
                                   .dstBinding = 0,
                                   .descriptorCount = 1,
                                   .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
                                   .pTexelBufferView = &read_view};
    vkUpdateDescriptorSets(o->a->device, 1, &write, 0, NULL);
    write_buffer(o, read_set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, sampled, 0, VK_WHOLE_SIZE);
    struct copy_setup copy = copy_setup(o, texels, read_at, copied);

    struct recording r = begin(o->a, "texel-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, write_pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, write_pipeline_layout, 0, 1, &write_set, 0, NULL);
    vkCmdDispatch(r.cb, 4096 / 4 / 64, 1, 1);
    if (fixed)
        buffer_barrier(r.cb, texels, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                       VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, read_pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, read_pipeline_layout, 0, 1, &read_set, 0, NULL);
    vkCmdDispatch(r.cb, 4096 / 4 / 64, 1, 1);
    copy_run(r.cb, &copy);
    finish(o->a, &r, fixed || disjoint);
    vkDestroyBufferView(o->a->device, read_view, NULL);
    vkDestroyBufferView(o->a->device, write_view, NULL);
}

bool scenarios_hazard(struct app *a, const char *name)
{
    struct objects o = {.a = a};
    bool known = true;
    if (strncmp(name, "hazard-passes-", 14) == 0) {
        scenario_partial_passes(&o, name);
    } else if (strncmp(name, "hazard-texel-", 13) == 0) {
        scenario_texel(&o, name);
    } else if (strncmp(name, "hazard-runtime-index", 20) == 0) {
        scenario_runtime_index(&o, name);
    } else if (strcmp(name, "hazard-transitions-ordered") == 0) {
        scenario_transitions_ordered(&o);
    } else if (strncmp(name, "hazard-3d-slices", 16) == 0) {
        scenario_3d_slices(&o, name);
    } else if (strncmp(name, "hazard-top-of-pipe-wait", 23) == 0) {
        scenario_top_of_pipe_wait(&o, name);
    } else if (strncmp(name, "hazard-sampled-after-pass", 25) == 0) {
        scenario_sampled_after_pass(&o, name);
    } else if (strncmp(name, "hazard-vertex-scope", 19) == 0) {
        scenario_vertex_scope(&o, name);
    } else if (strncmp(name, "hazard-load-without-read", 24) == 0) {
        scenario_load_without_read(&o, name);
    } else if (strncmp(name, "hazard-clear-blit", 17) == 0) {
        scenario_clear_blit(&o, name);
    } else if (strcmp(name, "hazard-planes") == 0 || strcmp(name, "hazard-planes-same") == 0) {
        scenario_planes(&o, name);
    } else if (strcmp(name, "hazard-timeline-reach") == 0) {
        scenario_timeline_reach(&o);
    } else if (strncmp(name, "swapchain-present-", 18) == 0) {
        scenario_swapchain(&o, name);
    } else if (strncmp(name, "hazard-", 7) == 0 &&
               strstr(" hazard-raw hazard-raw-fixed hazard-war hazard-war-execution-only hazard-waw hazard-insufficient"
                      " hazard-copy2 hazard-copy2-khr"
                      " hazard-disjoint hazard-waw-read-barrier hazard-waw-exec-barrier hazard-event hazard-event2"
                      " hazard-event2-raw hazard-sync2 hazard-steady-break hazard-steady-fill hazard-steady-fixed ",
                      name) != NULL) {
        scenario_hazard(&o, name);
    } else if (strcmp(name, "hazard-input-attachment") == 0 || strcmp(name, "hazard-input-attachment-raw") == 0) {
        scenario_input_attachment(&o, name);
    } else if (strcmp(name, "hazard-depth-passes") == 0 || strcmp(name, "hazard-depth-passes-waw") == 0) {
        scenario_depth_passes(&o, name);
    } else if (strcmp(name, "hazard-mipchain") == 0 || strcmp(name, "hazard-mipchain-raw") == 0) {
        scenario_mipchain(&o, name);
    } else if (strcmp(name, "hazard-image-raw") == 0 || strcmp(name, "hazard-image-fixed") == 0 ||
               strcmp(name, "hazard-readback-waw") == 0 || strcmp(name, "hazard-readback-disjoint") == 0 ||
               strcmp(name, "hazard-copy-image2") == 0 || strcmp(name, "hazard-transition-war") == 0 ||
               strcmp(name, "hazard-transition-fixed") == 0) {
        scenario_image_hazard(&o, name);
    } else if (strcmp(name, "hazard-renderpass-raw") == 0 || strcmp(name, "hazard-renderpass-fixed") == 0) {
        scenario_render_pass(&o, name);
    } else if (strcmp(name, "hazard-subpass-raw") == 0 || strcmp(name, "hazard-subpass-fixed") == 0) {
        scenario_subpass(&o, name);
    } else if (strcmp(name, "hazard-secondary-raw") == 0 || strcmp(name, "hazard-secondary-fixed") == 0) {
        scenario_secondary(&o, name);
    } else if (strcmp(name, "hazard-rendering-raw") == 0 || strcmp(name, "hazard-rendering-fixed") == 0 ||
               strcmp(name, "hazard-rendering-memory-access") == 0) {
        scenario_rendering(&o, name);
    } else if (strncmp(name, "hazard-submit-", 14) == 0 || strncmp(name, "hazard-cross-queue", 18) == 0) {
        scenario_submit(&o, name);
    } else {
        known = false;
    }
    destroy_objects(&o);
    return known;
}
