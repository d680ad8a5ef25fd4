/* A small Vulkan toolkit for the smoke tests: one device with one compute-capable queue, host-
 * visible buffers, storage images, compute pipelines and a one-shot command buffer. Everything
 * created is tracked and destroyed by gpu_close, so each test stays clean under
 * Vulkan-ValidationLayers. The first failing call is remembered, with its VkResult, so a test
 * can stop and say which call failed (and the runner can tell device loss from other errors). */
#ifndef PREFLIGHT_SMOKE_GPU_H
#define PREFLIGHT_SMOKE_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <volk.h>

#define GPU_MAX_OBJECTS 256

struct gpu_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *mapped;
    VkDeviceSize size;
};

struct gpu_image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view; /* every level and layer */
    VkFormat format;
    uint32_t width, height;
    uint32_t depth, mip_levels;
    VkImageAspectFlags aspect;
};

struct gpu_pipeline {
    VkShaderModule modules[3];
    uint32_t module_count;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkPipeline pipeline;
    uint32_t push_size;
};

/* What a test needs enabled at device creation (only ever what the device declares). */
#define GPU_MAX_EXTENSIONS 64 /* the shared device enables the union of every test's, AmberScript files' too */

struct gpu_options {
    const char *extensions[GPU_MAX_EXTENSIONS]; /* enabled when the device has them; NULL ends the list */
    const void *features_chain;                 /* VkPhysicalDevice*Features structs to pass in pNext */
    VkPhysicalDeviceFeatures core;              /* core features to enable */
};

struct gpu {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    uint32_t timestamp_valid_bits; /* of the queue family (0: it cannot time) */
    VkCommandPool command_pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceMemoryProperties memory_properties;
    uint32_t api_version;      /* min(instance, device) */
    const void *declared;      /* the device's `declared` report block (a cJSON object), for tests */
    struct power_meter *power; /* the worker's power meter (smoke/power/meter.h), for tests; NULL: none */

    VkResult error;        /* first failure, VK_SUCCESS if none */
    char error_call[128];  /* the call that failed */
    bool corrupt_readback; /* fault injection: gpu_readback flips the first word (test builds) */

    struct gpu_buffer *buffers[GPU_MAX_OBJECTS];
    struct gpu_image *images[GPU_MAX_OBJECTS];
    struct gpu_pipeline *pipelines[GPU_MAX_OBJECTS];
    VkQueryPool query_pools[4];
    VkAccelerationStructureKHR acceleration_structures[8];
    uint32_t buffer_count, image_count, pipeline_count, query_pool_count, acceleration_structure_count;
};

bool gpu_open(struct gpu *gpu, VkInstance instance, VkPhysicalDevice physical, uint32_t api_version,
              const struct gpu_options *options);
void gpu_close(struct gpu *gpu);
/* Destroys what was created on the device (buffers, images, pipelines, query pools, acceleration
 * structures) and keeps the device, its queue, command buffer and fence for the next test. */
void gpu_release(struct gpu *gpu);

/* Records `result` of `call`; false (and remembered) unless it is VK_SUCCESS. */
bool gpu_check(struct gpu *gpu, VkResult result, const char *call);
#define GPU_CHECK(gpu, expression) gpu_check((gpu), (expression), #expression)
bool gpu_failed(const struct gpu *gpu);

/* A host-visible, coherent storage buffer, its bytes set to `fill`. */
struct gpu_buffer *gpu_buffer_create(struct gpu *gpu, VkDeviceSize size, uint8_t fill);
/* The same with extra usage bits; with SHADER_DEVICE_ADDRESS the memory is allocated for it. */
struct gpu_buffer *gpu_buffer_create_with_usage(struct gpu *gpu, VkDeviceSize size, VkBufferUsageFlags usage,
                                                uint8_t fill);
VkDeviceAddress gpu_buffer_address(struct gpu *gpu, const struct gpu_buffer *b);
/* A 2D image (optimal tiling, device-local) and its view, left in VK_IMAGE_LAYOUT_UNDEFINED. */
struct gpu_image *gpu_image_create(struct gpu *gpu, VkFormat format, uint32_t width, uint32_t height,
                                   VkImageUsageFlags usage);
/* Any image `info` describes (1D, 2D, 3D, mip levels, samples), device-local, with a view of all
 * of it for `aspect` (depth and stencil views are of the depth aspect when both are given). */
struct gpu_image *gpu_image_create_from(struct gpu *gpu, const VkImageCreateInfo *info, VkImageAspectFlags aspect);

/* The layout part of a pipeline: one descriptor set of `bindings` (visible to `stages`) with its
 * pool and set allocated, and push constants of `push_size` bytes. The caller adds modules and
 * creates p->pipeline (graphics.c does this for graphics pipelines). */
struct gpu_pipeline *gpu_pipeline_new(struct gpu *gpu, const VkDescriptorType *bindings, uint32_t binding_count,
                                      VkShaderStageFlags stages, uint32_t push_size);
VkShaderModule gpu_pipeline_add_module(struct gpu *gpu, struct gpu_pipeline *p, const uint32_t *code, size_t size);

/* A compute pipeline from SPIR-V with one descriptor set of `bindings`, push constants of
 * `push_size` bytes and specialization constants 0..spec_count-1. required_subgroup_size > 0
 * asks for that subgroup size (VK_EXT_subgroup_size_control). */
struct gpu_pipeline *gpu_pipeline_create(struct gpu *gpu, const uint32_t *code, size_t code_size,
                                         const VkDescriptorType *bindings, uint32_t binding_count, uint32_t push_size,
                                         const uint32_t *spec_values, uint32_t spec_count,
                                         uint32_t required_subgroup_size);
void gpu_bind_buffer(struct gpu *gpu, struct gpu_pipeline *p, uint32_t binding, const struct gpu_buffer *b);
void gpu_bind_image(struct gpu *gpu, struct gpu_pipeline *p, uint32_t binding, const struct gpu_image *image);
void gpu_bind_acceleration_structure(struct gpu *gpu, struct gpu_pipeline *p, uint32_t binding,
                                     VkAccelerationStructureKHR structure);

/* Recording: begin, dispatches and barriers, then submit and wait. gpu_submit_and_wait first
 * records a barrier that makes shader and transfer writes visible to the host. */
bool gpu_begin(struct gpu *gpu);
void gpu_dispatch(struct gpu *gpu, const struct gpu_pipeline *p, uint32_t x, uint32_t y, uint32_t z, const void *push);
void gpu_compute_barrier(struct gpu *gpu); /* compute shader writes -> compute shader reads/writes */
void gpu_memory_barrier(struct gpu *gpu, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                        VkPipelineStageFlags dst_stage, VkAccessFlags dst_access);
void gpu_image_layout(struct gpu *gpu, const struct gpu_image *image, VkImageLayout from, VkImageLayout to,
                      VkPipelineStageFlags src_stage, VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                      VkAccessFlags dst_access);
bool gpu_submit_and_wait(struct gpu *gpu);

/* A command buffer submitted more than once (power sampling repeats a batch of passes): begin
 * without ONE_TIME_SUBMIT, end (with the same HOST barrier), then submit and wait as often as
 * needed. gpu_wait_for waits up to `timeout_ns`: 1 done, 0 not yet, -1 failed (remembered). */
bool gpu_begin_repeatable(struct gpu *gpu);
bool gpu_end(struct gpu *gpu);
bool gpu_submit(struct gpu *gpu);
int gpu_wait_for(struct gpu *gpu, uint64_t timeout_ns);

/* The buffer's contents after the GPU wrote them. */
const void *gpu_readback(struct gpu *gpu, const struct gpu_buffer *b);

#endif
