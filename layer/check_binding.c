#include "check_binding.h"

#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <string.h>

#include "findings.h"
#include "spirv_validate.h"
#include "state_command_buffers.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "state_pipelines.h"
#include "state_resources.h"

static const char *type_name(VkDescriptorType t)
{
    switch (t) {
    case VK_DESCRIPTOR_TYPE_SAMPLER:
        return "SAMPLER";
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
        return "COMBINED_IMAGE_SAMPLER";
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
        return "SAMPLED_IMAGE";
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        return "STORAGE_IMAGE";
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
        return "UNIFORM_TEXEL_BUFFER";
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
        return "STORAGE_TEXEL_BUFFER";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
        return "UNIFORM_BUFFER";
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
        return "STORAGE_BUFFER";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
        return "UNIFORM_BUFFER_DYNAMIC";
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
        return "STORAGE_BUFFER_DYNAMIC";
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
        return "INPUT_ATTACHMENT";
    case VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR:
        return "ACCELERATION_STRUCTURE_KHR";
    default:
        return "another type";
    }
}

/* What the shader declares, in words, and whether a descriptor type can provide it. */
static bool type_fits(const struct reflect_binding *rb, VkDescriptorType t, const char **declared)
{
    switch (rb->kind) {
    case REFLECT_BUFFER:
        *declared = rb->storage ? "a storage buffer" : "a uniform buffer";
        return rb->storage
                   ? (t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)
                   : (t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
                      t == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK);
    case REFLECT_IMAGE:
        if (rb->image_dim == SpvDimBuffer) {
            *declared = rb->storage ? "a storage texel buffer" : "a uniform texel buffer";
            return t ==
                   (rb->storage ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER);
        }
        if (rb->image_dim == SpvDimSubpassData) {
            *declared = "an input attachment";
            return t == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
        }
        *declared = rb->storage ? "a storage image" : "a sampled image";
        if (rb->storage)
            return t == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
        /* the spec's correspondence table lets a combined image sampler back a separate image */
        return t == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case REFLECT_SAMPLED_IMAGE:
        if (rb->image_dim == SpvDimBuffer) { /* GLSL's samplerBuffer: a buffer image with a sampler type */
            *declared = "a uniform texel buffer";
            return t == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        }
        *declared = "a combined image sampler";
        return t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case REFLECT_SAMPLER:
        *declared = "a sampler";
        return t == VK_DESCRIPTOR_TYPE_SAMPLER || t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    case REFLECT_ACCELERATION_STRUCTURE:
        *declared = "an acceleration structure";
        return t == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR;
    default:
        *declared = "something";
        return true;
    }
}

static void report(struct layer_device *ld, struct command_buffer_state *cb, enum check_id check, const char *call,
                   VkObjectType type, uint64_t handle, VkObjectType type2, uint64_t handle2, const char *message)
{
    struct finding f = {.check = check, .call = call, .command_buffer = cb, .object_count = 0};
    if (handle)
        f.objects[f.object_count++] = (struct finding_object){type, handle};
    if (handle2)
        f.objects[f.object_count++] = (struct finding_object){type2, handle2};
    snprintf(f.message, sizeof(f.message), "%s", message);
    finding_report(ld->instance, ld, &f);
}

/* Two layouts are compatible when identically defined. */
static bool layouts_compatible(const struct set_layout_state *a, const struct set_layout_state *b)
{
    if (a == b)
        return true;
    if (a == NULL || b == NULL || a->binding_count != b->binding_count)
        return false;
    for (uint32_t i = 0; i < a->binding_count; ++i) {
        const struct set_layout_binding *x = &a->bindings[i], *y = &b->bindings[i];
        if (x->binding != y->binding || x->type != y->type || x->count != y->count || x->stages != y->stages)
            return false;
    }
    return true;
}

void check_binding_command(struct layer_device *ld, struct command_buffer_state *cb, struct bound_state *b,
                           const char *call)
{
    const struct pipeline_state *p = b->pipeline;
    if (p == NULL || !p->reflected || bound_key_unchanged(&bound_memos_of(b)->binding_checked, b, ld))
        return; /* unchanged since the last command: same result, already reported */
    uint64_t cb_handle = HANDLE((uintptr_t)cb->handle);
    char message[600];
    /* per bound set: found clean for this pipeline before (its memo), looked at now, reported now */
    uint32_t clean = 0, looked = 0, reported = 0;
    uint64_t epoch = __atomic_load_n(&ld->resource_epoch, __ATOMIC_ACQUIRE);
    for (size_t i = 0; i < p->shader.binding_count; ++i) {
        const struct reflect_binding *rb = &p->shader.bindings[i];
        if (!(rb->read || rb->written))
            continue; /* declared but unused: it needs nothing bound */
        struct set_state *set = rb->set < MAX_BOUND_SETS ? b->sets[rb->set] : NULL;
        uint32_t bit = set != NULL ? 1u << rb->set : 0;
        if (bit && !(looked & bit)) {
            looked |= bit;
            struct set_memo_key key = {.pipeline_id = p->id, .epoch = epoch, .index = rb->set};
            if (set_memo_lock(set)) {
                if (set_memo_key_equal(&set->binding_clean, &key))
                    clean |= bit;
                set_memo_unlock(set);
            }
        }
        if (clean & bit)
            continue;
        const struct set_layout_state *expected =
            p->layout && rb->set < p->layout->set_count ? p->layout->sets[rb->set] : NULL;
        /* push descriptors and descriptor buffers do not go through vkCmdBindDescriptorSets */
        if (expected != NULL && (expected->flags & (VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR |
                                                    VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT)))
            continue;
        if (set == NULL && rb->set < MAX_BOUND_SETS && (b->stale_mask >> rb->set & 1))
            continue; /* a freed set was bound there: the lifetime check reported it */
        if (set == NULL) {
            snprintf(message, sizeof(message),
                     "the shader uses set %u binding %u, but no descriptor set is bound at set %u "
                     "(command %u)",
                     rb->set, rb->binding, rb->set, cb->command_index);
            reported |= bit;
            report(ld, cb, CHECK_BINDING_MISSING_SET, call, VK_OBJECT_TYPE_COMMAND_BUFFER, cb_handle,
                   VK_OBJECT_TYPE_PIPELINE, HANDLE(p->handle), message);
            continue;
        }
        if (expected != NULL && !layouts_compatible(set->layout, expected)) {
            snprintf(message, sizeof(message),
                     "the descriptor set bound at set %u has a layout that is not compatible "
                     "with the pipeline layout's set %u (command %u)",
                     rb->set, rb->set, cb->command_index);
            reported |= bit;
            report(ld, cb, CHECK_BINDING_MISSING_SET, call, VK_OBJECT_TYPE_COMMAND_BUFFER, cb_handle,
                   VK_OBJECT_TYPE_DESCRIPTOR_SET, HANDLE(set->handle), message);
            continue;
        }
        const struct set_layout_binding *lb = set_layout_binding_of(set, rb->binding);
        if (lb == NULL) {
            snprintf(message, sizeof(message),
                     "the shader uses set %u binding %u, which the bound set's layout does not "
                     "have (command %u)",
                     rb->set, rb->binding, cb->command_index);
            reported |= bit;
            report(ld, cb, CHECK_BINDING_MISSING_SET, call, VK_OBJECT_TYPE_COMMAND_BUFFER, cb_handle,
                   VK_OBJECT_TYPE_DESCRIPTOR_SET, HANDLE(set->handle), message);
            continue;
        }
        const char *declared = NULL;
        if (lb->type != VK_DESCRIPTOR_TYPE_MUTABLE_EXT && !type_fits(rb, lb->type, &declared)) {
            snprintf(message, sizeof(message),
                     "set %u binding %u is VK_DESCRIPTOR_TYPE_%s in the bound set, but the "
                     "shader declares %s there (command %u)",
                     rb->set, rb->binding, type_name(lb->type), declared, cb->command_index);
            reported |= bit;
            report(ld, cb, CHECK_BINDING_TYPE_MISMATCH, call, VK_OBJECT_TYPE_COMMAND_BUFFER, cb_handle,
                   VK_OBJECT_TYPE_DESCRIPTOR_SET, HANDLE(set->handle), message);
            continue;
        }
        if (lb->flags & (VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT | VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT))
            continue; /* bindless: elements may legally stay unwritten, or be written after this */
        for (uint32_t e = 0; e < lb->count && e < 64; ++e) {
            if (!(rb->constant_elements & (1ull << e)) || set->descriptors[lb->first + e].written)
                continue;
            snprintf(message, sizeof(message),
                     "the shader uses set %u binding %u%s, but that descriptor of the bound set "
                     "was never written (command %u)",
                     rb->set, rb->binding, lb->count > 1 ? " (an array element)" : "", cb->command_index);
            reported |= bit;
            report(ld, cb, CHECK_BINDING_UNWRITTEN, call, VK_OBJECT_TYPE_COMMAND_BUFFER, cb_handle,
                   VK_OBJECT_TYPE_DESCRIPTOR_SET, HANDLE(set->handle), message);
            break;
        }
    }
    /* sets that passed are memoized, so the next bound state with them skips them */
    for (uint32_t index = 0, pass = looked & ~clean & ~reported; pass != 0; ++index, pass >>= 1) {
        if (!(pass & 1) || !set_memo_lock(b->sets[index]))
            continue;
        b->sets[index]->binding_clean = (struct set_memo_key){.pipeline_id = p->id, .epoch = epoch, .index = index};
        set_memo_unlock(b->sets[index]);
    }
}

void check_binding_pipeline(struct layer_device *ld, const struct pipeline_state *p, VkShaderModule module,
                            const char *call)
{
    if (!p->reflected || p->layout == NULL)
        return;
    char message[600];
    for (size_t i = 0; i < p->shader.binding_count; ++i) {
        const struct reflect_binding *rb = &p->shader.bindings[i];
        if (!(rb->read || rb->written) || rb->set >= p->layout->set_count || p->layout->sets[rb->set] == NULL)
            continue;
        const struct set_layout_binding *lb = NULL;
        const struct set_layout_state *l = p->layout->sets[rb->set];
        for (uint32_t k = 0; k < l->binding_count; ++k)
            if (l->bindings[k].binding == rb->binding)
                lb = &l->bindings[k];
        const char *declared = NULL;
        if (lb == NULL || lb->type == VK_DESCRIPTOR_TYPE_MUTABLE_EXT || type_fits(rb, lb->type, &declared))
            continue;
        snprintf(message, sizeof(message),
                 "set %u binding %u is VK_DESCRIPTOR_TYPE_%s in the pipeline layout, but the "
                 "shader declares %s there",
                 rb->set, rb->binding, type_name(lb->type), declared);
        report(ld, NULL, CHECK_BINDING_TYPE_MISMATCH, call, VK_OBJECT_TYPE_SHADER_MODULE, HANDLE(module),
               VK_OBJECT_TYPE_PIPELINE, HANDLE(p->handle), message);
    }
}

void check_binding_resource(struct layer_device *ld, VkDescriptorSet set, VkDescriptorType type, uint64_t resource,
                            const char *call)
{
    char message[600];
    const char *needed = NULL;
    bool ok = true;
    uint64_t object = resource;
    VkObjectType object_type = VK_OBJECT_TYPE_BUFFER;
    switch (type) {
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC: {
        struct buffer_state *b = buffer_state_in(ld, resource);
        bool storage = type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
        needed = storage ? "VK_BUFFER_USAGE_STORAGE_BUFFER_BIT" : "VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT";
        ok = b == NULL ||
             (b->usage & (storage ? VK_BUFFER_USAGE_STORAGE_BUFFER_BIT : VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT));
        break;
    }
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
    case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT: {
        struct image_view_state *v = image_view_state_in(ld, resource);
        struct image_state *image = v ? image_state_in(ld, HANDLE(v->image)) : NULL;
        VkImageUsageFlags want = type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE      ? VK_IMAGE_USAGE_STORAGE_BIT
                                 : type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT ? VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT
                                                                               : VK_IMAGE_USAGE_SAMPLED_BIT;
        needed = want == VK_IMAGE_USAGE_STORAGE_BIT   ? "VK_IMAGE_USAGE_STORAGE_BIT"
                 : want == VK_IMAGE_USAGE_SAMPLED_BIT ? "VK_IMAGE_USAGE_SAMPLED_BIT"
                                                      : "VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT";
        ok = image == NULL || (image->usage & want);
        object = image ? HANDLE(image->handle) : 0;
        object_type = VK_OBJECT_TYPE_IMAGE;
        break;
    }
    default:
        return;
    }
    if (ok)
        return;
    snprintf(message, sizeof(message), "a %s was written into a VK_DESCRIPTOR_TYPE_%s descriptor without %s",
             object_type == VK_OBJECT_TYPE_IMAGE ? "view of an image" : "buffer", type_name(type), needed);
    report(ld, NULL, CHECK_BINDING_RESOURCE_USAGE, call, VK_OBJECT_TYPE_DESCRIPTOR_SET, HANDLE(set), object_type,
           object, message);
}

static const char *stage_name(VkShaderStageFlagBits stage)
{
    switch (stage) {
    case VK_SHADER_STAGE_VERTEX_BIT:
        return "VERTEX";
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT:
        return "TESSELLATION_CONTROL";
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT:
        return "TESSELLATION_EVALUATION";
    case VK_SHADER_STAGE_GEOMETRY_BIT:
        return "GEOMETRY";
    case VK_SHADER_STAGE_FRAGMENT_BIT:
        return "FRAGMENT";
    case VK_SHADER_STAGE_COMPUTE_BIT:
        return "COMPUTE";
    case VK_SHADER_STAGE_TASK_BIT_EXT:
        return "TASK";
    case VK_SHADER_STAGE_MESH_BIT_EXT:
        return "MESH";
    default:
        return "another stage";
    }
}

void check_binding_unreflected(struct layer_device *ld, VkShaderModule module, const char *entry,
                               VkShaderStageFlagBits stage, const struct reflect_result *r, const char *call)
{
    if (!r->invalid)
        return;
    char message[1024], object[200];
    finding_object_text(ld, VK_OBJECT_TYPE_SHADER_MODULE, HANDLE(module), object, sizeof(object));
    snprintf(message, sizeof(message),
             "%s, entry point \"%.64s\" (stage %s) cannot be reflected: %s (at word %u). The layer does not "
             "guess what this shader touches: hazard, alias, binding and workgroup checks are off for the pipeline, "
             "and what its dispatches may write counts as written. Check the module with spirv-val.",
             module ? object : "the inline shader code", entry ? entry : "main", stage_name(stage), r->error,
             r->error_at);
    report(ld, NULL, CHECK_BINDING_INVALID_SPIRV, call, VK_OBJECT_TYPE_SHADER_MODULE, HANDLE(module),
           VK_OBJECT_TYPE_UNKNOWN, 0, message);
}

void check_binding_module(struct layer_device *ld, VkShaderModule module, const uint32_t *code, size_t size,
                          const char *call)
{
    char why[400], object[200], message[1024];
    uint32_t at;
    if (spirv_validate(code, size, ld->properties.apiVersion, why, sizeof(why), &at))
        return;
    snprintf(message, sizeof(message),
             "%s is not valid SPIR-V for Vulkan %u.%u: %s (at word %u). Pipelines made from it may fail or misbehave "
             "on some drivers; the layer's reflection still runs on it.",
             finding_object_text(ld, VK_OBJECT_TYPE_SHADER_MODULE, HANDLE(module), object, sizeof(object)),
             VK_API_VERSION_MAJOR(ld->properties.apiVersion), VK_API_VERSION_MINOR(ld->properties.apiVersion), why, at);
    report(ld, NULL, CHECK_BINDING_INVALID_SPIRV, call, VK_OBJECT_TYPE_SHADER_MODULE, HANDLE(module),
           VK_OBJECT_TYPE_UNKNOWN, 0, message);
}
