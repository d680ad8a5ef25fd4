/* Graphics for the smoke tests: a color target read back into a host buffer, graphics
 * pipelines for dynamic rendering (vertex or mesh shading), and the rendering scope. Built on
 * gpu.h; objects are tracked and destroyed by gpu_close like the rest. */
#ifndef PREFLIGHT_SMOKE_GRAPHICS_H
#define PREFLIGHT_SMOKE_GRAPHICS_H

#include "gpu.h"

struct graphics_target {
    struct gpu_image *image;
    struct gpu_buffer *readback; /* width * height texels of texel_size bytes, after graphics_end */
    uint32_t width, height, texel_size;
};

struct graphics_pipeline_desc {
    const uint32_t *stage_code[3]; /* SPIR-V per stage: vertex or task+mesh, then fragment */
    size_t stage_size[3];
    VkShaderStageFlagBits stages[3];
    uint32_t stage_count;
    VkFormat color_format;
    const VkDescriptorType *bindings; /* one set, visible to every stage */
    uint32_t binding_count;
    const void *create_next;            /* chained into VkGraphicsPipelineCreateInfo after rendering info */
    VkDynamicState extra_dynamic_state; /* beside viewport and scissor; 0 for none */
    VkPipelineCreateFlags flags;
};

bool graphics_target_create(struct gpu *gpu, struct graphics_target *t, VkFormat format, uint32_t width,
                            uint32_t height, uint32_t texel_size);
struct gpu_pipeline *graphics_pipeline_create(struct gpu *gpu, const struct graphics_pipeline_desc *desc);

/* Transitions the target, begins dynamic rendering cleared to `clear` (rendering_next is chained
 * into VkRenderingInfo), binds the pipeline and its set, sets viewport and scissor. */
void graphics_begin(struct gpu *gpu, struct graphics_target *t, VkClearColorValue clear, const void *rendering_next,
                    const struct gpu_pipeline *p);
/* Ends rendering and copies the target into t->readback. */
void graphics_end(struct gpu *gpu, struct graphics_target *t);
/* Between two scopes on one target in one command buffer (timed samples): the next copy into
 * t->readback waits for the previous one. */
void graphics_between_scopes(struct gpu *gpu);

#endif
