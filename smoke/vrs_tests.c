/* vrs.*: which fragment shading rates a device really applies (VK_KHR_fragment_shading_rate).
 * A full-screen triangle into a 64x64 R32_UINT target; the fragment shader writes the rate it
 * ran at (gl_ShadingRateEXT) and counts its invocations. The readback is judged by vrs_verdict.c:
 * drivers that silently fall back to 1x1 get `not_applied`, not `pass`. */
#include <stdio.h>
#include <string.h>

#include "artifacts.h"
#include "declared_query.h"
#include "graphics.h"
#include "json_path.h"
#include "power.h"
#include "smoke.h"
#include "signals.h"
#include "smoke_spirv.h"
#include "timing.h"
#include "vrs_tests.h"
#include "vrs_verdict.h"

#define TARGET_SIZE 64u
#define TARGET_TEXELS (TARGET_SIZE * TARGET_SIZE)

enum vrs_mode { VRS_PIPELINE, VRS_DYNAMIC, VRS_PRIMITIVE, VRS_ATTACHMENT, VRS_RATES_LIST };

struct vrs_case {
    enum vrs_mode mode;
    uint32_t width, height; /* the requested rate (2x2 for dynamic, primitive and attachment) */
    const char *feature;    /* the VkPhysicalDeviceFragmentShadingRateFeaturesKHR member it needs */
};

static const char *const fsr_features[] = {"VkPhysicalDeviceFragmentShadingRateFeaturesKHR", NULL};
static const char *const dynamic_rendering_features[] = {"VkPhysicalDeviceDynamicRenderingFeatures",
                                                         "VkPhysicalDeviceVulkan13Features", NULL};
static const char *const core_features[] = {"VkPhysicalDeviceFeatures", NULL};

static bool rate_listed(const cJSON *declared, uint32_t width, uint32_t height)
{
    const cJSON *rate;
    cJSON_ArrayForEach(rate, cJSON_GetObjectItemCaseSensitive(declared, "fragmentShadingRates"))
    {
        if (json_path_get(rate, "fragmentSize/width")->valuedouble == width &&
            json_path_get(rate, "fragmentSize/height")->valuedouble == height &&
            declared_flag(rate, "sampleCounts", "VK_SAMPLE_COUNT_1_BIT"))
            return true;
    }
    return false;
}

static bool declares_vrs(const cJSON *declared, const void *param, char *reason, size_t size)
{
    const struct vrs_case *c = param;
    if (!declared_has_extension(declared, "VK_KHR_fragment_shading_rate"))
        return smoke_missing(reason, size, "VK_KHR_fragment_shading_rate not exposed");
    if (c->mode == VRS_RATES_LIST)
        return true;
    if (!declared_feature(declared, fsr_features, c->feature))
        return smoke_missing(reason, size, "VkPhysicalDeviceFragmentShadingRateFeaturesKHR.%s not declared",
                             c->feature);
    if (!declared_feature(declared, dynamic_rendering_features, "dynamicRendering"))
        return smoke_missing(reason, size, "dynamicRendering not declared (the test renders with dynamic rendering)");
    if (!declared_feature(declared, core_features, "fragmentStoresAndAtomics"))
        return smoke_missing(reason, size, "fragmentStoresAndAtomics not declared (the shader counts its invocations)");
    if (!declared_flag(declared, "formats/VK_FORMAT_R32_UINT/VkFormatProperties/optimalTilingFeatures",
                       "VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT"))
        return smoke_missing(reason, size, "VK_FORMAT_R32_UINT is not a color attachment format");
    if ((c->mode == VRS_PIPELINE || c->mode == VRS_DYNAMIC) && !rate_listed(declared, c->width, c->height))
        return smoke_missing(reason, size, "%ux%u is not in vkGetPhysicalDeviceFragmentShadingRatesKHR for 1 sample",
                             c->width, c->height);
    if (c->mode == VRS_ATTACHMENT &&
        !declared_flag(declared, "formats/VK_FORMAT_R8_UINT/VkFormatProperties/optimalTilingFeatures",
                       "VK_FORMAT_FEATURE_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR"))
        return smoke_missing(reason, size, "VK_FORMAT_R8_UINT lacks FRAGMENT_SHADING_RATE_ATTACHMENT (optimal tiling)");
    return true;
}

static void vrs_options(const cJSON *declared, const void *param, struct gpu_options *options,
                        struct smoke_device_features *f)
{
    const struct vrs_case *c = param;
    options->extensions[0] = "VK_KHR_fragment_shading_rate";
    options->extensions[1] = "VK_KHR_dynamic_rendering";
    options->extensions[2] = "VK_KHR_create_renderpass2";
    options->core.fragmentStoresAndAtomics = VK_TRUE;
    options->core.pipelineStatisticsQuery =
        json_path_true(declared, "features/VkPhysicalDeviceFeatures/pipelineStatisticsQuery");
    f->dynamic_rendering.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES;
    f->dynamic_rendering.dynamicRendering = VK_TRUE;
    f->fragment_shading_rate.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_FEATURES_KHR;
    f->fragment_shading_rate.pNext = &f->dynamic_rendering;
    f->fragment_shading_rate.pipelineFragmentShadingRate =
        c->mode == VRS_PIPELINE || c->mode == VRS_DYNAMIC || c->mode == VRS_PRIMITIVE || c->mode == VRS_ATTACHMENT;
    f->fragment_shading_rate.primitiveFragmentShadingRate = c->mode == VRS_PRIMITIVE;
    f->fragment_shading_rate.attachmentFragmentShadingRate = c->mode == VRS_ATTACHMENT;
    options->features_chain = &f->fragment_shading_rate;
}

/* The properties that explain downgrades to 1x1 on real devices, copied into the evidence. */
static void add_downgrade_properties(const cJSON *declared, cJSON *evidence)
{
    static const char *const names[] = {
        "fragmentShadingRateWithShaderDepthStencilWrites", "fragmentShadingRateWithSampleMask",
        "fragmentShadingRateWithShaderSampleMask",         "fragmentShadingRateWithConservativeRasterization",
        "fragmentShadingRateWithFragmentShaderInterlock",  "fragmentShadingRateWithCustomSampleLocations",
        "fragmentShadingRateNonTrivialCombinerOps"};
    cJSON *p = cJSON_AddObjectToObject(evidence, "declared_properties");
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i) {
        char path[160];
        snprintf(path, sizeof(path), "properties/VkPhysicalDeviceFragmentShadingRatePropertiesKHR/%s", names[i]);
        cJSON_AddBoolToObject(p, names[i], json_path_true(declared, path));
    }
}

/* The shading-rate image: left half of its texels 2x2, right half 1x1 (all 2x2 if it has one column). */
struct rate_image {
    struct gpu_image *image;
    uint32_t texel_width, texel_height, columns, rows;
};

static bool texel_is_coarse(const struct rate_image *r, uint32_t x)
{
    uint32_t column = x / r->texel_width;
    return r->columns < 2 || column < r->columns / 2;
}

static void upload_rate_image(struct gpu *gpu, struct rate_image *r)
{
    VkPhysicalDeviceFragmentShadingRatePropertiesKHR fsr = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADING_RATE_PROPERTIES_KHR};
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &fsr};
    vkGetPhysicalDeviceProperties2(gpu->physical, &properties);
    r->texel_width = fsr.minFragmentShadingRateAttachmentTexelSize.width;
    r->texel_height = fsr.minFragmentShadingRateAttachmentTexelSize.height;
    if (r->texel_width == 0 || r->texel_height == 0) {
        gpu_check(gpu, VK_ERROR_FEATURE_NOT_PRESENT, "minFragmentShadingRateAttachmentTexelSize is 0");
        return;
    }
    r->columns = (TARGET_SIZE + r->texel_width - 1) / r->texel_width;
    r->rows = (TARGET_SIZE + r->texel_height - 1) / r->texel_height;
    r->image =
        gpu_image_create(gpu, VK_FORMAT_R8_UINT, r->columns, r->rows,
                         VK_IMAGE_USAGE_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    struct gpu_buffer *staging = gpu_buffer_create(gpu, (VkDeviceSize)r->columns * r->rows, 0);
    if (gpu_failed(gpu))
        return;
    uint8_t *codes = staging->mapped;
    for (uint32_t y = 0; y < r->rows; ++y)
        for (uint32_t x = 0; x < r->columns; ++x)
            codes[y * r->columns + x] = (uint8_t)(texel_is_coarse(r, x * r->texel_width) ? vrs_rate_code(2, 2) : 0);
    gpu_image_layout(gpu, r->image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0, VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy region = {
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .imageExtent = {r->columns, r->rows, 1},
    };
    vkCmdCopyBufferToImage(gpu->cmd, staging->buffer, r->image->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                           &region);
    gpu_image_layout(gpu, r->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_IMAGE_LAYOUT_FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL_KHR, VK_PIPELINE_STAGE_TRANSFER_BIT,
                     VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR,
                     VK_ACCESS_FRAGMENT_SHADING_RATE_ATTACHMENT_READ_BIT_KHR);
}

/* What each target texel should report, and how many invocations that makes. */
static uint32_t expected_layout(const struct vrs_case *c, const struct rate_image *r, uint8_t *expected)
{
    uint32_t invocations = 0;
    if (c->mode == VRS_ATTACHMENT) {
        uint32_t coarse_columns = 0;
        for (uint32_t x = 0; x < TARGET_SIZE; ++x)
            coarse_columns += texel_is_coarse(r, x);
        for (uint32_t y = 0; y < TARGET_SIZE; ++y)
            for (uint32_t x = 0; x < TARGET_SIZE; ++x)
                expected[y * TARGET_SIZE + x] = (uint8_t)(texel_is_coarse(r, x) ? vrs_rate_code(2, 2) : 0);
        return (coarse_columns / 2) * (TARGET_SIZE / 2) + (TARGET_SIZE - coarse_columns) * TARGET_SIZE;
    }
    memset(expected, (int)vrs_rate_code(c->width, c->height), TARGET_TEXELS);
    invocations = (TARGET_SIZE / c->width) * (TARGET_SIZE / c->height);
    return invocations;
}

static void check_rates_list(const cJSON *declared, struct smoke_outcome *out)
{
    const cJSON *rates = cJSON_GetObjectItemCaseSensitive(declared, "fragmentShadingRates");
    uint32_t count = 0, previous_w = 0, previous_h = 0, misordered = 0, duplicates = 0;
    const cJSON *rate;
    cJSON_ArrayForEach(rate, rates)
    {
        uint32_t w = (uint32_t)json_path_get(rate, "fragmentSize/width")->valuedouble;
        uint32_t h = (uint32_t)json_path_get(rate, "fragmentSize/height")->valuedouble;
        /* The spec orders the list by width, largest first, then by height, largest first. */
        if (count > 0 && (w > previous_w || (w == previous_w && h > previous_h)))
            ++misordered;
        if (count > 0 && w == previous_w && h == previous_h)
            ++duplicates;
        previous_w = w;
        previous_h = h;
        ++count;
    }
    static const uint32_t required[][2] = {{1, 1}, {1, 2}, {2, 1}, {2, 2}};
    cJSON *missing = cJSON_CreateArray();
    for (size_t i = 0; i < 4; ++i) {
        if (!rate_listed(declared, required[i][0], required[i][1])) {
            char name[16];
            snprintf(name, sizeof(name), "%ux%u", required[i][0], required[i][1]);
            cJSON_AddItemToArray(missing, cJSON_CreateString(name));
        }
    }
    cJSON_AddNumberToObject(out->evidence, "rates", count);
    cJSON_AddNumberToObject(out->evidence, "out_of_order", misordered);
    cJSON_AddNumberToObject(out->evidence, "duplicates", duplicates);
    cJSON_AddItemToObject(out->evidence, "required_rates_missing", missing);
    cJSON_AddItemToObject(
        out->evidence, "features",
        cJSON_Duplicate(json_path_get(declared, "features/VkPhysicalDeviceFragmentShadingRateFeaturesKHR"), 1));
    if (count == 0)
        smoke_set(out, VERDICT_FAIL, "vkGetPhysicalDeviceFragmentShadingRatesKHR returned no rates");
    else if (misordered || duplicates || cJSON_GetArraySize(missing) > 0)
        smoke_set(out, VERDICT_FAIL,
                  "the rates list has %u entries out of order, %u duplicates and %d required rates "
                  "missing",
                  misordered, duplicates, cJSON_GetArraySize(missing));
}

/* Timing: a fragment-heavy pass (heavy.frag) over a HEAVY_SIZE square, at 1x1 and at the test's
 * rate set the test's way. A rate that is applied should cost about 1/(w*h) of 1x1; one that
 * costs the same is flagged (evidence, not a verdict: the readback decides). */
#define HEAVY_SIZE 512u
#define TIMED_SAMPLES 5u

static struct gpu_pipeline *heavy_pipeline(struct gpu *gpu, const struct vrs_case *c, bool baseline,
                                           const VkPipelineFragmentShadingRateStateCreateInfoKHR *rate_state)
{
    static const VkDescriptorType bindings[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    bool primitive = !baseline && c->mode == VRS_PRIMITIVE;
    struct graphics_pipeline_desc desc = {
        .stage_code = {primitive ? smoke_spirv_fullscreen_primitive_rate : smoke_spirv_fullscreen,
                       smoke_spirv_heavy_frag},
        .stage_size = {primitive ? smoke_spirv_fullscreen_primitive_rate_size : smoke_spirv_fullscreen_size,
                       smoke_spirv_heavy_frag_size},
        .stages = {VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT},
        .stage_count = 2,
        .color_format = VK_FORMAT_R32_UINT,
        .bindings = bindings,
        .binding_count = 1,
        .create_next = baseline ? NULL : rate_state,
        .extra_dynamic_state = !baseline && c->mode == VRS_DYNAMIC ? VK_DYNAMIC_STATE_FRAGMENT_SHADING_RATE_KHR : 0,
    };
    return graphics_pipeline_create(gpu, &desc);
}

/* One pass of the timed work: the heavy scope at 1x1 (baseline) or at the test's rate. */
struct heavy_passes {
    const struct vrs_case *c;
    struct graphics_target *target;
    struct gpu_pipeline *pipelines[2];
};

static void record_heavy(struct gpu *gpu, void *context, bool feature)
{
    const struct heavy_passes *h = context;
    VkClearColorValue clear = {.uint32 = {0, 0, 0, 0}};
    graphics_begin(gpu, h->target, clear, NULL, h->pipelines[feature]);
    if (!gpu_failed(gpu)) {
        if (feature && h->c->mode == VRS_DYNAMIC) {
            VkExtent2D size = {h->c->width, h->c->height};
            VkFragmentShadingRateCombinerOpKHR ops[2] = {VK_FRAGMENT_SHADING_RATE_COMBINER_OP_KEEP_KHR,
                                                         VK_FRAGMENT_SHADING_RATE_COMBINER_OP_KEEP_KHR};
            vkCmdSetFragmentShadingRateKHR(gpu->cmd, &size, ops);
        }
        vkCmdDraw(gpu->cmd, 3, 1, 0, 0);
    }
    graphics_end(gpu, h->target);
}

static void between_heavy(struct gpu *gpu, void *context)
{
    (void)context;
    graphics_between_scopes(gpu);
}

static void time_vrs(struct gpu *gpu, const struct vrs_case *c,
                     const VkPipelineFragmentShadingRateStateCreateInfoKHR *rate_state, struct gpu_buffer *counter,
                     struct smoke_outcome *out, bool *timed, struct power_signal *power)
{
    *timed = false;
    if (c->mode == VRS_ATTACHMENT) {
        cJSON_AddStringToObject(out->evidence, "gpu_timing_unavailable",
                                "not timed: the shading-rate image is sized for the 64x64 readback target");
        power_not_sampled(power, "not sampled: the test times no pass (its shading-rate image is sized for the "
                                 "64x64 readback target)");
        return;
    }
    struct gpu_timing timing;
    if (!timing_create(gpu, &timing, TIMED_SAMPLES * 2)) {
        cJSON_AddStringToObject(out->evidence, "gpu_timing_unavailable", timing.unavailable);
        power_not_sampled(power, "not sampled: no timed pass (%s)", timing.unavailable);
        return;
    }
    struct graphics_target target;
    graphics_target_create(gpu, &target, VK_FORMAT_R32_UINT, HEAVY_SIZE, HEAVY_SIZE, sizeof(uint32_t));
    struct heavy_passes passes = {
        .c = c,
        .target = &target,
        .pipelines = {heavy_pipeline(gpu, c, true, NULL), heavy_pipeline(gpu, c, false, rate_state)}};
    for (int k = 0; k < 2; ++k)
        if (passes.pipelines[k] != NULL)
            gpu_bind_buffer(gpu, passes.pipelines[k], 0, counter);
    gpu_begin(gpu);
    timing_reset(gpu, &timing);
    for (uint32_t s = 0; s < TIMED_SAMPLES * 2 && !gpu_failed(gpu); ++s) {
        if (s > 0)
            between_heavy(gpu, &passes);
        timing_begin(gpu, &timing, s);
        record_heavy(gpu, &passes, s >= TIMED_SAMPLES);
        timing_end(gpu, &timing, s);
    }
    gpu_submit_and_wait(gpu);
    double durations[TIMED_SAMPLES * 2];
    if (!timing_read(gpu, &timing, durations)) {
        cJSON_AddStringToObject(out->evidence, "evidence_error", gpu->error_call);
        power_not_sampled(power, "not sampled: the timed passes failed (%s)", gpu->error_call);
        return;
    }
    char what[96];
    snprintf(what, sizeof(what), "a fragment-heavy %ux%u pass at %ux%u", HEAVY_SIZE, HEAVY_SIZE, c->width, c->height);
    cJSON *comparison =
        timing_comparison(what, "the same pass at 1x1", durations, durations + TIMED_SAMPLES, TIMED_SAMPLES);
    double ratio = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(comparison, "ratio"));
    cJSON_AddNumberToObject(comparison, "ratio_if_applied", 1.0 / (c->width * c->height));
    if (c->width * c->height > 1)
        cJSON_AddBoolToObject(comparison, "costs_like_1x1", ratio > 0.9);
    cJSON_AddItemToObject(out->evidence, "gpu_timing", comparison);
    *timed = true;
    /* every VRS test's baseline is this same pass at 1x1: a worker measures its energy once */
    struct power_work work = {
        .what = what,
        .baseline_key = "vrs: the fragment-heavy 512x512 pass at 1x1",
        .record = record_heavy,
        .between = between_heavy,
        .context = &passes,
        .pass_ns = {timing_median(durations, TIMED_SAMPLES), timing_median(durations + TIMED_SAMPLES, TIMED_SAMPLES)},
    };
    power_measure(gpu, &work, out->evidence, power);
    if (gpu_failed(gpu)) /* the verdict stands on the readback; the evidence says what stopped */
        cJSON_AddStringToObject(out->evidence, "evidence_error", gpu->error_call);
}

/* The observed rate per texel, one colour per rate (the map the readback was judged on). */
static const struct artifact_palette rate_colours[] = {
    {0, {40, 40, 48}},   {1, {70, 110, 220}}, {2, {60, 170, 230}}, {4, {80, 200, 110}},  {5, {230, 200, 60}},
    {6, {240, 140, 50}}, {8, {170, 230, 90}}, {9, {230, 90, 60}},  {10, {200, 60, 160}}, {0xFFu, {255, 255, 255}},
};

static void run_vrs(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    const struct vrs_case *c = param;
    const cJSON *declared = gpu->declared;
    if (c->mode == VRS_RATES_LIST) {
        check_rates_list(declared, out);
        return;
    }
    static const VkDescriptorType bindings[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    bool statistics = json_path_true(declared, "features/VkPhysicalDeviceFeatures/pipelineStatisticsQuery");
    struct graphics_target target;
    graphics_target_create(gpu, &target, VK_FORMAT_R32_UINT, TARGET_SIZE, TARGET_SIZE, sizeof(uint32_t));
    struct gpu_buffer *counter = gpu_buffer_create(gpu, sizeof(uint32_t), 0);

    VkFragmentShadingRateCombinerOpKHR keep = VK_FRAGMENT_SHADING_RATE_COMBINER_OP_KEEP_KHR;
    VkFragmentShadingRateCombinerOpKHR replace = VK_FRAGMENT_SHADING_RATE_COMBINER_OP_REPLACE_KHR;
    VkPipelineFragmentShadingRateStateCreateInfoKHR rate_state = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_FRAGMENT_SHADING_RATE_STATE_CREATE_INFO_KHR,
        .fragmentSize = {c->mode == VRS_PIPELINE ? c->width : 1, c->mode == VRS_PIPELINE ? c->height : 1},
        .combinerOps = {c->mode == VRS_PRIMITIVE ? replace : keep, c->mode == VRS_ATTACHMENT ? replace : keep},
    };
    struct graphics_pipeline_desc desc = {
        .stage_code = {c->mode == VRS_PRIMITIVE ? smoke_spirv_fullscreen_primitive_rate : smoke_spirv_fullscreen,
                       smoke_spirv_shading_rate_frag},
        .stage_size = {c->mode == VRS_PRIMITIVE ? smoke_spirv_fullscreen_primitive_rate_size
                                                : smoke_spirv_fullscreen_size,
                       smoke_spirv_shading_rate_frag_size},
        .stages = {VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT},
        .stage_count = 2,
        .color_format = VK_FORMAT_R32_UINT,
        .bindings = bindings,
        .binding_count = 1,
        .create_next = &rate_state,
        .extra_dynamic_state = c->mode == VRS_DYNAMIC ? VK_DYNAMIC_STATE_FRAGMENT_SHADING_RATE_KHR : 0,
        .flags = c->mode == VRS_ATTACHMENT ? VK_PIPELINE_CREATE_RENDERING_FRAGMENT_SHADING_RATE_ATTACHMENT_BIT_KHR : 0,
    };
    struct gpu_pipeline *p = graphics_pipeline_create(gpu, &desc);
    gpu_bind_buffer(gpu, p, 0, counter);

    VkQueryPool pool = VK_NULL_HANDLE;
    if (statistics && !gpu_failed(gpu)) {
        VkQueryPoolCreateInfo pool_info = {
            .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
            .queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS,
            .queryCount = 1,
            .pipelineStatistics = VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT,
        };
        if (GPU_CHECK(gpu, vkCreateQueryPool(gpu->device, &pool_info, NULL, &pool)))
            gpu->query_pools[gpu->query_pool_count++] = pool;
    }

    struct rate_image rate_image = {0};
    gpu_begin(gpu);
    if (c->mode == VRS_ATTACHMENT)
        upload_rate_image(gpu, &rate_image);
    if (pool != VK_NULL_HANDLE)
        vkCmdResetQueryPool(gpu->cmd, pool, 0, 1);
    VkRenderingFragmentShadingRateAttachmentInfoKHR attachment_info = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_FRAGMENT_SHADING_RATE_ATTACHMENT_INFO_KHR,
        .imageView = rate_image.image ? rate_image.image->view : VK_NULL_HANDLE,
        .imageLayout = VK_IMAGE_LAYOUT_FRAGMENT_SHADING_RATE_ATTACHMENT_OPTIMAL_KHR,
        .shadingRateAttachmentTexelSize = {rate_image.texel_width, rate_image.texel_height},
    };
    VkClearColorValue clear = {.uint32 = {0xFFFFFFFFu, 0, 0, 0}};
    graphics_begin(gpu, &target, clear, c->mode == VRS_ATTACHMENT ? &attachment_info : NULL, p);
    if (!gpu_failed(gpu)) {
        if (c->mode == VRS_DYNAMIC) {
            VkExtent2D size = {c->width, c->height};
            VkFragmentShadingRateCombinerOpKHR ops[2] = {keep, keep};
            vkCmdSetFragmentShadingRateKHR(gpu->cmd, &size, ops);
        }
        if (pool != VK_NULL_HANDLE)
            vkCmdBeginQuery(gpu->cmd, pool, 0, 0);
        vkCmdDraw(gpu->cmd, 3, 1, 0, 0);
        if (pool != VK_NULL_HANDLE)
            vkCmdEndQuery(gpu->cmd, pool, 0);
    }
    graphics_end(gpu, &target);
    gpu_submit_and_wait(gpu);
    uint64_t statistic = 0;
    if (pool != VK_NULL_HANDLE)
        GPU_CHECK(gpu, vkGetQueryPoolResults(gpu->device, pool, 0, 1, sizeof(statistic), &statistic, sizeof(statistic),
                                             VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    if (smoke_gpu_failed(gpu, out))
        return;

    uint8_t expected[TARGET_TEXELS];
    struct vrs_readback readback = {
        .observed = gpu_readback(gpu, target.readback),
        .expected = expected,
        .texels = TARGET_TEXELS,
        .invocations = *(const uint32_t *)counter->mapped,
        .expected_invocations = expected_layout(c, &rate_image, expected),
    };
    char requested[16];
    vrs_rate_name(vrs_rate_code(c->width, c->height), requested, sizeof(requested));
    cJSON_AddStringToObject(out->evidence, "requested", requested);
    if (c->mode == VRS_ATTACHMENT) {
        cJSON_AddItemToObject(
            out->evidence, "attachment_texel_size",
            cJSON_CreateIntArray((const int[]){(int)rate_image.texel_width, (int)rate_image.texel_height}, 2));
        cJSON_AddStringToObject(out->evidence, "layout",
                                "2x2 in the left half of the shading-rate image, 1x1 in the right");
    }
    out->status = vrs_judge(&readback, out->evidence, out->reason, sizeof(out->reason));
    if (pool != VK_NULL_HANDLE) {
        /* Implementations may count helper invocations here, so this is evidence, not a verdict. */
        cJSON_AddNumberToObject(out->evidence, "pipeline_statistics_fragment_invocations", (double)statistic);
    }
    add_downgrade_properties(declared, out->evidence);
    uint8_t observed[TARGET_TEXELS];
    const uint32_t *texels = readback.observed;
    for (uint32_t i = 0; i < TARGET_TEXELS; ++i)
        observed[i] = (uint8_t)(texels[i] > 0xFF ? 0xFF : texels[i]);
    bool image = artifacts_write_codes(out->evidence, "rates",
                                       "the shading rate each texel of the 64x64 target reported (gl_ShadingRateEXT): "
                                       "1x1 dark, 2x2 yellow, other rates their own colour, untouched white",
                                       TARGET_SIZE, TARGET_SIZE, observed, 1, rate_colours,
                                       sizeof(rate_colours) / sizeof(rate_colours[0]));
    bool timed = false;
    struct power_signal power;
    time_vrs(gpu, c, &rate_state, counter, out, &timed, &power);
    smoke_signals(out, &(struct signals){.readback = true,
                                         .counters = pool != VK_NULL_HANDLE,
                                         .timing = timed,
                                         .artifacts = image,
                                         .power = &power});
}

static const struct vrs_case cases[] = {
    {VRS_RATES_LIST, 1, 1, NULL},
    {VRS_PIPELINE, 1, 1, "pipelineFragmentShadingRate"},
    {VRS_PIPELINE, 1, 2, "pipelineFragmentShadingRate"},
    {VRS_PIPELINE, 1, 4, "pipelineFragmentShadingRate"},
    {VRS_PIPELINE, 2, 1, "pipelineFragmentShadingRate"},
    {VRS_PIPELINE, 2, 2, "pipelineFragmentShadingRate"},
    {VRS_PIPELINE, 2, 4, "pipelineFragmentShadingRate"},
    {VRS_PIPELINE, 4, 1, "pipelineFragmentShadingRate"},
    {VRS_PIPELINE, 4, 2, "pipelineFragmentShadingRate"},
    {VRS_PIPELINE, 4, 4, "pipelineFragmentShadingRate"},
    {VRS_DYNAMIC, 2, 2, "pipelineFragmentShadingRate"},
    {VRS_PRIMITIVE, 2, 2, "primitiveFragmentShadingRate"},
    {VRS_ATTACHMENT, 2, 2, "attachmentFragmentShadingRate"},
};

#define VRS_TEST(id, text, index)                                                                                      \
    {                                                                                                                  \
        id, "vrs", text, declares_vrs, vrs_options, run_vrs, &cases[index], SMOKE_RUNS_ALONE | SMOKE_SAMPLES_POWER     \
    }

const struct smoke_test vrs_tests[] = {
    {"vrs.rates_list", "vrs", "the rates list: sorted, no duplicates, the rates the spec requires", declares_vrs,
     vrs_options, run_vrs, &cases[0], 0},
    VRS_TEST("vrs.pipeline.1x1", "pipeline rate 1x1 applied (readback of gl_ShadingRateEXT and invocation count)", 1),
    VRS_TEST("vrs.pipeline.1x2", "pipeline rate 1x2 applied", 2),
    VRS_TEST("vrs.pipeline.1x4", "pipeline rate 1x4 applied", 3),
    VRS_TEST("vrs.pipeline.2x1", "pipeline rate 2x1 applied", 4),
    VRS_TEST("vrs.pipeline.2x2", "pipeline rate 2x2 applied", 5),
    VRS_TEST("vrs.pipeline.2x4", "pipeline rate 2x4 applied", 6),
    VRS_TEST("vrs.pipeline.4x1", "pipeline rate 4x1 applied", 7),
    VRS_TEST("vrs.pipeline.4x2", "pipeline rate 4x2 applied", 8),
    VRS_TEST("vrs.pipeline.4x4", "pipeline rate 4x4 applied", 9),
    VRS_TEST("vrs.dynamic", "2x2 set with vkCmdSetFragmentShadingRateKHR applied", 10),
    VRS_TEST("vrs.primitive", "2x2 from gl_PrimitiveShadingRateEXT with combiner REPLACE applied", 11),
    VRS_TEST("vrs.attachment", "a shading-rate image (2x2 left, 1x1 right) with combiner REPLACE applied per region",
             12),
};
const size_t vrs_test_count = sizeof(vrs_tests) / sizeof(vrs_tests[0]);
