/* Area `hazard` at submit time.
 *
 * Each queue has a tracker (hazard_tracker.h) holding the uses of the work submitted to it that
 * is not known complete. A submitted command buffer brings its barrier log and its entry accesses
 * (every access to a range up to its own first write there, check_hazard.c): the log is appended
 * to the queue's, each entry is checked against the queue's uses as they stand after the
 * command buffer's barriers before it, and then the command buffer's final state per range
 * replaces or joins the queue's. Submission order gives execution order on one queue but no
 * memory dependency, so a write in one command buffer and a read in the next need a barrier,
 * exactly as inside one command buffer.
 *
 * Across queues only semaphores order work. Each queue knows, per other queue, up to which batch
 * of it semaphore waits ordered its work, and for which of its own stages (the wait's stage mask,
 * extended by the queue's barriers since as a dependency chain); uses of later batches, or met in
 * other stages, conflict with any access that writes or meets a write. What a wait is ordered
 * after, and which batches are complete, queue_progress.h decides for every check: a semaphore
 * signal-wait pair on one queue, or a wait it orders after everything, counts as a full
 * dependency here (that can hide a finding, never invent one), and the uses of complete batches
 * are retired. Queues have queue_progress's indices. */
#include "check_hazard_submit.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_hazard_report.h"
#include "findings.h"
#include "hazard_tracker.h"
#include "host_unseen.h"
#include "state_command_buffers.h"
#include "state_device.h"

#define MAX_QUEUES PROGRESS_MAX_QUEUES
#define COMPACT_AT 1024 /* barriers in a queue's log before every range is caught up and the log emptied */

/* Another queue's batches up to `batch` are ordered before this queue's later work in `stages`
 * (a semaphore wait's stage mask, extended by this queue's barriers since: a dependency chain). */
struct sync_point {
    uint64_t batch, stages;
    uint64_t visible; /* the stages the other queue's writes were made visible to (the wait's access scope) */
};
#define SYNC_POINTS 4 /* per queue pair; past that the two oldest merge (can hide a finding, never make one) */

struct hazard_queue {
    VkQueue queue;                                     /* VK_NULL_HANDLE: a slot not used yet */
    uint64_t batches;                                  /* the last batch merged; uses carry their batch's number */
    uint64_t retired;                                  /* batches up to this one are retired */
    struct sync_point synced[MAX_QUEUES][SYNC_POINTS]; /* per other queue */
    uint32_t synced_count[MAX_QUEUES];
    struct hazard_tracker tracker;
};

struct hazard_queues {
    pthread_mutex_t lock;
    struct hazard_queue queues[MAX_QUEUES]; /* by queue_progress's index */
    uint32_t queue_count;                   /* 1 + the highest index used */
    bool strict_waw;                        /* the device's write_after_write setting, for its queue trackers */
    uint64_t progress_generation;           /* queue_progress's completions retired so far */
};

static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;

static struct hazard_queues *queues_of(struct layer_device *ld)
{
    pthread_mutex_lock(&create_lock);
    struct hazard_queues *h = ld->queue_hazards;
    if (h == NULL && (h = calloc(1, sizeof(*h))) != NULL) {
        pthread_mutex_init(&h->lock, NULL);
        h->strict_waw = ld->instance->settings.write_after_write_visible;
        __atomic_store_n(&ld->queue_hazards, h, __ATOMIC_RELEASE); /* waits read it without create_lock */
    }
    pthread_mutex_unlock(&create_lock);
    return h;
}

void hazard_queues_free(struct layer_device *ld)
{
    struct hazard_queues *h = ld->queue_hazards;
    if (h == NULL)
        return;
    for (uint32_t i = 0; i < h->queue_count; ++i)
        tracker_release(&h->queues[i].tracker);
    pthread_mutex_destroy(&h->lock);
    free(h);
    ld->queue_hazards = NULL;
}

/* The queue with queue_progress's index `i` (set up at its first use), or NULL when not tracked. */
static struct hazard_queue *queue_at(struct hazard_queues *h, uint32_t i, VkQueue queue)
{
    if (i >= MAX_QUEUES)
        return NULL;
    for (; h->queue_count <= i; ++h->queue_count) {
        memset(&h->queues[h->queue_count], 0, sizeof(h->queues[0]));
        h->queues[h->queue_count].tracker.strict_waw = h->strict_waw;
    }
    h->queues[i].queue = queue;
    return &h->queues[i];
}

/* A full memory dependency from all earlier work on `q` to `dst_stages` of its later work. */
static void full_dependency(struct hazard_queue *q, uint64_t dst_stages)
{
    const struct hazard_scope all = {~0ull, ~0ull};
    if (!tracker_log_barrier(&q->tracker, all, hazard_scope_of(dst_stages, false), &hazard_all_memory, 1))
        tracker_clear(&q->tracker);
}

static void add_sync_point(struct hazard_queue *q, uint32_t other, uint64_t batch, struct hazard_scope scope)
{
    uint64_t stages = scope.exec;
    struct sync_point *points = q->synced[other];
    uint32_t *count = &q->synced_count[other];
    for (uint32_t i = 0; i < *count; ++i) {
        if (points[i].batch == batch) {
            points[i].stages |= stages;
            points[i].visible |= scope.access;
            return;
        }
    }
    if (*count == SYNC_POINTS) { /* the two oldest become one: the later batch, both stage sets */
        uint32_t oldest = 0, next = SYNC_POINTS;
        for (uint32_t i = 1; i < *count; ++i)
            if (points[i].batch < points[oldest].batch)
                oldest = i;
        for (uint32_t i = 0; i < *count; ++i)
            if (i != oldest && (next == SYNC_POINTS || points[i].batch < points[next].batch))
                next = i;
        points[next].stages &= points[oldest].stages; /* the later batch, only what both order */
        points[next].visible &= points[oldest].visible;
        points[oldest] = points[--*count];
    }
    points[(*count)++] = (struct sync_point){batch, stages, scope.access};
}

static void sync_with(struct hazard_queues *h, uint32_t waiter, uint32_t signaler, uint64_t batch, uint64_t stages)
{
    struct hazard_queue *q = &h->queues[waiter];
    if (signaler == waiter) {
        full_dependency(q, stages);
        return;
    }
    struct hazard_scope ordered = hazard_scope_of(stages, false);
    add_sync_point(q, signaler, batch, ordered);
    /* what the signaling queue had waited for before is ordered before this queue's work too */
    const struct hazard_queue *s = &h->queues[signaler];
    for (uint32_t i = 0; i < h->queue_count; ++i)
        for (uint32_t k = 0; i != waiter && k < s->synced_count[i]; ++k)
            add_sync_point(q, i, s->synced[i][k].batch, ordered);
}

static void sync_with_everything(struct hazard_queues *h, uint32_t waiter, uint64_t stages)
{
    for (uint32_t i = 0; i < h->queue_count; ++i)
        if (h->queues[i].queue != VK_NULL_HANDLE)
            sync_with(h, waiter, i, h->queues[i].batches, stages);
}

/* A batch's semaphore waits, as queue_progress ordered them. */
static void apply_waits(struct hazard_queues *h, uint32_t waiter, const struct progress_batch *ordered)
{
    for (uint32_t i = 0; i < ordered->wait_count; ++i) {
        const struct progress_wait *w = &ordered->waits[i];
        if (w->everything) {
            sync_with_everything(h, waiter, ~0ull); /* what the signal orders is not known: every stage */
            continue;
        }
        for (uint32_t k = 0; k < h->queue_count; ++k)
            if (w->after[k] != 0)
                sync_with(h, waiter, k, w->after[k], w->stages);
    }
}

/* --- checking a command buffer's entry accesses ----------------------------------------------- */

static void report(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_entry *e,
                   const struct hazard_range *r, const struct hazard_conflict *c, const char *where)
{
    char context[200], text[128];
    if (c->before->command_buffer == 0) /* the presentation engine */
        snprintf(context, sizeof(context), " of the presentation engine");
    else
        snprintf(context, sizeof(context), " of %s, %s",
                 finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, c->before->command_buffer, text, sizeof(text)),
                 where);
    hazard_report(ld, cb, e->command_index, e->call, &e->access, r, c, context);
}

/* The entry against the uses of the same queue, as the command buffer's earlier barriers left them. */
static void check_same_queue(struct layer_device *ld, struct command_buffer_state *cb, struct hazard_queue *q,
                             const struct hazard_entry *e, uint32_t limit)
{
    struct hazard_conflict c;
    struct hazard_reported last = {0};
    for (struct hazard_range *r = NULL; (r = tracker_entry_conflict(&q->tracker, e, limit, r, &c)) != NULL;)
        if (!hazard_reported_before(&last, &c))
            report(ld, cb, e, r, &c, "earlier on the same queue");
}

/* Whether a use of another queue's batch is ordered before this queue's access in `stages`: a
 * semaphore wait after that batch whose stage mask (chained through later barriers) reaches them;
 * for a read of the other queue's write, whose access scope (named stages, or a memory barrier
 * chained after it) holds them. */
static bool ordered_by_semaphores(const struct hazard_queue *q, uint32_t other, const struct hazard_use *u,
                                  uint64_t stages, bool need_visible, bool *batch_ordered)
{
    for (uint32_t i = 0; i < q->synced_count[other]; ++i) {
        if (q->synced[other][i].batch < u->submission)
            continue;
        *batch_ordered = true;
        if ((need_visible ? q->synced[other][i].visible : q->synced[other][i].stages) & stages)
            return true;
    }
    return false;
}

/* What is missing between another queue's use and this access: a wait at all, or one whose stages
 * reach the access. */
static const char *semaphore_missing(bool batch_ordered)
{
    return batch_ordered
               ? "a semaphore wait whose stage mask (or a barrier chained after it) includes this access's stage"
               : "a semaphore signaled after that work and waited on here";
}

static void check_other_queue(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_queue *q,
                              uint32_t other_index, struct hazard_queue *other, const struct hazard_entry *e,
                              uint64_t later_from)
{
    struct hazard_tracker *t = &other->tracker;
    /* the layout transition of a queue family ownership transfer happens after the release, which
     * the semaphore orders: any wait after the batch orders it. Any other transition must chain to
     * the wait through its first scope like any access (TOP_OF_PIPE there chains to nothing). */
    uint64_t stages = e->transition && e->ownership_transfer ? ~0ull : e->access.stages;
    bool reads = e->access.read && !e->transition;
    struct hazard_reported last = {0};
    for (struct hazard_range *r = tracker_first(t, e->access.key); r != NULL; r = tracker_next(t, r, e->access.key)) {
        if (!hazard_overlaps(&e->access, r))
            continue;
        struct hazard_conflict c = {0};
        bool batch_ordered = false;
        /* uses of batches that wait for a signal of this batch come after it */
        if (r->has_write && r->write.submission < later_from &&
            !ordered_by_semaphores(q, other_index, &r->write, stages, reads, &batch_ordered))
            c = (struct hazard_conflict){reads ? CHECK_HAZARD_READ_AFTER_WRITE : CHECK_HAZARD_WRITE_AFTER_WRITE,
                                         &r->write, true, semaphore_missing(batch_ordered)};
        for (uint32_t k = 0; c.before == NULL && e->access.write && k < r->read_count; ++k)
            if (r->reads[k].submission < later_from &&
                !ordered_by_semaphores(q, other_index, &r->reads[k], stages, false, &batch_ordered))
                c = (struct hazard_conflict){CHECK_HAZARD_WRITE_AFTER_READ, &r->reads[k], false,
                                             semaphore_missing(batch_ordered)};
        if (c.before != NULL && !hazard_reported_before(&last, &c)) {
            char where[96];
            snprintf(where, sizeof(where), "submitted to another VkQueue 0x%llx",
                     (unsigned long long)(uintptr_t)other->queue);
            report(ld, cb, e, r, &c, where);
        }
    }
}

/* A barrier of this queue extends the stages its semaphore waits order (a dependency chain). The
 * command buffer's barrier `i`: one that repeats the barrier before it (applied just before)
 * extends nothing more, and is skipped (engines log thousands of them). */
static void chain_synced_stages(const struct hazard_queues *h, struct hazard_queue *q,
                                const struct hazard_tracker *from, uint32_t i_barrier)
{
    const struct hazard_logged_barrier *b = &from->barriers[i_barrier];
    if (i_barrier > 0 && b->repeats)
        return;
    for (uint32_t k = 0; k < h->queue_count; ++k)
        for (uint32_t i = 0; i < q->synced_count[k]; ++i)
            if (q->synced[k][i].stages & b->src) {
                q->synced[k][i].stages |= b->dst;
                if (b->count > 0) /* a memory barrier: the semaphore made the writes available */
                    q->synced[k][i].visible |= b->dst_access;
            }
}

/* Whether any semaphore wait of queue `q` ordered stages that its barriers could extend. */
static bool has_synced(const struct hazard_queues *h, const struct hazard_queue *q)
{
    for (uint32_t k = 0; k < h->queue_count; ++k)
        if (q->synced_count[k] > 0)
            return true;
    return false;
}

static void compact(struct hazard_tracker *t)
{
    if (t->barrier_count < COMPACT_AT)
        return;
    for (uint32_t i = 0; i < t->count; ++i) {
        tracker_catch_up(t, &t->ranges[i], t->barrier_count);
        t->ranges[i].applied = 0;
    }
    t->barrier_count = t->memory_count = 0;
}

static void submit_command_buffer(struct layer_device *ld, struct hazard_queues *h, uint32_t qi,
                                  struct command_buffer_state *cb, const uint64_t *later_from)
{
    struct hazard_queue *q = &h->queues[qi];
    struct hazard_tracker *from = cb->hazards;
    if (from == NULL)
        return;
    /* the command buffer's barriers join the queue's log; entries_at maps positions */
    uint32_t *entries_at = malloc((from->barrier_count + 1) * sizeof(*entries_at));
    bool logged = entries_at != NULL && tracker_append_log(&q->tracker, from, entries_at);
    /* the command buffer's barriers chained onto the semaphore waits so far; when the waits
     * ordered nothing there is nothing to chain onto, so all count as done (waits are added only
     * before this point, and chaining adds none) */
    uint32_t applied = has_synced(h, q) ? 0 : from->barrier_count;
    if (!logged || from->incomplete) {
        /* the command buffer's own log or entries were cut short: assume it synchronizes right */
        tracker_clear(&q->tracker);
        full_dependency(q, ~0ull);
    } else {
        for (uint32_t i = 0; i < from->entry_count; ++i) {
            const struct hazard_entry *e = &from->entries[i];
            check_same_queue(ld, cb, q, e, entries_at[e->barrier_index]);
            for (; applied < e->barrier_index && applied < from->barrier_count; ++applied)
                chain_synced_stages(h, q, from, applied);
            for (uint32_t k = 0; k < h->queue_count; ++k)
                if (k != qi)
                    check_other_queue(ld, cb, q, k, &h->queues[k], e, later_from[k]);
        }
    }
    for (; applied < from->barrier_count; ++applied) /* the rest, in order: a chain only runs forward */
        chain_synced_stages(h, q, from, applied);
    free(entries_at);
    tracker_merge(&q->tracker, from, q->batches);
    compact(&q->tracker);
}

void hazard_submit_batch(struct layer_device *ld, const struct progress_batch *ordered, const struct queue_batch *batch)
{
    struct hazard_queues *h = queues_of(ld);
    if (h == NULL)
        return;
    pthread_mutex_lock(&h->lock);
    struct hazard_queue *q = queue_at(h, ordered->index, ordered->queue);
    if (q != NULL) {
        q->batches = ordered->number;
        apply_waits(h, ordered->index, ordered);
        for (uint32_t i = 0; i < batch->command_buffer_count; ++i)
            if (batch->command_buffers[i] != NULL)
                submit_command_buffer(ld, h, ordered->index, batch->command_buffers[i], ordered->later_from);
    }
    pthread_mutex_unlock(&h->lock);
}

/* --- the presentation engine -------------------------------------------------------------------- */

void hazard_present(struct layer_device *ld, const struct progress_batch *ordered, const struct hazard_access *images,
                    uint32_t image_count)
{
    struct hazard_queues *h = queues_of(ld);
    if (h == NULL)
        return;
    pthread_mutex_lock(&h->lock);
    struct hazard_queue *p = queue_at(h, ordered->index, ordered->queue);
    if (p != NULL) {
        p->batches = ordered->number;
        apply_waits(h, ordered->index, ordered);
        for (uint32_t i = 0; i < image_count; ++i) {
            struct hazard_range *r = tracker_find_or_add(&p->tracker, &images[i]);
            if (r == NULL)
                continue;
            tracker_catch_up(&p->tracker, r, p->tracker.barrier_count);
            struct hazard_use read = {
                .stages = ~0ull, .access = ~0ull, .call = "vkQueuePresentKHR", .submission = p->batches};
            tracker_record(r, &read, false);
        }
    }
    pthread_mutex_unlock(&h->lock);
}

void hazard_forget_key(struct layer_device *ld, uint64_t key)
{
    struct hazard_queues *h = __atomic_load_n(&ld->queue_hazards, __ATOMIC_ACQUIRE);
    if (h == NULL)
        return;
    pthread_mutex_lock(&h->lock);
    for (uint32_t i = 0; i < h->queue_count; ++i) {
        struct hazard_tracker *t = &h->queues[i].tracker;
        for (struct hazard_range *r = tracker_first(t, key); r != NULL; r = tracker_next(t, r, key)) {
            r->has_write = false;
            r->read_count = 0;
        }
    }
    pthread_mutex_unlock(&h->lock);
}

/* --- completion ------------------------------------------------------------------------------ */

/* Drops the uses of batches up to `batch` from a queue's tracker; completed buffer writes tell
 * the host checks whether a barrier made them visible to host reads. */
static void retire(struct layer_device *ld, struct hazard_queue *q, uint64_t batch)
{
    struct hazard_tracker *t = &q->tracker;
    for (uint32_t i = 0; i < t->count; ++i) {
        struct hazard_range *r = &t->ranges[i];
        if (r->has_write && r->write.submission <= batch) {
            tracker_catch_up(t, r, t->barrier_count);
            const struct hazard_use *w = &r->write;
            if (!r->image) {
                struct unseen_write u = {r->key,  r->begin,         r->end,           r->resource,
                                         w->call, w->command_index, w->command_buffer};
                unseen_write_completed(ld, &u,
                                       (w->visible_stages & STAGE_HOST) && (w->visible_access & ACCESS_HOST_READ));
            }
            r->has_write = false;
        }
        uint32_t kept = 0;
        for (uint32_t k = 0; k < r->read_count; ++k)
            if (r->reads[k].submission > batch)
                r->reads[kept++] = r->reads[k];
        r->read_count = kept;
    }
    if (batch >= q->batches)
        tracker_clear(t); /* all of it: give the ranges back too */
}

void hazard_retire_completed(struct layer_device *ld)
{
    struct hazard_queues *h = __atomic_load_n(&ld->queue_hazards, __ATOMIC_ACQUIRE);
    if (h == NULL || __atomic_load_n(&h->progress_generation, __ATOMIC_ACQUIRE) == progress_generation(ld))
        return; /* nothing completed since the last retirement */
    pthread_mutex_lock(&h->lock);
    uint64_t complete[MAX_QUEUES];
    uint32_t count;
    if (progress_completed(ld, &h->progress_generation, complete, &count))
        for (uint32_t i = 0; i < count && i < h->queue_count; ++i)
            if (complete[i] > h->queues[i].retired) {
                retire(ld, &h->queues[i], complete[i]);
                h->queues[i].retired = complete[i];
            }
    pthread_mutex_unlock(&h->lock);
}

bool hazard_pending_use(struct layer_device *ld, uint64_t memory, uint64_t begin, uint64_t end, uint64_t atom,
                        bool writes_only, struct hazard_pending *out)
{
    atom = atom ? atom : 1;
    struct hazard_queues *h = __atomic_load_n(&ld->queue_hazards, __ATOMIC_ACQUIRE);
    if (h == NULL)
        return false;
    bool found = false;
    const struct hazard_access probe = {.key = memory, .begin = begin, .end = end, .layer_end = 1};
    pthread_mutex_lock(&h->lock);
    for (uint32_t i = 0; i < h->queue_count && !found; ++i) {
        struct hazard_tracker *t = &h->queues[i].tracker;
        for (struct hazard_range *r = tracker_first(t, memory); r != NULL && !found; r = tracker_next(t, r, memory)) {
            if (r->image || (writes_only && !r->has_write) || !hazard_overlaps(&probe, r) ||
                r->begin - r->begin % atom > begin || end > (r->end + atom - 1) / atom * atom)
                continue;
            const struct hazard_use *u = r->has_write ? &r->write : r->read_count ? &r->reads[0] : NULL;
            if (u == NULL)
                continue;
            *out = (struct hazard_pending){.queue = h->queues[i].queue,
                                           .resource = r->resource,
                                           .begin = r->begin,
                                           .end = r->end,
                                           .write = r->has_write,
                                           .call = u->call,
                                           .command_index = u->command_index,
                                           .command_buffer = u->command_buffer};
            found = true;
        }
    }
    pthread_mutex_unlock(&h->lock);
    return found;
}
