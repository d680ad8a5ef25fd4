/* The states of descriptor set layouts, pools, sets and update templates (hooks_descriptors.c,
 * descriptor_writes.c): per descriptor, the resource it names, resolved when written, and the memos
 * the per-command checks keep on a set. */
#ifndef PREFLIGHT_LAYER_STATE_DESCRIPTORS_H
#define PREFLIGHT_LAYER_STATE_DESCRIPTORS_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

/* Reference-counted (as sets are), shared between the map and the sets and pipeline layouts that
 * use it. */
struct set_layout_state {
    int refs;
    VkDescriptorSetLayoutCreateFlags flags;
    uint32_t binding_count;
    struct set_layout_binding {
        uint32_t binding;
        VkDescriptorType type;
        uint32_t count;
        VkShaderStageFlags stages;
        VkDescriptorBindingFlags flags; /* partially bound, update after bind, variable count */
        uint32_t first;                 /* index of its first descriptor in a set's descriptor array */
    } * bindings;
    uint32_t descriptor_count;
    uint32_t dynamic_count; /* dynamic uniform and storage buffer descriptors: offsets a bind consumes */
};

struct descriptor_state {
    bool written;
    VkDescriptorType type;
    /* VkBuffer (a texel buffer descriptor's: its view's buffer, 0 when the view is not known),
     * VkImageView, VkSampler or VkAccelerationStructureKHR */
    uint64_t resource;
    uint64_t sampler; /* a combined image sampler's VkSampler, a texel buffer's VkBufferView (the lifetime checks) */
    VkDeviceSize offset, range; /* a buffer's, or a texel buffer view's bytes of its buffer */
    VkImageLayout layout;
    /* Resolved when written, so per-command checks need no lookups: a buffer's bytes in its
     * VkDeviceMemory (before dynamic offsets; `limit` is the buffer's end there; a texel buffer
     * view's likewise), an image view's
     * image and subresources. Neither changes while the descriptor is valid (a buffer is bound to
     * memory once; a view is immutable). False when the buffer had no memory yet. */
    bool resolved;
    uint64_t key, begin, end, limit;
    uint32_t layer_begin, layer_end;
};

/* What per-command checks derived from a descriptor set for one pipeline using it at one set
 * index, valid while the device's resource_epoch stays the same: engines rotate many sets through
 * one pipeline, so this per-set memo is what keeps a changed bound state cheap. Shared by every
 * thread that binds the set, so it is taken with a try-lock: a thread that finds it busy works
 * without it. */
struct set_access_memo; /* command_access.c */

struct set_memo_key {
    uint64_t pipeline_id, epoch;
    uint32_t index;
    uint64_t recording; /* for what is noted per command buffer recording (else 0) */
};

struct set_state {
    /* the fields every bind and dispatch reads first, on one cache line (engines rotate dozens of
     * sets: each is cold when it is bound again) */
    int refs;
    uint64_t id; /* unique for the layer's life: handles and addresses are reused */
    VkDescriptorSet handle;
    uint64_t lifetime_noted; /* check_lifetime.c: the (recording, pipeline) it was last noted for,
                              * mixed into one word (atomic, relaxed) */
    VkDescriptorPool pool;
    struct set_layout_state *layout;
    struct descriptor_state *descriptors;
    int memo_busy;                     /* the try-lock over the two memos below */
    struct set_memo_key binding_clean; /* check_binding found nothing to report for this key */
    struct set_memo_key writes_noted;  /* its written buffers are in that recording's written list */
    struct set_access_memo *accesses;  /* command_access.c: the set's descriptor accesses (malloc'd) */
};

static inline bool set_memo_key_equal(const struct set_memo_key *x, const struct set_memo_key *y)
{
    return x->pipeline_id == y->pipeline_id && x->epoch == y->epoch && x->index == y->index &&
           x->recording == y->recording;
}

/* The try-lock of a set's memos. */
static inline bool set_memo_lock(struct set_state *s)
{
    return __atomic_exchange_n(&s->memo_busy, 1, __ATOMIC_ACQUIRE) == 0;
}

static inline void set_memo_unlock(struct set_state *s)
{
    __atomic_store_n(&s->memo_busy, 0, __ATOMIC_RELEASE);
}

struct descriptor_pool_state {
    uint64_t *sets; /* the sets allocated from it: freed with the pool or on reset */
    uint32_t set_count, set_capacity;
};

struct update_template_state {
    VkDescriptorUpdateTemplateType type;
    VkPipelineBindPoint bind_point; /* push descriptor templates */
    uint32_t entry_count;
    VkDescriptorUpdateTemplateEntry *entries;
};

/* The layout binding `binding` of a bound set, or NULL. */
const struct set_layout_binding *set_layout_binding_of(const struct set_state *set, uint32_t binding);

/* Reference counting (safe from any thread); STATE_RETAIN takes a reference. */
void set_layout_release(struct set_layout_state *s);
void set_state_release(struct set_state *s);

#endif
