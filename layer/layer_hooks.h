/* The device-level calls the layer wraps, one table per hooks_*.c file. vkGetDeviceProcAddr (and
 * vkGetInstanceProcAddr, for device calls) returns a hook only from these tables. */
#ifndef PREFLIGHT_LAYER_HOOKS_H
#define PREFLIGHT_LAYER_HOOKS_H

#include <stddef.h>
#include <vulkan/vulkan_core.h>

#include "state_device.h"

struct layer_hook {
    const char *name;
    PFN_vkVoidFunction function;
};

#define LAYER_HOOK(name)                                                                                               \
    {                                                                                                                  \
#name, (PFN_vkVoidFunction)hook_##name                                                                         \
    }

extern const struct layer_hook resource_hooks[];
extern const size_t resource_hook_count;
extern const struct layer_hook descriptor_hooks[];
extern const size_t descriptor_hook_count;
extern const struct layer_hook pipeline_hooks[];
extern const size_t pipeline_hook_count;
extern const struct layer_hook command_hooks[];
extern const size_t command_hook_count;
extern const struct layer_hook transfer_hooks[];
extern const size_t transfer_hook_count;
extern const struct layer_hook queue_hooks[];
extern const size_t queue_hook_count;
extern const struct layer_hook rendering_hooks[];
extern const size_t rendering_hook_count;
extern const struct layer_hook swapchain_hooks[];
extern const size_t swapchain_hook_count;

/* The steps the create and destroy hooks of LAYER_OBJECT_KINDS share (hooks_objects.c). Created:
 * the new state into its device's map (released when the map has no room for it: the object then
 * goes unchecked; NULL, out of memory, is nothing). Destroyed: the validator sees the state still
 * in the map, then it leaves the map and is released. */
void hook_object_created(struct layer_device *ld, enum layer_object_kind kind, uint64_t handle, void *state);
void hook_object_destroyed(struct layer_device *ld, enum layer_object_kind kind, uint64_t handle, const char *call);

#endif
