/* What the layer knows about the application's Vulkan objects. One layer_instance per VkInstance
 * and one layer_device per VkDevice, found by the dispatch key (the loader's table pointer at the
 * start of every dispatchable handle, shared by a device's queues and command buffers). Every
 * other object lives in a handle_map of its device, created and freed by the hook of the call
 * that makes or destroys it.
 *
 * Threading follows Vulkan's external-synchronization rules: a command buffer's state is touched
 * only by the thread recording it (the app must synchronize the pool), so recording takes no lock
 * beyond the handle-map lookups; objects a command buffer refers to are reference-counted, so an
 * app that destroys one too early cannot make the layer read freed memory. */
#ifndef PREFLIGHT_LAYER_STATE_H
#define PREFLIGHT_LAYER_STATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "memory_access.h"
#include "device_registry.h"
#include "handle_map.h"
#include "layer_dispatch.h"
#include "settings.h"
#include "spirv_reflect.h"
#include "fleet_limits_read.h"
#include "render_area.h"

#define LAYER_NAME "VK_LAYER_PREFLIGHT_validation"
#define MAX_BOUND_SETS 32
#define MAX_LABEL_DEPTH 16
#define MAX_VERTEX_BINDINGS 32
#define MAX_LABEL_PATHS 4096
#define MAX_PUSH_CONSTANT_BYTES 256

struct layer_messenger {
    VkDebugUtilsMessengerEXT handle; /* VK_NULL_HANDLE for one chained into VkInstanceCreateInfo */
    VkDebugUtilsMessageSeverityFlagsEXT severities;
    VkDebugUtilsMessageTypeFlagsEXT types;
    PFN_vkDebugUtilsMessengerCallbackEXT callback;
    void *user_data;
};

struct layer_instance {
    VkInstance instance;
    struct layer_instance_dispatch dispatch;
    struct layer_settings settings;
    struct fleet_compute_limits targets; /* the `target_limits` setting's file (matrix/fleet_limits_read.h) */
    pthread_mutex_t messengers_lock;
    struct layer_messenger *messengers;
    size_t messenger_count, messenger_capacity;
    pthread_mutex_t findings_lock;
    struct handle_map finding_counts; /* finding key -> times reported */
    FILE *log_file;
};

/* Reference-counted states, shared between the maps and command buffers / sets that use them. */
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
    uint64_t resource; /* VkBuffer, VkImageView, VkBufferView, VkSampler or VkAccelerationStructureKHR */
    uint64_t sampler;  /* a combined image sampler's VkSampler (the lifetime checks) */
    VkDeviceSize offset, range;
    VkImageLayout layout;
    /* Resolved when written, so per-command checks need no lookups: a buffer's bytes in its
     * VkDeviceMemory (before dynamic offsets; `limit` is the buffer's end there), an image view's
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

struct pipeline_layout_state {
    int refs;
    uint32_t set_count;
    struct set_layout_state *sets[MAX_BOUND_SETS];
};

struct pipeline_state {
    int refs;
    uint64_t id; /* unique for the layer's lifetime (a handle or address can be reused) */
    VkPipeline handle;
    VkPipelineBindPoint bind_point;
    struct pipeline_layout_state *layout;
    bool reflected;           /* false when the shader could not be reflected: checks that need it are skipped */
    bool depth_write;         /* graphics: depthWriteEnable (static state) */
    bool depth_write_dynamic; /* graphics: VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE: vkCmdSetDepthWriteEnable decides */
    bool feedback_loop;       /* graphics: created for attachment feedback loops */
    uint32_t vertex_strides[MAX_VERTEX_BINDINGS]; /* per vertex binding, 0 when unknown or per instance */
    /* what the shaders do: a compute stage, or the union of a graphics pipeline's stages */
    struct reflect_result shader;
};

struct command_pool_state {
    VkCommandBuffer *buffers; /* allocated from it: freed with the pool */
    uint32_t count, capacity;
};

/* Fences and semaphores keep what queue_progress.c needs of their submissions (under its lock). */
struct fence_state {
    uint32_t queue; /* the batch whose completion it signals: queue index and number (0: none yet) */
    uint64_t batch;
};

struct semaphore_signal {
    uint32_t queue; /* queue index */
    uint64_t batch;
};

struct semaphore_state {
    VkSemaphoreType type;
    uint64_t initial_value;
    uint64_t host_value;      /* timeline: the highest value vkSignalSemaphore set (atomic) */
    uint64_t completed_value; /* timeline: the highest value of a signal whose batch is known complete */
    bool signaled;            /* binary: `signal` holds its latest signal */
    struct semaphore_signal signal;
};

struct descriptor_pool_state {
    uint64_t *sets; /* the sets allocated from it: freed with the pool or on reset */
    uint32_t set_count, set_capacity;
};

struct memory_state {
    VkDeviceMemory handle;
    VkDeviceSize size;
    VkMemoryPropertyFlags properties;
    void *mapped; /* the app's mapping, while mapped */
    VkDeviceSize mapped_offset, mapped_size;
};

struct buffer_state {
    VkBuffer handle;
    VkDeviceSize size;
    VkBufferUsageFlags usage;
    VkDeviceMemory memory;
    VkDeviceSize memory_offset;
};

struct image_state {
    VkImage handle;
    VkFormat format;
    VkExtent3D extent;
    uint32_t mip_levels, array_layers;
    VkImageUsageFlags usage;
    VkDeviceMemory memory;
    VkDeviceSize memory_offset;
    VkImageType type; /* 3D images are tracked by depth slice (hazard_image_slices) */
    bool swapchain;   /* owned by a swapchain (hooks_swapchain.c), not the application */
};

struct image_view_state {
    VkImageView handle;
    VkImage image;
    VkFormat format;
    VkImageSubresourceRange range;
    VkImageViewType view_type; /* a 2D or 2D-array view of a 3D image names depth slices as layers */
};

/* A swapchain's images (hooks_swapchain.c): the layer tracks them like the application's own. */
struct swapchain_state {
    uint32_t image_count;
    VkImage *images;
    VkFormat format;
    VkExtent2D extent;
    uint32_t layers;
};

struct shader_module_state {
    uint32_t *code;
    size_t size;
};

struct update_template_state {
    VkDescriptorUpdateTemplateType type;
    VkPipelineBindPoint bind_point; /* push descriptor templates */
    uint32_t entry_count;
    VkDescriptorUpdateTemplateEntry *entries;
};

#define MAX_DYNAMIC_PER_SET 16
#define MAX_ATTACHMENTS 10

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
    /* &slots[current - 1].memos, NULL when current is 0 (set with current, in layer_state.c):
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

struct render_pass_state {
    uint32_t subpass_count;
    struct subpass_attachments {
        uint32_t count;
        uint32_t index[MAX_ATTACHMENTS]; /* framebuffer attachment indices */
        bool write[MAX_ATTACHMENTS];
        bool depth[MAX_ATTACHMENTS];
    } * subpasses;
    /* for the hazard tracker: each attachment's load/store operations and layout transitions at
     * the pass's start and end, and the dependencies with VK_SUBPASS_EXTERNAL (the union of the
     * application's, or the spec's implicit ones) */
    uint32_t attachment_count;
    struct pass_attachment {
        bool used, depth;
        bool load_reads, load_writes, store_writes;
        VkImageLayout initial, final, first_layout, last_layout;
        uint32_t first_subpass, last_subpass; /* where its load and store operations happen */
    } * attachments;
    uint32_t dependency_count; /* between two subpasses (not VK_SUBPASS_EXTERNAL, not a self-dependency) */
    struct pass_dependency {
        uint32_t src, dst;
        uint64_t src_stages, dst_stages, src_access, dst_access;
    } * dependencies;
    uint64_t begin_src_stages, begin_dst_stages, begin_src_access, begin_dst_access;
    uint64_t end_src_stages, end_dst_stages, end_src_access, end_dst_access;
    bool has_begin_dependency, has_end_dependency;
};

struct framebuffer_state {
    uint32_t count;
    VkImageView views[MAX_ATTACHMENTS * 2];
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
     * operations touch only these pixels (render_area.h) */
    struct render_rect render_area;
    bool depth_write_enable; /* the last vkCmdSetDepthWriteEnable */
    /* dynamic rendering: the store and resolve operations vkCmdEndRendering performs, as part of
     * the rendering vkCmdBeginRendering (command `rendering_command`) started */
    bool dynamic_rendering;
    uint32_t rendering_command;
    struct hazard_access rendering_stores[MAX_ATTACHMENTS * 2];
    uint32_t rendering_store_count;
    struct hazard_tracker *hazards;  /* check_hazard.c's per-command-buffer state, created on first use */
    struct lifetime_notes *lifetime; /* check_lifetime.c's: what the recording refers to, created on first use */
};

/* The kinds of objects the layer keeps a state for, one line each (an X-macro, as the check
 * catalogue is): each kind's handle map in the device, its typed lookups (<kind>_state_in,
 * <kind>_state_take), the maps' creation and teardown (layer_objects_init, layer_objects_free) and
 * the shared create and destroy steps of the hooks come from this list. Listed in teardown order:
 * command buffers first (they hold references to pipelines and sets).
 *   X(kind, VkObjectType, state struct, release: frees a state the map no longer holds) */
#define LAYER_OBJECT_KINDS(X)                                                                                          \
    X(command_buffer, VK_OBJECT_TYPE_COMMAND_BUFFER, command_buffer_state, command_buffer_free_state)                  \
    X(command_pool, VK_OBJECT_TYPE_COMMAND_POOL, command_pool_state, command_pool_state_free)                          \
    X(fence, VK_OBJECT_TYPE_FENCE, fence_state, free)                                                                  \
    X(semaphore, VK_OBJECT_TYPE_SEMAPHORE, semaphore_state, free)                                                      \
    X(render_pass, VK_OBJECT_TYPE_RENDER_PASS, render_pass_state, render_pass_state_free)                              \
    X(framebuffer, VK_OBJECT_TYPE_FRAMEBUFFER, framebuffer_state, free)                                                \
    X(swapchain, VK_OBJECT_TYPE_SWAPCHAIN_KHR, swapchain_state, swapchain_state_free)                                  \
    X(descriptor_set, VK_OBJECT_TYPE_DESCRIPTOR_SET, set_state, set_state_release)                                     \
    X(descriptor_pool, VK_OBJECT_TYPE_DESCRIPTOR_POOL, descriptor_pool_state, descriptor_pool_state_free)              \
    X(pipeline, VK_OBJECT_TYPE_PIPELINE, pipeline_state, pipeline_release)                                             \
    X(pipeline_layout, VK_OBJECT_TYPE_PIPELINE_LAYOUT, pipeline_layout_state, pipeline_layout_release)                 \
    X(set_layout, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, set_layout_state, set_layout_release)                          \
    X(update_template, VK_OBJECT_TYPE_DESCRIPTOR_UPDATE_TEMPLATE, update_template_state, update_template_state_free)   \
    X(shader_module, VK_OBJECT_TYPE_SHADER_MODULE, shader_module_state, shader_module_state_free)                      \
    X(image_view, VK_OBJECT_TYPE_IMAGE_VIEW, image_view_state, free)                                                   \
    X(image, VK_OBJECT_TYPE_IMAGE, image_state, free)                                                                  \
    X(buffer, VK_OBJECT_TYPE_BUFFER, buffer_state, free)                                                               \
    X(memory, VK_OBJECT_TYPE_DEVICE_MEMORY, memory_state, free)

#define LAYER_OBJECT_KIND_ENUM(kind, type, state, release) OBJECT_KIND_##kind,
enum layer_object_kind { LAYER_OBJECT_KINDS(LAYER_OBJECT_KIND_ENUM) OBJECT_KIND_COUNT };
#undef LAYER_OBJECT_KIND_ENUM

/* A part of a command buffer's state that a check owns (the hazard tracker, the lifetime notes):
 * the state module resets and frees it through these operations, which the device is given at
 * creation (loader_glue.c takes them from the checks), so that state never calls into a check. */
struct command_buffer_part {
    void (*reset)(struct command_buffer_state *cb); /* a new recording: forget, keeping memory */
    void (*free)(struct command_buffer_state *cb);
};
#define MAX_COMMAND_BUFFER_PARTS 4

struct layer_device {
    VkDevice device;
    struct layer_instance *instance;
    VkPhysicalDevice physical;
    struct layer_device_dispatch dispatch;
    VkPhysicalDeviceProperties properties;
    /* per dimension, the largest baseGroup + groupCount a dispatch may reach: the device's
     * maxComputeWorkGroupCount or a target device's, whichever is lower (check_dispatch_device_init) */
    uint64_t group_end_max[3];
    struct handle_map names;                      /* object handle -> name from vkSetDebugUtilsObjectNameEXT */
    struct handle_map objects[OBJECT_KIND_COUNT]; /* per kind (LAYER_OBJECT_KINDS): handle -> state */
    struct queue_progress *progress;     /* queue_progress.c's model of the queues, created at the first submit */
    struct host_tracker *host;           /* host_unseen.c's unseen writes, created at the first completed write */
    struct hazard_queues *queue_hazards; /* check_hazard_submit.c's per-queue trackers, at the first submit */
    struct lifetime_tracker *lifetime;   /* check_lifetime.c's pending batches, likewise */
    struct command_buffer_part command_buffer_parts[MAX_COMMAND_BUFFER_PARTS];
    uint32_t command_buffer_part_count;
    /* debug-label paths ("frame/shadows"), interned for as long as the device lives so that the
     * hazard tracker's uses can name the labels active at an earlier command; at most
     * MAX_LABEL_PATHS distinct ones (labels with frame numbers would otherwise grow it forever) */
    pthread_mutex_t label_lock;
    struct handle_map label_paths; /* hash -> char * */
    uint32_t label_path_count;
    /* bumped (atomically) by anything that can change what a bound descriptor refers to: descriptor
     * updates, memory binding, destroying a resource; a bound_key taken at another epoch is stale */
    uint64_t resource_epoch;
    /* bumped (atomically) whenever a descriptor set's state leaves descriptor_sets (freed, its pool
     * reset or destroyed): a bound_set_memo taken at another epoch may name a dead state */
    uint64_t set_epoch;
};

/* Typed lookups of the device's object states by handle (NULL for an unknown one), and takes (the
 * state removed from the map, NULL if absent). */
#define LAYER_OBJECT_ACCESS(kind, type, state, release)                                                                \
    static inline struct state *kind##_state_in(struct layer_device *ld, uint64_t handle)                              \
    {                                                                                                                  \
        return handle_map_get(&ld->objects[OBJECT_KIND_##kind], handle);                                               \
    }                                                                                                                  \
    static inline struct state *kind##_state_take(struct layer_device *ld, uint64_t handle)                            \
    {                                                                                                                  \
        return handle_map_take(&ld->objects[OBJECT_KIND_##kind], handle);                                              \
    }
LAYER_OBJECT_KINDS(LAYER_OBJECT_ACCESS)
#undef LAYER_OBJECT_ACCESS

/* The maps of every kind, made at device creation and freed (with the states the application did
 * not destroy, in the list's order) at its end; a kind's object type and release. */
void layer_objects_init(struct layer_device *ld);
void layer_objects_free(struct layer_device *ld);
VkObjectType layer_object_type(enum layer_object_kind kind);
void layer_object_release(enum layer_object_kind kind, void *state);

static inline void set_epoch_bump(struct layer_device *ld)
{
    __atomic_add_fetch(&ld->set_epoch, 1, __ATOMIC_RELEASE);
}

static inline void resource_epoch_bump(struct layer_device *ld)
{
    __atomic_add_fetch(&ld->resource_epoch, 1, __ATOMIC_RELEASE);
}

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

/* The layout binding `binding` of a bound set, or NULL. */
const struct set_layout_binding *set_layout_binding_of(const struct set_state *set, uint32_t binding);

/* Reference counting of shared states (safe from any thread). */
void set_layout_release(struct set_layout_state *s);
void set_state_release(struct set_state *s);
void pipeline_layout_release(struct pipeline_layout_state *s);
void pipeline_release(struct pipeline_state *s);
/* The releases of LAYER_OBJECT_KINDS that do more than free() (NULL is fine). */
void render_pass_state_free(struct render_pass_state *r);
void swapchain_state_free(struct swapchain_state *s);
void command_pool_state_free(struct command_pool_state *p);
void descriptor_pool_state_free(struct descriptor_pool_state *p);
void update_template_state_free(struct update_template_state *t);
void shader_module_state_free(struct shader_module_state *m);
#define STATE_RETAIN(state) __atomic_add_fetch(&(state)->refs, 1, __ATOMIC_RELAXED)

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
