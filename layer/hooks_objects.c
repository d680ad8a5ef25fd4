/* The create and destroy steps every object hook shares (layer_hooks.h). */
#include "layer_hooks.h"
#include "state_device.h"
#include "state_objects.h"
#include "validate.h"

void hook_object_created(struct layer_device *ld, enum layer_object_kind kind, uint64_t handle, void *state)
{
    if (state != NULL && !handle_map_put(&ld->objects[kind], handle, state))
        layer_object_release(kind, state);
}

void hook_object_destroyed(struct layer_device *ld, enum layer_object_kind kind, uint64_t handle, const char *call)
{
    validate_destroy(ld, layer_object_type(kind), handle, handle_map_get(&ld->objects[kind], handle), call);
    layer_object_release(kind, handle_map_take(&ld->objects[kind], handle));
}
