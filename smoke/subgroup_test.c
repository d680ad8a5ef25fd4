/* compute.subgroup: the subgroup size a compute shader observes against the declared one, every
 * declared subgroup operation class run once with its result recomputed on the host, and (where
 * subgroup size control is declared) the required minimum and maximum sizes honoured. */
#include <stdio.h>
#include <string.h>

#include "compute_tests.h"
#include "declared_query.h"
#include "smoke_spirv.h"

#define LOCAL_SIZE 128u
#define MAX_SUBGROUPS LOCAL_SIZE

struct subgroup_record {
    uint32_t subgroup_id, invocation_id, result, size;
};

struct subgroup_op {
    const char *name;
    const char *bit;
    const uint32_t *code;
};

static const struct subgroup_op ops[] = {
    {"vote", "VK_SUBGROUP_FEATURE_VOTE_BIT", smoke_spirv_subgroup_vote},
    {"arithmetic", "VK_SUBGROUP_FEATURE_ARITHMETIC_BIT", smoke_spirv_subgroup_arithmetic},
    {"ballot", "VK_SUBGROUP_FEATURE_BALLOT_BIT", smoke_spirv_subgroup_ballot},
    {"shuffle", "VK_SUBGROUP_FEATURE_SHUFFLE_BIT", smoke_spirv_subgroup_shuffle},
    {"shuffle_relative", "VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT", smoke_spirv_subgroup_shuffle_relative},
    {"clustered", "VK_SUBGROUP_FEATURE_CLUSTERED_BIT", smoke_spirv_subgroup_clustered},
    {"quad", "VK_SUBGROUP_FEATURE_QUAD_BIT", smoke_spirv_subgroup_quad},
};

static size_t op_code_size(size_t i)
{
    const size_t sizes[] = {smoke_spirv_subgroup_vote_size,
                            smoke_spirv_subgroup_arithmetic_size,
                            smoke_spirv_subgroup_ballot_size,
                            smoke_spirv_subgroup_shuffle_size,
                            smoke_spirv_subgroup_shuffle_relative_size,
                            smoke_spirv_subgroup_clustered_size,
                            smoke_spirv_subgroup_quad_size};
    return sizes[i];
}

static bool size_control_declared(const cJSON *declared)
{
    static const char *const structs[] = {"VkPhysicalDeviceSubgroupSizeControlFeatures",
                                          "VkPhysicalDeviceVulkan13Features", NULL};
    return declared_feature(declared, structs, "subgroupSizeControl") &&
           declared_flag(declared,
                         "properties/VkPhysicalDeviceSubgroupSizeControlProperties/requiredSubgroupSizeStages",
                         "VK_SHADER_STAGE_COMPUTE_BIT");
}

static void subgroup_options(const cJSON *declared, const void *param, struct gpu_options *options,
                             struct smoke_device_features *f)
{
    (void)param;
    if (!size_control_declared(declared))
        return;
    options->extensions[0] = "VK_EXT_subgroup_size_control";
    f->subgroup_size_control.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES;
    f->subgroup_size_control.subgroupSizeControl = VK_TRUE;
    options->features_chain = &f->subgroup_size_control;
}

/* Per subgroup id, how many invocations the records show. */
static void count_members(const struct subgroup_record *r, uint32_t *members)
{
    memset(members, 0, MAX_SUBGROUPS * sizeof(uint32_t));
    for (uint32_t i = 0; i < LOCAL_SIZE; ++i)
        if (r[i].subgroup_id < MAX_SUBGROUPS)
            members[r[i].subgroup_id]++;
}

/* The layout checks of the basic module: one size throughout, invocation ids below it, exactly
 * one elected invocation per subgroup and it is the lowest (all are active here: id 0). */
static uint32_t check_basic(const struct subgroup_record *r, uint32_t *observed_size)
{
    uint32_t elected[MAX_SUBGROUPS] = {0}, seen[MAX_SUBGROUPS] = {0}, wrong = 0;
    *observed_size = r[0].size;
    for (uint32_t i = 0; i < LOCAL_SIZE; ++i) {
        if (r[i].size != *observed_size || r[i].subgroup_id >= MAX_SUBGROUPS || r[i].invocation_id >= r[i].size) {
            ++wrong;
            continue;
        }
        seen[r[i].subgroup_id] = 1;
        if (r[i].result) {
            elected[r[i].subgroup_id]++;
            wrong += r[i].invocation_id != 0;
        }
    }
    for (uint32_t s = 0; s < MAX_SUBGROUPS; ++s)
        wrong += seen[s] && elected[s] != 1;
    return wrong;
}

static uint32_t expected_result(const char *op, uint32_t id, uint32_t n, bool *defined)
{
    *defined = true;
    if (strcmp(op, "vote") == 0)
        return 7u;
    if (strcmp(op, "arithmetic") == 0)
        return n * (n + 1) / 2;
    if (strcmp(op, "ballot") == 0)
        return n;
    if (strcmp(op, "shuffle") == 0)
        return 1u;
    if (strcmp(op, "shuffle_relative") == 0) {
        *defined = id + 1 < n; /* shuffling down past the last invocation is undefined */
        return id + 2;
    }
    if (strcmp(op, "clustered") == 0) {
        uint32_t first = id & ~3u, sum = 0;
        for (uint32_t k = first; k < first + 4 && k < n; ++k)
            sum += k + 1;
        return sum;
    }
    return (id & ~3u) + 1; /* quad broadcast of lane 0 */
}

static uint32_t check_op(const char *op, const struct subgroup_record *r)
{
    uint32_t members[MAX_SUBGROUPS], wrong = 0;
    count_members(r, members);
    for (uint32_t i = 0; i < LOCAL_SIZE; ++i) {
        if (r[i].subgroup_id >= MAX_SUBGROUPS)
            return LOCAL_SIZE;
        bool defined;
        uint32_t expected = expected_result(op, r[i].invocation_id, members[r[i].subgroup_id], &defined);
        if (defined && r[i].result != expected)
            ++wrong;
    }
    return wrong;
}

static struct gpu_buffer *dispatch_module(struct gpu *gpu, const uint32_t *code, size_t size, uint32_t required)
{
    static const VkDescriptorType one_buffer[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    struct gpu_buffer *b = gpu_buffer_create(gpu, LOCAL_SIZE * sizeof(struct subgroup_record), 0xFF);
    struct gpu_pipeline *p = gpu_pipeline_create(gpu, code, size, one_buffer, 1, 0, NULL, 0, required);
    gpu_bind_buffer(gpu, p, 0, b);
    gpu_dispatch(gpu, p, 1, 1, 1, NULL);
    return b;
}

static void run_subgroup(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    (void)param;
    const cJSON *declared = gpu->declared;
    VkPhysicalDeviceSubgroupSizeControlProperties control = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES};
    VkPhysicalDeviceSubgroupProperties subgroup = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
                                                   .pNext = &control};
    VkPhysicalDeviceProperties2 properties = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                              .pNext = &subgroup};
    bool size_control = size_control_declared(declared);
    if (!size_control)
        subgroup.pNext = NULL;
    vkGetPhysicalDeviceProperties2(gpu->physical, &properties);

    gpu_begin(gpu);
    struct gpu_buffer *basic = dispatch_module(gpu, smoke_spirv_subgroup_basic, smoke_spirv_subgroup_basic_size, 0);
    struct gpu_buffer *op_buffers[sizeof(ops) / sizeof(ops[0])] = {0};
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); ++i)
        if (declared_flag(declared, "properties/VkPhysicalDeviceSubgroupProperties/supportedOperations", ops[i].bit))
            op_buffers[i] = dispatch_module(gpu, ops[i].code, op_code_size(i), 0);
    /* Required sizes: both ends of the range, where the workgroup fits in the subgroup count. */
    uint32_t required[2] = {control.minSubgroupSize, control.maxSubgroupSize};
    struct gpu_buffer *sized[2] = {0};
    for (int k = 0; size_control && k < 2; ++k)
        if (required[k] > 0 && LOCAL_SIZE <= (uint64_t)control.maxComputeWorkgroupSubgroups * required[k])
            sized[k] = dispatch_module(gpu, smoke_spirv_subgroup_basic, smoke_spirv_subgroup_basic_size, required[k]);
    gpu_submit_and_wait(gpu);
    if (smoke_gpu_failed(gpu, out))
        return;

    uint32_t observed = 0, failures = 0;
    uint32_t wrong = check_basic(gpu_readback(gpu, basic), &observed);
    cJSON_AddNumberToObject(out->evidence, "declared_subgroup_size", subgroup.subgroupSize);
    cJSON_AddNumberToObject(out->evidence, "observed_subgroup_size", observed);
    cJSON_AddNumberToObject(out->evidence, "layout_errors", wrong);
    if (wrong || observed != subgroup.subgroupSize) {
        smoke_set(out, VERDICT_FAIL, "the shader saw subgroup size %u (declared %u), %u layout errors", observed,
                  subgroup.subgroupSize, wrong);
        ++failures;
    }
    cJSON *op_results = cJSON_AddObjectToObject(out->evidence, "operations");
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); ++i) {
        if (op_buffers[i] == NULL) {
            cJSON_AddStringToObject(op_results, ops[i].name, "not declared");
            continue;
        }
        uint32_t bad = check_op(ops[i].name, gpu_readback(gpu, op_buffers[i]));
        cJSON_AddStringToObject(op_results, ops[i].name, bad ? "fail" : "pass");
        if (bad && failures++ == 0)
            smoke_set(out, VERDICT_FAIL, "subgroup %s: %u of %u invocations got a wrong result", ops[i].name, bad,
                      LOCAL_SIZE);
    }
    if (size_control) {
        cJSON *sizes = cJSON_AddObjectToObject(out->evidence, "required_subgroup_size");
        cJSON_AddNumberToObject(sizes, "minSubgroupSize", control.minSubgroupSize);
        cJSON_AddNumberToObject(sizes, "maxSubgroupSize", control.maxSubgroupSize);
        for (int k = 0; k < 2; ++k) {
            const char *key = k == 0 ? "observed_with_min" : "observed_with_max";
            if (sized[k] == NULL) {
                cJSON_AddStringToObject(sizes, key, "not run: the workgroup needs more subgroups than allowed");
                continue;
            }
            uint32_t seen = 0;
            uint32_t errors = check_basic(gpu_readback(gpu, sized[k]), &seen);
            cJSON_AddNumberToObject(sizes, key, seen);
            if ((seen != required[k] || errors) && failures++ == 0)
                smoke_set(out, VERDICT_FAIL, "requiredSubgroupSize %u gave subgroups of %u", required[k], seen);
        }
    }
}

const struct smoke_test subgroup_tests[] = {
    {"compute.subgroup", "compute",
     "observed vs declared subgroup size, each declared subgroup operation, required sizes", compute_declares_subgroups,
     subgroup_options, run_subgroup, NULL, 0},
};
const size_t subgroup_test_count = 1;
