#include <string.h>
#include <unistd.h>

#include "layer_app_objects.h"
#include "layer_test_spirv.h"

void destroy_objects(struct objects *o)
{
    VkDevice d = o->a->device;
    vkDestroyFramebuffer(d, o->framebuffer, NULL);
    vkDestroyRenderPass(d, o->render_pass, NULL);
    for (uint32_t i = 0; i < o->pipeline_count; ++i)
        vkDestroyPipeline(d, o->pipelines[i], NULL);
    for (uint32_t i = 0; i < o->pipeline_layout_count; ++i)
        vkDestroyPipelineLayout(d, o->pipeline_layouts[i], NULL);
    for (uint32_t i = 0; i < o->module_count; ++i)
        vkDestroyShaderModule(d, o->modules[i], NULL);
    vkDestroyDescriptorPool(d, o->pool, NULL);
    for (uint32_t i = 0; i < o->set_layout_count; ++i)
        vkDestroyDescriptorSetLayout(d, o->set_layouts[i], NULL);
    vkDestroySampler(d, o->sampler, NULL);
    for (uint32_t i = 0; i < o->view_count; ++i)
        vkDestroyImageView(d, o->views[i], NULL);
    for (uint32_t i = 0; i < o->image_count; ++i)
        vkDestroyImage(d, o->images[i], NULL);
    for (uint32_t i = 0; i < o->buffer_count; ++i)
        vkDestroyBuffer(d, o->buffers[i], NULL);
    for (uint32_t i = 0; i < o->memory_count; ++i)
        vkFreeMemory(d, o->memories[i], NULL);
    for (uint32_t i = 0; i < o->owned_count; ++i)
        free_buffer(o->a, &o->owned[i]);
}

VkBuffer new_buffer(struct objects *o, VkDeviceSize size, VkBufferUsageFlags usage)
{
    o->owned[o->owned_count] = make_buffer(o->a, size, usage);
    return o->owned[o->owned_count++].buffer;
}

VkDescriptorSetLayout new_set_layout(struct objects *o, const VkDescriptorType *types, uint32_t count)
{
    VkDescriptorSetLayoutBinding bindings[4];
    for (uint32_t i = 0; i < count; ++i)
        bindings[i] = (VkDescriptorSetLayoutBinding){i, types[i], 1,
                                                     VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = count, .pBindings = bindings};
    VkDescriptorSetLayout layout;
    CHECK(vkCreateDescriptorSetLayout(o->a->device, &info, NULL, &layout));
    return o->set_layouts[o->set_layout_count++] = layout;
}

VkDescriptorSet new_set(struct objects *o, VkDescriptorSetLayout layout)
{
    if (o->pool == VK_NULL_HANDLE) {
        VkDescriptorPoolSize sizes[] = {
            {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16},      {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 16},
            {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 16},       {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16},
            {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 4}, {VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 4},
            {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 4}};
        VkDescriptorPoolCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                           .maxSets = 16,
                                           .poolSizeCount = 7,
                                           .pPoolSizes = sizes};
        CHECK(vkCreateDescriptorPool(o->a->device, &info, NULL, &o->pool));
    }
    VkDescriptorSetAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                         .descriptorPool = o->pool,
                                         .descriptorSetCount = 1,
                                         .pSetLayouts = &layout};
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(o->a->device, &alloc, &set));
    return set;
}

void write_buffer(struct objects *o, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, VkBuffer buffer,
                  VkDeviceSize offset, VkDeviceSize range)
{
    VkDescriptorBufferInfo info = {buffer, offset, range};
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = set,
                                  .dstBinding = binding,
                                  .descriptorCount = 1,
                                  .descriptorType = type,
                                  .pBufferInfo = &info};
    vkUpdateDescriptorSets(o->a->device, 1, &write, 0, NULL);
}

void write_image_in(struct objects *o, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, VkImageView view,
                    VkImageLayout layout)
{
    if (o->sampler == VK_NULL_HANDLE) {
        VkSamplerCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                    .magFilter = VK_FILTER_NEAREST,
                                    .minFilter = VK_FILTER_NEAREST,
                                    .maxLod = 1};
        CHECK(vkCreateSampler(o->a->device, &info, NULL, &o->sampler));
    }
    VkDescriptorImageInfo info = {o->sampler, view, layout};
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = set,
                                  .dstBinding = binding,
                                  .descriptorCount = 1,
                                  .descriptorType = type,
                                  .pImageInfo = &info};
    vkUpdateDescriptorSets(o->a->device, 1, &write, 0, NULL);
}

void write_image(struct objects *o, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, VkImageView view)
{
    write_image_in(o, set, binding, type, view, VK_IMAGE_LAYOUT_GENERAL);
}

VkShaderModule new_module(struct objects *o, const uint32_t *code, size_t size)
{
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = code};
    VkShaderModule module;
    CHECK(vkCreateShaderModule(o->a->device, &info, NULL, &module));
    return o->modules[o->module_count++] = module;
}

VkPipelineLayout new_pipeline_layout(struct objects *o, const VkDescriptorSetLayout *sets, uint32_t count)
{
    VkPipelineLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = count, .pSetLayouts = sets};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(o->a->device, &info, NULL, &layout));
    return o->pipeline_layouts[o->pipeline_layout_count++] = layout;
}

VkPipeline new_compute(struct objects *o, const uint32_t *code, size_t size, VkPipelineLayout layout)
{
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = new_module(o, code, size),
                  .pName = "main"},
        .layout = layout,
    };
    VkPipeline pipeline;
    CHECK(vkCreateComputePipelines(o->a->device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline));
    return o->pipelines[o->pipeline_count++] = pipeline;
}

/* A 64x64 image of `format` with `mips` levels, in device memory (destroyed with `o`). */
VkImage new_image_of(struct objects *o, VkFormat format, uint32_t mips, VkImageUsageFlags usage)
{
    VkImageCreateInfo info = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                              .imageType = VK_IMAGE_TYPE_2D,
                              .format = format,
                              .extent = {64, 64, 1},
                              .mipLevels = mips,
                              .arrayLayers = 1,
                              .samples = VK_SAMPLE_COUNT_1_BIT,
                              .tiling = VK_IMAGE_TILING_OPTIMAL,
                              .usage = usage,
                              .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    VkImage image;
    CHECK(vkCreateImage(o->a->device, &info, NULL, &image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(o->a->device, image, &req);
    VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  .allocationSize = req.size,
                                  .memoryTypeIndex = memory_type(o->a, req.memoryTypeBits, 0)};
    VkDeviceMemory memory;
    CHECK(vkAllocateMemory(o->a->device, &alloc, NULL, &memory));
    CHECK(vkBindImageMemory(o->a->device, image, memory, 0));
    o->memories[o->memory_count++] = memory;
    return o->images[o->image_count++] = image;
}

/* The same in R32_SFLOAT, the scenarios' color format. */
VkImage new_image(struct objects *o, uint32_t mips, VkImageUsageFlags usage)
{
    return new_image_of(o, VK_FORMAT_R32_SFLOAT, mips, usage);
}

VkImageView new_view(struct objects *o, VkImage image, uint32_t mip)
{
    VkImageViewCreateInfo info = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                  .image = image,
                                  .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                  .format = VK_FORMAT_R32_SFLOAT,
                                  .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, 0, 1}};
    VkImageView view;
    CHECK(vkCreateImageView(o->a->device, &info, NULL, &view));
    return o->views[o->view_count++] = view;
}

const VkDescriptorType copy_types[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};

/* alias_copy.comp reading src and writing dst, dispatched (or indirectly from `indirect`). */
void copy_dispatch(struct objects *o, const char *name, VkBuffer src, VkDeviceSize src_offset, VkBuffer dst,
                   VkDeviceSize dst_offset, VkDeviceSize range, VkBuffer indirect, bool submit)
{
    VkDescriptorSetLayout set_layout = new_set_layout(o, copy_types, 2);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    write_buffer(o, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, src, src_offset, range);
    write_buffer(o, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, dst, dst_offset, range);
    struct recording r = begin(o->a, name);
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    if (indirect != VK_NULL_HANDLE)
        vkCmdDispatchIndirect(r.cb, indirect, 0);
    else
        vkCmdDispatch(r.cb, (uint32_t)(range / 4 / 64), 1, 1);
    finish(o->a, &r, submit);
}

/* The scenario's render pass and a 64x64 framebuffer of `views` (one per attachment) for it (destroyed with `o`). */
void new_render_pass(struct objects *o, const VkRenderPassCreateInfo *info, const VkImageView *views)
{
    CHECK(vkCreateRenderPass(o->a->device, info, NULL, &o->render_pass));
    VkFramebufferCreateInfo fb_info = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                       .renderPass = o->render_pass,
                                       .attachmentCount = info->attachmentCount,
                                       .pAttachments = views,
                                       .width = 64,
                                       .height = 64,
                                       .layers = 1};
    CHECK(vkCreateFramebuffer(o->a->device, &fb_info, NULL, &o->framebuffer));
}

/* A graphics pipeline drawing a fullscreen triangle into one R32_SFLOAT color attachment of
 * `subpass`, with fragment shader `frag`. */
VkPipeline new_fullscreen_pipeline(struct objects *o, VkPipelineLayout layout, VkRenderPass render_pass,
                                   uint32_t subpass, const uint32_t *frag, size_t frag_size)
{
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = new_module(o, layer_test_spirv_fullscreen, layer_test_spirv_fullscreen_size),
         .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = new_module(o, frag, frag_size),
         .pName = "main"},
    };
    VkPipelineVertexInputStateCreateInfo vertex = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo assembly = {.sType =
                                                           VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                       .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST};
    VkViewport viewport = {0, 0, 64, 64, 0, 1};
    VkRect2D scissor = {{0, 0}, {64, 64}};
    VkPipelineViewportStateCreateInfo viewport_state = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                                        .viewportCount = 1,
                                                        .pViewports = &viewport,
                                                        .scissorCount = 1,
                                                        .pScissors = &scissor};
    VkPipelineRasterizationStateCreateInfo raster = {.sType =
                                                         VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                     .polygonMode = VK_POLYGON_MODE_FILL,
                                                     .cullMode = VK_CULL_MODE_NONE,
                                                     .lineWidth = 1};
    VkPipelineMultisampleStateCreateInfo multisample = {.sType =
                                                            VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                                        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkPipelineColorBlendAttachmentState blend_attachment = {.colorWriteMask = VK_COLOR_COMPONENT_R_BIT};
    VkPipelineColorBlendStateCreateInfo blend = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                                 .attachmentCount = 1,
                                                 .pAttachments = &blend_attachment};
    VkGraphicsPipelineCreateInfo info = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                         .stageCount = 2,
                                         .pStages = stages,
                                         .pVertexInputState = &vertex,
                                         .pInputAssemblyState = &assembly,
                                         .pViewportState = &viewport_state,
                                         .pRasterizationState = &raster,
                                         .pMultisampleState = &multisample,
                                         .pColorBlendState = &blend,
                                         .layout = layout,
                                         .renderPass = render_pass,
                                         .subpass = subpass};
    VkPipeline pipeline;
    CHECK(vkCreateGraphicsPipelines(o->a->device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline));
    o->pipelines[o->pipeline_count++] = pipeline;
    return pipeline;
}

struct copy_setup copy_setup(struct objects *o, VkBuffer src, VkDeviceSize src_offset, VkBuffer dst)
{
    struct copy_setup c;
    VkDescriptorSetLayout set_layout = new_set_layout(o, copy_types, 2);
    c.layout = new_pipeline_layout(o, &set_layout, 1);
    c.pipeline = new_compute(o, layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size, c.layout);
    c.set = new_set(o, set_layout);
    write_buffer(o, c.set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, src, src_offset, 4096);
    write_buffer(o, c.set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, dst, 0, 4096);
    return c;
}

void copy_run(VkCommandBuffer cb, const struct copy_setup *c)
{
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
    vkCmdDispatch(cb, 4096 / 4 / 64, 1, 1);
}

void buffer_barrier(VkCommandBuffer cb, VkBuffer buffer, VkPipelineStageFlags src, VkAccessFlags src_access,
                    VkPipelineStageFlags dst, VkAccessFlags dst_access)
{
    VkBufferMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                               .srcAccessMask = src_access,
                               .dstAccessMask = dst_access,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .buffer = buffer,
                               .offset = 0,
                               .size = VK_WHOLE_SIZE};
    vkCmdPipelineBarrier(cb, src, dst, 0, 0, NULL, 1, &b, 0, NULL);
}

void image_barrier(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags src,
                   VkAccessFlags src_access, VkPipelineStageFlags dst, VkAccessFlags dst_access)
{
    VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                              .srcAccessMask = src_access,
                              .dstAccessMask = dst_access,
                              .oldLayout = from,
                              .newLayout = to,
                              .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .image = image,
                              .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier(cb, src, dst, 0, 0, NULL, 0, NULL, 1, &b);
}

void level_barrier(VkCommandBuffer cb, VkImage image, uint32_t level, VkImageLayout from, VkImageLayout to,
                   VkAccessFlags src_access, VkPipelineStageFlags dst, VkAccessFlags dst_access)
{
    VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                              .srcAccessMask = src_access,
                              .dstAccessMask = dst_access,
                              .oldLayout = from,
                              .newLayout = to,
                              .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .image = image,
                              .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, level, 1, 0, 1}};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, dst, 0, 0, NULL, 0, NULL, 1, &b);
}

VkFence new_fence(struct app *a)
{
    VkFenceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    CHECK(vkCreateFence(a->device, &info, NULL, &fence));
    return fence;
}

VkSemaphore new_semaphore(struct app *a, bool timeline)
{
    VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = timeline ? &type : NULL};
    VkSemaphore s;
    CHECK(vkCreateSemaphore(a->device, &info, NULL, &s));
    return s;
}

/* the stage semaphore waits of submit_one wait at: compute, where the scenarios read */
VkPipelineStageFlags submit_wait_stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;

/* One batch: optional wait (at compute) and signal, timeline values when `values`. */
void submit_one(VkQueue queue, VkCommandBuffer cb, VkSemaphore wait, VkSemaphore signal, bool values, VkFence fence)
{
    const uint64_t one = 1;
    const VkPipelineStageFlags stage = submit_wait_stage;
    VkTimelineSemaphoreSubmitInfo timeline = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                              .waitSemaphoreValueCount = wait ? 1 : 0,
                                              .pWaitSemaphoreValues = &one,
                                              .signalSemaphoreValueCount = signal ? 1 : 0,
                                              .pSignalSemaphoreValues = &one};
    VkSubmitInfo info = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .pNext = values ? &timeline : NULL,
                         .waitSemaphoreCount = wait ? 1 : 0,
                         .pWaitSemaphores = &wait,
                         .pWaitDstStageMask = &stage,
                         .commandBufferCount = 1,
                         .pCommandBuffers = &cb,
                         .signalSemaphoreCount = signal ? 1 : 0,
                         .pSignalSemaphores = &signal};
    CHECK(vkQueueSubmit(queue, 1, &info, fence));
}

long resident_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f != NULL && fgets(line, sizeof(line), f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1)
            break;
    if (f != NULL)
        fclose(f);
    return kb;
}

/* A render pass with one R32_SFLOAT color attachment `view` and optional dependencies, with its
 * framebuffer, for scenarios that need two passes (the caller destroys both). */
void pass_with(struct objects *o, VkImageView view, VkAttachmentLoadOp load, VkImageLayout initial_layout,
               VkImageLayout final_layout, const VkSubpassDependency *dependency, VkRenderPass *pass,
               VkFramebuffer *framebuffer)
{
    VkAttachmentDescription color = {.format = VK_FORMAT_R32_SFLOAT,
                                     .samples = VK_SAMPLE_COUNT_1_BIT,
                                     .loadOp = load,
                                     .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                     .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                     .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                     .initialLayout = initial_layout,
                                     .finalLayout = final_layout};
    VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1, .pColorAttachments = &ref};
    VkRenderPassCreateInfo info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                   .attachmentCount = 1,
                                   .pAttachments = &color,
                                   .subpassCount = 1,
                                   .pSubpasses = &subpass,
                                   .dependencyCount = dependency ? 1 : 0,
                                   .pDependencies = dependency};
    CHECK(vkCreateRenderPass(o->a->device, &info, NULL, pass));
    VkFramebufferCreateInfo fb = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
                                  .renderPass = *pass,
                                  .attachmentCount = 1,
                                  .pAttachments = &view,
                                  .width = 64,
                                  .height = 64,
                                  .layers = 1};
    CHECK(vkCreateFramebuffer(o->a->device, &fb, NULL, framebuffer));
}

void second_pass(struct objects *o, VkImageView view, VkImageLayout final_layout, const VkSubpassDependency *dependency,
                 VkRenderPass *pass, VkFramebuffer *framebuffer)
{
    pass_with(o, view, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_IMAGE_LAYOUT_UNDEFINED, final_layout, dependency, pass,
              framebuffer);
}

void run_pass(VkCommandBuffer cb, VkRenderPass pass, VkFramebuffer framebuffer, VkPipeline pipeline,
              VkPipelineLayout layout, VkDescriptorSet set)
{
    VkClearValue clear = {.color = {{0, 0, 0, 0}}};
    VkRenderPassBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                        .renderPass = pass,
                                        .framebuffer = framebuffer,
                                        .renderArea = {{0, 0}, {64, 64}},
                                        .clearValueCount = 1,
                                        .pClearValues = &clear};
    vkCmdBeginRenderPass(cb, &begin_info, VK_SUBPASS_CONTENTS_INLINE);
    if (pipeline != VK_NULL_HANDLE) {
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
        vkCmdDraw(cb, 3, 1, 0, 0);
    }
    vkCmdEndRenderPass(cb);
}
