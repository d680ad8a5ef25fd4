/* Area `hazard` at record time: the accesses and barriers of one command buffer, in the tracker
 * of hazard_tracker.h. Besides checking each access against the command buffer's earlier ones, it
 * keeps what submit time needs (check_hazard_submit.c): the log of barriers, and the entry
 * accesses that may meet work recorded earlier in other command buffers. Secondary command
 * buffers are merged into their primary the same way (hazard_execute).
 *
 * Where the layer does not know the synchronization (a render pass it did not see created) it
 * records a full barrier, assuming the application right: a missed bug costs less than a false
 * finding. */
#include "check_hazard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_grow.h"
#include "findings.h"
#include "check_hazard_report.h"
#include "hazard_tracker.h"
#include "state_command_buffers.h"
#include "state_device.h"

static struct hazard_tracker *tracker_of(struct command_buffer_state *cb, bool create)
{
    if (cb->hazards == NULL && create) {
        cb->hazards = calloc(1, sizeof(struct hazard_tracker));
        if (cb->hazards != NULL && cb->device != NULL)
            cb->hazards->strict_waw = cb->device->instance->settings.write_after_write_visible;
    }
    return cb->hazards;
}

/* Keeps the tracker's memory for the next recording (engines reset and re-record the same command
 * buffers every frame, and growing the log again each time costs more than the checks), unless one
 * recording grew it large: past 256 ranges or 16384 logged barriers (about 0.8 MB). */
#define KEPT_RANGES 256
#define KEPT_BARRIERS 16384
void hazard_reset(struct command_buffer_state *cb)
{
    struct hazard_tracker *t = tracker_of(cb, false);
    if (t == NULL)
        return;
    if (t->capacity > KEPT_RANGES || t->barrier_capacity > KEPT_BARRIERS)
        hazard_free(cb);
    else
        tracker_clear(t);
}

void hazard_free(struct command_buffer_state *cb)
{
    struct hazard_tracker *t = tracker_of(cb, false);
    if (t != NULL) {
        tracker_release(t);
        free(t);
        cb->hazards = NULL;
    }
}

static void log_barrier(struct hazard_tracker *t, struct hazard_scope src, struct hazard_scope dst,
                        const struct hazard_memory_barrier *m, uint32_t count)
{
    if (!tracker_log_barrier(t, src, dst, m, count)) {
        /* past the cap: forget, so that nothing stays unordered by a barrier the log lost */
        tracker_clear(t);
        t->incomplete = true;
    }
}

void hazard_forget(struct command_buffer_state *cb)
{
    struct hazard_tracker *t = tracker_of(cb, true);
    if (t == NULL)
        return;
    const struct hazard_scope all = {~0ull, ~0ull};
    log_barrier(t, all, all, &hazard_all_memory, 1);
}

void hazard_barrier(struct command_buffer_state *cb, uint64_t src_stages, uint64_t dst_stages,
                    const struct hazard_memory_barrier *barriers, uint32_t count)
{
    /* logged even before the first access: submit time applies it to earlier command buffers' work */
    struct hazard_tracker *t = tracker_of(cb, true);
    if (t == NULL)
        return;
    if (src_stages != t->raw_src || dst_stages != t->raw_dst) { /* barriers mostly repeat their masks */
        t->raw_src = src_stages;
        t->raw_dst = dst_stages;
        t->expanded_src = hazard_scope_of(src_stages, true);
        t->expanded_dst = hazard_scope_of(dst_stages, false);
    }
    log_barrier(t, t->expanded_src, t->expanded_dst, barriers, count);
    bool repeatable = count == 1 && barriers[0].global && !barriers[0].image;
    t->repeat_at = repeatable ? t->barrier_count : 0;
    t->repeat_src_access = repeatable ? barriers[0].src_access : 0;
    t->repeat_dst_access = repeatable ? barriers[0].dst_access : 0;
}

bool hazard_repeat_global_barrier(struct command_buffer_state *cb, uint64_t src_stages, uint64_t dst_stages,
                                  uint64_t src_access, uint64_t dst_access)
{
    struct hazard_tracker *t = cb->hazards;
    if (t == NULL || t->repeat_at == 0 || t->repeat_at != t->barrier_count || src_stages != t->raw_src ||
        dst_stages != t->raw_dst || src_access != t->repeat_src_access || dst_access != t->repeat_dst_access)
        return false;
    if (tracker_log_repeat(t)) {
        t->repeat_at = t->barrier_count;
        return true;
    }
    /* at the cap: log_barrier starts over, and the barrier is logged anew */
    struct hazard_memory_barrier m = t->memory[t->barriers[t->barrier_count - 1].first];
    log_barrier(t, t->expanded_src, t->expanded_dst, &m, 1);
    t->repeat_at = 0;
    return true;
}

/* Whether add_entry would keep nothing of an access to `r` (the common case, tested before the
 * entry is built): a write of this command buffer came first, or a read by the same stages, which
 * met what this one meets or less ordering. */
static inline bool entry_redundant(const struct hazard_range *r, bool writes, uint64_t stages)
{
    return r != NULL && (r->written_here || (!writes && (stages & ~r->entry_read_stages) == 0));
}

/* Remembers an entry access for submit time, unless an equivalent one is already there. */
static void add_entry(struct hazard_tracker *t, struct hazard_range *r, const struct hazard_entry *e)
{
    bool writes = e->access.write || e->transition;
    if (entry_redundant(r, writes, e->access.stages))
        return;
    if (r != NULL && writes)
        r->written_here = true;
    else if (r != NULL)
        r->entry_read_stages |= e->access.stages;
    if (t->incomplete)
        return;
    struct hazard_entry *grown =
        t->entry_count < HAZARD_MAX_RANGES * 4
            ? array_grow(t->entries, &t->entry_capacity, t->entry_count + 1, sizeof(*grown), 32)
            : NULL;
    if (grown == NULL) {
        t->incomplete = true;
        return;
    }
    t->entries = grown;
    t->entries[t->entry_count++] = *e;
}

void hazard_command(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_accesses *accesses,
                    const char *call)
{
    hazard_command_at(ld, cb, accesses, call, cb->command_index);
}

/* Engines repeat one shape: the same accesses, dispatch after dispatch, with the same barrier
 * between them. Once the range of such an access was found to hold just the use the access itself
 * leaves (no barrier applied to it yet), to meet nothing after one run of the barrier and to be
 * left as it was, meeting it again after more of the same run gives the same answer and the same
 * state: only the use's command changes (steady_run, the fast path below). */

/* The use an access like `a` would have left alone in `r` (its write, or its one read), when `r`
 * holds just that and it has `a`'s stages and access; else NULL. */
static inline const struct hazard_use *lone_use_like(const struct hazard_range *r, const struct hazard_access *a)
{
    const struct hazard_use *u;
    if (a->write && r->has_write && r->read_count == 0)
        u = &r->write;
    else if (!a->write && !r->has_write && r->read_count == 1)
        u = &r->reads[0];
    else
        return NULL;
    return u->stages == a->stages && u->access == a->access ? u : NULL;
}

/* Whether `r` holds only the use that recording `a` leaves, no barrier applied to it since. */
static inline bool holds_only_fresh_use(const struct hazard_range *r, const struct hazard_access *a)
{
    const struct hazard_use *u = lone_use_like(r, a);
    return u != NULL && u->ordered_stages == 0 && u->visible_stages == 0 && u->visible_access == 0 &&
           u->available_stages == 0 && u->named_stages == 0 && !u->transition && u->submission == 0;
}

/* Whether the use of a steady range (steady_run set: its use is as recording left it) is the
 * one `a` leaves: the steady path's test, which reads only the use's first cache line. */
static inline bool steady_use_of(const struct hazard_range *r, const struct hazard_access *a)
{
    return lone_use_like(r, a) != NULL;
}

/* 1 + the barrier run that every barrier logged since `r` was brought up to date belongs to; 0
 * when none was logged or they are not one run. */
static inline uint32_t pending_run(const struct hazard_tracker *t, const struct hazard_range *r)
{
    if (r->applied >= t->barrier_count)
        return 0;
    uint32_t run = t->barriers[t->barrier_count - 1].run_start;
    return run <= r->applied ? run + 1 : 0;
}

static inline bool same_bounds(const struct hazard_range *r, const struct hazard_access *a)
{
    return r->begin == a->begin && r->end == a->end && r->layer_begin == a->layer_begin &&
           r->layer_end == a->layer_end &&
           (!a->image || r->area == a->area); /* image and key: equal when found by key */
}

/* Up to this many accesses, a command may take the fast path. */
#define STEADY_MAX_ACCESSES 8

/* Whether no two accesses of the command have the same key (then none needs another's range,
 * and an access may settle); not worked out for long lists. */
static bool keys_distinct(const struct hazard_accesses *accesses)
{
    if (accesses->count > STEADY_MAX_ACCESSES)
        return false;
    for (uint32_t i = 1; i < accesses->count; ++i)
        for (uint32_t k = 0; k < i; ++k)
            if (accesses->a[i].key == accesses->a[k].key)
                return false;
    return true;
}

/* The fast path: when every access of the command (no two of the same key) meets its settled
 * range again behind more of the run it settled in, each use's command is updated as recording
 * would leave it and true is returned; else nothing changed (the full path takes the command). */
static bool command_steady(struct hazard_tracker *t, const struct hazard_accesses *accesses, uint32_t command_index,
                           const char *call, uint64_t handle, const char *labels)
{
    if (accesses->count > STEADY_MAX_ACCESSES)
        return false;
    struct hazard_range *ranges[STEADY_MAX_ACCESSES];
    for (uint32_t i = 0; i < accesses->count; ++i) {
        const struct hazard_access *a = &accesses->a[i];
        for (uint32_t k = 0; k < i; ++k)
            if (accesses->a[k].key == a->key)
                return false;
        struct hazard_range *r = tracker_first(t, a->key);
        if (r == NULL || r->steady_run == 0 || r->steady_run != pending_run(t, r) || r->steady_read != a->read ||
            !same_bounds(r, a) || !steady_use_of(r, a) || !entry_redundant(r, a->write, a->stages))
            return false;
        ranges[i] = r;
    }
    for (uint32_t i = 0; i < accesses->count; ++i) {
        /* as tracker_record_now would leave it, the barriers since applied: only the command changes */
        struct hazard_range *r = ranges[i];
        struct hazard_use *u = accesses->a[i].write ? &r->write : &r->reads[0];
        u->command_index = command_index;
        u->call = call;
        u->command_buffer = handle;
        u->labels = labels;
        r->applied = t->barrier_count;
    }
    return true;
}

void hazard_command_at(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_accesses *accesses,
                       const char *call, uint32_t command_index)
{
    if (accesses->count == 0)
        return;
    struct hazard_tracker *t = tracker_of(cb, true);
    if (t == NULL)
        return;
    uint64_t handle = HANDLE((uintptr_t)cb->handle);
    if (command_steady(t, accesses, command_index, call, handle, cb->label_path))
        return;
    const bool distinct = keys_distinct(accesses);
    /* first every access against the earlier commands (a command's accesses do not order each
     * other: recording one before checking the next would hide the earlier command's use), noting
     * each access's own range on the way; then record them */
    uint32_t exact[HAZARD_MAX_ACCESSES];
    uint32_t steady[HAZARD_MAX_ACCESSES]; /* the steady_run the range gets once recorded */
    bool repeated[HAZARD_MAX_ACCESSES];
    for (uint32_t i = 0; i < accesses->count; ++i) {
        const struct hazard_access *a = &accesses->a[i];
        exact[i] = steady[i] = 0;
        repeated[i] = false;
        /* the same access twice in one command (one buffer in two bindings): checked once */
        for (uint32_t k = 0; !distinct && k < i && !repeated[i]; ++k)
            repeated[i] = hazard_same_access(a, &accesses->a[k]);
        if (repeated[i])
            continue;
        uint32_t with_key = 0, run = 0;
        bool settles = distinct;
        struct hazard_reported last = {0};
        for (struct hazard_range *r = tracker_first(t, a->key); r != NULL; r = tracker_next(t, r, a->key)) {
            with_key++;
            if (!hazard_overlaps(a, r))
                continue;
            bool exactly = same_bounds(r, a);
            if (exactly && settles) {
                run = pending_run(t, r);
                settles = run != 0 && holds_only_fresh_use(r, a);
            }
            tracker_catch_up(t, r, t->barrier_count);
            struct hazard_conflict c;
            if (hazard_may_conflict(a, r, t->strict_waw)) {
                settles = false;
                if (hazard_conflict(a, r, handle, command_index, t->strict_waw, &c) &&
                    !hazard_reported_before(&last, &c))
                    hazard_report(ld, cb, command_index, call, a, r, &c, "");
            }
            if (exactly)
                exact[i] = (uint32_t)(r - t->ranges) + 1;
        }
        if (settles && with_key == 1 && exact[i] != 0)
            steady[i] = run;
    }
    /* ranges are only ever added (or all dropped when the tracker starts over): while the count is
     * unchanged, the indices noted above still name the same ranges */
    const uint32_t checked_count = t->count;
    for (uint32_t i = 0; i < accesses->count; ++i) {
        const struct hazard_access *a = &accesses->a[i];
        if (repeated[i])
            continue;
        bool noted = exact[i] != 0 && t->count == checked_count;
        struct hazard_range *r = noted ? &t->ranges[exact[i] - 1] : tracker_find_or_add(t, a);
        if (r == NULL)
            continue;
        bool redundant = entry_redundant(r, a->write, a->stages);
        if (!redundant) {
            struct hazard_entry e = {
                .access = *a, .command_index = command_index, .call = call, .barrier_index = t->barrier_count};
            add_entry(t, r, &e);
        }
        tracker_record_now(r, a, command_index, call, handle, cb->label_path);
        if (a->write && t->count > 1)
            r = tracker_supersede(t, r);
        if (redundant && noted) {
            r->steady_run = steady[i];
            r->steady_read = a->read;
        }
    }
}

void hazard_image_transition(struct layer_device *ld, struct command_buffer_state *cb, uint64_t src_stages,
                             uint64_t dst_stages, const struct hazard_memory_barrier *barrier, const char *call)
{
    struct hazard_tracker *t = tracker_of(cb, true);
    if (t == NULL)
        return;
    struct hazard_scope src = hazard_scope_of(src_stages, true), dst = hazard_scope_of(dst_stages, false);
    uint64_t handle = HANDLE((uintptr_t)cb->handle);
    struct hazard_access transition = {.image = true,
                                       .key = barrier->key,
                                       .begin = barrier->begin,
                                       .end = barrier->end,
                                       .layer_begin = barrier->layer_begin,
                                       .layer_end = barrier->layer_end,
                                       .resource = barrier->key,
                                       .write = true,
                                       .stages = src.exec,
                                       .access = ~0ull};
    /* the barrier itself is in the log already: earlier accesses are checked against the state
     * before it, so catch up to the entry before the last */
    uint32_t before = t->barrier_count ? t->barrier_count - 1 : 0;
    struct hazard_reported last = {0};
    for (struct hazard_range *r = tracker_first(t, barrier->key); r != NULL; r = tracker_next(t, r, barrier->key)) {
        if (!hazard_overlaps(&transition, r))
            continue;
        tracker_catch_up(t, r, before);
        struct hazard_conflict c;
        if (r->applied <= before &&
            hazard_transition_conflict(r, src, barrier->src_access, handle, cb->command_index, &c) &&
            !hazard_reported_before(&last, &c))
            hazard_report(ld, cb, cb->command_index, call, &transition, r, &c, "");
    }
    /* then the transition is the last write, ordered before the second scope and visible to its
     * access scope */
    struct hazard_use use = hazard_use_now(src.exec, ~0ull, cb->command_index, call, handle, cb->label_path);
    use.ordered_stages = dst.exec;
    use.visible_stages = dst.access;
    use.visible_access = barrier->dst_access;
    use.available_stages = dst.exec;
    use.named_stages = src_stages ? src_stages : VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
    use.transition = true;
    struct hazard_range *exact = tracker_find_or_add(t, &transition);
    struct hazard_entry e = {.access = transition,
                             .command_index = cb->command_index,
                             .call = call,
                             .barrier_index = before,
                             .transition = true,
                             .ownership_transfer = barrier->ownership_transfer,
                             .src_access = barrier->src_access,
                             .src_access_stages = src.access,
                             .dst_stages = dst.exec,
                             .dst_access = barrier->dst_access};
    add_entry(t, exact, &e);
    if (exact == NULL)
        return;
    /* the transition is the last write of every subresource it names: the ranges it covers in
     * part are split first, the parts inside rewritten */
    exact->applied = t->barrier_count; /* the transition's own barrier is in `use` already */
    exact->written_here = true;
    tracker_record(exact, &use, true);
    tracker_supersede(t, exact);
}

/* The earlier use's command buffer, when it is not the one reporting (a secondary merged in). */
static void use_context(struct layer_device *ld, const struct hazard_use *u, uint64_t reporting, char *out, size_t size)
{
    char text[128];
    if (u->command_buffer == reporting)
        out[0] = 0;
    else
        snprintf(out, size, " of %s",
                 finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, u->command_buffer, text, sizeof(text)));
}

void hazard_execute(struct layer_device *ld, struct command_buffer_state *primary,
                    const struct command_buffer_state *secondary)
{
    const struct hazard_tracker *from = secondary->hazards;
    struct hazard_tracker *t = tracker_of(primary, true);
    if (from == NULL || t == NULL)
        return;
    uint64_t handle = HANDLE((uintptr_t)primary->handle), secondary_handle = HANDLE((uintptr_t)secondary->handle);
    uint32_t *positions = malloc((from->barrier_count + 1) * sizeof(*positions));
    if (positions == NULL || from->incomplete || !tracker_append_log(t, from, positions)) {
        /* the secondary's log or entries were cut short: assume it synchronizes right */
        free(positions);
        hazard_forget(primary);
        tracker_merge(t, from, 0);
        return;
    }
    for (uint32_t i = 0; i < from->entry_count; ++i) {
        const struct hazard_entry *e = &from->entries[i];
        uint32_t limit = positions[e->barrier_index];
        char call[160], text[128];
        snprintf(call, sizeof(call), "%s of secondary %s", e->call,
                 finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, secondary_handle, text, sizeof(text)));
        struct hazard_conflict c;
        struct hazard_reported last = {0};
        for (struct hazard_range *r = NULL; (r = tracker_entry_conflict(t, e, limit, r, &c)) != NULL;) {
            if (hazard_reported_before(&last, &c))
                continue;
            char context[160];
            use_context(ld, c.before, handle, context, sizeof(context));
            hazard_report(ld, primary, e->command_index, call, &e->access, r, &c, context);
        }
        /* and it is an entry access of the primary too, for submit time */
        struct hazard_range *r = tracker_find_or_add(t, &e->access);
        struct hazard_entry moved = *e;
        moved.barrier_index = limit;
        add_entry(t, r, &moved);
    }
    free(positions);
    tracker_merge(t, from, 0);
}

void hazard_end(struct command_buffer_state *cb)
{
    struct hazard_tracker *t = tracker_of(cb, false);
    for (uint32_t i = 0; t != NULL && i < t->count; ++i)
        tracker_catch_up(t, &t->ranges[i], t->barrier_count);
}
