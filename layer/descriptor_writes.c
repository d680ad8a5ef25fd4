#include "descriptor_writes.h"

#include <stdlib.h>
#include <string.h>

#include "command_access_regions.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "state_resources.h"

/* Which of VkWriteDescriptorSet's arrays (or which info a template entry points at) a type uses. */
static bool uses_image_info(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_SAMPLER || t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
           t == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || t == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
           t == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT || t == VK_DESCRIPTOR_TYPE_SAMPLE_WEIGHT_IMAGE_QCOM ||
           t == VK_DESCRIPTOR_TYPE_BLOCK_MATCH_IMAGE_QCOM;
}

static bool uses_buffer_info(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
           t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

static bool uses_texel_view(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

static int by_binding_number(const void *a, const void *b)
{
    uint32_t x = ((const struct set_layout_binding *)a)->binding, y = ((const struct set_layout_binding *)b)->binding;
    return x < y ? -1 : x > y;
}

struct set_layout_state *descriptor_set_layout_create(const VkDescriptorSetLayoutCreateInfo *info)
{
    struct set_layout_state *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return NULL;
    s->refs = 1;
    s->flags = info->flags;
    s->binding_count = info->pBindings ? info->bindingCount : 0;
    s->bindings = calloc(s->binding_count ? s->binding_count : 1, sizeof(*s->bindings));
    if (s->bindings == NULL) {
        free(s);
        return NULL;
    }
    const VkDescriptorSetLayoutBindingFlagsCreateInfo *flags = NULL;
    for (const VkBaseInStructure *n = info->pNext; n != NULL; n = n->pNext)
        if (n->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO)
            flags = (const VkDescriptorSetLayoutBindingFlagsCreateInfo *)n;
    for (uint32_t i = 0; i < s->binding_count; ++i) {
        const VkDescriptorSetLayoutBinding *b = &info->pBindings[i];
        /* inline uniform blocks count bytes, not descriptors: one entry stands for the block */
        uint32_t count = b->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ? 1 : b->descriptorCount;
        VkDescriptorBindingFlags binding_flags =
            flags && i < flags->bindingCount && flags->pBindingFlags ? flags->pBindingFlags[i] : 0;
        s->bindings[i] =
            (struct set_layout_binding){b->binding, b->descriptorType, count, b->stageFlags, binding_flags, 0};
    }
    /* in binding-number order, the order dynamic offsets and consecutive-binding writes follow */
    qsort(s->bindings, s->binding_count, sizeof(*s->bindings), by_binding_number);
    uint64_t total = 0; /* counts come from the application: summed without wrapping */
    for (uint32_t i = 0; i < s->binding_count; ++i) {
        s->bindings[i].first = (uint32_t)total;
        total += s->bindings[i].count;
        if (total > DESCRIPTORS_TRACKED_MAX) {
            free(s->bindings);
            free(s);
            return NULL;
        }
        if (s->bindings[i].type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
            s->bindings[i].type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)
            s->dynamic_count += s->bindings[i].count;
    }
    s->descriptor_count = (uint32_t)total;
    return s;
}

struct set_state *descriptor_set_create(struct set_layout_state *layout, VkDescriptorSet handle, VkDescriptorPool pool)
{
    struct set_state *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return NULL;
    s->descriptors = calloc(layout->descriptor_count ? layout->descriptor_count : 1, sizeof(*s->descriptors));
    if (s->descriptors == NULL) {
        free(s);
        return NULL;
    }
    static uint64_t set_ids;
    s->id = __atomic_add_fetch(&set_ids, 1, __ATOMIC_RELAXED);
    s->refs = 1;
    s->handle = handle;
    s->pool = pool;
    s->layout = layout;
    STATE_RETAIN(layout);
    /* the descriptors stay zero (unwritten, untouched pages) until written: a bindless set of a
     * million descriptors costs memory only for those the application writes */
    return s;
}

/* The descriptor at (binding, element) of `set`, following the rule that a write past the end of
 * a binding continues into the next binding. NULL past the end of the set. */
static struct descriptor_state *descriptor_at(struct set_state *set, uint32_t binding, uint64_t element)
{
    const struct set_layout_state *l = set->layout;
    for (uint32_t b = 0; b < l->binding_count; ++b) {
        if (l->bindings[b].binding != binding)
            continue;
        uint64_t index = (uint64_t)l->bindings[b].first + element; /* no wrap: elements come from the app */
        return index < l->descriptor_count ? &set->descriptors[index] : NULL;
    }
    return NULL;
}

/* Fills the descriptor's resolved fields (state_descriptors.h). */
static void resolve(struct layer_device *ld, struct descriptor_state *d, bool buffer)
{
    d->resolved = false;
    if (buffer) {
        struct buffer_state *b = buffer_state_in(ld, d->resource);
        struct hazard_access r;
        if (b == NULL || b->memory == VK_NULL_HANDLE || !access_buffer_range(ld, d->resource, d->offset, d->range, &r))
            return;
        *d = (struct descriptor_state){.written = d->written,
                                       .type = d->type,
                                       .resource = d->resource,
                                       .sampler = d->sampler,
                                       .offset = d->offset,
                                       .range = d->range,
                                       .layout = d->layout,
                                       .resolved = true,
                                       .key = r.key,
                                       .begin = r.begin,
                                       .end = r.end,
                                       .limit = b->memory_offset + b->size,
                                       .layer_begin = 0,
                                       .layer_end = 1};
        return;
    }
    struct image_view_state *v = image_view_state_in(ld, d->resource);
    struct hazard_access r;
    if (!access_view_range(ld, v, 0, false, &r))
        return;
    d->resolved = true;
    d->key = r.key;
    d->begin = r.begin;
    d->end = r.end;
    d->layer_begin = r.layer_begin;
    d->layer_end = r.layer_end;
}

static void write_one(struct layer_device *ld, struct descriptor_state *d, VkDescriptorType type,
                      const VkDescriptorImageInfo *image, const VkDescriptorBufferInfo *buffer,
                      const VkBufferView *texel, uint64_t acceleration)
{
    if (d == NULL)
        return;
    d->written = true;
    d->type = type;
    d->resolved = false;
    d->sampler = 0;
    switch (type) {
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
        if (buffer) {
            d->resource = HANDLE(buffer->buffer);
            d->offset = buffer->offset;
            d->range = buffer->range;
            resolve(ld, d, true);
        }
        break;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
        /* the view's buffer bytes, as a buffer descriptor's; the view itself kept for the lifetime
         * checks (in `sampler`: state_descriptors.h) */
        if (texel) {
            const struct buffer_view_state *v = buffer_view_state_in(ld, HANDLE(*texel));
            d->sampler = HANDLE(*texel);
            d->resource = v ? HANDLE(v->buffer) : 0;
            d->offset = v ? v->offset : 0;
            d->range = v ? v->range : 0;
            if (v != NULL)
                resolve(ld, d, true);
        }
        break;
    case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR:
        d->resource = acceleration;
        break;
    case VK_DESCRIPTOR_TYPE_SAMPLER:
        if (image)
            d->resource = HANDLE(image->sampler);
        break;
    default: /* image descriptors */
        if (image) {
            d->resource = HANDLE(image->imageView);
            d->sampler = type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ? HANDLE(image->sampler) : 0;
            d->layout = image->imageLayout;
            resolve(ld, d, false);
        }
        break;
    }
}

void descriptor_write_apply(struct layer_device *ld, struct set_state *set, const VkWriteDescriptorSet *w)
{
    const VkWriteDescriptorSetAccelerationStructureKHR *as = NULL;
    for (const VkBaseInStructure *s = w->pNext; s != NULL; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR)
            as = (const VkWriteDescriptorSetAccelerationStructureKHR *)s;
    if (w->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
        struct descriptor_state *d = descriptor_at(set, w->dstBinding, 0);
        if (d)
            d->written = true;
        return;
    }
    for (uint32_t i = 0; i < w->descriptorCount; ++i) {
        struct descriptor_state *d = descriptor_at(set, w->dstBinding, (uint64_t)w->dstArrayElement + i);
        if (d == NULL)
            break; /* past the set's last descriptor: the rest cannot land anywhere */
        /* only the array the type names is read: the spec ignores the others, which may hold anything */
        write_one(ld, d, w->descriptorType,
                  uses_image_info(w->descriptorType) && w->pImageInfo ? &w->pImageInfo[i] : NULL,
                  uses_buffer_info(w->descriptorType) && w->pBufferInfo ? &w->pBufferInfo[i] : NULL,
                  uses_texel_view(w->descriptorType) && w->pTexelBufferView ? &w->pTexelBufferView[i] : NULL,
                  as && as->pAccelerationStructures && i < as->accelerationStructureCount
                      ? HANDLE(as->pAccelerationStructures[i])
                      : 0);
    }
}

void descriptor_copy_apply(struct set_state *from, struct set_state *to, const VkCopyDescriptorSet *c)
{
    for (uint32_t k = 0; k < c->descriptorCount; ++k) {
        struct descriptor_state *s = descriptor_at(from, c->srcBinding, (uint64_t)c->srcArrayElement + k);
        struct descriptor_state *d = descriptor_at(to, c->dstBinding, (uint64_t)c->dstArrayElement + k);
        if (s == NULL || d == NULL)
            break;
        *d = *s;
    }
}

/* Template data is raw memory: each entry says where its descriptors' infos start and the stride. */
void descriptor_template_apply(struct layer_device *ld, struct set_state *set, const struct update_template_state *t,
                               const void *data)
{
    for (uint32_t e = 0; data != NULL && e < t->entry_count; ++e) {
        const VkDescriptorUpdateTemplateEntry *entry = &t->entries[e];
        VkDescriptorType type = entry->descriptorType;
        if (type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) { /* bytes, not descriptors */
            struct descriptor_state *d = descriptor_at(set, entry->dstBinding, 0);
            if (d)
                d->written = true;
            continue;
        }
        for (uint32_t i = 0; i < entry->descriptorCount; ++i) {
            struct descriptor_state *d = descriptor_at(set, entry->dstBinding, (uint64_t)entry->dstArrayElement + i);
            if (d == NULL)
                break; /* past the set's last descriptor: its data is not read */
            /* unaligned is allowed: the infos are copied out rather than read in place */
            const char *at = (const char *)data + entry->offset + (size_t)i * entry->stride;
            VkDescriptorImageInfo image;
            VkDescriptorBufferInfo buffer;
            VkBufferView texel;
            uint64_t acceleration = 0;
            if (uses_image_info(type))
                memcpy(&image, at, sizeof(image));
            else if (uses_buffer_info(type))
                memcpy(&buffer, at, sizeof(buffer));
            else if (uses_texel_view(type))
                memcpy(&texel, at, sizeof(texel));
            else if (type == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR)
                memcpy(&acceleration, at, sizeof(acceleration));
            write_one(ld, d, type, uses_image_info(type) ? &image : NULL, uses_buffer_info(type) ? &buffer : NULL,
                      uses_texel_view(type) ? &texel : NULL, acceleration);
        }
    }
}
