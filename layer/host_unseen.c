/* The host-unseen record (host_unseen.h): the latest completed writes no barrier made visible to
 * the host, a ring, and the readback ones among them until check_host.c reports them. */
#include "host_unseen.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "state_device.h"
#include "state_resources.h"

#define UNSEEN_KEPT 256

struct host_tracker {
    pthread_mutex_t lock;
    struct unseen_write unseen[UNSEEN_KEPT]; /* the latest ones, a ring; memory 0: empty */
    uint32_t unseen_next;
    /* completed writes to persistently mapped readback buffers no barrier made visible to the
     * host, reported by check_host.c once the submit-time lock is released */
    struct unseen_write readbacks[UNSEEN_READBACKS_KEPT];
    uint32_t readback_count;
};

/* Usage bits through which the GPU can read a buffer: a buffer with none of them is written by the
 * GPU only for the host to read it (a readback buffer). */
#define GPU_READ_USAGE                                                                                                 \
    (VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT |                                     \
     VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |                                   \
     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |       \
     VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |                                 \
     VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR |                                            \
     VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR | VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT |                \
     VK_BUFFER_USAGE_CONDITIONAL_RENDERING_BIT_EXT)

bool unseen_write_is_marker(const struct unseen_write *w)
{
    return w->call != NULL && (strcmp(w->call, "vkCmdFillBuffer") == 0 || strcmp(w->call, "vkCmdUpdateBuffer") == 0);
}

/* Whether a completed, unseen write went to memory mapped now (mapped before the work, so no map
 * or invalidate will show the host's read) that the host will certainly read: a buffer no GPU
 * usage can read, written with data (not a marker). With host_readback = possible, any write to
 * mapped memory. */
static bool persistent_readback(struct layer_device *ld, const struct unseen_write *w)
{
    const struct buffer_state *b = buffer_state_in(ld, w->buffer);
    const struct memory_state *m = memory_state_in(ld, w->memory);
    if (b == NULL || m == NULL || __atomic_load_n(&m->mapped, __ATOMIC_ACQUIRE) == NULL)
        return false;
    return ld->instance->settings.host_readback_possible ||
           ((b->usage & GPU_READ_USAGE) == 0 && !unseen_write_is_marker(w));
}

static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;

/* The tracker is made on the first completed write and published (release) after its lock is
 * initialized; the lookups below take no lock (acquire), so a weakly ordered CPU (arm64) cannot
 * hand them a tracker whose lock is not initialized yet. */
static struct host_tracker *tracker_of(struct layer_device *ld)
{
    return __atomic_load_n(&ld->host, __ATOMIC_ACQUIRE);
}

static struct host_tracker *tracker(struct layer_device *ld)
{
    struct host_tracker *t = tracker_of(ld);
    if (t != NULL)
        return t;
    pthread_mutex_lock(&create_lock);
    t = ld->host;
    if (t == NULL && (t = calloc(1, sizeof(*t))) != NULL) {
        pthread_mutex_init(&t->lock, NULL);
        __atomic_store_n(&ld->host, t, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&create_lock);
    return t;
}

void unseen_writes_free(struct layer_device *ld)
{
    if (ld->host == NULL)
        return;
    pthread_mutex_destroy(&ld->host->lock);
    free(ld->host);
    ld->host = NULL;
}

static bool overlaps(const struct unseen_write *u, uint64_t memory, uint64_t begin, uint64_t end)
{
    return u->memory != 0 && u->memory == memory && u->begin < end && begin < u->end;
}

void unseen_write_completed(struct layer_device *ld, const struct unseen_write *w, bool visible_to_host)
{
    struct host_tracker *t = tracker(ld);
    if (t == NULL)
        return;
    pthread_mutex_lock(&t->lock);
    /* a newer write to the same bytes replaces what the host would read */
    for (uint32_t i = 0; i < UNSEEN_KEPT; ++i)
        if (overlaps(&t->unseen[i], w->memory, w->begin, w->end) && t->unseen[i].begin >= w->begin &&
            t->unseen[i].end <= w->end)
            t->unseen[i].memory = 0;
    if (!visible_to_host) {
        t->unseen[t->unseen_next] = *w;
        t->unseen_next = (t->unseen_next + 1) % UNSEEN_KEPT;
        uint32_t n = t->readback_count;
        if (n < UNSEEN_READBACKS_KEPT && persistent_readback(ld, w)) {
            t->readbacks[n] = *w;
            __atomic_store_n(&t->readback_count, n + 1, __ATOMIC_RELAXED); /* read without the lock first */
        }
    }
    pthread_mutex_unlock(&t->lock);
}

bool unseen_write_take(struct layer_device *ld, uint64_t memory, uint64_t begin, uint64_t end, struct unseen_write *out)
{
    struct host_tracker *t = tracker_of(ld);
    if (t == NULL)
        return false;
    bool found = false;
    pthread_mutex_lock(&t->lock);
    for (uint32_t i = 0; i < UNSEEN_KEPT && !found; ++i) {
        if (overlaps(&t->unseen[i], memory, begin, end)) {
            *out = t->unseen[i];
            t->unseen[i].memory = 0; /* once */
            found = true;
        }
    }
    pthread_mutex_unlock(&t->lock);
    return found;
}

uint32_t unseen_readbacks_take(struct layer_device *ld, struct unseen_write *out)
{
    struct host_tracker *t = tracker_of(ld);
    if (t == NULL || __atomic_load_n(&t->readback_count, __ATOMIC_ACQUIRE) == 0)
        return 0;
    pthread_mutex_lock(&t->lock);
    uint32_t count = t->readback_count;
    memcpy(out, t->readbacks, count * sizeof(out[0]));
    __atomic_store_n(&t->readback_count, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&t->lock);
    return count;
}
