/* The one model of queue progress (queue_progress.c): the batches the device's queues were given,
 * with their semaphore waits and signals (binary and timeline) and their fences, and what host
 * waits showed complete. It answers the two questions every submit-time check asks: what a
 * batch's semaphore waits order it after, and how far each queue's work is known complete. The
 * hazard tracker, the lifetime check and (through the hazard tracker's completed writes) the host
 * check all take both answers from here.
 *
 * Completion. A queue's batches complete in order as far as a wait can tell (a fence or signal
 * operation waits for all earlier work of its queue), so per queue one number says how far its
 * work is complete. A waited fence completes its batch; vkQueueWaitIdle its queue; vkDeviceWaitIdle
 * every queue; a host wait on a timeline semaphore (or a read of its counter) the batch whose
 * signal set the counter there, and the signals of lower values of that semaphore (a timeline
 * only grows); a batch known complete completes the batches whose signals it waited for (not
 * through the presentation engine: an acquire's semaphore or fence says that the engine is done
 * with the acquired image, the presents before it say nothing of the work their semaphores
 * waited for). Nothing
 * else: a wait satisfied by the host's own signal or the initial value completes no GPU work, and
 * past PROGRESS_MAX_PENDING batches in flight on a queue its oldest counts as complete.
 *
 * Order. A binary semaphore wait is ordered after the batch of its latest signal; a timeline wait
 * after the first signal that reaches its value (the smallest value at or above it) and every
 * signal below it; a timeline value reached already (initial value, a host signal, a completed
 * signal) orders only the pending signals below it. A wait for a value no signal seen so far
 * reaches (wait-before-signal, or a host signal to come), or for a binary semaphore the layer
 * never saw signaled (an imported one), is ordered after everything submitted so far: that can
 * hide a finding, never make one; the batch whose signal later reaches such a value runs before
 * the waiting queue's work from the wait on (`later_from`). */
#ifndef PREFLIGHT_LAYER_QUEUE_PROGRESS_H
#define PREFLIGHT_LAYER_QUEUE_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

struct layer_device;
struct command_buffer_state;

#define PROGRESS_MAX_QUEUES 16    /* queues of one device (the presentation engine is one); more are not tracked */
#define PROGRESS_MAX_WAITS 32     /* semaphore waits of one batch; past that the last one waits for everything */
#define PROGRESS_MAX_PENDING 1024 /* batches in flight on a queue; past that its oldest counts as complete */

struct semaphore_op {
    VkSemaphore semaphore;
    uint64_t value;  /* timeline semaphores; ignored for binary ones */
    uint64_t stages; /* waits: the wait's destination stages (VkPipelineStageFlags2) */
};

/* One batch (VkSubmitInfo / VkSubmitInfo2): its waits happen before its command buffers, its
 * signals after them. Command buffers the layer does not know are NULL. */
struct queue_batch {
    const struct semaphore_op *waits;
    uint32_t wait_count;
    struct command_buffer_state *const *command_buffers;
    uint32_t command_buffer_count;
    const struct semaphore_op *signals;
    uint32_t signal_count;
    VkFence fence; /* the submission's fence, on its last batch */
};

/* What one semaphore wait of a batch is ordered after: per queue (by index) the last batch whose
 * work comes before the wait's stages (0: none), or everything submitted so far. */
struct progress_wait {
    bool everything;
    uint64_t stages;
    uint64_t after[PROGRESS_MAX_QUEUES];
};

/* A batch as the model numbered and ordered it. */
struct progress_batch {
    VkQueue queue;
    uint32_t index;  /* the queue's index; PROGRESS_MAX_QUEUES: not tracked (more queues than that) */
    uint64_t number; /* on its queue: 1, 2, ... */
    uint32_t wait_count;
    struct progress_wait waits[PROGRESS_MAX_WAITS];
    /* per queue, its first batch submitted earlier that waits for a signal of this batch
     * (wait-before-signal): that queue's work from there on runs after this batch. UINT64_MAX: none */
    uint64_t later_from[PROGRESS_MAX_QUEUES];
};

/* A batch submitted to `queue`: numbered, its waits ordered, its signals and fence recorded. */
void progress_submit(struct layer_device *ld, VkQueue queue, const struct queue_batch *batch,
                     struct progress_batch *out);
/* vkQueuePresentKHR: a batch of the presentation engine's own queue, waiting for `waits` (none:
 * ordered after the presenting queue's work so far). vkAcquireNextImageKHR: the engine signals
 * `semaphore` and `fence` after its work so far (the presents' reads). */
void progress_present(struct layer_device *ld, VkQueue queue, const struct semaphore_op *waits, uint32_t wait_count,
                      struct progress_batch *out);
void progress_acquired(struct layer_device *ld, VkSemaphore semaphore, VkFence fence);
/* vkSignalSemaphore: the counter set on the host. */
void progress_host_signal(struct layer_device *ld, VkSemaphore semaphore, uint64_t value);

/* Waits that returned: what each shows complete (see above). `exact`: a counter read, which says
 * the value itself (the last signal at or below it set it); else a wait, satisfied by the first
 * signal at or above the value. */
void progress_fence_waited(struct layer_device *ld, VkFence fence);
void progress_queue_idle(struct layer_device *ld, VkQueue queue);
void progress_device_idle(struct layer_device *ld);
void progress_semaphore_reached(struct layer_device *ld, VkSemaphore semaphore, uint64_t value, bool exact);

/* How far each queue's work is known complete: batches up to complete[i] of queue index i (room
 * for PROGRESS_MAX_QUEUES); the count of queues. `*generation` is moved on when anything
 * completed since its value (0 at first): false, without filling `complete`, when nothing did.
 * progress_generation is the value it moves to, read without a lock: a check compares it with its
 * own before it takes its lock to retire. */
bool progress_completed(struct layer_device *ld, uint64_t *generation, uint64_t *complete, uint32_t *queue_count);
uint64_t progress_generation(struct layer_device *ld);

void progress_free(struct layer_device *ld);

#endif
