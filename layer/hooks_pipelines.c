/* Shader modules, pipeline layouts and pipelines. A compute pipeline is reflected once, at
 * creation, with its specialization constants applied; the limit checks run then. */
#include <stdlib.h>
#include <string.h>

#include "layer_hooks.h"
#include "state_device.h"
#include "state_pipelines.h"
#include "validate.h"

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo *info,
                                                                const VkAllocationCallbacks *allocator,
                                                                VkShaderModule *module)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateShaderModule(device, info, allocator, module);
    if (result != VK_SUCCESS)
        return result;
    validate_shader_module(ld, *module, info->pCode, info->codeSize, "vkCreateShaderModule");
    struct shader_module_state *m = calloc(1, sizeof(*m));
    if (m != NULL && (m->code = malloc(info->codeSize ? info->codeSize : 1)) != NULL) {
        if (info->pCode != NULL && info->codeSize != 0)
            memcpy(m->code, info->pCode, info->codeSize);
        m->size = info->codeSize;
        hook_object_created(ld, OBJECT_KIND_shader_module, HANDLE(*module), m);
    } else {
        free(m);
    }
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyShaderModule(VkDevice device, VkShaderModule module,
                                                             const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_shader_module, HANDLE(module), "vkDestroyShaderModule");
    ld->dispatch.DestroyShaderModule(device, module, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreatePipelineLayout(VkDevice device,
                                                                  const VkPipelineLayoutCreateInfo *info,
                                                                  const VkAllocationCallbacks *allocator,
                                                                  VkPipelineLayout *layout)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreatePipelineLayout(device, info, allocator, layout);
    if (result != VK_SUCCESS)
        return result;
    struct pipeline_layout_state *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return result;
    s->refs = 1;
    s->set_count = info->setLayoutCount < MAX_BOUND_SETS ? info->setLayoutCount : MAX_BOUND_SETS;
    for (uint32_t i = 0; i < s->set_count; ++i) {
        s->sets[i] = set_layout_state_in(ld, HANDLE(info->pSetLayouts[i]));
        if (s->sets[i])
            STATE_RETAIN(s->sets[i]);
    }
    hook_object_created(ld, OBJECT_KIND_pipeline_layout, HANDLE(*layout), s);
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyPipelineLayout(VkDevice device, VkPipelineLayout layout,
                                                               const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_pipeline_layout, HANDLE(layout), "vkDestroyPipelineLayout");
    ld->dispatch.DestroyPipelineLayout(device, layout, allocator);
}

/* The module's code: a VkShaderModule, or a VkShaderModuleCreateInfo chained into the stage. */
static const struct shader_module_state *stage_code(struct layer_device *ld,
                                                    const VkPipelineShaderStageCreateInfo *stage,
                                                    struct shader_module_state *inline_code)
{
    if (stage->module != VK_NULL_HANDLE)
        return shader_module_state_in(ld, HANDLE(stage->module));
    for (const VkBaseInStructure *s = stage->pNext; s != NULL; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO) {
            const VkShaderModuleCreateInfo *info = (const VkShaderModuleCreateInfo *)s;
            inline_code->code = (uint32_t *)info->pCode;
            inline_code->size = info->codeSize;
            return inline_code;
        }
    }
    return NULL;
}

static size_t specialization(const VkSpecializationInfo *info, struct reflect_specialization *out, size_t capacity)
{
    size_t n = 0;
    for (uint32_t i = 0; info != NULL && i < info->mapEntryCount && n < capacity; ++i) {
        const VkSpecializationMapEntry *e = &info->pMapEntries[i];
        if (e->offset + e->size > info->dataSize || e->size > 8)
            continue; /* invalid usage: ignore the entry rather than read past the data */
        uint64_t value = 0;
        memcpy(&value, (const char *)info->pData + e->offset, e->size);
        out[n++] = (struct reflect_specialization){e->constantID, value, (uint32_t)e->size};
    }
    return n;
}

static struct pipeline_state *new_pipeline(struct layer_device *ld, VkPipeline handle, VkPipelineBindPoint bind_point,
                                           VkPipelineLayout layout)
{
    struct pipeline_state *p = calloc(1, sizeof(*p));
    if (p == NULL)
        return NULL;
    static uint64_t next_id;
    p->refs = 1;
    p->id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
    p->handle = handle;
    p->bind_point = bind_point;
    p->layout = pipeline_layout_state_in(ld, HANDLE(layout));
    if (p->layout)
        STATE_RETAIN(p->layout);
    return p;
}

/* The subgroups a compute stage runs with: the device's sizes, or the one its
 * VkPipelineShaderStageRequiredSubgroupSizeCreateInfo requires; full when the stage requires full
 * subgroups, or when the module is SPIR-V 1.6 or later and its local size X is a multiple of the
 * subgroup size (the spec's rule; with sizes that vary, of the largest: sizes are powers of two). */
static void note_stage_subgroups(const struct layer_device *ld, const VkPipelineShaderStageCreateInfo *stage,
                                 const struct shader_module_state *code, struct pipeline_state *p)
{
    struct reflect_result *r = &p->shader;
    r->subgroup_min = ld->subgroup_min;
    r->subgroup_max = ld->subgroup_max;
    for (const VkBaseInStructure *s = stage->pNext; s != NULL; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO) {
            uint32_t size = ((const VkPipelineShaderStageRequiredSubgroupSizeCreateInfo *)s)->requiredSubgroupSize;
            if (size != 0)
                r->subgroup_min = r->subgroup_max = size;
        }
    bool spirv_1_6 =
        code != NULL && code->size >= 8 && ((code->code[1] >> 16) & 0xFF) == 1 && ((code->code[1] >> 8) & 0xFF) >= 6;
    r->full_subgroups =
        (stage->flags & VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT) != 0 ||
        (spirv_1_6 && r->has_local_size && r->subgroup_max != 0 && r->local_size[0] % r->subgroup_max == 0);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateComputePipelines(VkDevice device, VkPipelineCache cache,
                                                                    uint32_t count,
                                                                    const VkComputePipelineCreateInfo *infos,
                                                                    const VkAllocationCallbacks *allocator,
                                                                    VkPipeline *pipelines)
{
    struct layer_device *ld = layer_device_of(device);
    /* Reflect and check before the driver sees the shader: one that breaks a limit may crash it. */
    struct pipeline_state **states = calloc(count ? count : 1, sizeof(*states));
    for (uint32_t i = 0; states != NULL && i < count; ++i) {
        states[i] = new_pipeline(ld, VK_NULL_HANDLE, VK_PIPELINE_BIND_POINT_COMPUTE, infos[i].layout);
        if (states[i] == NULL)
            continue;
        struct shader_module_state inline_code = {0};
        const struct shader_module_state *code = stage_code(ld, &infos[i].stage, &inline_code);
        if (code != NULL) {
            struct reflect_specialization spec[64];
            size_t spec_count = specialization(infos[i].stage.pSpecializationInfo, spec, 64);
            reflect_module(code->code, code->size, infos[i].stage.pName, spec, spec_count, &states[i]->shader);
            states[i]->reflected = states[i]->shader.ok;
            note_stage_subgroups(ld, &infos[i].stage, code, states[i]);
            validate_pipeline_stage(ld, infos[i].stage.module, infos[i].stage.pName, infos[i].stage.stage,
                                    &states[i]->shader, "vkCreateComputePipelines");
        }
        validate_pipeline(ld, states[i], infos[i].stage.module, "vkCreateComputePipelines");
    }
    VkResult result = ld->dispatch.CreateComputePipelines(device, cache, count, infos, allocator, pipelines);
    for (uint32_t i = 0; states != NULL && i < count; ++i) {
        if (states[i] == NULL)
            continue;
        if (pipelines[i] == VK_NULL_HANDLE) { /* creation failed for this one (or VK_PIPELINE_COMPILE_REQUIRED) */
            pipeline_release(states[i]);
            continue;
        }
        states[i]->handle = pipelines[i];
        hook_object_created(ld, OBJECT_KIND_pipeline, HANDLE(pipelines[i]), states[i]);
    }
    free(states);
    return result;
}

/* Whether the pipeline renders to a depth/stencil attachment: otherwise the spec ignores
 * pDepthStencilState, which need not then be a valid pointer. */
static bool has_depth_stencil(struct layer_device *ld, const VkGraphicsPipelineCreateInfo *info)
{
    if (info->renderPass == VK_NULL_HANDLE) {
        for (const VkBaseInStructure *s = info->pNext; s != NULL; s = s->pNext)
            if (s->sType == VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO) {
                const VkPipelineRenderingCreateInfo *r = (const VkPipelineRenderingCreateInfo *)s;
                return r->depthAttachmentFormat != VK_FORMAT_UNDEFINED ||
                       r->stencilAttachmentFormat != VK_FORMAT_UNDEFINED;
            }
        return false;
    }
    const struct render_pass_state *r = render_pass_state_in(ld, HANDLE(info->renderPass));
    if (r == NULL || info->subpass >= r->subpass_count)
        return false;
    const struct subpass_attachments *sp = &r->subpasses[info->subpass];
    for (uint32_t i = 0; i < sp->count; ++i)
        if (sp->depth[i])
            return true;
    return false;
}

/* A graphics pipeline: every stage reflected and merged, the depth-write state, feedback-loop
 * creation flags and vertex strides, for the draw-time checks. */
static void describe_graphics(struct layer_device *ld, struct pipeline_state *p,
                              const VkGraphicsPipelineCreateInfo *info)
{
    p->reflected = info->stageCount > 0;
    for (uint32_t s = 0; s < info->stageCount; ++s) {
        struct shader_module_state inline_code = {0};
        const struct shader_module_state *code = stage_code(ld, &info->pStages[s], &inline_code);
        if (code == NULL) {
            p->reflected = false;
            continue;
        }
        struct reflect_result stage;
        struct reflect_specialization spec[64];
        size_t spec_count = specialization(info->pStages[s].pSpecializationInfo, spec, 64);
        reflect_module(code->code, code->size, info->pStages[s].pName, spec, spec_count, &stage);
        validate_pipeline_stage(ld, info->pStages[s].module, info->pStages[s].pName, info->pStages[s].stage, &stage,
                                "vkCreateGraphicsPipelines");
        p->reflected = p->reflected && stage.ok && reflect_merge(&p->shader, &stage);
        reflect_free(&stage);
    }
    p->shader.ok = p->reflected;
    bool dynamic_depth_write = false, dynamic_vertex_input = false, mesh = false;
    for (uint32_t i = 0; info->pDynamicState && i < info->pDynamicState->dynamicStateCount; ++i) {
        VkDynamicState d = info->pDynamicState->pDynamicStates[i];
        dynamic_depth_write |= d == VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE;
        dynamic_vertex_input |=
            d == VK_DYNAMIC_STATE_VERTEX_INPUT_EXT || d == VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE;
    }
    for (uint32_t s = 0; s < info->stageCount; ++s)
        mesh |= (info->pStages[s].stage & (VK_SHADER_STAGE_MESH_BIT_EXT | VK_SHADER_STAGE_TASK_BIT_EXT)) != 0;
    p->depth_write_dynamic = dynamic_depth_write;
    p->depth_write =
        has_depth_stencil(ld, info) && info->pDepthStencilState && info->pDepthStencilState->depthWriteEnable;
    p->feedback_loop = (info->flags & (VK_PIPELINE_CREATE_COLOR_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT |
                                       VK_PIPELINE_CREATE_DEPTH_STENCIL_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT)) != 0;
    /* ignored by the spec (and so possibly not a valid pointer) with mesh shading or dynamic vertex
     * input; with dynamic strides the static ones are wrong: then vertex reads are not tracked */
    const VkPipelineVertexInputStateCreateInfo *vi = mesh || dynamic_vertex_input ? NULL : info->pVertexInputState;
    for (uint32_t i = 0; vi && i < vi->vertexBindingDescriptionCount; ++i) {
        const VkVertexInputBindingDescription *d = &vi->pVertexBindingDescriptions[i];
        if (d->binding < MAX_VERTEX_BINDINGS && d->inputRate == VK_VERTEX_INPUT_RATE_VERTEX)
            p->vertex_strides[d->binding] = d->stride;
    }
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateGraphicsPipelines(VkDevice device, VkPipelineCache cache,
                                                                     uint32_t count,
                                                                     const VkGraphicsPipelineCreateInfo *infos,
                                                                     const VkAllocationCallbacks *allocator,
                                                                     VkPipeline *pipelines)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateGraphicsPipelines(device, cache, count, infos, allocator, pipelines);
    for (uint32_t i = 0; i < count; ++i) {
        if (pipelines[i] == VK_NULL_HANDLE)
            continue;
        struct pipeline_state *p = new_pipeline(ld, pipelines[i], VK_PIPELINE_BIND_POINT_GRAPHICS, infos[i].layout);
        if (p == NULL)
            continue;
        describe_graphics(ld, p, &infos[i]);
        hook_object_created(ld, OBJECT_KIND_pipeline, HANDLE(pipelines[i]), p);
        validate_pipeline(ld, p, infos[i].stageCount ? infos[i].pStages[0].module : VK_NULL_HANDLE,
                          "vkCreateGraphicsPipelines");
    }
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyPipeline(VkDevice device, VkPipeline pipeline,
                                                         const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_pipeline, HANDLE(pipeline), "vkDestroyPipeline");
    ld->dispatch.DestroyPipeline(device, pipeline, allocator);
}

const struct layer_hook pipeline_hooks[] = {
    LAYER_HOOK(vkCreateShaderModule),    LAYER_HOOK(vkDestroyShaderModule),    LAYER_HOOK(vkCreatePipelineLayout),
    LAYER_HOOK(vkDestroyPipelineLayout), LAYER_HOOK(vkCreateComputePipelines), LAYER_HOOK(vkCreateGraphicsPipelines),
    LAYER_HOOK(vkDestroyPipeline),
};
const size_t pipeline_hook_count = sizeof(pipeline_hooks) / sizeof(pipeline_hooks[0]);
