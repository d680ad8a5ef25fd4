#include "session.h"

#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "artifacts.h"
#include "power.h"

/* Every VkPhysicalDevice*Features struct is sType, pNext, then VkBool32 members only: OR them. */
#define FEATURE_BOOLS(type) ((sizeof(type) - offsetof(type, pNext) - sizeof(void *)) / sizeof(VkBool32))
#define MERGE_STRUCT(member, type)                                                                                     \
    do {                                                                                                               \
        if (from_storage->member.sType != 0) {                                                                         \
            storage->member.sType = from_storage->member.sType;                                                        \
            VkBool32 *to = (VkBool32 *)((char *)&storage->member + offsetof(type, pNext) + sizeof(void *));            \
            const VkBool32 *add =                                                                                      \
                (const VkBool32 *)((const char *)&from_storage->member + offsetof(type, pNext) + sizeof(void *));      \
            for (size_t k = 0; k < FEATURE_BOOLS(type); ++k)                                                           \
                to[k] = to[k] || add[k];                                                                               \
        }                                                                                                              \
    } while (0)

void smoke_options_merge(struct gpu_options *into, struct smoke_device_features *storage,
                         const struct gpu_options *from, const struct smoke_device_features *from_storage)
{
    for (int i = 0; i < GPU_MAX_EXTENSIONS && from->extensions[i] != NULL; ++i) {
        int at = 0;
        while (at < GPU_MAX_EXTENSIONS && into->extensions[at] != NULL &&
               strcmp(into->extensions[at], from->extensions[i]))
            ++at;
        if (at < GPU_MAX_EXTENSIONS - 1 && into->extensions[at] == NULL)
            into->extensions[at] = from->extensions[i]; /* the last slot stays NULL: it ends the list */
    }
    VkBool32 *core = (VkBool32 *)&into->core;
    const VkBool32 *add = (const VkBool32 *)&from->core;
    for (size_t k = 0; k < sizeof(VkPhysicalDeviceFeatures) / sizeof(VkBool32); ++k)
        core[k] = core[k] || add[k];
    MERGE_STRUCT(atomic_int64, VkPhysicalDeviceShaderAtomicInt64Features);
    MERGE_STRUCT(atomic_float, VkPhysicalDeviceShaderAtomicFloatFeaturesEXT);
    MERGE_STRUCT(subgroup_size_control, VkPhysicalDeviceSubgroupSizeControlFeatures);
    MERGE_STRUCT(fragment_shading_rate, VkPhysicalDeviceFragmentShadingRateFeaturesKHR);
    MERGE_STRUCT(dynamic_rendering, VkPhysicalDeviceDynamicRenderingFeatures);
    MERGE_STRUCT(mesh_shader, VkPhysicalDeviceMeshShaderFeaturesEXT);
    MERGE_STRUCT(buffer_device_address, VkPhysicalDeviceBufferDeviceAddressFeatures);
    MERGE_STRUCT(acceleration_structure, VkPhysicalDeviceAccelerationStructureFeaturesKHR);
    MERGE_STRUCT(ray_query, VkPhysicalDeviceRayQueryFeaturesKHR);
    MERGE_STRUCT(ray_tracing_pipeline, VkPhysicalDeviceRayTracingPipelineFeaturesKHR);
    MERGE_STRUCT(variable_pointers, VkPhysicalDeviceVariablePointersFeatures);
    MERGE_STRUCT(float16_int8, VkPhysicalDeviceShaderFloat16Int8Features);
    MERGE_STRUCT(memory_model, VkPhysicalDeviceVulkanMemoryModelFeatures);
    MERGE_STRUCT(zero_initialize_workgroup_memory, VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures);
    MERGE_STRUCT(storage_8bit, VkPhysicalDevice8BitStorageFeatures);
    MERGE_STRUCT(storage_16bit, VkPhysicalDevice16BitStorageFeatures);
    MERGE_STRUCT(depth_clamp_zero_one, VkPhysicalDeviceDepthClampZeroOneFeaturesEXT);
    MERGE_STRUCT(index_type_uint8, VkPhysicalDeviceIndexTypeUint8FeaturesEXT);
    MERGE_STRUCT(subgroup_extended_types, VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures);
    /* one chain over every struct in use */
    VkBaseOutStructure *chain[] = {
        (VkBaseOutStructure *)&storage->atomic_int64,
        (VkBaseOutStructure *)&storage->atomic_float,
        (VkBaseOutStructure *)&storage->subgroup_size_control,
        (VkBaseOutStructure *)&storage->fragment_shading_rate,
        (VkBaseOutStructure *)&storage->dynamic_rendering,
        (VkBaseOutStructure *)&storage->mesh_shader,
        (VkBaseOutStructure *)&storage->buffer_device_address,
        (VkBaseOutStructure *)&storage->acceleration_structure,
        (VkBaseOutStructure *)&storage->ray_query,
        (VkBaseOutStructure *)&storage->ray_tracing_pipeline,
        (VkBaseOutStructure *)&storage->variable_pointers,
        (VkBaseOutStructure *)&storage->float16_int8,
        (VkBaseOutStructure *)&storage->memory_model,
        (VkBaseOutStructure *)&storage->zero_initialize_workgroup_memory,
        (VkBaseOutStructure *)&storage->storage_8bit,
        (VkBaseOutStructure *)&storage->storage_16bit,
        (VkBaseOutStructure *)&storage->depth_clamp_zero_one,
        (VkBaseOutStructure *)&storage->index_type_uint8,
        (VkBaseOutStructure *)&storage->subgroup_extended_types,
    };
    VkBaseOutStructure *head = NULL;
    for (size_t i = sizeof(chain) / sizeof(chain[0]); i-- > 0;) {
        if (chain[i]->sType == 0)
            continue;
        chain[i]->pNext = head;
        head = chain[i];
    }
    into->features_chain = head;
}

static void options_of(const struct smoke_test *test, const cJSON *declared, struct gpu_options *options,
                       struct smoke_device_features *features)
{
    memset(options, 0, sizeof(*options));
    memset(features, 0, sizeof(*features));
    if (test->device_options != NULL)
        test->device_options(declared, test->param, options, features);
}

void smoke_session_init(struct smoke_session *s, const cJSON *declared, VkInstance instance, VkPhysicalDevice physical,
                        uint32_t api_version, const bool *selected, bool per_test, const struct power_options *power)
{
    memset(s, 0, sizeof(*s));
    s->declared = declared;
    s->instance = instance;
    s->physical = physical;
    s->api_version = api_version;
    s->per_test = per_test;
    bool samples_power = false;
    char reason[512];
    for (size_t i = 0; i < smoke_test_count(); ++i) {
        const struct smoke_test *test = smoke_test_get(i);
        /* the runner's selection already holds only declared tests: no second walk of the JSON */
        bool runs = selected != NULL ? selected[i] : test->declared(declared, test->param, reason, sizeof(reason));
        if (!runs)
            continue;
        samples_power |= (test->flags & SMOKE_SAMPLES_POWER) != 0;
        if (per_test || (test->flags & SMOKE_OWN_DEVICE))
            continue;
        struct gpu_options options;
        struct smoke_device_features features;
        options_of(test, declared, &options, &features);
        smoke_options_merge(&s->options, &s->features, &options, &features);
    }
    if (samples_power) {
        struct power_device_id id;
        power_device_id_of(physical, &id);
        s->power = power_meter_create(&id, power);
    }
}

static bool open_device(struct smoke_session *s, struct gpu *gpu, const struct gpu_options *options)
{
    memset(gpu, 0, sizeof(*gpu));
    ++s->devices_created;
    return gpu_open(gpu, s->instance, s->physical, s->api_version, options);
}

/* The fault injection of test builds (runner tests): applied after the device exists. */
static bool inject(struct gpu *gpu, enum smoke_fault fault, struct smoke_outcome *out)
{
    switch (fault) {
    case SMOKE_FAULT_CRASH:
        raise(SIGSEGV);
        break;
    case SMOKE_FAULT_HANG:
        for (;;)
            pause();
    case SMOKE_FAULT_WRONG_RESULT:
        gpu->corrupt_readback = true;
        break;
    case SMOKE_FAULT_DEVICE_LOST:
        /* as a driver reports it: the device's next call fails with VK_ERROR_DEVICE_LOST */
        gpu_check(gpu, VK_ERROR_DEVICE_LOST, "vkQueueSubmit (injected)");
        smoke_gpu_failed(gpu, out);
        return false;
    case SMOKE_FAULT_NONE:
        break;
    }
    return true;
}

void smoke_session_run(struct smoke_session *s, const struct smoke_test *test, enum smoke_fault fault,
                       struct smoke_outcome *out)
{
    out->evidence = cJSON_CreateObject();
    artifacts_begin_test(test->id);
    bool shared = !s->per_test && !s->union_refused && !(test->flags & SMOKE_OWN_DEVICE);
    struct gpu own;
    struct gpu *gpu = shared ? &s->gpu : &own;
    if (shared && s->gpu.device == VK_NULL_HANDLE && !open_device(s, &s->gpu, &s->options)) {
        /* a driver that refuses the union (some combination it cannot enable together): from
         * now on each test creates the device it alone needs */
        gpu_close(&s->gpu);
        s->union_refused = true;
        shared = false;
        gpu = &own;
    }
    if (!shared) {
        struct gpu_options options;
        struct smoke_device_features features;
        options_of(test, s->declared, &options, &features);
        if (!open_device(s, &own, &options)) {
            smoke_gpu_failed(&own, out);
            gpu_close(&own);
            return;
        }
    }
    gpu->declared = s->declared;
    gpu->power = s->power;
    power_meter_begin_test(s->power, test->id);
    if (inject(gpu, fault, out)) {
        out->status = VERDICT_PASS;
        test->run(gpu, test->param, out);
    }
    cJSON_AddBoolToObject(out->evidence, "shared_device", shared);
    /* a failed call may have left the device in any state: the next test gets a new one */
    if (!shared || gpu_failed(gpu))
        gpu_close(gpu);
    else
        gpu_release(gpu);
    /* volk's device functions are global: after a device of the test's own, the shared device's
     * again (some, e.g. vkCmdTraceRaysKHR on NVIDIA, are per device: a dead device's crash) */
    if (!shared && s->gpu.device != VK_NULL_HANDLE)
        volkLoadDevice(s->gpu.device);
}

void smoke_session_close(struct smoke_session *s)
{
    gpu_close(&s->gpu);
    power_meter_destroy(s->power);
    s->power = NULL;
}
