/* The layer's state of one VkInstance and one VkDevice, found by the dispatch key (the loader's
 * table pointer at the start of every dispatchable handle, shared by a device's queues and command
 * buffers; device_registry.h). Every other object lives in a handle map of its device, one per kind
 * of LAYER_OBJECT_KINDS, created and freed by the hook of the call that makes or destroys it; the
 * states of each kind are declared by their owner (state_resources.h, state_descriptors.h,
 * state_pipelines.h, state_command_buffers.h; fences and semaphores here, with the queues).
 *
 * Threading follows Vulkan's external-synchronization rules: a command buffer's state is touched
 * only by the thread recording it (the app must synchronize the pool), so recording takes no lock
 * beyond the handle-map lookups; objects a command buffer refers to are reference-counted, so an
 * app that destroys one too early cannot make the layer read freed memory. */
#ifndef PREFLIGHT_LAYER_STATE_DEVICE_H
#define PREFLIGHT_LAYER_STATE_DEVICE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "device_registry.h"
#include "fleet_limits_read.h"
#include "handle_map.h"
#include "layer_dispatch.h"
#include "settings.h"

#define LAYER_NAME "VK_LAYER_PREFLIGHT_validation"
#define MAX_LABEL_PATHS 4096

struct layer_messenger {
    VkDebugUtilsMessengerEXT handle; /* VK_NULL_HANDLE for one chained into VkInstanceCreateInfo */
    VkDebugUtilsMessageSeverityFlagsEXT severities;
    VkDebugUtilsMessageTypeFlagsEXT types;
    PFN_vkDebugUtilsMessengerCallbackEXT callback;
    void *user_data;
};

struct layer_instance {
    VkInstance instance;
    uint32_t api_version; /* VkApplicationInfo::apiVersion (1.0 when none was given) */
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

/* The kinds of objects the layer keeps a state for, one line each (an X-macro, as the check
 * catalogue is): each kind's handle map in the device, its typed lookups (<kind>_state_in,
 * <kind>_state_take), the maps' creation and teardown and each kind's release (state_objects.h)
 * and the create and destroy steps the hooks share (layer_hooks.h) come from this list. Listed in
 * teardown order: command buffers first (they hold references to pipelines and sets).
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
    X(buffer_view, VK_OBJECT_TYPE_BUFFER_VIEW, buffer_view_state, free)                                                \
    X(buffer, VK_OBJECT_TYPE_BUFFER, buffer_state, free)                                                               \
    X(memory, VK_OBJECT_TYPE_DEVICE_MEMORY, memory_state, free)

#define LAYER_OBJECT_KIND_ENUM(kind, type, state, release) OBJECT_KIND_##kind,
enum layer_object_kind { LAYER_OBJECT_KINDS(LAYER_OBJECT_KIND_ENUM) OBJECT_KIND_COUNT };
#undef LAYER_OBJECT_KIND_ENUM

#define LAYER_OBJECT_DECLARE(kind, type, state, release) struct state;
LAYER_OBJECT_KINDS(LAYER_OBJECT_DECLARE)
#undef LAYER_OBJECT_DECLARE

/* A part of a command buffer's state that a check owns (the hazard tracker, the lifetime notes):
 * the state module resets and frees it through these operations, which the device is given at
 * creation (validate_device_created takes them from the checks), so that state never calls into a
 * check. */
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
    /* the sizes its subgroups may have (0: not known): what a compute shader's gl_SubgroupID and
     * gl_SubgroupInvocationID can be (access_footprint.c) */
    uint32_t subgroup_min, subgroup_max;
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
    /* bumped (atomically) whenever a descriptor set's state leaves its map (freed, its pool
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

static inline void set_epoch_bump(struct layer_device *ld)
{
    __atomic_add_fetch(&ld->set_epoch, 1, __ATOMIC_RELEASE);
}

static inline void resource_epoch_bump(struct layer_device *ld)
{
    __atomic_add_fetch(&ld->resource_epoch, 1, __ATOMIC_RELEASE);
}

#define STATE_RETAIN(state) __atomic_add_fetch(&(state)->refs, 1, __ATOMIC_RELAXED)

#endif
