/* The bound state of a bind point and its memos (bound_state.h): the recall of states bound
 * before, by content, and the table of sets bound recently. */
#include "bound_state.h"

#include <stdlib.h>
#include <string.h>

#include "state_descriptors.h"
#include "state_pipelines.h"

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

/* The state bound now: slot `current` - 1 (0: none recalled), its memos kept beside it. */
static inline void set_current(struct bound_state *b, uint32_t current)
{
    b->current = current;
    b->current_memos = current == 0 ? &b->unrecalled : &b->slots[current - 1].memos;
}

void bound_state_init(struct bound_state *b)
{
    set_current(b, 0);
}

/* The recall table at `count` slots, this generation's states moved to their new homes with their
 * memos; false when out of memory (the table is unchanged). */
static bool resize_slots(struct bound_state *b, uint32_t count)
{
    struct bound_slot *grown = aligned_alloc(BOUND_SLOT_ALIGN, count * sizeof(*grown));
    if (grown == NULL)
        return false;
    memset(grown, 0, count * sizeof(*grown));
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
            free(old->memos.access_cache);
            if (slot_holds(b, old))
                b->slots_used--;
        } else {
            *to = *old;
        }
    }
    free(b->slots);
    b->slots = grown;
    b->slot_count = count;
    set_current(b, 0);
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
        set_current(b, (uint32_t)(slot - b->slots) + 1);
        return;
    }
    /* new content: a serial never used by this bound state */
    b->serial = ++b->last_serial;
    slot = recallable ? slot_for(b, now.hash) : NULL;
    if (slot == NULL) {
        set_current(b, 0);
        return;
    }
    now.serial = b->serial;
    now.generation = b->generation;
    slot->recall = now;
    set_current(b, (uint32_t)(slot - b->slots) + 1);
}

/* After a bind changed the bound state to `m`'s set alone (at `index`, no dynamic offsets): its
 * serial recalled through the slot `m` remembers, when that slot still holds this content; false
 * when not. */
static bool bound_state_recall_lone(struct bound_state *b, uint32_t index, const struct bound_set_memo *m)
{
    if (m->slot == 0 || m->slot > b->slot_count || index >= BOUND_RECALL_SETS || b->dynamic_mask != 0 ||
        b->set_mask != 1u << index)
        return false;
    const struct bound_slot *slot = &b->slots[m->slot - 1];
    const struct bound_recall *r = &slot->recall;
    /* the content recall_entry would build: the pipeline, `index` + 1 sets, all but the last empty */
    if (!slot_holds(b, slot) || r->pipeline_id != (b->pipeline ? b->pipeline->id : 0) || r->set_count != index + 1 ||
        r->set_ids[index] != b->sets[index]->id)
        return false;
    for (uint32_t i = 0; i < index; ++i)
        if (r->set_ids[i] != 0)
            return false;
    b->serial = r->serial;
    set_current(b, m->slot);
    return true;
}

void bound_state_sets_changed(struct bound_state *b, uint32_t first, uint32_t set_count, struct bound_set_memo *memo)
{
    /* one set bound alone (engines rotate them through one pipeline): recalled through its memo */
    bool lone = set_count == 1 && memo != NULL && b->dynamic_mask == 0 && b->set_mask == 1u << first;
    if (lone && bound_state_recall_lone(b, first, memo))
        return;
    bound_state_changed(b);
    if (lone)
        memo->slot = b->current;
}

void bound_state_forget(struct bound_state *b)
{
    b->generation++;
    b->slots_used = 0;
    set_current(b, 0);
    b->serial = ++b->last_serial;
}

void bound_state_free(struct bound_state *b)
{
    for (uint32_t i = 0; i < b->slot_count; ++i)
        free(b->slots[i].memos.access_cache);
    free(b->slots);
    free(b->unrecalled.access_cache);
    free(b->recent_sets);
    b->recent_sets = NULL;
    b->recent_bits = 0;
    b->slots = NULL;
    b->unrecalled.access_cache = NULL;
    b->slot_count = b->slots_used = 0;
    set_current(b, 0);
}

static struct bound_set_memo *recent_bucket(struct bound_set_memo *table, uint32_t bits, uint64_t handle)
{
    return &table[((handle * 0x9E3779B97F4A7C15ull) >> (64 - bits)) * BOUND_RECENT_WAYS];
}

/* The memo table of `b` at `bits` buckets, the live memos moved over (those that find no way in
 * their new bucket are dropped); false when out of memory (then it is as it was). */
static bool resize_recent(struct bound_state *b, uint32_t bits, uint64_t set_epoch)
{
    struct bound_set_memo *table = calloc((size_t)BOUND_RECENT_WAYS << bits, sizeof(*table));
    if (table == NULL)
        return false;
    for (uint32_t i = 0; b->recent_sets != NULL && i < (BOUND_RECENT_WAYS << b->recent_bits); ++i) {
        const struct bound_set_memo *m = &b->recent_sets[i];
        if (m->handle == 0 || m->set_epoch != set_epoch)
            continue;
        struct bound_set_memo *bucket = recent_bucket(table, bits, m->handle);
        for (uint32_t way = 0; way < BOUND_RECENT_WAYS; ++way)
            if (bucket[way].handle == 0) {
                bucket[way] = *m;
                break;
            }
    }
    free(b->recent_sets);
    b->recent_sets = table;
    b->recent_bits = bits;
    return true;
}

struct bound_set_memo *bound_set_memo_find(struct bound_state *b, uint64_t handle, uint64_t set_epoch)
{
    struct bound_set_memo *bucket =
        b->recent_sets != NULL ? recent_bucket(b->recent_sets, b->recent_bits, handle) : NULL;
    for (uint32_t way = 0; bucket != NULL && way < BOUND_RECENT_WAYS; ++way)
        if (bucket[way].handle == handle && bucket[way].set_epoch == set_epoch)
            return &bucket[way];
    return NULL;
}

struct bound_set_memo *bound_set_memo_store(struct bound_state *b, uint64_t handle, struct set_state *set,
                                            uint64_t set_epoch)
{
    struct bound_set_memo *bucket =
        b->recent_sets != NULL ? recent_bucket(b->recent_sets, b->recent_bits, handle) : NULL;
    const struct bound_set_memo *oldest = bucket != NULL ? &bucket[BOUND_RECENT_WAYS - 1] : NULL;
    bool full = oldest != NULL && oldest->handle != 0 && oldest->set_epoch == set_epoch;
    if ((bucket == NULL || (full && b->recent_bits < BOUND_RECENT_MAX_BITS)) &&
        resize_recent(b, b->recent_sets ? b->recent_bits + 2 : BOUND_RECENT_FIRST_BITS, set_epoch))
        bucket = recent_bucket(b->recent_sets, b->recent_bits, handle);
    if (bucket == NULL)
        return NULL;
    /* the newest first in its bucket: the oldest way is the one pushed out */
    memmove(&bucket[1], &bucket[0], (BOUND_RECENT_WAYS - 1) * sizeof(*bucket));
    bucket[0] = (struct bound_set_memo){.handle = handle, .set = set, .set_epoch = set_epoch};
    return &bucket[0];
}
