/* Area `hazard` at submit time (check_hazard_submit.c): each command buffer's entry accesses
 * against the work submitted before it, on its queue (through the barriers in between) and on
 * other queues (through semaphores); fences and idle waits retire completed work. */
#ifndef PREFLIGHT_LAYER_CHECK_HAZARD_SUBMIT_H
#define PREFLIGHT_LAYER_CHECK_HAZARD_SUBMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "check_hazard.h"

struct layer_device;
struct command_buffer_state;

struct hazard_semaphore_op {
    VkSemaphore semaphore;
    uint64_t value;  /* timeline semaphores; ignored for binary ones */
    uint64_t stages; /* waits: the wait's destination stages (VkPipelineStageFlags2) */
};

/* One batch (VkSubmitInfo / VkSubmitInfo2): its waits happen before its command buffers, its
 * signals after them. Command buffers the layer does not know are NULL. */
struct hazard_batch {
    const struct hazard_semaphore_op *waits;
    uint32_t wait_count;
    struct command_buffer_state *const *command_buffers;
    uint32_t command_buffer_count;
    const struct hazard_semaphore_op *signals;
    uint32_t signal_count;
    VkFence fence; /* the submission's fence, on its last batch */
};

void hazard_submit_batch(struct layer_device *ld, VkQueue queue, const struct hazard_batch *batch);
/* Work known complete: a waited fence (its batch and every earlier one on that queue), an idle
 * queue, an idle device (also host semaphore waits, which are not modelled further). */
void hazard_fence_waited(struct layer_device *ld, VkFence fence);
void hazard_queue_idle(struct layer_device *ld, VkQueue queue);
void hazard_device_idle(struct layer_device *ld);
/* The host saw timeline `semaphore` at `value` or past it (a wait; `exact`: a counter query, which
 * says the value itself): the batch whose signal set the counter there is complete, with its
 * queue's batches before it — for a wait the first signal reaching the value (the smallest value
 * at or above it), for a query the last at or below it. Later signals, and what only they order,
 * are not. */
void hazard_semaphore_reached(struct layer_device *ld, VkSemaphore semaphore, uint64_t value, bool exact);
void hazard_queues_free(struct layer_device *ld);

/* The presentation engine, as a queue of its own: vkQueuePresentKHR waits for `waits` (none: for
 * the presenting queue's work so far) and then reads the images; vkAcquireNextImageKHR signals its
 * semaphore and fence after the engine's reads so far, so a wait on that semaphore orders them
 * before the wait's stages (through them, the first write to the acquired image). */
void hazard_present(struct layer_device *ld, VkQueue queue, const struct hazard_semaphore_op *waits,
                    uint32_t wait_count, const struct hazard_access *images, uint32_t image_count);
void hazard_acquired(struct layer_device *ld, VkSemaphore semaphore, VkFence fence);
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
