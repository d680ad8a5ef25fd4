/* Area `hazard` (check_hazard.c): accesses of successive commands of one command buffer to the
 * same buffer memory, and the barriers between them. */
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
    bool image;               /* false: key is a VkDeviceMemory (or unbound VkBuffer), begin/end bytes;
                               * true: key is the VkImage, begin/end mip levels, layers below */
    uint64_t key, begin, end;
    uint32_t layer_begin, layer_end;
    uint64_t resource;        /* the VkBuffer or VkImage, for the finding */
    uint64_t stages, access;
    bool read, write;
};

#define HAZARD_MAX_ACCESSES 64
struct hazard_accesses {
    uint32_t count;
    struct hazard_access a[HAZARD_MAX_ACCESSES];
};

/* A memory barrier as the tracker needs it: global (whole memory) or one buffer's range. */
struct hazard_memory_barrier {
    bool global;
    bool image;               /* as in hazard_access */
    uint64_t key, begin, end;
    uint32_t layer_begin, layer_end;
    uint64_t src_access, dst_access;
};

/* The accesses of one command (checked against earlier commands, then recorded). */
void hazard_command(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_accesses *accesses,
                    const char *call);
/* A pipeline barrier or event wait: stage masks and memory barriers (sync1 flags widened). */
void hazard_barrier(struct command_buffer_state *cb, uint64_t src_stages, uint64_t dst_stages,
                    const struct hazard_memory_barrier *barriers, uint32_t count);
/* An image memory barrier whose layout transition (old != new layout) writes the subresources:
 * earlier accesses must be in the barrier's first scope, later ones are ordered after it. */
void hazard_image_transition(struct layer_device *ld, struct command_buffer_state *cb, uint64_t src_stages,
                             uint64_t dst_stages, const struct hazard_memory_barrier *barrier, const char *call);
/* Forget every access: where the layer does not model the synchronization (render pass
 * boundaries, secondary command buffers), it assumes the application's is right. */
void hazard_forget(struct command_buffer_state *cb);
void hazard_free(struct command_buffer_state *cb);

/* The buffer range of `buffer` in memory terms, for barriers and transfer commands. */
bool hazard_buffer_range(struct layer_device *ld, uint64_t buffer, VkDeviceSize offset, VkDeviceSize size,
                         struct hazard_access *out);

/* An image subresource range (mips, layers) in the tracker's terms. */
bool hazard_image_range(struct layer_device *ld, uint64_t image, uint32_t base_mip, uint32_t mip_count,
                        uint32_t base_layer, uint32_t layer_count, struct hazard_access *out);

#endif
