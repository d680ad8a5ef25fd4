/* The spec's synchronization rules as a state machine over memory ranges (hazard_tracker.h).
 *
 * A later access B to memory an earlier access A touched needs:
 *   - A wrote, B reads (RAW): an execution dependency from A's stage to B's stage, and A's write
 *     made available (barrier src access) and visible to B's stage and access (dst access);
 *   - A wrote, B writes (WAW): an execution dependency from A's stage to B's stage;
 *   - A read, B writes (WAR): an execution dependency only;
 *   - both read: nothing.
 * Each tracked use remembers the stages ordered after it (execution dependencies chain through
 * later barriers) and, for a write, the stages and accesses it was made visible to. Stage masks
 * are expanded as the spec says (ALL_COMMANDS, ALL_GRAPHICS, TOP/BOTTOM_OF_PIPE per scope,
 * logically earlier/later stages, the sync2 transfer, vertex-input and pre-rasterization families). */
#include "hazard_tracker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_grow.h"

/* The graphics pipeline's stages in logical order (primitive and mesh shading folded into one
 * order: the folding only ever adds stages to a scope, never removes one). */
static const uint64_t graphics_order[] = {
    STAGE_DRAW_INDIRECT,
    HAZARD_STAGES_VERTEX_INPUT,
    STAGE_VERTEX_SHADER,
    STAGE_TESSELLATION_CONTROL_SHADER,
    STAGE_TESSELLATION_EVALUATION_SHADER,
    STAGE_GEOMETRY_SHADER,
    STAGE_TASK_SHADER,
    STAGE_MESH_SHADER,
    STAGE_FRAGMENT_SHADING_RATE_ATTACHMENT,
    STAGE_EARLY_FRAGMENT_TESTS,
    STAGE_FRAGMENT_SHADER,
    STAGE_LATE_FRAGMENT_TESTS,
    STAGE_COLOR_ATTACHMENT_OUTPUT,
};
#define GRAPHICS_ORDER_COUNT (sizeof(graphics_order) / sizeof(graphics_order[0]))

const struct hazard_memory_barrier hazard_all_memory = {.global = true, .src_access = ~0ull, .dst_access = ~0ull};

/* Meta stages and stage families as the stages they stand for (no logical ordering). */
static uint64_t named_stages(uint64_t mask)
{
    if (mask & STAGE_ALL_COMMANDS)
        return ~(STAGE_TOP_OF_PIPE | STAGE_BOTTOM_OF_PIPE);
    if (mask & STAGE_ALL_GRAPHICS)
        mask |= HAZARD_STAGES_ALL_GRAPHICS;
    if (mask & HAZARD_STAGES_TRANSFER)
        mask |= HAZARD_STAGES_TRANSFER;
    if (mask & HAZARD_STAGES_VERTEX_INPUT)
        mask |= HAZARD_STAGES_VERTEX_INPUT;
    if (mask & STAGE_PRE_RASTERIZATION_SHADERS)
        mask |= HAZARD_STAGES_PRE_RASTERIZATION;
    return mask;
}

/* A stage mask as an execution scope: `first` for a barrier's source, else its destination. */
static uint64_t expand_stages(uint64_t mask, bool first)
{
    /* BOTTOM_OF_PIPE in a first scope and TOP_OF_PIPE in a second are every stage; TOP_OF_PIPE in
     * a first scope and BOTTOM_OF_PIPE in a second are no stage at all (NONE) */
    if ((mask & STAGE_ALL_COMMANDS) || (first ? (mask & STAGE_BOTTOM_OF_PIPE) : (mask & STAGE_TOP_OF_PIPE)))
        return ~(STAGE_TOP_OF_PIPE | STAGE_BOTTOM_OF_PIPE);
    mask = named_stages(mask & ~(STAGE_TOP_OF_PIPE | STAGE_BOTTOM_OF_PIPE));
    /* logically earlier stages belong to a source scope, logically later ones to a destination:
     * everything before the latest graphics stage of a source, after the earliest of a destination */
    uint64_t expanded = mask, before = 0;
    for (size_t i = 0; (mask & HAZARD_STAGES_ALL_GRAPHICS) && i < GRAPHICS_ORDER_COUNT; ++i) {
        if (mask & graphics_order[i]) {
            if (first) {
                expanded |= before;
            } else {
                expanded |= HAZARD_STAGES_ALL_GRAPHICS & ~before & ~graphics_order[i];
                break;
            }
        }
        before |= graphics_order[i];
    }
    if (first && (mask & STAGE_COMPUTE_SHADER))
        expanded |= STAGE_DRAW_INDIRECT;
    if (!first && (mask & STAGE_DRAW_INDIRECT))
        expanded |= STAGE_COMPUTE_SHADER;
    return expanded;
}

struct hazard_scope hazard_scope_of(uint64_t mask, bool first)
{
    /* an access scope holds only the accesses of the stages named: TOP_OF_PIPE and BOTTOM_OF_PIPE
     * stand for no access, and logically earlier or later stages are ordered, not made visible */
    return (struct hazard_scope){expand_stages(mask, first),
                                 named_stages(mask & ~(STAGE_TOP_OF_PIPE | STAGE_BOTTOM_OF_PIPE))};
}

/* --- ranges and their hash index ----------------------------------------------------------- */

static bool rehash(struct hazard_tracker *t, uint32_t bucket_bits)
{
    uint32_t bucket_count = 1u << bucket_bits;
    uint32_t *buckets = calloc(bucket_count, sizeof(*buckets));
    if (buckets == NULL)
        return false;
    free(t->buckets);
    t->buckets = buckets;
    t->bucket_count = bucket_count;
    t->bucket_bits = bucket_bits;
    for (uint32_t i = 0; i < t->count; ++i) {
        uint32_t b = tracker_bucket_of(t, t->ranges[i].key);
        t->ranges[i].next = t->buckets[b];
        t->buckets[b] = i + 1;
    }
    return true;
}

void tracker_clear(struct hazard_tracker *t)
{
    t->count = 0;
    if (t->buckets != NULL)
        memset(t->buckets, 0, t->bucket_count * sizeof(*t->buckets));
    t->barrier_count = t->memory_count = t->entry_count = 0;
    t->repeat_at = 0;
    t->incomplete = false;
}

void tracker_release(struct hazard_tracker *t)
{
    free(t->ranges);
    free(t->buckets);
    free(t->barriers);
    free(t->memory);
    free(t->entries);
    memset(t, 0, sizeof(*t));
}

/* A new range of `key` at the end (linked into its bucket, nothing else set); NULL when out of
 * memory. */
static struct hazard_range *append_range(struct hazard_tracker *t, uint64_t key)
{
    struct hazard_range *grown =
        array_grow_aligned(t->ranges, &t->capacity, t->count + 1, sizeof(*grown), 32, HAZARD_RANGE_ALIGN);
    if (grown == NULL)
        return NULL;
    t->ranges = grown;
    if ((t->buckets == NULL || t->count >= t->bucket_count) && !rehash(t, t->bucket_count ? t->bucket_bits + 2 : 6))
        return NULL;
    struct hazard_range *r = &t->ranges[t->count++];
    uint32_t b = tracker_bucket_of(t, key);
    r->next = t->buckets[b];
    t->buckets[b] = t->count;
    return r;
}

struct hazard_range *tracker_find_or_add(struct hazard_tracker *t, const struct hazard_access *a)
{
    for (struct hazard_range *r = tracker_first(t, a->key); r != NULL; r = tracker_next(t, r, a->key))
        if (r->image == a->image && r->begin == a->begin && r->end == a->end && r->layer_begin == a->layer_begin &&
            r->layer_end == a->layer_end && (!a->image || r->area == a->area))
            return r;
    /* a second range of the key: the ranges of the key are no longer alone (check_hazard.c) */
    for (struct hazard_range *r = tracker_first(t, a->key); r != NULL; r = tracker_next(t, r, a->key))
        r->steady_run = 0;
    if (t->count == HAZARD_MAX_RANGES) {
        /* bounded memory: start over (forgetting can only hide a finding, never invent one) */
        t->count = 0;
        memset(t->buckets, 0, t->bucket_count * sizeof(*t->buckets));
    }
    struct hazard_range *r = append_range(t, a->key);
    if (r == NULL)
        return NULL;
    uint32_t next = r->next;
    memset(r, 0, sizeof(*r));
    r->next = next;
    r->image = a->image;
    r->key = a->key;
    r->begin = a->begin;
    r->end = a->end;
    r->layer_begin = a->layer_begin;
    r->layer_end = a->layer_end;
    r->resource = a->resource;
    r->area = a->area;
    r->applied = t->barrier_count;
    return r;
}

/* --- ranges a barrier or a write covers in part ------------------------------------------------ */

/* Bounds in the tracker's terms: bytes of a key, or mips x layers of an image. */
struct range_bounds {
    bool image;
    uint64_t key, begin, end;
    uint32_t layer_begin, layer_end;
};

static bool bounds_overlap(const struct range_bounds *m, const struct hazard_range *r)
{
    return m->image == r->image && m->key == r->key && m->begin < r->end && r->begin < m->end &&
           (!m->image || (m->layer_begin < r->layer_end && r->layer_begin < m->layer_end));
}

static bool bounds_contain(const struct range_bounds *m, const struct hazard_range *r)
{
    return m->begin <= r->begin && r->end <= m->end &&
           (!m->image || (m->layer_begin <= r->layer_begin && r->layer_end <= m->layer_end));
}

/* Splits the ranges `m` covers only in part into the part it covers and the parts it does not,
 * each keeping the range's uses: a barrier then applies to exactly the memory (or the mips and
 * layers) it names (one over a mip level orders nothing of another), and a write replaces the
 * uses of exactly the memory it writes. A range that cannot be split (no memory, the cap) stays
 * whole: a barrier is then applied to all of it (it can hide a finding, never make one). */
#define SPLIT_MAX 64
static void split_ranges(struct hazard_tracker *t, const struct range_bounds *m)
{
    uint32_t split[SPLIT_MAX], n = 0;
    for (struct hazard_range *r = tracker_first(t, m->key); r != NULL && n < SPLIT_MAX; r = tracker_next(t, r, m->key))
        if (bounds_overlap(m, r) && !bounds_contain(m, r))
            split[n++] = (uint32_t)(r - t->ranges);
    for (uint32_t k = 0; k < n; ++k) {
        struct hazard_range whole = t->ranges[split[k]];
        struct range_bounds in = {whole.image,
                                  whole.key,
                                  whole.begin > m->begin ? whole.begin : m->begin,
                                  whole.end < m->end ? whole.end : m->end,
                                  whole.layer_begin,
                                  whole.layer_end};
        if (m->image) {
            in.layer_begin = whole.layer_begin > m->layer_begin ? whole.layer_begin : m->layer_begin;
            in.layer_end = whole.layer_end < m->layer_end ? whole.layer_end : m->layer_end;
        }
        /* the parts outside: below and above in the first dimension, then beside in the layers */
        struct range_bounds parts[4];
        uint32_t count = 0;
        if (whole.begin < in.begin)
            parts[count++] = (struct range_bounds){
                .begin = whole.begin, .end = in.begin, .layer_begin = whole.layer_begin, .layer_end = whole.layer_end};
        if (in.end < whole.end)
            parts[count++] = (struct range_bounds){
                .begin = in.end, .end = whole.end, .layer_begin = whole.layer_begin, .layer_end = whole.layer_end};
        if (whole.layer_begin < in.layer_begin)
            parts[count++] = (struct range_bounds){
                .begin = in.begin, .end = in.end, .layer_begin = whole.layer_begin, .layer_end = in.layer_begin};
        if (in.layer_end < whole.layer_end)
            parts[count++] = (struct range_bounds){
                .begin = in.begin, .end = in.end, .layer_begin = in.layer_end, .layer_end = whole.layer_end};
        if (t->count + count > HAZARD_MAX_RANGES)
            return;
        for (uint32_t i = 0; i < count; ++i) {
            struct hazard_range *part = append_range(t, whole.key);
            if (part == NULL)
                return;
            uint32_t next = part->next;
            *part = whole;
            part->next = next;
            part->steady_run = 0;
            part->begin = parts[i].begin;
            part->end = parts[i].end;
            part->layer_begin = parts[i].layer_begin;
            part->layer_end = parts[i].layer_end;
        }
        struct hazard_range *inside = &t->ranges[split[k]];
        inside->steady_run = 0;
        inside->begin = in.begin;
        inside->end = in.end;
        inside->layer_begin = in.layer_begin;
        inside->layer_end = in.layer_end;
    }
}

struct hazard_range *tracker_supersede(struct hazard_tracker *t, struct hazard_range *written)
{
    struct hazard_range *other = tracker_first(t, written->key);
    while (other == written)
        other = tracker_next(t, other, written->key);
    if (other == NULL)
        return written; /* the key's only range: nothing to split or replace (an engine's loop) */
    uint32_t index = (uint32_t)(written - t->ranges);
    struct range_bounds m = {written->image, written->key,         written->begin,
                             written->end,   written->layer_begin, written->layer_end};
    split_ranges(t, &m);
    written = &t->ranges[index]; /* the array may have moved */
    /* an area-limited write (a copy region, a render area under render_area = pixels) replaces
     * only the uses of the same area */
    bool every_pixel =
        !written->image || (written->area & ~IMAGE_AREA_WHOLE_MEMORY) == 0 || (written->area & IMAGE_AREA_WHOLE_MEMORY);
    for (struct hazard_range *r = tracker_first(t, m.key); r != NULL; r = tracker_next(t, r, m.key)) {
        if (r == written || !bounds_contain(&m, r) || r->image != m.image || !(every_pixel || r->area == written->area))
            continue;
        r->applied = written->applied;
        r->written_here |= written->written_here;
        tracker_record(r, &written->write, true);
    }
    return written;
}

/* --- the barrier log ------------------------------------------------------------------------ */

bool tracker_room_for_barrier(struct hazard_tracker *t)
{
    if (t->barrier_count == HAZARD_MAX_LOGGED_BARRIERS)
        return false;
    struct hazard_logged_barrier *barriers =
        array_grow(t->barriers, &t->barrier_capacity, t->barrier_count + 1, sizeof(*barriers), 64);
    if (barriers == NULL)
        return false;
    t->barriers = barriers;
    return true;
}

/* Field by field: the structs' padding is not necessarily zero. */
static bool same_memory_barrier(const struct hazard_memory_barrier *x, const struct hazard_memory_barrier *y)
{
    return x->global == y->global && x->image == y->image && x->key == y->key && x->begin == y->begin &&
           x->end == y->end && x->layer_begin == y->layer_begin && x->layer_end == y->layer_end &&
           x->src_access == y->src_access && x->dst_access == y->dst_access &&
           x->ownership_transfer == y->ownership_transfer;
}

bool tracker_log_barrier(struct hazard_tracker *t, struct hazard_scope src_scope, struct hazard_scope dst_scope,
                         const struct hazard_memory_barrier *m, uint32_t count)
{
    uint64_t src = src_scope.exec, dst = dst_scope.exec;
    if (!tracker_room_for_barrier(t))
        return false;
    for (uint32_t i = 0; i < count; ++i)
        if (!m[i].global && t->count != 0)
            split_ranges(t, &(struct range_bounds){m[i].image, m[i].key, m[i].begin, m[i].end, m[i].layer_begin,
                                                   m[i].layer_end});
    /* engines emit the same barrier over and over: compared once here, not at every catch-up, and
     * a repeat shares the memory barriers of the one before it */
    const struct hazard_logged_barrier *last = t->barrier_count ? &t->barriers[t->barrier_count - 1] : NULL;
    bool repeats = last != NULL && last->src == src && last->dst == dst && last->src_access == src_scope.access &&
                   last->dst_access == dst_scope.access && last->count == count;
    for (uint32_t i = 0; repeats && i < count; ++i)
        repeats = same_memory_barrier(&t->memory[last->first + i], &m[i]);
    if (repeats) {
        tracker_append_repeat(t);
        return true;
    }
    if (count > 0) { /* an execution-only barrier has no memory barriers to keep */
        struct hazard_memory_barrier *memory =
            array_grow(t->memory, &t->memory_capacity, t->memory_count + count, sizeof(*memory), 64);
        if (memory == NULL)
            return false;
        t->memory = memory;
        memcpy(&t->memory[t->memory_count], m, count * sizeof(*m));
    }
    t->barriers[t->barrier_count] = (struct hazard_logged_barrier){
        src, dst, src_scope.access, dst_scope.access, t->memory_count, count, false, t->barrier_count};
    t->barrier_count++;
    t->memory_count += count;
    return true;
}

/* Whether memory barrier `m` applies to `r` (split_ranges left no range it covers in part). */
static bool barrier_covers(const struct hazard_memory_barrier *m, const struct hazard_range *r)
{
    if (m->global)
        return !m->image;
    return m->image == r->image && m->key == r->key && m->begin < r->end && r->begin < m->end &&
           (!m->image || (m->layer_begin < r->layer_end && r->layer_begin < m->layer_end));
}

static void order_use(struct hazard_use *u, uint64_t src, uint64_t dst)
{
    if ((u->stages | u->ordered_stages) & src)
        u->ordered_stages |= dst;
}

/* A folded read (HAZARD_MAX_READS) is several: ordered when all of its stages are in the first
 * scope, or through a stage every one of them was ordered before. */
static void order_read(struct hazard_use *u, uint64_t src, uint64_t dst)
{
    if (!u->folded)
        order_use(u, src, dst);
    else if ((u->stages & ~src) == 0 || (u->ordered_stages & src))
        u->ordered_stages |= dst;
}

static void apply(struct hazard_range *r, const struct hazard_logged_barrier *b, const struct hazard_memory_barrier *m)
{
    for (uint32_t k = 0; k < r->read_count; ++k)
        order_read(&r->reads[k], b->src, b->dst);
    if (!r->has_write)
        return;
    struct hazard_use *w = &r->write;
    bool in_first_scope = ((w->stages | w->ordered_stages) & b->src) != 0;
    /* an availability operation already ordered before this barrier's first scope */
    bool was_available = (w->available_stages & b->src) != 0;
    bool made_available = false;
    for (uint32_t i = 0; in_first_scope && i < b->count; ++i) {
        if (!barrier_covers(&m[i], r))
            continue;
        /* made available here when the first access scope holds the write (its stage named, its
         * access in the source access mask); then this memory barrier makes it visible to the
         * accesses of its destination access scope: the stages named there, not logically later ones */
        bool here = (m[i].src_access & w->access) && (w->stages & b->src_access);
        made_available = made_available || here;
        if (here || was_available) {
            w->visible_stages |= b->dst_access;
            w->visible_access |= m[i].dst_access;
        }
    }
    if (made_available || was_available)
        w->available_stages |= b->dst;
    order_use(w, b->src, b->dst);
}

void tracker_apply_log(struct hazard_tracker *t, struct hazard_range *r, uint32_t limit)
{
    r->steady_run = 0; /* its uses change: the steady path must look at them again */
    if (t->barriers[limit - 1].run_start <= r->applied) {
        /* one barrier repeated since the range was last brought up to date: applied once */
        const struct hazard_logged_barrier *b = &t->barriers[r->applied];
        apply(r, b, &t->memory[b->first]);
        r->applied = limit;
        return;
    }
    for (uint32_t i = r->applied; i < limit; ++i) {
        const struct hazard_logged_barrier *b = &t->barriers[i];
        if (i > r->applied && b->repeats) /* the previous one was just applied */
            continue;
        apply(r, b, &t->memory[b->first]);
    }
    if (limit > r->applied)
        r->applied = limit;
}

bool tracker_append_log(struct hazard_tracker *to, const struct hazard_tracker *from, uint32_t *positions)
{
    /* nothing of `to` changes between two of `from`'s barriers here, so a repeat changes nothing */
    for (uint32_t i = 0; i < from->barrier_count; ++i) {
        positions[i] = to->barrier_count;
        const struct hazard_logged_barrier *b = &from->barriers[i];
        if (i > 0 && b->repeats)
            continue;
        if (!tracker_log_barrier(to, (struct hazard_scope){b->src, b->src_access},
                                 (struct hazard_scope){b->dst, b->dst_access}, &from->memory[b->first], b->count))
            return false;
    }
    positions[from->barrier_count] = to->barrier_count;
    return true;
}

void tracker_merge(struct hazard_tracker *to, const struct hazard_tracker *from, uint64_t submission)
{
    for (uint32_t i = 0; i < from->count; ++i) {
        const struct hazard_range *src = &from->ranges[i];
        if (!src->has_write && src->read_count == 0)
            continue;
        struct hazard_access a = {.image = src->image,
                                  .key = src->key,
                                  .begin = src->begin,
                                  .end = src->end,
                                  .layer_begin = src->layer_begin,
                                  .layer_end = src->layer_end,
                                  .resource = src->resource,
                                  .area = src->area};
        struct hazard_range *r = tracker_find_or_add(to, &a);
        if (r == NULL)
            continue;
        tracker_catch_up(to, r, to->barrier_count);
        if (src->has_write) {
            struct hazard_use w = src->write;
            w.submission = submission;
            tracker_record(r, &w, true);
            r = tracker_supersede(to, r);
        }
        for (uint32_t k = 0; k < src->read_count; ++k) {
            struct hazard_use u = src->reads[k];
            u.submission = submission;
            tracker_record(r, &u, false);
        }
    }
}

/* --- conflicts -------------------------------------------------------------------------------- */

void tracker_record(struct hazard_range *r, const struct hazard_use *use, bool write)
{
    r->steady_run = 0;
    if (write) {
        r->has_write = true;
        r->write = *use;
        r->read_count = 0;
        return;
    }
    /* a newer read with the same stages replaces the older: a barrier after it covers both (a
     * folded slot stays folded) */
    for (uint32_t k = 0; k < r->read_count; ++k) {
        if (r->reads[k].stages == use->stages) {
            bool folded = r->reads[k].folded;
            r->reads[k] = *use;
            r->reads[k].folded |= folded;
            return;
        }
    }
    if (r->read_count < HAZARD_MAX_READS) {
        r->reads[r->read_count++] = *use;
        return;
    }
    struct hazard_use *last = &r->reads[HAZARD_MAX_READS - 1];
    uint64_t stages = last->stages | use->stages, ordered = last->ordered_stages & use->ordered_stages;
    *last = *use;
    last->stages = stages;
    last->ordered_stages = ordered;
    last->folded = true;
}

void tracker_record_now(struct hazard_range *r, const struct hazard_access *a, uint32_t command_index, const char *call,
                        uint64_t command_buffer, const char *labels)
{
    struct hazard_use *u = NULL;
    bool folded = false; /* a replaced folded read slot stays folded */
    r->steady_run = 0;
    if (a->write) {
        r->has_write = true;
        r->read_count = 0;
        u = &r->write;
    } else {
        for (uint32_t k = 0; k < r->read_count && u == NULL; ++k)
            if (r->reads[k].stages == a->stages) {
                u = &r->reads[k];
                folded = u->folded;
            }
        if (u == NULL && r->read_count < HAZARD_MAX_READS)
            u = &r->reads[r->read_count++];
    }
    if (u != NULL) {
        hazard_use_set_now(u, a->stages, a->access, command_index, call, command_buffer, labels);
        u->folded = folded;
        return;
    }
    /* every read slot holds other stages: folded as tracker_record folds */
    struct hazard_use use = hazard_use_now(a->stages, a->access, command_index, call, command_buffer, labels);
    tracker_record(r, &use, false);
}

/* A use by the command being checked, or by one recorded after the index it is checked at: a
 * rendering's store and resolve operations are checked at its first command and happen after
 * every command of the rendering (the spec orders them after the last subpass's commands). */
static bool same_command(const struct hazard_use *u, uint64_t cb, uint32_t command)
{
    return u->command_buffer == cb && u->command_index >= command;
}

bool hazard_conflict(const struct hazard_access *a, const struct hazard_range *r, uint64_t skip_cb,
                     uint32_t skip_command, bool strict_waw, struct hazard_conflict *out)
{
    if (!hazard_overlaps(a, r))
        return false;
    if (r->has_write && !same_command(&r->write, skip_cb, skip_command)) {
        const struct hazard_use *w = &r->write;
        bool ordered = (w->ordered_stages & a->stages) != 0;
        bool visible = (w->visible_stages & a->stages) && (w->visible_access & a->access);
        if (a->read && !visible) {
            *out = (struct hazard_conflict){CHECK_HAZARD_READ_AFTER_WRITE, w, true,
                                            ordered ? "a memory dependency that makes the write visible to this access"
                                                    : "a barrier ordering the write before this access"};
            return true;
        }
        /* two writes: the memory model orders them when the first was made available and happens
         * before the second (location order); the second need not be in a destination access
         * scope (that stricter reading, Vulkan-ValidationLayers', is the strict_waw setting). Reads
         * since the first write are checked instead when there are any (they were ordered after it,
         * or were reported) */
        bool available = (w->available_stages & a->stages) != 0;
        if (a->write && r->read_count == 0 && !(strict_waw ? visible : ordered && available)) {
            *out = (struct hazard_conflict){
                CHECK_HAZARD_WRITE_AFTER_WRITE, w, true,
                !ordered     ? "a barrier ordering the first write before the second"
                : strict_waw ? "a memory dependency that makes the first write available (srcAccessMask) and "
                               "includes the second (dstAccessMask; setting write_after_write = visible)"
                             : "a memory dependency that makes the first write available (its stage in "
                               "srcStageMask, its access in srcAccessMask)"};
            return true;
        }
    }
    for (uint32_t k = 0; a->write && k < r->read_count; ++k) {
        const struct hazard_use *u = &r->reads[k];
        if (!same_command(u, skip_cb, skip_command) && !(u->ordered_stages & a->stages)) {
            *out = (struct hazard_conflict){CHECK_HAZARD_WRITE_AFTER_READ, u, false,
                                            "an execution dependency ordering the read before the write"};
            return true;
        }
    }
    return false;
}

bool hazard_transition_conflict(const struct hazard_range *r, struct hazard_scope src, uint64_t src_access,
                                uint64_t skip_cb, uint32_t skip_command, struct hazard_conflict *out)
{
    /* earlier accesses must be in the barrier's first scope: the transition writes right after it;
     * an earlier write must also be available to it, or it may land on the transitioned image.
     * Layout transitions on one queue are ordered among themselves in submission order (render
     * passes' too) and need no availability from one another. */
    const struct hazard_use *w = &r->write;
    if (r->has_write && r->read_count == 0 && !w->transition &&
        !same_command(w, skip_cb, skip_command)) { /* else: the reads */
        if (!((w->stages | w->ordered_stages) & src.exec)) {
            *out = (struct hazard_conflict){CHECK_HAZARD_WRITE_AFTER_WRITE, w, true,
                                            "the layout transition's source stages do not include the earlier write"};
            return true;
        }
        /* in this barrier's first access scope, or made available by an earlier dependency that
         * this barrier's first scope chains to */
        if (!(w->available_stages & src.exec) && !((src_access & w->access) && (w->stages & src.access))) {
            *out = (struct hazard_conflict){CHECK_HAZARD_WRITE_AFTER_WRITE, w, true,
                                            "the layout transition's source access scope (srcStageMask and "
                                            "srcAccessMask) does not include the earlier write, and no dependency "
                                            "chained to it made the write available"};
            return true;
        }
    }
    for (uint32_t k = 0; k < r->read_count; ++k) {
        if (!((r->reads[k].stages | r->reads[k].ordered_stages) & src.exec)) {
            *out = (struct hazard_conflict){CHECK_HAZARD_WRITE_AFTER_READ, &r->reads[k], false,
                                            "the layout transition's source stages do not include the earlier read"};
            return true;
        }
    }
    return false;
}

struct hazard_range *tracker_entry_conflict(struct hazard_tracker *t, const struct hazard_entry *e, uint32_t limit,
                                            struct hazard_range *after, struct hazard_conflict *out)
{
    uint64_t key = e->access.key;
    for (struct hazard_range *r = after ? tracker_next(t, after, key) : tracker_first(t, key); r != NULL;
         r = tracker_next(t, r, key)) {
        if (!hazard_overlaps(&e->access, r))
            continue;
        tracker_catch_up(t, r, limit);
        bool found = e->transition
                         ? hazard_transition_conflict(r, (struct hazard_scope){e->access.stages, e->src_access_stages},
                                                      e->src_access, 0, UINT32_MAX, out)
                         : hazard_conflict(&e->access, r, 0, UINT32_MAX, t->strict_waw, out);
        if (found)
            return r;
    }
    return NULL;
}
