/* Area `alias`: within one dispatch or draw the GPU runs all invocations unordered, so memory one
 * binding writes must not be read or written through another binding of the same command.
 *
 * What a command accesses comes from the bound pipeline's reflection (a binding counts only where
 * the shader really loads or stores through it) and the bound descriptor sets (with dynamic
 * offsets). Buffers are compared by the device-memory range behind them, so two buffers that
 * alias one VkDeviceMemory collide; images by subresource (mip levels and array layers).
 * Descriptor arrays: elements the shader reaches through constant indices take part in both the
 * alias pairs and the hazard accesses; when an index is only known at run time, every written
 * element of the bound set is a hazard access (one of them is read or written, as
 * Vulkan-ValidationLayers assumes), but takes no part in alias pairs (which element meets which
 * cannot be known without running the shader, and a guess would be a false finding). */
#include "check_alias.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"

#define HANDLE(h) ((uint64_t)(h))
#define MAX_ACCESSES 128
#define RUNTIME_ELEMENTS 32 /* written elements of one run-time indexed array that count */

struct access {
    bool image;
    bool read, write;
    uint64_t resource;   /* VkBuffer or VkImage */
    uint64_t key;        /* VkDeviceMemory for bound buffers (the buffer if unbound), VkImage for images */
    uint64_t begin, end; /* buffers: byte range in `key`; images: mip range */
    uint32_t layer_begin, layer_end;
    uint32_t set, binding, element;
    bool array;           /* an element of a descriptor array */
    bool read_or_write;   /* array elements: reflection knows the binding's accesses, not each element's */
    bool runtime_element; /* an element the shader may reach through a run-time index */
    uint64_t stages;      /* descriptors: the shader stages that use the binding (pipeline stage bits) */
    const char *what;     /* "binding", or "vertex buffer", "index buffer", "indirect buffer", "attachment" */
    VkImageLayout layout;
    VkDescriptorType type;
};

/* Accesses collected into `a`, which has room for `capacity`. */
struct collection {
    struct access *a;
    uint32_t count, capacity;
};

/* The descriptor accesses of a bound state, kept while it does not change (layer_state.h's
 * bound_key): collecting them is most of a command's cost, and their pairs were already compared. */
#define CACHED_ACCESSES 32
struct alias_cache {
    struct bound_key key;
    bool exported_only; /* filled from a lone set's memo: `exported` is right, `a` was not collected */
    uint32_t count;
    /* the same accesses as the hazard tracker takes them: next to the key, because a state bound
     * again reads only these two (its pairs were compared when it was first bound) */
    struct hazard_accesses exported;
    struct access a[CACHED_ACCESSES];
};

static void add(struct collection *c, const struct access *a)
{
    if (c->count < c->capacity)
        c->a[c->count++] = *a;
}

/* The memory range a buffer range occupies (hazard_buffer_range: unbound buffers are keyed by
 * themselves). */
static bool buffer_range(struct layer_device *ld, uint64_t buffer, VkDeviceSize offset, VkDeviceSize range,
                         struct access *out)
{
    struct hazard_access r;
    if (!hazard_buffer_range(ld, buffer, offset, range, &r))
        return false;
    out->resource = r.resource;
    out->key = r.key;
    out->begin = r.begin;
    out->end = r.end;
    return true;
}

static bool image_range(struct layer_device *ld, uint64_t view_handle, struct access *out)
{
    struct hazard_access r;
    if (!hazard_view_range(ld, handle_map_get(&ld->image_views, view_handle), 0, false, &r))
        return false;
    out->image = true;
    out->resource = out->key = r.key;
    out->begin = r.begin;
    out->end = r.end;
    out->layer_begin = r.layer_begin;
    out->layer_end = r.layer_end;
    return true;
}

static bool is_dynamic(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

/* The dynamic offset of descriptor `index` of `set`: the offsets follow the dynamic descriptors
 * in binding order. */
static uint32_t dynamic_offset(const struct bound_state *b, uint32_t set_index, const struct set_state *set,
                               uint32_t index)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < set->layout->binding_count; ++k) {
        const struct set_layout_binding *lb = &set->layout->bindings[k];
        if (!is_dynamic(lb->type))
            continue;
        for (uint32_t e = 0; e < lb->count; ++e, ++n)
            if (lb->first + e == index)
                return n < b->dynamic_count[set_index] ? b->dynamic_offsets[set_index][n] : 0;
    }
    return 0;
}

const struct set_layout_binding *check_layout_binding(const struct set_state *set, uint32_t binding)
{
    for (uint32_t k = 0; set && k < set->layout->binding_count; ++k)
        if (set->layout->bindings[k].binding == binding)
            return &set->layout->bindings[k];
    return NULL;
}

/* A set's descriptor accesses for one pipeline at one set index (layer_state.h's set memos). */
#define SET_MEMO_ACCESSES 16
struct alias_set_memo {
    struct set_memo_key key;
    uint32_t count;
    struct access a[SET_MEMO_ACCESSES];
    /* for a compute pipeline that uses this set alone: the accesses as the hazard tracker takes
     * them, once its pairs were compared and found clean (exported_count UINT32_MAX: not yet) */
    uint32_t exported_count;
    struct hazard_access exported[SET_MEMO_ACCESSES];
};

/* Appends the accesses memoized for `key` to `c`; false when there are none (or the memo is busy). */
static bool set_memo_take(struct set_state *set, const struct set_memo_key *key, struct collection *c)
{
    if (!set_memo_lock(set))
        return false;
    const struct alias_set_memo *m = set->alias;
    bool hit = m != NULL && set_memo_key_equal(&m->key, key) && c->count + m->count <= c->capacity;
    if (hit) {
        memcpy(c->a + c->count, m->a, m->count * sizeof(m->a[0]));
        c->count += m->count;
    }
    set_memo_unlock(set);
    return hit;
}

static void set_memo_store(struct set_state *set, const struct set_memo_key *key, const struct access *a,
                           uint32_t count)
{
    if (count > SET_MEMO_ACCESSES || !set_memo_lock(set))
        return;
    if (set->alias == NULL)
        set->alias = malloc(sizeof(*set->alias));
    if (set->alias != NULL) {
        set->alias->key = *key;
        set->alias->count = count;
        set->alias->exported_count = UINT32_MAX;
        memcpy(set->alias->a, a, count * sizeof(a[0]));
    }
    set_memo_unlock(set);
}

/* The set a compute state's pipeline uses alone, with no dynamic offsets, and its memo key; false
 * when the state is not that simple. */
static bool lone_set(struct layer_device *ld, const struct command_buffer_state *cb, const struct bound_state *b,
                     struct set_memo_key *key)
{
    const struct pipeline_state *p = b->pipeline;
    if (b != &cb->compute || p->shader.binding_count == 0)
        return false;
    uint32_t index = p->shader.bindings[0].set;
    for (size_t i = 1; i < p->shader.binding_count; ++i)
        if (p->shader.bindings[i].set != index)
            return false;
    if (index >= MAX_BOUND_SETS || b->sets[index] == NULL || b->dynamic_count[index] != 0)
        return false;
    *key = (struct set_memo_key){
        .pipeline_id = p->id, .epoch = __atomic_load_n(&ld->resource_epoch, __ATOMIC_ACQUIRE), .index = index};
    return true;
}

/* The lone set's exported accesses into `out`, when its memo has them for this key. */
static bool set_memo_exported_take(struct set_state *set, const struct set_memo_key *key, struct hazard_accesses *out)
{
    if (!set_memo_lock(set))
        return false;
    const struct alias_set_memo *m = set->alias;
    bool hit = m != NULL && set_memo_key_equal(&m->key, key) && m->exported_count != UINT32_MAX;
    if (hit) {
        out->count = m->exported_count;
        memcpy(out->a, m->exported, m->exported_count * sizeof(m->exported[0]));
    }
    set_memo_unlock(set);
    return hit;
}

static void set_memo_exported_store(struct set_state *set, const struct set_memo_key *key,
                                    const struct hazard_accesses *exported)
{
    if (exported->count > SET_MEMO_ACCESSES || !set_memo_lock(set))
        return;
    struct alias_set_memo *m = set->alias;
    if (m != NULL && set_memo_key_equal(&m->key, key)) {
        m->exported_count = exported->count;
        memcpy(m->exported, exported->a, exported->count * sizeof(exported->a[0]));
    }
    set_memo_unlock(set);
}

/* Every descriptor of the set bound at `set_index` that the shader really reaches, as accesses;
 * false when the result depends on more than the set and the pipeline (dynamic offsets) or did not
 * fit. */
static bool collect_set(struct layer_device *ld, const struct bound_state *b, uint32_t set_index, struct collection *c)
{
    const struct pipeline_state *p = b->pipeline;
    const struct set_state *set = b->sets[set_index];
    bool memoizable = true;
    for (size_t i = 0; i < p->shader.binding_count; ++i) {
        const struct reflect_binding *rb = &p->shader.bindings[i];
        if (!(rb->read || rb->written) || rb->set != set_index)
            continue;
        const struct set_layout_binding *lb = check_layout_binding(set, rb->binding);
        if (lb == NULL)
            continue;
        /* elements reached through constant indices; with a run-time index, every element the set
         * holds may be the one (as many as RUNTIME_ELEMENTS written ones) */
        uint32_t runtime_taken = 0;
        for (uint32_t e = 0; e < lb->count && (e < 64 || rb->dynamic_index); ++e) {
            bool constant = e < 64 && (rb->constant_elements & (1ull << e));
            if (!constant && !rb->dynamic_index)
                continue;
            const struct descriptor_state *d = &set->descriptors[lb->first + e];
            if (!d->written || (!constant && runtime_taken == RUNTIME_ELEMENTS))
                continue;
            runtime_taken += !constant;
            if (c->count == c->capacity)
                return false;
            /* built in place: a copy of a freshly written struct stalls on store forwarding */
            struct access *a = &c->a[c->count];
            *a = (struct access){.read = rb->read,
                                 .write = rb->written,
                                 .set = rb->set,
                                 .binding = rb->binding,
                                 .element = e,
                                 .array = lb->count > 1,
                                 .read_or_write = lb->count > 1 && rb->read && rb->written,
                                 .runtime_element = !constant,
                                 .stages = rb->used_stages,
                                 .what = "binding",
                                 .layout = d->layout,
                                 .type = d->type,
                                 .layer_end = 1};
            bool ok = false;
            switch (d->type) {
            case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
            case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
            case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
            case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: {
                uint64_t dynamic = 0;
                if (is_dynamic(d->type)) {
                    dynamic = dynamic_offset(b, rb->set, set, lb->first + e);
                    memoizable = false;
                }
                if (d->resolved) { /* resolved when written: no lookup */
                    a->resource = d->resource;
                    a->key = d->key;
                    a->begin = d->begin + dynamic;
                    a->end = d->end + dynamic < d->limit ? d->end + dynamic : d->limit;
                    ok = a->begin < a->end;
                } else {
                    ok = buffer_range(ld, d->resource, d->offset + dynamic, d->range, a);
                }
                break;
            }
            case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
            case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
            case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
            case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
                if (d->resolved) {
                    a->image = true;
                    a->resource = a->key = d->key;
                    a->begin = d->begin;
                    a->end = d->end;
                    a->layer_begin = d->layer_begin;
                    a->layer_end = d->layer_end;
                    ok = true;
                } else {
                    ok = image_range(ld, d->resource, a);
                }
                break;
            default:
                break; /* texel buffers, samplers, acceleration structures: not compared */
            }
            if (ok)
                c->count++;
        }
    }
    return memoizable;
}

/* Every descriptor the shader really reaches, as accesses, set by set: from the set's memo when it
 * has this pipeline's, else collected and memoized. */
static void collect_descriptors(struct layer_device *ld, const struct bound_state *b, struct collection *c)
{
    const struct pipeline_state *p = b->pipeline;
    uint32_t used = 0;
    for (size_t i = 0; i < p->shader.binding_count; ++i)
        if ((p->shader.bindings[i].read || p->shader.bindings[i].written) && p->shader.bindings[i].set < MAX_BOUND_SETS)
            used |= 1u << p->shader.bindings[i].set;
    uint64_t epoch = __atomic_load_n(&ld->resource_epoch, __ATOMIC_ACQUIRE);
    for (uint32_t index = 0; used != 0; ++index, used >>= 1) {
        struct set_state *set = b->sets[index];
        if (!(used & 1) || set == NULL)
            continue;
        struct set_memo_key key = {.pipeline_id = p->id, .epoch = epoch, .index = index};
        if (set_memo_take(set, &key, c))
            continue;
        uint32_t first = c->count;
        if (collect_set(ld, b, index, c))
            set_memo_store(set, &key, c->a + first, c->count - first);
    }
}

static bool overlap(const struct access *x, const struct access *y)
{
    if (x->image != y->image || x->key != y->key || x->begin >= y->end || y->begin >= x->end)
        return false;
    return !x->image || (x->layer_begin < y->layer_end && y->layer_begin < x->layer_end);
}

/* Exactly the same memory through two bindings: buffers, or storage images both (a sampled read
 * goes through the texture path and filters across neighbours: that stays an alias). */
static bool same_range(const struct access *x, const struct access *y)
{
    if (x->image && (x->type != VK_DESCRIPTOR_TYPE_STORAGE_IMAGE || y->type != VK_DESCRIPTOR_TYPE_STORAGE_IMAGE))
        return false;
    return x->image == y->image && x->key == y->key && x->begin == y->begin && x->end == y->end &&
           (!x->image || (x->layer_begin == y->layer_begin && x->layer_end == y->layer_end));
}

static bool same_descriptor(const struct access *x, const struct access *y)
{
    return strcmp(x->what, "binding") == 0 && strcmp(y->what, "binding") == 0 && x->set == y->set &&
           x->binding == y->binding && x->element == y->element;
}

static void describe(struct layer_device *ld, const struct access *a, char *out, size_t size)
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

static void report_pair(struct layer_device *ld, struct command_buffer_state *cb, enum check_id check, const char *call,
                        const struct access *x, const struct access *y)
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
    snprintf(f.message, sizeof(f.message),
             "%s, and %s, in the same %s (command %u)%s: its invocations run in no order, so the result depends "
             "on scheduling",
             first, second, call, cb->command_index,
             !x->image && x->resource != y->resource ? " (two buffers on the same VkDeviceMemory)" : "");
    finding_report(ld->instance, ld, &f);
}

static bool feedback_loop_allowed(const struct bound_state *b, const struct access *descriptor)
{
    return descriptor->type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT || (b->pipeline && b->pipeline->feedback_loop) ||
           descriptor->layout == VK_IMAGE_LAYOUT_ATTACHMENT_FEEDBACK_LOOP_OPTIMAL_EXT;
}

/* Whether an input attachment read goes to the hazard tracker: inside a render pass object, when
 * the attachment was first used in an earlier subpass (its load operation there is ordered before
 * this read only by a subpass dependency). In the subpass of its first use the load operation is
 * implicitly ordered before the read, and draws' own attachment writes are not tracked; dynamic
 * rendering's local reads are not tracked either. */
static bool input_read_tracked(struct layer_device *ld, const struct command_buffer_state *cb, const struct access *a)
{
    const struct render_pass_state *r =
        cb->render_pass != VK_NULL_HANDLE ? handle_map_get(&ld->render_passes, HANDLE(cb->render_pass)) : NULL;
    for (uint32_t i = 0; r != NULL && i < r->attachment_count && i < cb->pass_view_count; ++i) {
        struct access view = {0};
        if (image_range(ld, HANDLE(cb->pass_views[i]), &view) && overlap(&view, a))
            return r->attachments[i].used && r->attachments[i].first_subpass < cb->subpass;
    }
    return false;
}

/* The buffer accesses, for the hazard tracker. */
static void export_buffers(struct layer_device *ld, const struct command_buffer_state *cb, const struct bound_state *b,
                           const struct access *accesses, uint32_t descriptors, uint32_t fixed_end,
                           struct hazard_accesses *out)
{
    out->count = 0;
    for (uint32_t i = 0; i < fixed_end && out->count < HAZARD_MAX_ACCESSES; ++i) {
        const struct access *a = &accesses[i];
        bool input = a->image && i < descriptors && a->type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
        if (a->image && (i >= descriptors || (input && !input_read_tracked(ld, cb, a))))
            continue; /* attachments: through the pass's load and store operations */
        struct hazard_access *h = &out->a[out->count++];
        h->image = a->image;
        h->key = a->key;
        h->begin = a->begin;
        h->end = a->end;
        h->layer_begin = a->image ? a->layer_begin : 0;
        h->layer_end = a->image ? a->layer_end : 1;
        h->resource = a->resource;
        h->read = a->read;
        h->write = a->write;
        if (input) {
            h->stages = HAZARD_STAGE_FRAGMENT_SHADER;
            h->access = HAZARD_ACCESS_INPUT_ATTACHMENT_READ;
        } else if (i < descriptors) {
            /* the stages whose shaders use the binding: a barrier to the vertex shader does not
             * make a write visible to a fragment shader's read */
            h->stages = a->stages           ? a->stages
                        : b == &cb->compute ? HAZARD_STAGE_COMPUTE
                                            : HAZARD_STAGES_GRAPHICS_SHADERS;
            h->access = (a->read ? HAZARD_ACCESS_SHADER_READS : 0) | (a->write ? HAZARD_ACCESS_SHADER_WRITES : 0);
        } else if (strstr(a->what, "indirect") != NULL) {
            h->stages = HAZARD_STAGE_DRAW_INDIRECT;
            h->access = HAZARD_ACCESS_INDIRECT_READS;
        } else {
            h->stages = HAZARD_STAGES_VERTEX_INPUT;
            h->access = HAZARD_ACCESS_VERTEX_READS;
        }
        /* one range in several descriptors with the same use (a buffer bound twice for reading):
         * the tracker takes it once */
        for (uint32_t k = 0; k + 1 < out->count; ++k) {
            if (hazard_same_access(&out->a[k], h)) {
                out->count--;
                break;
            }
        }
    }
}

/* The bound descriptors' accesses into `c`: the cached ones when the bound state is `unchanged`
 * (their pairs were compared then), else collected now and cached. When the command has no other
 * accesses, `c` is the cache itself (no copy either way). */
static void descriptors_of(struct layer_device *ld, struct bound_state *b, bool unchanged, bool descriptors_only,
                           struct collection *c)
{
    struct alias_cache *cache = bound_memos_of(b)->alias_cache;
    if (cache != NULL && descriptors_only) {
        struct collection in_cache = {cache->a, 0, CACHED_ACCESSES};
        if (!unchanged) {
            collect_descriptors(ld, b, &in_cache);
            cache->count = in_cache.count;
            cache->exported.count = UINT32_MAX; /* exported when first reused (a rotating state never is) */
        }
        if (cache->count < CACHED_ACCESSES) { /* a full cache may have left some out: collected below */
            *c = (struct collection){cache->a, cache->count, cache->count};
            return;
        }
    } else if (unchanged) {
        memcpy(c->a, cache->a, cache->count * sizeof(cache->a[0]));
        c->count = cache->count;
        return;
    }
    collect_descriptors(ld, b, c);
    if (cache != NULL && c->count < CACHED_ACCESSES) {
        memcpy(cache->a, c->a, c->count * sizeof(c->a[0]));
        cache->count = c->count;
        cache->exported.count = UINT32_MAX;
    } else if (cache != NULL) {
        cache->key.valid = false; /* too many to keep: collected again next time */
    }
}

const struct hazard_accesses *check_alias_command(struct layer_device *ld, struct command_buffer_state *cb,
                                                  struct bound_state *b, const struct alias_fixed_reads *fixed,
                                                  const char *call, struct hazard_accesses *scratch)
{
    scratch->count = 0;
    if (b->pipeline == NULL || !b->pipeline->reflected)
        return scratch;
    struct bound_memos *memos = bound_memos_of(b);
    if (memos->alias_cache == NULL)
        memos->alias_cache = calloc(1, sizeof(*memos->alias_cache));
    bool unchanged = memos->alias_cache != NULL && bound_key_unchanged(&memos->alias_cache->key, b, ld);
    bool descriptors_only = (fixed == NULL || fixed->count == 0) && (b != &cb->graphics || cb->attachment_count == 0);
    if (unchanged && memos->alias_cache->exported_only && !descriptors_only)
        unchanged = false; /* the accesses themselves are needed now: collected below */
    if (memos->alias_cache != NULL && !unchanged)
        memos->alias_cache->exported_only = false;
    if (unchanged && descriptors_only) {
        /* nothing but the descriptors, whose pairs were compared already */
        struct alias_cache *cache = memos->alias_cache;
        if (cache->exported.count == UINT32_MAX) /* first reuse: export them once */
            export_buffers(ld, cb, b, cache->a, cache->count, cache->count, &cache->exported);
        return &cache->exported;
    }
    /* a new compute state whose pipeline uses one set: that set's memo may already hold the
     * exported accesses, its pairs compared clean (engines rotate many sets through one pipeline,
     * more than the states a command buffer recalls) */
    struct set_memo_key lone_key = {0};
    bool lone = descriptors_only && lone_set(ld, cb, b, &lone_key);
    if (lone && set_memo_exported_take(b->sets[lone_key.index], &lone_key, scratch)) {
        struct alias_cache *cache = memos->alias_cache;
        if (cache != NULL) { /* reused while the state stays bound, as if collected */
            cache->exported.count = scratch->count;
            memcpy(cache->exported.a, scratch->a, scratch->count * sizeof(scratch->a[0]));
            cache->exported_only = true;
            cache->count = 0;
        }
        return scratch;
    }
    struct access local[MAX_ACCESSES]; /* not zeroed: 13 KB per command would dominate the cost */
    struct collection c = {local, 0, MAX_ACCESSES};
    descriptors_of(ld, b, unchanged, descriptors_only, &c);
    bool descriptor_pairs_checked = unchanged;
    uint32_t descriptors = c.count;
    /* fixed-function reads: vertex, index and indirect buffers */
    for (uint32_t i = 0; fixed != NULL && i < fixed->count; ++i) {
        struct access a = {.what = fixed->what[i], .read = true};
        if (buffer_range(ld, HANDLE(fixed->buffer[i]), fixed->offset[i], fixed->size[i], &a))
            add(&c, &a);
    }
    uint32_t fixed_end = c.count;
    export_buffers(ld, cb, b, c.a, descriptors, fixed_end, scratch);
    /* attachments of the current rendering */
    for (uint32_t i = 0; i < cb->attachment_count && b == &cb->graphics; ++i) {
        const struct attachment_use *use = &cb->attachments[i];
        bool depth_writes = b->pipeline->depth_write_dynamic ? cb->depth_write_enable : b->pipeline->depth_write;
        struct access a = {.what = "attachment", .write = use->write && (!use->depth || depth_writes)};
        if (image_range(ld, HANDLE(use->view), &a))
            add(&c, &a);
    }
    bool reported = false; /* a pair met (reported, or allowed as a feedback loop) */
    for (uint32_t i = 0; i < c.count; ++i) {
        for (uint32_t j = i + 1; j < c.count; ++j) {
            const struct access *x = &c.a[i], *y = &c.a[j];
            bool x_descriptor = i < descriptors, y_descriptor = j < descriptors;
            /* an element reached through a run-time index may not be the one that overlaps: no guess */
            if ((x_descriptor && y_descriptor && descriptor_pairs_checked) || !(x->write || y->write) ||
                !overlap(x, y) || same_descriptor(x, y) || x->runtime_element || y->runtime_element)
                continue;
            if (x_descriptor && y_descriptor) {
                /* exactly the same memory through two bindings is how in-place algorithms (FFTs,
                 * filters) run, each invocation reading and writing its own elements: advice only.
                 * Ranges that overlap at different offsets let one invocation's write land on what
                 * another reads: an error. */
                enum check_id check = same_range(x, y) ? CHECK_ALIAS_IN_PLACE
                                      : x->image       ? CHECK_ALIAS_IMAGE
                                                       : CHECK_ALIAS_BUFFER;
                report_pair(ld, cb, check, call, x->write ? x : y, x->write ? y : x);
            } else if (x_descriptor && j < fixed_end) {
                if (x->write) /* fixed-function units only read */
                    report_pair(ld, cb, CHECK_ALIAS_VERTEX_INDEX_INDIRECT, call, x, y);
            } else if (x_descriptor && j >= fixed_end) {
                if (!feedback_loop_allowed(b, x))
                    report_pair(ld, cb, CHECK_ALIAS_ATTACHMENT, call, y, x);
            }
            reported = true;
        }
    }
    if (lone && !reported && c.count < CACHED_ACCESSES)
        set_memo_exported_store(b->sets[lone_key.index], &lone_key, scratch);
    return scratch;
}
