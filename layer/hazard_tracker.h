/* The access-state machine behind the `hazard` area, shared by record time (one tracker per
 * command buffer, check_hazard.c) and submit time (one per queue, check_hazard_submit.c).
 *
 * A tracker holds, per memory range touched (buffer memory bytes or image mips x layers), the last
 * write and the reads since it, and a log of the barriers recorded. Barriers are applied to a
 * range lazily, when the range is next looked at (each range remembers how much of the log it has
 * seen): a barrier costs one append however many ranges are tracked, and an access only visits
 * the ranges with its key (a hash index by VkDeviceMemory or VkImage). */
#ifndef PREFLIGHT_LAYER_HAZARD_TRACKER_H
#define PREFLIGHT_LAYER_HAZARD_TRACKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "checks.h"
#include "memory_access.h"
#include "image_area.h"

#define HAZARD_MAX_RANGES 4096
/* Reads remembered since a range's last write, one per stage mask (a newer read at the same
 * stages replaces the older). A read at other stages past these is folded into the last slot:
 * the stages of both, ordered only by a barrier whose first scope holds all of them (or chains
 * from a stage both were ordered before), so a fifth reader can make a write-after-read be
 * reported that a barrier over only one of the folded stages orders, never hide one. */
#define HAZARD_MAX_READS 4
#define HAZARD_MAX_LOGGED_BARRIERS 65536

/* 96 bytes, the booleans beside the 32-bit index: a tracker keeps five per range and walks many
 * ranges. The first 48 bytes are what the steady path of check_hazard.c reads and writes (what
 * the use is, and which command it was): in a range they sit in one cache line. */
struct hazard_use {
    uint64_t stages, access;
    uint32_t command_index;
    bool transition; /* an image layout transition (ordered with the other transitions of its queue) */
    bool folded;     /* reads: several reads of different stages in one slot (HAZARD_MAX_READS) */
    const char *call;
    uint64_t command_buffer; /* the VkCommandBuffer that recorded it */
    const char *labels;      /* the debug labels active then (interned in the device), or NULL */
    uint64_t named_stages;   /* for messages: the stage mask as the application wrote it (0: from `stages`) */
    uint64_t ordered_stages; /* stages an execution dependency orders after this use */
    uint64_t visible_stages; /* a write: stages it was made visible to */
    uint64_t visible_access;
    uint64_t available_stages; /* a write: stages its availability operation is ordered before (a barrier
                                * whose first access scope held it, chained through later barriers) */
    uint64_t submission;       /* queue trackers: the batch's number on its queue */
};

/* A use recorded now, written where it is kept, every field set one by one: an initializer that
 * zeroes the struct first compiles to a `rep stos`, and a use built aside costs a copy. */
static inline void hazard_use_set_now(struct hazard_use *u, uint64_t stages, uint64_t access, uint32_t command_index,
                                      const char *call, uint64_t command_buffer, const char *labels)
{
    u->stages = stages;
    u->access = access;
    u->named_stages = 0;
    u->transition = false;
    u->folded = false;
    u->ordered_stages = 0;
    u->visible_stages = 0;
    u->visible_access = 0;
    u->available_stages = 0;
    u->command_index = command_index;
    u->call = call;
    u->command_buffer = command_buffer;
    u->labels = labels;
    u->submission = 0;
}
static inline struct hazard_use hazard_use_now(uint64_t stages, uint64_t access, uint32_t command_index,
                                               const char *call, uint64_t command_buffer, const char *labels)
{
    struct hazard_use u;
    hazard_use_set_now(&u, stages, access, command_index, call, command_buffer, labels);
    return u;
}

/* Laid out by cache line (ranges are allocated 64-byte aligned, HAZARD_RANGE_ALIGN): the first
 * line holds what every look at a range reads (its bounds, how far it is caught up, whether it
 * holds a write and how many reads, the steady-path state); each use's first 48 bytes fall in one
 * line (reads[0] at 64, write at 448). An access met on the steady path touches two lines. */
#define HAZARD_RANGE_ALIGN 64
struct hazard_range {
    uint64_t key, begin, end;
    /* command-buffer trackers: stages whose reads are already in the entry list */
    uint64_t entry_read_stages;
    uint32_t layer_begin, layer_end;
    uint32_t applied; /* barriers of the log applied to it */
    uint32_t next;    /* next range with the same hash bucket, index + 1 */
    uint32_t read_count;
    /* command-buffer trackers (check_hazard.c): 1 + the barrier run after which its last access,
     * met again, was found to meet nothing and to leave the range as it was (0: none). Set only
     * when the range is the one of its key, right after that access was recorded; cleared by
     * every other change to the range (a record, a barrier applied, a new range of its key), so
     * while it is set the use is exactly as tracker_record_now left it. */
    uint32_t steady_run;
    bool image;
    bool has_write;
    /* command-buffer trackers: a write of this command buffer ended the range's entry accesses */
    bool written_here;
    bool steady_read; /* whether that access also read (its use does not say) */
    struct hazard_use reads[HAZARD_MAX_READS];
    struct hazard_use write;
    uint64_t resource;
    uint32_t area; /* images: the render area its accesses were limited to (image_area.h), 0: all pixels */
} __attribute__((aligned(HAZARD_RANGE_ALIGN)));
_Static_assert(offsetof(struct hazard_range, reads) == HAZARD_RANGE_ALIGN &&
                   offsetof(struct hazard_range, write) % HAZARD_RANGE_ALIGN == 0,
               "each use's first 48 bytes in one cache line");

/* A stage mask as a synchronization scope: `exec`, the stages whose execution it orders (with the
 * logically earlier stages of a source, the later ones of a destination), and `access`, the
 * stages whose memory accesses its access scope holds (only the stages named, meta stages and
 * stage families expanded; none for TOP_OF_PIPE and BOTTOM_OF_PIPE). */
struct hazard_scope {
    uint64_t exec, access;
};
struct hazard_scope hazard_scope_of(uint64_t mask, bool first);

/* One barrier of the log: stage scopes already expanded, memory barriers in `memory`. */
struct hazard_logged_barrier {
    uint64_t src, dst;               /* execution scopes */
    uint64_t src_access, dst_access; /* the stages of the access scopes */
    uint32_t first, count;
    bool repeats;       /* equal to the barrier before it: applying it right after that one changes nothing */
    uint32_t run_start; /* the first barrier of the run of repeats it belongs to (its own index if none) */
};

/* An access that may touch work recorded before this command buffer: every access to a range
 * until the command buffer's own first write to it (later ones meet that write first). */
struct hazard_entry {
    struct hazard_access access;
    uint32_t command_index;
    const char *call;
    uint32_t barrier_index;  /* barriers of the command buffer recorded before it */
    bool transition;         /* an image layout transition: a write ordered before dst_stages */
    bool ownership_transfer; /* transitions: part of a queue family ownership transfer */
    uint64_t src_access;     /* transitions: the barrier's source access scope */
    uint64_t src_access_stages;
    uint64_t dst_stages, dst_access;
};

struct hazard_tracker {
    struct hazard_range *ranges;
    uint32_t count, capacity;
    uint32_t *buckets;                  /* index + 1 of the first range of each bucket */
    uint32_t bucket_count, bucket_bits; /* bucket_count == 1 << bucket_bits */
    struct hazard_logged_barrier *barriers;
    uint32_t barrier_count, barrier_capacity;
    struct hazard_memory_barrier *memory;
    uint32_t memory_count, memory_capacity;
    struct hazard_entry *entries;
    uint32_t entry_count, entry_capacity;
    bool incomplete; /* the log or entries overflowed: submit time assumes the app right */
    /* the last stage masks expanded, as given and expanded (zeros expand to zeros) */
    uint64_t raw_src, raw_dst;
    struct hazard_scope expanded_src, expanded_dst;
    /* barrier_count right after the last barrier was logged from raw_src/raw_dst with one global
     * memory barrier of these access masks, while no other barrier followed it (0: none): engines
     * repeat that barrier between dispatches, and a repeat is then logged without a comparison */
    uint32_t repeat_at;
    uint64_t repeat_src_access, repeat_dst_access;
    /* setting write_after_write = visible: a second write must also be in the destination access
     * scope (Vulkan-ValidationLayers' reading), not only ordered after the first made available */
    bool strict_waw;
};

/* A memory barrier over all memory and every access: with ALL_COMMANDS scopes, a full dependency. */
extern const struct hazard_memory_barrier hazard_all_memory;

void tracker_clear(struct hazard_tracker *t);
void tracker_release(struct hazard_tracker *t);
/* Appends a barrier (expanded scopes); false when out of memory or past the cap. */
bool tracker_log_barrier(struct hazard_tracker *t, struct hazard_scope src, struct hazard_scope dst,
                         const struct hazard_memory_barrier *m, uint32_t count);
/* Room for one more logged barrier (the log grown if needed); false when out of memory or past
 * the cap. */
bool tracker_room_for_barrier(struct hazard_tracker *t);
/* Appends a repeat of the last barrier logged (there is one, and room), sharing its memory barriers. */
static inline void tracker_append_repeat(struct hazard_tracker *t)
{
    struct hazard_logged_barrier *b = &t->barriers[t->barrier_count++];
    *b = b[-1];
    b->repeats = true;
}
/* Appends a repeat of the last barrier logged (there is one); false when out of memory or past
 * the cap. Inline: engines log one between every two dispatches. */
static inline bool tracker_log_repeat(struct hazard_tracker *t)
{
    bool room = t->barrier_count < t->barrier_capacity && t->barrier_count < HAZARD_MAX_LOGGED_BARRIERS;
    if (!room && !tracker_room_for_barrier(t))
        return false;
    tracker_append_repeat(t);
    return true;
}
/* Applies the log's barriers up to `limit` to `r` (inline: mostly there is nothing to apply). */
void tracker_apply_log(struct hazard_tracker *t, struct hazard_range *r, uint32_t limit);
static inline void tracker_catch_up(struct hazard_tracker *t, struct hazard_range *r, uint32_t limit)
{
    if (r->applied < limit)
        tracker_apply_log(t, r, limit);
}
/* The bucket of the ranges with `key` (the tracker has buckets): the high bits of a Fibonacci
 * product, which every bit of the key moves (keys are driver pointers, alike in their low bits). */
static inline uint32_t tracker_bucket_of(const struct hazard_tracker *t, uint64_t key)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - t->bucket_bits));
}
/* The first range with `key` (NULL if none), and the next one after `r` (inline: every access of
 * every command walks them). */
static inline struct hazard_range *tracker_next(struct hazard_tracker *t, const struct hazard_range *r, uint64_t key)
{
    for (uint32_t i = r->next; i != 0; i = t->ranges[i - 1].next)
        if (t->ranges[i - 1].key == key)
            return &t->ranges[i - 1];
    return NULL;
}
static inline struct hazard_range *tracker_first(struct hazard_tracker *t, uint64_t key)
{
    if (t->count == 0)
        return NULL;
    uint32_t i = t->buckets[tracker_bucket_of(t, key)];
    if (i == 0)
        return NULL;
    struct hazard_range *r = &t->ranges[i - 1];
    return r->key == key ? r : tracker_next(t, r, key);
}
/* The range with exactly these bounds, added (caught up with the whole log) if new; NULL when out
 * of memory. */
struct hazard_range *tracker_find_or_add(struct hazard_tracker *t, const struct hazard_access *a);
static inline bool hazard_overlaps(const struct hazard_access *a, const struct hazard_range *r)
{
    return r->image == a->image && r->key == a->key && a->begin < r->end && r->begin < a->end &&
           (!a->image || (a->layer_begin < r->layer_end && r->layer_begin < a->layer_end &&
                          (a->area == 0 || image_areas_meet(a->area, r->area))));
}
/* `written` was just given a write over its bounds: the key's ranges it covers in part are split
 * (split_ranges) and those it covers whole get the same write, so that no range keeps uses the
 * write replaced (an earlier write of a mip level a later write rewrote is no hazard for a read of
 * that level). Returns `written` where it is now (the ranges may have moved). */
struct hazard_range *tracker_supersede(struct hazard_tracker *t, struct hazard_range *written);
/* Records access `a` into `r` (a write replaces the uses, reads accumulate). */
void tracker_record(struct hazard_range *r, const struct hazard_use *use, bool write);
/* The same for access `a` of a command being recorded, its use (hazard_use_now's) written in place.
 * Both clear the range's steady_run. */
void tracker_record_now(struct hazard_range *r, const struct hazard_access *a, uint32_t command_index, const char *call,
                        uint64_t command_buffer, const char *labels);

/* Appends `from`'s barrier log to `to`'s, a barrier repeating the one before it once;
 * positions[i] is where `to`'s log stands after `from`'s first i barriers (from->barrier_count + 1
 * entries). False when `to`'s log is full. */
bool tracker_append_log(struct hazard_tracker *to, const struct hazard_tracker *from, uint32_t *positions);
/* `from`'s final state of each range (caught up with its whole log) into `to`, after the log was
 * appended; the merged uses get `submission`. */
void tracker_merge(struct hazard_tracker *to, const struct hazard_tracker *from, uint64_t submission);

/* What, if anything, `a` conflicts with in `r`: the finding's check, the earlier use, and the
 * missing dependency in words. `skip_command`/`skip_cb`: the access's own command. */
struct hazard_conflict {
    enum check_id check;
    const struct hazard_use *before;
    bool before_wrote;
    const char *missing;
};
bool hazard_conflict(const struct hazard_access *a, const struct hazard_range *r, uint64_t skip_cb,
                     uint32_t skip_command, bool strict_waw, struct hazard_conflict *out);
/* False when `a` cannot conflict with `r` (it overlaps): every earlier use is ordered before it
 * and, where needed, visible or available. Inline, for the common case; when true, hazard_conflict
 * decides (it also exempts the access's own command) and says why. */
static inline bool hazard_may_conflict(const struct hazard_access *a, const struct hazard_range *r, bool strict_waw)
{
    if (r->has_write) {
        const struct hazard_use *w = &r->write;
        bool visible = (w->visible_stages & a->stages) && (w->visible_access & a->access);
        if (a->read && !visible)
            return true;
        if (a->write && r->read_count == 0 &&
            !(strict_waw ? visible : (w->ordered_stages & a->stages) && (w->available_stages & a->stages)))
            return true;
    }
    for (uint32_t k = 0; a->write && k < r->read_count; ++k)
        if (!(r->reads[k].ordered_stages & a->stages))
            return true;
    return false;
}
/* Same for an image layout transition with first scope `src` and source access mask `src_access`. */
bool hazard_transition_conflict(const struct hazard_range *r, struct hazard_scope src, uint64_t src_access,
                                uint64_t skip_cb, uint32_t skip_command, struct hazard_conflict *out);

/* The next range of `t` after `after` (the first when NULL) that entry access `e` of a later
 * command buffer conflicts with, each range caught up to `limit` first; NULL when none is left. */
struct hazard_range *tracker_entry_conflict(struct hazard_tracker *t, const struct hazard_entry *e, uint32_t limit,
                                            struct hazard_range *after, struct hazard_conflict *out);

#endif
