/* What layer_app's scenario files (alias, hazard, host) share: the objects a scenario creates,
 * destroyed at its end, and the helpers that create and record them. */
#ifndef PREFLIGHT_TESTS_LAYER_APP_OBJECTS_H
#define PREFLIGHT_TESTS_LAYER_APP_OBJECTS_H

#include "layer_app.h"

#define MAX_OBJECTS 16

/* Everything a scenario creates, destroyed at its end (leak checkers watch the driver too). */
struct objects {
    struct app *a;
    VkDescriptorSetLayout set_layouts[MAX_OBJECTS];
    VkPipelineLayout pipeline_layouts[MAX_OBJECTS];
    VkPipeline pipelines[MAX_OBJECTS];
    VkShaderModule modules[MAX_OBJECTS];
    VkImage images[MAX_OBJECTS];
    VkImageView views[MAX_OBJECTS];
    VkDeviceMemory memories[MAX_OBJECTS];
    VkBuffer buffers[MAX_OBJECTS];
    struct buffer owned[MAX_OBJECTS];
    uint32_t set_layout_count, pipeline_layout_count, pipeline_count, module_count, image_count, view_count,
        memory_count, buffer_count, owned_count;
    VkDescriptorPool pool;
    VkSampler sampler;
    VkRenderPass render_pass;
    VkFramebuffer framebuffer;
};

/* alias_copy.comp reading `src` [offset, offset + 4096) and writing `dst`, bound and ready. */
struct copy_setup {
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkDescriptorSet set;
};

void destroy_objects(struct objects *o);
VkBuffer new_buffer(struct objects *o, VkDeviceSize size, VkBufferUsageFlags usage);
VkDescriptorSetLayout new_set_layout(struct objects *o, const VkDescriptorType *types, uint32_t count);
VkDescriptorSet new_set(struct objects *o, VkDescriptorSetLayout layout);
void write_buffer(struct objects *o, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, VkBuffer buffer,
                  VkDeviceSize offset, VkDeviceSize range);
void write_image_in(struct objects *o, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, VkImageView view,
                    VkImageLayout layout);
void write_image(struct objects *o, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, VkImageView view);
VkShaderModule new_module(struct objects *o, const uint32_t *code, size_t size);
VkPipelineLayout new_pipeline_layout(struct objects *o, const VkDescriptorSetLayout *sets, uint32_t count);
VkPipeline new_compute(struct objects *o, const uint32_t *code, size_t size, VkPipelineLayout layout);
/* A 64x64 image of `format` with `mips` levels, in device memory (destroyed with `o`). */
VkImage new_image_of(struct objects *o, VkFormat format, uint32_t mips, VkImageUsageFlags usage);
/* The same in R32_SFLOAT, the scenarios' color format. */
VkImage new_image(struct objects *o, uint32_t mips, VkImageUsageFlags usage);
VkImageView new_view(struct objects *o, VkImage image, uint32_t mip);
extern const VkDescriptorType copy_types[];
/* alias_copy.comp reading src and writing dst, dispatched (or indirectly from `indirect`). */
void copy_dispatch(struct objects *o, const char *name, VkBuffer src, VkDeviceSize src_offset, VkBuffer dst,
                   VkDeviceSize dst_offset, VkDeviceSize range, VkBuffer indirect, bool submit);
/* The scenario's render pass and a 64x64 framebuffer of `views` (one per attachment) for it (destroyed with `o`). */
void new_render_pass(struct objects *o, const VkRenderPassCreateInfo *info, const VkImageView *views);
/* A graphics pipeline drawing a fullscreen triangle into one R32_SFLOAT color attachment of
 * `subpass`, with fragment shader `frag`. */
VkPipeline new_fullscreen_pipeline(struct objects *o, VkPipelineLayout layout, VkRenderPass render_pass,
                                   uint32_t subpass, const uint32_t *frag, size_t frag_size);
struct copy_setup copy_setup(struct objects *o, VkBuffer src, VkDeviceSize src_offset, VkBuffer dst);
void copy_run(VkCommandBuffer cb, const struct copy_setup *c);
void buffer_barrier(VkCommandBuffer cb, VkBuffer buffer, VkPipelineStageFlags src, VkAccessFlags src_access,
                    VkPipelineStageFlags dst, VkAccessFlags dst_access);
void image_barrier(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to, VkPipelineStageFlags src,
                   VkAccessFlags src_access, VkPipelineStageFlags dst, VkAccessFlags dst_access);
void level_barrier(VkCommandBuffer cb, VkImage image, uint32_t level, VkImageLayout from, VkImageLayout to,
                   VkAccessFlags src_access, VkPipelineStageFlags dst, VkAccessFlags dst_access);
VkFence new_fence(struct app *a);
VkSemaphore new_semaphore(struct app *a, bool timeline);
/* the stage semaphore waits of submit_one wait at: compute, where the scenarios read */
extern VkPipelineStageFlags submit_wait_stage;
/* One batch: optional wait (at compute) and signal, timeline values when `values`. */
void submit_one(VkQueue queue, VkCommandBuffer cb, VkSemaphore wait, VkSemaphore signal, bool values, VkFence fence);
long resident_kb(void);
/* A render pass with one R32_SFLOAT color attachment `view` and optional dependencies, with its
 * framebuffer, for scenarios that need two passes (the caller destroys both). */
void pass_with(struct objects *o, VkImageView view, VkAttachmentLoadOp load, VkImageLayout initial_layout,
               VkImageLayout final_layout, const VkSubpassDependency *dependency, VkRenderPass *pass,
               VkFramebuffer *framebuffer);
void second_pass(struct objects *o, VkImageView view, VkImageLayout final_layout, const VkSubpassDependency *dependency,
                 VkRenderPass *pass, VkFramebuffer *framebuffer);
void run_pass(VkCommandBuffer cb, VkRenderPass pass, VkFramebuffer framebuffer, VkPipeline pipeline,
              VkPipelineLayout layout, VkDescriptorSet set);

#endif
