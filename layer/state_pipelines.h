/* The states of pipeline layouts, shader modules, pipelines (with their reflection), render passes
 * and framebuffers (hooks_pipelines.c, hooks_rendering.c). */
#ifndef PREFLIGHT_LAYER_STATE_PIPELINES_H
#define PREFLIGHT_LAYER_STATE_PIPELINES_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "spirv_reflect.h"

#define MAX_BOUND_SETS 32
#define MAX_VERTEX_BINDINGS 32
#define MAX_ATTACHMENTS 10

struct set_layout_state;

struct pipeline_layout_state {
    int refs;
    uint32_t set_count;
    struct set_layout_state *sets[MAX_BOUND_SETS];
};

struct pipeline_state {
    int refs;
    uint64_t id; /* unique for the layer's lifetime (a handle or address can be reused) */
    VkPipeline handle;
    VkPipelineBindPoint bind_point;
    struct pipeline_layout_state *layout;
    bool reflected;           /* false when the shader could not be reflected: checks that need it are skipped */
    bool depth_write;         /* graphics: depthWriteEnable (static state) */
    bool depth_write_dynamic; /* graphics: VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE: vkCmdSetDepthWriteEnable decides */
    bool feedback_loop;       /* graphics: created for attachment feedback loops */
    uint32_t vertex_strides[MAX_VERTEX_BINDINGS]; /* per vertex binding, 0 when unknown or per instance */
    /* what the shaders do: a compute stage, or the union of a graphics pipeline's stages */
    struct reflect_result shader; /* a compute stage's: with the subgroups it runs with */
};

struct shader_module_state {
    uint32_t *code;
    size_t size;
};

struct render_pass_state {
    uint32_t subpass_count;
    struct subpass_attachments {
        uint32_t count;
        uint32_t index[MAX_ATTACHMENTS]; /* framebuffer attachment indices */
        bool write[MAX_ATTACHMENTS];
        bool depth[MAX_ATTACHMENTS];
    } * subpasses;
    /* for the hazard tracker: each attachment's load/store operations and layout transitions at
     * the pass's start and end, and the dependencies with VK_SUBPASS_EXTERNAL (the union of the
     * application's, or the spec's implicit ones) */
    uint32_t attachment_count;
    struct pass_attachment {
        bool used, depth;
        bool load_reads, load_writes, store_writes;
        VkImageLayout initial, final, first_layout, last_layout;
        uint32_t first_subpass, last_subpass; /* where its load and store operations happen */
    } * attachments;
    uint32_t dependency_count; /* between two subpasses (not VK_SUBPASS_EXTERNAL, not a self-dependency) */
    struct pass_dependency {
        uint32_t src, dst;
        uint64_t src_stages, dst_stages, src_access, dst_access;
    } * dependencies;
    uint64_t begin_src_stages, begin_dst_stages, begin_src_access, begin_dst_access;
    uint64_t end_src_stages, end_dst_stages, end_src_access, end_dst_access;
    bool has_begin_dependency, has_end_dependency;
};

struct framebuffer_state {
    uint32_t count;
    VkImageView views[MAX_ATTACHMENTS * 2];
};

/* Reference counting (safe from any thread); STATE_RETAIN takes a reference. */
void pipeline_layout_release(struct pipeline_layout_state *s);
void pipeline_release(struct pipeline_state *s);

#endif
