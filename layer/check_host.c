/* Area `host`: a submission's GPU writes are complete only once the application has waited for
 * it (a fence, vkQueueWaitIdle, vkDeviceWaitIdle). Invalidating a mapped range the pending work
 * still writes means the host is about to read it too early: it sees old data or half the new.
 * Mapping such a range is reported too: a mapping made before the wait is how the host reads too
 * early where memory is coherent and needs no invalidate (a persistent mapping made before the
 * submission is not a read, and is not reported).
 *
 * Pending writes are the buffers a command buffer may write (shader stores through reflected
 * bindings of dispatches, copies, fills, updates, image-to-buffer copies), as device-memory
 * ranges. A fence wait completes its submission and every earlier one on the same queue (the
 * fence's first scope covers all earlier work in submission order). Host waits on semaphores
 * are not modelled: they complete everything, so they can only hide a finding.
 *
 * Complete is not enough for a host read: the writes must also have been made visible to the host
 * by a barrier to the HOST stage with HOST_READ access before the fence signaled. The submit-time
 * hazard tracker tells, as it retires each completed buffer write, whether one did; a later
 * vkInvalidateMappedMemoryRanges over such a write is reported. And the host must not write
 * memory that pending work still reads or writes: vkFlushMappedMemoryRanges over a range a
 * submission not yet waited for uses is reported (host writes to coherent memory without a flush
 * are invisible to a layer). */
#include "check_host.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_hazard_submit.h"
#include "findings.h"
#include "layer_state.h"

#define HANDLE(h) ((uint64_t)(h))
#define MAX_PENDING 4096

struct pending_write {
    VkQueue queue;
    VkFence fence;
    uint64_t serial; /* the vkQueueSubmit call, in order */
    uint64_t memory, begin, end, buffer;
};

/* A completed GPU write no barrier made visible to the host (HOST stage, HOST_READ access). */
struct unseen_write {
    uint64_t memory, begin, end, buffer;
    const char *call;
    uint32_t command_index;
    uint64_t command_buffer;
};
#define UNSEEN_KEPT 256

struct host_tracker {
    pthread_mutex_t lock;
    struct pending_write *pending;
    uint32_t count, capacity;
    uint64_t next_serial;
    struct unseen_write unseen[UNSEEN_KEPT]; /* the latest ones, a ring; memory 0: empty */
    uint32_t unseen_next;
};

static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;

static struct host_tracker *tracker(struct layer_device *ld)
{
    pthread_mutex_lock(&create_lock);
    if (ld->host == NULL) {
        ld->host = calloc(1, sizeof(*ld->host));
        if (ld->host != NULL)
            pthread_mutex_init(&ld->host->lock, NULL);
    }
    pthread_mutex_unlock(&create_lock);
    return ld->host;
}

void host_tracker_free(struct layer_device *ld)
{
    if (ld->host == NULL)
        return;
    pthread_mutex_destroy(&ld->host->lock);
    free(ld->host->pending);
    free(ld->host);
    ld->host = NULL;
}

static void add_pending(struct host_tracker *t, const struct pending_write *w)
{
    if (t->count == MAX_PENDING) { /* bounded: the oldest are forgotten (no guessing) */
        memmove(t->pending, t->pending + MAX_PENDING / 2, (MAX_PENDING / 2) * sizeof(*t->pending));
        t->count = MAX_PENDING / 2;
    }
    if (t->count == t->capacity) {
        uint32_t capacity = t->capacity ? t->capacity * 2 : 64;
        struct pending_write *grown = realloc(t->pending, capacity * sizeof(*grown));
        if (grown == NULL)
            return;
        t->pending = grown;
        t->capacity = capacity;
    }
    t->pending[t->count++] = *w;
}

void host_submitted(struct layer_device *ld, VkQueue queue, VkFence fence, struct command_buffer_state *const *cbs,
                    uint32_t count)
{
    struct host_tracker *t = tracker(ld);
    if (t == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    uint64_t serial = ++t->next_serial;
    if (fence != VK_NULL_HANDLE) { /* a marker, so a wait on the fence finds its place in the queue */
        struct pending_write marker = {queue, fence, serial, 0, 0, 0, 0};
        add_pending(t, &marker);
    }
    for (uint32_t i = 0; i < count; ++i) {
        const struct command_buffer_state *cb = cbs[i];
        for (uint32_t k = 0; cb != NULL && k < cb->written_count; ++k) {
            struct buffer_state *b = handle_map_get(&ld->buffers, cb->written_buffers[k]);
            if (b == NULL || b->memory == VK_NULL_HANDLE)
                continue; /* unknown (or "any buffer"): nothing precise to say */
            struct pending_write w = {queue, fence, serial, HANDLE(b->memory), b->memory_offset,
                                      b->memory_offset + b->size, cb->written_buffers[k]};
            add_pending(t, &w);
        }
    }
    pthread_mutex_unlock(&t->lock);
}

/* Drops the pending writes `done` says are complete. */
static void complete(struct layer_device *ld, bool (*done)(const struct pending_write *, const void *), const void *arg)
{
    struct host_tracker *t = ld->host;
    if (t == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < t->count; ++i)
        if (!done(&t->pending[i], arg))
            t->pending[kept++] = t->pending[i];
    t->count = kept;
    pthread_mutex_unlock(&t->lock);
}

struct fence_point {
    VkQueue queue;
    uint64_t serial;
    bool found;
};

static bool before_fence(const struct pending_write *w, const void *arg)
{
    const struct fence_point *f = arg;
    return f->found && w->queue == f->queue && w->serial <= f->serial;
}

void host_fence_waited(struct layer_device *ld, VkFence fence)
{
    struct host_tracker *t = ld->host;
    if (t == NULL || fence == VK_NULL_HANDLE)
        return;
    struct fence_point f = {0};
    pthread_mutex_lock(&t->lock);
    for (uint32_t i = 0; i < t->count; ++i)
        if (t->pending[i].fence == fence && t->pending[i].serial >= f.serial) {
            f = (struct fence_point){t->pending[i].queue, t->pending[i].serial, true};
        }
    pthread_mutex_unlock(&t->lock);
    complete(ld, before_fence, &f);
}

static bool on_queue(const struct pending_write *w, const void *arg)
{
    return w->queue == *(const VkQueue *)arg;
}

void host_queue_idle(struct layer_device *ld, VkQueue queue)
{
    complete(ld, on_queue, &queue);
}

static bool always(const struct pending_write *w, const void *arg)
{
    (void)w;
    (void)arg;
    return true;
}

void host_device_idle(struct layer_device *ld)
{
    complete(ld, always, NULL);
}


static bool overlaps(const struct unseen_write *u, uint64_t memory, uint64_t begin, uint64_t end)
{
    return u->memory != 0 && u->memory == memory && u->begin < end && begin < u->end;
}

void host_write_completed(struct layer_device *ld, uint64_t memory, uint64_t begin, uint64_t end, uint64_t buffer,
                          bool visible_to_host, const char *call, uint32_t command_index, uint64_t command_buffer)
{
    struct host_tracker *t = tracker(ld);
    if (t == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    /* a newer write to the same bytes replaces what the host would read */
    for (uint32_t i = 0; i < UNSEEN_KEPT; ++i)
        if (overlaps(&t->unseen[i], memory, begin, end) && t->unseen[i].begin >= begin && t->unseen[i].end <= end)
            t->unseen[i].memory = 0;
    if (!visible_to_host) {
        t->unseen[t->unseen_next] = (struct unseen_write){memory, begin, end, buffer, call, command_index, command_buffer};
        t->unseen_next = (t->unseen_next + 1) % UNSEEN_KEPT;
    }
    pthread_mutex_unlock(&t->lock);
}

/* vkInvalidateMappedMemoryRanges after the work completed: was it made visible to the host? */
static void check_host_visibility(struct layer_device *ld, struct host_tracker *t, uint64_t memory, uint64_t begin,
                                  uint64_t end)
{
    struct unseen_write hit = {0};
    pthread_mutex_lock(&t->lock);
    for (uint32_t i = 0; i < UNSEEN_KEPT && hit.memory == 0; ++i) {
        if (overlaps(&t->unseen[i], memory, begin, end)) {
            hit = t->unseen[i];
            t->unseen[i].memory = 0; /* once */
        }
    }
    pthread_mutex_unlock(&t->lock);
    if (hit.memory == 0)
        return;
    struct finding f = {.check = CHECK_HOST_READ_WITHOUT_HOST_BARRIER, .call = "vkInvalidateMappedMemoryRanges"};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_DEVICE_MEMORY, hit.memory};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_BUFFER, hit.buffer};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_COMMAND_BUFFER, hit.command_buffer};
    char text[128];
    snprintf(f.message, sizeof(f.message),
             "vkInvalidateMappedMemoryRanges covers VkDeviceMemory 0x%llx bytes [%llu, %llu), which %s (command %u "
             "of %s) wrote; the work is complete, but no barrier made the write visible to the host (srcStage "
             "including the write, dstStageMask VK_PIPELINE_STAGE_HOST_BIT, dstAccessMask VK_ACCESS_HOST_READ_BIT) "
             "before the fence or wait",
             (unsigned long long)hit.memory, (unsigned long long)hit.begin, (unsigned long long)hit.end, hit.call,
             hit.command_index,
             finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, hit.command_buffer, text, sizeof(text)));
    finding_report(ld->instance, ld, &f);
}

void host_check_flush(struct layer_device *ld, uint32_t count, const VkMappedMemoryRange *ranges)
{
    for (uint32_t r = 0; r < count; ++r) {
        uint64_t begin = ranges[r].offset;
        uint64_t end = ranges[r].size == VK_WHOLE_SIZE ? UINT64_MAX : ranges[r].offset + ranges[r].size;
        struct hazard_pending p;
        if (!hazard_pending_use(ld, HANDLE(ranges[r].memory), begin, end, &p))
            continue;
        struct finding f = {.check = CHECK_HOST_WRITE_WHILE_PENDING, .call = "vkFlushMappedMemoryRanges"};
        f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_DEVICE_MEMORY, HANDLE(ranges[r].memory)};
        f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_BUFFER, p.resource};
        f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_QUEUE, HANDLE((uintptr_t)p.queue)};
        char text[128];
        snprintf(f.message, sizeof(f.message),
                 "vkFlushMappedMemoryRanges covers VkDeviceMemory 0x%llx bytes [%llu, %llu), which %s (command %u of "
                 "%s, submitted to VkQueue %p) %s, and the application has not waited for that submission: the host "
                 "wrote memory the GPU may still be using",
                 (unsigned long long)HANDLE(ranges[r].memory), (unsigned long long)p.begin,
                 (unsigned long long)p.end, p.call, p.command_index,
                 finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, p.command_buffer, text, sizeof(text)),
                 (void *)p.queue, p.write ? "writes" : "reads");
        finding_report(ld->instance, ld, &f);
    }
}

/* The first write of a submission not waited for yet over [begin, end) of `memory`. */
static bool pending_write_over(struct host_tracker *t, uint64_t memory, uint64_t begin, uint64_t end,
                               struct pending_write *hit)
{
    bool found = false;
    pthread_mutex_lock(&t->lock);
    for (uint32_t i = 0; i < t->count && !found; ++i) {
        const struct pending_write *w = &t->pending[i];
        if (w->memory != 0 && w->memory == memory && w->begin < end && begin < w->end) {
            *hit = *w;
            found = true;
        }
    }
    pthread_mutex_unlock(&t->lock);
    return found;
}

static void report_before_wait(struct layer_device *ld, enum check_id check, const char *call, const char *verb,
                               const struct pending_write *hit)
{
    struct finding f = {.check = check, .call = call};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_DEVICE_MEMORY, hit->memory};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_BUFFER, hit->buffer};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_QUEUE, HANDLE((uintptr_t)hit->queue)};
    snprintf(f.message, sizeof(f.message),
             "%s %s VkDeviceMemory 0x%llx bytes [%llu, %llu), which VkBuffer 0x%llx occupies and a command buffer "
             "submitted to VkQueue %p (submission %llu) writes, but the application has not waited for that "
             "submission (vkWaitForFences, vkQueueWaitIdle or vkDeviceWaitIdle): the host would read the memory "
             "before the GPU is done with it",
             call, verb, (unsigned long long)hit->memory, (unsigned long long)hit->begin,
             (unsigned long long)hit->end, (unsigned long long)hit->buffer, (void *)hit->queue,
             (unsigned long long)hit->serial);
    finding_report(ld->instance, ld, &f);
}

void host_check_invalidate(struct layer_device *ld, uint32_t count, const VkMappedMemoryRange *ranges)
{
    struct host_tracker *t = ld->host;
    if (t == NULL)
        return;
    for (uint32_t r = 0; r < count; ++r) {
        uint64_t begin = ranges[r].offset;
        uint64_t end = ranges[r].size == VK_WHOLE_SIZE ? UINT64_MAX : ranges[r].offset + ranges[r].size;
        check_host_visibility(ld, t, HANDLE(ranges[r].memory), begin, end);
        struct pending_write hit;
        if (pending_write_over(t, HANDLE(ranges[r].memory), begin, end, &hit))
            report_before_wait(ld, CHECK_HOST_INVALIDATE_BEFORE_WAIT, "vkInvalidateMappedMemoryRanges", "covers", &hit);
    }
}

void host_check_map(struct layer_device *ld, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize size)
{
    struct host_tracker *t = ld->host;
    struct pending_write hit;
    uint64_t end = size == VK_WHOLE_SIZE ? UINT64_MAX : offset + size;
    if (t != NULL && pending_write_over(t, HANDLE(memory), offset, end, &hit))
        report_before_wait(ld, CHECK_HOST_MAP_BEFORE_WAIT, "vkMapMemory", "maps", &hit);
}
