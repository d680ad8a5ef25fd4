/* layer_app's alias and binding scenarios: programs where one dispatch or draw reads and writes
 * the same memory through two bindings, a fixed-function input or an attachment, or uses a
 * binding that is not set up; and the correct neighbours of each (disjoint ranges, different
 * mips, read-only twice), which must stay silent.
 * Scenarios: robust-ignored-pointers, alias-clean, alias-buffer, alias-selected-binding(-overlap, -dead),
 * alias-indexed-by-data, alias-texel(-disjoint), alias-rotating-sets, alias-memory,
 * alias-indirect, alias-image, alias-image-mips, alias-array, alias-array-unreached, alias-attachment,
 * attachment-clean, alias-in-place (advice: VkFFT's in-place pattern), binding-missing-set,
 * binding-unwritten, binding-type, binding-usage. */
#include <string.h>

#include "layer_app_objects.h"
#include "layer_test_spirv.h"

static void scenario_alias_clean(struct objects *o)
{
    /* one buffer, two disjoint ranges */
    VkDeviceSize step = o->a->properties.limits.minStorageBufferOffsetAlignment;
    if (step < 1024)
        step = 1024;
    VkBuffer big = new_buffer(o, 2 * step, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    copy_dispatch(o, "disjoint-cb", big, 0, big, step, step, VK_NULL_HANDLE, true);
    /* the same buffer read through two bindings, written to a third */
    VkBuffer in = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBuffer out = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorSetLayout set_layout = new_set_layout(o, copy_types, 3);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline =
        new_compute(o, layer_test_spirv_alias_read_twice, layer_test_spirv_alias_read_twice_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    write_buffer(o, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, in, 0, VK_WHOLE_SIZE);
    write_buffer(o, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, in, 0, VK_WHOLE_SIZE);
    write_buffer(o, set, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out, 0, VK_WHOLE_SIZE);
    struct recording r = begin(o->a, "read-twice-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(r.cb, 4096 / 4 / 64, 1, 1);
    finish(o->a, &r, true);
}

/* robust-ignored-pointers: descriptor writes whose unused info arrays hold junk (the spec ignores
 * them for the write's type, so the layer must not read them): storage buffers with junk
 * pImageInfo/pTexelBufferView, a storage texel buffer with junk pImageInfo/pBufferInfo. A copy
 * dispatch then uses the set: no finding, no crash. */
static void scenario_ignored_pointers(struct objects *o)
{
    VkBuffer in = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBuffer out = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBuffer texels = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
    VkBufferViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                                        .buffer = texels,
                                        .format = VK_FORMAT_R32_UINT,
                                        .range = VK_WHOLE_SIZE};
    VkBufferView view;
    CHECK(vkCreateBufferView(o->a->device, &view_info, NULL, &view));
    const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER};
    VkDescriptorSetLayout set_layout = new_set_layout(o, types, 3);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    const void *junk = (const void *)(uintptr_t)0x10;
    VkDescriptorBufferInfo infos[2] = {{in, 0, VK_WHOLE_SIZE}, {out, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[2] = {{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                       .dstSet = set,
                                       .dstBinding = 0,
                                       .descriptorCount = 2,
                                       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       .pImageInfo = junk,
                                       .pBufferInfo = infos,
                                       .pTexelBufferView = junk},
                                      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                       .dstSet = set,
                                       .dstBinding = 2,
                                       .descriptorCount = 1,
                                       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
                                       .pImageInfo = junk,
                                       .pBufferInfo = junk,
                                       .pTexelBufferView = &view}};
    vkUpdateDescriptorSets(o->a->device, 2, writes, 0, NULL);
    struct recording r = begin(o->a, "ignored-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(r.cb, 4096 / 4 / 64, 1, 1);
    finish(o->a, &r, true);
    vkDestroyBufferView(o->a->device, view, NULL);
}

/* alias-rotating-sets: the per-set memos and the recalled bound states of per-command results
 * (state_command_buffers.h) must not carry a result to the wrong set or past a descriptor update. One
 * pipeline (alias_copy.comp: binding 0 read, 1 written), set A clean (a -> b), set B aliased
 * (c -> c shifted by 1024 bytes), bound in turn A B A B in "rotating-cb"; then A is rewritten to
 * a -> a shifted and dispatched in "updated-cb". Expected: one alias finding per command buffer, on B's first dispatch in the first
 * (bound again, B is recalled: the same finding is not repeated) and on the rewritten A in the
 * second. */
static void scenario_alias_rotating(struct objects *o)
{
    VkBuffer a = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBuffer b = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBuffer c = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorSetLayout set_layout = new_set_layout(o, copy_types, 2);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size, layout);
    VkDescriptorSet sets[2] = {new_set(o, set_layout), new_set(o, set_layout)};
    write_buffer(o, sets[0], 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, a, 0, VK_WHOLE_SIZE);
    write_buffer(o, sets[0], 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, b, 0, VK_WHOLE_SIZE);
    write_buffer(o, sets[1], 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, c, 0, 2048);
    write_buffer(o, sets[1], 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, c, 1024, 2048);
    VkMemoryBarrier all = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                           .srcAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                           .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
    struct recording r = begin(o->a, "rotating-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    for (int i = 0; i < 4; ++i) {
        vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[i % 2], 0, NULL);
        vkCmdDispatch(r.cb, 4096 / 4 / 64, 1, 1);
        vkCmdPipelineBarrier(r.cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                             &all, 0, NULL, 0, NULL);
    }
    finish(o->a, &r, false);
    write_buffer(o, sets[0], 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, a, 1024, 2048);
    r = begin(o->a, "updated-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[0], 0, NULL);
    vkCmdDispatch(r.cb, 4096 / 4 / 64, 1, 1);
    finish(o->a, &r, false);
}

/* alias_array.comp: element 0 written, element 1 read, element 2 and binding 1 never reached.
 * `shared` gives element 0's buffer to element 1 (an alias) or to element 2 and binding 1 (none). */
static void scenario_alias_array(struct objects *o, bool alias)
{
    VkDescriptorSetLayoutBinding bindings[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 2, .pBindings = bindings};
    VkDescriptorSetLayout set_layout;
    CHECK(vkCreateDescriptorSetLayout(o->a->device, &info, NULL, &set_layout));
    o->set_layouts[o->set_layout_count++] = set_layout;
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_alias_array, layer_test_spirv_alias_array_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    VkBuffer written = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBuffer other = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorBufferInfo elements[3] = {{written, 0, VK_WHOLE_SIZE},
                                          {alias ? written : other, alias ? 1024 : 0, VK_WHOLE_SIZE},
                                          {written, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet writes[2] = {{.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                       .dstSet = set,
                                       .dstBinding = 0,
                                       .descriptorCount = 3,
                                       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       .pBufferInfo = elements},
                                      {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                       .dstSet = set,
                                       .dstBinding = 1,
                                       .descriptorCount = 1,
                                       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       .pBufferInfo = elements}};
    vkUpdateDescriptorSets(o->a->device, 2, writes, 0, NULL);
    struct recording r = begin(o->a, "array-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(r.cb, 4096 / 4 / 64, 1, 1);
    finish(o->a, &r, !alias);
}

/* Two VkBuffers bound to overlapping bytes of one VkDeviceMemory (the second 1024 bytes or one
 * alignment further on). */
static void scenario_alias_memory(struct objects *o)
{
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 4096, .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    VkBuffer first, second;
    CHECK(vkCreateBuffer(o->a->device, &info, NULL, &first));
    CHECK(vkCreateBuffer(o->a->device, &info, NULL, &second));
    o->buffers[o->buffer_count++] = first;
    o->buffers[o->buffer_count++] = second;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(o->a->device, first, &req);
    VkDeviceSize shift = req.alignment > 1024 ? req.alignment : 1024;
    VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  .allocationSize = req.size + shift,
                                  .memoryTypeIndex = memory_type(o->a, req.memoryTypeBits, 0)};
    VkDeviceMemory memory;
    CHECK(vkAllocateMemory(o->a->device, &alloc, NULL, &memory));
    o->memories[o->memory_count++] = memory;
    CHECK(vkBindBufferMemory(o->a->device, first, memory, 0));
    CHECK(vkBindBufferMemory(o->a->device, second, memory, shift));
    copy_dispatch(o, "memory-cb", first, 0, second, 0, 4096, VK_NULL_HANDLE, false);
}

/* ggml's fused multi-add in small (selected_binding.comp): four ranges of one 16 KiB buffer, each
 * running to the buffer's end as ggml binds them, a specialization constant picking the binding
 * written, a push constant bounding the work at 1024 elements. `written` picks the binding,
 * `written_offset` where its range starts. Bindings before `written` are read, those after it are
 * not touched at all (dead code once the constant is applied). */
static void scenario_selected_binding(struct objects *o, uint32_t written, VkDeviceSize written_offset)
{
    VkBuffer big = new_buffer(o, 16384, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    const VkDescriptorType types[4] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    VkDescriptorSetLayout set_layout = new_set_layout(o, types, 4);
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                              .setLayoutCount = 1,
                                              .pSetLayouts = &set_layout,
                                              .pushConstantRangeCount = 1,
                                              .pPushConstantRanges = &range};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(o->a->device, &layout_info, NULL, &layout));
    o->pipeline_layouts[o->pipeline_layout_count++] = layout;
    VkSpecializationMapEntry entry = {0, 0, 4};
    VkSpecializationInfo spec = {1, &entry, 4, &written};
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = new_module(o, layer_test_spirv_selected_binding, layer_test_spirv_selected_binding_size),
                  .pName = "main",
                  .pSpecializationInfo = &spec},
        .layout = layout};
    VkPipeline pipeline;
    CHECK(vkCreateComputePipelines(o->a->device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline));
    o->pipelines[o->pipeline_count++] = pipeline;
    VkDescriptorSet set = new_set(o, set_layout);
    for (uint32_t b = 0; b < 4; ++b) {
        VkDeviceSize offset = b == written ? written_offset : 4096 * b;
        write_buffer(o, set, b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, big, offset, VK_WHOLE_SIZE);
    }
    uint32_t count = 1024;
    struct recording r = begin(o->a, "selected-binding-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(r.cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &count);
    vkCmdDispatch(r.cb, count / 64, 1, 1);
    finish(o->a, &r, true);
}

/* texel_buffer_sampler.comp: a usamplerBuffer bound as the uniform texel buffer it is. */
static void scenario_texel_buffer_sampler(struct objects *o)
{
    VkBuffer texels = new_buffer(o, 4096, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
    VkBuffer out = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBufferViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                                        .buffer = texels,
                                        .format = VK_FORMAT_R32_UINT,
                                        .range = VK_WHOLE_SIZE};
    VkBufferView view;
    CHECK(vkCreateBufferView(o->a->device, &view_info, NULL, &view));
    const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    VkDescriptorSetLayout set_layout = new_set_layout(o, types, 2);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline =
        new_compute(o, layer_test_spirv_texel_buffer_sampler, layer_test_spirv_texel_buffer_sampler_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = set,
                                  .dstBinding = 0,
                                  .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
                                  .pTexelBufferView = &view};
    vkUpdateDescriptorSets(o->a->device, 1, &write, 0, NULL);
    write_buffer(o, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out, 0, VK_WHOLE_SIZE);
    struct recording r = begin(o->a, "texel-buffer-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(r.cb, 4096 / 4 / 64, 1, 1);
    finish(o->a, &r, true);
    vkDestroyBufferView(o->a->device, view, NULL);
}

/* texel_alias.comp: binding 0, a storage texel buffer view of the buffer's first 4096 bytes, is
 * written with what binding 1, a storage buffer range of the same buffer, reads. alias-texel: the
 * storage buffer range is [2048, 6144) (overlapping; where an image store lands is not evaluated,
 * so unproven advice, off by default); alias-texel-disjoint: [4096, 8192) (silent either way). */
static void scenario_texel_alias(struct objects *o, bool overlap)
{
    VkBuffer both = new_buffer(o, 8192, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBufferViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
                                        .buffer = both,
                                        .format = VK_FORMAT_R32_UINT,
                                        .range = 4096};
    VkBufferView view;
    CHECK(vkCreateBufferView(o->a->device, &view_info, NULL, &view));
    const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER};
    VkDescriptorSetLayout set_layout = new_set_layout(o, types, 2);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_texel_alias, layer_test_spirv_texel_alias_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    VkWriteDescriptorSet write = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                  .dstSet = set,
                                  .dstBinding = 0,
                                  .descriptorCount = 1,
                                  .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
                                  .pTexelBufferView = &view};
    vkUpdateDescriptorSets(o->a->device, 1, &write, 0, NULL);
    write_buffer(o, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, both, overlap ? 2048 : 4096, 4096);
    struct recording r = begin(o->a, "texel-alias-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(r.cb, 4096 / 4 / 64, 1, 1);
    finish(o->a, &r, !overlap);
    vkDestroyBufferView(o->a->device, view, NULL);
}

/* indexed_by_data.comp: the written element is read from memory, so where binding 1's writes land
 * is known only on the GPU; its range overlaps binding 0's at another offset. */
static void scenario_indexed_by_data(struct objects *o)
{
    VkBuffer big = new_buffer(o, 8192, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorSetLayout set_layout = new_set_layout(o, copy_types, 2);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline =
        new_compute(o, layer_test_spirv_indexed_by_data, layer_test_spirv_indexed_by_data_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    write_buffer(o, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, big, 0, 4096);
    write_buffer(o, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, big, 2048, 4096);
    struct recording r = begin(o->a, "indexed-by-data-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(r.cb, 1, 1, 1);
    finish(o->a, &r, true);
}

/* A storage image written from a sampled view of the same image: same mip (alias) or another. */
static void scenario_alias_image(struct objects *o, bool same_mip)
{
    const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};
    VkImage image = new_image(o, 2, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    VkDescriptorSetLayout set_layout = new_set_layout(o, types, 2);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_alias_image, layer_test_spirv_alias_image_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    write_image(o, set, 0, types[0], new_view(o, image, same_mip ? 0 : 1));
    write_image(o, set, 1, types[1], new_view(o, image, 0));
    struct recording r = begin(o->a, "image-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(r.cb, 4, 4, 1);
    finish(o->a, &r, false);
}

/* A draw sampling an image while a render pass renders into it (or into another image). */
static void scenario_attachment(struct objects *o, bool same_image)
{
    VkImage target = new_image(o, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
    VkImage other = new_image(o, 1, VK_IMAGE_USAGE_SAMPLED_BIT);
    VkImageView target_view = new_view(o, target, 0);
    VkAttachmentDescription color = {.format = VK_FORMAT_R32_SFLOAT,
                                     .samples = VK_SAMPLE_COUNT_1_BIT,
                                     .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
                                     .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                     .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                     .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                     .initialLayout = VK_IMAGE_LAYOUT_GENERAL,
                                     .finalLayout = VK_IMAGE_LAYOUT_GENERAL};
    VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_GENERAL};
    VkSubpassDescription subpass = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1, .pColorAttachments = &ref};
    VkRenderPassCreateInfo pass_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
                                        .attachmentCount = 1,
                                        .pAttachments = &color,
                                        .subpassCount = 1,
                                        .pSubpasses = &subpass};
    new_render_pass(o, &pass_info, &target_view);

    const VkDescriptorType type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    VkDescriptorSetLayout set_layout = new_set_layout(o, &type, 1);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkDescriptorSet set = new_set(o, set_layout);
    write_image(o, set, 0, type, same_image ? new_view(o, target, 0) : new_view(o, other, 0));

    VkPipeline pipeline =
        new_fullscreen_pipeline(o, layout, o->render_pass, 0, layer_test_spirv_sample, layer_test_spirv_sample_size);

    struct recording r = begin(o->a, "draw-cb");
    VkRenderPassBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
                                        .renderPass = o->render_pass,
                                        .framebuffer = o->framebuffer,
                                        .renderArea = {{0, 0}, {64, 64}}};
    vkCmdBeginRenderPass(r.cb, &begin_info, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
    vkCmdDraw(r.cb, 3, 1, 0, 0);
    vkCmdEndRenderPass(r.cb);
    finish(o->a, &r, false);
}

/* two_sets.comp: set 1 not bound (missing) or bound but never written (unwritten). */
static void scenario_two_sets(struct objects *o, bool bind_second)
{
    VkDescriptorSetLayout sets[2] = {new_set_layout(o, copy_types, 1), new_set_layout(o, copy_types, 1)};
    VkPipelineLayout layout = new_pipeline_layout(o, sets, 2);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_two_sets, layer_test_spirv_two_sets_size, layout);
    VkDescriptorSet bound[2] = {new_set(o, sets[0]), new_set(o, sets[1])};
    write_buffer(o, bound[0], 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                 new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), 0, VK_WHOLE_SIZE);
    struct recording r = begin(o->a, "sets-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, bind_second ? 2 : 1, bound, 0, NULL);
    vkCmdDispatch(r.cb, 1, 1, 1);
    finish(o->a, &r, false);
}

/* alias_copy.comp's written binding declared as a uniform buffer in the pipeline layout. */
static void scenario_binding_type(struct objects *o)
{
    const VkDescriptorType types[] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
    VkDescriptorSetLayout set_layout = new_set_layout(o, types, 2);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    /* invalid usage: the pipeline is not created by the driver's rules, so do not insist it exists */
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = new_module(o, layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size),
                  .pName = "main"},
        .layout = layout,
    };
    VkPipeline pipeline = VK_NULL_HANDLE;
    if (vkCreateComputePipelines(o->a->device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline) == VK_SUCCESS)
        o->pipelines[o->pipeline_count++] = pipeline;
}

/* A buffer made only for uniform use written into a storage-buffer descriptor. */
static void scenario_binding_usage(struct objects *o)
{
    VkDescriptorSetLayout set_layout = new_set_layout(o, copy_types, 1);
    VkDescriptorSet set = new_set(o, set_layout);
    write_buffer(o, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, new_buffer(o, 256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT),
                 0, VK_WHOLE_SIZE);
}

bool scenarios_alias(struct app *a, const char *name)
{
    struct objects o = {.a = a};
    bool known = true;
    if (strcmp(name, "alias-clean") == 0) {
        scenario_alias_clean(&o);
    } else if (strcmp(name, "alias-buffer") == 0) {
        /* read [0, 2048), write [1024, 3072): invocation i writes what invocation i + 256 reads */
        VkBuffer b = new_buffer(&o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        copy_dispatch(&o, "alias-cb", b, 0, b, 1024, 2048, VK_NULL_HANDLE, false);
    } else if (strcmp(name, "alias-in-place") == 0) {
        /* one range read through binding 0 and written through binding 1, each invocation its own
         * element (as VkFFT and in-place filters do): advice, off by default */
        VkBuffer b = new_buffer(&o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        copy_dispatch(&o, "in-place-cb", b, 0, b, 0, 4096, VK_NULL_HANDLE, true);
    } else if (strcmp(name, "robust-ignored-pointers") == 0) {
        scenario_ignored_pointers(&o);
    } else if (strcmp(name, "alias-rotating-sets") == 0) {
        scenario_alias_rotating(&o);
    } else if (strcmp(name, "alias-selected-binding") == 0) {
        scenario_selected_binding(&o, 3, 3 * 4096); /* writes its own quarter: no meeting */
    } else if (strcmp(name, "alias-selected-binding-overlap") == 0) {
        scenario_selected_binding(&o, 3, 2 * 4096 + 64); /* 16 elements into binding 2's: a race */
    } else if (strcmp(name, "alias-selected-binding-dead") == 0) {
        scenario_selected_binding(&o, 1, 4096); /* bindings 2 and 3 never touched, wherever they lie */
    } else if (strcmp(name, "binding-texel-buffer-sampler") == 0) {
        scenario_texel_buffer_sampler(&o);
    } else if (strcmp(name, "alias-texel") == 0 || strcmp(name, "alias-texel-disjoint") == 0) {
        scenario_texel_alias(&o, strcmp(name, "alias-texel") == 0);
    } else if (strcmp(name, "alias-indexed-by-data") == 0) {
        scenario_indexed_by_data(&o);
    } else if (strcmp(name, "alias-memory") == 0) {
        scenario_alias_memory(&o);
    } else if (strcmp(name, "alias-indirect") == 0) {
        /* the shader writes the very arguments the dispatch reads */
        VkBuffer in = new_buffer(&o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        VkBuffer args = new_buffer(&o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
        ((uint32_t *)o.owned[o.owned_count - 1].mapped)[0] = 1;
        ((uint32_t *)o.owned[o.owned_count - 1].mapped)[1] = 1;
        ((uint32_t *)o.owned[o.owned_count - 1].mapped)[2] = 1;
        copy_dispatch(&o, "indirect-cb", in, 0, args, 0, 4096, args, false);
    } else if (strcmp(name, "alias-array") == 0 || strcmp(name, "alias-array-unreached") == 0) {
        scenario_alias_array(&o, strcmp(name, "alias-array") == 0);
    } else if (strcmp(name, "alias-image") == 0 || strcmp(name, "alias-image-mips") == 0) {
        scenario_alias_image(&o, strcmp(name, "alias-image") == 0);
    } else if (strcmp(name, "alias-attachment") == 0 || strcmp(name, "attachment-clean") == 0) {
        scenario_attachment(&o, strcmp(name, "alias-attachment") == 0);
    } else if (strcmp(name, "binding-missing-set") == 0 || strcmp(name, "binding-unwritten") == 0) {
        scenario_two_sets(&o, strcmp(name, "binding-unwritten") == 0);
    } else if (strcmp(name, "binding-type") == 0) {
        scenario_binding_type(&o);
    } else if (strcmp(name, "binding-usage") == 0) {
        scenario_binding_usage(&o);
    } else {
        known = false;
    }
    destroy_objects(&o);
    return known;
}
