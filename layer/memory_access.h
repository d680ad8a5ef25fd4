/* The layer's vocabulary of memory accesses, defined once: what one access of a command is (a
 * buffer-memory range or image subresources, with the stages and access flags that describe it),
 * the memory barriers applied to accesses, and the VkPipelineStageFlagBits2 / VkAccessFlagBits2
 * bits and the families of them the layer speaks of. Produced by command_access.h and the hooks
 * that record barriers; consumed by the alias and hazard checks. */
#ifndef PREFLIGHT_LAYER_MEMORY_ACCESS_H
#define PREFLIGHT_LAYER_MEMORY_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

/* VkPipelineStageFlagBits2 and VkAccessFlagBits2 as literals: the headers' sync2 constants are
 * `static const` variables, not constant expressions in C. Sync1 flags have the same values. */
#define STAGE_TOP_OF_PIPE 0x1ull
#define STAGE_DRAW_INDIRECT 0x2ull
#define STAGE_VERTEX_INPUT 0x4ull
#define STAGE_VERTEX_SHADER 0x8ull
#define STAGE_TESSELLATION_CONTROL_SHADER 0x10ull
#define STAGE_TESSELLATION_EVALUATION_SHADER 0x20ull
#define STAGE_GEOMETRY_SHADER 0x40ull
#define STAGE_FRAGMENT_SHADER 0x80ull
#define STAGE_EARLY_FRAGMENT_TESTS 0x100ull /* depth/stencil load operations */
#define STAGE_LATE_FRAGMENT_TESTS 0x200ull  /* depth/stencil store operations */
#define STAGE_COLOR_ATTACHMENT_OUTPUT 0x400ull
#define STAGE_COMPUTE_SHADER 0x800ull
#define STAGE_TRANSFER 0x1000ull /* = ALL_TRANSFER */
#define STAGE_BOTTOM_OF_PIPE 0x2000ull
#define STAGE_HOST 0x4000ull
#define STAGE_ALL_GRAPHICS 0x8000ull
#define STAGE_ALL_COMMANDS 0x10000ull
#define STAGE_TASK_SHADER 0x80000ull
#define STAGE_MESH_SHADER 0x100000ull
#define STAGE_FRAGMENT_SHADING_RATE_ATTACHMENT 0x400000ull
#define STAGE_COPY (1ull << 32)
#define STAGE_RESOLVE (1ull << 33)
#define STAGE_BLIT (1ull << 34)
#define STAGE_CLEAR (1ull << 35)
#define STAGE_INDEX_INPUT (1ull << 36)
#define STAGE_VERTEX_ATTRIBUTE_INPUT (1ull << 37)
#define STAGE_PRE_RASTERIZATION_SHADERS (1ull << 38)

#define ACCESS_INDIRECT_COMMAND_READ 0x1ull
#define ACCESS_INDEX_READ 0x2ull
#define ACCESS_VERTEX_ATTRIBUTE_READ 0x4ull
#define ACCESS_UNIFORM_READ 0x8ull
#define ACCESS_INPUT_ATTACHMENT_READ 0x10ull
#define ACCESS_SHADER_READ 0x20ull
#define ACCESS_SHADER_WRITE 0x40ull
#define ACCESS_COLOR_ATTACHMENT_READ 0x80ull
#define ACCESS_COLOR_ATTACHMENT_WRITE 0x100ull
#define ACCESS_DEPTH_STENCIL_ATTACHMENT_READ 0x200ull
#define ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE 0x400ull
#define ACCESS_TRANSFER_READ 0x800ull
#define ACCESS_TRANSFER_WRITE 0x1000ull
#define ACCESS_HOST_READ 0x2000ull
#define ACCESS_HOST_WRITE 0x4000ull
#define ACCESS_MEMORY_READ 0x8000ull
#define ACCESS_MEMORY_WRITE 0x10000ull
#define ACCESS_SHADER_SAMPLED_READ (1ull << 32)
#define ACCESS_SHADER_STORAGE_READ (1ull << 33)
#define ACCESS_SHADER_STORAGE_WRITE (1ull << 34)

/* Stage families: a sync2 family stands for each of its stages (and each of them for its part). */
#define HAZARD_STAGES_VERTEX_INPUT (STAGE_VERTEX_INPUT | STAGE_INDEX_INPUT | STAGE_VERTEX_ATTRIBUTE_INPUT)
#define HAZARD_STAGES_TRANSFER (STAGE_TRANSFER | STAGE_COPY | STAGE_RESOLVE | STAGE_BLIT | STAGE_CLEAR)
#define HAZARD_STAGES_PRE_RASTERIZATION                                                                                \
    (STAGE_VERTEX_SHADER | STAGE_TESSELLATION_CONTROL_SHADER | STAGE_TESSELLATION_EVALUATION_SHADER |                  \
     STAGE_GEOMETRY_SHADER | STAGE_TASK_SHADER | STAGE_MESH_SHADER)
#define HAZARD_STAGES_GRAPHICS_SHADERS (HAZARD_STAGES_PRE_RASTERIZATION | STAGE_FRAGMENT_SHADER)
#define HAZARD_STAGES_DEPTH_TESTS (STAGE_EARLY_FRAGMENT_TESTS | STAGE_LATE_FRAGMENT_TESTS)
#define HAZARD_STAGES_ALL_GRAPHICS                                                                                     \
    (STAGE_DRAW_INDIRECT | HAZARD_STAGES_VERTEX_INPUT | HAZARD_STAGES_GRAPHICS_SHADERS |                               \
     STAGE_FRAGMENT_SHADING_RATE_ATTACHMENT | HAZARD_STAGES_DEPTH_TESTS | STAGE_COLOR_ATTACHMENT_OUTPUT)

/* What common accesses are, as access families: any bit matching a barrier's scope counts, so a
 * family names every access flag that may describe the access (MEMORY_READ / MEMORY_WRITE too). */
#define HAZARD_ACCESS_SHADER_READS                                                                                     \
    (ACCESS_UNIFORM_READ | ACCESS_SHADER_READ | ACCESS_MEMORY_READ | ACCESS_SHADER_SAMPLED_READ |                      \
     ACCESS_SHADER_STORAGE_READ)
#define HAZARD_ACCESS_SHADER_WRITES (ACCESS_SHADER_WRITE | ACCESS_MEMORY_WRITE | ACCESS_SHADER_STORAGE_WRITE)
#define HAZARD_ACCESS_INDIRECT_READS (ACCESS_INDIRECT_COMMAND_READ | ACCESS_MEMORY_READ)
#define HAZARD_ACCESS_VERTEX_READS (ACCESS_INDEX_READ | ACCESS_VERTEX_ATTRIBUTE_READ | ACCESS_MEMORY_READ)
#define HAZARD_ACCESS_TRANSFER_READS (ACCESS_TRANSFER_READ | ACCESS_MEMORY_READ)
#define HAZARD_ACCESS_TRANSFER_WRITES (ACCESS_TRANSFER_WRITE | ACCESS_MEMORY_WRITE)
#define HAZARD_ACCESS_INPUT_ATTACHMENT_READ (ACCESS_INPUT_ATTACHMENT_READ | ACCESS_MEMORY_READ)
#define HAZARD_ACCESS_COLOR_READ (ACCESS_COLOR_ATTACHMENT_READ | ACCESS_MEMORY_READ)
#define HAZARD_ACCESS_COLOR_WRITE (ACCESS_COLOR_ATTACHMENT_WRITE | ACCESS_MEMORY_WRITE)
#define HAZARD_ACCESS_DEPTH_READ (ACCESS_DEPTH_STENCIL_ATTACHMENT_READ | ACCESS_MEMORY_READ)
#define HAZARD_ACCESS_DEPTH_WRITE (ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE | ACCESS_MEMORY_WRITE)

/* One memory access of a command: `stages` and `access` are VkPipelineStageFlags2 and
 * VkAccessFlags2 bits that describe it (any of them matching a barrier's scope counts). */
/* 64 bytes, the booleans last: one cache line (commands keep lists of them, read at every command) */
struct hazard_access {
    uint64_t key, begin, end;
    uint32_t layer_begin, layer_end;
    uint64_t resource; /* the VkBuffer or VkImage, for the finding */
    uint64_t stages, access;
    bool image; /* false: key is a VkDeviceMemory (or unbound VkBuffer), begin/end bytes;
                 * true: key is the VkImage, begin/end mip levels, layers above */
    bool read, write;
    /* buffers of a dispatch: begin/end are the bytes its shader's accesses reach, evaluated with
     * the dispatch's values (access_footprint.h), not the descriptor's whole range */
    bool evaluated;
    union {
        uint32_t area; /* images: the region or render area it is limited to (image_area.h), 0 for all pixels */
        /* buffers of a compute pipeline's descriptor: (index + 1) of its binding in the pipeline's
         * reflection, element << 16; the sites there give its bytes per dispatch. 0: none */
        uint32_t binding_ref;
    };
};
_Static_assert(sizeof(struct hazard_access) == 64, "one access, one cache line");

/* The same access twice (one range in two descriptors with the same use; the resource may differ):
 * the tracker takes it once. */
static inline bool hazard_same_access(const struct hazard_access *x, const struct hazard_access *y)
{
    return x->image == y->image && x->key == y->key && x->begin == y->begin && x->end == y->end &&
           x->layer_begin == y->layer_begin && x->layer_end == y->layer_end && x->stages == y->stages &&
           x->access == y->access && x->read == y->read && x->write == y->write && x->area == y->area &&
           x->evaluated == y->evaluated;
}

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

#endif
