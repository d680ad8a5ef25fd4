/* The GPU smoke tests: small programs whose results are read back and checked on the host, so a
 * report can say what a device *really* does beside what it declares. A test is one entry in a
 * table: its id (e.g. "compute.1x1"), the matrix group, what the device must declare for it to
 * run (checked against the report's `declared` block, before any process is started), how the
 * device must be created, and the function that runs it. The runner (probes/runner.c) runs each
 * test in worker processes (probes/worker.c) on a device a session shares (session.h). */
#ifndef PREFLIGHT_SMOKE_H
#define PREFLIGHT_SMOKE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "gpu.h"
#include "verdict.h"

struct smoke_outcome {
    enum verdict status;
    char reason[512];
    cJSON *evidence; /* owned by the outcome */
};

/* Room for the feature structs a test chains into VkDeviceCreateInfo. */
struct smoke_device_features {
    VkPhysicalDeviceShaderAtomicInt64Features atomic_int64;
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomic_float;
    VkPhysicalDeviceSubgroupSizeControlFeatures subgroup_size_control;
    VkPhysicalDeviceFragmentShadingRateFeaturesKHR fragment_shading_rate;
    VkPhysicalDeviceDynamicRenderingFeatures dynamic_rendering;
    VkPhysicalDeviceMeshShaderFeaturesEXT mesh_shader;
    VkPhysicalDeviceBufferDeviceAddressFeatures buffer_device_address;
    VkPhysicalDeviceAccelerationStructureFeaturesKHR acceleration_structure;
    VkPhysicalDeviceRayQueryFeaturesKHR ray_query;
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR ray_tracing_pipeline;
    /* what AmberScript files ask for with DEVICE_FEATURE (amber/) */
    VkPhysicalDeviceVariablePointersFeatures variable_pointers;
    VkPhysicalDeviceShaderFloat16Int8Features float16_int8;
    VkPhysicalDeviceVulkanMemoryModelFeatures memory_model;
    VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures zero_initialize_workgroup_memory;
    VkPhysicalDevice8BitStorageFeatures storage_8bit;
    VkPhysicalDevice16BitStorageFeatures storage_16bit;
    VkPhysicalDeviceDepthClampZeroOneFeaturesEXT depth_clamp_zero_one;
    VkPhysicalDeviceIndexTypeUint8FeaturesEXT index_type_uint8;
    VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures subgroup_extended_types;
};

struct smoke_test {
    const char *id;
    const char *group;       /* matrix group: "compute", "vrs", "ray_query", ... */
    const char *description; /* one line for --list-tests */
    /* true when the device declares what the test needs; otherwise `reason` names what is missing */
    bool (*declared)(const cJSON *declared, const void *param, char *reason, size_t size);
    /* what to enable at device creation (only what `declared` shows); NULL for nothing */
    void (*device_options)(const cJSON *declared, const void *param, struct gpu_options *options,
                           struct smoke_device_features *storage);
    void (*run)(struct gpu *gpu, const void *param, struct smoke_outcome *out);
    const void *param;
    unsigned flags; /* SMOKE_* below */
};

/* The test's evidence includes GPU timings: the runner runs it with no other test beside it. */
#define SMOKE_RUNS_ALONE 1u
/* The test samples power around its timed passes (power/power.h): its worker opens the sensor. */
#define SMOKE_SAMPLES_POWER 2u
/* The test runs on a device of its own options only, and they stay out of the shared device: what
 * it enables changes what other tests observe (VK_EXT_depth_range_unrestricted leaves a
 * floating-point depth unclamped where every other test expects [0, 1]). */
#define SMOKE_OWN_DEVICE 4u

/* Faults the test build can inject into a test, to prove the runner catches them. */
enum smoke_fault {
    SMOKE_FAULT_NONE,
    SMOKE_FAULT_CRASH,
    SMOKE_FAULT_HANG,
    SMOKE_FAULT_WRONG_RESULT,
    SMOKE_FAULT_DEVICE_LOST
};

/* Every test, in the order they run. */
size_t smoke_test_count(void);
const struct smoke_test *smoke_test_get(size_t index);
/* Adds tests made at run time (the probe's --amber files) after the built-in ones; `tests` stays
 * valid while the probe runs. Call before the workers start: they inherit the table. */
void smoke_tests_add(const struct smoke_test *tests, size_t count);

/* Tests run through a session (session.h), which owns the device they use. */

/* Helpers for test files. */
void smoke_set(struct smoke_outcome *out, enum verdict status, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* When a Vulkan call failed: `device_lost` or `fail` naming the call; returns true if it did. */
bool smoke_gpu_failed(const struct gpu *gpu, struct smoke_outcome *out);
/* Reason text helper for `declared` predicates. */
bool smoke_missing(char *reason, size_t size, const char *format, ...) __attribute__((format(printf, 3, 4)));

#endif
