/* Area `lifetime` (check_lifetime.c): objects destroyed, freed, reset or updated while submitted
 * work that uses them is not known complete, and command buffers submitted after an object they
 * refer to went away.
 *
 * What a recording refers to is noted as it is recorded (pipelines, descriptor sets with the
 * pipeline that used them, render passes, framebuffers, attachment views) or taken from its
 * hazard tracker (every buffer and image a command accessed, and their memory). Each submitted
 * batch keeps its command buffers' references until queue_progress.h knows it complete (a fence,
 * an idle wait, a host wait on a timeline value it orders, or a complete batch that waited for
 * it). A wait the model does not know (an event or a query read) leaves work pending. */
#ifndef PREFLIGHT_LAYER_CHECK_LIFETIME_H
#define PREFLIGHT_LAYER_CHECK_LIFETIME_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "state_command_buffers.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "queue_progress.h"

struct layer_device;
struct command_buffer_state;
struct bound_state;
struct set_state;

/* --- record time ---------------------------------------------------------------------------- */
/* An object the current command refers to; `id` the state's unique id for pipelines (else 0). */
void lifetime_note_object(struct command_buffer_state *cb, VkObjectType type, uint64_t handle, uint64_t id,
                          const char *call);
/* A dispatch or draw: its bound sets with the bound pipeline (each pair once per recording). Inline:
 * on the recording path the state noted last costs one comparison; a recalled state (engines
 * rotate sets) keeps its note in its memos, as its serial names the same pipeline and sets for the
 * rest of the recording. */
void lifetime_note_sets(struct command_buffer_state *cb, struct bound_state *b, const char *call);
static inline void lifetime_note_bound(struct command_buffer_state *cb, struct bound_state *b, const char *call)
{
    if (b->serial == b->lifetime_serial)
        return;
    b->lifetime_serial = b->serial;
    struct bound_memos *memos = bound_memos_of(b);
    if (b->serial != memos->lifetime_serial) {
        memos->lifetime_serial = b->serial;
        lifetime_note_sets(cb, b, call);
    }
}
/* vkCmdExecuteCommands: what the secondary refers to, the primary refers to. */
void lifetime_note_executed(struct command_buffer_state *primary, const struct command_buffer_state *secondary);
/* vkCmdBindDescriptorSets with a handle that is no live descriptor set. */
void lifetime_check_bind_set(struct layer_device *ld, struct command_buffer_state *cb, VkDescriptorSet set,
                             const char *call);
void lifetime_reset(struct command_buffer_state *cb);
void lifetime_free(struct command_buffer_state *cb);

/* --- descriptor set handles, for the stale-set check ----------------------------------------- */
void lifetime_set_freed(struct layer_device *ld, uint64_t set);
void lifetime_set_allocated(struct layer_device *ld, uint64_t set);

/* --- submit and completion ------------------------------------------------------------------ */
/* A batch as queue_progress numbered it: the objects its command buffers refer to must still exist. */
void lifetime_submit_batch(struct layer_device *ld, const struct progress_batch *ordered,
                           const struct queue_batch *batch);
/* The batches queue_progress knows complete are dropped. */
void lifetime_retire_completed(struct layer_device *ld);

/* --- the checks at destruction, reset and update (before the call goes down) ---------------- */
/* `id`: the state's unique id for pipelines and descriptor sets (then only that object counts,
 * not an earlier one with a recycled handle), else 0. */
void lifetime_check_destroy(struct layer_device *ld, VkObjectType type, uint64_t handle, uint64_t id, const char *call);
void lifetime_check_descriptor_pool(struct layer_device *ld, VkDescriptorPool pool, bool destroy, const char *call);
void lifetime_check_command_pool(struct layer_device *ld, VkCommandPool pool, bool destroy, const char *call);
/* vkResetCommandBuffer, vkBeginCommandBuffer (`reset`) or vkFreeCommandBuffers. */
void lifetime_check_command_buffer(struct layer_device *ld, VkCommandBuffer cb, bool reset, const char *call);
/* A write or copy into `binding` of `set`. */
void lifetime_check_update(struct layer_device *ld, const struct set_state *set, uint32_t binding, const char *call);

void lifetime_tracker_free(struct layer_device *ld);

#endif
