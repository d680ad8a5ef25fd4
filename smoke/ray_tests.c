/* ray_query.* and ray_tracing_pipeline.trace: real acceleration structures, real rays, and
 * every intersection checked on the host (committed type, t, barycentrics, candidate steps).
 * The scene is acceleration.h's: a triangle in the plane z = 5, or a box from z = 5 to 6. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "acceleration.h"
#include "artifacts.h"
#include "declared_query.h"
#include "json_path.h"
#include "power.h"
#include "ray_tests.h"
#include "signals.h"
#include "smoke_spirv.h"
#include "timing.h"

enum ray_mode { RAY_QUERY_TRIANGLE, RAY_QUERY_FLOW, RAY_QUERY_AABB, RAY_TRACING_PIPELINE };

struct ray {
    float origin[3], tmin;
    float direction[3], tmax;
};

struct hit { /* ray_common.glsl */
    uint32_t committed, candidates;
    float t, u, v;
    uint32_t pad[3];
};

enum { COMMITTED_NONE = 0, COMMITTED_TRIANGLE = 1, COMMITTED_GENERATED = 2 };

/* What each ray must do against the triangle, and against the box. */
struct ray_case {
    const char *name;
    struct ray ray;
    float triangle_t, triangle_u, triangle_v; /* t < 0: must miss */
    float box_t;                              /* t < 0: must miss */
};

static const struct ray_case rays[] = {
    {"centre", {{0, 0, 0}, 0.001f, {0, 0, 1}, 100}, 5, 0.25f, 0.5f, 5},
    {"off_centre", {{0.25f, -0.5f, 1}, 0.001f, {0, 0, 1}, 100}, 4, 0.5f, 0.25f, 4},
    {"oblique", {{0, 0, 0}, 0.001f, {0.05f, 0, 1}, 100}, 5, 0.375f, 0.5f, 5},
    {"beside", {{2, 2, 0}, 0.001f, {0, 0, 1}, 100}, -1, 0, 0, -1},
    {"outside_edge", {{-0.9f, 0.9f, 0}, 0.001f, {0, 0, 1}, 100}, -1, 0, 0, 5},
    {"tmax_short", {{0, 0, 0}, 0.001f, {0, 0, 1}, 4}, -1, 0, 0, -1},
    {"away", {{0, 0, 0}, 0.001f, {0, 0, -1}, 100}, -1, 0, 0, -1},
};
#define RAY_COUNT (sizeof(rays) / sizeof(rays[0]))
#define TOLERANCE 1e-3f

struct ray_test {
    enum ray_mode mode;
};

static bool api_at_least_1_2(const cJSON *declared)
{
    return declared_number(declared, "properties/VkPhysicalDeviceProperties/apiVersion", 0) >=
           (double)VK_API_VERSION_1_2;
}

static const char *const bda_features[] = {"VkPhysicalDeviceBufferDeviceAddressFeatures",
                                           "VkPhysicalDeviceVulkan12Features", NULL};
static const char *const as_features[] = {"VkPhysicalDeviceAccelerationStructureFeaturesKHR", NULL};
static const char *const ray_query_features[] = {"VkPhysicalDeviceRayQueryFeaturesKHR", NULL};
static const char *const rt_pipeline_features[] = {"VkPhysicalDeviceRayTracingPipelineFeaturesKHR", NULL};

/* The spec links these: ray query and ray-tracing pipelines need acceleration structures, which
 * need buffer device addresses. A device that declares one without the other is reported as
 * inconsistent rather than run. */
static bool declares_ray_tracing(const cJSON *declared, const void *param, char *reason, size_t size)
{
    const struct ray_test *t = param;
    bool query = t->mode != RAY_TRACING_PIPELINE;
    const char *extension = query ? "VK_KHR_ray_query" : "VK_KHR_ray_tracing_pipeline";
    const char *feature = query ? "rayQuery" : "rayTracingPipeline";
    if (!declared_has_extension(declared, extension))
        return smoke_missing(reason, size, "%s not exposed", extension);
    if (!declared_feature(declared, query ? ray_query_features : rt_pipeline_features, feature))
        return smoke_missing(reason, size, "%s exposed but the %s feature is not declared", extension, feature);
    if (!declared_has_extension(declared, "VK_KHR_acceleration_structure") ||
        !declared_feature(declared, as_features, "accelerationStructure"))
        return smoke_missing(reason, size, "inconsistent declaration: %s without accelerationStructure", feature);
    if (!declared_feature(declared, bda_features, "bufferDeviceAddress"))
        return smoke_missing(reason, size,
                             "inconsistent declaration: accelerationStructure without bufferDeviceAddress");
    if (!api_at_least_1_2(declared))
        return smoke_missing(reason, size, "the test's shaders need Vulkan 1.2 (SPIR-V 1.5)");
    return true;
}

static void ray_options(const cJSON *declared, const void *param, struct gpu_options *options,
                        struct smoke_device_features *f)
{
    (void)declared;
    const struct ray_test *t = param;
    bool query = t->mode != RAY_TRACING_PIPELINE;
    options->extensions[0] = "VK_KHR_acceleration_structure";
    options->extensions[1] = "VK_KHR_deferred_host_operations";
    options->extensions[2] = query ? "VK_KHR_ray_query" : "VK_KHR_ray_tracing_pipeline";
    f->buffer_device_address.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES;
    f->buffer_device_address.bufferDeviceAddress = VK_TRUE;
    f->acceleration_structure.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR;
    f->acceleration_structure.accelerationStructure = VK_TRUE;
    f->acceleration_structure.pNext = &f->buffer_device_address;
    if (query) {
        f->ray_query.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR;
        f->ray_query.rayQuery = VK_TRUE;
        f->ray_query.pNext = &f->acceleration_structure;
        options->features_chain = &f->ray_query;
    } else {
        f->ray_tracing_pipeline.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR;
        f->ray_tracing_pipeline.rayTracingPipeline = VK_TRUE;
        f->ray_tracing_pipeline.pNext = &f->acceleration_structure;
        options->features_chain = &f->ray_tracing_pipeline;
    }
}

/* Compares every ray's result with the case table; adds one evidence entry per ray. */
static void judge_hits(enum ray_mode mode, const struct hit *hits, struct smoke_outcome *out)
{
    cJSON *list = cJSON_AddArrayToObject(out->evidence, "rays");
    uint32_t wrong = 0;
    const char *first_wrong = NULL;
    for (size_t i = 0; i < RAY_COUNT; ++i) {
        const struct ray_case *c = &rays[i];
        const struct hit *h = &hits[i];
        bool box = mode == RAY_QUERY_AABB;
        float expected_t = box ? c->box_t : c->triangle_t;
        bool must_hit = expected_t >= 0;
        uint32_t expected_type = !must_hit ? COMMITTED_NONE : box ? COMMITTED_GENERATED : COMMITTED_TRIANGLE;
        bool ok = h->committed == expected_type;
        if (ok && must_hit) {
            ok = fabsf(h->t - expected_t) <= TOLERANCE;
            if (!box)
                ok = ok && fabsf(h->u - c->triangle_u) <= TOLERANCE && fabsf(h->v - c->triangle_v) <= TOLERANCE;
        }
        /* Candidate steps: an opaque triangle commits without any; a non-opaque one shows exactly
         * one candidate per hit; an AABB shows at least one where the ray meets the box. */
        if (mode == RAY_QUERY_TRIANGLE)
            ok = ok && h->candidates == 0;
        else if (mode == RAY_QUERY_FLOW)
            ok = ok && h->candidates == (must_hit ? 1u : 0u);
        else if (mode == RAY_QUERY_AABB && must_hit)
            ok = ok && h->candidates >= 1;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "ray", c->name);
        cJSON_AddNumberToObject(e, "committed", h->committed);
        cJSON_AddNumberToObject(e, "expected_committed", expected_type);
        if (mode != RAY_TRACING_PIPELINE)
            cJSON_AddNumberToObject(e, "candidates", h->candidates);
        if (h->committed != COMMITTED_NONE) {
            cJSON_AddNumberToObject(e, "t", h->t);
            if (h->committed == COMMITTED_TRIANGLE) {
                cJSON_AddNumberToObject(e, "u", h->u);
                cJSON_AddNumberToObject(e, "v", h->v);
            }
        }
        cJSON_AddBoolToObject(e, "ok", ok);
        cJSON_AddItemToArray(list, e);
        if (!ok && wrong++ == 0)
            first_wrong = c->name;
    }
    if (wrong)
        smoke_set(out, VERDICT_FAIL, "%u of %zu rays gave a wrong intersection (first: %s)", wrong, RAY_COUNT,
                  first_wrong);
}

static struct gpu_buffer *upload_rays(struct gpu *gpu)
{
    struct gpu_buffer *b = gpu_buffer_create(gpu, sizeof(struct ray) * RAY_COUNT, 0);
    if (b != NULL)
        for (size_t i = 0; i < RAY_COUNT; ++i)
            ((struct ray *)b->mapped)[i] = rays[i].ray;
    return b;
}

/* The evidence beyond the verdict's seven rays: a GRID x GRID sheet of parallel rays over the
 * scene, traced TIMED_SAMPLES times toward it and as often away from it (the baseline: the same
 * launch whose rays meet nothing), timed with timestamps; the hit sheet is exported as an image. */
#define GRID 64u
#define GRID_RAYS (GRID * GRID)
#define TIMED_SAMPLES 5u

struct ray_work {
    struct gpu_pipeline *pipeline;
    VkPipelineStageFlags stage; /* where the rays are traced: compute or ray tracing */
    void (*record)(struct gpu *gpu, const struct ray_work *work, uint32_t count);
    const VkStridedDeviceAddressRegionKHR *regions; /* ray tracing pipeline: raygen, miss, hit, callable */
};

static struct gpu_buffer *upload_grid(struct gpu *gpu, bool away)
{
    struct gpu_buffer *b = gpu_buffer_create(gpu, sizeof(struct ray) * GRID_RAYS, 0);
    if (b == NULL)
        return NULL;
    for (uint32_t y = 0; y < GRID; ++y)
        for (uint32_t x = 0; x < GRID; ++x)
            ((struct ray *)b->mapped)[y * GRID + x] = (struct ray){
                .origin = {((float)x + 0.5f) / GRID * 3 - 1.5f, ((float)y + 0.5f) / GRID * 3 - 1.5f, 0},
                .tmin = 0.001f,
                .direction = {0, 0, away ? -1.0f : 1.0f},
                .tmax = 100,
            };
    return b;
}

static const struct artifact_palette hit_colours[] = {
    {COMMITTED_NONE, {32, 32, 40}}, {COMMITTED_TRIANGLE, {80, 200, 110}}, {COMMITTED_GENERATED, {80, 130, 230}}};

/* One pass of the timed work: the sheet traced away from the scene (baseline) or toward it. */
struct sheet_passes {
    const struct ray_work *work;
    struct gpu_buffer *rays[2]; /* away, toward */
    int bound;                  /* which of them the pipeline's set holds; -1: neither */
};

static void record_sheet(struct gpu *gpu, void *context, bool toward)
{
    struct sheet_passes *p = context;
    /* updating the set invalidates a recording that bound it: only ever before a command
     * buffer's first pass, since one command buffer holds passes of one direction */
    if (p->bound != (int)toward) {
        gpu_bind_buffer(gpu, p->work->pipeline, 1, p->rays[toward]);
        p->bound = toward;
    }
    p->work->record(gpu, p->work, GRID_RAYS);
}

static void between_sheets(struct gpu *gpu, void *context)
{
    const struct sheet_passes *p = context;
    /* each pass writes the same sheet */
    gpu_memory_barrier(gpu, p->work->stage, VK_ACCESS_SHADER_WRITE_BIT, p->work->stage, VK_ACCESS_SHADER_WRITE_BIT);
}

static void ray_evidence(struct gpu *gpu, const struct ray_work *work, struct smoke_outcome *out)
{
    struct sheet_passes passes = {.work = work, .rays = {upload_grid(gpu, true), upload_grid(gpu, false)}, .bound = -1};
    struct gpu_buffer *sheet = gpu_buffer_create(gpu, sizeof(struct hit) * GRID_RAYS, 0xFF);
    struct gpu_timing timing[2];
    double durations[2][TIMED_SAMPLES];
    bool timed = true;
    if (!gpu_failed(gpu))
        gpu_bind_buffer(gpu, work->pipeline, 2, sheet);
    for (int pass = 0; pass < 2 && !gpu_failed(gpu); ++pass) {
        timed = timing_create(gpu, &timing[pass], TIMED_SAMPLES) && timed;
        gpu_begin(gpu);
        timing_reset(gpu, &timing[pass]);
        for (uint32_t s = 0; s < TIMED_SAMPLES && !gpu_failed(gpu); ++s) {
            if (s > 0)
                between_sheets(gpu, &passes);
            timing_begin(gpu, &timing[pass], s);
            record_sheet(gpu, &passes, pass);
            timing_end(gpu, &timing[pass], s);
        }
        gpu_submit_and_wait(gpu);
        timed = timed && timing_read(gpu, &timing[pass], durations[pass]);
    }
    struct power_signal power;
    if (gpu_failed(gpu)) {
        /* the verdict stands on the seven rays; the extra evidence says what stopped it */
        cJSON_AddStringToObject(out->evidence, "evidence_error", gpu->error_call);
        power_not_sampled(&power, "not sampled: the timed passes failed (%s)", gpu->error_call);
        smoke_signals(out, &(struct signals){.readback = true, .power = &power});
        return;
    }
    const struct hit *hits = gpu_readback(gpu, sheet);
    uint32_t codes[GRID_RAYS], hit_count = 0;
    for (uint32_t i = 0; i < GRID_RAYS; ++i) {
        codes[i] = hits[i].committed;
        hit_count += hits[i].committed != COMMITTED_NONE;
    }
    cJSON_AddNumberToObject(out->evidence, "sheet_rays", GRID_RAYS);
    cJSON_AddNumberToObject(out->evidence, "sheet_hits", hit_count);
    bool image = artifacts_write_codes(out->evidence, "hits",
                                       "committed intersection per ray of a 64x64 sheet of +z rays over [-1.5, 1.5]^2: "
                                       "none dark, triangle green, generated (AABB) blue",
                                       GRID, GRID, codes, 4, hit_colours, 3);
    static const char what[] = "64x64 rays traced toward the scene";
    if (timed) {
        cJSON_AddItemToObject(out->evidence, "gpu_timing",
                              timing_comparison(what, "the same launch with every ray pointing away from the scene",
                                                durations[0], durations[1], TIMED_SAMPLES));
        /* the scene differs from test to test: no baseline is shared */
        struct power_work work = {
            .what = what,
            .record = record_sheet,
            .between = between_sheets,
            .context = &passes,
            .pass_ns = {timing_median(durations[0], TIMED_SAMPLES), timing_median(durations[1], TIMED_SAMPLES)},
        };
        power_measure(gpu, &work, out->evidence, &power);
        if (gpu_failed(gpu))
            cJSON_AddStringToObject(out->evidence, "evidence_error", gpu->error_call);
    } else {
        cJSON_AddStringToObject(out->evidence, "gpu_timing_unavailable", timing[0].unavailable);
        power_not_sampled(&power, "not sampled: no timed pass (%s)", timing[0].unavailable);
    }
    smoke_signals(out, &(struct signals){.readback = true, .timing = timed, .artifacts = image, .power = &power});
}

static void record_ray_query(struct gpu *gpu, const struct ray_work *work, uint32_t count)
{
    const float box[8] = {-1, -1, SCENE_PLANE_Z, 0, 1, 1, SCENE_BOX_MAX_Z, 0};
    gpu_dispatch(gpu, work->pipeline, count, 1, 1, box);
}

static void record_trace_rays(struct gpu *gpu, const struct ray_work *work, uint32_t count)
{
    if (gpu_failed(gpu))
        return;
    vkCmdBindPipeline(gpu->cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, work->pipeline->pipeline);
    vkCmdBindDescriptorSets(gpu->cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, work->pipeline->layout, 0, 1,
                            &work->pipeline->set, 0, NULL);
    vkCmdTraceRaysKHR(gpu->cmd, &work->regions[0], &work->regions[1], &work->regions[2], &work->regions[3], count, 1,
                      1);
}

static void run_ray_query(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    const struct ray_test *t = param;
    static const VkDescriptorType bindings[] = {VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR,
                                                VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    enum scene_geometry geometry = t->mode == RAY_QUERY_AABB   ? SCENE_AABB
                                   : t->mode == RAY_QUERY_FLOW ? SCENE_TRIANGLE_NON_OPAQUE
                                                               : SCENE_TRIANGLE_OPAQUE;
    struct gpu_buffer *ray_buffer = upload_rays(gpu);
    struct gpu_buffer *hits = gpu_buffer_create(gpu, sizeof(struct hit) * RAY_COUNT, 0xFF);
    struct gpu_pipeline *p = gpu_pipeline_create(gpu, smoke_spirv_ray_query, smoke_spirv_ray_query_size, bindings, 3,
                                                 8 * sizeof(float), NULL, 0, 0);
    gpu_begin(gpu);
    VkAccelerationStructureKHR tlas = scene_build(gpu, geometry, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
    gpu_bind_acceleration_structure(gpu, p, 0, tlas);
    gpu_bind_buffer(gpu, p, 1, ray_buffer);
    gpu_bind_buffer(gpu, p, 2, hits);
    struct ray_work work = {.pipeline = p, .stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, .record = record_ray_query};
    record_ray_query(gpu, &work, RAY_COUNT);
    gpu_submit_and_wait(gpu);
    if (smoke_gpu_failed(gpu, out))
        return;
    judge_hits(t->mode, gpu_readback(gpu, hits), out);
    ray_evidence(gpu, &work, out);
}

static uint32_t align_u32(uint32_t value, uint32_t alignment)
{
    return alignment ? (value + alignment - 1) / alignment * alignment : value;
}

static void run_ray_tracing_pipeline(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    VkPhysicalDeviceRayTracingPipelinePropertiesKHR rt = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR};
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &rt};
    vkGetPhysicalDeviceProperties2(gpu->physical, &properties);

    static const VkDescriptorType bindings[] = {VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR,
                                                VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    struct gpu_pipeline *p = gpu_pipeline_new(gpu, bindings, 3, VK_SHADER_STAGE_RAYGEN_BIT_KHR, 0);
    VkShaderModule raygen = gpu_pipeline_add_module(gpu, p, smoke_spirv_ray_raygen, smoke_spirv_ray_raygen_size);
    VkShaderModule miss = gpu_pipeline_add_module(gpu, p, smoke_spirv_ray_miss, smoke_spirv_ray_miss_size);
    VkShaderModule hit = gpu_pipeline_add_module(gpu, p, smoke_spirv_ray_closest_hit, smoke_spirv_ray_closest_hit_size);
    if (smoke_gpu_failed(gpu, out))
        return;
    VkPipelineShaderStageCreateInfo stages[3] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_RAYGEN_BIT_KHR,
         .module = raygen,
         .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_MISS_BIT_KHR,
         .module = miss,
         .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR,
         .module = hit,
         .pName = "main"},
    };
    VkRayTracingShaderGroupCreateInfoKHR groups[3];
    for (uint32_t i = 0; i < 3; ++i) {
        groups[i] = (VkRayTracingShaderGroupCreateInfoKHR){
            .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
            .type = i < 2 ? VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR
                          : VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR,
            .generalShader = i < 2 ? i : VK_SHADER_UNUSED_KHR,
            .closestHitShader = i == 2 ? 2 : VK_SHADER_UNUSED_KHR,
            .anyHitShader = VK_SHADER_UNUSED_KHR,
            .intersectionShader = VK_SHADER_UNUSED_KHR,
        };
    }
    VkRayTracingPipelineCreateInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR,
        .stageCount = 3,
        .pStages = stages,
        .groupCount = 3,
        .pGroups = groups,
        .maxPipelineRayRecursionDepth = 1,
        .layout = p->layout,
    };
    if (!GPU_CHECK(gpu, vkCreateRayTracingPipelinesKHR(gpu->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &info, NULL,
                                                       &p->pipeline))) {
        smoke_gpu_failed(gpu, out);
        return;
    }

    /* The shader binding table: each region starts at shaderGroupBaseAlignment, each record is
     * a handle padded to shaderGroupHandleAlignment. */
    uint32_t handle_size = rt.shaderGroupHandleSize;
    uint32_t record = align_u32(handle_size, rt.shaderGroupHandleAlignment);
    uint32_t region = align_u32(record, rt.shaderGroupBaseAlignment);
    uint8_t handles[3 * 64];
    if (handle_size == 0 || handle_size > 64) {
        smoke_set(out, VERDICT_FAIL, "shaderGroupHandleSize %u is outside what the test handles (1..64)", handle_size);
        return;
    }
    GPU_CHECK(gpu, vkGetRayTracingShaderGroupHandlesKHR(gpu->device, p->pipeline, 0, 3, 3 * handle_size, handles));
    struct gpu_buffer *sbt = gpu_buffer_create_with_usage(
        gpu, 3 * (VkDeviceSize)region + rt.shaderGroupBaseAlignment,
        VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT, 0);
    if (smoke_gpu_failed(gpu, out))
        return;
    VkDeviceAddress address = gpu_buffer_address(gpu, sbt);
    VkDeviceAddress base =
        (address + rt.shaderGroupBaseAlignment - 1) / rt.shaderGroupBaseAlignment * rt.shaderGroupBaseAlignment;
    for (uint32_t g = 0; g < 3; ++g)
        memcpy((uint8_t *)sbt->mapped + (base - address) + g * region, handles + g * handle_size, handle_size);
    VkStridedDeviceAddressRegionKHR raygen_region = {base, record, record};
    VkStridedDeviceAddressRegionKHR miss_region = {base + region, record, record};
    VkStridedDeviceAddressRegionKHR hit_region = {base + 2 * (VkDeviceAddress)region, record, record};
    VkStridedDeviceAddressRegionKHR callable_region = {0, 0, 0};

    struct gpu_buffer *ray_buffer = upload_rays(gpu);
    struct gpu_buffer *hits = gpu_buffer_create(gpu, sizeof(struct hit) * RAY_COUNT, 0xFF);
    gpu_begin(gpu);
    VkAccelerationStructureKHR tlas =
        scene_build(gpu, SCENE_TRIANGLE_OPAQUE, VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR);
    gpu_bind_acceleration_structure(gpu, p, 0, tlas);
    gpu_bind_buffer(gpu, p, 1, ray_buffer);
    gpu_bind_buffer(gpu, p, 2, hits);
    const VkStridedDeviceAddressRegionKHR regions[4] = {raygen_region, miss_region, hit_region, callable_region};
    struct ray_work work = {.pipeline = p,
                            .stage = VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR,
                            .record = record_trace_rays,
                            .regions = regions};
    record_trace_rays(gpu, &work, RAY_COUNT);
    gpu_submit_and_wait(gpu);
    if (smoke_gpu_failed(gpu, out))
        return;
    cJSON *sbt_evidence = cJSON_AddObjectToObject(out->evidence, "shader_binding_table");
    cJSON_AddNumberToObject(sbt_evidence, "shaderGroupHandleSize", handle_size);
    cJSON_AddNumberToObject(sbt_evidence, "shaderGroupHandleAlignment", rt.shaderGroupHandleAlignment);
    cJSON_AddNumberToObject(sbt_evidence, "shaderGroupBaseAlignment", rt.shaderGroupBaseAlignment);
    judge_hits(RAY_TRACING_PIPELINE, gpu_readback(gpu, hits), out);
    ray_evidence(gpu, &work, out);
}

static const struct ray_test modes[] = {
    {RAY_QUERY_TRIANGLE}, {RAY_QUERY_FLOW}, {RAY_QUERY_AABB}, {RAY_TRACING_PIPELINE}};

const struct smoke_test ray_tests[] = {
    {"ray_query.triangle", "ray_query",
     "rays against a one-triangle BLAS in a TLAS: hits (t, barycentrics), misses, a ray stopped by tmax",
     declares_ray_tracing, ray_options, run_ray_query, &modes[0], SMOKE_RUNS_ALONE | SMOKE_SAMPLES_POWER},
    {"ray_query.flow", "ray_query", "non-opaque triangle: exactly one candidate per hit, confirmed, then committed",
     declares_ray_tracing, ray_options, run_ray_query, &modes[1], SMOKE_RUNS_ALONE | SMOKE_SAMPLES_POWER},
    {"ray_query.aabb", "ray_query",
     "procedural AABB candidate intersected in the shader and committed with rayQueryGenerateIntersectionEXT",
     declares_ray_tracing, ray_options, run_ray_query, &modes[2], SMOKE_RUNS_ALONE | SMOKE_SAMPLES_POWER},
    {"ray_tracing_pipeline.trace", "ray_tracing_pipeline",
     "raygen/miss/closest-hit pipeline with a shader binding table traces the same rays", declares_ray_tracing,
     ray_options, run_ray_tracing_pipeline, &modes[3], SMOKE_RUNS_ALONE | SMOKE_SAMPLES_POWER},
};
const size_t ray_test_count = sizeof(ray_tests) / sizeof(ray_tests[0]);
