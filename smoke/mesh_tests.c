/* mesh_shader.draw and mesh_shader.task: one mesh workgroup (launched directly, or by a task
 * workgroup that passes the value through its payload) emits one triangle into a 32x32 target;
 * every pixel is checked against the triangle's coverage computed on the host. */
#include <math.h>
#include <stdio.h>

#include "artifacts.h"
#include "declared_query.h"
#include "graphics.h"
#include "mesh_tests.h"
#include "power.h"
#include "signals.h"
#include "smoke_spirv.h"
#include "timing.h"

#define SIDE 32u

struct mesh_case {
    bool task;
    uint32_t value; /* what covered pixels must hold: 7 from the mesh shader, 9 via the task payload */
};

/* The triangle of mesh_triangle.mesh, in normalized device coordinates. */
static const float corners[3][2] = {{-0.71f, -0.69f}, {0.73f, -0.67f}, {0.03f, 0.77f}};

static const char *const mesh_features[] = {"VkPhysicalDeviceMeshShaderFeaturesEXT", NULL};
static const char *const dynamic_rendering_features[] = {"VkPhysicalDeviceDynamicRenderingFeatures",
                                                         "VkPhysicalDeviceVulkan13Features", NULL};

static bool declares_mesh(const cJSON *declared, const void *param, char *reason, size_t size)
{
    const struct mesh_case *c = param;
    if (!declared_has_extension(declared, "VK_EXT_mesh_shader"))
        return smoke_missing(reason, size, "VK_EXT_mesh_shader not exposed");
    if (!declared_feature(declared, mesh_features, "meshShader"))
        return smoke_missing(reason, size, "VkPhysicalDeviceMeshShaderFeaturesEXT.meshShader not declared");
    if (c->task && !declared_feature(declared, mesh_features, "taskShader"))
        return smoke_missing(reason, size, "VkPhysicalDeviceMeshShaderFeaturesEXT.taskShader not declared");
    if (!declared_feature(declared, dynamic_rendering_features, "dynamicRendering"))
        return smoke_missing(reason, size, "dynamicRendering not declared (the test renders with dynamic rendering)");
    if (declared_number(declared, "properties/VkPhysicalDeviceProperties/apiVersion", 0) < (double)VK_API_VERSION_1_2)
        return smoke_missing(reason, size, "the test's shaders need Vulkan 1.2 (SPIR-V 1.5)");
    if (!declared_flag(declared, "formats/VK_FORMAT_R32_UINT/VkFormatProperties/optimalTilingFeatures",
                       "VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT"))
        return smoke_missing(reason, size, "VK_FORMAT_R32_UINT is not a color attachment format");
    return true;
}

static void mesh_options(const cJSON *declared, const void *param, struct gpu_options *options,
                         struct smoke_device_features *f)
{
    const struct mesh_case *c = param;
    options->extensions[0] = "VK_EXT_mesh_shader";
    options->extensions[1] = "VK_KHR_dynamic_rendering";
    f->dynamic_rendering.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES;
    f->dynamic_rendering.dynamicRendering = VK_TRUE;
    f->mesh_shader.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT;
    f->mesh_shader.meshShader = VK_TRUE;
    f->mesh_shader.taskShader = c->task;
    /* the primitives-generated counter, where the device has it */
    f->mesh_shader.meshShaderQueries = declared_feature(declared, mesh_features, "meshShaderQueries");
    f->mesh_shader.pNext = &f->dynamic_rendering;
    options->features_chain = &f->mesh_shader;
}

/* Signed distance (in pixels) of a pixel centre from each edge; inside when all agree in sign. */
static int coverage(uint32_t x, uint32_t y)
{
    float px = ((float)x + 0.5f) / SIDE * 2 - 1, py = ((float)y + 0.5f) / SIDE * 2 - 1;
    int positive = 0, negative = 0;
    for (int e = 0; e < 3; ++e) {
        const float *a = corners[e], *b = corners[(e + 1) % 3];
        float ex = b[0] - a[0], ey = b[1] - a[1];
        float distance = ((px - a[0]) * ey - (py - a[1]) * ex) / sqrtf(ex * ex + ey * ey) * (SIDE / 2.0f);
        if (fabsf(distance) < 0.01f)
            return -1; /* on an edge: either answer is right */
        positive += distance > 0;
        negative += distance < 0;
    }
    return positive == 3 || negative == 3;
}

#define TIMED_SAMPLES 5u
#define DRAWS_PER_SAMPLE 64u

static const struct artifact_palette value_colours[] = {{0, {32, 32, 40}}, {7, {230, 160, 60}}, {9, {90, 200, 220}}};

/* The counter: VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT around one draw (1 primitive expected). */
static VkQueryPool primitives_query(struct gpu *gpu)
{
    VkQueryPool pool = VK_NULL_HANDLE;
    if (!declared_feature(gpu->declared, mesh_features, "meshShaderQueries"))
        return VK_NULL_HANDLE;
    VkQueryPoolCreateInfo info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                  .queryType = VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT,
                                  .queryCount = 1};
    if (!GPU_CHECK(gpu, vkCreateQueryPool(gpu->device, &info, NULL, &pool)))
        return VK_NULL_HANDLE;
    gpu->query_pools[gpu->query_pool_count++] = pool;
    return pool;
}

/* One pass of the timed work: a whole rendering scope (clear, draws, copy to the readback buffer),
 * with DRAWS_PER_SAMPLE mesh draws (the feature) or none (the baseline). */
struct mesh_passes {
    struct graphics_target *target;
    const struct gpu_pipeline *pipeline;
};

static void record_scope(struct gpu *gpu, void *context, bool draws)
{
    const struct mesh_passes *m = context;
    VkClearColorValue clear = {.uint32 = {0, 0, 0, 0}};
    graphics_begin(gpu, m->target, clear, NULL, m->pipeline);
    for (uint32_t d = 0; draws && d < DRAWS_PER_SAMPLE && !gpu_failed(gpu); ++d)
        vkCmdDrawMeshTasksEXT(gpu->cmd, 1, 1, 1);
    graphics_end(gpu, m->target);
}

static void between_scopes(struct gpu *gpu, void *context)
{
    (void)context;
    graphics_between_scopes(gpu);
}

/* GPU time, then energy, of a rendering scope with DRAWS_PER_SAMPLE mesh draws against the same
 * scope with none. */
static bool time_mesh(struct gpu *gpu, struct graphics_target *target, const struct gpu_pipeline *p,
                      struct smoke_outcome *out, struct power_signal *power)
{
    struct gpu_timing timing;
    if (!timing_create(gpu, &timing, TIMED_SAMPLES * 2)) {
        cJSON_AddStringToObject(out->evidence, "gpu_timing_unavailable", timing.unavailable);
        power_not_sampled(power, "not sampled: no timed pass (%s)", timing.unavailable);
        return false;
    }
    struct mesh_passes passes = {.target = target, .pipeline = p};
    gpu_begin(gpu);
    timing_reset(gpu, &timing);
    /* each sample is a whole rendering scope, timed from outside it: timestamps inside a scope are
     * not comparable across implementations */
    for (uint32_t s = 0; s < TIMED_SAMPLES * 2 && !gpu_failed(gpu); ++s) {
        if (s > 0)
            between_scopes(gpu, &passes);
        timing_begin(gpu, &timing, s);
        record_scope(gpu, &passes, s >= TIMED_SAMPLES);
        timing_end(gpu, &timing, s);
    }
    gpu_submit_and_wait(gpu);
    double durations[TIMED_SAMPLES * 2];
    if (!timing_read(gpu, &timing, durations)) {
        power_not_sampled(power, "not sampled: the timed passes failed (%s)", gpu->error_call);
        return false;
    }
    static const char what[] = "a rendering scope with 64 mesh-shader draws of the triangle";
    cJSON_AddItemToObject(out->evidence, "gpu_timing",
                          timing_comparison(what, "the same rendering scope (clear, copy to the host) without a draw",
                                            durations, durations + TIMED_SAMPLES, TIMED_SAMPLES));
    /* both mesh tests' baseline is the same empty scope: a worker measures its energy once */
    struct power_work work = {
        .what = what,
        .baseline_key = "mesh: an empty 32x32 rendering scope",
        .record = record_scope,
        .between = between_scopes,
        .context = &passes,
        .pass_ns = {timing_median(durations, TIMED_SAMPLES), timing_median(durations + TIMED_SAMPLES, TIMED_SAMPLES)},
    };
    power_measure(gpu, &work, out->evidence, power);
    return true;
}

static void run_mesh(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    const struct mesh_case *c = param;
    struct graphics_target target;
    graphics_target_create(gpu, &target, VK_FORMAT_R32_UINT, SIDE, SIDE, sizeof(uint32_t));
    struct graphics_pipeline_desc desc = {.color_format = VK_FORMAT_R32_UINT};
    if (c->task) {
        desc.stage_code[desc.stage_count] = smoke_spirv_mesh_task;
        desc.stage_size[desc.stage_count] = smoke_spirv_mesh_task_size;
        desc.stages[desc.stage_count++] = VK_SHADER_STAGE_TASK_BIT_EXT;
    }
    desc.stage_code[desc.stage_count] = c->task ? smoke_spirv_mesh_triangle_from_task : smoke_spirv_mesh_triangle;
    desc.stage_size[desc.stage_count] =
        c->task ? smoke_spirv_mesh_triangle_from_task_size : smoke_spirv_mesh_triangle_size;
    desc.stages[desc.stage_count++] = VK_SHADER_STAGE_MESH_BIT_EXT;
    desc.stage_code[desc.stage_count] = smoke_spirv_flat_value_frag;
    desc.stage_size[desc.stage_count] = smoke_spirv_flat_value_frag_size;
    desc.stages[desc.stage_count++] = VK_SHADER_STAGE_FRAGMENT_BIT;
    struct gpu_pipeline *p = graphics_pipeline_create(gpu, &desc);
    VkQueryPool primitives = primitives_query(gpu);
    gpu_begin(gpu);
    if (primitives != VK_NULL_HANDLE)
        vkCmdResetQueryPool(gpu->cmd, primitives, 0, 1);
    VkClearColorValue clear = {.uint32 = {0, 0, 0, 0}};
    graphics_begin(gpu, &target, clear, NULL, p);
    if (!gpu_failed(gpu)) {
        if (primitives != VK_NULL_HANDLE)
            vkCmdBeginQuery(gpu->cmd, primitives, 0, 0);
        vkCmdDrawMeshTasksEXT(gpu->cmd, 1, 1, 1);
        if (primitives != VK_NULL_HANDLE)
            vkCmdEndQuery(gpu->cmd, primitives, 0);
    }
    graphics_end(gpu, &target);
    gpu_submit_and_wait(gpu);
    uint64_t generated = 0;
    if (primitives != VK_NULL_HANDLE)
        GPU_CHECK(gpu, vkGetQueryPoolResults(gpu->device, primitives, 0, 1, sizeof(generated), &generated,
                                             sizeof(generated), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    if (smoke_gpu_failed(gpu, out))
        return;

    const uint32_t *pixels = gpu_readback(gpu, target.readback);
    uint32_t covered = 0, expected_covered = 0, wrong = 0, ambiguous = 0;
    for (uint32_t y = 0; y < SIDE; ++y) {
        for (uint32_t x = 0; x < SIDE; ++x) {
            uint32_t value = pixels[y * SIDE + x];
            int inside = coverage(x, y);
            covered += value == c->value;
            expected_covered += inside == 1;
            if (inside < 0) {
                ambiguous++;
                wrong += value != 0 && value != c->value;
            } else {
                wrong += value != (inside ? c->value : 0u);
            }
        }
    }
    cJSON_AddNumberToObject(out->evidence, "value", c->value);
    cJSON_AddNumberToObject(out->evidence, "pixels_covered", covered);
    cJSON_AddNumberToObject(out->evidence, "pixels_expected", expected_covered);
    cJSON_AddNumberToObject(out->evidence, "pixels_on_edges", ambiguous);
    cJSON_AddNumberToObject(out->evidence, "wrong_pixels", wrong);
    if (covered == 0)
        smoke_set(out, VERDICT_FAIL, "nothing was drawn: no pixel holds %u", c->value);
    else if (wrong)
        smoke_set(out, VERDICT_FAIL, "%u of %u pixels differ from the triangle's coverage", wrong, SIDE * SIDE);
    if (primitives != VK_NULL_HANDLE) {
        /* one mesh workgroup emits one triangle: any other count is a wrong result */
        cJSON_AddNumberToObject(out->evidence, "mesh_primitives_generated", (double)generated);
        if (generated != 1 && out->status == VERDICT_PASS)
            smoke_set(out, VERDICT_FAIL, "VK_QUERY_TYPE_MESH_PRIMITIVES_GENERATED_EXT counted %llu primitives, not 1",
                      (unsigned long long)generated);
    } else {
        cJSON_AddStringToObject(out->evidence, "mesh_primitives_generated_unavailable",
                                "meshShaderQueries not declared");
    }
    bool image = artifacts_write_codes(out->evidence, "target",
                                       "the 32x32 R32_UINT target after the draw: 0 dark, 7 (mesh) orange, 9 (task "
                                       "payload) cyan",
                                       SIDE, SIDE, pixels, 4, value_colours, 3);
    struct power_signal power;
    bool timed = time_mesh(gpu, &target, p, out, &power);
    if (gpu_failed(gpu))
        cJSON_AddStringToObject(out->evidence, "evidence_error", gpu->error_call);
    smoke_signals(out, &(struct signals){.readback = true,
                                         .counters = primitives != VK_NULL_HANDLE,
                                         .timing = timed && !gpu_failed(gpu),
                                         .artifacts = image,
                                         .power = &power});
}

static const struct mesh_case cases[] = {{false, 7}, {true, 9}};

const struct smoke_test mesh_tests[] = {
    {"mesh_shader.draw", "mesh_shader", "one mesh workgroup emits a triangle; every pixel of the target checked",
     declares_mesh, mesh_options, run_mesh, &cases[0], SMOKE_RUNS_ALONE | SMOKE_SAMPLES_POWER},
    {"mesh_shader.task", "mesh_shader",
     "a task workgroup launches the mesh workgroup and passes its value in the payload", declares_mesh, mesh_options,
     run_mesh, &cases[1], SMOKE_RUNS_ALONE | SMOKE_SAMPLES_POWER},
};
const size_t mesh_test_count = sizeof(mesh_tests) / sizeof(mesh_tests[0]);
