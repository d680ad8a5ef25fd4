#include "feature_names.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "amber.h"
#include "declared_query.h"
#include "script.h"
#include "session.h"

/* --- the declared block ---------------------------------------------------------------------- */

static bool feature_declared(const struct amber_feature *f, const cJSON *declared)
{
    if (f->kind == AMBER_FEATURE_KIND_PROPERTY)
        return declared_flag(declared, f->structs[0], f->member);
    return declared_feature(declared, f->structs, f->member);
}

/* DEVICE_PROPERTY Struct.member: a true boolean (or non-zero number) in VkPhysicalDevice<Struct>
 * or in a VkPhysicalDeviceVulkan1xProperties that holds the member. */
static bool property_declared(const cJSON *declared, const char *name)
{
    char structure[AMBER_NAME_MAX];
    snprintf(structure, sizeof(structure), "%s", name);
    char *dot = strchr(structure, '.');
    if (dot == NULL)
        return false;
    *dot = '\0';
    const char *member = dot + 1;
    const char *candidates[] = {NULL, "VkPhysicalDeviceVulkan11Properties", "VkPhysicalDeviceVulkan12Properties",
                                "VkPhysicalDeviceVulkan13Properties"};
    char full[AMBER_NAME_MAX + 32];
    snprintf(full, sizeof(full), "VkPhysicalDevice%s", structure);
    candidates[0] = full;
    const cJSON *properties = cJSON_GetObjectItemCaseSensitive(declared, "properties");
    for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); ++i) {
        const cJSON *value =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(properties, candidates[i]), member);
        if (cJSON_IsTrue(value) || (cJSON_IsNumber(value) && value->valuedouble != 0))
            return true;
    }
    return false;
}

/* Instance extensions: the probe's instance is made once per worker, not per file. Those promoted
 * to Vulkan 1.1 are there on every 1.1 instance; the rest cannot be enabled for one file. */
static bool instance_extension_available(const char *name)
{
    static const char *const core_in_1_1[] = {
        "VK_KHR_get_physical_device_properties2", "VK_KHR_external_memory_capabilities",
        "VK_KHR_external_semaphore_capabilities", "VK_KHR_external_fence_capabilities",
        "VK_KHR_device_group_creation",           NULL};
    for (int i = 0; core_in_1_1[i]; ++i)
        if (strcmp(core_in_1_1[i], name) == 0)
            return true;
    return false;
}

static bool format_feature(const cJSON *declared, VkFormat format, const char *tiling, const char *bit)
{
    char path[256];
    snprintf(path, sizeof(path), "formats/VK_FORMAT_%s/VkFormatProperties/%s", amber_format_name(format), tiling);
    return declared_flag(declared, path, bit);
}

static bool need_format(const cJSON *declared, const struct amber_buffer *b, const char *tiling, const char *bit,
                        const char *use, char *missing, size_t size)
{
    if (b->layout.format == VK_FORMAT_UNDEFINED || format_feature(declared, b->layout.format, tiling, bit))
        return true;
    snprintf(missing, size, "%s as %s: VK_FORMAT_%s lacks %s (%s)", b->name, use, amber_format_name(b->layout.format),
             bit, tiling);
    return false;
}

static bool sample_count_declared(const cJSON *declared, uint32_t samples, bool depth)
{
    if (samples <= 1)
        return true;
    char bit[48];
    snprintf(bit, sizeof(bit), "VK_SAMPLE_COUNT_%u_BIT", samples);
    return declared_flag(declared,
                         depth ? "properties/VkPhysicalDeviceProperties/limits/framebufferDepthSampleCounts"
                               : "properties/VkPhysicalDeviceProperties/limits/framebufferColorSampleCounts",
                         bit);
}

static bool pipeline_formats_declared(const struct amber_script *s, const struct amber_pipeline *pl,
                                      const cJSON *declared, char *missing, size_t size)
{
    const char *optimal = "optimalTilingFeatures", *buffer = "bufferFeatures";
    for (uint32_t i = 0; i < pl->color_count; ++i) {
        const struct amber_buffer *b = &s->buffers[pl->colors[i].buffer];
        if (!need_format(declared, b, optimal, "VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT", "color attachment", missing,
                         size))
            return false;
        if (!sample_count_declared(declared, b->samples, false)) {
            snprintf(missing, size, "%s: framebufferColorSampleCounts lacks VK_SAMPLE_COUNT_%u_BIT", b->name,
                     b->samples);
            return false;
        }
    }
    if (pl->depth_stencil >= 0 &&
        !need_format(declared, &s->buffers[pl->depth_stencil], optimal,
                     "VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT", "depth/stencil attachment", missing, size))
        return false;
    for (uint32_t i = 0; i < pl->vertex_input_count; ++i) {
        const struct amber_vertex_input *v = &pl->vertex_inputs[i];
        struct amber_buffer as_format = s->buffers[v->buffer];
        as_format.layout.format = v->format;
        if (!need_format(declared, &as_format, buffer, "VK_FORMAT_FEATURE_VERTEX_BUFFER_BIT", "vertex data", missing,
                         size))
            return false;
    }
    for (uint32_t i = 0; i < pl->binding_count; ++i) {
        const struct amber_binding *bind = &pl->bindings[i];
        const char *tiling = optimal, *bit = NULL, *use = NULL;
        switch (bind->kind) {
        case AMBER_BIND_UNIFORM_TEXEL:
            tiling = buffer, bit = "VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT", use = "uniform texel buffer";
            break;
        case AMBER_BIND_STORAGE_TEXEL:
            tiling = buffer, bit = "VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT", use = "storage texel buffer";
            break;
        case AMBER_BIND_STORAGE_IMAGE:
            bit = "VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT", use = "storage image";
            break;
        case AMBER_BIND_SAMPLED_IMAGE:
        case AMBER_BIND_COMBINED_IMAGE_SAMPLER:
            bit = "VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT", use = "sampled image";
            break;
        default:
            break;
        }
        for (uint32_t k = 0; bit != NULL && k < bind->count; ++k)
            if (!need_format(declared, &s->buffers[bind->objects[k]], tiling, bit, use, missing, size))
                return false;
    }
    return true;
}

/* INDEX_DATA of uint8: VK_EXT_index_type_uint8 and its feature. */
static bool uses_uint8_indices(const struct amber_script *s)
{
    for (uint32_t i = 0; i < s->pipeline_count; ++i)
        if (s->pipelines[i].index_buffer >= 0 && s->buffers[s->pipelines[i].index_buffer].layout.segments[0].bits == 8)
            return true;
    return false;
}

static const char *const uint8_index_structs[] = {"VkPhysicalDeviceIndexTypeUint8FeaturesEXT", NULL};

/* Ray tracing: what a ray_tracing pipeline or an ACCELERATION_STRUCTURE needs, whether or not the
 * file names it (Amber's files name the features, not always the extensions). */
struct ray_needs {
    bool pipeline, structures, libraries;
    uint32_t line; /* of the first use, for the message */
};

static struct ray_needs ray_needs_of(const struct amber_script *s)
{
    struct ray_needs n = {false, false, false, 0};
    for (uint32_t i = 0; i < s->pipeline_count; ++i)
        if (s->pipelines[i].type == AMBER_PIPELINE_RAY_TRACING) {
            if (!n.pipeline)
                n.line = s->pipelines[i].where.line;
            n.pipeline = true;
            n.libraries = n.libraries || s->pipelines[i].library;
        }
    if (s->blas_count || s->tlas_count) {
        uint32_t line = s->blas_count ? s->blases[0].where.line : s->tlases[0].where.line;
        n.line = n.pipeline && n.line < line ? n.line : line;
        n.structures = true;
    }
    return n;
}

static const char *const rt_pipeline_structs[] = {"VkPhysicalDeviceRayTracingPipelineFeaturesKHR", NULL};
static const char *const as_structs[] = {"VkPhysicalDeviceAccelerationStructureFeaturesKHR", NULL};
static const char *const bda_structs[] = {"VkPhysicalDeviceBufferDeviceAddressFeatures",
                                          "VkPhysicalDeviceVulkan12Features", NULL};

static bool ray_tracing_declared(const struct amber_script *s, const cJSON *declared, char *missing, size_t size)
{
    struct ray_needs n = ray_needs_of(s);
    if (!n.pipeline && !n.structures)
        return true;
    const char *what = n.pipeline ? "a ray_tracing PIPELINE" : "an ACCELERATION_STRUCTURE";
    const char *lacks = NULL;
    if (n.pipeline && !declared_has_extension(declared, "VK_KHR_ray_tracing_pipeline"))
        lacks = "VK_KHR_ray_tracing_pipeline is not exposed";
    else if (n.pipeline && !declared_feature(declared, rt_pipeline_structs, "rayTracingPipeline"))
        lacks = "RayTracingPipelineFeaturesKHR.rayTracingPipeline is not declared";
    else if (!declared_has_extension(declared, "VK_KHR_acceleration_structure"))
        lacks = "VK_KHR_acceleration_structure is not exposed";
    else if (!declared_feature(declared, as_structs, "accelerationStructure"))
        lacks = "AccelerationStructureFeaturesKHR.accelerationStructure is not declared";
    else if (!declared_feature(declared, bda_structs, "bufferDeviceAddress"))
        lacks = "BufferDeviceAddressFeatures.bufferDeviceAddress is not declared";
    else if (!declared_has_extension(declared, "VK_KHR_deferred_host_operations"))
        lacks = "VK_KHR_deferred_host_operations is not exposed";
    else if (n.libraries && !declared_has_extension(declared, "VK_KHR_pipeline_library"))
        lacks = "VK_KHR_pipeline_library is not exposed (FLAGS LIBRARY)";
    if (lacks == NULL)
        return true;
    snprintf(missing, size, "line %u: %s needs ray tracing: %s", n.line, what, lacks);
    return false;
}

/* Core features a pipeline's own state needs, whether or not the file names them with
 * DEVICE_FEATURE (Amber's files often do not): `why` says which state. */
struct implied_feature {
    const char *feature, *why;
    const struct amber_pipeline *pipeline;
};

static uint32_t implied_features(const struct amber_script *s, struct implied_feature *out, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->pipeline_count && n + 7 <= max; ++i) {
        const struct amber_pipeline *pl = &s->pipelines[i];
        if (pl->depth.bounds)
            out[n++] = (struct implied_feature){"depthBounds", "DEPTH ... BOUNDS", pl};
        if (pl->depth.clamp)
            out[n++] = (struct implied_feature){"depthClamp", "DEPTH ... CLAMP on", pl};
        if (pl->depth.bias && pl->depth.bias_clamp != 0.0f)
            out[n++] = (struct implied_feature){"depthBiasClamp", "DEPTH ... BIAS clamp", pl};
        if (pl->polygon_mode != VK_POLYGON_MODE_FILL)
            out[n++] = (struct implied_feature){"fillModeNonSolid", "POLYGON_MODE line or point", pl};
        /* attachments that cannot blend (integer formats) blend differently from the rest */
        if (pl->blend.enable && pl->color_count > 1)
            out[n++] = (struct implied_feature){"independentBlend", "BLEND over several colour attachments", pl};
        for (uint32_t k = 0; k < pl->shader_count; ++k) {
            enum amber_stage stage = pl->shaders[k].stage;
            if (stage == AMBER_STAGE_GEOMETRY)
                out[n++] = (struct implied_feature){"geometryShader", "a geometry shader", pl};
            if (stage == AMBER_STAGE_TESSELLATION_CONTROL)
                out[n++] = (struct implied_feature){"tessellationShader", "tessellation shaders", pl};
        }
    }
    return n;
}

bool amber_script_declared(const struct amber_script *s, const cJSON *declared, char *missing, size_t size)
{
    if (uses_uint8_indices(s) && !declared_feature(declared, uint8_index_structs, "indexTypeUint8")) {
        snprintf(missing, size, "INDEX_DATA of uint8 needs VkPhysicalDeviceIndexTypeUint8FeaturesEXT.indexTypeUint8");
        return false;
    }
    for (uint32_t i = 0; i < s->requirement_count; ++i) {
        const struct amber_requirement *r = &s->requirements[i];
        const struct amber_feature *f = NULL;
        switch (r->kind) {
        case AMBER_REQUIRE_FEATURE:
            if (amber_feature_lookup(r->name, &f) != AMBER_FEATURE_KNOWN || !feature_declared(f, declared)) {
                snprintf(missing, size, "line %u: DEVICE_FEATURE %s is not declared", r->where.line, r->name);
                return false;
            }
            break;
        case AMBER_REQUIRE_EXTENSION:
            if (!declared_has_extension(declared, r->name)) {
                snprintf(missing, size, "line %u: DEVICE_EXTENSION %s is not exposed", r->where.line, r->name);
                return false;
            }
            break;
        case AMBER_REQUIRE_INSTANCE_EXTENSION:
            if (!instance_extension_available(r->name)) {
                snprintf(missing, size, "line %u: INSTANCE_EXTENSION %s is not enabled by the probe's instance",
                         r->where.line, r->name);
                return false;
            }
            break;
        case AMBER_REQUIRE_PROPERTY:
            if (!property_declared(declared, r->name)) {
                snprintf(missing, size, "line %u: DEVICE_PROPERTY %s is not declared", r->where.line, r->name);
                return false;
            }
            break;
        }
    }
    struct implied_feature implied[64];
    uint32_t implied_count = implied_features(s, implied, 64);
    for (uint32_t i = 0; i < implied_count; ++i) {
        const struct amber_feature *f = NULL;
        amber_feature_lookup(implied[i].feature, &f);
        if (!feature_declared(f, declared)) {
            snprintf(missing, size, "line %u: PIPELINE %s: %s needs VkPhysicalDeviceFeatures.%s",
                     implied[i].pipeline->where.line, implied[i].pipeline->name, implied[i].why, implied[i].feature);
            return false;
        }
    }
    if (!ray_tracing_declared(s, declared, missing, size))
        return false;
    bool graphics = false;
    for (uint32_t i = 0; i < s->pipeline_count; ++i) {
        graphics = graphics || s->pipelines[i].type == AMBER_PIPELINE_GRAPHICS;
        if (!pipeline_formats_declared(s, &s->pipelines[i], declared, missing, size))
            return false;
    }
    if (graphics && !declared_queue_flag(declared, "VK_QUEUE_GRAPHICS_BIT")) {
        snprintf(missing, size, "a graphics PIPELINE needs a queue family with VK_QUEUE_GRAPHICS_BIT");
        return false;
    }
    if (s->pipeline_count > 0 && !declared_queue_flag(declared, "VK_QUEUE_COMPUTE_BIT") &&
        !declared_queue_flag(declared, "VK_QUEUE_GRAPHICS_BIT")) {
        snprintf(missing, size, "no queue family declares VK_QUEUE_COMPUTE_BIT");
        return false;
    }
    return true;
}

/* The extension a feature struct is enabled with: the KHR one an EXT extension was promoted to
 * where the device has it (VK_KHR_depth_clamp_zero_one's clamping is what the CTS's files test, and
 * the CTS enables it first), else the one named; NULL when the device has neither. */
static const char *promoted_extension(const cJSON *declared, const char *name)
{
    static const char *const promoted[][2] = {
        {"VK_EXT_depth_clamp_zero_one", "VK_KHR_depth_clamp_zero_one"},
        {"VK_EXT_index_type_uint8", "VK_KHR_index_type_uint8"},
    };
    for (size_t i = 0; i < sizeof(promoted) / sizeof(promoted[0]); ++i)
        if (strcmp(name, promoted[i][0]) == 0 && declared_has_extension(declared, promoted[i][1]))
            return promoted[i][1];
    return declared_has_extension(declared, name) ? name : NULL;
}

static void add_extension(struct gpu_options *options, const char *name)
{
    if (name == NULL)
        return;
    for (int i = 0; i < GPU_MAX_EXTENSIONS - 1; ++i) {
        if (options->extensions[i] == NULL) {
            options->extensions[i] = name;
            return;
        }
        if (strcmp(options->extensions[i], name) == 0)
            return;
    }
}

void amber_script_device_options(const struct amber_script *s, const cJSON *declared, struct gpu_options *options,
                                 struct smoke_device_features *storage)
{
    struct gpu_options mine;
    struct smoke_device_features mine_storage;
    memset(&mine, 0, sizeof(mine));
    memset(&mine_storage, 0, sizeof(mine_storage));
    for (uint32_t i = 0; i < s->requirement_count; ++i) {
        const struct amber_requirement *r = &s->requirements[i];
        const struct amber_feature *f = NULL;
        if (r->kind == AMBER_REQUIRE_EXTENSION && declared_has_extension(declared, r->name))
            add_extension(&mine, r->name);
        if (r->kind != AMBER_REQUIRE_FEATURE || amber_feature_lookup(r->name, &f) != AMBER_FEATURE_KNOWN ||
            !feature_declared(f, declared))
            continue;
        if (f->kind == AMBER_FEATURE_KIND_CORE) {
            *(VkBool32 *)((char *)&mine.core + f->member_offset) = VK_TRUE;
        } else if (f->kind == AMBER_FEATURE_KIND_STRUCT) {
            char *base = (char *)&mine_storage + f->storage_offset;
            ((VkBaseOutStructure *)base)->sType = f->type;
            *(VkBool32 *)(base + f->member_offset) = VK_TRUE;
            if (f->extension != NULL)
                add_extension(&mine, promoted_extension(declared, f->extension));
        }
    }
    struct implied_feature implied[64];
    uint32_t implied_count = implied_features(s, implied, 64);
    for (uint32_t i = 0; i < implied_count; ++i) {
        const struct amber_feature *f = NULL;
        if (amber_feature_lookup(implied[i].feature, &f) == AMBER_FEATURE_KNOWN && feature_declared(f, declared))
            *(VkBool32 *)((char *)&mine.core + f->member_offset) = VK_TRUE;
    }
    struct ray_needs ray = ray_needs_of(s);
    if (ray.pipeline || ray.structures) {
        mine_storage.buffer_device_address.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES;
        mine_storage.buffer_device_address.bufferDeviceAddress = VK_TRUE;
        mine_storage.acceleration_structure.sType =
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR;
        mine_storage.acceleration_structure.accelerationStructure = VK_TRUE;
        add_extension(&mine, "VK_KHR_acceleration_structure");
        add_extension(&mine, "VK_KHR_deferred_host_operations");
        /* promoted to Vulkan 1.2; named for devices of 1.1 that have them */
        const char *promoted[] = {"VK_KHR_buffer_device_address", "VK_KHR_spirv_1_4", "VK_KHR_shader_float_controls",
                                  "VK_EXT_descriptor_indexing"};
        for (size_t i = 0; i < sizeof(promoted) / sizeof(promoted[0]); ++i)
            if (declared_has_extension(declared, promoted[i]))
                add_extension(&mine, promoted[i]);
    }
    if (ray.pipeline) {
        mine_storage.ray_tracing_pipeline.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR;
        mine_storage.ray_tracing_pipeline.rayTracingPipeline = VK_TRUE;
        add_extension(&mine, "VK_KHR_ray_tracing_pipeline");
    }
    if (ray.libraries)
        add_extension(&mine, "VK_KHR_pipeline_library");
    if (uses_uint8_indices(s)) {
        mine_storage.index_type_uint8.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_INDEX_TYPE_UINT8_FEATURES_EXT;
        mine_storage.index_type_uint8.indexTypeUint8 = VK_TRUE;
        add_extension(&mine, "VK_EXT_index_type_uint8");
    }
    smoke_options_merge(options, storage, &mine, &mine_storage);
}

bool amber_script_needs_own_device(const struct amber_script *s)
{
    /* extensions whose mere enabling changes defined behaviour for every pipeline of the device */
    static const char *const changing[] = {"VK_EXT_depth_range_unrestricted"};
    for (uint32_t i = 0; s != NULL && i < s->requirement_count; ++i)
        for (size_t k = 0; k < sizeof(changing) / sizeof(changing[0]); ++k)
            if (s->requirements[i].kind == AMBER_REQUIRE_EXTENSION && strcmp(s->requirements[i].name, changing[k]) == 0)
                return true;
    return false;
}
