/* Fuzzing the layer's descriptor writes (layer/descriptor_writes.c) with hostile layouts, writes,
 * copies and update templates: descriptor counts of zero and of millions, elements past a
 * binding's end and past the set's, bindings that do not exist, templates whose offsets and
 * strides land anywhere in the data the application gives, every descriptor type. The input is a
 * little program: a layout, then operations. The data behind each write and template is exactly
 * what a valid application would pass (its arrays have descriptorCount elements, a template's
 * data ends after its last entry's last info), so ASan catches any read the layer makes beyond it. */
#include <stdlib.h>
#include <string.h>

#include "descriptor_writes.h"
#include "fuzz_driver.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "state_resources.h"

struct reader {
    const uint8_t *data;
    size_t size, at;
};

static uint32_t take(struct reader *r, unsigned bytes)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < bytes; ++i)
        v = v << 8 | (r->at < r->size ? r->data[r->at++] : 0);
    return v;
}

static const VkDescriptorType types[] = {
    VK_DESCRIPTOR_TYPE_SAMPLER,
    VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
    VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
    VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
    VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
    VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
    VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC,
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC,
    VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT,
    VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK,
    VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR,
    VK_DESCRIPTOR_TYPE_MUTABLE_EXT,
    (VkDescriptorType)0x7FFFFFF0, /* no such type */
};

/* A count: mostly small, sometimes at the edges (zero, the end of a binding, millions). */
static uint32_t a_count(struct reader *r)
{
    uint32_t kind = take(r, 1);
    switch (kind % 8) {
    case 0:
        return 0;
    case 1:
        return 1000000 + take(r, 2);
    case 2:
        return 0xFFFFFFFFu - take(r, 1);
    default:
        return kind % 17;
    }
}

static uint64_t the_buffer = 0x1000, the_view = 0x2000;

/* the state modules' command-buffer lookup needs the loader glue's; nothing here looks one up */
struct layer_device *layer_device_of(const void *dispatchable)
{
    (void)dispatchable;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct reader r = {data, size, 0};
    struct layer_device ld;
    memset(&ld, 0, sizeof(ld));
    handle_map_init(&ld.objects[OBJECT_KIND_buffer]);
    handle_map_init(&ld.objects[OBJECT_KIND_image]);
    handle_map_init(&ld.objects[OBJECT_KIND_image_view]);
    struct buffer_state buffer = {
        .handle = (VkBuffer)(uintptr_t)the_buffer, .size = 4096, .memory = (VkDeviceMemory)0x9000};
    struct image_state image = {.extent = {64, 64, 1}, .mip_levels = 3, .array_layers = 4, .type = VK_IMAGE_TYPE_2D};
    struct image_view_state view = {
        .image = (VkImage)0x3000,
        .range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, VK_REMAINING_MIP_LEVELS, 2, VK_REMAINING_ARRAY_LAYERS}};
    handle_map_put(&ld.objects[OBJECT_KIND_buffer], the_buffer, &buffer);
    handle_map_put(&ld.objects[OBJECT_KIND_image], 0x3000, &image);
    handle_map_put(&ld.objects[OBJECT_KIND_image_view], the_view, &view);

    /* the layout */
    uint32_t binding_count = take(&r, 1) % 9;
    VkDescriptorSetLayoutBinding bindings[8];
    for (uint32_t i = 0; i < binding_count; ++i)
        bindings[i] =
            (VkDescriptorSetLayoutBinding){.binding = take(&r, 1) % 12,
                                           .descriptorType = types[take(&r, 1) % (sizeof(types) / sizeof(types[0]))],
                                           .descriptorCount = take(&r, 1) % 3 == 0 ? a_count(&r) : take(&r, 1) % 9,
                                           .stageFlags = VK_SHADER_STAGE_ALL};
    VkDescriptorSetLayoutCreateInfo layout_info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                                   .bindingCount = binding_count,
                                                   .pBindings = binding_count ? bindings : NULL};
    struct set_layout_state *layout = descriptor_set_layout_create(&layout_info);
    struct set_state *set = layout ? descriptor_set_create(layout, (VkDescriptorSet)0x5000, VK_NULL_HANDLE) : NULL;
    struct set_state *other = layout ? descriptor_set_create(layout, (VkDescriptorSet)0x6000, VK_NULL_HANDLE) : NULL;

    for (int op = 0; set != NULL && other != NULL && op < 16 && r.at < r.size; ++op) {
        uint32_t kind = take(&r, 1) % 3;
        VkDescriptorType type = types[take(&r, 1) % (sizeof(types) / sizeof(types[0]))];
        uint32_t binding = take(&r, 1) % 14, element = take(&r, 1) % 5 == 0 ? take(&r, 4) : take(&r, 1) % 10;
        uint32_t count = a_count(&r);
        if (kind == 0) { /* vkUpdateDescriptorSets: arrays of exactly descriptorCount elements (at most 65536) */
            uint32_t given = count > 65536 ? 65536 : count;
            VkDescriptorImageInfo *images = calloc(given ? given : 1, sizeof(*images));
            VkDescriptorBufferInfo *buffers = calloc(given ? given : 1, sizeof(*buffers));
            VkBufferView *views = calloc(given ? given : 1, sizeof(*views));
            for (uint32_t i = 0; images && buffers && views && i < given; ++i) {
                images[i] =
                    (VkDescriptorImageInfo){VK_NULL_HANDLE, (VkImageView)(uintptr_t)the_view, VK_IMAGE_LAYOUT_GENERAL};
                buffers[i] = (VkDescriptorBufferInfo){(VkBuffer)(uintptr_t)the_buffer, take(&r, 2),
                                                      i % 3 ? take(&r, 2) : VK_WHOLE_SIZE};
            }
            VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                      .dstSet = (VkDescriptorSet)0x5000,
                                      .dstBinding = binding,
                                      .dstArrayElement = element,
                                      .descriptorCount = given,
                                      .descriptorType = type,
                                      .pImageInfo = images,
                                      .pBufferInfo = take(&r, 1) % 7 ? buffers : NULL,
                                      .pTexelBufferView = views};
            if (images && buffers && views)
                descriptor_write_apply(&ld, set, &w);
            free(images);
            free(buffers);
            free(views);
        } else if (kind == 1) { /* a copy, within the set or from the other one */
            VkCopyDescriptorSet c = {.sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
                                     .srcBinding = take(&r, 1) % 14,
                                     .srcArrayElement = take(&r, 1) % 10,
                                     .dstBinding = binding,
                                     .dstArrayElement = element,
                                     .descriptorCount = count};
            descriptor_copy_apply(take(&r, 1) % 2 ? set : other, set, &c);
        } else { /* a template: entries at hostile offsets and strides; data up to the last info they name */
            struct update_template_state t = {.entry_count = 1 + take(&r, 1) % 4};
            VkDescriptorUpdateTemplateEntry entries[4];
            size_t extent = 0;
            for (uint32_t e = 0; e < t.entry_count; ++e) {
                uint32_t n = take(&r, 1) % 6;
                entries[e] = (VkDescriptorUpdateTemplateEntry){
                    .dstBinding = take(&r, 1) % 14,
                    .dstArrayElement = take(&r, 1) % 10,
                    .descriptorCount = n,
                    .descriptorType = types[take(&r, 1) % (sizeof(types) / sizeof(types[0]))],
                    .offset = take(&r, 2),
                    .stride = take(&r, 1) % 4 == 0 ? 0 : take(&r, 2)};
                size_t end = n ? entries[e].offset + (size_t)(n - 1) * entries[e].stride + 32 : 0;
                extent = end > extent ? end : extent;
            }
            t.entries = entries;
            uint8_t *bytes = malloc(extent ? extent : 1);
            if (bytes != NULL) {
                for (size_t i = 0; i < extent; ++i)
                    bytes[i] = (uint8_t)take(&r, 1);
                descriptor_template_apply(&ld, set, &t, bytes);
            }
            free(bytes);
        }
    }
    set_state_release(set);
    set_state_release(other);
    set_layout_release(layout);
    handle_map_destroy(&ld.objects[OBJECT_KIND_buffer], NULL);
    handle_map_destroy(&ld.objects[OBJECT_KIND_image], NULL);
    handle_map_destroy(&ld.objects[OBJECT_KIND_image_view], NULL);
    return 0;
}

void fuzz_target_mutate(uint8_t *data, size_t *size, size_t capacity)
{
    fuzz_mutate_bytes(data, size, capacity, NULL);
}
