/* The executor's state, shared by exec.c (the run and its verdict), exec_resources.c (buffers,
 * images, samplers and keeping the host and device copies in step), exec_pipeline.c (descriptor
 * sets, pipelines, render passes) and exec_commands.c (recording RUN/CLEAR/COPY, deciding EXPECT).
 *
 * How a file runs: every script buffer is a host-visible VkBuffer holding its data in the
 * file's layout; a buffer bound as an image also has a VkImage, kept in VK_IMAGE_LAYOUT_GENERAL,
 * with copies recorded between the two when one is newer. GPU commands are recorded one after
 * the other into one command buffer, a full memory barrier between each two (so a dispatch reads
 * what the one before it wrote, on the device), and submitted only when the host must look
 * (EXPECT, COPY) or the batch is long. Internal to amber/. */
#ifndef PREFLIGHT_AMBER_EXEC_H
#define PREFLIGHT_AMBER_EXEC_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "gpu.h"
#include "script.h"
#include "shader.h"
#include "smoke.h"

#define EXEC_BATCH_COMMANDS 512 /* GPU commands recorded before a submission at the latest */
#define EXEC_MAX_VARIANTS 8     /* graphics pipelines per PIPELINE (topology x vertex input) */
#define EXEC_MAX_TIMINGS 64     /* TIMED_EXECUTION results kept in the evidence */

struct exec_buffer {
    uint64_t elements;          /* planned */
    uint64_t bytes;             /* elements x stride */
    struct gpu_buffer *data;    /* host-visible: the file's view of the buffer */
    struct gpu_image *image;    /* when bound as an image */
    struct gpu_buffer *scratch; /* combined depth/stencil: the per-aspect copies, interleaved on the host */
    bool scratch_pending;       /* a copy into `scratch` waits for its submission */
    uint32_t width, height, depth;
    VkImageUsageFlags image_usage;
    VkImageType image_type;
    VkSampleCountFlagBits samples;
    bool image_newer;      /* the device wrote the image after the last copy to `data` */
    bool data_newer;       /* the host wrote `data` after the last copy to the image */
    bool written_in_batch; /* the device may write it in the commands recorded and not yet submitted */
    bool is_attachment, is_depth_stencil;
};

struct exec_variant {
    bool rect; /* DRAW_RECT/DRAW_GRID's own vertices, not VERTEX_DATA */
    VkPrimitiveTopology topology;
    VkPipeline pipeline;
};

struct exec_pipeline {
    VkDescriptorSetLayout set_layouts[32];
    VkDescriptorSet sets[32];
    uint32_t set_count;
    VkDescriptorPool pool;
    VkPipelineLayout layout;
    uint32_t push_size;
    VkShaderModule modules[AMBER_MAX_STAGES];
    VkPipeline compute;
    /* graphics */
    VkRenderPass render_pass;
    VkFramebuffer framebuffer;
    uint32_t width, height;
    struct exec_variant variants[EXEC_MAX_VARIANTS];
    uint32_t variant_count;
    float clear_color[4]; /* 0..255, CLEAR_COLOR */
    float clear_depth;
    uint32_t clear_stencil;
    VkSampleCountFlagBits samples;
    bool created;
    /* ray_tracing: the pipeline, the libraries made for it (with its layout), and where each of
     * its SHADER_BINDING_TABLEs lies (one buffer holds them all) */
    VkPipeline ray_tracing;
    VkPipeline *library_pipelines;
    uint32_t library_pipeline_count, library_pipeline_capacity;
    VkStridedDeviceAddressRegionKHR *sbt_regions;
    /* per set: the dynamic offsets in binding order */
    uint32_t dynamic_offsets[32][64];
    uint32_t dynamic_counts[32];
};

struct exec {
    struct gpu *gpu;
    const struct amber_script *script;
    const char *file;
    struct smoke_outcome *out;
    struct exec_buffer *buffers;
    struct exec_pipeline *pipelines;
    struct amber_spirv *spirv; /* per shader, compiled when a pipeline first needs it */
    VkSampler *samplers;
    /* Vulkan objects made along the way (views, vertex buffers of DRAW_RECT): destroyed at the end */
    VkImageView *views;
    uint32_t view_count, view_capacity;
    VkBufferView *buffer_views;
    uint32_t buffer_view_count, buffer_view_capacity;
    bool recording;
    uint32_t recorded; /* GPU commands in the open command buffer */
    VkQueryPool timing_pool;
    uint32_t timing_queries;
    uint32_t timing_lines[EXEC_MAX_TIMINGS];
    cJSON *timings;
    /* the outcome so far */
    bool stopped; /* an error ended the run: `out` says why */
    uint32_t expectations_run, expectations_failed;
    cJSON *failures;
    char first_failure[448];
    VkPhysicalDeviceSubgroupSizeControlProperties subgroup_size;
    struct gpu_buffer **rect_vertices; /* per command: DRAW_RECT/DRAW_GRID's vertices, made once */
    struct gpu_buffer *zero_vertex;    /* DRAW_RECT/DRAW_GRID: one vertex of zeros for other locations */
    /* ray tracing */
    VkShaderModule *shader_modules; /* per shader, made when a ray_tracing pipeline first needs it */
    VkAccelerationStructureKHR *blases, *tlases;
    VkPhysicalDeviceRayTracingPipelinePropertiesKHR ray_tracing;
};

/* Ends the run with a verdict (the first one wins); returns false for `return exec_stop(...)`. */
bool exec_stop(struct exec *e, enum verdict status, const char *format, ...) __attribute__((format(printf, 3, 4)));
/* When a Vulkan call failed: stops with device_lost or fail naming it; true if it did. */
bool exec_vulkan_failed(struct exec *e);
/* After the toolkit gave no buffer or image: the Vulkan call that failed, or its limit of objects
 * (GPU_MAX_OBJECTS; a limit of preflight: skipped). Returns false. */
bool exec_no_object(struct exec *e, const char *what);

/* exec_resources.c */
bool exec_plan_buffers(struct exec *e);
bool exec_create_samplers(struct exec *e);
bool exec_record_begin(struct exec *e);
void exec_barrier(struct exec *e);
bool exec_flush(struct exec *e);
/* Before a GPU command reads `buffer`'s image: the host's newer data copied in. */
void exec_upload_image(struct exec *e, uint32_t buffer);
/* Before the host reads `buffer`: the device's newer image copied out, and every recorded command
 * finished. */
bool exec_sync_to_host(struct exec *e, uint32_t buffer);
VkImageView exec_image_view(struct exec *e, uint32_t buffer, uint32_t base_mip, uint32_t levels, bool attachment);
VkBufferView exec_buffer_view(struct exec *e, uint32_t buffer);
void exec_destroy_resources(struct exec *e);

/* exec_pipeline.c */
VkShaderStageFlagBits exec_stage_bit(enum amber_stage stage);
/* The shader's SPIR-V (once), or a stop: it does not compile, or the device cannot take it. */
bool exec_compile(struct exec *e, uint32_t shader);
bool exec_create_pipeline(struct exec *e, uint32_t index);
VkPipeline exec_graphics_variant(struct exec *e, uint32_t index, bool rect, VkPrimitiveTopology topology);
void exec_bind_pipeline(struct exec *e, uint32_t index, VkPipelineBindPoint point);
void exec_destroy_pipelines(struct exec *e);

/* exec_ray.c */
/* Every ACCELERATION_STRUCTURE made and its build recorded (before the pipelines: descriptors name
 * them), then a barrier. */
bool exec_build_acceleration_structures(struct exec *e);
/* After the layout: the ray_tracing pipeline (its libraries made with its layout), and its tables. */
bool exec_create_ray_tracing(struct exec *e, uint32_t index);
bool exec_trace_rays(struct exec *e, const struct amber_command *c);
void exec_destroy_acceleration_structures(struct exec *e);

/* exec_commands.c */
bool exec_run_commands(struct exec *e, uint32_t first, uint32_t count);

#endif
