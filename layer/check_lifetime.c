/* Area `lifetime`: what submitted work still uses, against the calls that destroy, free, reset or
 * update it (check_lifetime.h says what counts as a use and as completion). */
#include "check_lifetime.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_grow.h"
#include "findings.h"
#include "hazard_tracker.h"
#include "state_command_buffers.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "state_pipelines.h"
#include "state_resources.h"

#define FREED_SETS_MAX 65536 /* freed descriptor-set handles remembered; past that forgotten */

/* Bindings whose descriptors may change or go invalid while the set is in use. */
#define FLEXIBLE_BINDING                                                                                               \
    (VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT | VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT |             \
     VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT)
#define UPDATABLE_BINDING                                                                                              \
    (VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT | VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT)

/* One object a recording refers to, and the first command that did. */
struct lifetime_note {
    VkObjectType type;
    uint64_t handle;
    uint64_t id;                     /* pipelines and descriptor sets: the state's unique id */
    struct set_state *set;           /* descriptor sets: retained */
    struct pipeline_state *pipeline; /* descriptor sets: the pipeline that used it at set `index` (retained) */
    uint32_t index;
    uint32_t command_index;
    const char *call, *labels;
};

/* What one recording refers to, as submitted: sorted by handle, shared by the command buffer and
 * the pending batches that submitted it. */
struct lifetime_refs {
    int refs;
    uint32_t count;
    struct lifetime_note notes[];
};

/* Per command buffer: the notes of the current recording, deduplicated through `table`. */
struct lifetime_notes {
    struct lifetime_note *notes;
    uint32_t count, capacity;
    uint32_t *table; /* note index + 1; open addressing, at most half full */
    uint32_t table_size;
    uint64_t last_pipeline;
    struct lifetime_refs *refs; /* built at the recording's first submit */
};

struct lifetime_batch_cb {
    uint64_t handle, pool;
    struct lifetime_refs *refs;
};

/* A submitted batch with command buffers, until queue_progress knows it complete. */
struct lifetime_batch {
    VkQueue queue;
    uint32_t queue_index; /* queue_progress's */
    uint64_t number;
    struct lifetime_batch_cb *cbs;
    uint32_t cb_count;
};

struct lifetime_tracker {
    pthread_mutex_t lock;
    struct lifetime_batch *pending; /* in submission order */
    uint32_t count, capacity;
    uint64_t progress_generation; /* queue_progress's completions retired so far */
    uint64_t *freed_sets;         /* open addressing, 0 = empty */
    uint32_t freed_count, freed_size;
};

/* --- notes and references ------------------------------------------------------------------ */

static void note_release(struct lifetime_note *n)
{
    set_state_release(n->set);
    pipeline_release(n->pipeline);
}

static void refs_release(struct lifetime_refs *r)
{
    if (r != NULL && __atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        for (uint32_t i = 0; i < r->count; ++i)
            note_release(&r->notes[i]);
        free(r);
    }
}

static uint64_t note_hash(VkObjectType type, uint64_t handle, uint64_t pipeline_id, uint32_t index)
{
    uint64_t h = (handle ^ ((uint64_t)type << 56)) * 0x9E3779B97F4A7C15ull;
    h = (h ^ pipeline_id ^ ((uint64_t)index << 48)) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}

static bool same_note(const struct lifetime_note *n, VkObjectType type, uint64_t handle, const struct pipeline_state *p,
                      uint32_t index)
{
    return n->type == type && n->handle == handle && n->pipeline == p && n->index == index;
}

static bool grow_table(struct lifetime_notes *ns)
{
    uint32_t size = ns->table_size ? ns->table_size * 2 : 64;
    uint32_t *table = calloc(size, sizeof(*table));
    if (table == NULL)
        return false;
    for (uint32_t i = 0; i < ns->count; ++i) {
        const struct lifetime_note *n = &ns->notes[i];
        uint32_t slot =
            (uint32_t)note_hash(n->type, n->handle, n->pipeline ? n->pipeline->id : 0, n->index) & (size - 1);
        while (table[slot] != 0)
            slot = (slot + 1) & (size - 1);
        table[slot] = i + 1;
    }
    free(ns->table);
    ns->table = table;
    ns->table_size = size;
    return true;
}

static struct lifetime_notes *notes_of(struct command_buffer_state *cb)
{
    if (cb->lifetime == NULL)
        cb->lifetime = calloc(1, sizeof(*cb->lifetime));
    return cb->lifetime;
}

/* Adds a note unless the recording has it already (the set and pipeline are retained). */
static void add_note(struct command_buffer_state *cb, const struct lifetime_note *note)
{
    struct lifetime_notes *ns = notes_of(cb);
    if (ns == NULL || ns->refs != NULL) /* no memory, or already submitted: further notes come from a new recording */
        return;
    if ((ns->count + 1) * 2 > ns->table_size && !grow_table(ns))
        return;
    uint32_t mask = ns->table_size - 1;
    uint32_t slot =
        (uint32_t)note_hash(note->type, note->handle, note->pipeline ? note->pipeline->id : 0, note->index) & mask;
    for (; ns->table[slot] != 0; slot = (slot + 1) & mask)
        if (same_note(&ns->notes[ns->table[slot] - 1], note->type, note->handle, note->pipeline, note->index))
            return;
    struct lifetime_note *grown = array_grow(ns->notes, &ns->capacity, ns->count + 1, sizeof(*grown), 32);
    if (grown == NULL)
        return;
    ns->notes = grown;
    ns->notes[ns->count] = *note;
    if (note->set)
        STATE_RETAIN(note->set);
    if (note->pipeline)
        STATE_RETAIN(note->pipeline);
    ns->table[slot] = ++ns->count;
}

void lifetime_note_object(struct command_buffer_state *cb, VkObjectType type, uint64_t handle, uint64_t id,
                          const char *call)
{
    if (handle == 0)
        return;
    if (type == VK_OBJECT_TYPE_PIPELINE) {
        if (cb->lifetime != NULL && cb->lifetime->last_pipeline == id && cb->lifetime->refs == NULL)
            return; /* the same pipeline bound again */
        if (notes_of(cb) != NULL)
            cb->lifetime->last_pipeline = id;
    }
    const struct lifetime_note n = {.type = type,
                                    .handle = handle,
                                    .id = id,
                                    .command_index = cb->command_index,
                                    .call = call,
                                    .labels = cb->label_path};
    add_note(cb, &n);
}

void lifetime_note_sets(struct command_buffer_state *cb, struct bound_state *b, const char *call)
{
    struct pipeline_state *p = b->pipeline;
    /* each set once per recording and pipeline: the set remembers the last pair it was noted for,
     * as one word (a race between two recording threads can only make a note be taken twice, or
     * in the rare mix of two writes be skipped: a missed finding, never a false one) */
    uint64_t pair = (cb->recording * 0x9E3779B97F4A7C15ull) ^ ((p ? p->id : 0) * 0xBF58476D1CE4E5B9ull);
    for (uint32_t mask = b->set_mask; mask != 0; mask &= mask - 1) {
        uint32_t index = (uint32_t)__builtin_ctz(mask);
        struct set_state *s = b->sets[index];
        uint64_t noted_pair = (pair ^ index) | 1; /* never 0, the value of a set never noted */
        if (__atomic_load_n(&s->lifetime_noted, __ATOMIC_RELAXED) == noted_pair || s->handle == VK_NULL_HANDLE)
            continue; /* noted already, or a push descriptor set (it lives in the command buffer) */
        const struct lifetime_note n = {.type = VK_OBJECT_TYPE_DESCRIPTOR_SET,
                                        .handle = HANDLE(s->handle),
                                        .id = s->id,
                                        .set = s,
                                        .pipeline = p,
                                        .index = index,
                                        .command_index = cb->command_index,
                                        .call = call,
                                        .labels = cb->label_path};
        add_note(cb, &n);
        __atomic_store_n(&s->lifetime_noted, noted_pair, __ATOMIC_RELAXED);
    }
}

void lifetime_note_executed(struct command_buffer_state *primary, const struct command_buffer_state *secondary)
{
    const struct lifetime_notes *ns = secondary->lifetime;
    for (uint32_t i = 0; ns != NULL && i < ns->count; ++i) {
        struct lifetime_note n = ns->notes[i];
        n.command_index = primary->command_index;
        n.call = "vkCmdExecuteCommands";
        add_note(primary, &n);
    }
}

void lifetime_reset(struct command_buffer_state *cb)
{
    struct lifetime_notes *ns = cb->lifetime;
    if (ns == NULL)
        return;
    for (uint32_t i = 0; i < ns->count; ++i)
        note_release(&ns->notes[i]);
    ns->count = 0;
    ns->last_pipeline = 0;
    if (ns->table != NULL)
        memset(ns->table, 0, ns->table_size * sizeof(*ns->table));
    refs_release(ns->refs);
    ns->refs = NULL;
}

void lifetime_free(struct command_buffer_state *cb)
{
    lifetime_reset(cb);
    if (cb->lifetime != NULL) {
        free(cb->lifetime->notes);
        free(cb->lifetime->table);
        free(cb->lifetime);
        cb->lifetime = NULL;
    }
}

/* A note's place among the references: by handle, then type, then the order noted in (so the
 * first note of a (type, handle) is the earliest). Sorted as 16-byte keys by a merge sort written
 * here: qsort's call per comparison and its moves of whole notes cost more than the rest of the
 * build, which every recording pays at its first submit. */
struct note_order {
    uint64_t handle;
    uint64_t type_and_position; /* the VkObjectType in the high half, the note's index in the low */
};

static inline bool ordered_before(const struct note_order *a, const struct note_order *b)
{
    return a->handle != b->handle ? a->handle < b->handle : a->type_and_position < b->type_and_position;
}

/* Sorts `n` orders (bottom-up, `spare` as big); returns whichever of the two holds the result. */
static struct note_order *sort_orders(struct note_order *orders, struct note_order *spare, uint32_t n)
{
    struct note_order *from = orders, *to = spare;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t i = lo, k = mid, out = lo;
            while (i < mid && k < hi)
                to[out++] = ordered_before(&from[k], &from[i]) ? from[k++] : from[i++];
            while (i < mid)
                to[out++] = from[i++];
            while (k < hi)
                to[out++] = from[k++];
        }
        struct note_order *swap = from;
        from = to;
        to = swap;
    }
    return from;
}

/* The buffers and images the recording's commands accessed, with their memory: from its hazard
 * tracker, which sees every command's accesses. */
static uint32_t accessed_resources(struct layer_device *ld, const struct command_buffer_state *cb,
                                   struct lifetime_note *out, uint32_t room)
{
    const struct hazard_tracker *t = cb->hazards;
    uint32_t n = 0;
    for (uint32_t i = 0; t != NULL && i < t->count && n + 2 <= room; ++i) {
        const struct hazard_range *r = &t->ranges[i];
        const struct hazard_use *u = r->has_write ? &r->write : r->read_count ? &r->reads[0] : NULL;
        struct lifetime_note note = {.handle = r->resource,
                                     .command_index = u ? u->command_index : 0,
                                     .call = u ? u->call : NULL,
                                     .labels = u ? u->labels : NULL};
        if (r->resource == 0)
            continue;
        note.type = r->image ? VK_OBJECT_TYPE_IMAGE : VK_OBJECT_TYPE_BUFFER;
        out[n++] = note;
        uint64_t memory = 0;
        if (!r->image) {
            memory = r->key != r->resource ? r->key : 0; /* an unbound buffer is keyed by itself */
        } else {
            const struct image_state *image = image_state_in(ld, r->resource);
            memory = image ? HANDLE(image->memory) : 0;
        }
        if (memory != 0) {
            note.type = VK_OBJECT_TYPE_DEVICE_MEMORY;
            note.handle = memory;
            out[n++] = note;
        }
    }
    return n;
}

/* The recording's references, built at its first submit. */
static struct lifetime_refs *refs_of(struct layer_device *ld, struct command_buffer_state *cb)
{
    struct lifetime_notes *ns = notes_of(cb);
    if (ns == NULL)
        return NULL;
    if (ns->refs != NULL)
        return ns->refs;
    uint32_t ranges = cb->hazards ? cb->hazards->count : 0;
    uint32_t room = ns->count + 2 * ranges;
    if (room == 0)
        room = 1;
    struct lifetime_refs *r = malloc(sizeof(*r) + room * sizeof(r->notes[0]));
    /* the notes as gathered, and their orders (twice: the sort's spare) */
    struct lifetime_note *gathered = malloc(room * (sizeof(*gathered) + 2 * sizeof(struct note_order)));
    if (r == NULL || gathered == NULL) {
        free(r);
        free(gathered);
        return NULL;
    }
    struct note_order *orders = (struct note_order *)(gathered + room);
    r->refs = 1;
    if (ns->count > 0) /* notes is NULL before the first note */
        memcpy(gathered, ns->notes, ns->count * sizeof(gathered[0]));
    for (uint32_t i = 0; i < ns->count; ++i) { /* the refs hold their own references */
        if (gathered[i].set)
            STATE_RETAIN(gathered[i].set);
        if (gathered[i].pipeline)
            STATE_RETAIN(gathered[i].pipeline);
    }
    uint32_t count = ns->count + accessed_resources(ld, cb, gathered + ns->count, room - ns->count);
    for (uint32_t i = 0; i < count; ++i)
        orders[i] = (struct note_order){gathered[i].handle, (uint64_t)(uint32_t)gathered[i].type << 32 | i};
    const struct note_order *sorted = sort_orders(orders, orders + room, count);
    /* one note per buffer, image and memory (the first use kept); sets and the rest as noted */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < count; ++i) {
        const struct lifetime_note *n = &gathered[(uint32_t)sorted[i].type_and_position];
        bool resource = n->type == VK_OBJECT_TYPE_BUFFER || n->type == VK_OBJECT_TYPE_IMAGE ||
                        n->type == VK_OBJECT_TYPE_DEVICE_MEMORY;
        if (kept > 0 && resource && r->notes[kept - 1].handle == n->handle && r->notes[kept - 1].type == n->type) {
            if (n->command_index < r->notes[kept - 1].command_index)
                r->notes[kept - 1] = *n;
            continue;
        }
        r->notes[kept++] = *n;
    }
    free(gathered);
    r->count = kept;
    ns->refs = r;
    return r;
}

/* The first note of `refs` about (type, handle), or NULL. */
static const struct lifetime_note *find_note(const struct lifetime_refs *refs, VkObjectType type, uint64_t handle)
{
    uint32_t lo = 0, hi = refs->count;
    while (lo < hi) { /* the first note with handle >= `handle` */
        uint32_t mid = lo + (hi - lo) / 2;
        if (refs->notes[mid].handle < handle)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < refs->count && refs->notes[lo].handle == handle; ++lo)
        if (refs->notes[lo].type == type)
            return &refs->notes[lo];
    return NULL;
}

/* --- the tracker ---------------------------------------------------------------------------- */

static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;

static struct lifetime_tracker *tracker_of(struct layer_device *ld, bool create)
{
    struct lifetime_tracker *t = __atomic_load_n(&ld->lifetime, __ATOMIC_ACQUIRE);
    if (t != NULL || !create)
        return t;
    pthread_mutex_lock(&create_lock);
    t = ld->lifetime;
    if (t == NULL && (t = calloc(1, sizeof(*t))) != NULL) {
        pthread_mutex_init(&t->lock, NULL);
        __atomic_store_n(&ld->lifetime, t, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&create_lock);
    return t;
}

static void batch_free(struct lifetime_batch *b)
{
    for (uint32_t i = 0; i < b->cb_count; ++i)
        refs_release(b->cbs[i].refs);
    free(b->cbs);
}

void lifetime_tracker_free(struct layer_device *ld)
{
    struct lifetime_tracker *t = ld->lifetime;
    if (t == NULL)
        return;
    for (uint32_t i = 0; i < t->count; ++i)
        batch_free(&t->pending[i]);
    free(t->pending);
    free(t->freed_sets);
    pthread_mutex_destroy(&t->lock);
    free(t);
    ld->lifetime = NULL;
}

/* --- submit ----------------------------------------------------------------------------------- */

/* A reference of a submitted command buffer to an object gone since it was recorded. */
struct dead_reference {
    enum check_id check;
    struct lifetime_note note;
};

static bool note_alive(struct layer_device *ld, const struct lifetime_note *n)
{
    switch (n->type) {
    case VK_OBJECT_TYPE_PIPELINE: {
        const struct pipeline_state *p = pipeline_state_in(ld, n->handle);
        return p != NULL && p->id == n->id;
    }
    case VK_OBJECT_TYPE_DESCRIPTOR_SET:
        return descriptor_set_state_in(ld, n->handle) == n->set;
    case VK_OBJECT_TYPE_BUFFER:
        return buffer_state_in(ld, n->handle) != NULL;
    case VK_OBJECT_TYPE_IMAGE:
        return image_state_in(ld, n->handle) != NULL;
    case VK_OBJECT_TYPE_IMAGE_VIEW:
        return image_view_state_in(ld, n->handle) != NULL;
    case VK_OBJECT_TYPE_FRAMEBUFFER:
        return framebuffer_state_in(ld, n->handle) != NULL;
    case VK_OBJECT_TYPE_DEVICE_MEMORY:
        return memory_state_in(ld, n->handle) != NULL;
    default:
        return true; /* render passes and the rest: not checked after recording */
    }
}

static void report_dead(struct layer_device *ld, struct command_buffer_state *cb, VkQueue queue,
                        const struct lifetime_note *n)
{
    bool set = n->type == VK_OBJECT_TYPE_DESCRIPTOR_SET;
    struct finding f = {.check = set ? CHECK_LIFETIME_STALE_DESCRIPTOR_SET : CHECK_LIFETIME_DESTROYED_AFTER_RECORDING,
                        .call = "vkQueueSubmit"};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_COMMAND_BUFFER, HANDLE((uintptr_t)cb->handle)};
    f.objects[f.object_count++] = (struct finding_object){n->type, n->handle};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_QUEUE, HANDLE((uintptr_t)queue)};
    char text[160], object[160];
    snprintf(f.message, sizeof(f.message),
             "%s is submitted to VkQueue %p, but %s, which its command %u (%s%s%s%s) refers to, was %s after it was "
             "recorded: the command buffer is invalid; record it again after creating the object anew",
             finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, HANDLE((uintptr_t)cb->handle), text, sizeof(text)),
             (void *)queue, finding_object_text(ld, n->type, n->handle, object, sizeof(object)), n->command_index,
             n->call ? n->call : "a command", n->labels ? ", labels \"" : "", n->labels ? n->labels : "",
             n->labels ? "\"" : "",
             set ? "freed (vkFreeDescriptorSets, or its pool reset or destroyed)" : "destroyed or freed");
    finding_report(ld->instance, ld, &f);
}

void lifetime_submit_batch(struct layer_device *ld, const struct progress_batch *ordered,
                           const struct queue_batch *batch)
{
    struct lifetime_tracker *t = tracker_of(ld, true);
    if (t == NULL || ordered->index >= PROGRESS_MAX_QUEUES || batch->command_buffer_count == 0)
        return;
    struct lifetime_batch b = {.queue = ordered->queue, .queue_index = ordered->index, .number = ordered->number};
    if ((b.cbs = calloc(batch->command_buffer_count, sizeof(*b.cbs))) == NULL)
        return; /* out of memory: this batch is not tracked (no finding about it) */
    for (uint32_t i = 0; i < batch->command_buffer_count; ++i) {
        struct command_buffer_state *cb = batch->command_buffers[i];
        if (cb == NULL)
            continue;
        /* under the lock: a command buffer with SIMULTANEOUS_USE may be submitted by two threads */
        pthread_mutex_lock(&t->lock);
        struct lifetime_refs *refs = refs_of(ld, cb);
        pthread_mutex_unlock(&t->lock);
        if (refs == NULL)
            continue;
        uint32_t reported = 0;
        for (uint32_t k = 0; k < refs->count && reported < 4; ++k)
            if (!note_alive(ld, &refs->notes[k])) {
                report_dead(ld, cb, ordered->queue, &refs->notes[k]);
                reported++;
            }
        STATE_RETAIN(refs);
        b.cbs[b.cb_count++] = (struct lifetime_batch_cb){HANDLE((uintptr_t)cb->handle), HANDLE(cb->pool), refs};
    }
    if (b.cb_count == 0) {
        batch_free(&b);
        return;
    }
    pthread_mutex_lock(&t->lock);
    struct lifetime_batch *grown = array_grow(t->pending, &t->capacity, t->count + 1, sizeof(*grown), 16);
    if (grown != NULL) {
        t->pending = grown;
        t->pending[t->count] = b;
        __atomic_store_n(&t->count, t->count + 1,
                         __ATOMIC_RELAXED); /* read without the lock by the checks' fast path */
    } else {
        batch_free(&b);
    }
    pthread_mutex_unlock(&t->lock);
}

/* --- completion ------------------------------------------------------------------------------- */

void lifetime_retire_completed(struct layer_device *ld)
{
    struct lifetime_tracker *t = tracker_of(ld, false);
    if (t == NULL || __atomic_load_n(&t->progress_generation, __ATOMIC_ACQUIRE) == progress_generation(ld))
        return; /* nothing completed since the last retirement */
    pthread_mutex_lock(&t->lock);
    uint64_t complete[PROGRESS_MAX_QUEUES];
    uint32_t queue_count;
    if (progress_completed(ld, &t->progress_generation, complete, &queue_count)) {
        uint32_t kept = 0;
        for (uint32_t i = 0; i < t->count; ++i) {
            struct lifetime_batch *b = &t->pending[i];
            if (b->queue_index < queue_count && b->number <= complete[b->queue_index])
                batch_free(b);
            else
                t->pending[kept++] = *b;
        }
        __atomic_store_n(&t->count, kept, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&t->lock);
}

/* --- the checks ------------------------------------------------------------------------------- */

/* A pending use found under the lock, reported after it. */
struct pending_user {
    bool found;
    VkQueue queue;
    uint64_t command_buffer;
    struct lifetime_note note;
};

/* Whether a descriptor of `set` that `pipeline` statically uses at set `index` holds `handle`
 * (bindings whose descriptors may legally go invalid while in use are left out). */
static bool set_note_holds(const struct lifetime_note *n, uint64_t handle)
{
    const struct set_state *s = n->set;
    const struct pipeline_state *p = n->pipeline;
    if (s == NULL || p == NULL || !p->reflected)
        return false;
    for (size_t i = 0; i < p->shader.binding_count; ++i) {
        const struct reflect_binding *rb = &p->shader.bindings[i];
        if (rb->set != n->index || !(rb->read || rb->written))
            continue;
        for (uint32_t b = 0; b < s->layout->binding_count; ++b) {
            const struct set_layout_binding *lb = &s->layout->bindings[b];
            if (lb->binding != rb->binding || (lb->flags & FLEXIBLE_BINDING))
                continue;
            for (uint32_t k = 0; k < lb->count; ++k)
                if (s->descriptors[lb->first + k].resource == handle || s->descriptors[lb->first + k].sampler == handle)
                    return true;
        }
    }
    return false;
}

static bool refs_use(const struct lifetime_refs *refs, VkObjectType type, uint64_t handle, uint64_t id,
                     struct lifetime_note *out)
{
    const struct lifetime_note *n = find_note(refs, type, handle);
    if (n != NULL && (id == 0 || n->id == id)) {
        *out = *n;
        return true;
    }
    if (type != VK_OBJECT_TYPE_IMAGE_VIEW && type != VK_OBJECT_TYPE_SAMPLER && type != VK_OBJECT_TYPE_BUFFER_VIEW)
        return false;
    for (uint32_t i = 0; i < refs->count; ++i)
        if (refs->notes[i].type == VK_OBJECT_TYPE_DESCRIPTOR_SET && set_note_holds(&refs->notes[i], handle)) {
            *out = refs->notes[i];
            return true;
        }
    return false;
}

/* The first pending command buffer that uses the object, found under the tracker's lock. */
static struct pending_user pending_use_of(struct lifetime_tracker *t, VkObjectType type, uint64_t handle, uint64_t id)
{
    struct pending_user u = {0};
    pthread_mutex_lock(&t->lock);
    for (uint32_t i = 0; i < t->count && !u.found; ++i)
        for (uint32_t k = 0; k < t->pending[i].cb_count && !u.found; ++k)
            if (refs_use(t->pending[i].cbs[k].refs, type, handle, id, &u.note)) {
                u.found = true;
                u.queue = t->pending[i].queue;
                u.command_buffer = t->pending[i].cbs[k].handle;
            }
    pthread_mutex_unlock(&t->lock);
    return u;
}

static void report_pending(struct layer_device *ld, enum check_id check, const char *call, VkObjectType type,
                           uint64_t handle, const char *verb, const struct pending_user *u, const char *how)
{
    struct finding f = {.check = check, .call = call};
    f.objects[f.object_count++] = (struct finding_object){type, handle};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_COMMAND_BUFFER, u->command_buffer};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_QUEUE, HANDLE((uintptr_t)u->queue)};
    char object[160], text[160], use[320];
    if (u->note.call != NULL)
        snprintf(use, sizeof(use), " (command %u, %s%s%s%s%s)", u->note.command_index, u->note.call,
                 u->note.labels ? ", labels \"" : "", u->note.labels ? u->note.labels : "", u->note.labels ? "\"" : "",
                 how);
    else if (how[0] != '\0')
        snprintf(use, sizeof(use), " (%s)", how + 2); /* `how` starts with a separator */
    else
        use[0] = '\0';
    snprintf(f.message, sizeof(f.message),
             "%s %s %s while %s%s, submitted to VkQueue %p, may still use it: no wait has shown that submission "
             "complete (its fence waited, a semaphore it signals waited on the host, vkQueueWaitIdle or "
             "vkDeviceWaitIdle)",
             call, verb, finding_object_text(ld, type, handle, object, sizeof(object)),
             finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, u->command_buffer, text, sizeof(text)), use,
             (void *)u->queue);
    finding_report(ld->instance, ld, &f);
}

static const char *destroy_verb(const char *call)
{
    return strncmp(call, "vkFree", 6) == 0 ? "frees" : "destroys";
}

void lifetime_check_destroy(struct layer_device *ld, VkObjectType type, uint64_t handle, uint64_t id, const char *call)
{
    struct lifetime_tracker *t = tracker_of(ld, false);
    if (t == NULL || handle == 0 || __atomic_load_n(&t->count, __ATOMIC_RELAXED) == 0)
        return;
    struct pending_user u = pending_use_of(t, type, handle, id);
    if (u.found)
        report_pending(ld, CHECK_LIFETIME_DESTROYED_WHILE_PENDING, call, type, handle, destroy_verb(call), &u, "");
}

void lifetime_check_descriptor_pool(struct layer_device *ld, VkDescriptorPool pool, bool destroy, const char *call)
{
    struct lifetime_tracker *t = tracker_of(ld, false);
    if (t == NULL || __atomic_load_n(&t->count, __ATOMIC_RELAXED) == 0)
        return;
    struct pending_user u = {0};
    pthread_mutex_lock(&t->lock);
    for (uint32_t i = 0; i < t->count && !u.found; ++i)
        for (uint32_t k = 0; k < t->pending[i].cb_count && !u.found; ++k) {
            const struct lifetime_refs *r = t->pending[i].cbs[k].refs;
            for (uint32_t n = 0; n < r->count && !u.found; ++n)
                if (r->notes[n].type == VK_OBJECT_TYPE_DESCRIPTOR_SET && r->notes[n].set->pool == pool) {
                    u = (struct pending_user){true, t->pending[i].queue, t->pending[i].cbs[k].handle, r->notes[n]};
                }
        }
    pthread_mutex_unlock(&t->lock);
    if (!u.found)
        return;
    char how[200], set[160];
    snprintf(how, sizeof(how), ", through %s from that pool",
             finding_object_text(ld, VK_OBJECT_TYPE_DESCRIPTOR_SET, u.note.handle, set, sizeof(set)));
    report_pending(ld, destroy ? CHECK_LIFETIME_DESTROYED_WHILE_PENDING : CHECK_LIFETIME_RESET_WHILE_PENDING, call,
                   VK_OBJECT_TYPE_DESCRIPTOR_POOL, HANDLE(pool), destroy ? "destroys" : "resets", &u, how);
}

/* The pending batch that holds a command buffer matching (handle or pool), under the lock. */
static bool pending_command_buffer(struct lifetime_tracker *t, uint64_t handle, uint64_t pool, struct pending_user *u)
{
    for (uint32_t i = 0; i < t->count; ++i)
        for (uint32_t k = 0; k < t->pending[i].cb_count; ++k) {
            const struct lifetime_batch_cb *c = &t->pending[i].cbs[k];
            if ((handle != 0 && c->handle == handle) || (pool != 0 && c->pool == pool)) {
                *u = (struct pending_user){true, t->pending[i].queue, c->handle, {0}};
                return true;
            }
        }
    return false;
}

void lifetime_check_command_pool(struct layer_device *ld, VkCommandPool pool, bool destroy, const char *call)
{
    struct lifetime_tracker *t = tracker_of(ld, false);
    if (t == NULL || pool == VK_NULL_HANDLE || __atomic_load_n(&t->count, __ATOMIC_RELAXED) == 0)
        return;
    struct pending_user u = {0};
    pthread_mutex_lock(&t->lock);
    pending_command_buffer(t, 0, HANDLE(pool), &u);
    pthread_mutex_unlock(&t->lock);
    if (u.found)
        report_pending(ld, destroy ? CHECK_LIFETIME_DESTROYED_WHILE_PENDING : CHECK_LIFETIME_RESET_WHILE_PENDING, call,
                       VK_OBJECT_TYPE_COMMAND_POOL, HANDLE(pool), destroy ? "destroys" : "resets", &u,
                       ", a command buffer allocated from it");
}

void lifetime_check_command_buffer(struct layer_device *ld, VkCommandBuffer cb, bool reset, const char *call)
{
    struct lifetime_tracker *t = tracker_of(ld, false);
    if (t == NULL || cb == VK_NULL_HANDLE || __atomic_load_n(&t->count, __ATOMIC_RELAXED) == 0)
        return;
    struct pending_user u = {0};
    pthread_mutex_lock(&t->lock);
    pending_command_buffer(t, HANDLE((uintptr_t)cb), 0, &u);
    pthread_mutex_unlock(&t->lock);
    if (!u.found)
        return;
    struct finding f = {.check = reset ? CHECK_LIFETIME_RESET_WHILE_PENDING : CHECK_LIFETIME_DESTROYED_WHILE_PENDING,
                        .call = call};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_COMMAND_BUFFER, u.command_buffer};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_QUEUE, HANDLE((uintptr_t)u.queue)};
    char text[160];
    snprintf(f.message, sizeof(f.message),
             "%s %s %s, which is pending on VkQueue %p: no wait has shown its submission complete (its fence "
             "waited, a semaphore it signals waited on the host, vkQueueWaitIdle or vkDeviceWaitIdle)",
             call, reset ? "resets" : "frees",
             finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, u.command_buffer, text, sizeof(text)),
             (void *)u.queue);
    finding_report(ld->instance, ld, &f);
}

void lifetime_check_update(struct layer_device *ld, const struct set_state *set, uint32_t binding, const char *call)
{
    struct lifetime_tracker *t = tracker_of(ld, false);
    if (t == NULL || set == NULL || __atomic_load_n(&t->count, __ATOMIC_RELAXED) == 0)
        return;
    for (uint32_t b = 0; b < set->layout->binding_count; ++b)
        if (set->layout->bindings[b].binding == binding && (set->layout->bindings[b].flags & UPDATABLE_BINDING))
            return; /* update after bind, or unused while pending: allowed */
    struct pending_user u = pending_use_of(t, VK_OBJECT_TYPE_DESCRIPTOR_SET, HANDLE(set->handle), set->id);
    if (!u.found)
        return;
    char how[96];
    snprintf(how, sizeof(how), "; binding %u was created without UPDATE_AFTER_BIND or UPDATE_UNUSED_WHILE_PENDING",
             binding);
    report_pending(ld, CHECK_LIFETIME_UPDATED_WHILE_PENDING, call, VK_OBJECT_TYPE_DESCRIPTOR_SET, HANDLE(set->handle),
                   "updates", &u, how);
}

/* --- freed descriptor sets ---------------------------------------------------------------------- */

static uint32_t freed_slot(uint64_t set, uint32_t size)
{
    return (uint32_t)((set * 0x9E3779B97F4A7C15ull) >> 32) & (size - 1);
}

static void freed_rebuild(struct lifetime_tracker *t, uint32_t size, const uint64_t *skip)
{
    uint64_t *old = t->freed_sets;
    uint32_t old_size = t->freed_size;
    uint64_t *table = calloc(size, sizeof(*table));
    if (table == NULL)
        return;
    t->freed_sets = table;
    t->freed_size = size;
    uint32_t count = 0;
    for (uint32_t i = 0; i < old_size; ++i)
        if (old[i] != 0 && (skip == NULL || old[i] != *skip)) {
            uint32_t slot = freed_slot(old[i], size);
            while (table[slot] != 0)
                slot = (slot + 1) & (size - 1);
            table[slot] = old[i];
            count++;
        }
    __atomic_store_n(&t->freed_count, count, __ATOMIC_RELAXED); /* read without the lock at allocation */
    free(old);
}

void lifetime_set_freed(struct layer_device *ld, uint64_t set)
{
    struct lifetime_tracker *t = tracker_of(ld, true);
    if (t == NULL || set == 0)
        return;
    pthread_mutex_lock(&t->lock);
    if (t->freed_count >= FREED_SETS_MAX) {
        free(t->freed_sets); /* forgotten: a later bind of one is no longer recognized */
        t->freed_sets = NULL;
        t->freed_size = 0;
        __atomic_store_n(&t->freed_count, 0, __ATOMIC_RELAXED);
    }
    if ((t->freed_count + 1) * 2 > t->freed_size)
        freed_rebuild(t, t->freed_size ? t->freed_size * 2 : 256, NULL);
    if (t->freed_sets != NULL) {
        uint32_t slot = freed_slot(set, t->freed_size);
        for (; t->freed_sets[slot] != 0 && t->freed_sets[slot] != set; slot = (slot + 1) & (t->freed_size - 1))
            ;
        if (t->freed_sets[slot] == 0) {
            t->freed_sets[slot] = set;
            __atomic_store_n(&t->freed_count, t->freed_count + 1, __ATOMIC_RELAXED);
        }
    }
    pthread_mutex_unlock(&t->lock);
}

static bool freed_contains(const struct lifetime_tracker *t, uint64_t set)
{
    if (t->freed_count == 0)
        return false;
    for (uint32_t slot = freed_slot(set, t->freed_size); t->freed_sets[slot] != 0;
         slot = (slot + 1) & (t->freed_size - 1))
        if (t->freed_sets[slot] == set)
            return true;
    return false;
}

void lifetime_set_allocated(struct layer_device *ld, uint64_t set)
{
    struct lifetime_tracker *t = tracker_of(ld, false);
    if (t == NULL || __atomic_load_n(&t->freed_count, __ATOMIC_RELAXED) == 0)
        return;
    pthread_mutex_lock(&t->lock);
    if (freed_contains(t, set))
        freed_rebuild(t, t->freed_size, &set); /* open addressing: removal by rebuilding (rare: a reused handle) */
    pthread_mutex_unlock(&t->lock);
}

void lifetime_check_bind_set(struct layer_device *ld, struct command_buffer_state *cb, VkDescriptorSet set,
                             const char *call)
{
    struct lifetime_tracker *t = tracker_of(ld, false);
    if (t == NULL || set == VK_NULL_HANDLE)
        return;
    pthread_mutex_lock(&t->lock);
    bool freed = freed_contains(t, HANDLE(set));
    pthread_mutex_unlock(&t->lock);
    if (!freed)
        return;
    struct finding f = {.check = CHECK_LIFETIME_STALE_DESCRIPTOR_SET, .call = call, .command_buffer = cb};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_COMMAND_BUFFER, HANDLE((uintptr_t)cb->handle)};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_DESCRIPTOR_SET, HANDLE(set)};
    char text[160];
    snprintf(
        f.message, sizeof(f.message),
        "%s (command %u) binds %s, which was freed (vkFreeDescriptorSets, or its pool reset or destroyed) and not "
        "allocated again: a set kept across its pool's reset is no longer valid; allocate it again after the reset",
        call, cb->command_index,
        finding_object_text(ld, VK_OBJECT_TYPE_DESCRIPTOR_SET, HANDLE(set), text, sizeof(text)));
    finding_report(ld->instance, ld, &f);
}
