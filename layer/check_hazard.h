/* Area `hazard`: accesses of commands to the same memory and the dependencies between them,
 * inside one command buffer at record time (check_hazard.c) and across command buffers,
 * submissions and queues at submit time (check_hazard_submit.c). */
#ifndef PREFLIGHT_LAYER_CHECK_HAZARD_H
#define PREFLIGHT_LAYER_CHECK_HAZARD_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

struct layer_device;
struct command_buffer_state;

/* One buffer-memory access of a command: `stages` and `access` are VkPipelineStageFlags2 and
 * VkAccessFlags2 bits that describe it (any of them matching a barrier's scope counts). */
struct hazard_access {
    bool image; /* false: key is a VkDeviceMemory (or unbound VkBuffer), begin/end bytes;
                               * true: key is the VkImage, begin/end mip levels, layers below */
    uint64_t key, begin, end;
    uint32_t layer_begin, layer_end;
    uint64_t resource; /* the VkBuffer or VkImage, for the finding */
    uint64_t stages, access;
    bool read, write;
};

/* The same access twice (one range in two descriptors with the same use; the resource may differ):
 * the tracker takes it once. */
static inline bool hazard_same_access(const struct hazard_access *x, const struct hazard_access *y)
{
    return x->image == y->image && x->key == y->key && x->begin == y->begin && x->end == y->end &&
           x->layer_begin == y->layer_begin && x->layer_end == y->layer_end && x->stages == y->stages &&
           x->access == y->access && x->read == y->read && x->write == y->write;
}

/* What common accesses are, in VkPipelineStageFlags2 / VkAccessFlags2 bits (literals: the
 * headers' sync2 constants are not constant expressions in C). Any bit matching a barrier's
 * scope counts, so a family names every stage or access flag that may describe the access. */
#define HAZARD_STAGE_DRAW_INDIRECT 0x2ull
#define HAZARD_STAGES_VERTEX_INPUT                                                                                     \
    (0x4ull | (1ull << 36) | (1ull << 37)) /* VERTEX_INPUT, INDEX_INPUT, ATTRIBUTE_INPUT */
#define HAZARD_STAGE_COMPUTE 0x800ull
#define HAZARD_STAGES_GRAPHICS_SHADERS (0x8ull | 0x10ull | 0x20ull | 0x40ull | 0x80ull | 0x80000ull | 0x100000ull)
#define HAZARD_STAGES_TRANSFER                                                                                         \
    (0x1000ull | (1ull << 32) | (1ull << 33) | (1ull << 34) | (1ull << 35)) /* +COPY..CLEAR */
#define HAZARD_ACCESS_SHADER_READS (0x8ull | 0x20ull | 0x8000ull | (1ull << 32) | (1ull << 33))
#define HAZARD_ACCESS_SHADER_WRITES (0x40ull | 0x10000ull | (1ull << 34))
#define HAZARD_ACCESS_INDIRECT_READS (0x1ull | 0x8000ull)
#define HAZARD_ACCESS_VERTEX_READS (0x2ull | 0x4ull | 0x8000ull)
#define HAZARD_ACCESS_TRANSFER_READS (0x800ull | 0x8000ull)
#define HAZARD_ACCESS_TRANSFER_WRITES (0x1000ull | 0x10000ull)
#define HAZARD_STAGE_COLOR_OUTPUT 0x400ull
#define HAZARD_STAGES_DEPTH_TESTS (0x100ull | 0x200ull) /* EARLY_ and LATE_FRAGMENT_TESTS */
#define HAZARD_STAGE_EARLY_FRAGMENT_TESTS 0x100ull      /* depth/stencil load operations */
#define HAZARD_STAGE_LATE_FRAGMENT_TESTS 0x200ull       /* depth/stencil store operations */
#define HAZARD_STAGE_FRAGMENT_SHADER 0x80ull
#define HAZARD_ACCESS_INPUT_ATTACHMENT_READ (0x10ull | 0x8000ull)
#define HAZARD_ACCESS_COLOR_READ (0x80ull | 0x8000ull)    /* + MEMORY_READ */
#define HAZARD_ACCESS_COLOR_WRITE (0x100ull | 0x10000ull) /* + MEMORY_WRITE */
#define HAZARD_ACCESS_DEPTH_READ (0x200ull | 0x8000ull)
#define HAZARD_ACCESS_DEPTH_WRITE (0x400ull | 0x10000ull)

#define HAZARD_MAX_ACCESSES 64
struct hazard_accesses {
    uint32_t count;
    struct hazard_access a[HAZARD_MAX_ACCESSES];
};

/* A memory barrier as the tracker needs it: global (whole memory) or one buffer's range. */
struct hazard_memory_barrier {
    bool global;
    bool image; /* as in hazard_access */
    uint64_t key, begin, end;
    uint32_t layer_begin, layer_end;
    uint64_t src_access, dst_access;
    bool ownership_transfer; /* an image barrier between two queue families (a release or an acquire) */
};

/* A barrier over exactly the memory or subresources of `range`. */
static inline struct hazard_memory_barrier hazard_barrier_over(const struct hazard_access *range, uint64_t src_access,
                                                               uint64_t dst_access)
{
    return (struct hazard_memory_barrier){.image = range->image,
                                          .key = range->key,
                                          .begin = range->begin,
                                          .end = range->end,
                                          .layer_begin = range->layer_begin,
                                          .layer_end = range->layer_end,
                                          .src_access = src_access,
                                          .dst_access = dst_access};
}

/* The accesses of one command (checked against earlier commands, then recorded). */
void hazard_command(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_accesses *accesses,
                    const char *call);
/* The same, as part of the earlier command `command_index` (a rendering's store operations belong
 * to the vkCmdBeginRendering that started it: its load operations are not checked against them). */
void hazard_command_at(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_accesses *accesses,
                       const char *call, uint32_t command_index);
/* A pipeline barrier or event wait: stage masks and memory barriers (sync1 flags widened). */
void hazard_barrier(struct command_buffer_state *cb, uint64_t src_stages, uint64_t dst_stages,
                    const struct hazard_memory_barrier *barriers, uint32_t count);
/* A pipeline barrier with one global memory barrier that repeats the last barrier logged (same
 * stage masks as given, same access masks): logged as a repeat without converting it again.
 * False when it is not such a repeat (then log it with hazard_barrier). */
bool hazard_repeat_global_barrier(struct command_buffer_state *cb, uint64_t src_stages, uint64_t dst_stages,
                                  uint64_t src_access, uint64_t dst_access);
/* An image memory barrier whose layout transition (old != new layout) writes the subresources:
 * earlier accesses must be in the barrier's first scope, later ones are ordered after it. */
void hazard_image_transition(struct layer_device *ld, struct command_buffer_state *cb, uint64_t src_stages,
                             uint64_t dst_stages, const struct hazard_memory_barrier *barrier, const char *call);
/* A full barrier: where the layer does not model the synchronization (render pass boundaries,
 * secondary command buffers), it assumes the application's is right. */
void hazard_forget(struct command_buffer_state *cb);
/* vkEndCommandBuffer: brings every range up to the last barrier, for submit time. */
void hazard_end(struct command_buffer_state *cb);
/* vkCmdExecuteCommands: a secondary's accesses and barriers, in the primary's order (its entry
 * accesses checked against the primary's uses so far, then its final state merged in). */
void hazard_execute(struct layer_device *ld, struct command_buffer_state *primary,
                    const struct command_buffer_state *secondary);
/* A new recording: forgets, keeping the memory. hazard_free releases it. */
void hazard_reset(struct command_buffer_state *cb);
void hazard_free(struct command_buffer_state *cb);

/* The buffer range of `buffer` in memory terms, for barriers and transfer commands. */
bool hazard_buffer_range(struct layer_device *ld, uint64_t buffer, VkDeviceSize offset, VkDeviceSize size,
                         struct hazard_access *out);

/* An image subresource range (mips, layers) in the tracker's terms. A 3D image's "layers" are its
 * depth slices: a subresource range of one covers every slice. */
bool hazard_image_range(struct layer_device *ld, uint64_t image, uint32_t base_mip, uint32_t mip_count,
                        uint32_t base_layer, uint32_t layer_count, struct hazard_access *out);
/* One mip level of a copy region: array layers [base_layer, +layer_count), or for a 3D image the
 * depth slices [z, z + depth) of that level. */
bool hazard_image_region(struct layer_device *ld, uint64_t image, uint32_t mip, uint32_t base_layer,
                         uint32_t layer_count, int32_t z, uint32_t depth, struct hazard_access *out);
/* What an image view covers (`layers` 0: the view's own layer count; `one_mip`: its base level
 * only, as attachments). A 2D or 2D-array view of a 3D image covers the slices it names. */
struct image_view_state;
bool hazard_view_range(struct layer_device *ld, const struct image_view_state *view, uint32_t layers, bool one_mip,
                       struct hazard_access *out);

#endif
