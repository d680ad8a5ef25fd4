/* The registry of instances and devices by dispatch key: every hook starts by finding its
 * instance's or device's state here (loader_glue.c registers them at creation). */
#ifndef PREFLIGHT_LAYER_DEVICE_REGISTRY_H
#define PREFLIGHT_LAYER_DEVICE_REGISTRY_H

struct layer_instance;
struct layer_device;

/* Instances and physical devices share a key; a device, its queues and command buffers share one. */
struct layer_instance *layer_instance_of(const void *dispatchable);
struct layer_device *layer_device_of(const void *dispatchable);
void layer_register_instance(const void *dispatchable, struct layer_instance *instance);
void layer_register_device(const void *dispatchable, struct layer_device *device);
void layer_unregister(const void *dispatchable);

#endif
