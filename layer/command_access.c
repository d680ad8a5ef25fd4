/* What a dispatch or draw touches (command_access.h).
 *
 * What a command accesses comes from the bound pipeline's reflection (a binding counts only where
 * the shader really loads or stores through it) and the bound descriptor sets (with dynamic
 * offsets). Buffers are described by the device-memory range behind them, so two buffers that
 * alias one VkDeviceMemory meet; images by subresource (mip levels and array layers).
 * Descriptor arrays: elements the shader reaches through constant indices are accesses; when an
 * index is only known at run time, every written element of the bound set is one (one of them is
 * read or written, as Vulkan-ValidationLayers assumes), marked `runtime_element`.
 *
 * Collecting the descriptors' accesses is most of a command's cost, so they are kept: per bound
 * state while it does not change (state_command_buffers.h's bound_key), and per set for each pipeline that
 * uses it (the set memo), with the hazard tracker's form of them next to the key. */
#include "command_access.h"
#include "access_footprint.h"
#include "state_command_buffers.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "state_pipelines.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define RUNTIME_ELEMENTS 32 /* written elements of one run-time indexed array that count */

/* Accesses collected into `a`, which has room for `capacity`. */
struct collection {
    struct command_access *a;
    uint32_t count, capacity;
};

/* What a narrowing of a bound state's exported accesses (command_access_cache.narrowed) depends
 * on besides them: the pushed constants (push_version counts vkCmdPushConstants in one recording:
 * equal versions, equal bytes and valid words) and the dispatch's groups. The shader is the bound
 * state's own, and so is the recording: a cache holds one bound content (pipeline and sets) of
 * one recording (a new one forgets the bound states: bound_state_forget's new serial), and
 * `exported` is made again, the narrowing dropped (exported_changed), whenever either changes.
 * Compared at every dispatch of a recalled state, so x and y of the groups are one word each. */
#define NARROWED_NONE UINT64_MAX /* push_version when nothing is kept: a version has 32 bits */
struct narrowing_key {
    uint64_t push_version;
    uint64_t count_xy, base_xy;
    uint32_t count_z, base_z;
};

/* The descriptor accesses of a bound state, kept while it does not change (state_command_buffers.h's
 * bound_key): collecting them is most of a command's cost, and their pairs were already compared. */
#define CACHED_ACCESSES 32
struct command_access_cache {
    struct bound_key key;
    bool exported_only; /* filled from a lone set's memo: `exported` is right, `a` was not collected */
    uint32_t count;
    /* the same accesses as the hazard tracker takes them: next to the key, because a state bound
     * again reads only these two (its pairs were compared when it was first bound) */
    struct hazard_accesses exported;
    /* `exported` narrowed to the bytes a dispatch of one shape reaches (access_footprint.h), so
     * that a state recalled and dispatched as before is not narrowed again (engines rotate sets
     * through one pipeline and size): another 4 KB per bound state, in the block (freed as one) */
    struct narrowing_key narrowed_for;
    const struct hazard_accesses *narrowed_result; /* into this block: &exported (nothing narrowed) or &narrowed */
    struct command_access a[CACHED_ACCESSES];
    struct hazard_accesses narrowed;
};

/* A new cache holding nothing (an invalid key, nothing narrowed); NULL when out of memory. Its
 * lists are not zeroed: each is read only up to the count written with it, and zeroing the 11 KB
 * showed in the cost of an engine's first dispatch of each state in a recording. */
static struct command_access_cache *cache_new(void)
{
    struct command_access_cache *cache = malloc(sizeof(*cache));
    if (cache == NULL)
        return NULL;
    memset(cache, 0, offsetof(struct command_access_cache, exported.a));
    cache->narrowed_for = (struct narrowing_key){.push_version = NARROWED_NONE};
    cache->narrowed_result = NULL;
    return cache;
}

/* `exported` is about to change: what was narrowed from it is no longer right. */
static inline void exported_changed(struct command_access_cache *cache)
{
    cache->narrowed_for.push_version = NARROWED_NONE;
}

static void add(struct collection *c, const struct command_access *a)
{
    if (c->count < c->capacity)
        c->a[c->count++] = *a;
}

/* The memory range a buffer range occupies (access_buffer_range: unbound buffers are keyed by
 * themselves). */
static bool buffer_range(struct layer_device *ld, uint64_t buffer, VkDeviceSize offset, VkDeviceSize range,
                         struct command_access *out)
{
    struct hazard_access r;
    if (!access_buffer_range(ld, buffer, offset, range, &r))
        return false;
    out->resource = r.resource;
    out->key = r.key;
    out->begin = r.begin;
    out->end = r.end;
    return true;
}

static bool image_range(struct layer_device *ld, uint64_t view_handle, struct command_access *out)
{
    struct hazard_access r;
    if (!access_view_range(ld, image_view_state_in(ld, view_handle), 0, false, &r))
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

/* A set's descriptor accesses for one pipeline at one set index (state_descriptors.h's set memos). */
#define SET_MEMO_ACCESSES 16
struct set_access_memo {
    struct set_memo_key key;
    uint32_t count;
    struct command_access a[SET_MEMO_ACCESSES];
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
    const struct set_access_memo *m = set->accesses;
    bool hit = m != NULL && set_memo_key_equal(&m->key, key) && c->count + m->count <= c->capacity;
    if (hit) {
        memcpy(c->a + c->count, m->a, m->count * sizeof(m->a[0]));
        c->count += m->count;
    }
    set_memo_unlock(set);
    return hit;
}

static void set_memo_store(struct set_state *set, const struct set_memo_key *key, const struct command_access *a,
                           uint32_t count)
{
    if (count > SET_MEMO_ACCESSES || !set_memo_lock(set))
        return;
    if (set->accesses == NULL)
        set->accesses = malloc(sizeof(*set->accesses));
    if (set->accesses != NULL) {
        set->accesses->key = *key;
        set->accesses->count = count;
        set->accesses->exported_count = UINT32_MAX;
        memcpy(set->accesses->a, a, count * sizeof(a[0]));
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
    const struct set_access_memo *m = set->accesses;
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
    struct set_access_memo *m = set->accesses;
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
        const struct set_layout_binding *lb = set_layout_binding_of(set, rb->binding);
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
            struct command_access *a = &c->a[c->count];
            *a = (struct command_access){.read = rb->read,
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
            case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC:
            case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER: /* the view's bytes of its buffer */
            case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER: {
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
                break; /* samplers, acceleration structures: not compared */
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

/* Whether an input attachment read goes to the hazard tracker: inside a render pass object, when
 * the attachment was first used in an earlier subpass (its load operation there is ordered before
 * this read only by a subpass dependency). In the subpass of its first use the load operation is
 * implicitly ordered before the read, and draws' own attachment writes are not tracked; dynamic
 * rendering's local reads are not tracked either. */
static bool input_read_tracked(struct layer_device *ld, const struct command_buffer_state *cb,
                               const struct command_access *a)
{
    const struct render_pass_state *r =
        cb->render_pass != VK_NULL_HANDLE ? render_pass_state_in(ld, HANDLE(cb->render_pass)) : NULL;
    for (uint32_t i = 0; r != NULL && i < r->attachment_count && i < cb->pass_view_count; ++i) {
        struct command_access view = {0};
        if (image_range(ld, HANDLE(cb->pass_views[i]), &view) && command_accesses_overlap(&view, a))
            return r->attachments[i].used && r->attachments[i].first_subpass < cb->subpass;
    }
    return false;
}

/* A compute descriptor's buffer access as its binding in the reflection (hazard_access.binding_ref),
 * when the binding's sites may give the bytes a dispatch reaches (access_footprint.h); else 0. */
static uint32_t binding_ref_of(const struct reflect_result *shader, const struct command_access *a)
{
    /* a texel buffer's sites are image operations, whose bytes the reflection does not give */
    if (a->type == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER || a->type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER)
        return 0;
    for (size_t k = 0; k < shader->binding_count && k < 0xFFFF; ++k) {
        const struct reflect_binding *rb = &shader->bindings[k];
        if (rb->set == a->set && rb->binding == a->binding)
            return rb->sites_complete && rb->site_count > 0 && a->element < 0xFFFF
                       ? (uint32_t)(k + 1) | (a->element << 16)
                       : 0;
    }
    return 0;
}

/* The buffer accesses, for the hazard tracker. */
static void export_buffers(struct layer_device *ld, const struct command_buffer_state *cb, const struct bound_state *b,
                           const struct command_access *accesses, uint32_t descriptors, uint32_t fixed_end,
                           struct hazard_accesses *out)
{
    out->count = 0;
    for (uint32_t i = 0; i < fixed_end && out->count < HAZARD_MAX_ACCESSES; ++i) {
        const struct command_access *a = &accesses[i];
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
        h->area = 0; /* shader and fixed-function accesses: any pixel */
        h->evaluated = false;
        if (!a->image && i < descriptors && b == &cb->compute)
            h->binding_ref = binding_ref_of(&b->pipeline->shader, a);
        h->resource = a->resource;
        h->read = a->read;
        h->write = a->write;
        if (input) {
            h->stages = STAGE_FRAGMENT_SHADER;
            h->access = HAZARD_ACCESS_INPUT_ATTACHMENT_READ;
        } else if (i < descriptors) {
            /* the stages whose shaders use the binding: a barrier to the vertex shader does not
             * make a write visible to a fragment shader's read */
            h->stages = a->stages           ? a->stages
                        : b == &cb->compute ? STAGE_COMPUTE_SHADER
                                            : HAZARD_STAGES_GRAPHICS_SHADERS;
            h->access = (a->read ? HAZARD_ACCESS_SHADER_READS : 0) | (a->write ? HAZARD_ACCESS_SHADER_WRITES : 0);
        } else if (strstr(a->what, "indirect") != NULL) {
            h->stages = STAGE_DRAW_INDIRECT;
            h->access = HAZARD_ACCESS_INDIRECT_READS;
        } else {
            h->stages = HAZARD_STAGES_VERTEX_INPUT;
            h->access = HAZARD_ACCESS_VERTEX_READS;
        }
        /* one range in several descriptors with the same use (a buffer bound twice for reading):
         * the tracker takes it once, judged on the descriptor's range when the two bindings' bytes
         * could differ */
        for (uint32_t k = 0; k + 1 < out->count; ++k) {
            uint32_t ref = h->binding_ref;
            h->binding_ref = out->a[k].binding_ref;
            bool same = hazard_same_access(&out->a[k], h);
            h->binding_ref = ref;
            if (same) {
                if (out->a[k].binding_ref != ref)
                    out->a[k].binding_ref = 0;
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
    struct command_access_cache *cache = bound_memos_of(b)->access_cache;
    if (cache != NULL && descriptors_only) {
        struct collection in_cache = {cache->a, 0, CACHED_ACCESSES};
        if (!unchanged) {
            collect_descriptors(ld, b, &in_cache);
            cache->count = in_cache.count;
            cache->exported.count = UINT32_MAX; /* exported when first reused (a rotating state never is) */
            exported_changed(cache);
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
        exported_changed(cache);
    } else if (cache != NULL) {
        cache->key.valid = false; /* too many to keep: collected again next time */
    }
}

static inline uint64_t two_words(const uint32_t *v)
{
    uint64_t w;
    memcpy(&w, v, sizeof(w));
    return w;
}

static inline struct narrowing_key narrowing_key_of(const struct dispatch_shape *dispatch)
{
    return (struct narrowing_key){.push_version = dispatch->push_version,
                                  .count_xy = two_words(dispatch->count),
                                  .base_xy = two_words(dispatch->base),
                                  .count_z = dispatch->count[2],
                                  .base_z = dispatch->base[2]};
}

/* One branch for the whole key: the hit is the common case, and a test per field cost more. */
static inline bool narrowing_key_equal(const struct narrowing_key *x, const struct narrowing_key *y)
{
    return ((x->push_version ^ y->push_version) | (x->count_xy ^ y->count_xy) | (x->base_xy ^ y->base_xy) |
            (x->count_z ^ y->count_z) | (x->base_z ^ y->base_z)) == 0;
}

/* The bound state's exported accesses narrowed for `dispatch` (access_footprint.h), and kept for
 * the next dispatch of the same key (unless its pushed constants have no version to name them). */
static const struct hazard_accesses *narrow_exported(struct command_buffer_state *cb, struct bound_state *b,
                                                     struct command_access_cache *cache,
                                                     const struct dispatch_shape *dispatch)
{
    /* narrowed in place: these accesses are kept here, not in the command buffer's memo */
    const struct hazard_accesses *narrowed = access_footprints_narrow_memo(&cb->footprints, &b->pipeline->shader,
                                                                           dispatch, &cache->exported, &cache->narrowed)
                                                 ? &cache->narrowed
                                                 : &cache->exported;
    if (dispatch->push_version == 0 && dispatch->push_valid != 0)
        return narrowed; /* no version names the pushed bytes: narrowed again next time */
    cache->narrowed_for = narrowing_key_of(dispatch);
    cache->narrowed_result = narrowed;
    return narrowed;
}

/* The bound state's exported accesses as `dispatch` (NULL: not a direct dispatch) takes them. */
static inline const struct hazard_accesses *exported_for(struct command_buffer_state *cb, struct bound_state *b,
                                                         struct command_access_cache *cache,
                                                         const struct dispatch_shape *dispatch)
{
    if (dispatch == NULL)
        return &cache->exported;
    struct narrowing_key key = narrowing_key_of(dispatch);
    if (narrowing_key_equal(&key, &cache->narrowed_for))
        return cache->narrowed_result;
    return narrow_exported(cb, b, cache, dispatch);
}

void command_accesses_of(struct layer_device *ld, struct command_buffer_state *cb, struct bound_state *b,
                         const struct command_fixed_reads *fixed, const struct dispatch_shape *dispatch,
                         struct command_access_scratch *scratch, struct command_accesses *out)
{
    scratch->memory.count = 0;
    out->a = scratch->local;
    out->count = out->descriptors = out->fixed_end = 0;
    out->descriptor_pairs_checked = false;
    out->memory = &scratch->memory;
    out->memory_narrowed = false;
    out->lone = false;
    if (b->pipeline == NULL || !b->pipeline->reflected)
        return;
    struct bound_memos *memos = bound_memos_of(b);
    if (memos->access_cache == NULL)
        memos->access_cache = cache_new();
    bool unchanged = memos->access_cache != NULL && bound_key_unchanged(&memos->access_cache->key, b, ld);
    bool descriptors_only = (fixed == NULL || fixed->count == 0) && (b != &cb->graphics || cb->attachment_count == 0);
    if (unchanged && memos->access_cache->exported_only && !descriptors_only)
        unchanged = false; /* the accesses themselves are needed now: collected below */
    if (memos->access_cache != NULL && !unchanged)
        memos->access_cache->exported_only = false;
    if (unchanged && descriptors_only) {
        /* nothing but the descriptors, whose pairs were judged already */
        struct command_access_cache *cache = memos->access_cache;
        if (cache->exported.count == UINT32_MAX) { /* first reuse: export them once */
            exported_changed(cache);
            export_buffers(ld, cb, b, cache->a, cache->count, cache->count, &cache->exported);
        }
        out->memory = exported_for(cb, b, cache, dispatch);
        out->memory_narrowed = true;
        out->descriptor_pairs_checked = true;
        return;
    }
    /* a new compute state whose pipeline uses one set: that set's memo may already hold the
     * exported accesses, its pairs judged clean (engines rotate many sets through one pipeline,
     * more than the states a command buffer recalls) */
    struct set_memo_key lone_key = {0};
    bool lone = descriptors_only && lone_set(ld, cb, b, &lone_key);
    if (lone && set_memo_exported_take(b->sets[lone_key.index], &lone_key, &scratch->memory)) {
        struct command_access_cache *cache = memos->access_cache;
        if (cache != NULL) { /* reused while the state stays bound, as if collected */
            exported_changed(cache);
            cache->exported.count = scratch->memory.count;
            memcpy(cache->exported.a, scratch->memory.a, scratch->memory.count * sizeof(scratch->memory.a[0]));
            cache->exported_only = true;
            cache->count = 0;
            out->memory = exported_for(cb, b, cache, dispatch); /* kept with them, for its next dispatch */
            out->memory_narrowed = true;
        }
        out->descriptor_pairs_checked = true;
        return;
    }
    struct collection c = {scratch->local, 0, COMMAND_MAX_ACCESSES};
    descriptors_of(ld, b, unchanged, descriptors_only, &c);
    out->descriptor_pairs_checked = unchanged;
    out->descriptors = c.count;
    /* fixed-function reads: vertex, index and indirect buffers */
    for (uint32_t i = 0; fixed != NULL && i < fixed->count; ++i) {
        struct command_access a = {.what = fixed->what[i], .read = true};
        if (buffer_range(ld, HANDLE(fixed->buffer[i]), fixed->offset[i], fixed->size[i], &a))
            add(&c, &a);
    }
    out->fixed_end = c.count;
    export_buffers(ld, cb, b, c.a, out->descriptors, out->fixed_end, &scratch->memory);
    /* attachments of the current rendering */
    for (uint32_t i = 0; i < cb->attachment_count && b == &cb->graphics; ++i) {
        const struct attachment_use *use = &cb->attachments[i];
        bool depth_writes = b->pipeline->depth_write_dynamic ? cb->depth_write_enable : b->pipeline->depth_write;
        struct command_access a = {.what = "attachment", .write = use->write && (!use->depth || depth_writes)};
        if (image_range(ld, HANDLE(use->view), &a))
            add(&c, &a);
    }
    out->a = c.a;
    out->count = c.count;
    out->lone = lone;
    out->lone_key = lone_key;
}

void command_accesses_keep(const struct bound_state *b, const struct command_accesses *acc)
{
    if (acc->count < CACHED_ACCESSES)
        set_memo_exported_store(b->sets[acc->lone_key.index], &acc->lone_key, acc->memory);
}

void command_fixed_read(struct command_fixed_reads *f, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
                        const char *what)
{
    if (buffer == VK_NULL_HANDLE || size == 0 || f->count >= MAX_VERTEX_BINDINGS + 2)
        return;
    f->buffer[f->count] = buffer;
    f->offset[f->count] = offset;
    f->size[f->count] = size;
    f->what[f->count] = what;
    f->count++;
}

void command_fixed_vertices(const struct command_buffer_state *cb, struct command_fixed_reads *f, uint32_t first,
                            uint32_t count)
{
    const struct pipeline_state *p = cb->graphics.pipeline;
    for (uint32_t i = 0; p != NULL && i < MAX_VERTEX_BINDINGS; ++i)
        if (p->vertex_strides[i] != 0 && cb->vertex_buffers[i] != VK_NULL_HANDLE)
            command_fixed_read(f, cb->vertex_buffers[i],
                               cb->vertex_offsets[i] + (VkDeviceSize)first * p->vertex_strides[i],
                               (VkDeviceSize)count * p->vertex_strides[i], "vertex buffer");
}

/* The noting itself, apart: the test before it is every dispatch's, and sharing this frame made
 * it save and restore six registers each time. */
__attribute__((noinline)) static void note_shader_writes_now(struct layer_device *ld, struct command_buffer_state *cb)
{
    const struct pipeline_state *p = cb->compute.pipeline;
    if (p == NULL || !p->reflected) {
        command_buffer_note_written(cb, UINT64_MAX); /* unknown: treat every buffer as possibly written */
        return;
    }
    uint32_t written_sets = 0;
    for (size_t i = 0; i < p->shader.binding_count; ++i)
        if (p->shader.bindings[i].written && p->shader.bindings[i].set < MAX_BOUND_SETS)
            written_sets |= 1u << p->shader.bindings[i].set;
    uint64_t epoch = __atomic_load_n(&ld->resource_epoch, __ATOMIC_ACQUIRE);
    for (uint32_t index = 0; written_sets != 0; ++index, written_sets >>= 1) {
        struct set_state *set = cb->compute.sets[index];
        if (!(written_sets & 1) || set == NULL)
            continue;
        struct set_memo_key key = {.pipeline_id = p->id, .epoch = epoch, .index = index, .recording = cb->recording};
        bool noted = false;
        if (set_memo_lock(set)) {
            noted = set_memo_key_equal(&set->writes_noted, &key);
            set_memo_unlock(set);
        }
        if (noted)
            continue;
        for (size_t i = 0; i < p->shader.binding_count; ++i) {
            const struct reflect_binding *rb = &p->shader.bindings[i];
            if (!rb->written || rb->set != index)
                continue;
            for (uint32_t b = 0; b < set->layout->binding_count; ++b) {
                const struct set_layout_binding *lb = &set->layout->bindings[b];
                if (lb->binding != rb->binding)
                    continue;
                for (uint32_t k = 0; k < lb->count; ++k)
                    command_buffer_note_written(cb, set->descriptors[lb->first + k].resource);
            }
        }
        if (set_memo_lock(set)) {
            set->writes_noted = key;
            set_memo_unlock(set);
        }
    }
}

void command_note_shader_writes(struct layer_device *ld, struct command_buffer_state *cb)
{
    if (!bound_key_unchanged(&bound_memos_of(&cb->compute)->writes_noted, &cb->compute, ld))
        note_shader_writes_now(ld, cb); /* else noted at an earlier command with the same bound state */
}
