/* The one model of queue progress (queue_progress.h says what it answers and by which rules).
 *
 * Per queue it keeps how many batches were submitted and how far they are known complete. The
 * batches in flight that have semaphore operations are kept in submission order, each with its
 * signals (for the waits and host waits that look for them) and the batches its waits were ordered
 * after (completion spreads along them). Fences and semaphores keep their last submission in their
 * states (state_device.h: struct fence_state, struct semaphore_state). One lock per device. */
#include "queue_progress.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "array_grow.h"
#include "state_device.h"

/* The presentation engine's queue: no queue has this handle. */
#define PRESENT_QUEUE ((VkQueue)(uintptr_t) ~(uintptr_t)0)
#define EARLY_WAITS 64 /* timeline waits for values not reached yet, remembered; past that the oldest is forgotten */

struct batch_ref {
    uint32_t queue;
    uint64_t number;
};

struct pending_signal {
    uint64_t semaphore, value;
};

/* A batch in flight with semaphore operations. */
struct pending_batch {
    struct batch_ref batch;
    struct pending_signal *signals;
    uint32_t signal_count;
    struct batch_ref *after; /* the batches its waits were ordered after: complete when it is */
    uint32_t after_count, after_capacity;
};

/* A timeline wait submitted before any signal the model saw reaches its value. */
struct early_wait {
    uint64_t semaphore, value; /* semaphore 0: an empty slot */
    struct batch_ref waiter;
};

struct queue_progress {
    pthread_mutex_t lock;
    VkQueue queues[PROGRESS_MAX_QUEUES];
    uint64_t submitted[PROGRESS_MAX_QUEUES];
    uint64_t complete[PROGRESS_MAX_QUEUES]; /* written under the lock, read without it (atomic): they only grow */
    uint32_t queue_count;                   /* likewise */
    struct pending_batch *pending;          /* in submission order */
    uint32_t pending_count, pending_capacity;
    struct early_wait early[EARLY_WAITS]; /* a ring */
    uint32_t early_next;
    uint64_t generation; /* moved on whenever something completes (read without the lock) */
};

static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;

static struct queue_progress *progress_of(struct layer_device *ld, bool create)
{
    struct queue_progress *p = __atomic_load_n(&ld->progress, __ATOMIC_ACQUIRE);
    if (p != NULL || !create)
        return p;
    pthread_mutex_lock(&create_lock);
    p = ld->progress;
    if (p == NULL && (p = calloc(1, sizeof(*p))) != NULL) {
        pthread_mutex_init(&p->lock, NULL);
        __atomic_store_n(&ld->progress, p, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&create_lock);
    return p;
}

static void pending_free(struct pending_batch *b)
{
    free(b->signals);
    free(b->after);
}

void progress_free(struct layer_device *ld)
{
    struct queue_progress *p = ld->progress;
    if (p == NULL)
        return;
    for (uint32_t i = 0; i < p->pending_count; ++i)
        pending_free(&p->pending[i]);
    free(p->pending);
    pthread_mutex_destroy(&p->lock);
    free(p);
    ld->progress = NULL;
}

/* The queue's index, added if new; PROGRESS_MAX_QUEUES when there is no room. */
static uint32_t queue_index(struct queue_progress *p, VkQueue queue)
{
    for (uint32_t i = 0; i < p->queue_count; ++i)
        if (p->queues[i] == queue)
            return i;
    if (p->queue_count == PROGRESS_MAX_QUEUES)
        return PROGRESS_MAX_QUEUES;
    p->queues[p->queue_count] = queue;
    __atomic_store_n(&p->queue_count, p->queue_count + 1, __ATOMIC_RELEASE);
    return p->queue_count - 1;
}

/* --- completion ----------------------------------------------------------------------------------- */

/* Batches up to `number` of queue `queue` are complete; whether that is news. */
static bool complete_to(struct queue_progress *p, struct batch_ref b)
{
    if (b.queue >= p->queue_count)
        return false;
    uint64_t number = b.number < p->submitted[b.queue] ? b.number : p->submitted[b.queue];
    if (number <= p->complete[b.queue])
        return false;
    __atomic_store_n(&p->complete[b.queue], number, __ATOMIC_RELAXED); /* published by the generation */
    return true;
}

/* Completion spreads: a complete batch completes the batches it was ordered after. Then the
 * complete batches leave the pending list, their timeline signals counted as reached. */
static void settle(struct layer_device *ld, struct queue_progress *p)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 0; i < p->pending_count; ++i) {
            const struct pending_batch *b = &p->pending[i];
            if (b->batch.number > p->complete[b->batch.queue])
                continue;
            for (uint32_t k = 0; k < b->after_count; ++k)
                changed |= complete_to(p, b->after[k]);
        }
    }
    uint32_t kept = 0;
    for (uint32_t i = 0; i < p->pending_count; ++i) {
        struct pending_batch *b = &p->pending[i];
        if (b->batch.number > p->complete[b->batch.queue]) {
            p->pending[kept++] = *b;
            continue;
        }
        for (uint32_t k = 0; k < b->signal_count; ++k) {
            struct semaphore_state *s = semaphore_state_in(ld, b->signals[k].semaphore);
            if (s != NULL && s->type == VK_SEMAPHORE_TYPE_TIMELINE && b->signals[k].value > s->completed_value)
                s->completed_value = b->signals[k].value;
        }
        pending_free(b);
    }
    p->pending_count = kept;
    __atomic_add_fetch(&p->generation, 1, __ATOMIC_RELEASE);
}

/* Completes the batches with a signal of `semaphore` at most `value`. */
static bool complete_signals_up_to(struct queue_progress *p, uint64_t semaphore, uint64_t value)
{
    bool changed = false;
    for (uint32_t i = 0; i < p->pending_count; ++i)
        for (uint32_t k = 0; k < p->pending[i].signal_count; ++k)
            if (p->pending[i].signals[k].semaphore == semaphore && p->pending[i].signals[k].value <= value)
                changed |= complete_to(p, p->pending[i].batch);
    return changed;
}

void progress_fence_waited(struct layer_device *ld, VkFence fence)
{
    struct queue_progress *p = progress_of(ld, false);
    const struct fence_state *f = fence != VK_NULL_HANDLE ? fence_state_in(ld, HANDLE(fence)) : NULL;
    if (p == NULL || f == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    if (complete_to(p, (struct batch_ref){f->queue, f->batch}))
        settle(ld, p);
    pthread_mutex_unlock(&p->lock);
}

void progress_queue_idle(struct layer_device *ld, VkQueue queue)
{
    struct queue_progress *p = progress_of(ld, false);
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    for (uint32_t i = 0; i < p->queue_count; ++i)
        if (p->queues[i] == queue && complete_to(p, (struct batch_ref){i, p->submitted[i]}))
            settle(ld, p);
    pthread_mutex_unlock(&p->lock);
}

void progress_device_idle(struct layer_device *ld)
{
    struct queue_progress *p = progress_of(ld, false);
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    bool changed = false;
    for (uint32_t i = 0; i < p->queue_count; ++i)
        changed |= complete_to(p, (struct batch_ref){i, p->submitted[i]});
    if (changed)
        settle(ld, p);
    pthread_mutex_unlock(&p->lock);
}

void progress_semaphore_reached(struct layer_device *ld, VkSemaphore semaphore, uint64_t value, bool exact)
{
    struct queue_progress *p = progress_of(ld, false);
    const struct semaphore_state *s = semaphore_state_in(ld, HANDLE(semaphore));
    if (p == NULL || s == NULL || s->type != VK_SEMAPHORE_TYPE_TIMELINE ||
        (!exact && (value <= s->initial_value || value <= __atomic_load_n(&s->host_value, __ATOMIC_ACQUIRE))))
        return; /* reached without any GPU signal */
    pthread_mutex_lock(&p->lock);
    /* the signal that set the counter: for a wait the first reaching the value, for a counter read
     * the last at or below it */
    bool found = false;
    uint64_t reaching = 0;
    for (uint32_t i = 0; i < p->pending_count; ++i)
        for (uint32_t k = 0; k < p->pending[i].signal_count; ++k) {
            const struct pending_signal *g = &p->pending[i].signals[k];
            if (g->semaphore == HANDLE(semaphore) && (exact ? g->value <= value && (!found || g->value > reaching)
                                                            : g->value >= value && (!found || g->value < reaching))) {
                reaching = g->value;
                found = true;
            }
        }
    /* a wait no pending signal reaches: its value was reached by a signal complete already, or by
     * one the layer did not see (an imported semaphore): only the signals below it ran */
    if (!found && !exact) {
        reaching = value;
        found = true;
    }
    if (found && complete_signals_up_to(p, HANDLE(semaphore), reaching))
        settle(ld, p);
    pthread_mutex_unlock(&p->lock);
}

uint64_t progress_generation(struct layer_device *ld)
{
    struct queue_progress *p = progress_of(ld, false);
    return p != NULL ? __atomic_load_n(&p->generation, __ATOMIC_ACQUIRE) : 0;
}

bool progress_completed(struct layer_device *ld, uint64_t *generation, uint64_t *complete, uint32_t *queue_count)
{
    struct queue_progress *p = progress_of(ld, false);
    uint64_t now = p != NULL ? __atomic_load_n(&p->generation, __ATOMIC_ACQUIRE) : 0;
    if (now == *generation)
        return false;
    /* no lock: what completed only grows, so numbers newer than `now` are as true (the caller
     * retires them now, and again harmlessly at the next generation) */
    *queue_count = __atomic_load_n(&p->queue_count, __ATOMIC_ACQUIRE);
    for (uint32_t i = 0; i < *queue_count; ++i)
        complete[i] = __atomic_load_n(&p->complete[i], __ATOMIC_RELAXED);
    __atomic_store_n(generation, now, __ATOMIC_RELEASE); /* read without the caller's lock too */
    return true;
}

/* --- order ---------------------------------------------------------------------------------------- */

/* The pending signals of `semaphore` at most `value`, as the last batch per queue. */
static void after_signals_up_to(const struct queue_progress *p, uint64_t semaphore, uint64_t value,
                                struct progress_wait *out)
{
    for (uint32_t i = 0; i < p->pending_count; ++i)
        for (uint32_t k = 0; k < p->pending[i].signal_count; ++k) {
            const struct pending_signal *g = &p->pending[i].signals[k];
            const struct batch_ref *b = &p->pending[i].batch;
            if (g->semaphore == semaphore && g->value <= value && b->number > out->after[b->queue])
                out->after[b->queue] = b->number;
        }
}

static void order_wait(struct layer_device *ld, struct queue_progress *p, struct batch_ref waiter,
                       const struct semaphore_op *w, struct progress_wait *out)
{
    memset(out, 0, sizeof(*out));
    out->stages = w->stages;
    uint64_t handle = HANDLE(w->semaphore);
    const struct semaphore_state *s = handle != 0 ? semaphore_state_in(ld, handle) : NULL;
    if (s != NULL && s->type == VK_SEMAPHORE_TYPE_TIMELINE) {
        if (w->value <= s->completed_value || w->value <= s->initial_value ||
            w->value <= __atomic_load_n(&s->host_value, __ATOMIC_ACQUIRE)) {
            after_signals_up_to(p, handle, w->value, out); /* reached already: the signals below came first */
            return;
        }
        bool found = false;
        uint64_t reaching = 0;
        for (uint32_t i = 0; i < p->pending_count; ++i)
            for (uint32_t k = 0; k < p->pending[i].signal_count; ++k) {
                const struct pending_signal *g = &p->pending[i].signals[k];
                if (g->semaphore == handle && g->value >= w->value && (!found || g->value < reaching)) {
                    reaching = g->value;
                    found = true;
                }
            }
        if (found) {
            after_signals_up_to(p, handle, reaching, out);
            return;
        }
        /* not reached by any signal seen so far: a later submission (or the host) will signal it */
        p->early[p->early_next] = (struct early_wait){handle, w->value, waiter};
        p->early_next = (p->early_next + 1) % EARLY_WAITS;
        out->everything = true;
        return;
    }
    if (s != NULL && s->signaled)
        out->after[s->signal.queue] = s->signal.batch;
    else /* a signal the layer did not see: assume it orders everything */
        out->everything = true;
}

/* The pending batch `b`, or NULL. */
static struct pending_batch *pending_find(struct queue_progress *p, struct batch_ref b)
{
    for (uint32_t i = 0; i < p->pending_count; ++i)
        if (p->pending[i].batch.queue == b.queue && p->pending[i].batch.number == b.number)
            return &p->pending[i];
    return NULL;
}

static void add_after(struct pending_batch *b, struct batch_ref after)
{
    struct batch_ref *grown = array_grow(b->after, &b->after_capacity, b->after_count + 1, sizeof(*grown), 4);
    if (grown == NULL)
        return; /* out of memory: completion does not spread along this edge (a finding kept, not hidden) */
    b->after = grown;
    b->after[b->after_count++] = after;
}

/* A batch's signals: the early waits they satisfy (their queues' work from the wait on runs after
 * this batch), and the semaphores' states. */
static void record_signals(struct layer_device *ld, struct queue_progress *p, struct batch_ref batch,
                           const struct queue_batch *q, struct progress_batch *out)
{
    for (uint32_t i = 0; i < q->signal_count; ++i) {
        uint64_t handle = HANDLE(q->signals[i].semaphore);
        for (uint32_t k = 0; k < EARLY_WAITS; ++k) {
            struct early_wait *e = &p->early[k];
            if (e->semaphore != handle || q->signals[i].value < e->value)
                continue;
            if (e->waiter.queue != batch.queue && e->waiter.number < out->later_from[e->waiter.queue])
                out->later_from[e->waiter.queue] = e->waiter.number;
            struct pending_batch *w = pending_find(p, e->waiter);
            if (w != NULL)
                add_after(w, batch);
            e->semaphore = 0;
        }
        struct semaphore_state *s = handle != 0 ? semaphore_state_in(ld, handle) : NULL;
        if (s == NULL)
            continue;
        s->signaled = true;
        s->signal = (struct semaphore_signal){batch.queue, batch.number};
    }
}

/* Keeps a batch in flight in the pending list when it has semaphore operations to look up. */
static void keep_pending(struct queue_progress *p, struct batch_ref batch, const struct queue_batch *q,
                         const struct progress_batch *ordered)
{
    struct pending_batch b = {.batch = batch};
    if (q->signal_count > 0 && (b.signals = malloc(q->signal_count * sizeof(*b.signals))) != NULL) {
        for (uint32_t i = 0; i < q->signal_count; ++i)
            b.signals[i] = (struct pending_signal){HANDLE(q->signals[i].semaphore), q->signals[i].value};
        b.signal_count = q->signal_count;
    }
    /* not along an acquire's semaphore: it says the engine is done with the acquired image, not
     * with every image it read before (the order assumes so, completion does not) */
    for (uint32_t i = 0; i < ordered->wait_count; ++i)
        for (uint32_t k = 0; !ordered->waits[i].everything && k < p->queue_count; ++k)
            if (ordered->waits[i].after[k] != 0 && p->queues[k] != PRESENT_QUEUE)
                add_after(&b, (struct batch_ref){k, ordered->waits[i].after[k]});
    bool early = false; /* a wait recorded early gets its edge when its signal comes */
    for (uint32_t i = 0; i < ordered->wait_count; ++i)
        early |= ordered->waits[i].everything;
    if (b.signal_count == 0 && b.after_count == 0 && !early) {
        pending_free(&b);
        return;
    }
    struct pending_batch *grown =
        array_grow(p->pending, &p->pending_capacity, p->pending_count + 1, sizeof(*grown), 16);
    if (grown == NULL) {
        pending_free(&b);
        return;
    }
    p->pending = grown;
    p->pending[p->pending_count++] = b;
}

/* A new batch of queue `qi`: numbered, the queue's oldest in flight past the cap counted complete. */
static struct batch_ref new_batch(struct layer_device *ld, struct queue_progress *p, uint32_t qi)
{
    struct batch_ref batch = {qi, ++p->submitted[qi]};
    if (batch.number > PROGRESS_MAX_PENDING &&
        complete_to(p, (struct batch_ref){qi, batch.number - PROGRESS_MAX_PENDING}))
        settle(ld, p);
    return batch;
}

static void begin_out(struct progress_batch *out, VkQueue queue, uint32_t qi, uint64_t number)
{
    out->queue = queue;
    out->index = qi;
    out->number = number;
    out->wait_count = 0;
    for (uint32_t k = 0; k < PROGRESS_MAX_QUEUES; ++k)
        out->later_from[k] = UINT64_MAX;
}

void progress_submit(struct layer_device *ld, VkQueue queue, const struct queue_batch *batch,
                     struct progress_batch *out)
{
    struct queue_progress *p = progress_of(ld, true);
    begin_out(out, queue, PROGRESS_MAX_QUEUES, 0);
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    uint32_t qi = queue_index(p, queue);
    if (qi < PROGRESS_MAX_QUEUES) {
        struct batch_ref b = new_batch(ld, p, qi);
        begin_out(out, queue, qi, b.number);
        for (uint32_t i = 0; i < batch->wait_count && i < PROGRESS_MAX_WAITS; ++i)
            order_wait(ld, p, b, &batch->waits[i], &out->waits[out->wait_count++]);
        keep_pending(p, b, batch, out);
        record_signals(ld, p, b, batch, out);
        struct fence_state *f = batch->fence != VK_NULL_HANDLE ? fence_state_in(ld, HANDLE(batch->fence)) : NULL;
        if (f != NULL) {
            f->queue = qi;
            f->batch = b.number;
        }
    }
    pthread_mutex_unlock(&p->lock);
}

void progress_present(struct layer_device *ld, VkQueue queue, const struct semaphore_op *waits, uint32_t wait_count,
                      struct progress_batch *out)
{
    struct queue_progress *p = progress_of(ld, true);
    begin_out(out, PRESENT_QUEUE, PROGRESS_MAX_QUEUES, 0);
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    uint32_t pi = queue_index(p, PRESENT_QUEUE), qi = queue_index(p, queue);
    if (pi < PROGRESS_MAX_QUEUES) {
        struct batch_ref b = new_batch(ld, p, pi);
        begin_out(out, PRESENT_QUEUE, pi, b.number);
        /* not kept pending: a present known complete (an acquire's fence) says only that the
         * engine's reads are done, not that the work its semaphores waited for is */
        for (uint32_t i = 0; i < wait_count && i < PROGRESS_MAX_WAITS; ++i)
            order_wait(ld, p, b, &waits[i], &out->waits[out->wait_count++]);
        if (wait_count == 0 && qi < PROGRESS_MAX_QUEUES) {
            /* no semaphore: assumed after the presenting queue's work so far */
            out->waits[0] = (struct progress_wait){.stages = ~0ull};
            out->waits[0].after[qi] = p->submitted[qi];
            out->wait_count = 1;
        }
    }
    pthread_mutex_unlock(&p->lock);
}

void progress_acquired(struct layer_device *ld, VkSemaphore semaphore, VkFence fence)
{
    struct queue_progress *p = progress_of(ld, true);
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock);
    uint32_t pi = queue_index(p, PRESENT_QUEUE);
    if (pi < PROGRESS_MAX_QUEUES) {
        struct batch_ref now = {pi, p->submitted[pi]};
        struct semaphore_state *s = semaphore != VK_NULL_HANDLE ? semaphore_state_in(ld, HANDLE(semaphore)) : NULL;
        if (s != NULL) {
            s->signaled = true;
            s->signal = (struct semaphore_signal){now.queue, now.number};
        }
        struct fence_state *f = fence != VK_NULL_HANDLE ? fence_state_in(ld, HANDLE(fence)) : NULL;
        if (f != NULL) {
            f->queue = now.queue;
            f->batch = now.number;
        }
    }
    pthread_mutex_unlock(&p->lock);
}

void progress_host_signal(struct layer_device *ld, VkSemaphore semaphore, uint64_t value)
{
    struct semaphore_state *s = semaphore_state_in(ld, HANDLE(semaphore));
    if (s == NULL)
        return;
    uint64_t old = __atomic_load_n(&s->host_value, __ATOMIC_ACQUIRE);
    while (value > old &&
           !__atomic_compare_exchange_n(&s->host_value, &old, value, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        ;
    struct queue_progress *p = progress_of(ld, false);
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->lock); /* early waits the host satisfied: no GPU signal orders them now */
    for (uint32_t k = 0; k < EARLY_WAITS; ++k)
        if (p->early[k].semaphore == HANDLE(semaphore) && p->early[k].value <= value)
            p->early[k].semaphore = 0;
    pthread_mutex_unlock(&p->lock);
}
