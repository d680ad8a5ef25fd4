/* The states of command pools and command buffers (hooks_commands.c and the other recording hooks):
 * what is bound at each bind point, with the memos that keep a bound state's checks cheap, the
 * debug-label stack, the command index, the current rendering's attachments, the indirect
 * dispatches to check at submit, the buffers a recording may write, and the parts the checks own. */
#ifndef PREFLIGHT_LAYER_STATE_COMMAND_BUFFERS_H
#define PREFLIGHT_LAYER_STATE_COMMAND_BUFFERS_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "memory_access.h"
#include "image_area.h"
#include "state_device.h"
#include "state_pipelines.h"

#define MAX_LABEL_DEPTH 16
#define MAX_PUSH_CONSTANT_BYTES 256
#define MAX_DYNAMIC_PER_SET 16

struct set_state;

struct command_pool_state {
    VkCommandBuffer *buffers; /* allocated from it: freed with the pool */
    uint32_t count, capacity;
};

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
    /* &slots[current - 1].memos, NULL when current is 0 (set with current, in state_command_buffers.c):
     * every dispatch reaches its memos several times, and the index arithmetic showed */
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
/* After a bind changed the bound state to `m`'s set alone (at `index`, no dynamic offsets): its
 * serial recalled through the slot `m` remembers, when that slot still holds this content; false
 * when not (then bound_state_changed, and the memo takes its b->current). */
bool bound_state_recall_lone(struct bound_state *b, uint32_t index, const struct bound_set_memo *m);
/* Something besides the binds changed what the checks derive (a new subpass): nothing recalled. */
void bound_state_forget(struct bound_state *b);
static inline struct bound_memos *bound_memos_of(struct bound_state *b)
{
    return b->current_memos != NULL ? b->current_memos : &b->unrecalled;
}
/* Frees the memos' blocks and the recall table (command_buffer_free_state). */
void bound_state_free(struct bound_state *b);

/* The work bounds of a compute shader (reflect_bound) with the values pushed for a dispatch:
 * per dimension, the count of invocations (or workgroups, `kind`) the shader works on. */
struct dispatch_bounds {
    uint32_t present;   /* bit d: dimension d has a bound */
    uint8_t kind[3];    /* REFLECT_BOUND_* */
    uint32_t offset[3]; /* of the push constant */
    uint64_t value[3];
    uint32_t local[3]; /* the shader's local size */
};

/* An indirect dispatch to check at submit, when its arguments can be read then. */
struct pending_indirect {
    VkBuffer buffer;
    VkDeviceSize offset;
    uint32_t command_index;
    struct dispatch_bounds bounds; /* as pushed when it was recorded */
};

/* An attachment the current rendering writes or reads. */
struct attachment_use {
    VkImageView view;
    bool write;
    bool depth;
};

struct command_buffer_state {
    VkCommandBuffer handle;
    VkCommandPool pool;
    struct layer_device *device;
    struct bound_state compute, graphics;
    char *labels[MAX_LABEL_DEPTH];
    uint32_t label_depth;
    const char *label_path; /* the labels joined with '/', interned in the device (NULL: none) */
    uint32_t command_index; /* commands recorded so far: names a command in findings */
    uint8_t push_constants[MAX_PUSH_CONSTANT_BYTES]; /* the bytes vkCmdPushConstants set so far */
    uint64_t push_valid;                             /* bit i: bytes [4i, 4i + 4) were pushed in this recording */
    uint32_t push_version; /* counts vkCmdPushConstants calls: equal versions, equal bytes (in one recording) */
    struct pending_indirect *indirect;
    uint32_t indirect_count, indirect_capacity;
    uint64_t recording; /* unique per recording (each begin or reset) */
    uint64_t
        *written_buffers; /* buffers a recorded command may write: indirect args read then are not known at submit */
    uint32_t written_count, written_capacity;
    uint64_t *written_table; /* their hash index (open addressing, 0 = empty), at most half full */
    uint32_t written_table_size;
    /* graphics */
    VkBuffer vertex_buffers[MAX_VERTEX_BINDINGS];
    VkDeviceSize vertex_offsets[MAX_VERTEX_BINDINGS];
    VkBuffer index_buffer;
    VkDeviceSize index_offset;
    uint32_t index_size;
    struct attachment_use attachments[MAX_ATTACHMENTS];
    uint32_t attachment_count;
    VkRenderPass render_pass; /* looked up again at vkCmdNextSubpass; VK_NULL_HANDLE outside a pass */
    VkImageView pass_views[MAX_ATTACHMENTS * 2];
    uint32_t pass_load_command[MAX_ATTACHMENTS * 2]; /* the command of each attachment's load operation */
    uint32_t pass_view_count, subpass;
    /* the render pass instance's or rendering's render area: its load, store and resolve
     * operations touch only these pixels (image_area.h) */
    struct image_rect render_area;
    bool depth_write_enable; /* the last vkCmdSetDepthWriteEnable */
    /* dynamic rendering: the store and resolve operations vkCmdEndRendering performs, as part of
     * the rendering vkCmdBeginRendering (command `rendering_command`) started */
    bool dynamic_rendering;
    uint32_t rendering_command;
    struct hazard_access rendering_stores[MAX_ATTACHMENTS * 2];
    uint32_t rendering_store_count;
    struct hazard_tracker *hazards;    /* check_hazard.c's per-command-buffer state, created on first use */
    struct footprint_memo *footprints; /* access_footprint.h: the last dispatch's narrowed accesses */
    struct lifetime_notes *lifetime;   /* check_lifetime.c's: what the recording refers to, created on first use */
};

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

/* The command buffer's state (NULL for an unknown handle: then the hook only calls down). */
struct command_buffer_state *command_buffer_state_of(VkCommandBuffer cb);
/* The command buffer's device and state together. Every recorded command starts here, and a
 * thread records one command buffer at a time, so the thread's last lookup is kept (inline here);
 * freeing any command buffer (or a device) moves the generation on, which invalidates every
 * thread's kept lookup, so a recycled handle is never mistaken. */
struct command_buffer_lookup {
    VkCommandBuffer handle;
    uint64_t generation;
    struct layer_device *device;
    struct command_buffer_state *state;
};
/* initial-exec: the general TLS model costs a __tls_get_addr call at every command; 32 bytes fit
 * in the static TLS that glibc keeps for libraries loaded with dlopen */
extern _Thread_local __attribute__((tls_model("initial-exec"))) struct command_buffer_lookup last_command_buffer_lookup;
extern uint64_t command_buffer_generation;
struct layer_device *command_buffer_lookup_slow(VkCommandBuffer cb, struct command_buffer_state **state);
static inline struct layer_device *command_buffer_device(VkCommandBuffer cb, struct command_buffer_state **state)
{
    const struct command_buffer_lookup *last = &last_command_buffer_lookup;
    if (last->handle == cb && cb != VK_NULL_HANDLE &&
        last->generation == __atomic_load_n(&command_buffer_generation, __ATOMIC_ACQUIRE)) {
        *state = last->state;
        return last->device;
    }
    return command_buffer_lookup_slow(cb, state);
}
void command_buffer_reset_state(struct command_buffer_state *cb);
/* The command buffer's label_path after its label stack changed. */
void command_buffer_labels_changed(struct layer_device *ld, struct command_buffer_state *cb);
/* A buffer a recorded command may write. */
void command_buffer_note_written(struct command_buffer_state *cb, uint64_t buffer);
/* Whether a command recorded so far may write `buffer` (noted, or an unknown write noted). */
bool command_buffer_may_write(const struct command_buffer_state *cb, uint64_t buffer);
/* Call before freeing command buffer states: drops every thread's kept lookup. */
void command_buffers_forgotten(void);
/* Frees the state of a freed command buffer. */
void command_buffer_free_state(struct command_buffer_state *cb);

#endif
