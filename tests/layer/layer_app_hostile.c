/* layer_app's hostile scenarios: an application that passes the layer what a buggy program passes
 * (issue: the layer never crashes the application). Each call below is one the driver (lavapipe)
 * survives without the layer: tests/layer/layer_tests.sh runs every scenario without the layer
 * first, so a crash here with the layer is the layer's. The layer may report what it recognises
 * and must pass every call on. Recordings that hold invalid commands are never submitted: a driver
 * executing them would do what the application asked (read freed memory), which no layer prevents.
 * Scenarios:
 *   hostile-handles      destroyed and never-created handles in commands the layer tracks
 *   hostile-ranges       VK_WHOLE_SIZE, offsets and counts past the end, in copies, fills,
 *                        barriers and descriptors
 *   hostile-descriptors  descriptor counts of zero and of many, writes and copies across and past
 *                        bindings, templates with zero and odd strides, sets the layer cannot track
 *   hostile-pnext        unknown structures (and sTypes) in every chain the layer walks
 *   hostile-secondaries  vkCmdExecuteCommands with never-recorded, unfinished, freed and unknown
 *                        secondaries
 *   hostile-spirv        a module whose reflection must give up (an id defined twice)
 *   hostile-threads      eight threads recording, updating, submitting and waiting at once */
#include <pthread.h>
#include <string.h>

#include "layer_app_objects.h"
#include "layer_test_spirv.h"

/* Handles no driver ever returned (odd, so never a real pointer) and a structure type no
 * registry has. */
#define NEVER_CREATED(type, n) ((type)(uintptr_t)(0xdead0000beef0001ull + 2 * (n)))
#define UNKNOWN_STYPE ((VkStructureType)0x7FFFFF00)

/* A structure the layer does not know, with junk after its header, chained before `next`. */
struct unknown_structure {
    VkStructureType sType;
    const void *pNext;
    uint64_t junk[4];
};

static struct unknown_structure unknown(const void *next)
{
    return (struct unknown_structure){UNKNOWN_STYPE, next, {~0ull, 0x41414141ull, 0, 7}};
}

static VkBuffer destroyed_buffer(struct app *a)
{
    VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                               .size = 256,
                               .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
    VkBuffer b;
    CHECK(vkCreateBuffer(a->device, &info, NULL, &b));
    vkDestroyBuffer(a->device, b, NULL);
    return b;
}

static void scenario_handles(struct objects *o)
{
    struct app *a = o->a;
    VkBuffer valid = new_buffer(o, 4096,
                                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                    VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkBuffer dead = destroyed_buffer(a);
    VkBuffer never = NEVER_CREATED(VkBuffer, 1);
    VkImage never_image = NEVER_CREATED(VkImage, 2);
    VkDescriptorSetLayout set_layout = new_set_layout(o, copy_types, 3);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
    VkDescriptorPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                            .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                            .maxSets = 1,
                                            .poolSizeCount = 1,
                                            .pPoolSizes = &size};
    VkDescriptorPool pool;
    CHECK(vkCreateDescriptorPool(a->device, &pool_info, NULL, &pool));
    VkDescriptorSetAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                         .descriptorPool = pool,
                                         .descriptorSetCount = 1,
                                         .pSetLayouts = &set_layout};
    VkDescriptorSet freed;
    CHECK(vkAllocateDescriptorSets(a->device, &alloc, &freed));
    CHECK(vkFreeDescriptorSets(a->device, pool, 1, &freed));
    VkDescriptorSet sets[2] = {freed, NEVER_CREATED(VkDescriptorSet, 3)};

    struct recording r = begin(a, "hostile-handles-cb");
    vkCmdFillBuffer(r.cb, dead, 0, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(r.cb, never, 0, 64, 0);
    VkBufferCopy region = {0, 0, 64};
    vkCmdCopyBuffer(r.cb, never, valid, 1, &region);
    vkCmdCopyBuffer(r.cb, valid, dead, 1, &region);
    uint32_t words[4] = {1, 2, 3, 4};
    vkCmdUpdateBuffer(r.cb, never, 0, sizeof(words), words);
    VkBufferMemoryBarrier buffer_barrier = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                            .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                            .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
                                            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                            .buffer = never,
                                            .size = VK_WHOLE_SIZE};
    VkImageMemoryBarrier image_barrier = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                          .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                          .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
                                          .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                          .newLayout = VK_IMAGE_LAYOUT_GENERAL,
                                          .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                          .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                          .image = never_image,
                                          .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier(r.cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 1,
                         &buffer_barrier, 1, &image_barrier);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, sets, 0, NULL);
    vkCmdDispatchIndirect(r.cb, never, 0);
    VkDeviceSize offset = 0;
    vkCmdBindVertexBuffers(r.cb, 0, 1, &never, &offset);
    vkCmdBindIndexBuffer(r.cb, dead, 0, VK_INDEX_TYPE_UINT32);
    CHECK(vkEndCommandBuffer(r.cb));
    vkDestroyCommandPool(a->device, r.pool, NULL); /* never submitted */
    vkDestroyDescriptorPool(a->device, pool, NULL);
    printf("hostile-handles: recorded\n");
}

static void scenario_ranges(struct objects *o)
{
    struct app *a = o->a;
    VkBuffer b = new_buffer(o, 4096,
                            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkBuffer c = new_buffer(o, 4096,
                            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkImage image = new_image(o, 2, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);

    /* valid edges, submitted: whole sizes from an offset at the end, a last word */
    struct recording r = begin(a, "hostile-ranges-valid-cb");
    vkCmdFillBuffer(r.cb, b, 4092, VK_WHOLE_SIZE, 7);
    buffer_barrier(r.cb, b, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferCopy last = {4092, 4092, 4};
    vkCmdCopyBuffer(r.cb, b, c, 1, &last);
    finish(a, &r, true);

    /* invalid ranges, recorded only */
    r = begin(a, "hostile-ranges-invalid-cb");
    VkBufferCopy past[3] = {{8192, 0, 64}, {0, 4090, 64}, {~0ull - 8, 0, 16}};
    vkCmdCopyBuffer(r.cb, b, c, 3, past);
    vkCmdFillBuffer(r.cb, b, 1ull << 40, VK_WHOLE_SIZE, 0);
    vkCmdFillBuffer(r.cb, b, 4, ~0ull - 3, 0); /* a size that wraps when added to the offset */
    VkBufferMemoryBarrier wrap = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
                                  .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                  .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                  .buffer = b,
                                  .offset = 4000,
                                  .size = ~0ull - 100};
    VkImageMemoryBarrier levels = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                                   .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                   .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
                                   .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                                   .newLayout = VK_IMAGE_LAYOUT_GENERAL,
                                   .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                   .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                   .image = image,
                                   .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0xFFFFFFF0u, 0, 0xFFFFFFF0u}};
    vkCmdPipelineBarrier(r.cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 1,
                         &wrap, 1, &levels);
    levels.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 7, 1, 9, 1}; /* past the end */
    vkCmdPipelineBarrier(r.cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 0,
                         NULL, 1, &levels);
    VkClearColorValue zero = {{0}};
    VkImageSubresourceRange huge = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0xFFFFFFFEu, 0, VK_REMAINING_ARRAY_LAYERS};
    vkCmdClearColorImage(r.cb, image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &huge);
    /* descriptors whose ranges start past the buffer's end, then a dispatch with them */
    VkDescriptorSetLayout set_layout = new_set_layout(o, copy_types, 3);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size, layout);
    VkDescriptorSet set = new_set(o, set_layout);
    write_buffer(o, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, b, 1ull << 20, VK_WHOLE_SIZE);
    write_buffer(o, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, c, 4000, 1ull << 40);
    write_buffer(o, set, 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, b, ~0ull - 255, 256);
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(r.cb, 1, 1, 1);
    vkCmdDispatchIndirect(r.cb, b, 4095); /* the arguments would run past the end */
    CHECK(vkEndCommandBuffer(r.cb));
    vkDestroyCommandPool(a->device, r.pool, NULL);
    printf("hostile-ranges: recorded\n");
}

static void scenario_descriptors(struct objects *o)
{
    struct app *a = o->a;
    VkBuffer in = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    VkBuffer out = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    /* binding 0: no descriptors; 1..3: the copy shader's; 4: as many as the device allows up to 2^20 */
    uint32_t many = a->properties.limits.maxPerStageDescriptorStorageBuffers;
    if (many > a->properties.limits.maxDescriptorSetStorageBuffers)
        many = a->properties.limits.maxDescriptorSetStorageBuffers;
    many = many > 3 + (1u << 20) ? (1u << 20) : (many > 3 ? many - 3 : 1);
    VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, many, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = 5, .pBindings = bindings};
    VkDescriptorSetLayout set_layout;
    CHECK(vkCreateDescriptorSetLayout(a->device, &info, NULL, &set_layout));
    o->set_layouts[o->set_layout_count++] = set_layout;
    VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * (many + 2)},
                                    {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2}};
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 2, .poolSizeCount = 2, .pPoolSizes = sizes};
    VkDescriptorPool pool;
    CHECK(vkCreateDescriptorPool(a->device, &pool_info, NULL, &pool));
    VkDescriptorSetLayout layouts[2] = {set_layout, set_layout};
    VkDescriptorSetAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                         .descriptorPool = pool,
                                         .descriptorSetCount = 2,
                                         .pSetLayouts = layouts};
    VkDescriptorSet sets[2];
    CHECK(vkAllocateDescriptorSets(a->device, &alloc, sets));

    /* a write of no descriptors; then bindings 1 and 2 in one write (it runs on into the next binding) */
    VkDescriptorBufferInfo infos[3] = {{in, 0, VK_WHOLE_SIZE}, {out, 0, VK_WHOLE_SIZE}, {in, 0, 256}};
    VkWriteDescriptorSet writes[3] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = sets[0],
         .dstBinding = 4,
         .descriptorCount = 0,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = infos},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = sets[0],
         .dstBinding = 1,
         .descriptorCount = 2,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = infos},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = sets[0],
         .dstBinding = 3,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
         .pBufferInfo = &infos[2]},
    };
    vkUpdateDescriptorSets(a->device, 3, writes, 0, NULL);
    /* the last element of the big binding, and a copy of all four small ones into the other set */
    VkWriteDescriptorSet last = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                 .dstSet = sets[0],
                                 .dstBinding = 4,
                                 .dstArrayElement = many - 1,
                                 .descriptorCount = 1,
                                 .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                 .pBufferInfo = infos};
    VkCopyDescriptorSet copy = {.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
                                .srcSet = sets[0],
                                .srcBinding = 1,
                                .dstSet = sets[1],
                                .dstBinding = 1,
                                .descriptorCount = 2};
    vkUpdateDescriptorSets(a->device, 1, &last, 1, &copy);

    /* a template: stride 0 (every descriptor from the same info) and an entry of no descriptors at
     * an offset far past the data (never read) */
    VkDescriptorUpdateTemplateEntry entries[2] = {
        {.dstBinding = 1,
         .descriptorCount = 2,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .offset = 0,
         .stride = 0},
        {.dstBinding = 4,
         .descriptorCount = 0,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .offset = 1u << 30,
         .stride = 1u << 20},
    };
    VkDescriptorUpdateTemplateCreateInfo template_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
        .descriptorUpdateEntryCount = 2,
        .pDescriptorUpdateEntries = entries,
        .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
        .descriptorSetLayout = set_layout};
    VkDescriptorUpdateTemplate template;
    CHECK(vkCreateDescriptorUpdateTemplate(a->device, &template_info, NULL, &template));
    VkDescriptorBufferInfo one = {out, 0, VK_WHOLE_SIZE};
    vkUpdateDescriptorSetWithTemplate(a->device, sets[1], template, &one);
    vkUpdateDescriptorSetWithTemplate(a->device, sets[1], template, &infos[0]); /* back to in, out */
    vkDestroyDescriptorUpdateTemplate(a->device, template, NULL);

    /* a correct dispatch with the set: copy_types' shader reads binding 0 and writes 1 of set 0;
     * here its set is laid out on bindings 1..3 of another layout, so bind through a layout made
     * for the shader and the same buffers */
    VkDescriptorSetLayout copy_layout = new_set_layout(o, copy_types, 3);
    VkPipelineLayout layout = new_pipeline_layout(o, &copy_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size, layout);
    VkDescriptorSet copy_set = new_set(o, copy_layout);
    write_buffer(o, copy_set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, in, 0, VK_WHOLE_SIZE);
    write_buffer(o, copy_set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, out, 0, VK_WHOLE_SIZE);
    write_buffer(o, copy_set, 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, in, 0, 256);
    struct recording r = begin(a, "hostile-descriptors-cb");
    vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &copy_set, 0, NULL);
    vkCmdDispatch(r.cb, 1, 1, 1);
    finish(a, &r, true);
    vkDestroyDescriptorPool(a->device, pool, NULL);
    printf("hostile-descriptors: %u descriptors in the big binding\n", many);
}

static void scenario_pnext(struct objects *o)
{
    struct app *a = o->a;
    struct unknown_structure u1 = unknown(NULL), u2 = unknown(&u1);
    /* a buffer, memory, binding and a view of an image, each with unknown structures chained */
    VkBufferCreateInfo buffer_info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                      .pNext = &u2,
                                      .size = 4096,
                                      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    VkBuffer buffer;
    CHECK(vkCreateBuffer(a->device, &buffer_info, NULL, &buffer));
    o->buffers[o->buffer_count++] = buffer;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(a->device, buffer, &req);
    VkMemoryAllocateInfo memory_info = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                        .pNext = &u2,
                                        .allocationSize = req.size,
                                        .memoryTypeIndex = memory_type(a, req.memoryTypeBits, 0)};
    VkDeviceMemory memory;
    CHECK(vkAllocateMemory(a->device, &memory_info, NULL, &memory));
    o->memories[o->memory_count++] = memory;
    VkBindBufferMemoryInfo bind = {
        .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO, .pNext = &u2, .buffer = buffer, .memory = memory};
    CHECK(vkBindBufferMemory2(a->device, 1, &bind));
    VkImage image = new_image(o, 1, VK_IMAGE_USAGE_STORAGE_BIT);
    VkImageViewCreateInfo view_info = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                       .pNext = &u2,
                                       .image = image,
                                       .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                       .format = VK_FORMAT_R32_SFLOAT,
                                       .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    VkImageView view;
    CHECK(vkCreateImageView(a->device, &view_info, NULL, &view));
    o->views[o->view_count++] = view;
    /* descriptors: layout, write */
    VkDescriptorSetLayoutBinding bindings[3] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    VkDescriptorSetLayoutCreateInfo set_info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                                .pNext = &u2,
                                                .bindingCount = 3,
                                                .pBindings = bindings};
    VkDescriptorSetLayout set_layout;
    CHECK(vkCreateDescriptorSetLayout(a->device, &set_info, NULL, &set_layout));
    o->set_layouts[o->set_layout_count++] = set_layout;
    VkDescriptorSet set = new_set(o, set_layout);
    VkBuffer other = new_buffer(o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    VkDescriptorBufferInfo infos[3] = {{other, 0, VK_WHOLE_SIZE}, {buffer, 0, VK_WHOLE_SIZE}, {other, 0, 256}};
    VkWriteDescriptorSet writes[3];
    for (uint32_t i = 0; i < 3; ++i)
        writes[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                           .pNext = &u2,
                                           .dstSet = set,
                                           .dstBinding = i,
                                           .descriptorCount = 1,
                                           .descriptorType = bindings[i].descriptorType,
                                           .pBufferInfo = &infos[i]};
    vkUpdateDescriptorSets(a->device, 3, writes, 0, NULL);
    /* a pipeline whose stage and create info carry unknown structures */
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkComputePipelineCreateInfo pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .pNext = &u2,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                  .pNext = &u2,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = new_module(o, layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size),
                  .pName = "main"},
        .layout = layout};
    VkPipeline pipeline;
    CHECK(vkCreateComputePipelines(a->device, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &pipeline));
    o->pipelines[o->pipeline_count++] = pipeline;
    /* a recording begun, barriered (sync2) and submitted with unknown structures */
    VkCommandPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .pNext = &u2, .queueFamilyIndex = a->family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(a->device, &pool_info, NULL, &pool));
    VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                         .pNext = &u2,
                                         .commandPool = pool,
                                         .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                         .commandBufferCount = 1};
    VkCommandBuffer cb;
    CHECK(vkAllocateCommandBuffers(a->device, &alloc, &cb));
    VkCommandBufferBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .pNext = &u2};
    CHECK(vkBeginCommandBuffer(cb, &begin_info));
    vkCmdFillBuffer(cb, buffer, 0, VK_WHOLE_SIZE, 0);
    VkBufferMemoryBarrier2 barrier = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
                                      .pNext = &u2,
                                      .srcStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT,
                                      .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
                                      .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                      .dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
                                      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                      .buffer = buffer,
                                      .size = VK_WHOLE_SIZE};
    VkDependencyInfo dependency = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                   .pNext = &u2,
                                   .bufferMemoryBarrierCount = 1,
                                   .pBufferMemoryBarriers = &barrier};
    vkCmdPipelineBarrier2(cb, &dependency);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(cb, 1, 1, 1);
    CHECK(vkEndCommandBuffer(cb));
    VkSemaphoreCreateInfo semaphore_info = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &u2};
    VkSemaphore semaphore;
    CHECK(vkCreateSemaphore(a->device, &semaphore_info, NULL, &semaphore));
    VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, .pNext = &u2};
    VkFence fence;
    CHECK(vkCreateFence(a->device, &fence_info, NULL, &fence));
    VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                           .pNext = &u2,
                           .commandBufferCount = 1,
                           .pCommandBuffers = &cb,
                           .signalSemaphoreCount = 1,
                           .pSignalSemaphores = &semaphore};
    CHECK(vkQueueSubmit(a->queue, 1, &submit, fence));
    CHECK(vkWaitForFences(a->device, 1, &fence, VK_TRUE, UINT64_MAX));
    CHECK(vkQueueWaitIdle(a->queue));
    vkDestroyFence(a->device, fence, NULL);
    vkDestroySemaphore(a->device, semaphore, NULL);
    vkDestroyCommandPool(a->device, pool, NULL);
    printf("hostile-pnext: submitted\n");
}

static void scenario_secondaries(struct objects *o)
{
    struct app *a = o->a;
    VkCommandPoolCreateInfo pool_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                         .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                         .queueFamilyIndex = a->family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(a->device, &pool_info, NULL, &pool));
    VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                         .commandPool = pool,
                                         .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
                                         .commandBufferCount = 3};
    VkCommandBuffer secondaries[3];
    CHECK(vkAllocateCommandBuffers(a->device, &alloc, secondaries));
    /* [0] never begun; [1] begun and never ended; [2] recorded, then freed */
    VkCommandBufferInheritanceInfo inheritance = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
    VkCommandBufferBeginInfo begin_info = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                           .pInheritanceInfo = &inheritance};
    VkBuffer b = new_buffer(o, 4096, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    CHECK(vkBeginCommandBuffer(secondaries[1], &begin_info));
    vkCmdFillBuffer(secondaries[1], b, 0, 64, 1);
    CHECK(vkBeginCommandBuffer(secondaries[2], &begin_info));
    vkCmdFillBuffer(secondaries[2], b, 0, 64, 2);
    CHECK(vkEndCommandBuffer(secondaries[2]));
    VkCommandBuffer freed = secondaries[2];
    vkFreeCommandBuffers(a->device, pool, 1, &freed);

    struct recording r = begin(a, "hostile-secondaries-cb");
    vkCmdExecuteCommands(r.cb, 3, secondaries);
    vkCmdExecuteCommands(r.cb, 0, NULL);
    CHECK(vkEndCommandBuffer(r.cb));
    vkDestroyCommandPool(a->device, r.pool, NULL); /* never submitted */
    vkDestroyCommandPool(a->device, pool, NULL);
    printf("hostile-secondaries: recorded\n");
}

/* noop.comp with one id defined twice: the module's last OpTypeVoid/OpTypeInt result repeated by
 * an extra OpTypeBool with the same id, appended before the first function. */
static void scenario_spirv(struct objects *o)
{
    struct app *a = o->a;
    size_t words = layer_test_spirv_noop_size / 4;
    uint32_t *code = malloc((words + 2) * 4);
    if (code == NULL)
        exit(3);
    /* find the first OpFunction and an id defined before it (the first OpTypeVoid's) */
    size_t at = 5, function = 0;
    uint32_t void_id = 0;
    while (at < words) {
        uint32_t count = layer_test_spirv_noop[at] >> 16, opcode = layer_test_spirv_noop[at] & 0xFFFF;
        if (count == 0)
            break;
        if (opcode == 19 /* OpTypeVoid */ && void_id == 0)
            void_id = layer_test_spirv_noop[at + 1];
        if (opcode == 54 /* OpFunction */) {
            function = at;
            break;
        }
        at += count;
    }
    if (function == 0 || void_id == 0) {
        fprintf(stderr, "noop.comp has no OpTypeVoid before its function\n");
        exit(3);
    }
    memcpy(code, layer_test_spirv_noop, function * 4);
    code[function] = 2u << 16 | 20; /* OpTypeBool %void_id */
    code[function + 1] = void_id;
    memcpy(code + function + 2, layer_test_spirv_noop + function, (words - function) * 4);
    VkShaderModuleCreateInfo module_info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = (words + 2) * 4, .pCode = code};
    VkShaderModule module;
    CHECK(vkCreateShaderModule(a->device, &module_info, NULL, &module));
    free(code);
    if (a->set_name) {
        VkDebugUtilsObjectNameInfoEXT n = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                           .objectType = VK_OBJECT_TYPE_SHADER_MODULE,
                                           .objectHandle = (uint64_t)module,
                                           .pObjectName = "twice-defined"};
        a->set_name(a->device, &n);
    }
    o->modules[o->module_count++] = module;
    VkPipelineLayout layout = new_pipeline_layout(o, NULL, 0);
    VkComputePipelineCreateInfo info = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                                                  .module = module,
                                                  .pName = "main"},
                                        .layout = layout};
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkResult result = vkCreateComputePipelines(a->device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline);
    if (pipeline != VK_NULL_HANDLE)
        o->pipelines[o->pipeline_count++] = pipeline;
    printf("hostile-spirv: vkCreateComputePipelines returned %d\n", result);
}

/* Eight threads, each with its own pool and set, record, update and submit at once; the queue is
 * the application's to lock (the spec: externally synchronized). */
struct thread_work {
    struct app *a;
    pthread_mutex_t *queue_lock;
    VkPipeline pipeline;
    VkPipelineLayout layout;
    VkDescriptorSetLayout set_layout;
    int failures;
};

static void *thread_main(void *arg)
{
    struct thread_work *w = arg;
    struct app *a = w->a;
    struct objects o = {.a = a};
    VkBuffer in = new_buffer(&o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBuffer out = new_buffer(&o, 4096, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkBuffer ubo = new_buffer(&o, 256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    VkDescriptorSet set = new_set(&o, w->set_layout);
    VkFence fence = new_fence(a);
    for (int round = 0; round < 40; ++round) {
        write_buffer(&o, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, round % 2 ? in : out, 0, VK_WHOLE_SIZE);
        write_buffer(&o, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, round % 2 ? out : in, 0, VK_WHOLE_SIZE);
        write_buffer(&o, set, 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, ubo, 0, 256);
        struct recording r = begin(a, NULL);
        vkCmdBindPipeline(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, w->pipeline);
        vkCmdBindDescriptorSets(r.cb, VK_PIPELINE_BIND_POINT_COMPUTE, w->layout, 0, 1, &set, 0, NULL);
        vkCmdDispatch(r.cb, 1, 1, 1);
        CHECK(vkEndCommandBuffer(r.cb));
        VkSubmitInfo submit = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &r.cb};
        pthread_mutex_lock(w->queue_lock);
        VkResult result = vkQueueSubmit(a->queue, 1, &submit, fence);
        pthread_mutex_unlock(w->queue_lock);
        if (result != VK_SUCCESS || vkWaitForFences(a->device, 1, &fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS ||
            vkResetFences(a->device, 1, &fence) != VK_SUCCESS)
            w->failures++;
        vkDestroyCommandPool(a->device, r.pool, NULL);
    }
    vkDestroyFence(a->device, fence, NULL);
    destroy_objects(&o);
    return NULL;
}

static void scenario_threads(struct objects *o)
{
    enum { THREADS = 8 };
    VkDescriptorSetLayout set_layout = new_set_layout(o, copy_types, 3);
    VkPipelineLayout layout = new_pipeline_layout(o, &set_layout, 1);
    VkPipeline pipeline = new_compute(o, layer_test_spirv_alias_copy, layer_test_spirv_alias_copy_size, layout);
    pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
    struct thread_work work[THREADS];
    pthread_t threads[THREADS];
    for (int i = 0; i < THREADS; ++i) {
        work[i] = (struct thread_work){o->a, &queue_lock, pipeline, layout, set_layout, 0};
        pthread_create(&threads[i], NULL, thread_main, &work[i]);
    }
    int failures = 0;
    for (int i = 0; i < THREADS; ++i) {
        pthread_join(threads[i], NULL);
        failures += work[i].failures;
    }
    printf("hostile-threads: %d threads x 40 submissions, %d failed calls\n", THREADS, failures);
    if (failures)
        exit(4);
}

bool scenarios_hostile(struct app *a, const char *name)
{
    static const struct {
        const char *name;
        void (*run)(struct objects *o);
    } table[] = {
        {"hostile-handles", scenario_handles},         {"hostile-ranges", scenario_ranges},
        {"hostile-descriptors", scenario_descriptors}, {"hostile-pnext", scenario_pnext},
        {"hostile-secondaries", scenario_secondaries}, {"hostile-spirv", scenario_spirv},
        {"hostile-threads", scenario_threads},
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); ++i) {
        if (strcmp(name, table[i].name) != 0)
            continue;
        struct objects o = {.a = a};
        table[i].run(&o);
        CHECK(vkDeviceWaitIdle(a->device));
        destroy_objects(&o);
        return true;
    }
    return false;
}
