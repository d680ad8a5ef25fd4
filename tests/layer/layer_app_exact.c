/* layer_app's exactness scenarios: the hazard check judged on the memory each operation may really
 * access, as the spec's sentences on that memory say, each bug beside its correct twin.
 *   exact-tensor-apart: ggml's graph in small: a dispatch writes the first tensor of a buffer bound
 *     from the tensor to the buffer's end, the next one reads the following tensor, no barrier:
 *     the shader reaches only its tensor's bytes (silent).
 *   exact-tensor-raw: the next dispatch reads the tensor just written: read-after-write naming the
 *     evaluated bytes.
 *   exact-slices: two dispatches write the slices their push constants select of one buffer bound
 *     whole (MUL_MAT_ID's experts), no barrier (silent); exact-slices-overlap: the slices overlap
 *     by half: write-after-write.
 *   exact-tiles: two dispatches write the tiles of their products into one buffer bound whole,
 *     each tile's elements reached through two loops (their counters stored twice, as glslang
 *     keeps them), no barrier (silent); exact-tiles-overlap: the second product's tiles start half
 *     way into the first's: write-after-write on the overlap.
 *   exact-copy-rects: two buffer-to-image copies into disjoint rectangles of one mip level (GTK 4's
 *     atlas uploads), no barrier (silent); exact-copy-rects-overlap: the rectangles overlap:
 *     write-after-write naming both regions.
 *   exact-mips-transition: a clear of every mip, a barrier over all mips moving them to
 *     COLOR_ATTACHMENT_OPTIMAL (its second scope the color attachment stage), a render pass
 *     loading mip 0 through a view of that level (silent); exact-mips-transition-unordered: the
 *     barrier's second scope is the fragment shader: the pass's load operation is not ordered
 *     after the layout transition, a write (read-after-write).
 *   exact-mips-partial: a clear of every mip, a barrier over mip 0 only, a copy reads mip 1:
 *     the barrier orders nothing of mip 1 (read-after-write); exact-mips-partial-fixed: the
 *     barrier covers every mip (silent). */
#include <string.h>

#include "layer_app_objects.h"
#include "layer_test_spirv.h"

struct tensor_params {
    uint32_t count, dst_first;
};

/* tensor_op.comp with `src` and `dst` bound from their offsets to their buffers' ends, dispatched
 * over `count` elements writing from element `dst_first`. */
static void tensor_dispatch(struct objects *o, VkCommandBuffer cb, VkPipeline pipeline, VkPipelineLayout layout,
                            VkDescriptorSetLayout set_layout, VkBuffer src, VkDeviceSize src_offset, VkBuffer dst,
                            VkDeviceSize dst_offset, struct tensor_params params)
{
    VkDescriptorSet set = new_set(o, set_layout);
    write_buffer(o, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, src, src_offset, VK_WHOLE_SIZE);
    write_buffer(o, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, dst, dst_offset, VK_WHOLE_SIZE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(params), &params);
    vkCmdDispatch(cb, (params.count + 63) / 64, 1, 1);
}

/* The pipeline layout of tensor_op.comp and tile_op.comp: two storage buffers, struct tensor_params pushed. */
static VkPipelineLayout tensor_layout(struct objects *o, VkDescriptorSetLayout set_layout)
{
    VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(struct tensor_params)};
    VkPipelineLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                              .setLayoutCount = 1,
                                              .pSetLayouts = &set_layout,
                                              .pushConstantRangeCount = 1,
                                              .pPushConstantRanges = &push};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(o->a->device, &layout_info, NULL, &layout));
    o->pipeline_layouts[o->pipeline_layout_count++] = layout;
    return layout;
}

static void scenario_tensors(struct objects *o, const char *name)
{
    VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer input = new_buffer(o, 4096, usage), graph = new_buffer(o, 8192, usage),
             output = new_buffer(o, 4096, usage);
    VkDescriptorSetLayout set_layout = new_set_layout(o, copy_types, 2);
    VkPipelineLayout layout = tensor_layout(o, set_layout);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_tensor_op, layer_test_spirv_tensor_op_size, layout);
    struct recording r = begin(o->a, "graph-cb");
    bool bug = strcmp(name, "exact-tensor-raw") == 0 || strcmp(name, "exact-slices-overlap") == 0;
    if (strncmp(name, "exact-tensor-", 13) == 0) {
        /* node 1 writes graph's tensor at [0, 1024) (256 floats), bound from 0 to the end */
        tensor_dispatch(o, r.cb, pipeline, layout, set_layout, input, 0, graph, 0, (struct tensor_params){256, 0});
        /* node 2 reads the following tensor at [1024, 2048), or (the bug) the one node 1 wrote */
        tensor_dispatch(o, r.cb, pipeline, layout, set_layout, graph, bug ? 0 : 1024, output, 0,
                        (struct tensor_params){256, 0});
    } else {
        /* two experts write slices of graph bound whole: [0, 1024) and [1024, 2048), or [512, 1536) */
        tensor_dispatch(o, r.cb, pipeline, layout, set_layout, input, 0, graph, 0, (struct tensor_params){256, 0});
        tensor_dispatch(o, r.cb, pipeline, layout, set_layout, input, 0, graph, 0,
                        (struct tensor_params){256, bug ? 128 : 256});
    }
    finish(o->a, &r, !bug);
}

/* Two products of 16 tiles each (256 floats) written by tile_op.comp into one buffer bound whole:
 * [0, 1024) and [1024, 2048), or (the bug) [512, 1536). */
static void scenario_tiles(struct objects *o, const char *name)
{
    bool overlap = strstr(name, "overlap") != NULL;
    VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    VkBuffer input = new_buffer(o, 4096, usage), graph = new_buffer(o, 8192, usage);
    VkDescriptorSetLayout set_layout = new_set_layout(o, copy_types, 2);
    VkPipelineLayout layout = tensor_layout(o, set_layout);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_tile_op, layer_test_spirv_tile_op_size, layout);
    struct recording r = begin(o->a, "tiles-cb");
    uint32_t firsts[2] = {0, overlap ? 128 : 256};
    for (int product = 0; product < 2; ++product) {
        VkDescriptorSet set = new_set(o, set_layout);
        write_buffer(o, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, input, 0, VK_WHOLE_SIZE);
        write_buffer(o, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, graph, 0, VK_WHOLE_SIZE);
        struct tensor_params params = {256, firsts[product]};
        vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
        vkCmdPushConstants(r.cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(params), &params);
        vkCmdDispatch(r.cb, 256 / 16, 1, 1);
    }
    finish(o->a, &r, !overlap);
}

/* A 64x64 staging buffer's rows into two rectangles of mip 0 of a 64x64 image. */
static void scenario_copy_rects(struct objects *o, const char *name)
{
    bool overlap = strstr(name, "overlap") != NULL;
    VkImage image = new_image(o, 1, VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    VkBuffer staging = new_buffer(o, 64 * 64 * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    struct recording r = begin(o->a, "atlas-upload-cb");
    image_barrier(r.cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                  VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    /* a glyph at x 0..31, then one at x 32..63 (or x 16..47, overlapping) */
    VkBufferImageCopy glyphs[2] = {
        {.bufferOffset = 0,
         .bufferRowLength = 64,
         .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
         .imageOffset = {0, 0, 0},
         .imageExtent = {32, 64, 1}},
        {.bufferOffset = 128,
         .bufferRowLength = 64,
         .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
         .imageOffset = {overlap ? 16 : 32, 0, 0},
         .imageExtent = {32, 64, 1}},
    };
    for (int i = 0; i < 2; ++i)
        vkCmdCopyBufferToImage(r.cb, staging, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &glyphs[i]);
    finish(o->a, &r, !overlap);
}

/* A barrier over every level (or some) of a 4-level image after a clear of every level. */
static void mips_barrier(VkCommandBuffer cb, VkImage image, uint32_t levels, VkImageLayout from, VkImageLayout to,
                         VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
    VkImageMemoryBarrier barrier = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                    .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                    .dstAccessMask = dst_access,
                                    .oldLayout = from,
                                    .newLayout = to,
                                    .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                    .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                    .image = image,
                                    .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1}};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, dst_stage, 0, 0, NULL, 0, NULL, 1, &barrier);
}

static void scenario_mips(struct objects *o, const char *name)
{
    VkImage image = new_image(o, 4,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                  VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    struct recording r = begin(o->a, "mips-cb");
    image_barrier(r.cb, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                  VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkClearColorValue zero = {{0}};
    VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 0, 1};
    vkCmdClearColorImage(r.cb, image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &all);
    bool bug = strstr(name, "unordered") != NULL || strcmp(name, "exact-mips-partial") == 0;
    if (strncmp(name, "exact-mips-transition", 21) == 0) {
        VkImageView view = new_view(o, image, 0);
        VkRenderPass pass;
        VkFramebuffer framebuffer;
        pass_with(o, view, VK_ATTACHMENT_LOAD_OP_LOAD, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                  VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, NULL, &pass, &framebuffer);
        if (bug)
            mips_barrier(r.cb, image, VK_REMAINING_MIP_LEVELS, VK_IMAGE_LAYOUT_GENERAL,
                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                         VK_ACCESS_SHADER_READ_BIT);
        else
            mips_barrier(r.cb, image, VK_REMAINING_MIP_LEVELS, VK_IMAGE_LAYOUT_GENERAL,
                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                         VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
        VkRenderPassBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                            .renderPass = pass,
                                            .framebuffer = framebuffer,
                                            .renderArea = {{0, 0}, {64, 64}}};
        vkCmdBeginRenderPass(r.cb, &begin_info, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdEndRenderPass(r.cb);
        finish(o->a, &r, !bug);
        vkDestroyFramebuffer(o->a->device, framebuffer, NULL);
        vkDestroyRenderPass(o->a->device, pass, NULL);
        return;
    }
    /* exact-mips-partial(-fixed): the clear made available and visible to transfer reads of mip 0
     * only (or of every level), then a copy reads mip 1 */
    mips_barrier(r.cb, image, bug ? 1 : VK_REMAINING_MIP_LEVELS, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    VkBuffer readback = new_buffer(o, 32 * 32 * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkBufferImageCopy level1 = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1}, .imageExtent = {32, 32, 1}};
    vkCmdCopyImageToBuffer(r.cb, image, VK_IMAGE_LAYOUT_GENERAL, readback, 1, &level1);
    VkMemoryBarrier to_host = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_TRANSFER_WRITE_BIT,
                               VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(r.cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, NULL, 0,
                         NULL);
    finish(o->a, &r, !bug);
}

bool scenarios_exact(struct app *a, const char *name)
{
    struct objects o = {.a = a};
    bool known = true;
    if (strcmp(name, "exact-tensor-apart") == 0 || strcmp(name, "exact-tensor-raw") == 0 ||
        strcmp(name, "exact-slices") == 0 || strcmp(name, "exact-slices-overlap") == 0)
        scenario_tensors(&o, name);
    else if (strcmp(name, "exact-tiles") == 0 || strcmp(name, "exact-tiles-overlap") == 0)
        scenario_tiles(&o, name);
    else if (strcmp(name, "exact-copy-rects") == 0 || strcmp(name, "exact-copy-rects-overlap") == 0)
        scenario_copy_rects(&o, name);
    else if (strcmp(name, "exact-mips-transition") == 0 || strcmp(name, "exact-mips-transition-unordered") == 0 ||
             strcmp(name, "exact-mips-partial") == 0 || strcmp(name, "exact-mips-partial-fixed") == 0)
        scenario_mips(&o, name);
    else
        known = false;
    destroy_objects(&o);
    return known;
}
