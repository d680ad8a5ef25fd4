#include "layer_state.h"

#include "check_hazard.h"
#include "check_lifetime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void set_layout_release(struct set_layout_state *s)
{
    if (s != NULL && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        free(s->bindings);
        free(s);
    }
}

void set_state_release(struct set_state *s)
{
    if (s != NULL && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        set_layout_release(s->layout);
        free(s->descriptors);
        free(s->alias);
        free(s);
    }
}

void pipeline_layout_release(struct pipeline_layout_state *s)
{
    if (s != NULL && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        for (uint32_t i = 0; i < s->set_count; ++i)
            set_layout_release(s->sets[i]);
        free(s);
    }
}

void pipeline_release(struct pipeline_state *s)
{
    if (s != NULL && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        pipeline_layout_release(s->layout);
        reflect_free(&s->shader);
        free(s);
    }
}

void render_pass_state_free(void *state)
{
    struct render_pass_state *r = state;
    if (r != NULL) {
        free(r->subpasses);
        free(r->attachments);
        free(r->dependencies);
        free(r);
    }
}

struct command_buffer_state *command_buffer_state_of(VkCommandBuffer cb)
{
    struct command_buffer_state *state;
    command_buffer_device(cb, &state);
    return state;
}

uint64_t command_buffer_generation;
_Thread_local __attribute__((tls_model("initial-exec"))) struct command_buffer_lookup last_command_buffer_lookup;

void command_buffers_forgotten(void)
{
    __atomic_add_fetch(&command_buffer_generation, 1, __ATOMIC_ACQ_REL);
}

struct layer_device *command_buffer_lookup_slow(VkCommandBuffer cb, struct command_buffer_state **state)
{
    uint64_t generation = __atomic_load_n(&command_buffer_generation, __ATOMIC_ACQUIRE);
    struct layer_device *ld = layer_device_of(cb);
    *state = ld ? handle_map_get(&ld->command_buffers, (uint64_t)(uintptr_t)cb) : NULL;
    if (*state != NULL)
        last_command_buffer_lookup = (struct command_buffer_lookup){cb, generation, ld, *state};
    return ld;
}

void command_buffer_labels_changed(struct layer_device *ld, struct command_buffer_state *cb)
{
    char path[256];
    size_t at = 0;
    path[0] = 0;
    for (uint32_t i = 0; i < cb->label_depth && at < sizeof(path); ++i)
        at += (size_t)snprintf(path + at, sizeof(path) - at, "%s%s", i ? "/" : "", cb->labels[i] ? cb->labels[i] : "");
    cb->label_path = NULL;
    if (cb->label_depth == 0)
        return;
    uint64_t hash = 1469598103934665603ull;
    for (const char *c = path; *c; ++c)
        hash = (hash ^ (uint8_t)*c) * 1099511628211ull;
    hash = hash ? hash : 1;
    pthread_mutex_lock(&ld->label_lock);
    const char *known = handle_map_get(&ld->label_paths, hash);
    if (known != NULL && strcmp(known, path) == 0) {
        cb->label_path = known;
    } else if (known == NULL && ld->label_path_count < MAX_LABEL_PATHS) {
        char *copy = strdup(path);
        if (copy != NULL && handle_map_put(&ld->label_paths, hash, copy)) {
            ld->label_path_count++;
            cb->label_path = copy;
        } else {
            free(copy);
        }
    } /* a hash collision or a full table: no labels for this command's uses */
    pthread_mutex_unlock(&ld->label_lock);
}

/* The bound content as a recall entry; false when it is not recalled. */
static bool recall_entry(const struct bound_state *b, struct bound_recall *out)
{
    if (b->dynamic_mask != 0 || (b->set_mask >> BOUND_RECALL_SETS) != 0)
        return false;
    uint32_t bound = b->set_mask ? 32 - (uint32_t)__builtin_clz(b->set_mask) : 0;
    out->pipeline_id = b->pipeline ? b->pipeline->id : 0;
    out->set_count = bound;
    uint64_t hash = out->pipeline_id * 0x9E3779B97F4A7C15ull + bound;
    for (uint32_t i = 0; i < bound; ++i) {
        out->set_ids[i] = b->sets[i] ? b->sets[i]->id : 0;
        hash = (hash ^ out->set_ids[i]) * 0xBF58476D1CE4E5B9ull;
    }
    out->hash = hash;
    return true;
}

static bool same_content(const struct bound_recall *x, const struct bound_recall *y)
{
    if (x->pipeline_id != y->pipeline_id || x->set_count != y->set_count)
        return false;
    for (uint32_t i = 0; i < x->set_count; ++i)
        if (x->set_ids[i] != y->set_ids[i])
            return false;
    return true;
}

static uint32_t home_slot(uint64_t hash, uint32_t slot_count)
{
    return (uint32_t)(hash >> 32) & (slot_count - 1);
}

static bool slot_holds(const struct bound_state *b, const struct bound_slot *slot)
{
    return slot->recall.serial != 0 && slot->recall.generation == b->generation;
}

/* The recall table at `count` slots, this generation's states moved to their new homes with their
 * memos; false when out of memory (the table is unchanged). */
static bool resize_slots(struct bound_state *b, uint32_t count)
{
    struct bound_slot *grown = calloc(count, sizeof(*grown));
    if (grown == NULL)
        return false;
    for (uint32_t i = 0; i < b->slot_count; ++i) {
        struct bound_slot *old = &b->slots[i];
        struct bound_slot *to = NULL;
        for (uint32_t k = 0, home = home_slot(old->recall.hash, count); slot_holds(b, old) && k < BOUND_RECALL_PROBE;
             ++k)
            if (!slot_holds(b, &grown[(home + k) & (count - 1)])) {
                to = &grown[(home + k) & (count - 1)];
                break;
            }
        if (to == NULL) {
            free(old->memos.alias_cache);
            if (slot_holds(b, old))
                b->slots_used--;
        } else {
            *to = *old;
        }
    }
    free(b->slots);
    b->slots = grown;
    b->slot_count = count;
    b->current = 0;
    return true;
}

static struct bound_slot *recalled(struct bound_state *b, const struct bound_recall *now)
{
    for (uint32_t k = 0, home = home_slot(now->hash, b->slot_count); k < BOUND_RECALL_PROBE && k < b->slot_count; ++k) {
        struct bound_slot *slot = &b->slots[(home + k) & (b->slot_count - 1)];
        if (!slot_holds(b, slot))
            return NULL; /* states are never taken out of a generation: the probe ends at a gap */
        if (slot->recall.hash == now->hash && same_content(&slot->recall, now))
            return slot;
    }
    return NULL;
}

/* A slot for a new state: the first free one near its home, else its home (replacing a state
 * there keeps every probe sequence unbroken). */
static struct bound_slot *slot_for(struct bound_state *b, uint64_t hash)
{
    if (b->slots == NULL && !resize_slots(b, BOUND_RECALL_FIRST))
        return NULL;
    if ((b->slots_used + 1) * 2 > b->slot_count && b->slot_count < BOUND_RECALL_MAX)
        resize_slots(b, b->slot_count * 2); /* out of memory: the states recalled stay as they are */
    uint32_t home = home_slot(hash, b->slot_count);
    for (uint32_t k = 0; k < BOUND_RECALL_PROBE && k < b->slot_count; ++k) {
        struct bound_slot *slot = &b->slots[(home + k) & (b->slot_count - 1)];
        if (!slot_holds(b, slot)) {
            b->slots_used++;
            return slot;
        }
    }
    return &b->slots[home];
}

void bound_state_changed(struct bound_state *b)
{
    struct bound_recall now;
    bool recallable = recall_entry(b, &now);
    struct bound_slot *slot = recallable && b->slots != NULL ? recalled(b, &now) : NULL;
    if (slot != NULL) {
        b->serial = slot->recall.serial;
        b->current = (uint32_t)(slot - b->slots) + 1;
        return;
    }
    /* new content: a serial never used by this bound state */
    b->serial = ++b->last_serial;
    slot = recallable ? slot_for(b, now.hash) : NULL;
    if (slot == NULL) {
        b->current = 0;
        return;
    }
    now.serial = b->serial;
    now.generation = b->generation;
    slot->recall = now;
    b->current = (uint32_t)(slot - b->slots) + 1;
}

void bound_state_forget(struct bound_state *b)
{
    b->generation++;
    b->slots_used = 0;
    b->current = 0;
    b->serial = ++b->last_serial;
}

void bound_state_free(struct bound_state *b)
{
    for (uint32_t i = 0; i < b->slot_count; ++i)
        free(b->slots[i].memos.alias_cache);
    free(b->slots);
    free(b->unrecalled.alias_cache);
    b->slots = NULL;
    b->unrecalled.alias_cache = NULL;
    b->slot_count = b->slots_used = b->current = 0;
}

static void unbind(struct bound_state *b)
{
    pipeline_release(b->pipeline);
    b->pipeline = NULL;
    for (int i = 0; i < MAX_BOUND_SETS; ++i) {
        set_state_release(b->sets[i]);
        b->sets[i] = NULL;
        b->dynamic_count[i] = 0;
    }
    b->set_mask = b->dynamic_mask = b->stale_mask = 0;
    bound_state_forget(b); /* a new recording: the written-buffers memo must not be recalled */
}

#define KEPT_LIST_ENTRIES 1024
void command_buffer_reset_state(struct command_buffer_state *cb)
{
    unbind(&cb->compute);
    unbind(&cb->graphics);
    for (uint32_t i = 0; i < cb->label_depth; ++i)
        free(cb->labels[i]);
    cb->label_depth = 0;
    cb->label_path = NULL;
    cb->command_index = 0;
    cb->push_valid = 0;
    /* the lists keep their memory for the next recording (engines re-record the same command
     * buffers every frame: growing them again each time showed in the recording cost), unless
     * one recording made them large */
    cb->indirect_count = 0;
    if (cb->indirect_capacity > KEPT_LIST_ENTRIES) {
        free(cb->indirect);
        cb->indirect = NULL;
        cb->indirect_capacity = 0;
    }
    cb->written_count = 0;
    if (cb->written_capacity > KEPT_LIST_ENTRIES) {
        free(cb->written_buffers);
        free(cb->written_table);
        cb->written_buffers = NULL;
        cb->written_table = NULL;
        cb->written_capacity = cb->written_table_size = 0;
    } else if (cb->written_table != NULL) {
        memset(cb->written_table, 0, cb->written_table_size * sizeof(*cb->written_table));
    }
    static uint64_t recordings;
    cb->recording = __atomic_add_fetch(&recordings, 1, __ATOMIC_RELAXED);
    memset(cb->vertex_buffers, 0, sizeof(cb->vertex_buffers));
    memset(cb->vertex_offsets, 0, sizeof(cb->vertex_offsets));
    cb->index_buffer = VK_NULL_HANDLE;
    cb->index_offset = 0;
    cb->index_size = 0;
    cb->attachment_count = 0;
    cb->render_pass = VK_NULL_HANDLE;
    cb->pass_view_count = cb->subpass = 0;
    cb->depth_write_enable = false;
    cb->dynamic_rendering = false;
    cb->rendering_store_count = 0;
    hazard_reset(cb);
    lifetime_reset(cb);
}

void command_buffer_free_state(struct command_buffer_state *cb)
{
    command_buffer_reset_state(cb);
    free(cb->indirect);
    free(cb->written_buffers);
    free(cb->written_table);
    hazard_free(cb);
    lifetime_free(cb);
    bound_state_free(&cb->compute);
    bound_state_free(&cb->graphics);
    free(cb);
}
