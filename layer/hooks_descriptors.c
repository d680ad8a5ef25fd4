/* Descriptor set layouts, pools, sets and every way of writing them: vkUpdateDescriptorSets
 * (writes and copies), update templates, and push descriptors. A set keeps, per descriptor, what
 * resource it names, so a dispatch or draw can tell which memory it touches. */
#include <stdlib.h>
#include <string.h>

#include "array_grow.h"
#include "check_binding.h"
#include "check_hazard.h"
#include "check_lifetime.h"
#include "command_access.h"
#include "layer_hooks.h"
#include "layer_state.h"

static int by_binding_number(const void *a, const void *b)
{
    uint32_t x = ((const struct set_layout_binding *)a)->binding, y = ((const struct set_layout_binding *)b)->binding;
    return x < y ? -1 : x > y;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateDescriptorSetLayout(VkDevice device,
                                                                       const VkDescriptorSetLayoutCreateInfo *info,
                                                                       const VkAllocationCallbacks *allocator,
                                                                       VkDescriptorSetLayout *layout)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateDescriptorSetLayout(device, info, allocator, layout);
    if (result != VK_SUCCESS)
        return result;
    struct set_layout_state *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return result;
    s->refs = 1;
    s->flags = info->flags;
    s->binding_count = info->bindingCount;
    s->bindings = calloc(info->bindingCount ? info->bindingCount : 1, sizeof(*s->bindings));
    if (s->bindings == NULL) {
        free(s);
        return result;
    }
    const VkDescriptorSetLayoutBindingFlagsCreateInfo *flags = NULL;
    for (const VkBaseInStructure *n = info->pNext; n != NULL; n = n->pNext)
        if (n->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO)
            flags = (const VkDescriptorSetLayoutBindingFlagsCreateInfo *)n;
    for (uint32_t i = 0; i < info->bindingCount; ++i) {
        const VkDescriptorSetLayoutBinding *b = &info->pBindings[i];
        /* inline uniform blocks count bytes, not descriptors: one entry stands for the block */
        uint32_t count = b->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ? 1 : b->descriptorCount;
        VkDescriptorBindingFlags binding_flags =
            flags && i < flags->bindingCount && flags->pBindingFlags ? flags->pBindingFlags[i] : 0;
        s->bindings[i] =
            (struct set_layout_binding){b->binding, b->descriptorType, count, b->stageFlags, binding_flags, 0};
    }
    /* in binding-number order, the order dynamic offsets and consecutive-binding writes follow */
    qsort(s->bindings, info->bindingCount, sizeof(*s->bindings), by_binding_number);
    for (uint32_t i = 0; i < info->bindingCount; ++i) {
        s->bindings[i].first = s->descriptor_count;
        s->descriptor_count += s->bindings[i].count;
        if (s->bindings[i].type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
            s->bindings[i].type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)
            s->dynamic_count += s->bindings[i].count;
    }
    handle_map_put(&ld->set_layouts, HANDLE(*layout), s);
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyDescriptorSetLayout(VkDevice device, VkDescriptorSetLayout layout,
                                                                    const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    set_layout_release(handle_map_take(&ld->set_layouts, HANDLE(layout)));
    ld->dispatch.DestroyDescriptorSetLayout(device, layout, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateDescriptorPool(VkDevice device,
                                                                  const VkDescriptorPoolCreateInfo *info,
                                                                  const VkAllocationCallbacks *allocator,
                                                                  VkDescriptorPool *pool)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateDescriptorPool(device, info, allocator, pool);
    if (result == VK_SUCCESS) {
        struct descriptor_pool_state *p = calloc(1, sizeof(*p));
        if (p != NULL)
            handle_map_put(&ld->descriptor_pools, HANDLE(*pool), p);
    }
    return result;
}

/* Takes the state of `set` out of the device's map: the set epoch moves first, so that no
 * command buffer's memo (bound_set_memo) still names it once it is released. */
static void unmap_set(struct layer_device *ld, uint64_t set)
{
    struct set_state *s = handle_map_take(&ld->descriptor_sets, set);
    if (s == NULL)
        return;
    set_epoch_bump(ld);
    set_state_release(s);
}

static void forget_pool_sets(struct layer_device *ld, struct descriptor_pool_state *p)
{
    for (uint32_t i = 0; i < p->set_count; ++i) {
        unmap_set(ld, p->sets[i]);
        lifetime_set_freed(ld, p->sets[i]);
    }
    p->set_count = 0;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyDescriptorPool(VkDevice device, VkDescriptorPool pool,
                                                               const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    lifetime_check_descriptor_pool(ld, pool, true, "vkDestroyDescriptorPool");
    struct descriptor_pool_state *p = handle_map_take(&ld->descriptor_pools, HANDLE(pool));
    if (p != NULL) {
        forget_pool_sets(ld, p);
        free(p->sets);
        free(p);
    }
    ld->dispatch.DestroyDescriptorPool(device, pool, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkResetDescriptorPool(VkDevice device, VkDescriptorPool pool,
                                                                 VkDescriptorPoolResetFlags flags)
{
    struct layer_device *ld = layer_device_of(device);
    lifetime_check_descriptor_pool(ld, pool, false, "vkResetDescriptorPool");
    struct descriptor_pool_state *p = descriptor_pool_state_in(ld, HANDLE(pool));
    if (p != NULL)
        forget_pool_sets(ld, p);
    return ld->dispatch.ResetDescriptorPool(device, pool, flags);
}

static struct set_state *new_set(struct set_layout_state *layout, VkDescriptorSet handle, VkDescriptorPool pool)
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
    for (uint32_t b = 0; b < layout->binding_count; ++b)
        for (uint32_t i = 0; i < layout->bindings[b].count; ++i)
            s->descriptors[layout->bindings[b].first + i].type = layout->bindings[b].type;
    return s;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkAllocateDescriptorSets(VkDevice device,
                                                                    const VkDescriptorSetAllocateInfo *info,
                                                                    VkDescriptorSet *sets)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.AllocateDescriptorSets(device, info, sets);
    if (result != VK_SUCCESS)
        return result;
    struct descriptor_pool_state *pool = descriptor_pool_state_in(ld, HANDLE(info->descriptorPool));
    for (uint32_t i = 0; i < info->descriptorSetCount; ++i) {
        struct set_layout_state *layout = set_layout_state_in(ld, HANDLE(info->pSetLayouts[i]));
        struct set_state *s = layout ? new_set(layout, sets[i], info->descriptorPool) : NULL;
        if (s == NULL)
            continue;
        unmap_set(ld, HANDLE(sets[i])); /* a state the layer kept for a handle it missed the free of */
        handle_map_put(&ld->descriptor_sets, HANDLE(sets[i]), s);
        lifetime_set_allocated(ld, HANDLE(sets[i]));
        if (pool != NULL) {
            uint64_t *grown = array_grow(pool->sets, &pool->set_capacity, pool->set_count + 1, sizeof(*grown), 16);
            if (grown == NULL)
                continue;
            pool->sets = grown;
            pool->sets[pool->set_count++] = HANDLE(sets[i]);
        }
    }
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkFreeDescriptorSets(VkDevice device, VkDescriptorPool pool, uint32_t count,
                                                                const VkDescriptorSet *sets)
{
    struct layer_device *ld = layer_device_of(device);
    struct descriptor_pool_state *p = descriptor_pool_state_in(ld, HANDLE(pool));
    for (uint32_t i = 0; i < count; ++i) {
        const struct set_state *freed = descriptor_set_state_in(ld, HANDLE(sets[i]));
        if (freed != NULL)
            lifetime_check_destroy(ld, VK_OBJECT_TYPE_DESCRIPTOR_SET, HANDLE(sets[i]), freed->id,
                                   "vkFreeDescriptorSets");
        unmap_set(ld, HANDLE(sets[i]));
        if (sets[i] != VK_NULL_HANDLE)
            lifetime_set_freed(ld, HANDLE(sets[i]));
        for (uint32_t k = 0; p != NULL && k < p->set_count; ++k)
            if (p->sets[k] == HANDLE(sets[i])) {
                p->sets[k] = p->sets[--p->set_count];
                break;
            }
    }
    return ld->dispatch.FreeDescriptorSets(device, pool, count, sets);
}

/* The descriptor at (binding, element) of `set`, following the rule that a write past the end of
 * a binding continues into the next binding. NULL past the end of the set. */
static struct descriptor_state *descriptor_at(struct set_state *set, uint32_t binding, uint32_t element)
{
    const struct set_layout_state *l = set->layout;
    for (uint32_t b = 0; b < l->binding_count; ++b) {
        if (l->bindings[b].binding != binding)
            continue;
        uint32_t index = l->bindings[b].first + element;
        return index < l->descriptor_count ? &set->descriptors[index] : NULL;
    }
    return NULL;
}

/* Fills the descriptor's resolved fields (layer_state.h). */
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
        if (texel)
            d->resource = HANDLE(*texel);
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

static void apply_write(struct layer_device *ld, struct set_state *set, const VkWriteDescriptorSet *w)
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
    for (uint32_t i = 0; i < w->descriptorCount; ++i)
        write_one(ld, descriptor_at(set, w->dstBinding, w->dstArrayElement + i), w->descriptorType,
                  w->pImageInfo ? &w->pImageInfo[i] : NULL, w->pBufferInfo ? &w->pBufferInfo[i] : NULL,
                  w->pTexelBufferView ? &w->pTexelBufferView[i] : NULL,
                  as && i < as->accelerationStructureCount ? HANDLE(as->pAccelerationStructures[i]) : 0);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkUpdateDescriptorSets(VkDevice device, uint32_t write_count,
                                                              const VkWriteDescriptorSet *writes, uint32_t copy_count,
                                                              const VkCopyDescriptorSet *copies)
{
    struct layer_device *ld = layer_device_of(device);
    for (uint32_t i = 0; i < write_count; ++i) {
        const VkWriteDescriptorSet *w = &writes[i];
        struct set_state *set = descriptor_set_state_in(ld, HANDLE(w->dstSet));
        lifetime_check_update(ld, set, w->dstBinding, "vkUpdateDescriptorSets");
        if (set != NULL)
            apply_write(ld, set, w);
        /* only the array the type names is valid: the others may hold anything (the spec ignores them) */
        VkDescriptorType t = w->descriptorType;
        bool buffers = t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ||
                       t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC || t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
        bool images = t == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || t == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
                      t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER || t == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
        for (uint32_t k = 0; (buffers || images) && k < w->descriptorCount; ++k) {
            uint64_t resource = buffers && w->pBufferInfo ? HANDLE(w->pBufferInfo[k].buffer)
                                : images && w->pImageInfo ? HANDLE(w->pImageInfo[k].imageView)
                                                          : 0;
            if (resource != 0)
                check_binding_resource(ld, w->dstSet, w->descriptorType, resource, "vkUpdateDescriptorSets");
        }
    }
    for (uint32_t i = 0; i < copy_count; ++i) {
        const VkCopyDescriptorSet *c = &copies[i];
        struct set_state *from = descriptor_set_state_in(ld, HANDLE(c->srcSet));
        struct set_state *to = descriptor_set_state_in(ld, HANDLE(c->dstSet));
        lifetime_check_update(ld, to, c->dstBinding, "vkUpdateDescriptorSets");
        for (uint32_t k = 0; from && to && k < c->descriptorCount; ++k) {
            struct descriptor_state *s = descriptor_at(from, c->srcBinding, c->srcArrayElement + k);
            struct descriptor_state *d = descriptor_at(to, c->dstBinding, c->dstArrayElement + k);
            if (s && d)
                *d = *s;
        }
    }
    resource_epoch_bump(ld);
    ld->dispatch.UpdateDescriptorSets(device, write_count, writes, copy_count, copies);
}

static VkResult create_template(VkDevice device, const VkDescriptorUpdateTemplateCreateInfo *info,
                                VkDescriptorUpdateTemplate *handle, VkResult result)
{
    struct layer_device *ld = layer_device_of(device);
    if (result != VK_SUCCESS)
        return result;
    struct update_template_state *t = calloc(1, sizeof(*t));
    if (t == NULL)
        return result;
    t->type = info->templateType;
    t->entry_count = info->descriptorUpdateEntryCount;
    t->entries = calloc(t->entry_count ? t->entry_count : 1, sizeof(*t->entries));
    if (t->entries == NULL) {
        free(t);
        return result;
    }
    memcpy(t->entries, info->pDescriptorUpdateEntries, t->entry_count * sizeof(*t->entries));
    handle_map_put(&ld->update_templates, HANDLE(*handle), t);
    return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
hook_vkCreateDescriptorUpdateTemplate(VkDevice device, const VkDescriptorUpdateTemplateCreateInfo *info,
                                      const VkAllocationCallbacks *allocator, VkDescriptorUpdateTemplate *handle)
{
    struct layer_device *ld = layer_device_of(device);
    return create_template(device, info, handle,
                           ld->dispatch.CreateDescriptorUpdateTemplate(device, info, allocator, handle));
}

static void destroy_template(struct layer_device *ld, VkDescriptorUpdateTemplate handle)
{
    struct update_template_state *t = handle_map_take(&ld->update_templates, HANDLE(handle));
    if (t != NULL) {
        free(t->entries);
        free(t);
    }
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyDescriptorUpdateTemplate(VkDevice device,
                                                                         VkDescriptorUpdateTemplate handle,
                                                                         const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    destroy_template(ld, handle);
    ld->dispatch.DestroyDescriptorUpdateTemplate(device, handle, allocator);
}

/* Template data is raw memory: each entry says where its descriptors' infos start and the stride. */
static void apply_template(struct layer_device *ld, struct set_state *set, const struct update_template_state *t,
                           const void *data)
{
    for (uint32_t e = 0; data != NULL && e < t->entry_count; ++e) {
        const VkDescriptorUpdateTemplateEntry *entry = &t->entries[e];
        for (uint32_t i = 0; i < entry->descriptorCount; ++i) {
            const char *at = (const char *)data + entry->offset + (size_t)i * entry->stride;
            struct descriptor_state *d = descriptor_at(set, entry->dstBinding, entry->dstArrayElement + i);
            VkDescriptorType type = entry->descriptorType;
            write_one(ld, d, type, (const VkDescriptorImageInfo *)at, (const VkDescriptorBufferInfo *)at,
                      (const VkBufferView *)at,
                      type == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR ? *(const uint64_t *)at : 0);
        }
    }
}

static VKAPI_ATTR void VKAPI_CALL hook_vkUpdateDescriptorSetWithTemplate(VkDevice device, VkDescriptorSet set,
                                                                         VkDescriptorUpdateTemplate handle,
                                                                         const void *data)
{
    struct layer_device *ld = layer_device_of(device);
    struct set_state *s = descriptor_set_state_in(ld, HANDLE(set));
    struct update_template_state *t = update_template_state_in(ld, HANDLE(handle));
    for (uint32_t i = 0; s && t && i < t->entry_count; ++i)
        lifetime_check_update(ld, s, t->entries[i].dstBinding, "vkUpdateDescriptorSetWithTemplate");
    if (s && t)
        apply_template(ld, s, t, data);
    resource_epoch_bump(ld);
    ld->dispatch.UpdateDescriptorSetWithTemplate(device, set, handle, data);
}

/* A push descriptor set lives in the command buffer: a private set bound at `set`, replacing what
 * was bound there, with the layout the pipeline layout gives that set number. */
static struct set_state *push_set(struct command_buffer_state *cb, VkPipelineBindPoint bind_point,
                                  VkPipelineLayout layout_handle, uint32_t set)
{
    struct pipeline_layout_state *layout = pipeline_layout_state_in(cb->device, HANDLE(layout_handle));
    if (layout == NULL || set >= layout->set_count || set >= MAX_BOUND_SETS || layout->sets[set] == NULL)
        return NULL;
    struct bound_state *bound = bind_point == VK_PIPELINE_BIND_POINT_COMPUTE ? &cb->compute : &cb->graphics;
    struct set_state *s = new_set(layout->sets[set], VK_NULL_HANDLE, VK_NULL_HANDLE);
    if (s == NULL)
        return NULL;
    set_state_release(bound->sets[set]);
    bound->sets[set] = s;
    bound->set_mask |= 1u << set;
    bound_state_changed(bound);
    return s;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdPushDescriptorSetKHR(VkCommandBuffer command_buffer,
                                                                 VkPipelineBindPoint bind_point,
                                                                 VkPipelineLayout layout, uint32_t set,
                                                                 uint32_t write_count,
                                                                 const VkWriteDescriptorSet *writes)
{
    struct layer_device *ld = layer_device_of(command_buffer);
    struct command_buffer_state *cb = command_buffer_state_of(command_buffer);
    struct set_state *s = cb ? push_set(cb, bind_point, layout, set) : NULL;
    for (uint32_t i = 0; s && i < write_count; ++i)
        apply_write(ld, s, &writes[i]);
    if (cb)
        cb->command_index++;
    ld->dispatch.CmdPushDescriptorSetKHR(command_buffer, bind_point, layout, set, write_count, writes);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkCmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer command_buffer,
                                                                             VkDescriptorUpdateTemplate handle,
                                                                             VkPipelineLayout layout, uint32_t set,
                                                                             const void *data)
{
    struct layer_device *ld = layer_device_of(command_buffer);
    struct command_buffer_state *cb = command_buffer_state_of(command_buffer);
    struct update_template_state *t = update_template_state_in(ld, HANDLE(handle));
    /* A push template records its bind point at creation; compute is the case the checks need. */
    struct set_state *s = cb && t ? push_set(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, set) : NULL;
    if (s)
        apply_template(ld, s, t, data);
    if (cb)
        cb->command_index++;
    ld->dispatch.CmdPushDescriptorSetWithTemplateKHR(command_buffer, handle, layout, set, data);
}

const struct layer_hook descriptor_hooks[] = {
    LAYER_HOOK(vkCreateDescriptorSetLayout),
    LAYER_HOOK(vkDestroyDescriptorSetLayout),
    LAYER_HOOK(vkCreateDescriptorPool),
    LAYER_HOOK(vkDestroyDescriptorPool),
    LAYER_HOOK(vkResetDescriptorPool),
    LAYER_HOOK(vkAllocateDescriptorSets),
    LAYER_HOOK(vkFreeDescriptorSets),
    LAYER_HOOK(vkUpdateDescriptorSets),
    LAYER_HOOK(vkCreateDescriptorUpdateTemplate),
    LAYER_HOOK(vkDestroyDescriptorUpdateTemplate),
    LAYER_HOOK(vkUpdateDescriptorSetWithTemplate),
    LAYER_HOOK(vkCmdPushDescriptorSetKHR),
    LAYER_HOOK(vkCmdPushDescriptorSetWithTemplateKHR),
};
const size_t descriptor_hook_count = sizeof(descriptor_hooks) / sizeof(descriptor_hooks[0]);
