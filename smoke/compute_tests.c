/* The compute smoke tests. Each one dispatches real work and checks every result on the host;
 * the evidence says what was expected and what came back. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compute_tests.h"
#include "declared_query.h"
#include "smoke_spirv.h"

#define SPIRV(name) smoke_spirv_##name, smoke_spirv_##name##_size
#define SENTINEL_BYTE 0xEF
#define SENTINEL_WORD 0xEFEFEFEFu

static const VkDescriptorType two_buffers[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
static const VkDescriptorType one_buffer[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};

/* A seed that differs per run, so a stale buffer from an earlier run cannot pass. */
static uint32_t run_seed(void)
{
    return (uint32_t)time(NULL) * 2246822519u ^ (uint32_t)getpid() * 3266489917u;
}

static void add_mismatch(cJSON *evidence, uint32_t index, double expected, double observed)
{
    cJSON *first = cJSON_AddObjectToObject(evidence, "first_mismatch");
    cJSON_AddNumberToObject(first, "index", index);
    cJSON_AddNumberToObject(first, "expected", expected);
    cJSON_AddNumberToObject(first, "observed", observed);
}

/* --- what the tests need declared --------------------------------------------------------- */

static bool declares_compute_queue(const cJSON *declared, const void *param, char *reason, size_t size)
{
    (void)param;
    return declared_queue_flag(declared, "VK_QUEUE_COMPUTE_BIT") ||
           smoke_missing(reason, size, "no queue family declares VK_QUEUE_COMPUTE_BIT");
}

static const char *const atomic_int64_structs[] = {"VkPhysicalDeviceShaderAtomicInt64Features",
                                                   "VkPhysicalDeviceVulkan12Features", NULL};
static const char *const core_features[] = {"VkPhysicalDeviceFeatures", NULL};
static const char *const atomic_float_structs[] = {"VkPhysicalDeviceShaderAtomicFloatFeaturesEXT", NULL};

static bool declares_int64_atomics(const cJSON *declared, const void *param, char *reason, size_t size)
{
    if (!declares_compute_queue(declared, param, reason, size))
        return false;
    if (!declared_feature(declared, core_features, "shaderInt64"))
        return smoke_missing(reason, size, "VkPhysicalDeviceFeatures.shaderInt64 not declared");
    if (!declared_feature(declared, atomic_int64_structs, "shaderBufferInt64Atomics"))
        return smoke_missing(reason, size, "shaderBufferInt64Atomics not declared (VK_KHR_shader_atomic_int64)");
    return true;
}

static bool declares_float_atomics(const cJSON *declared, const void *param, char *reason, size_t size)
{
    if (!declares_compute_queue(declared, param, reason, size))
        return false;
    if (!declared_has_extension(declared, "VK_EXT_shader_atomic_float"))
        return smoke_missing(reason, size, "VK_EXT_shader_atomic_float not exposed");
    if (!declared_feature(declared, atomic_float_structs, "shaderBufferFloat32AtomicAdd"))
        return smoke_missing(reason, size,
                             "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT.shaderBufferFloat32AtomicAdd not declared");
    return true;
}

static bool declares_subgroups_in_compute(const cJSON *declared, const void *param, char *reason, size_t size)
{
    if (!declares_compute_queue(declared, param, reason, size))
        return false;
    if (!declared_flag(declared, "properties/VkPhysicalDeviceSubgroupProperties/supportedStages",
                       "VK_SHADER_STAGE_COMPUTE_BIT"))
        return smoke_missing(reason, size,
                             "VkPhysicalDeviceSubgroupProperties.supportedStages lacks VK_SHADER_STAGE_COMPUTE_BIT");
    if (!declared_flag(declared, "properties/VkPhysicalDeviceSubgroupProperties/supportedOperations",
                       "VK_SUBGROUP_FEATURE_BASIC_BIT"))
        return smoke_missing(reason, size, "VK_SUBGROUP_FEATURE_BASIC_BIT not declared");
    return true;
}

static bool declares_timestamps(const cJSON *declared, const void *param, char *reason, size_t size)
{
    if (!declares_compute_queue(declared, param, reason, size))
        return false;
    /* The runner uses the first compute-capable family: its timestampValidBits must be non-zero. */
    const cJSON *family;
    cJSON_ArrayForEach(family, cJSON_GetObjectItemCaseSensitive(declared, "queueFamiliesProperties"))
    {
        if (!declared_flag(family, "VkQueueFamilyProperties/queueFlags", "VK_QUEUE_COMPUTE_BIT"))
            continue;
        if (declared_number(family, "VkQueueFamilyProperties/timestampValidBits", 0) > 0)
            return true;
        return smoke_missing(reason, size, "timestampValidBits is 0 on the compute queue family");
    }
    return smoke_missing(reason, size, "no compute queue family");
}

static void int64_atomics_options(const cJSON *declared, const void *param, struct gpu_options *options,
                                  struct smoke_device_features *f)
{
    (void)declared;
    (void)param;
    options->extensions[0] = "VK_KHR_shader_atomic_int64";
    options->core.shaderInt64 = VK_TRUE;
    f->atomic_int64.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES;
    f->atomic_int64.shaderBufferInt64Atomics = VK_TRUE;
    options->features_chain = &f->atomic_int64;
}

static void float_atomics_options(const cJSON *declared, const void *param, struct gpu_options *options,
                                  struct smoke_device_features *f)
{
    (void)declared;
    (void)param;
    options->extensions[0] = "VK_EXT_shader_atomic_float";
    f->atomic_float.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
    f->atomic_float.shaderBufferFloat32AtomicAdd = VK_TRUE;
    options->features_chain = &f->atomic_float;
}

/* --- compute.1x1 ------------------------------------------------------------------------- */

static void run_1x1(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    uint32_t seed = run_seed();
    struct gpu_buffer *input = gpu_buffer_create(gpu, sizeof(uint32_t), 0);
    struct gpu_buffer *output = gpu_buffer_create(gpu, sizeof(uint32_t), SENTINEL_BYTE);
    struct gpu_pipeline *p = gpu_pipeline_create(gpu, SPIRV(fill_1x1), two_buffers, 2, 0, NULL, 0, 0);
    if (input != NULL)
        *(uint32_t *)input->mapped = seed;
    gpu_bind_buffer(gpu, p, 0, input);
    gpu_bind_buffer(gpu, p, 1, output);
    gpu_begin(gpu);
    gpu_dispatch(gpu, p, 1, 1, 1, NULL);
    gpu_submit_and_wait(gpu);
    if (smoke_gpu_failed(gpu, out))
        return;
    uint32_t expected = seed * 2654435761u + 12345u;
    uint32_t observed = *(const uint32_t *)gpu_readback(gpu, output);
    cJSON_AddNumberToObject(out->evidence, "seed", seed);
    cJSON_AddNumberToObject(out->evidence, "expected", expected);
    cJSON_AddNumberToObject(out->evidence, "observed", observed);
    if (observed == SENTINEL_WORD)
        smoke_set(out, VERDICT_FAIL, "the dispatch did not write: the sentinel 0x%08x is still there", observed);
    else if (observed != expected)
        smoke_set(out, VERDICT_FAIL, "wrong value: expected 0x%08x, read 0x%08x", expected, observed);
}

/* --- compute.buffer and compute.barrier ---------------------------------------------------- */

struct transform_push {
    uint32_t count;
    uint32_t add;
};

static uint32_t transform(uint32_t value, uint32_t index, uint32_t add)
{
    return value * 3u + index + add;
}

/* Checks every element of out[] against `expected(i)`; records the count and the first mismatch. */
static uint32_t check_elements(struct smoke_outcome *out, const uint32_t *observed, const uint32_t *input,
                               uint32_t count, bool two_passes)
{
    uint32_t mismatches = 0;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t expected = transform(input[i], i, 1);
        if (two_passes)
            expected = transform(expected, i, 2);
        if (observed[i] != expected) {
            if (mismatches == 0)
                add_mismatch(out->evidence, i, expected, observed[i]);
            ++mismatches;
        }
    }
    cJSON_AddNumberToObject(out->evidence, "elements", count);
    cJSON_AddNumberToObject(out->evidence, "mismatches", mismatches);
    return mismatches;
}

#define BUFFER_ELEMENTS 65536u
#define BARRIER_ELEMENTS (1u << 20)

static void run_buffer(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    uint32_t count = BUFFER_ELEMENTS, seed = run_seed();
    struct gpu_buffer *input = gpu_buffer_create(gpu, count * sizeof(uint32_t), 0);
    struct gpu_buffer *output = gpu_buffer_create(gpu, count * sizeof(uint32_t), SENTINEL_BYTE);
    struct gpu_pipeline *p =
        gpu_pipeline_create(gpu, SPIRV(transform_buffer), two_buffers, 2, sizeof(struct transform_push), NULL, 0, 0);
    if (smoke_gpu_failed(gpu, out))
        return;
    uint32_t *in = input->mapped;
    for (uint32_t i = 0; i < count; ++i)
        in[i] = i * 2654435761u + seed;
    gpu_bind_buffer(gpu, p, 0, input);
    gpu_bind_buffer(gpu, p, 1, output);
    struct transform_push push = {count, 1};
    gpu_begin(gpu);
    gpu_dispatch(gpu, p, count / 64, 1, 1, &push);
    gpu_submit_and_wait(gpu);
    if (smoke_gpu_failed(gpu, out))
        return;
    uint32_t bad = check_elements(out, gpu_readback(gpu, output), in, count, false);
    if (bad)
        smoke_set(out, VERDICT_FAIL, "%u of %u elements wrong", bad, count);
}

static void run_barrier(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    uint32_t count = BARRIER_ELEMENTS, seed = run_seed();
    struct gpu_buffer *a = gpu_buffer_create(gpu, count * sizeof(uint32_t), 0);
    struct gpu_buffer *b = gpu_buffer_create(gpu, count * sizeof(uint32_t), SENTINEL_BYTE);
    struct gpu_buffer *c = gpu_buffer_create(gpu, count * sizeof(uint32_t), SENTINEL_BYTE);
    struct gpu_pipeline *first =
        gpu_pipeline_create(gpu, SPIRV(transform_buffer), two_buffers, 2, sizeof(struct transform_push), NULL, 0, 0);
    struct gpu_pipeline *second =
        gpu_pipeline_create(gpu, SPIRV(transform_buffer), two_buffers, 2, sizeof(struct transform_push), NULL, 0, 0);
    if (smoke_gpu_failed(gpu, out))
        return;
    uint32_t *in = a->mapped;
    for (uint32_t i = 0; i < count; ++i)
        in[i] = i ^ seed;
    gpu_bind_buffer(gpu, first, 0, a);
    gpu_bind_buffer(gpu, first, 1, b);
    gpu_bind_buffer(gpu, second, 0, b);
    gpu_bind_buffer(gpu, second, 1, c);
    struct transform_push push1 = {count, 1}, push2 = {count, 2};
    gpu_begin(gpu);
    gpu_dispatch(gpu, first, count / 64, 1, 1, &push1);
    gpu_compute_barrier(gpu); /* the dependency under test: B written, then read */
    gpu_dispatch(gpu, second, count / 64, 1, 1, &push2);
    gpu_submit_and_wait(gpu);
    if (smoke_gpu_failed(gpu, out))
        return;
    uint32_t bad = check_elements(out, gpu_readback(gpu, c), in, count, true);
    if (bad)
        smoke_set(out, VERDICT_FAIL, "%u of %u elements read stale data across the barrier", bad, count);
}

/* --- compute.workgroup_max ----------------------------------------------------------------- */

struct workgroup_shape {
    const char *name;
    uint32_t size[3];
};

static void run_workgroup_max(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    const VkPhysicalDeviceLimits *limits = &gpu->properties.limits;
    uint32_t max_invocations = limits->maxComputeWorkGroupInvocations;
    const uint32_t *max_size = limits->maxComputeWorkGroupSize;
    struct workgroup_shape shapes[4];
    uint32_t x = max_size[0] < max_invocations ? max_size[0] : max_invocations;
    uint32_t y = max_invocations / x < max_size[1] ? max_invocations / x : max_size[1];
    uint32_t z = max_invocations / (x * y) < max_size[2] ? max_invocations / (x * y) : max_size[2];
    shapes[0] = (struct workgroup_shape){"max_invocations", {x, y, z}};
    for (int d = 0; d < 3; ++d) {
        static const char *const names[] = {"max_x", "max_y", "max_z"};
        shapes[1 + d] = (struct workgroup_shape){names[d], {1, 1, 1}};
        shapes[1 + d].size[d] = max_size[d] < max_invocations ? max_size[d] : max_invocations;
    }
    struct gpu_buffer *buffers[4];
    gpu_begin(gpu);
    for (int s = 0; s < 4; ++s) {
        uint32_t n = shapes[s].size[0] * shapes[s].size[1] * shapes[s].size[2];
        buffers[s] = gpu_buffer_create(gpu, (1 + n) * sizeof(uint32_t), 0);
        struct gpu_pipeline *p =
            gpu_pipeline_create(gpu, SPIRV(workgroup_index), one_buffer, 1, 0, shapes[s].size, 3, 0);
        gpu_bind_buffer(gpu, p, 0, buffers[s]);
        gpu_dispatch(gpu, p, 1, 1, 1, NULL);
    }
    gpu_submit_and_wait(gpu);
    if (smoke_gpu_failed(gpu, out))
        return;
    cJSON_AddNumberToObject(out->evidence, "maxComputeWorkGroupInvocations", max_invocations);
    cJSON *results = cJSON_AddArrayToObject(out->evidence, "shapes");
    uint32_t failed = 0;
    for (int s = 0; s < 4; ++s) {
        uint32_t n = shapes[s].size[0] * shapes[s].size[1] * shapes[s].size[2];
        const uint32_t *words = gpu_readback(gpu, buffers[s]);
        uint32_t wrong = 0;
        for (uint32_t i = 0; i < n; ++i)
            wrong += words[1 + i] != i + 1;
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "shape", shapes[s].name);
        cJSON_AddItemToObject(
            r, "local_size",
            cJSON_CreateIntArray((const int[]){(int)shapes[s].size[0], (int)shapes[s].size[1], (int)shapes[s].size[2]},
                                 3));
        cJSON_AddNumberToObject(r, "invocations_expected", n);
        cJSON_AddNumberToObject(r, "invocations_counted", words[0]);
        cJSON_AddNumberToObject(r, "wrong_indices", wrong);
        cJSON_AddItemToArray(results, r);
        if (words[0] != n || wrong != 0)
            ++failed;
    }
    if (failed)
        smoke_set(out, VERDICT_FAIL,
                  "%u of 4 workgroup shapes at the declared maximum did not run every invocation "
                  "with the right local index",
                  failed);
}

/* --- compute.group_count_max --------------------------------------------------------------- */

struct group_counters {
    uint32_t counter[256 * 32]; /* every 32nd word is a counter */
    uint32_t last_id[4];        /* x, y, z, written */
};

static void run_group_count_max(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    const uint32_t *max_count = gpu->properties.limits.maxComputeWorkGroupCount;
    struct gpu_buffer *buffers[3];
    gpu_begin(gpu);
    for (int d = 0; d < 3; ++d) {
        uint32_t groups[3] = {1, 1, 1};
        groups[d] = max_count[d];
        buffers[d] = gpu_buffer_create(gpu, sizeof(struct group_counters), 0);
        struct gpu_pipeline *p = gpu_pipeline_create(gpu, SPIRV(group_count), one_buffer, 1, 0, NULL, 0, 0);
        gpu_bind_buffer(gpu, p, 0, buffers[d]);
        gpu_dispatch(gpu, p, groups[0], groups[1], groups[2], NULL);
    }
    gpu_submit_and_wait(gpu);
    if (smoke_gpu_failed(gpu, out))
        return;
    cJSON *results = cJSON_AddArrayToObject(out->evidence, "dimensions");
    int failed = 0;
    for (int d = 0; d < 3; ++d) {
        const struct group_counters *c = gpu_readback(gpu, buffers[d]);
        uint64_t counted = 0;
        for (int i = 0; i < 256; ++i)
            counted += c->counter[i * 32];
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "dimension", (const char *[]){"x", "y", "z"}[d]);
        cJSON_AddNumberToObject(r, "groups_dispatched", max_count[d]);
        cJSON_AddNumberToObject(r, "groups_counted", (double)counted);
        cJSON_AddNumberToObject(r, "last_group_id", c->last_id[3] ? (double)c->last_id[d] : -1.0);
        cJSON_AddItemToArray(results, r);
        if (counted != max_count[d] || c->last_id[3] != 1 || c->last_id[d] != max_count[d] - 1)
            ++failed;
    }
    if (failed)
        smoke_set(out, VERDICT_FAIL,
                  "%d of 3 dispatches of maxComputeWorkGroupCount groups did not run every group "
                  "exactly once",
                  failed);
}

/* --- compute.shared_memory_max ------------------------------------------------------------- */

static void run_shared_memory_max(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    const VkPhysicalDeviceLimits *limits = &gpu->properties.limits;
    uint32_t words = limits->maxComputeSharedMemorySize / 4;
    uint32_t local = limits->maxComputeWorkGroupInvocations < 256 ? limits->maxComputeWorkGroupInvocations : 256;
    if (local > limits->maxComputeWorkGroupSize[0])
        local = limits->maxComputeWorkGroupSize[0];
    uint32_t spec[2] = {local, words};
    struct gpu_buffer *result = gpu_buffer_create(gpu, 2 * sizeof(uint32_t), 0);
    struct gpu_pipeline *p = gpu_pipeline_create(gpu, SPIRV(shared_memory), one_buffer, 1, 0, spec, 2, 0);
    gpu_bind_buffer(gpu, p, 0, result);
    gpu_begin(gpu);
    gpu_dispatch(gpu, p, 1, 1, 1, NULL);
    gpu_submit_and_wait(gpu);
    if (smoke_gpu_failed(gpu, out))
        return;
    const uint32_t *r = gpu_readback(gpu, result);
    cJSON_AddNumberToObject(out->evidence, "maxComputeSharedMemorySize", limits->maxComputeSharedMemorySize);
    cJSON_AddNumberToObject(out->evidence, "words_used", words);
    cJSON_AddNumberToObject(out->evidence, "workgroup_size", local);
    cJSON_AddNumberToObject(out->evidence, "words_checked", r[0]);
    cJSON_AddNumberToObject(out->evidence, "mismatches", r[1]);
    if (r[0] != words || r[1] != 0)
        smoke_set(out, VERDICT_FAIL, "%u of %u shared words checked, %u mismatches", r[0], words, r[1]);
}

/* --- compute.atomics, compute.atomics_int64, compute.atomics_float32 ---------------------- */

#define ATOMIC_GROUPS 64u
#define ATOMIC_INVOCATIONS (ATOMIC_GROUPS * 64u)

static struct gpu_buffer *dispatch_atomics(struct gpu *gpu, const uint32_t *code, size_t size, VkDeviceSize bytes)
{
    struct gpu_buffer *result = gpu_buffer_create(gpu, bytes, 0);
    struct gpu_pipeline *p = gpu_pipeline_create(gpu, code, size, one_buffer, 1, 0, NULL, 0, 0);
    gpu_bind_buffer(gpu, p, 0, result);
    gpu_begin(gpu);
    gpu_dispatch(gpu, p, ATOMIC_GROUPS, 1, 1, NULL);
    gpu_submit_and_wait(gpu);
    return result;
}

static void run_atomics_int32(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    struct gpu_buffer *result = dispatch_atomics(gpu, SPIRV(atomics_int32), 2 * sizeof(uint32_t));
    if (smoke_gpu_failed(gpu, out))
        return;
    const uint32_t *r = gpu_readback(gpu, result);
    uint32_t n = ATOMIC_INVOCATIONS, expected_sum = n * (n + 1) / 2;
    cJSON_AddNumberToObject(out->evidence, "invocations", n);
    cJSON_AddNumberToObject(out->evidence, "expected_sum", expected_sum);
    cJSON_AddNumberToObject(out->evidence, "observed_sum", r[0]);
    cJSON_AddNumberToObject(out->evidence, "observed_count", r[1]);
    if (r[0] != expected_sum || r[1] != n)
        smoke_set(out, VERDICT_FAIL, "atomicAdd lost updates: sum %u (expected %u), count %u (expected %u)", r[0],
                  expected_sum, r[1], n);
}

static void run_atomics_int64(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    struct gpu_buffer *result = dispatch_atomics(gpu, SPIRV(atomics_int64), sizeof(uint64_t));
    if (smoke_gpu_failed(gpu, out))
        return;
    uint64_t observed;
    memcpy(&observed, gpu_readback(gpu, result), sizeof(observed));
    uint64_t n = ATOMIC_INVOCATIONS, expected = (n * (n + 1) / 2) << 32;
    char text[32];
    snprintf(text, sizeof(text), "%llu", (unsigned long long)expected);
    cJSON_AddStringToObject(out->evidence, "expected_sum", text);
    snprintf(text, sizeof(text), "%llu", (unsigned long long)observed);
    cJSON_AddStringToObject(out->evidence, "observed_sum", text);
    if (observed != expected)
        smoke_set(out, VERDICT_FAIL, "64-bit atomicAdd: sum 0x%llx, expected 0x%llx", (unsigned long long)observed,
                  (unsigned long long)expected);
}

static void run_atomics_float32(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    struct gpu_buffer *result = dispatch_atomics(gpu, SPIRV(atomics_float32), sizeof(float));
    if (smoke_gpu_failed(gpu, out))
        return;
    float observed;
    memcpy(&observed, gpu_readback(gpu, result), sizeof(observed));
    cJSON_AddNumberToObject(out->evidence, "expected_sum", ATOMIC_INVOCATIONS);
    cJSON_AddNumberToObject(out->evidence, "observed_sum", observed);
    if (observed != (float)ATOMIC_INVOCATIONS)
        smoke_set(out, VERDICT_FAIL, "float atomicAdd of 1.0 by %u invocations gave %g", ATOMIC_INVOCATIONS, observed);
}

/* --- compute.timestamps ------------------------------------------------------------------- */

static void run_timestamps(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    uint32_t count = BARRIER_ELEMENTS;
    struct gpu_buffer *input = gpu_buffer_create(gpu, count * sizeof(uint32_t), 0);
    struct gpu_buffer *output = gpu_buffer_create(gpu, count * sizeof(uint32_t), SENTINEL_BYTE);
    struct gpu_pipeline *p =
        gpu_pipeline_create(gpu, SPIRV(transform_buffer), two_buffers, 2, sizeof(struct transform_push), NULL, 0, 0);
    VkQueryPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
        .queryType = VK_QUERY_TYPE_TIMESTAMP,
        .queryCount = 2,
    };
    VkQueryPool pool = VK_NULL_HANDLE;
    if (!gpu_failed(gpu) && GPU_CHECK(gpu, vkCreateQueryPool(gpu->device, &pool_info, NULL, &pool)))
        gpu->query_pools[gpu->query_pool_count++] = pool;
    if (smoke_gpu_failed(gpu, out))
        return;
    uint32_t *in = input->mapped;
    for (uint32_t i = 0; i < count; ++i)
        in[i] = i;
    gpu_bind_buffer(gpu, p, 0, input);
    gpu_bind_buffer(gpu, p, 1, output);
    struct transform_push push = {count, 1};
    gpu_begin(gpu);
    vkCmdResetQueryPool(gpu->cmd, pool, 0, 2);
    vkCmdWriteTimestamp(gpu->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, pool, 0);
    gpu_dispatch(gpu, p, count / 64, 1, 1, &push);
    vkCmdWriteTimestamp(gpu->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, pool, 1);
    gpu_submit_and_wait(gpu);
    uint64_t ticks[2] = {0, 0};
    GPU_CHECK(gpu, vkGetQueryPoolResults(gpu->device, pool, 0, 2, sizeof(ticks), ticks, sizeof(uint64_t),
                                         VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    if (smoke_gpu_failed(gpu, out))
        return;
    uint32_t bad = check_elements(out, gpu_readback(gpu, output), in, count, false);
    double period = gpu->properties.limits.timestampPeriod;
    double gpu_ns = (double)(ticks[1] - ticks[0]) * period;
    cJSON_AddNumberToObject(out->evidence, "timestampPeriod", period);
    cJSON_AddNumberToObject(out->evidence, "ticks", (double)(ticks[1] - ticks[0]));
    cJSON_AddNumberToObject(out->evidence, "gpu_time_us", gpu_ns / 1000.0);
    if (bad)
        smoke_set(out, VERDICT_FAIL, "the timed dispatch computed %u wrong elements", bad);
    else if (ticks[1] <= ticks[0])
        smoke_set(out, VERDICT_FAIL, "the end timestamp (%llu) is not after the start (%llu)",
                  (unsigned long long)ticks[1], (unsigned long long)ticks[0]);
}

/* --- the table ------------------------------------------------------------------------------ */

#define COMPUTE_TEST(name, text, declared_fn, options_fn, run_fn)                                                      \
    {                                                                                                                  \
        "compute." name, "compute", text, declared_fn, options_fn, run_fn, NULL, 0                                     \
    }

const struct smoke_test compute_tests[] = {
    COMPUTE_TEST("1x1", "one invocation writes a value derived from its input; decides whether compute works at all",
                 declares_compute_queue, NULL, run_1x1),
    COMPUTE_TEST("buffer", "64K elements transformed, every element checked", declares_compute_queue, NULL, run_buffer),
    COMPUTE_TEST("workgroup_max", "workgroups of maxComputeWorkGroupInvocations and of the largest size per dimension",
                 declares_compute_queue, NULL, run_workgroup_max),
    COMPUTE_TEST("group_count_max", "dispatches of maxComputeWorkGroupCount groups in x, y and z, each group counted",
                 declares_compute_queue, NULL, run_group_count_max),
    COMPUTE_TEST("shared_memory_max", "exactly maxComputeSharedMemorySize bytes of workgroup memory across a barrier",
                 declares_compute_queue, NULL, run_shared_memory_max),
    COMPUTE_TEST("atomics", "32-bit atomicAdd from 4096 invocations, exact sum", declares_compute_queue, NULL,
                 run_atomics_int32),
    COMPUTE_TEST("atomics_int64", "64-bit atomicAdd on a storage buffer", declares_int64_atomics, int64_atomics_options,
                 run_atomics_int64),
    COMPUTE_TEST("atomics_float32", "float atomicAdd on a storage buffer", declares_float_atomics,
                 float_atomics_options, run_atomics_float32),
    COMPUTE_TEST("barrier", "a write dispatch, a pipeline barrier, a read dispatch over 1M elements",
                 declares_compute_queue, NULL, run_barrier),
    {"compute.timestamps", "compute", "GPU time of a known dispatch from timestamp queries", declares_timestamps, NULL,
     run_timestamps, NULL, SMOKE_RUNS_ALONE},
};
const size_t compute_test_count = sizeof(compute_tests) / sizeof(compute_tests[0]);

/* The subgroup and storage-image tests live in their own files; they share these predicates. */
bool compute_declares_queue(const cJSON *declared, const void *param, char *reason, size_t size)
{
    return declares_compute_queue(declared, param, reason, size);
}

bool compute_declares_subgroups(const cJSON *declared, const void *param, char *reason, size_t size)
{
    return declares_subgroups_in_compute(declared, param, reason, size);
}
