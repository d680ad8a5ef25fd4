/* Descriptor set layouts, pools, sets and every way of writing them: vkUpdateDescriptorSets
 * (writes and copies), update templates, and push descriptors. A set keeps, per descriptor, what
 * resource it names, so a dispatch or draw can tell which memory it touches. */
#include <stdlib.h>
#include <string.h>

#include "array_grow.h"
#include "descriptor_writes.h"
#include "layer_hooks.h"
#include "state_command_buffers.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "state_pipelines.h"
#include "validate.h"
#include "state_objects.h"

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateDescriptorSetLayout(VkDevice device,
                                                                       const VkDescriptorSetLayoutCreateInfo *info,
                                                                       const VkAllocationCallbacks *allocator,
                                                                       VkDescriptorSetLayout *layout)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateDescriptorSetLayout(device, info, allocator, layout);
    if (result != VK_SUCCESS)
        return result;
    struct set_layout_state *s = descriptor_set_layout_create(info);
    if (s == NULL)
        return result; /* out of memory, or more descriptors than the layer tracks: its sets go unchecked */
    hook_object_created(ld, OBJECT_KIND_set_layout, HANDLE(*layout), s);
    return result;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyDescriptorSetLayout(VkDevice device, VkDescriptorSetLayout layout,
                                                                    const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_set_layout, HANDLE(layout), "vkDestroyDescriptorSetLayout");
    ld->dispatch.DestroyDescriptorSetLayout(device, layout, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkCreateDescriptorPool(VkDevice device,
                                                                  const VkDescriptorPoolCreateInfo *info,
                                                                  const VkAllocationCallbacks *allocator,
                                                                  VkDescriptorPool *pool)
{
    struct layer_device *ld = layer_device_of(device);
    VkResult result = ld->dispatch.CreateDescriptorPool(device, info, allocator, pool);
    if (result == VK_SUCCESS)
        hook_object_created(ld, OBJECT_KIND_descriptor_pool, HANDLE(*pool),
                            calloc(1, sizeof(struct descriptor_pool_state)));
    return result;
}

/* Takes the state of `set` out of the device's map: the set epoch moves first, so that no
 * command buffer's memo (bound_set_memo) still names it once it is released. */
static void unmap_set(struct layer_device *ld, uint64_t set)
{
    struct set_state *s = descriptor_set_state_take(ld, set);
    if (s == NULL)
        return;
    set_epoch_bump(ld);
    set_state_release(s);
}

static void forget_pool_sets(struct layer_device *ld, struct descriptor_pool_state *p)
{
    for (uint32_t i = 0; i < p->set_count; ++i) {
        unmap_set(ld, p->sets[i]);
        validate_set_freed(ld, p->sets[i]);
    }
    p->set_count = 0;
}

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyDescriptorPool(VkDevice device, VkDescriptorPool pool,
                                                               const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    validate_destroy(ld, VK_OBJECT_TYPE_DESCRIPTOR_POOL, HANDLE(pool), NULL, "vkDestroyDescriptorPool");
    struct descriptor_pool_state *p = descriptor_pool_state_take(ld, HANDLE(pool));
    if (p != NULL)
        forget_pool_sets(ld, p);
    layer_object_release(OBJECT_KIND_descriptor_pool, p);
    ld->dispatch.DestroyDescriptorPool(device, pool, allocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL hook_vkResetDescriptorPool(VkDevice device, VkDescriptorPool pool,
                                                                 VkDescriptorPoolResetFlags flags)
{
    struct layer_device *ld = layer_device_of(device);
    validate_reset(ld, VK_OBJECT_TYPE_DESCRIPTOR_POOL, HANDLE(pool), "vkResetDescriptorPool");
    struct descriptor_pool_state *p = descriptor_pool_state_in(ld, HANDLE(pool));
    if (p != NULL)
        forget_pool_sets(ld, p);
    return ld->dispatch.ResetDescriptorPool(device, pool, flags);
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
        struct set_state *s = layout ? descriptor_set_create(layout, sets[i], info->descriptorPool) : NULL;
        unmap_set(ld, HANDLE(sets[i]));              /* a state the layer kept for a handle it missed the free of */
        validate_set_allocated(ld, HANDLE(sets[i])); /* valid again, tracked or not */
        if (s == NULL)
            continue; /* a layout the layer does not track: the set is not checked */
        hook_object_created(ld, OBJECT_KIND_descriptor_set, HANDLE(sets[i]), s);
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
        if (sets[i] != VK_NULL_HANDLE)
            validate_destroy(ld, VK_OBJECT_TYPE_DESCRIPTOR_SET, HANDLE(sets[i]), freed, "vkFreeDescriptorSets");
        unmap_set(ld, HANDLE(sets[i]));
        for (uint32_t k = 0; p != NULL && k < p->set_count; ++k)
            if (p->sets[k] == HANDLE(sets[i])) {
                p->sets[k] = p->sets[--p->set_count];
                break;
            }
    }
    return ld->dispatch.FreeDescriptorSets(device, pool, count, sets);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkUpdateDescriptorSets(VkDevice device, uint32_t write_count,
                                                              const VkWriteDescriptorSet *writes, uint32_t copy_count,
                                                              const VkCopyDescriptorSet *copies)
{
    struct layer_device *ld = layer_device_of(device);
    for (uint32_t i = 0; i < write_count; ++i) {
        const VkWriteDescriptorSet *w = &writes[i];
        struct set_state *set = descriptor_set_state_in(ld, HANDLE(w->dstSet));
        validate_write(ld, set, w, "vkUpdateDescriptorSets");
        if (set != NULL)
            descriptor_write_apply(ld, set, w);
    }
    for (uint32_t i = 0; i < copy_count; ++i) {
        const VkCopyDescriptorSet *c = &copies[i];
        struct set_state *from = descriptor_set_state_in(ld, HANDLE(c->srcSet));
        struct set_state *to = descriptor_set_state_in(ld, HANDLE(c->dstSet));
        validate_update(ld, to, c->dstBinding, "vkUpdateDescriptorSets");
        if (from && to)
            descriptor_copy_apply(from, to, c);
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
    t->bind_point = info->pipelineBindPoint; /* push descriptor templates name it; ignored otherwise */
    t->entry_count = info->pDescriptorUpdateEntries ? info->descriptorUpdateEntryCount : 0;
    t->entries = calloc(t->entry_count ? t->entry_count : 1, sizeof(*t->entries));
    if (t->entries == NULL) {
        free(t);
        return result;
    }
    if (t->entry_count)
        memcpy(t->entries, info->pDescriptorUpdateEntries, t->entry_count * sizeof(*t->entries));
    hook_object_created(ld, OBJECT_KIND_update_template, HANDLE(*handle), t);
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

static VKAPI_ATTR void VKAPI_CALL hook_vkDestroyDescriptorUpdateTemplate(VkDevice device,
                                                                         VkDescriptorUpdateTemplate handle,
                                                                         const VkAllocationCallbacks *allocator)
{
    struct layer_device *ld = layer_device_of(device);
    hook_object_destroyed(ld, OBJECT_KIND_update_template, HANDLE(handle), "vkDestroyDescriptorUpdateTemplate");
    ld->dispatch.DestroyDescriptorUpdateTemplate(device, handle, allocator);
}

static VKAPI_ATTR void VKAPI_CALL hook_vkUpdateDescriptorSetWithTemplate(VkDevice device, VkDescriptorSet set,
                                                                         VkDescriptorUpdateTemplate handle,
                                                                         const void *data)
{
    struct layer_device *ld = layer_device_of(device);
    struct set_state *s = descriptor_set_state_in(ld, HANDLE(set));
    struct update_template_state *t = update_template_state_in(ld, HANDLE(handle));
    for (uint32_t i = 0; s && t && i < t->entry_count; ++i)
        validate_update(ld, s, t->entries[i].dstBinding, "vkUpdateDescriptorSetWithTemplate");
    if (s && t)
        descriptor_template_apply(ld, s, t, data);
    resource_epoch_bump(ld);
    ld->dispatch.UpdateDescriptorSetWithTemplate(device, set, handle, data);
}

/* A push descriptor set lives in the command buffer: a private set bound at `set`, replacing what
 * was bound there, with the layout the pipeline layout gives that set number. */
static struct set_state *push_set(struct command_buffer_state *cb, VkPipelineBindPoint bind_point,
                                  VkPipelineLayout layout_handle, uint32_t set)
{
    struct pipeline_layout_state *layout = pipeline_layout_state_in(cb->device, HANDLE(layout_handle));
    if (layout == NULL || set >= layout->set_count || set >= MAX_BOUND_SETS || layout->sets[set] == NULL ||
        (bind_point != VK_PIPELINE_BIND_POINT_COMPUTE && bind_point != VK_PIPELINE_BIND_POINT_GRAPHICS))
        return NULL; /* ray tracing's bound state is not tracked */
    struct bound_state *bound = bind_point == VK_PIPELINE_BIND_POINT_COMPUTE ? &cb->compute : &cb->graphics;
    struct set_state *s = descriptor_set_create(layout->sets[set], VK_NULL_HANDLE, VK_NULL_HANDLE);
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
        descriptor_write_apply(ld, s, &writes[i]);
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
    /* a push template names its bind point at creation */
    struct set_state *s = cb && t ? push_set(cb, t->bind_point, layout, set) : NULL;
    if (s)
        descriptor_template_apply(ld, s, t, data);
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
