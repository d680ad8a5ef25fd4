/* What is bound at one bind point of a command buffer, and the memos that keep its per-command
 * checks cheap - one room for them:
 * - bound_key: whether a bound state changed since a check last looked at it;
 * - bound_memos: what the checks derived from one bound state (check_binding's and the
 *   written-buffers keys, command_access.c's descriptor accesses), kept with the state;
 * - the recall: a state bound again (by content) gets its serial and memos back;
 * - the recent sets: descriptor sets bound recently, found without the device's map.
 * The memos per descriptor set (whatever bound state it is in) are the set's own
 * (state_descriptors.h). */
#ifndef PREFLIGHT_LAYER_BOUND_STATE_H
#define PREFLIGHT_LAYER_BOUND_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "state_device.h"
#include "state_pipelines.h"

#define MAX_DYNAMIC_PER_SET 16

struct set_state;

/* Whether a bound state changed since a check last looked at it: per-command checks whose result
 * depends only on the bound pipeline, sets and descriptor contents run again only then (engines
 * re-bind the same state and dispatch or draw with it over and over). */
struct bound_key {
    uint64_t serial, epoch;
    bool valid;
};

struct command_access_cache; /* command_access.c */

/* What the per-command checks derived from one bound state, each with the key it was taken at. */
struct bound_memos {
    struct bound_key binding_checked, writes_noted; /* check_binding, the written-buffers list */
    uint64_t lifetime_serial; /* check_lifetime: the serial at which its sets were noted (0: never) */
    /* the descriptor accesses: one malloc'd block without pointers inside, made by
     * command_access.c and freed with the memos (bound_state_free) */
    struct command_access_cache *access_cache;
};

/* A bound state seen recently, by content: engines rotate descriptor sets (per material, per
 * frame in flight, dozens of them) with one pipeline, and a state bound again gets its serial and
 * memos back. The recalled states are a hash table (by content), grown as more distinct states are
 * bound in one recording, up to BOUND_RECALL_MAX; past that a new state takes its home slot's place.
 * States with dynamic offsets or more than BOUND_RECALL_SETS sets are not recalled. */
#define BOUND_RECALL_FIRST 8
#define BOUND_RECALL_MAX 256
#define BOUND_RECALL_PROBE 8 /* slots looked at from a state's home slot */
#define BOUND_RECALL_SETS 8
struct bound_recall {
    uint64_t serial;     /* 0: nothing to recall */
    uint64_t generation; /* the bound state's generation it was recalled in (bound_state_forget) */
    uint64_t hash;       /* of the content below: compared first */
    uint64_t pipeline_id;
    uint32_t set_count;
    uint64_t set_ids[BOUND_RECALL_SETS];
};
/* 64-byte aligned (BOUND_SLOT_ALIGN): the memos fill the first cache line, and a probe reads the
 * second (the content up to its third set); a rotated state costs two lines. */
#define BOUND_SLOT_ALIGN 64
struct bound_slot {
    struct bound_memos memos;
    struct bound_recall recall;
} __attribute__((aligned(BOUND_SLOT_ALIGN)));
_Static_assert(sizeof(struct bound_memos) == BOUND_SLOT_ALIGN, "the memos fill one cache line");

/* A descriptor set bound recently at one bind point of one command buffer: its state without the
 * device's map (valid while the device's set_epoch is unchanged: no set left the map since, so
 * this one is still the live state of its handle), and the recall slot where the bound state "a
 * pipeline with this set alone" was last (a hint: the slot's own content says whether it still
 * is). Engines rotate dozens of sets through one pipeline. Two ways per bucket, by handle; the
 * table starts at 8 buckets (512 bytes) at a bind point's first bind and grows by 4x when a set
 * would push out a live one, up to 128 buckets (8 KB). */
#define BOUND_RECENT_FIRST_BITS 3
#define BOUND_RECENT_MAX_BITS 7
#define BOUND_RECENT_WAYS 2u
struct bound_set_memo {
    uint64_t handle;
    struct set_state *set;
    uint64_t set_epoch;
    uint32_t slot; /* 1 + the recall slot; 0: none */
};

struct bound_state {
    uint64_t serial;          /* identifies the bound pipeline, sets and dynamic offsets (bound_state_changed) */
    uint64_t lifetime_serial; /* check_lifetime: the serial whose sets were noted last */
    uint64_t last_serial;     /* the last serial handed out: a serial is never used for two contents */
    struct pipeline_state *pipeline;
    struct set_state *sets[MAX_BOUND_SETS];
    /* per set, the dynamic offsets for its dynamic buffers, in binding order */
    uint32_t dynamic_offsets[MAX_BOUND_SETS][MAX_DYNAMIC_PER_SET];
    uint32_t dynamic_count[MAX_BOUND_SETS];
    uint32_t set_mask, dynamic_mask; /* bit i: sets[i] is bound, dynamic_count[i] != 0 (MAX_BOUND_SETS <= 32) */
    uint32_t stale_mask; /* bit i: the last bind at i named a set the layer does not know (freed, or never made) */
    uint32_t current;    /* 1 + the slot of the state bound now; 0: it is not recalled */
    /* &slots[current - 1].memos, &unrecalled when current is 0 (set with current, in
     * bound_state.c; bound_state_init when the state is made): never NULL, since every dispatch
     * reaches its memos several times, and the index arithmetic, then the test for NULL, showed */
    struct bound_memos *current_memos;
    uint64_t generation;             /* slots of another generation hold nothing (bound_state_forget) */
    uint32_t slot_count, slots_used; /* a power of two (0 until a state is first recalled); used this generation */
    struct bound_slot *slots;
    struct bound_memos unrecalled;      /* the memos of a state that is not recalled */
    struct bound_set_memo *recent_sets; /* (1 << recent_bits) buckets of BOUND_RECENT_WAYS */
    uint32_t recent_bits;
};
/* After a bind changed the bound state: its serial, recalled when the same content was bound
 * recently, else new. */
void bound_state_changed(struct bound_state *b);
/* After vkCmdBindDescriptorSets of `set_count` sets from `first` changed the bound state: as
 * bound_state_changed, but one set bound alone (no dynamic offsets, `memo` its recent-set memo) is
 * recalled through the slot its memo remembers, and the memo remembers the slot it takes. */
void bound_state_sets_changed(struct bound_state *b, uint32_t first, uint32_t set_count, struct bound_set_memo *memo);
/* Something besides the binds changed what the checks derive (a new subpass): nothing recalled. */
void bound_state_forget(struct bound_state *b);
/* A bound state just made (zeroed, in its command buffer's state): nothing bound or recalled. */
void bound_state_init(struct bound_state *b);
static inline struct bound_memos *bound_memos_of(struct bound_state *b)
{
    return b->current_memos;
}
/* Frees the memos' blocks and the recall table (command_buffer_free_state). */
void bound_state_free(struct bound_state *b);

/* True when `b` is as it was when `key` was last taken; otherwise takes it now and returns false. */
static inline bool bound_key_unchanged(struct bound_key *key, const struct bound_state *b,
                                       const struct layer_device *ld)
{
    uint64_t epoch = __atomic_load_n(&ld->resource_epoch, __ATOMIC_ACQUIRE);
    if (key->valid && key->serial == b->serial && key->epoch == epoch)
        return true;
    *key = (struct bound_key){.serial = b->serial, .epoch = epoch, .valid = true};
    return false;
}

/* The recent-set memo of `handle` at `b` taken at the device's `set_epoch` (read before the map:
 * a set freed after it makes a memo taken now stale), or NULL. */
struct bound_set_memo *bound_set_memo_find(struct bound_state *b, uint64_t handle, uint64_t set_epoch);
/* Memoizes `set` (the map's state of `handle`, looked up at `set_epoch`), the newest in its bucket;
 * the memo, or NULL when out of memory. */
struct bound_set_memo *bound_set_memo_store(struct bound_state *b, uint64_t handle, struct set_state *set,
                                            uint64_t set_epoch);

#endif
