/* The registry of instances and devices by dispatch key (device_registry.h). */
#include "device_registry.h"

#include <pthread.h>
#include <stddef.h>

/* Every hook starts with a lookup here, so lookups take no lock: a slot's owner pointer is
 * published (release) before its key, and a reader that finds the key (acquire) sees the owner.
 * Registering and unregistering (instance and device creation) serialize on a mutex. A slot's
 * owner is only freed after the app destroyed the object, when it may no longer call with it. */
#define MAX_DISPATCHABLES 64

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    void *key;
    struct layer_instance *instance;
    struct layer_device *device;
} registry[MAX_DISPATCHABLES];

static void *dispatch_key(const void *dispatchable)
{
    return dispatchable ? *(void *const *)dispatchable : NULL;
}

static void registry_put(const void *dispatchable, struct layer_instance *instance, struct layer_device *device)
{
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < MAX_DISPATCHABLES; ++i) {
        if (__atomic_load_n(&registry[i].key, __ATOMIC_RELAXED) == NULL) {
            __atomic_store_n(&registry[i].instance, instance, __ATOMIC_RELAXED);
            __atomic_store_n(&registry[i].device, device, __ATOMIC_RELAXED);
            __atomic_store_n(&registry[i].key, dispatch_key(dispatchable), __ATOMIC_RELEASE);
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
}

void layer_register_instance(const void *dispatchable, struct layer_instance *instance)
{
    registry_put(dispatchable, instance, NULL);
}

void layer_register_device(const void *dispatchable, struct layer_device *device)
{
    registry_put(dispatchable, NULL, device);
}

void layer_unregister(const void *dispatchable)
{
    void *key = dispatch_key(dispatchable);
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < MAX_DISPATCHABLES; ++i)
        if (__atomic_load_n(&registry[i].key, __ATOMIC_RELAXED) == key)
            __atomic_store_n(&registry[i].key, NULL, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&registry_lock);
}

/* The first slot from `from` on that holds `key` (acquire: its owner pointers are published), or
 * MAX_DISPATCHABLES. Instances and physical devices share a key, as do a device, its queues and
 * command buffers: a slot holds one owner, so a lookup walks the slots of its key. */
static int slot_of(const void *key, int from)
{
    while (key != NULL && from < MAX_DISPATCHABLES && __atomic_load_n(&registry[from].key, __ATOMIC_ACQUIRE) != key)
        ++from;
    return key != NULL ? from : MAX_DISPATCHABLES;
}

struct layer_instance *layer_instance_of(const void *dispatchable)
{
    void *key = dispatch_key(dispatchable);
    for (int i = slot_of(key, 0); i < MAX_DISPATCHABLES; i = slot_of(key, i + 1)) {
        struct layer_instance *found = __atomic_load_n(&registry[i].instance, __ATOMIC_RELAXED);
        if (found != NULL)
            return found;
    }
    return NULL;
}

struct layer_device *layer_device_of(const void *dispatchable)
{
    void *key = dispatch_key(dispatchable);
    for (int i = slot_of(key, 0); i < MAX_DISPATCHABLES; i = slot_of(key, i + 1)) {
        struct layer_device *found = __atomic_load_n(&registry[i].device, __ATOMIC_RELAXED);
        if (found != NULL)
            return found;
    }
    return NULL;
}
