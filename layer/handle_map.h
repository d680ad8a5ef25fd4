/* A concurrent map from Vulkan handles (as 64-bit values) to the layer's state for them. Sharded,
 * each shard an open-addressing table behind its own mutex, so threads recording different
 * command buffers rarely wait on each other. Values are owned by the caller. */
#ifndef PREFLIGHT_LAYER_HANDLE_MAP_H
#define PREFLIGHT_LAYER_HANDLE_MAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HANDLE_MAP_SHARDS 16

struct handle_map_shard {
    pthread_mutex_t lock;
    uint64_t *keys;  /* 0: empty; UINT64_MAX: deleted */
    void **values;
    size_t capacity, used, live;
};

struct handle_map {
    struct handle_map_shard shards[HANDLE_MAP_SHARDS];
};

void handle_map_init(struct handle_map *m);
/* Calls `release` on every value still present, then frees the map's memory. */
void handle_map_destroy(struct handle_map *m, void (*release)(void *value));
bool handle_map_put(struct handle_map *m, uint64_t handle, void *value);
void *handle_map_get(struct handle_map *m, uint64_t handle);
/* Removes and returns the value (NULL if absent). */
void *handle_map_take(struct handle_map *m, uint64_t handle);
/* Calls `visit` for each entry while holding each shard's lock in turn. */
void handle_map_for_each(struct handle_map *m, void (*visit)(uint64_t handle, void *value, void *user), void *user);

#endif
