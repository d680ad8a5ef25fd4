/* The SPIR-V reflection's entry point: reflect_module runs its steps in order and gathers the
 * result. Each step has a file, each using only the files listed before it:
 *   spirv_reflect_module.c     the records per id and per instruction; bounded walks
 *                              (spirv_reflect_result.h: the types of the result)
 *   spirv_reflect_parse.c      reading the words (SPIRV-Tools), modules newer than it
 *   spirv_reflect_constants.c  values the module fixes, and what function variables hold
 *   spirv_reflect_control_flow.c  reachable functions, parameters, live blocks
 *   spirv_reflect_accesses.c   which variables are read and written
 *   spirv_reflect_bounds.c     invocation IDs, push constants and the work bound
 *   spirv_reflect_sites.c      where buffer accesses land, and whether they are certain */
#include "spirv_reflect.h"

#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_reflect_accesses.h"
#include "spirv_reflect_bounds.h"
#include "spirv_reflect_constants.h"
#include "spirv_reflect_control_flow.h"
#include "spirv_reflect_loops.h"
#include "spirv_reflect_module.h"
#include "spirv_reflect_parse.h"
#include "spirv_reflect_sites.h"

/* Steps the id-following walks may take: far more than any compiler's module needs (a walk is
 * linear in the module for them), bounded for a hostile one. */
#define REFLECT_FUEL_BASE 1000000u
#define REFLECT_FUEL_PER_WORD 64u

/* The VkPipelineStageFlagBits2 of an execution model. */
static uint64_t stage_of(uint32_t model)
{
    switch (model) {
    case SpvExecutionModelVertex:
        return 0x8ull;
    case SpvExecutionModelTessellationControl:
        return 0x10ull;
    case SpvExecutionModelTessellationEvaluation:
        return 0x20ull;
    case SpvExecutionModelGeometry:
        return 0x40ull;
    case SpvExecutionModelFragment:
        return 0x80ull;
    case SpvExecutionModelGLCompute:
        return 0x800ull;
    case SpvExecutionModelTaskNV:
    case SpvExecutionModelTaskEXT:
        return 0x80000ull;
    case SpvExecutionModelMeshNV:
    case SpvExecutionModelMeshEXT:
        return 0x100000ull;
    default:
        return 0x200000ull; /* the ray tracing models: RAY_TRACING_SHADER */
    }
}

static void collect_bindings(struct parse_state *s, struct reflect_result *out)
{
    size_t count = 0;
    for (uint32_t i = 1; i < s->bound; ++i)
        count += s->ids[i].opcode == SpvOpVariable && s->ids[i].has_binding;
    out->bindings = calloc(count ? count : 1, sizeof(*out->bindings));
    if (out->bindings == NULL)
        return;
    out->sites = calloc(s->site_count ? s->site_count : 1, sizeof(*out->sites));
    for (uint32_t i = 1; i < s->bound; ++i) {
        struct id_info *v = &s->ids[i];
        if (v->opcode != SpvOpVariable || !v->has_binding)
            continue;
        struct reflect_binding *b = &out->bindings[out->binding_count++];
        b->set = v->set;
        b->binding = v->binding;
        b->read = v->read;
        b->written = v->written;
        b->array_size = 1;
        uint32_t type = id(s, v->type)->type; /* the pointee */
        struct id_info *t = id(s, type);
        if (t->opcode == SpvOpTypeArray) {
            b->array_size = (uint32_t)id(s, t->count)->value;
            t = id(s, t->type);
        } else if (t->opcode == SpvOpTypeRuntimeArray) {
            b->array_size = 0;
            t = id(s, t->type);
        }
        b->non_writable =
            v->non_writable || (t->opcode == SpvOpTypeStruct && t->count > 0 && t->member_non_writable >= t->count);
        b->non_readable = v->non_readable;
        b->constant_elements = v->constant_elements;
        b->dynamic_index = v->dynamic_index;
        b->used_stages = (b->read || b->written) ? stage_of(s->execution_model) : 0;
        /* the binding's sites, grouped (a stable pass over all of them per binding) */
        b->sites_at = (uint32_t)out->site_count;
        for (size_t k = 0; out->sites != NULL && k < s->site_count; ++k)
            if (s->sites[k].variable == i)
                out->sites[out->site_count++] = s->sites[k].site;
        b->site_count = (uint32_t)out->site_count - b->sites_at;
        b->sites_complete =
            out->sites != NULL && !v->sites_incomplete && s->execution_model == SpvExecutionModelGLCompute;
        if (b->array_size == 1 && (b->read || b->written))
            b->constant_elements = 1; /* a single descriptor: element 0 */
        switch (t->opcode) {
        case SpvOpTypeStruct:
            b->kind = REFLECT_BUFFER;
            b->storage = v->storage_class == SpvStorageClassStorageBuffer || t->buffer_block;
            break;
        case SpvOpTypeImage:
            b->kind = REFLECT_IMAGE;
            b->storage = t->image_sampled == 2;
            b->image_dim = t->image_dim;
            break;
        case SpvOpTypeSampler:
            b->kind = REFLECT_SAMPLER;
            break;
        case SpvOpTypeSampledImage:
            b->kind = REFLECT_SAMPLED_IMAGE;
            b->image_dim = id(s, t->type)->image_dim;
            break;
        case SpvOpTypeAccelerationStructureKHR:
            b->kind = REFLECT_ACCELERATION_STRUCTURE;
            break;
        default:
            b->kind = REFLECT_OTHER;
            break;
        }
    }
}

void reflect_module(const uint32_t *code, size_t size_bytes, const char *entry,
                    const struct reflect_specialization *spec, size_t spec_count, struct reflect_result *out)
{
    memset(out, 0, sizeof(*out));
    struct parse_state s = {.entry_name = entry ? entry : "main",
                            .spec = spec,
                            .spec_count = spec_count,
                            .module_words = size_bytes / 4,
                            .fuel = REFLECT_FUEL_BASE + (uint64_t)REFLECT_FUEL_PER_WORD * (size_bytes / 4)};
    if (code == NULL || size_bytes < 20 || size_bytes % 4 != 0) {
        out->invalid = true;
        snprintf(out->error, sizeof(out->error), "not a SPIR-V module (%zu bytes: at least 20, a multiple of 4)",
                 code == NULL ? (size_t)0 : size_bytes);
        return;
    }
    uint32_t unknown_count = 0;
    struct unknown_instruction unknown[REFLECT_MAX_UNKNOWN_INSTRUCTIONS];
    if (!parse_module(&s, code, size_bytes / 4, unknown, &unknown_count, out->error, sizeof(out->error),
                      &out->error_at)) {
        out->invalid = true;
        if (s.gave_up) {
            out->error_at = s.gave_up_at;
            snprintf(out->error, sizeof(out->error), "%s", s.why);
        }
    } else if (s.entry_function == 0) {
        snprintf(out->error, sizeof(out->error), "no entry point named '%.64s'", s.entry_name);
    } else {
        bool *reachable = calloc(s.bound, sizeof(bool));
        if (reachable != NULL && find_reachable(&s, reachable) && bind_parameters(&s, reachable) &&
            (note_blocks(&s), find_live_blocks(&s, reachable))) {
            note_stored_constants(&s);
            replay_bodies(&s, reachable, true);
            note_stored_values(&s);
            replay_bodies(&s, reachable, false);
            mark_unknown_instructions(&s, code, unknown, unknown_count);
            out->ok = true;
            out->execution_model = s.execution_model;
            /* WorkgroupSize built-in beats LocalSizeId, which beats LocalSize */
            for (uint32_t i = 1; i < s.bound; ++i) {
                struct id_info *c = &s.ids[i];
                if (c->builtin_workgroup_size && c->count == 3 &&
                    (c->opcode == SpvOpConstantComposite || c->opcode == SpvOpSpecConstantComposite)) {
                    out->has_local_size = true;
                    for (int k = 0; k < 3; ++k)
                        out->local_size[k] = (uint32_t)id(&s, s.members[c->members_at + k])->value;
                }
            }
            if (!out->has_local_size && s.has_local_size) {
                out->has_local_size = true;
                for (int k = 0; k < 3; ++k)
                    out->local_size[k] =
                        s.local_size_is_id ? (uint32_t)id(&s, s.local_size_ids[k])->value : s.local_size[k];
            }
            for (uint32_t i = 1; i < s.bound; ++i) {
                struct id_info *v = &s.ids[i];
                if (v->opcode == SpvOpVariable && v->storage_class == SpvStorageClassWorkgroup && v->used)
                    out->workgroup_memory += type_size(&s, id(&s, v->type)->type, 0);
            }
            if (s.execution_model == SpvExecutionModelGLCompute) {
                find_loop_counters(&s);
                find_invocation_bounds(&s, reachable, out);
                find_sites(&s, reachable, out);
            }
            collect_bindings(&s, out);
            out->exprs = s.exprs; /* handed over */
            out->expr_count = s.expr_count;
            s.exprs = NULL;
            if (s.gave_up) { /* a walk ran out of steps: what it found is incomplete */
                reflect_free(out);
                out->invalid = true;
                out->error_at = s.gave_up_at;
                snprintf(out->error, sizeof(out->error), "%s", s.why);
            }
        }
        free(reachable);
    }
    free(s.ids);
    free(s.members);
    free(s.words);
    free(s.body);
    free(s.offsets);
    free(s.edges);
    free(s.sites);
    free(s.exprs);
    free(s.stack);
    free(s.loop_counters);
}

void reflect_free(struct reflect_result *r)
{
    free(r->bindings);
    free(r->sites);
    free(r->exprs);
    memset(r, 0, sizeof(*r));
}

bool reflect_merge(struct reflect_result *into, const struct reflect_result *from)
{
    for (size_t i = 0; i < from->binding_count; ++i) {
        const struct reflect_binding *b = &from->bindings[i];
        struct reflect_binding *same = NULL;
        for (size_t k = 0; k < into->binding_count && same == NULL; ++k)
            if (into->bindings[k].set == b->set && into->bindings[k].binding == b->binding)
                same = &into->bindings[k];
        if (same != NULL) {
            same->sites_complete = false; /* sites are one stage's: not kept for merged stages */
            same->site_count = 0;
            same->read |= b->read;
            same->written |= b->written;
            same->constant_elements |= b->constant_elements;
            same->dynamic_index |= b->dynamic_index;
            same->used_stages |= b->used_stages;
            continue;
        }
        struct reflect_binding *grown = realloc(into->bindings, (into->binding_count + 1) * sizeof(*grown));
        if (grown == NULL)
            return false;
        into->bindings = grown;
        into->bindings[into->binding_count] = *b;
        into->bindings[into->binding_count].sites_complete = false;
        into->bindings[into->binding_count++].site_count = 0;
    }
    return true;
}
