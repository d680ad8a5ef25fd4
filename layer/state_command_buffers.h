/* The states of command pools and command buffers (hooks_commands.c and the other recording hooks):
 * what is bound at each bind point (bound_state.h, with the memos that keep its checks cheap), the
 * debug-label stack, the command index, the current rendering's attachments, the indirect
 * dispatches to check at submit, the buffers a recording may write, and the parts the checks own. */
#ifndef PREFLIGHT_LAYER_STATE_COMMAND_BUFFERS_H
#define PREFLIGHT_LAYER_STATE_COMMAND_BUFFERS_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "bound_state.h"
#include "memory_access.h"
#include "image_area.h"
#include "state_device.h"
#include "state_pipelines.h"

#define MAX_LABEL_DEPTH 16
#define MAX_PUSH_CONSTANT_BYTES 256

struct command_pool_state {
    VkCommandBuffer *buffers; /* allocated from it: freed with the pool */
    uint32_t count, capacity;
};

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
