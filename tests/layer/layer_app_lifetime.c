/* layer_app's lifetime and dispatch-coverage scenarios: the bugs engines ship with, each beside
 * the correct program it is a mistake of.
 *
 * Lifetime (a copy dispatch, alias_copy.comp, reading one buffer and writing another through one
 * descriptor set):
 *   lifetime-destroy-pending        a buffer destroyed while the submission that writes it runs
 *   lifetime-destroy-after-wait     the same after its fence (correct)
 *   lifetime-destroy-other-pending  buffers of completed work destroyed while other work runs (correct)
 *   lifetime-destroy-kinds-pending  a sampled view, its sampler (found through the pending set's
 *                                   descriptors), the pipeline, the set and the output's memory
 *                                   destroyed or freed while the dispatch is pending (sampled.comp)
 *   lifetime-pool-reset-pending     a frame's descriptor pool reset before the frame's fence
 *   lifetime-frames                 two frames in flight, per-frame command and descriptor pools reset
 *                                   and transient buffers destroyed after each frame's fence (correct)
 *   lifetime-frames-early-reset     the same with the command pool reset before the fence
 *   lifetime-stale-set              a set kept across its pool's reset, bound in the next frame
 *   lifetime-stale-set-submit       a recorded set freed, then the command buffer submitted
 *   lifetime-destroyed-after-recording  a buffer destroyed between recording and submit
 *   lifetime-update-pending         a set rewritten while a submission uses it
 *   lifetime-update-after-bind      the same set, its binding UPDATE_AFTER_BIND (correct)
 *   lifetime-begin-pending          a command buffer re-recorded while its submission runs
 *   lifetime-completion-chains      completion known through a timeline's host wait and through a
 *                                   fence of work that waited for a semaphore (correct)
 *   lifetime-counter-read-early     a timeline's counter read on the host says 1, and a buffer of
 *                                   the batch that signals 2 is destroyed: that batch has not run
 *   lifetime-counter-read-fixed     the same after waiting for 2 (correct)
 *   lifetime-set-handle-reused      a set freed and another allocated in its place (drivers hand
 *                                   the freed handle out again) between two recordings of one command
 *                                   buffer; the second binds the new set, whose output a dispatch
 *                                   before it wrote with no barrier (one WAW, on the new set's buffer)
 *   lifetime-texel-pending          a storage texel buffer's view, then its buffer, destroyed while
 *                                   the dispatch writing through the view is pending (texel_write.comp)
 *   lifetime-texel-after-wait       the buffer destroyed under the live view, then the view, after
 *                                   the fence (correct)
 * The scenarios whose bug makes the driver use a freed object are run with the layer's `action =
 * abort` (the layer stops the program at the finding, before the call goes down); the others let
 * the work finish before the bug (a sleep, not a wait the layer could see), so nothing runs on
 * freed memory.
 *
 * Dispatch coverage (bounded.comp: `if (gl_GlobalInvocationID.x >= count) return;` with count
 * pushed; bounded_2d.comp over width x height; grid_stride.comp's loop):
 *   dispatch-uncovered, dispatch-covered, dispatch-uncovered-2d, dispatch-covered-2d,
 *   dispatch-grid-stride (correct), dispatch-uncovered-indirect, dispatch-covered-indirect. */
#include <string.h>
#include <unistd.h>

#include "layer_app.h"
#include "layer_test_spirv.h"

#define SLOTS 2 /* frames in flight */

struct copy_program {
    struct app *a;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkShaderModule module;
    VkPipeline pipeline;
};

static void set_name(struct app *a, VkObjectType type, uint64_t handle, const char *name)
{
    VkDebugUtilsObjectNameInfoEXT n = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                       .objectType = type,
                                       .objectHandle = handle,
                                       .pObjectName = name};
    if (a->set_name)
        a->set_name(a->device, &n);
}

static VkPipeline compute_pipeline(struct app *a, const uint32_t *code, size_t size, VkPipelineLayout layout,
                                   VkShaderModule *module)
{
    VkShaderModuleCreateInfo m = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = code};
    CHECK(vkCreateShaderModule(a->device, &m, NULL, module));
    VkComputePipelineCreateInfo info = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                                                  .module = *module,
                                                  .pName = "main"},
                                        .layout = layout};
    VkPipeline pipeline;
    CHECK(vkCreateComputePipelines(a->device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline));
    return pipeline;
}

/* The copy pipeline; `update_after_bind`: both bindings UPDATE_AFTER_BIND. */
static struct copy_program copy_program(struct app *a, bool update_after_bind)
{
    struct copy_program p = {.a = a};
    VkDescriptorSetLayoutBinding bindings[2];
    VkDescriptorBindingFlags flags[2];
    for (uint32_t i = 0; i < 2; ++i) {
        bindings[i] =
            (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
        flags[i] = update_after_bind ? VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT : 0;
    }
    VkDescriptorSetLayoutBindingFlagsCreateInfo binding_flags = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
        .bindingCount = 2,
        .pBindingFlags = flags};
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .pNext = update_after_bind ? &binding_flags : NULL,
        .flags = update_after_bind ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT : 0,
        .bindingCount = 2,
        .pBindings = bindings};
    CHECK(vkCreateDescriptorSetLayout(a->device, &info, NULL, &p.set_layout));
    VkPipelineLayoutCreateInfo layout = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &p.set_layout};
    CHECK(vkCreatePipelineLayout(a->device, &layout, NULL, &p.layout));
    p.pipeline =
        compute_pipeline(a, layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size, p.layout, &p.module);
    return p;
}

static void free_copy_program(struct copy_program *p)
{
    vkDestroyPipeline(p->a->device, p->pipeline, NULL);
    vkDestroyShaderModule(p->a->device, p->module, NULL);
    vkDestroyPipelineLayout(p->a->device, p->layout, NULL);
    vkDestroyDescriptorSetLayout(p->a->device, p->set_layout, NULL);
}

static VkDescriptorPool descriptor_pool(struct app *a, VkDescriptorPoolCreateFlags flags)
{
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16};
    VkDescriptorPoolCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                       .flags = flags,
                                       .maxSets = 8,
                                       .poolSizeCount = 1,
                                       .pPoolSizes = &size};
    VkDescriptorPool pool;
    CHECK(vkCreateDescriptorPool(a->device, &info, NULL, &pool));
    return pool;
}

static VkDescriptorSet copy_set(struct copy_program *p, VkDescriptorPool pool, VkBuffer src, VkBuffer dst)
{
    VkDescriptorSetAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                         .descriptorPool = pool,
                                         .descriptorSetCount = 1,
                                         .pSetLayouts = &p->set_layout};
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(p->a->device, &alloc, &set));
    VkDescriptorBufferInfo infos[2] = {{src, 0, VK_WHOLE_SIZE}, {dst, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = set,
                                  .dstBinding = 0,
                                  .descriptorCount = 2,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                  .pBufferInfo = infos};
    vkUpdateDescriptorSets(p->a->device, 1, &write, 0, NULL);
    return set;
}

static VkCommandPool command_pool(struct app *a, VkCommandPoolCreateFlags flags)
{
    VkCommandPoolCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .flags = flags, .queueFamilyIndex = a->family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(a->device, &info, NULL, &pool));
    return pool;
}

static VkCommandBuffer command_buffer(struct app *a, VkCommandPool pool, const char *name)
{
    VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                         .commandPool = pool,
                                         .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                         .commandBufferCount = 1};
    VkCommandBuffer cb;
    CHECK(vkAllocateCommandBuffers(a->device, &alloc, &cb));
    set_name(a, VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)(uintptr_t)cb, name);
    return cb;
}

/* Records the copy through `set` under the labels frame/particles (not ended when `open`). */
static void record_copy(struct copy_program *p, VkCommandBuffer cb, VkDescriptorSet set, bool open)
{
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(cb, &begin));
    label(p->a, cb, "frame");
    label(p->a, cb, "particles");
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(cb, 4096 / 4 / 64, 1, 1);
    p->a->end_label(cb);
    p->a->end_label(cb);
    if (!open)
        CHECK(vkEndCommandBuffer(cb));
}

static VkFence new_fence(struct app *a)
{
    VkFenceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    CHECK(vkCreateFence(a->device, &info, NULL, &fence));
    return fence;
}

static void submit(VkQueue queue, VkCommandBuffer cb, VkFence fence)
{
    VkSubmitInfo info = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
    CHECK(vkQueueSubmit(queue, 1, &info, fence));
}

/* Lets the submitted work finish without a wait the layer could see: the scenarios' bugs then
 * touch nothing the driver still uses. */
static void let_gpu_finish(void)
{
    usleep(200 * 1000);
}

static void wait_fence(struct app *a, VkFence fence)
{
    CHECK(vkWaitForFences(a->device, 1, &fence, VK_TRUE, UINT64_MAX));
}

/* lifetime-destroy-pending, -after-wait, -other-pending */
static void scenario_destroy(struct app *a, const char *name)
{
    struct copy_program p = copy_program(a, false);
    VkDescriptorPool pool = descriptor_pool(a, 0);
    struct buffer src = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer dst = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    set_name(a, VK_OBJECT_TYPE_BUFFER, (uint64_t)dst.buffer, "particles-out");
    VkCommandPool cmd = command_pool(a, 0);
    VkCommandBuffer cb = command_buffer(a, cmd, "frame-cb");
    VkFence fence = new_fence(a);
    record_copy(&p, cb, copy_set(&p, pool, src.buffer, dst.buffer), false);
    submit(a->queue, cb, fence);
    if (strcmp(name, "lifetime-destroy-other-pending") == 0) {
        /* other work on other buffers is pending when the completed work's buffers go */
        wait_fence(a, fence);
        struct buffer src2 = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        struct buffer dst2 = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        VkCommandBuffer cb2 = command_buffer(a, cmd, "other-cb");
        VkFence fence2 = new_fence(a);
        record_copy(&p, cb2, copy_set(&p, pool, src2.buffer, dst2.buffer), false);
        submit(a->queue, cb2, fence2);
        free_buffer(a, &dst);
        free_buffer(a, &src);
        wait_fence(a, fence2);
        vkDestroyFence(a->device, fence2, NULL);
        free_buffer(a, &src2);
        free_buffer(a, &dst2);
    } else {
        if (strcmp(name, "lifetime-destroy-after-wait") == 0)
            wait_fence(a, fence);
        else
            let_gpu_finish();
        vkDestroyBuffer(a->device, dst.buffer, NULL); /* -pending: the submission has not been waited for */
        wait_fence(a, fence);
        vkFreeMemory(a->device, dst.memory, NULL);
        free_buffer(a, &src);
    }
    vkDestroyFence(a->device, fence, NULL);
    vkDestroyCommandPool(a->device, cmd, NULL);
    vkDestroyDescriptorPool(a->device, pool, NULL);
    free_copy_program(&p);
}

/* lifetime-destroy-kinds-pending: five objects of other kinds, each reported once. */
static void scenario_destroy_kinds(struct app *a)
{
    VkDevice d = a->device;
    VkImageCreateInfo image_info = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                                    .imageType = VK_IMAGE_TYPE_2D,
                                    .format = VK_FORMAT_R32_SFLOAT,
                                    .extent = {16, 16, 1},
                                    .mipLevels = 1,
                                    .arrayLayers = 1,
                                    .samples = VK_SAMPLE_COUNT_1_BIT,
                                    .tiling = VK_IMAGE_TILING_OPTIMAL,
                                    .usage = VK_IMAGE_USAGE_SAMPLED_BIT,
                                    .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
    VkImage image;
    CHECK(vkCreateImage(d, &image_info, NULL, &image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(d, image, &req);
    VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  .allocationSize = req.size,
                                  .memoryTypeIndex = memory_type(a, req.memoryTypeBits, 0)};
    VkDeviceMemory image_memory;
    CHECK(vkAllocateMemory(d, &alloc, NULL, &image_memory));
    CHECK(vkBindImageMemory(d, image, image_memory, 0));
    VkImageViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                       .image = image,
                                       .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                       .format = VK_FORMAT_R32_SFLOAT,
                                       .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    VkImageView view;
    CHECK(vkCreateImageView(d, &view_info, NULL, &view));
    set_name(a, VK_OBJECT_TYPE_IMAGE_VIEW, (uint64_t)view, "albedo-view");
    VkSamplerCreateInfo sampler_info = {.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                        .magFilter = VK_FILTER_NEAREST,
                                        .minFilter = VK_FILTER_NEAREST,
                                        .maxLod = 1};
    VkSampler sampler;
    CHECK(vkCreateSampler(d, &sampler_info, NULL, &sampler));
    set_name(a, VK_OBJECT_TYPE_SAMPLER, (uint64_t)sampler, "albedo-sampler");
    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 2, .pBindings = bindings};
    VkDescriptorSetLayout set_layout;
    CHECK(vkCreateDescriptorSetLayout(d, &set_info, NULL, &set_layout));
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &set_layout};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(d, &layout_info, NULL, &layout));
    VkShaderModule module;
    VkPipeline pipeline = compute_pipeline(a, layer_test_spirv_sampled, layer_test_spirv_sampled_size, layout, &module);
    set_name(a, VK_OBJECT_TYPE_PIPELINE, (uint64_t)pipeline, "shade");
    VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1},
                                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
    VkDescriptorPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                            .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                            .maxSets = 1,
                                            .poolSizeCount = 2,
                                            .pPoolSizes = sizes};
    VkDescriptorPool pool;
    CHECK(vkCreateDescriptorPool(d, &pool_info, NULL, &pool));
    VkDescriptorSetAllocateInfo set_alloc = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                             .descriptorPool = pool,
                                             .descriptorSetCount = 1,
                                             .pSetLayouts = &set_layout};
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(d, &set_alloc, &set));
    set_name(a, VK_OBJECT_TYPE_DESCRIPTOR_SET, (uint64_t)set, "material-set");
    struct buffer out = make_buffer(a, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    set_name(a, VK_OBJECT_TYPE_DEVICE_MEMORY, (uint64_t)out.memory, "readback-memory");
    VkDescriptorImageInfo image_desc = {sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkDescriptorBufferInfo buffer_desc = {out.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet writes[2] = {{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                       .dstSet = set,
                                       .dstBinding = 0,
                                       .descriptorCount = 1,
                                       .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                       .pImageInfo = &image_desc},
                                      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                       .dstSet = set,
                                       .dstBinding = 1,
                                       .descriptorCount = 1,
                                       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       .pBufferInfo = &buffer_desc}};
    vkUpdateDescriptorSets(d, 2, writes, 0, NULL);
    VkCommandPool cmd = command_pool(a, 0);
    VkCommandBuffer cb = command_buffer(a, cmd, "shade-cb");
    VkCommandBufferBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(cb, &begin_info));
    VkImageMemoryBarrier to_read = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                    .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
                                    .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                    .newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                                    .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                    .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                    .image = image,
                                    .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 0,
                         NULL, 1, &to_read);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(cb, 1, 1, 1);
    CHECK(vkEndCommandBuffer(cb));
    VkFence fence = new_fence(a);
    submit(a->queue, cb, fence);
    let_gpu_finish();
    /* the bugs: each object goes before the fence */
    vkDestroyImageView(d, view, NULL);
    vkDestroySampler(d, sampler, NULL);
    vkDestroyPipeline(d, pipeline, NULL);
    CHECK(vkFreeDescriptorSets(d, pool, 1, &set));
    vkUnmapMemory(d, out.memory);
    vkFreeMemory(d, out.memory, NULL);
    wait_fence(a, fence);
    vkDestroyBuffer(d, out.buffer, NULL);
    vkDestroyFence(d, fence, NULL);
    vkDestroyCommandPool(d, cmd, NULL);
    vkDestroyDescriptorPool(d, pool, NULL);
    vkDestroyShaderModule(d, module, NULL);
    vkDestroyPipelineLayout(d, layout, NULL);
    vkDestroyDescriptorSetLayout(d, set_layout, NULL);
    vkDestroyImage(d, image, NULL);
    vkFreeMemory(d, image_memory, NULL);
}

/* lifetime-pool-reset-pending: the frame's descriptor pool reset before its fence. */
static void scenario_pool_reset(struct app *a)
{
    struct copy_program p = copy_program(a, false);
    VkDescriptorPool pool = descriptor_pool(a, 0);
    set_name(a, VK_OBJECT_TYPE_DESCRIPTOR_POOL, (uint64_t)pool, "frame-descriptors");
    struct buffer src = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer dst = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkCommandPool cmd = command_pool(a, 0);
    VkCommandBuffer cb = command_buffer(a, cmd, "frame-cb");
    VkFence fence = new_fence(a);
    record_copy(&p, cb, copy_set(&p, pool, src.buffer, dst.buffer), false);
    submit(a->queue, cb, fence);
    let_gpu_finish();
    CHECK(vkResetDescriptorPool(a->device, pool, 0)); /* the bug: before the fence */
    wait_fence(a, fence);
    vkDestroyFence(a->device, fence, NULL);
    vkDestroyCommandPool(a->device, cmd, NULL);
    vkDestroyDescriptorPool(a->device, pool, NULL);
    free_buffer(a, &src);
    free_buffer(a, &dst);
    free_copy_program(&p);
}

/* lifetime-frames, lifetime-frames-early-reset: six frames, two in flight. Each slot has a fence,
 * a command pool, a descriptor pool and a transient output buffer; a frame waits for its slot's
 * fence, then resets the slot's pools, destroys the slot's old buffer and records anew. */
static void scenario_frames(struct app *a, bool early_reset)
{
    struct copy_program p = copy_program(a, false);
    struct buffer src = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkFence fences[SLOTS];
    VkCommandPool pools[SLOTS];
    VkDescriptorPool descriptors[SLOTS];
    struct buffer transient[SLOTS];
    bool used[SLOTS] = {false};
    for (int s = 0; s < SLOTS; ++s) {
        fences[s] = new_fence(a);
        pools[s] = command_pool(a, 0);
        descriptors[s] = descriptor_pool(a, 0);
        set_name(a, VK_OBJECT_TYPE_COMMAND_POOL, (uint64_t)pools[s], s ? "frame-commands-1" : "frame-commands-0");
    }
    for (int frame = 0; frame < 6; ++frame) {
        int s = frame % SLOTS;
        if (used[s]) {
            if (early_reset) { /* the bug: the slot's commands reset before its fence */
                let_gpu_finish();
                CHECK(vkResetCommandPool(a->device, pools[s], 0));
            }
            wait_fence(a, fences[s]);
            CHECK(vkResetFences(a->device, 1, &fences[s]));
            if (!early_reset)
                CHECK(vkResetCommandPool(a->device, pools[s], 0));
            CHECK(vkResetDescriptorPool(a->device, descriptors[s], 0));
            free_buffer(a, &transient[s]);
        }
        transient[s] = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        VkCommandBuffer cb = command_buffer(a, pools[s], "frame-cb");
        record_copy(&p, cb, copy_set(&p, descriptors[s], src.buffer, transient[s].buffer), false);
        submit(a->queue, cb, fences[s]);
        used[s] = true;
    }
    CHECK(vkDeviceWaitIdle(a->device));
    for (int s = 0; s < SLOTS; ++s) {
        vkDestroyFence(a->device, fences[s], NULL);
        vkDestroyCommandPool(a->device, pools[s], NULL);
        vkDestroyDescriptorPool(a->device, descriptors[s], NULL);
        free_buffer(a, &transient[s]);
    }
    free_buffer(a, &src);
    free_copy_program(&p);
}

/* lifetime-stale-set: a set kept in a "scene object" across frames while its pool is reset at
 * every frame's end (after the frame's fence: that part is right); the next frame binds it.
 * lifetime-stale-set-submit: a recorded set freed before the command buffer is submitted.
 * lifetime-destroyed-after-recording: a buffer destroyed between recording and submit. */
static void scenario_stale(struct app *a, const char *name)
{
    struct copy_program p = copy_program(a, false);
    bool free_set = strcmp(name, "lifetime-stale-set-submit") == 0;
    VkDescriptorPool pool = descriptor_pool(a, free_set ? VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT : 0);
    struct buffer src = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer dst = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    set_name(a, VK_OBJECT_TYPE_BUFFER, (uint64_t)dst.buffer, "particles-out");
    VkCommandPool cmd = command_pool(a, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
    VkCommandBuffer cb = command_buffer(a, cmd, "frame-cb");
    VkFence fence = new_fence(a);
    VkDescriptorSet scene_set = copy_set(&p, pool, src.buffer, dst.buffer);
    set_name(a, VK_OBJECT_TYPE_DESCRIPTOR_SET, (uint64_t)scene_set, "scene-object-set");
    record_copy(&p, cb, scene_set, false);
    if (strcmp(name, "lifetime-stale-set") == 0) {
        submit(a->queue, cb, fence);
        wait_fence(a, fence);
        CHECK(vkResetDescriptorPool(a->device, pool, 0)); /* frame end */
        record_copy(&p, cb, scene_set, false);            /* the next frame binds the kept set */
    } else {
        if (free_set)
            CHECK(vkFreeDescriptorSets(a->device, pool, 1, &scene_set));
        else
            vkDestroyBuffer(a->device, dst.buffer, NULL);
        submit(a->queue, cb, fence); /* run with action = abort: the layer stops the program here */
        wait_fence(a, fence);
    }
    vkDestroyFence(a->device, fence, NULL);
    vkDestroyCommandPool(a->device, cmd, NULL);
    vkDestroyDescriptorPool(a->device, pool, NULL);
    free_buffer(a, &src);
    free_buffer(a, &dst);
    free_copy_program(&p);
}

/* lifetime-update-pending, lifetime-update-after-bind: the set's output rewritten while the
 * submission that uses it runs. */
static void scenario_update(struct app *a, const char *name)
{
    bool update_after_bind = strcmp(name, "lifetime-update-after-bind") == 0;
    if (update_after_bind && !a->update_after_bind) {
        printf("skip: no descriptorBindingStorageBufferUpdateAfterBind\n");
        return;
    }
    struct copy_program p = copy_program(a, update_after_bind);
    VkDescriptorPool pool = descriptor_pool(a, update_after_bind ? VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT : 0);
    struct buffer src = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer dst = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer next = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkCommandPool cmd = command_pool(a, 0);
    VkCommandBuffer cb = command_buffer(a, cmd, "frame-cb");
    VkFence fence = new_fence(a);
    VkDescriptorSet set = copy_set(&p, pool, src.buffer, dst.buffer);
    set_name(a, VK_OBJECT_TYPE_DESCRIPTOR_SET, (uint64_t)set, "material-set");
    record_copy(&p, cb, set, false);
    submit(a->queue, cb, fence);
    let_gpu_finish();
    VkDescriptorBufferInfo info = {next.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = set,
                                  .dstBinding = 1,
                                  .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                  .pBufferInfo = &info};
    vkUpdateDescriptorSets(a->device, 1, &write, 0, NULL); /* the next frame's output, before the fence */
    wait_fence(a, fence);
    vkDestroyFence(a->device, fence, NULL);
    vkDestroyCommandPool(a->device, cmd, NULL);
    vkDestroyDescriptorPool(a->device, pool, NULL);
    free_buffer(a, &src);
    free_buffer(a, &dst);
    free_buffer(a, &next);
    free_copy_program(&p);
}

/* lifetime-begin-pending: the next frame recorded into the command buffer still running. */
static void scenario_begin_pending(struct app *a)
{
    struct copy_program p = copy_program(a, false);
    VkDescriptorPool pool = descriptor_pool(a, 0);
    struct buffer src = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer dst = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkCommandPool cmd = command_pool(a, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
    VkCommandBuffer cb = command_buffer(a, cmd, "frame-cb");
    VkFence fence = new_fence(a);
    VkDescriptorSet set = copy_set(&p, pool, src.buffer, dst.buffer);
    record_copy(&p, cb, set, false);
    submit(a->queue, cb, fence);
    let_gpu_finish();
    record_copy(&p, cb, set, false); /* the bug: vkBeginCommandBuffer before the fence */
    wait_fence(a, fence);
    vkDestroyFence(a->device, fence, NULL);
    vkDestroyCommandPool(a->device, cmd, NULL);
    vkDestroyDescriptorPool(a->device, pool, NULL);
    free_buffer(a, &src);
    free_buffer(a, &dst);
    free_copy_program(&p);
}

/* lifetime-completion-chains: (1) a submission signals a timeline semaphore; the host waits for
 * the value and destroys what the work used. (2) Work on one queue signals a binary semaphore,
 * work on another queue (the same one if the device has one) waits for it and signals a fence;
 * after that fence the first work's buffers are destroyed. */
static void scenario_completion_chains(struct app *a)
{
    struct copy_program p = copy_program(a, false);
    VkDescriptorPool pool = descriptor_pool(a, 0);
    VkCommandPool cmd = command_pool(a, 0);
    if (a->timeline) {
        struct buffer src = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        struct buffer dst = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                          .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
        VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
        VkSemaphore timeline;
        CHECK(vkCreateSemaphore(a->device, &info, NULL, &timeline));
        VkCommandBuffer cb = command_buffer(a, cmd, "timeline-cb");
        record_copy(&p, cb, copy_set(&p, pool, src.buffer, dst.buffer), false);
        const uint64_t value = 1;
        VkTimelineSemaphoreSubmitInfo values = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                                .signalSemaphoreValueCount = 1,
                                                .pSignalSemaphoreValues = &value};
        VkSubmitInfo submit_info = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                                    .pNext = &values,
                                    .commandBufferCount = 1,
                                    .pCommandBuffers = &cb,
                                    .signalSemaphoreCount = 1,
                                    .pSignalSemaphores = &timeline};
        CHECK(vkQueueSubmit(a->queue, 1, &submit_info, VK_NULL_HANDLE));
        VkSemaphoreWaitInfo wait = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                                    .semaphoreCount = 1,
                                    .pSemaphores = &timeline,
                                    .pValues = &value};
        CHECK(vkWaitSemaphores(a->device, &wait, UINT64_MAX));
        free_buffer(a, &dst);
        free_buffer(a, &src);
        vkDestroySemaphore(a->device, timeline, NULL);
    }
    struct buffer src = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer dst = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer other = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkSemaphoreCreateInfo binary_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore done;
    CHECK(vkCreateSemaphore(a->device, &binary_info, NULL, &done));
    VkCommandBuffer first = command_buffer(a, cmd, "producer-cb"), second = command_buffer(a, cmd, "consumer-cb");
    record_copy(&p, first, copy_set(&p, pool, src.buffer, dst.buffer), false);
    record_copy(&p, second, copy_set(&p, pool, dst.buffer, other.buffer), false);
    VkSubmitInfo produce = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                            .commandBufferCount = 1,
                            .pCommandBuffers = &first,
                            .signalSemaphoreCount = 1,
                            .pSignalSemaphores = &done};
    CHECK(vkQueueSubmit(a->queue, 1, &produce, VK_NULL_HANDLE));
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkSubmitInfo consume = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                            .waitSemaphoreCount = 1,
                            .pWaitSemaphores = &done,
                            .pWaitDstStageMask = &stage,
                            .commandBufferCount = 1,
                            .pCommandBuffers = &second};
    VkFence fence = new_fence(a);
    CHECK(vkQueueSubmit(a->queue2 ? a->queue2 : a->queue, 1, &consume, fence));
    wait_fence(a, fence);
    free_buffer(a, &src); /* only the producer used it: complete, as the consumer waited for it */
    CHECK(vkDeviceWaitIdle(a->device));
    free_buffer(a, &dst);
    free_buffer(a, &other);
    vkDestroyFence(a->device, fence, NULL);
    vkDestroySemaphore(a->device, done, NULL);
    vkDestroyCommandPool(a->device, cmd, NULL);
    vkDestroyDescriptorPool(a->device, pool, NULL);
    free_copy_program(&p);
}

/* lifetime-counter-read-early / -fixed: a batch waits for timeline `gate` (which the host opens
 * later), copies into "particles-out" and signals timeline `done` to 2; the host sets `done` to 1
 * itself and reads its counter: 1, set by the host, says nothing about the batch (a wait for 1
 * would; a read is the value itself). -early destroys the buffer then (run with action = abort:
 * the program stops at the finding, before the driver sees the destroy); -fixed opens the gate and
 * waits for 2 first. */
static void scenario_counter_read(struct app *a, const char *name)
{
    if (!a->timeline) {
        printf("skip: timeline semaphores not enabled\n");
        return;
    }
    bool fixed = strcmp(name, "lifetime-counter-read-fixed") == 0;
    struct copy_program p = copy_program(a, false);
    VkDescriptorPool pool = descriptor_pool(a, 0);
    struct buffer src = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer dst = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    set_name(a, VK_OBJECT_TYPE_BUFFER, (uint64_t)dst.buffer, "particles-out");
    VkCommandPool cmd = command_pool(a, 0);
    VkCommandBuffer cb = command_buffer(a, cmd, "frame-cb");
    record_copy(&p, cb, copy_set(&p, pool, src.buffer, dst.buffer), false);
    VkSemaphoreTypeCreateInfo type = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                      .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    VkSemaphoreCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &type};
    VkSemaphore gate, done;
    CHECK(vkCreateSemaphore(a->device, &info, NULL, &gate));
    CHECK(vkCreateSemaphore(a->device, &info, NULL, &done));
    const uint64_t open = 1, finished = 2;
    VkTimelineSemaphoreSubmitInfo values = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                            .waitSemaphoreValueCount = 1,
                                            .pWaitSemaphoreValues = &open,
                                            .signalSemaphoreValueCount = 1,
                                            .pSignalSemaphoreValues = &finished};
    const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    VkSubmitInfo submit_info = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                                .pNext = &values,
                                .waitSemaphoreCount = 1,
                                .pWaitSemaphores = &gate,
                                .pWaitDstStageMask = &stage,
                                .commandBufferCount = 1,
                                .pCommandBuffers = &cb,
                                .signalSemaphoreCount = 1,
                                .pSignalSemaphores = &done};
    CHECK(vkQueueSubmit(a->queue, 1, &submit_info, VK_NULL_HANDLE));
    VkSemaphoreSignalInfo host = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = done, .value = 1};
    CHECK(vkSignalSemaphore(a->device, &host));
    VkSemaphoreWaitInfo wait = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                                .semaphoreCount = 1,
                                .pSemaphores = &done,
                                .pValues = &finished};
    if (fixed) {
        host = (VkSemaphoreSignalInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = gate, .value = 1};
        CHECK(vkSignalSemaphore(a->device, &host));
        CHECK(vkWaitSemaphores(a->device, &wait, UINT64_MAX));
    }
    uint64_t counter = 0;
    CHECK(vkGetSemaphoreCounterValue(a->device, done, &counter));
    if (counter != (fixed ? finished : 1))
        fprintf(stderr, "counter %llu\n", (unsigned long long)counter);
    vkDestroyBuffer(a->device, dst.buffer, NULL); /* -early: the copy has not run */
    if (!fixed) {
        host = (VkSemaphoreSignalInfo){.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = gate, .value = 1};
        CHECK(vkSignalSemaphore(a->device, &host));
        CHECK(vkWaitSemaphores(a->device, &wait, UINT64_MAX));
    }
    vkFreeMemory(a->device, dst.memory, NULL);
    free_buffer(a, &src);
    vkDestroySemaphore(a->device, gate, NULL);
    vkDestroySemaphore(a->device, done, NULL);
    vkDestroyCommandPool(a->device, cmd, NULL);
    vkDestroyDescriptorPool(a->device, pool, NULL);
    free_copy_program(&p);
}

/* --- dispatch coverage ------------------------------------------------------------------------ */

/* dispatch-(un)covered[-2d|-indirect], dispatch-grid-stride: 10000 particles at 64 per group need
 * 157 groups; 100 x 50 pixels at 8 x 8 need 13 x 7. */
static void scenario_coverage(struct app *a, const char *name)
{
    bool two_d = strstr(name, "-2d") != NULL, grid = strcmp(name, "dispatch-grid-stride") == 0;
    bool indirect = strstr(name, "-indirect") != NULL, short_by_one = strstr(name, "uncovered") != NULL;
    VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 1, .pBindings = &binding};
    VkDescriptorSetLayout set_layout;
    CHECK(vkCreateDescriptorSetLayout(a->device, &set_info, NULL, &set_layout));
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
    VkPipelineLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                              .setLayoutCount = 1,
                                              .pSetLayouts = &set_layout,
                                              .pushConstantRangeCount = 1,
                                              .pPushConstantRanges = &range};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(a->device, &layout_info, NULL, &layout));
    VkShaderModule module;
    VkPipeline pipeline =
        two_d  ? compute_pipeline(a, layer_test_spirv_bounded_2d, layer_test_spirv_bounded_2d_size, layout, &module)
        : grid ? compute_pipeline(a, layer_test_spirv_grid_stride, layer_test_spirv_grid_stride_size, layout, &module)
               : compute_pipeline(a, layer_test_spirv_bounded, layer_test_spirv_bounded_size, layout, &module);
    set_name(a, VK_OBJECT_TYPE_PIPELINE, (uint64_t)pipeline, two_d ? "blur" : "particles");
    VkDescriptorPool pool = descriptor_pool(a, 0);
    struct buffer data = make_buffer(a, 10240 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer args = make_buffer(a, 64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    VkDescriptorSetAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                         .descriptorPool = pool,
                                         .descriptorSetCount = 1,
                                         .pSetLayouts = &set_layout};
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(a->device, &alloc, &set));
    VkDescriptorBufferInfo info = {data.buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = set,
                                  .dstBinding = 0,
                                  .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                  .pBufferInfo = &info};
    vkUpdateDescriptorSets(a->device, 1, &write, 0, NULL);
    struct recording r = begin(a, "particles-cb");
    label(a, r.cb, "simulate");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    uint32_t groups[3] = {short_by_one ? 156 : 157, 1, 1};
    if (two_d) {
        const uint32_t size[2] = {100, 50};
        vkCmdPushConstants(r.cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(size), size);
        groups[0] = short_by_one ? 12 : 13;
        groups[1] = 7;
    } else if (grid) {
        const uint32_t count = 10000;
        vkCmdPushConstants(r.cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(count), &count);
        groups[0] = 4; /* the loop strides over the rest */
    } else {
        const struct {
            float scale;
            uint32_t count;
        } params = {0.5f, 10000};
        vkCmdPushConstants(r.cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(params), &params);
    }
    if (indirect) {
        memcpy(args.mapped, groups, sizeof(groups));
        vkCmdDispatchIndirect(r.cb, args.buffer, 0);
    } else {
        vkCmdDispatch(r.cb, groups[0], groups[1], groups[2]);
    }
    a->end_label(r.cb);
    finish(a, &r, true);
    free_buffer(a, &data);
    free_buffer(a, &args);
    vkDestroyDescriptorPool(a->device, pool, NULL);
    vkDestroyPipeline(a->device, pipeline, NULL);
    vkDestroyShaderModule(a->device, module, NULL);
    vkDestroyPipelineLayout(a->device, layout, NULL);
    vkDestroyDescriptorSetLayout(a->device, set_layout, NULL);
}

/* One recording of `cb`: the copy program with `first`, then with `second`, no barrier between. */
static void record_two_copies(struct copy_program *p, VkCommandBuffer cb, VkDescriptorSet first, VkDescriptorSet second)
{
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(cb, &begin));
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    const VkDescriptorSet order[2] = {first, second};
    for (int i = 0; i < 2; ++i) {
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &order[i], 0, NULL);
        vkCmdDispatch(cb, 4096 / 4 / 64, 1, 1);
    }
    CHECK(vkEndCommandBuffer(cb));
}

/* lifetime-set-handle-reused: the layer must see the set a handle names now, not the one it named
 * when the command buffer last bound it (the layer keeps recently bound sets per command buffer). */
static void scenario_set_handle_reused(struct app *a)
{
    struct copy_program p = copy_program(a, false);
    VkDescriptorPool pool = descriptor_pool(a, VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT);
    struct buffer in1 = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer out1 = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer in2 = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer out2 = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    set_name(a, VK_OBJECT_TYPE_BUFFER, (uint64_t)out1.buffer, "out-first");
    set_name(a, VK_OBJECT_TYPE_BUFFER, (uint64_t)out2.buffer, "out-second");
    VkCommandPool cmd = command_pool(a, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
    VkCommandBuffer cb = command_buffer(a, cmd, "frame-cb");
    VkFence fence = new_fence(a);
    VkDescriptorSet first = copy_set(&p, pool, in1.buffer, out1.buffer);
    VkDescriptorSet second = copy_set(&p, pool, in2.buffer, out2.buffer);
    /* frame 1: the two sets in turn, each writing its own output (correct) */
    record_two_copies(&p, cb, first, second);
    submit(a->queue, cb, fence);
    wait_fence(a, fence);
    /* the first set freed, and a set that writes the second's output allocated (likely at its handle) */
    CHECK(vkFreeDescriptorSets(a->device, pool, 1, &first));
    VkDescriptorSet third = copy_set(&p, pool, in1.buffer, out2.buffer);
    printf("handle reused: %s\n", third == first ? "yes" : "no");
    /* frame 2: the second set, then the new one: both write out-second, no barrier between (the bug) */
    CHECK(vkResetFences(a->device, 1, &fence));
    record_two_copies(&p, cb, second, third);
    submit(a->queue, cb, fence);
    wait_fence(a, fence);
    vkDestroyFence(a->device, fence, NULL);
    vkDestroyCommandPool(a->device, cmd, NULL);
    vkDestroyDescriptorPool(a->device, pool, NULL);
    free_buffer(a, &in1);
    free_buffer(a, &out1);
    free_buffer(a, &in2);
    free_buffer(a, &out2);
    free_copy_program(&p);
}

/* lifetime-texel-pending: a dispatch writes a buffer through a storage texel buffer view
 * (texel_write.comp); while it is pending the view, then the buffer under it, are destroyed (two
 * findings: the view found through the pending set's descriptor, the buffer through the bytes the
 * dispatch wrote). lifetime-texel-after-wait: the buffer destroyed under the live view, then the
 * view, after the fence (correct: a view whose buffer is gone is only invalid to use). */
static void scenario_texel(struct app *a, const char *name)
{
    VkDevice d = a->device;
    bool pending = strcmp(name, "lifetime-texel-pending") == 0;
    struct buffer texels = make_buffer(a, 4096, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
    set_name(a, VK_OBJECT_TYPE_BUFFER, (uint64_t)texels.buffer, "texels");
    VkBufferViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                                        .buffer = texels.buffer,
                                        .format = VK_FORMAT_R32_UINT,
                                        .range = VK_WHOLE_SIZE};
    VkBufferView view;
    CHECK(vkCreateBufferView(d, &view_info, NULL, &view));
    set_name(a, VK_OBJECT_TYPE_BUFFER_VIEW, (uint64_t)view, "texel-view");
    VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT,
                                            NULL};
    VkDescriptorSetLayoutCreateInfo set_layout_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 1, .pBindings = &binding};
    VkDescriptorSetLayout set_layout;
    CHECK(vkCreateDescriptorSetLayout(d, &set_layout_info, NULL, &set_layout));
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1, .pSetLayouts = &set_layout};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(d, &layout_info, NULL, &layout));
    VkShaderModule module;
    VkPipeline pipeline =
        compute_pipeline(a, layer_test_spirv_texel_write, layer_test_spirv_texel_write_size, layout, &module);
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1};
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1, .poolSizeCount = 1, .pPoolSizes = &size};
    VkDescriptorPool pool;
    CHECK(vkCreateDescriptorPool(d, &pool_info, NULL, &pool));
    VkDescriptorSetAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                         .descriptorPool = pool,
                                         .descriptorSetCount = 1,
                                         .pSetLayouts = &set_layout};
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(d, &alloc, &set));
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = set,
                                  .dstBinding = 0,
                                  .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
                                  .pTexelBufferView = &view};
    vkUpdateDescriptorSets(d, 1, &write, 0, NULL);
    VkCommandPool cmd = command_pool(a, 0);
    VkCommandBuffer cb = command_buffer(a, cmd, "texel-cb");
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(cb, &begin));
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(cb, 4096 / 4 / 64, 1, 1);
    CHECK(vkEndCommandBuffer(cb));
    VkFence fence = new_fence(a);
    submit(a->queue, cb, fence);
    if (pending) {
        let_gpu_finish();
        vkDestroyBufferView(d, view, NULL);
        vkDestroyBuffer(d, texels.buffer, NULL);
        wait_fence(a, fence);
    } else {
        wait_fence(a, fence);
        vkDestroyBuffer(d, texels.buffer, NULL);
        vkDestroyBufferView(d, view, NULL);
    }
    vkFreeMemory(d, texels.memory, NULL);
    vkDestroyFence(d, fence, NULL);
    vkDestroyCommandPool(d, cmd, NULL);
    vkDestroyDescriptorPool(d, pool, NULL);
    vkDestroyPipeline(d, pipeline, NULL);
    vkDestroyShaderModule(d, module, NULL);
    vkDestroyPipelineLayout(d, layout, NULL);
    vkDestroyDescriptorSetLayout(d, set_layout, NULL);
}

bool scenario_lifetime(struct app *a, const char *name)
{
    if (strcmp(name, "lifetime-destroy-kinds-pending") == 0)
        scenario_destroy_kinds(a);
    else if (strncmp(name, "lifetime-destroy-", 17) == 0)
        scenario_destroy(a, name);
    else if (strcmp(name, "lifetime-pool-reset-pending") == 0)
        scenario_pool_reset(a);
    else if (strcmp(name, "lifetime-frames") == 0 || strcmp(name, "lifetime-frames-early-reset") == 0)
        scenario_frames(a, strcmp(name, "lifetime-frames-early-reset") == 0);
    else if (strncmp(name, "lifetime-stale-set", 18) == 0 || strcmp(name, "lifetime-destroyed-after-recording") == 0)
        scenario_stale(a, name);
    else if (strcmp(name, "lifetime-update-pending") == 0 || strcmp(name, "lifetime-update-after-bind") == 0)
        scenario_update(a, name);
    else if (strcmp(name, "lifetime-begin-pending") == 0)
        scenario_begin_pending(a);
    else if (strcmp(name, "lifetime-completion-chains") == 0)
        scenario_completion_chains(a);
    else if (strcmp(name, "lifetime-set-handle-reused") == 0)
        scenario_set_handle_reused(a);
    else if (strcmp(name, "lifetime-texel-pending") == 0 || strcmp(name, "lifetime-texel-after-wait") == 0)
        scenario_texel(a, name);
    else if (strncmp(name, "lifetime-counter-read-", 22) == 0)
        scenario_counter_read(a, name);
    else if (strncmp(name, "dispatch-", 9) == 0 &&
             strstr(
                 " dispatch-uncovered dispatch-covered dispatch-uncovered-2d dispatch-covered-2d dispatch-grid-stride"
                 " dispatch-uncovered-indirect dispatch-covered-indirect ",
                 name) != NULL)
        scenario_coverage(a, name);
    else
        return false;
    return true;
}
