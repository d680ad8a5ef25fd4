/* Area `alias`: within one dispatch or draw the GPU runs all invocations unordered, so memory one
 * binding writes must not be read or written through another binding of the same command.
 *
 * The command's accesses come from command_access.h (descriptors, fixed-function reads,
 * attachments); this area judges their pairs. Buffers meet by the device-memory range behind
 * them, so two buffers that alias one VkDeviceMemory collide; images by subresource. A descriptor
 * array element the shader reaches through a run-time index takes no part in pairs: which element
 * meets which cannot be known without running the shader, and a guess would be a false finding. */
#include "check_alias.h"

#include <stdio.h>
#include <string.h>

#include "findings.h"
#include "state_command_buffers.h"
#include "state_device.h"

/* Exactly the same memory through two bindings: buffers, or storage images both (a sampled read
 * goes through the texture path and filters across neighbours: that stays an alias). */
static bool same_range(const struct command_access *x, const struct command_access *y)
{
    if (x->image && (x->type != VK_DESCRIPTOR_TYPE_STORAGE_IMAGE || y->type != VK_DESCRIPTOR_TYPE_STORAGE_IMAGE))
        return false;
    return x->image == y->image && x->key == y->key && x->begin == y->begin && x->end == y->end &&
           (!x->image || (x->layer_begin == y->layer_begin && x->layer_end == y->layer_end));
}

static bool same_descriptor(const struct command_access *x, const struct command_access *y)
{
    return strcmp(x->what, "binding") == 0 && strcmp(y->what, "binding") == 0 && x->set == y->set &&
           x->binding == y->binding && x->element == y->element;
}

static void describe(struct layer_device *ld, const struct command_access *a, char *out, size_t size)
{
    char where[64], resource[128];
    finding_object_text(ld, a->image ? VK_OBJECT_TYPE_IMAGE : VK_OBJECT_TYPE_BUFFER, a->resource, resource,
                        sizeof(resource));
    const char *verb = a->read_or_write ? "reads or writes" : a->write ? "writes" : "reads";
    if (strcmp(a->what, "binding") == 0 && a->array)
        snprintf(where, sizeof(where), "set %u binding %u [element %u]", a->set, a->binding, a->element);
    else if (strcmp(a->what, "binding") == 0)
        snprintf(where, sizeof(where), "set %u binding %u", a->set, a->binding);
    else
        snprintf(where, sizeof(where), "the %s", a->what);
    if (a->image)
        snprintf(out, size, "%s %s %s (mips %llu..%llu, layers %u..%u)", where, verb, resource,
                 (unsigned long long)a->begin, (unsigned long long)a->end - 1, a->layer_begin, a->layer_end - 1);
    else
        snprintf(out, size, "%s %s %s (memory bytes [%llu, %llu))", where, verb, resource, (unsigned long long)a->begin,
                 (unsigned long long)a->end);
}

/* `proof`: how two invocations meet (a proven buffer pair), or NULL. */
static void report_pair(struct layer_device *ld, struct command_buffer_state *cb, enum check_id check, const char *call,
                        const struct command_access *x, const struct command_access *y, const char *proof)
{
    struct finding f = {.check = check, .call = call, .command_buffer = cb};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_COMMAND_BUFFER, HANDLE((uintptr_t)cb->handle)};
    VkObjectType type = x->image ? VK_OBJECT_TYPE_IMAGE : VK_OBJECT_TYPE_BUFFER;
    f.objects[f.object_count++] = (struct finding_object){type, x->resource};
    if (y->resource != x->resource)
        f.objects[f.object_count++] = (struct finding_object){type, y->resource};
    char first[320], second[320];
    describe(ld, x, first, sizeof(first));
    describe(ld, y, second, sizeof(second));
    const char *two_buffers =
        !x->image && x->resource != y->resource ? " (two buffers on the same VkDeviceMemory)" : "";
    if (check == CHECK_ALIAS_BUFFER_UNPROVEN)
        snprintf(f.message, sizeof(f.message),
                 "%s, and %s, in the same %s (command %u)%s: the ranges overlap, but whether the shader's accesses "
                 "meet depends on values the layer cannot evaluate; if they do, the result depends on scheduling",
                 first, second, call, cb->command_index, two_buffers);
    else
        snprintf(f.message, sizeof(f.message),
                 "%s, and %s, in the same %s (command %u)%s: %s%sits invocations run in no order, so the result "
                 "depends on scheduling",
                 first, second, call, cb->command_index, two_buffers, proof ? proof : "", proof ? "; " : "");
    finding_report(ld->instance, ld, &f);
}

/* The reflection's binding behind a descriptor access (NULL when the shader has none such). */
static const struct reflect_binding *reflected_binding(const struct bound_state *b, const struct command_access *a)
{
    const struct reflect_result *r = b->pipeline ? &b->pipeline->shader : NULL;
    for (size_t i = 0; r != NULL && i < r->binding_count; ++i)
        if (r->bindings[i].set == a->set && r->bindings[i].binding == a->binding)
            return &r->bindings[i];
    return NULL;
}

/* Two buffer bindings whose descriptor ranges overlap, one writing: reported as an ERROR only when
 * two invocations are shown to meet (the witness is named), as advice when the layer cannot tell,
 * not at all when the dispatch's values keep them apart. */
static void judge_buffer_pair(struct layer_device *ld, struct command_buffer_state *cb, const struct bound_state *b,
                              const struct command_access *writer, const struct command_access *other,
                              const struct dispatch_shape *dispatch, const char *call)
{
    const struct reflect_binding *wb = reflected_binding(b, writer), *ob = reflected_binding(b, other);
    struct alias_witness witness;
    enum alias_proof proof = ALIAS_UNPROVEN;
    if (wb != NULL && ob != NULL) {
        struct alias_side w = {wb, writer->element, writer->begin, writer->end};
        struct alias_side o = {ob, other->element, other->begin, other->end};
        proof = alias_witness_find(&b->pipeline->shader, &w, &o, dispatch, &witness);
    }
    if (proof == ALIAS_DISJOINT)
        return;
    if (proof == ALIAS_UNPROVEN) {
        if (finding_enabled(ld->instance, CHECK_ALIAS_BUFFER_UNPROVEN))
            report_pair(ld, cb, CHECK_ALIAS_BUFFER_UNPROVEN, call, writer, other, NULL);
        return;
    }
    char proof_text[300];
    snprintf(proof_text, sizeof(proof_text),
             "invocation (%u,%u,%u) writes memory byte %llu through set %u binding %u, which invocation (%u,%u,%u) %s "
             "through set %u binding %u",
             witness.writer[0], witness.writer[1], witness.writer[2], (unsigned long long)witness.byte, writer->set,
             writer->binding, witness.other[0], witness.other[1], witness.other[2],
             witness.other_writes ? "writes" : "reads", other->set, other->binding);
    report_pair(ld, cb, CHECK_ALIAS_BUFFER, call, writer, other, proof_text);
}

static bool feedback_loop_allowed(const struct bound_state *b, const struct command_access *descriptor)
{
    return descriptor->type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT || (b->pipeline && b->pipeline->feedback_loop) ||
           descriptor->layout == VK_IMAGE_LAYOUT_ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT;
}

bool check_alias_command(struct layer_device *ld, struct command_buffer_state *cb, const struct bound_state *b,
                         const struct command_accesses *acc, const struct dispatch_shape *dispatch, const char *call)
{
    bool met = false; /* a pair met (reported, or allowed as a feedback loop) */
    for (uint32_t i = 0; i < acc->count; ++i) {
        for (uint32_t j = i + 1; j < acc->count; ++j) {
            const struct command_access *x = &acc->a[i], *y = &acc->a[j];
            bool x_descriptor = i < acc->descriptors, y_descriptor = j < acc->descriptors;
            /* an element reached through a run-time index may not be the one that overlaps: no guess */
            if ((x_descriptor && y_descriptor && acc->descriptor_pairs_checked) || !(x->write || y->write) ||
                !command_accesses_overlap(x, y) || same_descriptor(x, y) || x->runtime_element || y->runtime_element)
                continue;
            if (x_descriptor && y_descriptor) {
                /* exactly the same memory through two bindings is how in-place algorithms (FFTs,
                 * filters) run, each invocation reading and writing its own elements: advice only.
                 * Ranges that overlap at different offsets let one invocation's write land on what
                 * another reads: an error. */
                if (same_range(x, y))
                    report_pair(ld, cb, CHECK_ALIAS_IN_PLACE, call, x->write ? x : y, x->write ? y : x, NULL);
                else if (x->image)
                    report_pair(ld, cb, CHECK_ALIAS_IMAGE, call, x->write ? x : y, x->write ? y : x, NULL);
                else
                    judge_buffer_pair(ld, cb, b, x->write ? x : y, x->write ? y : x, dispatch, call);
            } else if (x_descriptor && j < acc->fixed_end) {
                if (x->write) /* fixed-function units only read */
                    report_pair(ld, cb, CHECK_ALIAS_VERTEX_INDEX_INDIRECT, call, x, y, NULL);
            } else if (x_descriptor && j >= acc->fixed_end) {
                if (!feedback_loop_allowed(b, x))
                    report_pair(ld, cb, CHECK_ALIAS_ATTACHMENT, call, y, x, NULL);
            }
            met = true;
        }
    }
    return met;
}
