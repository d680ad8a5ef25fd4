/* A PIPELINE on the device: its shaders compiled and made modules, descriptor sets written once
 * (buffers, texel views, images in GENERAL, samplers), the pipeline layout with push constants,
 * the compute pipeline, or the render pass, framebuffer and graphics pipelines (one per
 * topology and vertex input a RUN asks for). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec.h"

static const VkShaderStageFlagBits stage_bits[] = {
    [AMBER_STAGE_VERTEX] = VK_SHADER_STAGE_VERTEX_BIT,
    [AMBER_STAGE_TESSELLATION_CONTROL] = VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
    [AMBER_STAGE_TESSELLATION_EVALUATION] = VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT,
    [AMBER_STAGE_GEOMETRY] = VK_SHADER_STAGE_GEOMETRY_BIT,
    [AMBER_STAGE_FRAGMENT] = VK_SHADER_STAGE_FRAGMENT_BIT,
    [AMBER_STAGE_COMPUTE] = VK_SHADER_STAGE_COMPUTE_BIT,
    [AMBER_STAGE_RAY_GENERATION] = VK_SHADER_STAGE_RAYGEN_BIT_KHR,
    [AMBER_STAGE_ANY_HIT] = VK_SHADER_STAGE_ANY_HIT_BIT_KHR,
    [AMBER_STAGE_CLOSEST_HIT] = VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR,
    [AMBER_STAGE_MISS] = VK_SHADER_STAGE_MISS_BIT_KHR,
    [AMBER_STAGE_INTERSECTION] = VK_SHADER_STAGE_INTERSECTION_BIT_KHR,
    [AMBER_STAGE_CALLABLE] = VK_SHADER_STAGE_CALLABLE_BIT_KHR,
};

VkShaderStageFlagBits exec_stage_bit(enum amber_stage stage)
{
    return stage_bits[stage];
}

static const VkDescriptorType descriptor_types[] = {
    [AMBER_BIND_UNIFORM] = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
    [AMBER_BIND_STORAGE] = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    [AMBER_BIND_UNIFORM_DYNAMIC] = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
    [AMBER_BIND_STORAGE_DYNAMIC] = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
    [AMBER_BIND_UNIFORM_TEXEL] = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
    [AMBER_BIND_STORAGE_TEXEL] = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
    [AMBER_BIND_STORAGE_IMAGE] = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
    [AMBER_BIND_SAMPLED_IMAGE] = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
    [AMBER_BIND_COMBINED_IMAGE_SAMPLER] = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
    [AMBER_BIND_SAMPLER] = VK_DESCRIPTOR_TYPE_SAMPLER,
    [AMBER_BIND_ACCELERATION_STRUCTURE] = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR,
};
#define DESCRIPTOR_KINDS (sizeof(descriptor_types) / sizeof(descriptor_types[0]))

/* --- shaders --------------------------------------------------------------------------------- */

static const char *vulkan_version_name(uint32_t v)
{
    return v >= VK_API_VERSION_1_3 ? "1.3" : v >= VK_API_VERSION_1_2 ? "1.2" : v >= VK_API_VERSION_1_1 ? "1.1" : "1.0";
}

static bool device_has_extension(struct exec *e, const char *name)
{
    const cJSON *extensions = cJSON_GetObjectItemCaseSensitive((const cJSON *)e->gpu->declared, "extensions");
    return cJSON_HasObjectItem(extensions, name);
}

bool exec_compile(struct exec *e, uint32_t shader)
{
    struct amber_spirv *spirv = &e->spirv[shader];
    if (spirv->words != NULL)
        return true;
    const struct amber_shader *s = &e->script->shaders[shader];
    char error[1024];
    bool asks_spirv_1_4 = false;
    for (uint32_t i = 0; i < e->script->requirement_count; ++i)
        asks_spirv_1_4 |= e->script->requirements[i].kind == AMBER_REQUIRE_EXTENSION &&
                          strcmp(e->script->requirements[i].name, "VK_KHR_spirv_1_4") == 0;
    switch (amber_shader_build(s, asks_spirv_1_4, spirv, error, sizeof(error))) {
    case AMBER_COMPILE_OK:
        break;
    case AMBER_COMPILE_TOOL: /* the device never saw it: not its failure */
        return exec_stop(e, VERDICT_UNSUPPORTED, "line %u: SHADER %s: not run, a limit of the tool or the shader: %s",
                         s->where.line, s->name, error);
    default:
        return exec_stop(e, VERDICT_FAIL, "line %u: SHADER %s: %s", s->where.line, s->name, error);
    }
    /* a device takes the SPIR-V of its Vulkan version (1.4 on 1.1 with VK_KHR_spirv_1_4) */
    bool spirv_1_4 = spirv->spirv_version == 0x10400 && e->gpu->api_version >= VK_API_VERSION_1_1 &&
                     device_has_extension(e, "VK_KHR_spirv_1_4");
    if (spirv->vulkan_version > e->gpu->api_version && !spirv_1_4)
        return exec_stop(e, VERDICT_UNSUPPORTED,
                         "line %u: SHADER %s is SPIR-V %u.%u, which needs Vulkan %s; the device has %s", s->where.line,
                         s->name, spirv->spirv_version >> 16, (spirv->spirv_version >> 8) & 0xFF,
                         vulkan_version_name(spirv->vulkan_version), vulkan_version_name(e->gpu->api_version));
    return true;
}

/* SHADER_OPTIMIZATION: the shader's SPIR-V through the optimizer, for this pipeline only. */
static bool optimize(struct exec *e, const struct amber_pipeline *pl, const struct amber_attached_shader *a,
                     struct amber_spirv *out)
{
    const struct amber_shader *s = &e->script->shaders[a->shader];
    char error[1024];
    switch (amber_shader_optimize(s, &e->spirv[a->shader], a->passes, out, error, sizeof(error))) {
    case AMBER_OPTIMIZED:
        return true;
    case AMBER_OPTIMIZER_MISSING:
        return exec_stop(e, VERDICT_SKIPPED, "PIPELINE %s (line %u): %s", pl->name, pl->where.line, error);
    default: /* spirv-opt refused the flags or the module: the device was not asked */
        return exec_stop(e, VERDICT_UNSUPPORTED, "PIPELINE %s (line %u), SHADER %s: not run, a limit of the tool: %s",
                         pl->name, pl->where.line, s->name, error);
    }
}

static VkShaderStageFlags pipeline_stages(const struct amber_pipeline *pl)
{
    /* a ray_tracing pipeline's descriptors and push constants are every ray stage's (its
     * libraries' shaders share the layout) */
    if (pl->type == AMBER_PIPELINE_RAY_TRACING)
        return VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_ANY_HIT_BIT_KHR | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR |
               VK_SHADER_STAGE_MISS_BIT_KHR | VK_SHADER_STAGE_INTERSECTION_BIT_KHR | VK_SHADER_STAGE_CALLABLE_BIT_KHR;
    VkShaderStageFlags stages = 0;
    for (uint32_t i = 0; i < pl->shader_count; ++i)
        stages |= stage_bits[pl->shaders[i].stage];
    return stages;
}

/* --- descriptor sets ------------------------------------------------------------------------- */

static int by_binding(const void *a, const void *b)
{
    const struct amber_binding *x = *(const struct amber_binding *const *)a,
                               *y = *(const struct amber_binding *const *)b;
    return x->binding < y->binding ? -1 : x->binding > y->binding;
}

/* The bindings of `set`, in binding order (the order of dynamic offsets). */
static uint32_t bindings_of_set(const struct amber_pipeline *pl, uint32_t set, const struct amber_binding **out)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < pl->binding_count; ++i)
        if (pl->bindings[i].set == set)
            out[n++] = &pl->bindings[i];
    qsort(out, n, sizeof(*out), by_binding);
    return n;
}

static bool check_alignment(struct exec *e, const struct amber_binding *b, uint64_t offset, const char *what)
{
    const VkPhysicalDeviceLimits *limits = &e->gpu->properties.limits;
    bool uniform = b->kind == AMBER_BIND_UNIFORM || b->kind == AMBER_BIND_UNIFORM_DYNAMIC;
    uint64_t alignment = uniform ? limits->minUniformBufferOffsetAlignment : limits->minStorageBufferOffsetAlignment;
    if (alignment > 1 && offset % alignment != 0)
        return exec_stop(e, VERDICT_UNSUPPORTED, "line %u: the %s %llu is not a multiple of this device's %s (%llu)",
                         b->where.line, what, (unsigned long long)offset,
                         uniform ? "minUniformBufferOffsetAlignment" : "minStorageBufferOffsetAlignment",
                         (unsigned long long)alignment);
    return true;
}

static bool write_binding(struct exec *e, struct exec_pipeline *x, VkDescriptorSet set, const struct amber_binding *b)
{
    VkDescriptorBufferInfo buffers[AMBER_MAX_ARRAY_ELEMENTS];
    VkDescriptorImageInfo images[AMBER_MAX_ARRAY_ELEMENTS];
    VkBufferView texels[AMBER_MAX_ARRAY_ELEMENTS];
    const VkPhysicalDeviceLimits *limits = &e->gpu->properties.limits;
    for (uint32_t k = 0; k < b->count; ++k) {
        uint32_t object = b->objects[k];
        switch (b->kind) {
        case AMBER_BIND_UNIFORM:
        case AMBER_BIND_STORAGE:
        case AMBER_BIND_UNIFORM_DYNAMIC:
        case AMBER_BIND_STORAGE_DYNAMIC: {
            const struct exec_buffer *buffer = &e->buffers[object];
            bool dynamic = b->kind == AMBER_BIND_UNIFORM_DYNAMIC || b->kind == AMBER_BIND_STORAGE_DYNAMIC;
            uint64_t offset = b->descriptor_offsets[k], dynamic_offset = dynamic ? b->dynamic_offsets[k] : 0;
            if (!check_alignment(e, b, offset, "DESCRIPTOR_OFFSET") ||
                (dynamic && !check_alignment(e, b, dynamic_offset, "dynamic OFFSET")))
                return false;
            uint64_t size = buffer->data->size;
            if (offset + dynamic_offset > buffer->bytes)
                return exec_stop(e, VERDICT_FAIL, "line %u: offset %llu is past the end of %s (%llu bytes)",
                                 b->where.line, (unsigned long long)(offset + dynamic_offset),
                                 e->script->buffers[object].name, (unsigned long long)buffer->bytes);
            uint64_t range = b->descriptor_ranges[k];
            if (range == UINT64_MAX) {
                range = (buffer->bytes ? buffer->bytes : size) - offset - dynamic_offset;
                uint64_t limit = b->kind == AMBER_BIND_UNIFORM || b->kind == AMBER_BIND_UNIFORM_DYNAMIC
                                     ? limits->maxUniformBufferRange
                                     : limits->maxStorageBufferRange;
                if (range > limit)
                    range = limit;
                if (range == 0)
                    range = 4;
            }
            buffers[k] = (VkDescriptorBufferInfo){buffer->data->buffer, offset, range};
            if (dynamic && x->dynamic_counts[b->set] == 64)
                return exec_stop(e, VERDICT_SKIPPED,
                                 "more than 64 dynamic buffers in one set: beyond preflight's limit");
            if (dynamic)
                x->dynamic_offsets[b->set][x->dynamic_counts[b->set]++] = (uint32_t)dynamic_offset;
            break;
        }
        case AMBER_BIND_UNIFORM_TEXEL:
        case AMBER_BIND_STORAGE_TEXEL:
            texels[k] = exec_buffer_view(e, object);
            if (texels[k] == VK_NULL_HANDLE)
                return !exec_vulkan_failed(e) && exec_stop(e, VERDICT_FAIL, "a texel buffer view failed");
            break;
        case AMBER_BIND_STORAGE_IMAGE:
        case AMBER_BIND_SAMPLED_IMAGE:
        case AMBER_BIND_COMBINED_IMAGE_SAMPLER: {
            const struct exec_buffer *buffer = &e->buffers[object];
            uint32_t levels = b->kind == AMBER_BIND_STORAGE_IMAGE ? 1 : buffer->image->mip_levels - b->base_mip_level;
            VkImageView view = exec_image_view(e, object, b->base_mip_level, levels, false);
            if (view == VK_NULL_HANDLE)
                return !exec_vulkan_failed(e) && exec_stop(e, VERDICT_FAIL, "an image view failed");
            images[k] = (VkDescriptorImageInfo){b->kind == AMBER_BIND_COMBINED_IMAGE_SAMPLER ? e->samplers[b->sampler]
                                                                                             : VK_NULL_HANDLE,
                                                view, VK_IMAGE_LAYOUT_GENERAL};
            break;
        }
        case AMBER_BIND_SAMPLER:
            images[k] = (VkDescriptorImageInfo){e->samplers[object], VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED};
            break;
        case AMBER_BIND_ACCELERATION_STRUCTURE:
            break;
        }
    }
    VkWriteDescriptorSetAccelerationStructureKHR structures = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
        .accelerationStructureCount = 1,
        .pAccelerationStructures = b->kind == AMBER_BIND_ACCELERATION_STRUCTURE ? &e->tlases[b->objects[0]] : NULL,
    };
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .pNext = b->kind == AMBER_BIND_ACCELERATION_STRUCTURE ? &structures : NULL,
        .dstSet = set,
        .dstBinding = b->binding,
        .descriptorCount = b->count,
        .descriptorType = descriptor_types[b->kind],
        .pBufferInfo = buffers,
        .pImageInfo = images,
        .pTexelBufferView = texels,
    };
    vkUpdateDescriptorSets(e->gpu->device, 1, &write, 0, NULL);
    return true;
}

static bool create_sets(struct exec *e, const struct amber_pipeline *pl, struct exec_pipeline *x)
{
    VkShaderStageFlags stages = pipeline_stages(pl);
    uint32_t set_count = 0;
    for (uint32_t i = 0; i < pl->binding_count; ++i) {
        if (pl->bindings[i].set >= 32)
            return exec_stop(e, VERDICT_FAIL, "line %u: DESCRIPTOR_SET %u: preflight binds sets 0 to 31",
                             pl->bindings[i].where.line, pl->bindings[i].set);
        if (pl->bindings[i].set + 1 > set_count)
            set_count = pl->bindings[i].set + 1;
    }
    if (set_count > e->gpu->properties.limits.maxBoundDescriptorSets)
        return exec_stop(e, VERDICT_UNSUPPORTED, "PIPELINE %s uses %u descriptor sets; the device binds %u", pl->name,
                         set_count, e->gpu->properties.limits.maxBoundDescriptorSets);
    x->set_count = set_count;
    VkDescriptorPoolSize sizes[DESCRIPTOR_KINDS];
    for (size_t t = 0; t < DESCRIPTOR_KINDS; ++t)
        sizes[t] = (VkDescriptorPoolSize){descriptor_types[t], 0};
    const struct amber_binding *list[1024];
    for (uint32_t s = 0; s < set_count; ++s) {
        uint32_t n = bindings_of_set(pl, s, list);
        VkDescriptorSetLayoutBinding layout_bindings[1024];
        for (uint32_t i = 0; i < n; ++i) {
            layout_bindings[i] = (VkDescriptorSetLayoutBinding){list[i]->binding, descriptor_types[list[i]->kind],
                                                                list[i]->count, stages, NULL};
            sizes[list[i]->kind].descriptorCount += list[i]->count;
        }
        VkDescriptorSetLayoutCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
            .bindingCount = n,
            .pBindings = layout_bindings,
        };
        if (!GPU_CHECK(e->gpu, vkCreateDescriptorSetLayout(e->gpu->device, &info, NULL, &x->set_layouts[s])))
            return !exec_vulkan_failed(e);
    }
    if (set_count == 0)
        return true;
    VkDescriptorPoolSize used[DESCRIPTOR_KINDS];
    uint32_t used_count = 0;
    for (size_t t = 0; t < DESCRIPTOR_KINDS; ++t)
        if (sizes[t].descriptorCount)
            used[used_count++] = sizes[t];
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = set_count,
        .poolSizeCount = used_count,
        .pPoolSizes = used,
    };
    if (used_count == 0) { /* only empty sets: a pool must still have a size */
        used[0] = (VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
        pool_info.poolSizeCount = 1;
    }
    VkDescriptorSetAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorSetCount = set_count,
        .pSetLayouts = x->set_layouts,
    };
    if (!GPU_CHECK(e->gpu, vkCreateDescriptorPool(e->gpu->device, &pool_info, NULL, &x->pool)))
        return !exec_vulkan_failed(e);
    alloc.descriptorPool = x->pool;
    if (!GPU_CHECK(e->gpu, vkAllocateDescriptorSets(e->gpu->device, &alloc, x->sets)))
        return !exec_vulkan_failed(e);
    for (uint32_t s = 0; s < set_count; ++s) {
        uint32_t n = bindings_of_set(pl, s, list);
        for (uint32_t i = 0; i < n; ++i)
            if (!write_binding(e, x, x->sets[s], list[i]))
                return false;
    }
    return true;
}

static bool create_layout(struct exec *e, const struct amber_pipeline *pl, struct exec_pipeline *x)
{
    if (pl->push_constants >= 0) {
        uint64_t bytes = e->buffers[pl->push_constants].bytes;
        if (bytes > e->gpu->properties.limits.maxPushConstantsSize)
            return exec_stop(e, VERDICT_UNSUPPORTED, "PIPELINE %s: %llu bytes of push constants; the device takes %u",
                             pl->name, (unsigned long long)bytes, e->gpu->properties.limits.maxPushConstantsSize);
        x->push_size = (uint32_t)(bytes + 3) / 4 * 4;
    }
    VkPushConstantRange range = {pipeline_stages(pl), 0, x->push_size};
    VkPipelineLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = x->set_count,
        .pSetLayouts = x->set_layouts,
        .pushConstantRangeCount = x->push_size ? 1 : 0,
        .pPushConstantRanges = &range,
    };
    if (!GPU_CHECK(e->gpu, vkCreatePipelineLayout(e->gpu->device, &info, NULL, &x->layout)))
        return !exec_vulkan_failed(e);
    return true;
}

/* --- stages ---------------------------------------------------------------------------------- */

struct stage_storage {
    VkSpecializationMapEntry entries[AMBER_MAX_STAGES][AMBER_MAX_SPECIALIZATIONS];
    uint32_t values[AMBER_MAX_STAGES][AMBER_MAX_SPECIALIZATIONS];
    VkSpecializationInfo specialization[AMBER_MAX_STAGES];
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroup[AMBER_MAX_STAGES];
};

static bool stage_infos(struct exec *e, const struct amber_pipeline *pl, struct exec_pipeline *x,
                        VkPipelineShaderStageCreateInfo *stages, struct stage_storage *st)
{
    for (uint32_t i = 0; i < pl->shader_count; ++i) {
        const struct amber_attached_shader *a = &pl->shaders[i];
        for (uint32_t k = 0; k < a->specialization_count; ++k) {
            st->entries[i][k] = (VkSpecializationMapEntry){a->specializations[k].id, k * 4, 4};
            st->values[i][k] = a->specializations[k].bits;
        }
        st->specialization[i] =
            (VkSpecializationInfo){a->specialization_count, st->entries[i], a->specialization_count * 4, st->values[i]};
        uint32_t required = a->required_min   ? e->subgroup_size.minSubgroupSize
                            : a->required_max ? e->subgroup_size.maxSubgroupSize
                                              : a->required_size;
        if (required && (required < e->subgroup_size.minSubgroupSize || required > e->subgroup_size.maxSubgroupSize))
            return exec_stop(e, VERDICT_UNSUPPORTED,
                             "PIPELINE %s: REQUIRED_SIZE %u is outside this device's subgroup sizes %u to %u", pl->name,
                             required, e->subgroup_size.minSubgroupSize, e->subgroup_size.maxSubgroupSize);
        st->subgroup[i] = (VkPipelineShaderStageRequiredSubgroupSizeCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO,
            .requiredSubgroupSize = required};
        VkPipelineShaderStageCreateFlags flags = 0;
        if (a->varying_size)
            flags |= VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT;
        if (a->fully_populated)
            flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
        stages[i] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .pNext = required ? &st->subgroup[i] : NULL,
            .flags = flags,
            .stage = stage_bits[a->stage],
            .module = x->modules[i],
            .pName = a->entry,
            .pSpecializationInfo = a->specialization_count ? &st->specialization[i] : NULL,
        };
    }
    return true;
}

/* --- graphics -------------------------------------------------------------------------------- */

static bool create_render_pass(struct exec *e, const struct amber_pipeline *pl, struct exec_pipeline *x)
{
    VkAttachmentDescription attachments[2 * AMBER_MAX_COLOR_ATTACHMENTS + 1];
    VkAttachmentReference colors[AMBER_MAX_COLOR_ATTACHMENTS], resolves[AMBER_MAX_COLOR_ATTACHMENTS], depth;
    VkImageView views[2 * AMBER_MAX_COLOR_ATTACHMENTS + 1];
    uint32_t count = 0, color_slots = 0, resolve_next = 0;
    bool any_resolve = false;
    x->width = pl->width;
    x->height = pl->height;
    for (uint32_t i = 0; i < AMBER_MAX_COLOR_ATTACHMENTS; ++i) {
        colors[i] = resolves[i] = (VkAttachmentReference){VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_GENERAL};
    }
    x->samples = VK_SAMPLE_COUNT_1_BIT;
    for (uint32_t loc = 0; loc < AMBER_MAX_COLOR_ATTACHMENTS; ++loc) {
        for (uint32_t i = 0; i < pl->color_count; ++i) {
            const struct amber_attachment *a = &pl->colors[i];
            if (a->location != loc)
                continue;
            const struct exec_buffer *b = &e->buffers[a->buffer];
            attachments[count] = (VkAttachmentDescription){
                .format = b->image->format,
                .samples = b->samples,
                .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
                .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
                .finalLayout = VK_IMAGE_LAYOUT_GENERAL,
            };
            x->samples = b->samples;
            views[count] = exec_image_view(e, a->buffer, a->base_mip_level, 1, true);
            uint32_t w = b->width >> a->base_mip_level, h = b->height >> a->base_mip_level;
            x->width = w && w < x->width ? w : x->width;
            x->height = h && h < x->height ? h : x->height;
            colors[loc] = (VkAttachmentReference){count++, VK_IMAGE_LAYOUT_GENERAL};
            color_slots = loc + 1;
            if (b->samples != VK_SAMPLE_COUNT_1_BIT && resolve_next < pl->resolve_count) {
                uint32_t r = pl->resolves[resolve_next++];
                attachments[count] = attachments[count - 1];
                attachments[count].samples = VK_SAMPLE_COUNT_1_BIT;
                attachments[count].format = e->buffers[r].image->format;
                views[count] = exec_image_view(e, r, 0, 1, true);
                resolves[loc] = (VkAttachmentReference){count++, VK_IMAGE_LAYOUT_GENERAL};
                any_resolve = true;
            }
        }
    }
    bool has_depth = pl->depth_stencil >= 0;
    if (has_depth) {
        const struct exec_buffer *b = &e->buffers[pl->depth_stencil];
        bool stencil = amber_format_has_stencil(b->image->format);
        attachments[count] = (VkAttachmentDescription){
            .format = b->image->format,
            .samples = b->samples,
            .loadOp =
                amber_format_has_depth(b->image->format) ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_DONT_CARE,
            .storeOp = amber_format_has_depth(b->image->format) ? VK_ATTACHMENT_STORE_OP_STORE
                                                                : VK_ATTACHMENT_STORE_OP_DONT_CARE,
            .stencilLoadOp = stencil ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_DONT_CARE,
            .stencilStoreOp = stencil ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE,
            .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
            .finalLayout = VK_IMAGE_LAYOUT_GENERAL,
        };
        views[count] = exec_image_view(e, (uint32_t)pl->depth_stencil, 0, 1, true);
        depth = (VkAttachmentReference){count++, VK_IMAGE_LAYOUT_GENERAL};
        if (color_slots == 0)
            x->samples = b->samples;
    }
    for (uint32_t i = 0; i < count; ++i)
        if (views[i] == VK_NULL_HANDLE)
            return !exec_vulkan_failed(e) && exec_stop(e, VERDICT_FAIL, "an attachment view failed");
    VkSubpassDescription subpass = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = color_slots,
        .pColorAttachments = colors,
        .pResolveAttachments = any_resolve ? resolves : NULL,
        .pDepthStencilAttachment = has_depth ? &depth : NULL,
    };
    /* the commands before and after a pass are ordered by the executor's full barriers; these
     * say the same of the pass's own attachment accesses */
    VkSubpassDependency dependencies[2] = {
        {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
         VK_ACCESS_MEMORY_WRITE_BIT, VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, 0},
        {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
         VK_ACCESS_MEMORY_WRITE_BIT, VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, 0},
    };
    VkRenderPassCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .attachmentCount = count,
        .pAttachments = attachments,
        .subpassCount = 1,
        .pSubpasses = &subpass,
        .dependencyCount = 2,
        .pDependencies = dependencies,
    };
    if (!GPU_CHECK(e->gpu, vkCreateRenderPass(e->gpu->device, &info, NULL, &x->render_pass)))
        return !exec_vulkan_failed(e);
    VkFramebufferCreateInfo framebuffer = {
        .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
        .renderPass = x->render_pass,
        .attachmentCount = count,
        .pAttachments = views,
        .width = x->width,
        .height = x->height,
        .layers = 1,
    };
    if (!GPU_CHECK(e->gpu, vkCreateFramebuffer(e->gpu->device, &framebuffer, NULL, &x->framebuffer)))
        return !exec_vulkan_failed(e);
    return true;
}

VkPipeline exec_graphics_variant(struct exec *e, uint32_t index, bool rect, VkPrimitiveTopology topology)
{
    const struct amber_pipeline *pl = &e->script->pipelines[index];
    struct exec_pipeline *x = &e->pipelines[index];
    for (uint32_t i = 0; i < x->variant_count; ++i)
        if (x->variants[i].rect == rect && x->variants[i].topology == topology)
            return x->variants[i].pipeline;
    if (x->variant_count == EXEC_MAX_VARIANTS) {
        exec_stop(e, VERDICT_SKIPPED, "PIPELINE %s is drawn in more than %d ways: beyond preflight's limit", pl->name,
                  EXEC_MAX_VARIANTS);
        return VK_NULL_HANDLE;
    }
    VkPipelineShaderStageCreateInfo stages[AMBER_MAX_STAGES];
    struct stage_storage *st = calloc(1, sizeof(*st));
    if (st == NULL || !stage_infos(e, pl, x, stages, st)) {
        free(st);
        if (st == NULL)
            exec_stop(e, VERDICT_FAIL, "out of memory");
        return VK_NULL_HANDLE;
    }
    VkVertexInputBindingDescription bindings[AMBER_MAX_VERTEX_INPUTS];
    VkVertexInputAttributeDescription attributes[AMBER_MAX_VERTEX_INPUTS];
    uint32_t inputs = 0;
    uint32_t binding_count = 0;
    if (rect) {
        bindings[0] = (VkVertexInputBindingDescription){0, 8, VK_VERTEX_INPUT_RATE_VERTEX};
        attributes[0] = (VkVertexInputAttributeDescription){0, 0, VK_FORMAT_R32G32_SFLOAT, 0};
        inputs = binding_count = 1;
        /* the pipeline's other VERTEX_DATA locations read zeros (one zero vertex, stride 0): DRAW_RECT
         * ignores VERTEX_DATA as Amber does, and a shader input left without an attribute is not
         * valid Vulkan */
        for (uint32_t i = 0; i < pl->vertex_input_count; ++i)
            if (pl->vertex_inputs[i].location != 0)
                attributes[inputs++] = (VkVertexInputAttributeDescription){pl->vertex_inputs[i].location, 1,
                                                                           pl->vertex_inputs[i].format, 0};
        if (inputs > 1)
            bindings[binding_count++] = (VkVertexInputBindingDescription){1, 0, VK_VERTEX_INPUT_RATE_VERTEX};
    } else {
        for (uint32_t i = 0; i < pl->vertex_input_count; ++i) {
            const struct amber_vertex_input *v = &pl->vertex_inputs[i];
            bindings[i] = (VkVertexInputBindingDescription){
                i, v->stride, v->per_instance ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX};
            attributes[i] = (VkVertexInputAttributeDescription){v->location, i, v->format, 0};
        }
        inputs = binding_count = pl->vertex_input_count;
    }
    VkPipelineVertexInputStateCreateInfo vertex_input = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .vertexBindingDescriptionCount = binding_count,
        .pVertexBindingDescriptions = bindings,
        .vertexAttributeDescriptionCount = inputs,
        .pVertexAttributeDescriptions = attributes,
    };
    bool tessellation = (pipeline_stages(pl) & VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT) != 0;
    VkPipelineInputAssemblyStateCreateInfo assembly = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = tessellation ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST : topology,
        .primitiveRestartEnable = pl->raster.primitive_restart,
    };
    VkPipelineTessellationStateCreateInfo tessellation_state = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
        .patchControlPoints = pl->patch_control_points,
    };
    VkViewport viewport = {0, 0, (float)x->width, (float)x->height, 0, 1};
    if (pl->viewport_set)
        viewport = (VkViewport){pl->viewport[0], pl->viewport[1], pl->viewport[2],
                                pl->viewport[3], pl->viewport[4], pl->viewport[5]};
    VkRect2D scissor = {{0, 0}, {x->width, x->height}};
    VkPipelineViewportStateCreateInfo viewport_state = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .pViewports = &viewport,
        .scissorCount = 1,
        .pScissors = &scissor,
    };
    VkPipelineRasterizationStateCreateInfo raster = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .depthClampEnable = pl->depth.clamp,
        .polygonMode = pl->polygon_mode,
        .rasterizerDiscardEnable = pl->raster.rasterizer_discard,
        .cullMode = pl->raster.cull_mode,
        .frontFace = pl->raster.front_face,
        .depthBiasEnable = pl->depth.bias,
        .depthBiasConstantFactor = pl->depth.bias_constant,
        .depthBiasClamp = pl->depth.bias_clamp,
        .depthBiasSlopeFactor = pl->depth.bias_slope,
        .lineWidth = pl->raster.line_width,
    };
    VkPipelineMultisampleStateCreateInfo multisample = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = x->samples,
    };
    VkStencilOpState front = {pl->stencil_front.fail_op,       pl->stencil_front.pass_op,
                              pl->stencil_front.depth_fail_op, pl->stencil_front.compare_op,
                              pl->stencil_front.compare_mask,  pl->stencil_front.write_mask,
                              pl->stencil_front.reference};
    VkStencilOpState back = {pl->stencil_back.fail_op,    pl->stencil_back.pass_op,      pl->stencil_back.depth_fail_op,
                             pl->stencil_back.compare_op, pl->stencil_back.compare_mask, pl->stencil_back.write_mask,
                             pl->stencil_back.reference};
    VkPipelineDepthStencilStateCreateInfo depth_stencil = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
        .depthTestEnable = pl->depth.test,
        .depthWriteEnable = pl->depth.write,
        .depthCompareOp = pl->depth.compare_op,
        .depthBoundsTestEnable = pl->depth.bounds,
        .stencilTestEnable = pl->stencil_test,
        .front = front,
        .back = back,
        .minDepthBounds = pl->depth.min_bounds,
        .maxDepthBounds = pl->depth.max_bounds,
    };
    VkPipelineColorBlendAttachmentState blend[AMBER_MAX_COLOR_ATTACHMENTS];
    uint32_t color_slots = 0;
    for (uint32_t i = 0; i < pl->color_count; ++i)
        if (pl->colors[i].location + 1 > color_slots)
            color_slots = pl->colors[i].location + 1;
    for (uint32_t i = 0; i < color_slots; ++i) {
        /* BLEND is the pipeline's; attachments that cannot blend (integer formats) do not */
        bool blends = pl->blend.enable;
        for (uint32_t c = 0; c < pl->color_count && blends; ++c) {
            VkFormatProperties p;
            vkGetPhysicalDeviceFormatProperties(e->gpu->physical, e->buffers[pl->colors[c].buffer].image->format, &p);
            if (pl->colors[c].location == i)
                blends = (p.optimalTilingFeatures & VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT) != 0;
        }
        blend[i] = (VkPipelineColorBlendAttachmentState){
            .blendEnable = blends,
            .srcColorBlendFactor = pl->blend.src_color,
            .dstColorBlendFactor = pl->blend.dst_color,
            .colorBlendOp = pl->blend.color_op,
            .srcAlphaBlendFactor = pl->blend.src_alpha,
            .dstAlphaBlendFactor = pl->blend.dst_alpha,
            .alphaBlendOp = pl->blend.alpha_op,
            .colorWriteMask = pl->raster.color_write_mask,
        };
    }
    VkPipelineColorBlendStateCreateInfo blend_state = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .logicOpEnable = pl->raster.logic_op_enable,
        .logicOp = pl->raster.logic_op,
        .attachmentCount = color_slots,
        .pAttachments = blend,
    };
    VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .stageCount = pl->shader_count,
        .pStages = stages,
        .pVertexInputState = &vertex_input,
        .pInputAssemblyState = &assembly,
        .pTessellationState = tessellation ? &tessellation_state : NULL,
        .pViewportState = &viewport_state,
        .pRasterizationState = &raster,
        .pMultisampleState = &multisample,
        .pDepthStencilState = &depth_stencil,
        .pColorBlendState = &blend_state,
        .layout = x->layout,
        .renderPass = x->render_pass,
    };
    VkPipeline pipeline = VK_NULL_HANDLE;
    bool ok = GPU_CHECK(e->gpu, vkCreateGraphicsPipelines(e->gpu->device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline));
    free(st);
    if (!ok) {
        if (!exec_vulkan_failed(e))
            exec_stop(e, VERDICT_FAIL, "PIPELINE %s: vkCreateGraphicsPipelines failed", pl->name);
        return VK_NULL_HANDLE;
    }
    x->variants[x->variant_count++] = (struct exec_variant){rect, topology, pipeline};
    return pipeline;
}

/* --- the pipeline ---------------------------------------------------------------------------- */

bool exec_create_pipeline(struct exec *e, uint32_t index)
{
    const struct amber_pipeline *pl = &e->script->pipelines[index];
    struct exec_pipeline *x = &e->pipelines[index];
    x->created = true;
    x->clear_depth = 1.0f;
    for (uint32_t i = 0; i < pl->shader_count; ++i) {
        uint32_t shader = pl->shaders[i].shader;
        if (!exec_compile(e, shader))
            return false;
        struct amber_spirv optimized = {0};
        if (pl->shaders[i].passes != NULL && !optimize(e, pl, &pl->shaders[i], &optimized))
            return false;
        const struct amber_spirv *code = optimized.words != NULL ? &optimized : &e->spirv[shader];
        VkShaderModuleCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
            .codeSize = code->count * 4,
            .pCode = code->words,
        };
        bool made = GPU_CHECK(e->gpu, vkCreateShaderModule(e->gpu->device, &info, NULL, &x->modules[i]));
        amber_spirv_free(&optimized);
        if (!made)
            return !exec_vulkan_failed(e);
    }
    if (!create_sets(e, pl, x) || !create_layout(e, pl, x))
        return false;
    if (pl->type == AMBER_PIPELINE_GRAPHICS)
        return create_render_pass(e, pl, x);
    if (pl->type == AMBER_PIPELINE_RAY_TRACING)
        return exec_create_ray_tracing(e, index);
    VkPipelineShaderStageCreateInfo stages[AMBER_MAX_STAGES];
    struct stage_storage *st = calloc(1, sizeof(*st));
    if (st == NULL)
        return exec_stop(e, VERDICT_FAIL, "out of memory");
    if (!stage_infos(e, pl, x, stages, st)) {
        free(st);
        return false;
    }
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = stages[0],
        .layout = x->layout,
    };
    bool ok = GPU_CHECK(e->gpu, vkCreateComputePipelines(e->gpu->device, VK_NULL_HANDLE, 1, &info, NULL, &x->compute));
    free(st);
    if (!ok && !exec_vulkan_failed(e))
        return exec_stop(e, VERDICT_FAIL, "PIPELINE %s: vkCreateComputePipelines failed", pl->name);
    return ok;
}

void exec_bind_pipeline(struct exec *e, uint32_t index, VkPipelineBindPoint point)
{
    const struct amber_pipeline *pl = &e->script->pipelines[index];
    struct exec_pipeline *x = &e->pipelines[index];
    for (uint32_t s = 0; s < x->set_count; ++s)
        vkCmdBindDescriptorSets(e->gpu->cmd, point, x->layout, s, 1, &x->sets[s], x->dynamic_counts[s],
                                x->dynamic_offsets[s]);
    /* the data buffer is padded past push_size (exec_plan_buffers) */
    if (x->push_size)
        vkCmdPushConstants(e->gpu->cmd, x->layout, pipeline_stages(pl), 0, x->push_size,
                           e->buffers[pl->push_constants].data->mapped);
}

void exec_destroy_pipelines(struct exec *e)
{
    VkDevice device = e->gpu->device;
    for (uint32_t i = 0; i < e->script->pipeline_count; ++i) {
        struct exec_pipeline *x = &e->pipelines[i];
        for (uint32_t v = 0; v < x->variant_count; ++v)
            vkDestroyPipeline(device, x->variants[v].pipeline, NULL);
        vkDestroyPipeline(device, x->compute, NULL);
        vkDestroyPipeline(device, x->ray_tracing, NULL);
        for (uint32_t l = 0; l < x->library_pipeline_count; ++l)
            vkDestroyPipeline(device, x->library_pipelines[l], NULL);
        free(x->library_pipelines);
        free(x->sbt_regions);
        vkDestroyFramebuffer(device, x->framebuffer, NULL);
        vkDestroyRenderPass(device, x->render_pass, NULL);
        vkDestroyPipelineLayout(device, x->layout, NULL);
        vkDestroyDescriptorPool(device, x->pool, NULL);
        for (uint32_t s = 0; s < x->set_count; ++s)
            vkDestroyDescriptorSetLayout(device, x->set_layouts[s], NULL);
        for (uint32_t m = 0; m < AMBER_MAX_STAGES; ++m)
            vkDestroyShaderModule(device, x->modules[m], NULL);
    }
    for (uint32_t i = 0; i < e->script->shader_count; ++i) {
        amber_spirv_free(&e->spirv[i]);
        if (e->shader_modules != NULL)
            vkDestroyShaderModule(device, e->shader_modules[i], NULL);
    }
}
