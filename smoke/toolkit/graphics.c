#include "graphics.h"

#include <string.h>

/* vkCmdBeginRendering is core in 1.3 and VK_KHR_dynamic_rendering before: take what is loaded. */
static PFN_vkCmdBeginRendering begin_rendering_function(void)
{
    return vkCmdBeginRendering ? vkCmdBeginRendering : vkCmdBeginRenderingKHR;
}

static PFN_vkCmdEndRendering end_rendering_function(void)
{
    return vkCmdEndRendering ? vkCmdEndRendering : vkCmdEndRenderingKHR;
}

bool graphics_target_create(struct gpu *gpu, struct graphics_target *t, VkFormat format, uint32_t width,
                            uint32_t height, uint32_t texel_size)
{
    memset(t, 0, sizeof(*t));
    t->width = width;
    t->height = height;
    t->texel_size = texel_size;
    t->image = gpu_image_create(gpu, format, width, height,
                                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    t->readback = gpu_buffer_create(gpu, (VkDeviceSize)width * height * texel_size, 0xEE);
    return t->image != NULL && t->readback != NULL;
}

struct gpu_pipeline *graphics_pipeline_create(struct gpu *gpu, const struct graphics_pipeline_desc *desc)
{
    VkShaderStageFlags all_stages = 0;
    for (uint32_t i = 0; i < desc->stage_count; ++i)
        all_stages |= desc->stages[i];
    struct gpu_pipeline *p = gpu_pipeline_new(gpu, desc->bindings, desc->binding_count, all_stages, 0);
    VkPipelineShaderStageCreateInfo stages[3];
    for (uint32_t i = 0; i < desc->stage_count; ++i) {
        stages[i] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = desc->stages[i],
            .module = gpu_pipeline_add_module(gpu, p, desc->stage_code[i], desc->stage_size[i]),
            .pName = "main",
        };
    }
    if (gpu_failed(gpu))
        return NULL;
    bool mesh = (all_stages & VK_SHADER_STAGE_MESH_BIT_EXT) != 0;
    VkPipelineVertexInputStateCreateInfo vertex_input = {.sType =
                                                             VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo input_assembly = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    };
    VkPipelineViewportStateCreateInfo viewport = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .scissorCount = 1,
    };
    VkPipelineRasterizationStateCreateInfo raster = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f,
    };
    VkPipelineMultisampleStateCreateInfo multisample = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
    };
    VkPipelineColorBlendAttachmentState blend_attachment = {.colorWriteMask = 0xF};
    VkPipelineColorBlendStateCreateInfo blend = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = 1,
        .pAttachments = &blend_attachment,
    };
    VkDynamicState dynamic_states[3] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR, desc->extra_dynamic_state};
    VkPipelineDynamicStateCreateInfo dynamic = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
        .dynamicStateCount = desc->extra_dynamic_state ? 3 : 2,
        .pDynamicStates = dynamic_states,
    };
    VkPipelineRenderingCreateInfo rendering = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .pNext = desc->create_next,
        .colorAttachmentCount = 1,
        .pColorAttachmentFormats = &desc->color_format,
    };
    VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &rendering,
        .flags = desc->flags,
        .stageCount = desc->stage_count,
        .pStages = stages,
        .pVertexInputState = mesh ? NULL : &vertex_input,
        .pInputAssemblyState = mesh ? NULL : &input_assembly,
        .pViewportState = &viewport,
        .pRasterizationState = &raster,
        .pMultisampleState = &multisample,
        .pColorBlendState = &blend,
        .pDynamicState = &dynamic,
        .layout = p->layout,
    };
    if (!GPU_CHECK(gpu, vkCreateGraphicsPipelines(gpu->device, VK_NULL_HANDLE, 1, &info, NULL, &p->pipeline)))
        return NULL;
    return p;
}

void graphics_begin(struct gpu *gpu, struct graphics_target *t, VkClearColorValue clear, const void *rendering_next,
                    const struct gpu_pipeline *p)
{
    if (gpu_failed(gpu) || p == NULL)
        return;
    /* after the transfer stage: a scope recorded again (timed samples) must not discard the
     * image while the previous scope's copy to the host still reads it */
    gpu_image_layout(gpu, t->image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                     VK_PIPELINE_STAGE_TRANSFER_BIT, 0, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                     VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
    VkRenderingAttachmentInfo color = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = t->image->view,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .clearValue = {.color = clear},
    };
    VkRenderingInfo rendering = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .pNext = rendering_next,
        .renderArea = {{0, 0}, {t->width, t->height}},
        .layerCount = 1,
        .colorAttachmentCount = 1,
        .pColorAttachments = &color,
    };
    begin_rendering_function()(gpu->cmd, &rendering);
    vkCmdBindPipeline(gpu->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p->pipeline);
    if (p->set != VK_NULL_HANDLE)
        vkCmdBindDescriptorSets(gpu->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p->layout, 0, 1, &p->set, 0, NULL);
    VkViewport viewport = {0, 0, (float)t->width, (float)t->height, 0, 1};
    VkRect2D scissor = {{0, 0}, {t->width, t->height}};
    vkCmdSetViewport(gpu->cmd, 0, 1, &viewport);
    vkCmdSetScissor(gpu->cmd, 0, 1, &scissor);
}

void graphics_end(struct gpu *gpu, struct graphics_target *t)
{
    if (gpu_failed(gpu))
        return;
    end_rendering_function()(gpu->cmd);
    gpu_image_layout(gpu, t->image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                     VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                     VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferImageCopy region = {
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .imageExtent = {t->width, t->height, 1},
    };
    vkCmdCopyImageToBuffer(gpu->cmd, t->image->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, t->readback->buffer, 1,
                           &region);
}

void graphics_between_scopes(struct gpu *gpu)
{
    gpu_memory_barrier(gpu, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
}
