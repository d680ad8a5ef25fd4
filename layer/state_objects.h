/* The maps of every kind of LAYER_OBJECT_KINDS (state_device.h), made at device creation and freed
 * at its end with the states the application did not destroy, in the list's order; each kind's
 * object type and release (state_objects.c). */
#ifndef PREFLIGHT_LAYER_STATE_OBJECTS_H
#define PREFLIGHT_LAYER_STATE_OBJECTS_H

#include "state_device.h"

void layer_objects_init(struct layer_device *ld);
void layer_objects_free(struct layer_device *ld);
VkObjectType layer_object_type(enum layer_object_kind kind);
/* Frees a state the device's map no longer holds (NULL is fine). */
void layer_object_release(enum layer_object_kind kind, void *state);

#endif
