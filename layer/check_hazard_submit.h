/* Area `hazard` at submit time (check_hazard_submit.c): each command buffer's entry accesses
 * against the work submitted before it, on its queue (through the barriers in between) and on
 * other queues (through semaphores, as queue_progress.h orders them); the work it knows complete is
 * retired. */
#ifndef PREFLIGHT_LAYER_CHECK_HAZARD_SUBMIT_H
#define PREFLIGHT_LAYER_CHECK_HAZARD_SUBMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "memory_access.h"
#include "queue_progress.h"

struct layer_device;
struct command_buffer_state;

/* A batch as queue_progress numbered and ordered it: each command buffer's entry accesses checked
 * against the earlier work, then its uses merged into its queue's. */
void hazard_submit_batch(struct layer_device *ld, const struct progress_batch *ordered,
                         const struct queue_batch *batch);
/* The uses of work queue_progress knows complete are dropped; completed buffer writes tell the
 * host checks whether a barrier made them visible to host reads (host_unseen.h). */
void hazard_retire_completed(struct layer_device *ld);
void hazard_queues_free(struct layer_device *ld);

/* The presentation engine, as a queue of its own (progress_present): it reads the presented
 * images after what its batch is ordered after. */
void hazard_present(struct layer_device *ld, const struct progress_batch *ordered, const struct hazard_access *images,
                    uint32_t image_count);
/* A VkImage, VkBuffer or VkDeviceMemory destroyed: the uses of pending work keyed by it are
 * dropped, so that a new object with the same handle does not meet them. */
void hazard_forget_key(struct layer_device *ld, uint64_t key);

/* A use of device memory by submitted work not known complete (for the host checks). */
struct hazard_pending {
    VkQueue queue;
    uint64_t resource;   /* the VkBuffer */
    uint64_t begin, end; /* memory bytes */
    bool write;
    const char *call;
    uint32_t command_index;
    uint64_t command_buffer;
};
/* One (a write, with `writes_only`) whose range, rounded out to multiples of `atom`, holds all of
 * [begin, end): the host certainly touches memory that use covers (a flush of a whole ring buffer
 * while the GPU reads one slot is no proof that the host wrote that slot). */
bool hazard_pending_use(struct layer_device *ld, uint64_t memory, uint64_t begin, uint64_t end, uint64_t atom,
                        bool writes_only, struct hazard_pending *out);

#endif
