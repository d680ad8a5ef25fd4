/* A concurrent map from Vulkan handles (as 64-bit values) to the layer's state for them.
 * Lookups take no lock: the recording path looks up several objects per command, and a mutex per
 * lookup was most of the layer's cost. Writers (create/destroy hooks, far rarer) serialize on a
 * per-shard mutex. A table outgrown by a writer is retired, not freed, until the map is destroyed,
 * so a reader still probing it never touches freed memory; the retired tables add up to less than
 * the live one. Values are owned by the caller. */
#ifndef PREFLIGHT_LAYER_HANDLE_MAP_H
#define PREFLIGHT_LAYER_HANDLE_MAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HANDLE_MAP_SHARDS 16

struct handle_table; /* handle_map.c */

struct handle_map_shard {
    pthread_mutex_t lock;       /* writers only */
    struct handle_table *table; /* read with acquire, replaced with release */
    struct handle_table *retired;
    size_t used, live; /* writers only */
};

struct handle_map {
    struct handle_map_shard shards[HANDLE_MAP_SHARDS];
};

void handle_map_init(struct handle_map *m);
/* Calls `release` on every value still present, then frees the map's memory. */
void handle_map_destroy(struct handle_map *m, void (*release)(void *value));
/* A Vulkan handle (a pointer or a 64-bit integer, by platform) as the maps' key. */
#define HANDLE(h) ((uint64_t)(h))

bool handle_map_put(struct handle_map *m, uint64_t handle, void *value);
void *handle_map_get(struct handle_map *m, uint64_t handle);
/* Removes and returns the value (NULL if absent). */
void *handle_map_take(struct handle_map *m, uint64_t handle);

#endif
