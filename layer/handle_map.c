#include "handle_map.h"

#include <stdlib.h>

#define EMPTY 0u
#define DELETED UINT64_MAX

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

static struct handle_map_shard *shard_of(struct handle_map *m, uint64_t handle)
{
    return &m->shards[mix(handle) % HANDLE_MAP_SHARDS];
}

void handle_map_init(struct handle_map *m)
{
    for (int i = 0; i < HANDLE_MAP_SHARDS; ++i) {
        pthread_mutex_init(&m->shards[i].lock, NULL);
        m->shards[i].keys = NULL;
        m->shards[i].values = NULL;
        m->shards[i].capacity = m->shards[i].used = m->shards[i].live = 0;
    }
}

void handle_map_destroy(struct handle_map *m, void (*release)(void *value))
{
    for (int i = 0; i < HANDLE_MAP_SHARDS; ++i) {
        struct handle_map_shard *s = &m->shards[i];
        for (size_t k = 0; k < s->capacity; ++k)
            if (s->keys[k] != EMPTY && s->keys[k] != DELETED && release)
                release(s->values[k]);
        free(s->keys);
        free(s->values);
        pthread_mutex_destroy(&s->lock);
    }
}

static size_t find_slot(const struct handle_map_shard *s, uint64_t handle, bool for_insert)
{
    size_t mask = s->capacity - 1, i = (size_t)mix(handle * 31 + 7) & mask, tomb = SIZE_MAX;
    for (size_t probes = 0; probes < s->capacity; ++probes, i = (i + 1) & mask) {
        if (s->keys[i] == handle)
            return i;
        if (s->keys[i] == EMPTY)
            return for_insert && tomb != SIZE_MAX ? tomb : (for_insert ? i : SIZE_MAX);
        if (s->keys[i] == DELETED && tomb == SIZE_MAX)
            tomb = i;
    }
    return for_insert ? tomb : SIZE_MAX;
}

static bool grow(struct handle_map_shard *s)
{
    size_t capacity = s->capacity ? s->capacity * 2 : 64;
    /* rehash only live entries; a table full of tombstones is rebuilt at the same size */
    if (s->live * 2 < s->capacity)
        capacity = s->capacity;
    uint64_t *keys = calloc(capacity, sizeof(*keys));
    void **values = calloc(capacity, sizeof(*values));
    if (keys == NULL || values == NULL) {
        free(keys);
        free(values);
        return false;
    }
    struct handle_map_shard fresh = {.keys = keys, .values = values, .capacity = capacity};
    for (size_t k = 0; k < s->capacity; ++k) {
        if (s->keys[k] == EMPTY || s->keys[k] == DELETED)
            continue;
        size_t slot = find_slot(&fresh, s->keys[k], true);
        fresh.keys[slot] = s->keys[k];
        fresh.values[slot] = s->values[k];
        fresh.used++;
        fresh.live++;
    }
    free(s->keys);
    free(s->values);
    s->keys = fresh.keys;
    s->values = fresh.values;
    s->capacity = fresh.capacity;
    s->used = fresh.used;
    s->live = fresh.live;
    return true;
}

bool handle_map_put(struct handle_map *m, uint64_t handle, void *value)
{
    if (handle == EMPTY || handle == DELETED)
        return false;
    struct handle_map_shard *s = shard_of(m, handle);
    pthread_mutex_lock(&s->lock);
    bool ok = true;
    if ((s->used + 1) * 4 > s->capacity * 3)
        ok = grow(s);
    if (ok) {
        size_t slot = find_slot(s, handle, true);
        if (s->keys[slot] != handle) {
            s->used += s->keys[slot] == EMPTY;
            s->live++;
        }
        s->keys[slot] = handle;
        s->values[slot] = value;
    }
    pthread_mutex_unlock(&s->lock);
    return ok;
}

void *handle_map_get(struct handle_map *m, uint64_t handle)
{
    if (handle == EMPTY || handle == DELETED)
        return NULL;
    struct handle_map_shard *s = shard_of(m, handle);
    pthread_mutex_lock(&s->lock);
    void *value = NULL;
    if (s->capacity) {
        size_t slot = find_slot(s, handle, false);
        if (slot != SIZE_MAX)
            value = s->values[slot];
    }
    pthread_mutex_unlock(&s->lock);
    return value;
}

void *handle_map_take(struct handle_map *m, uint64_t handle)
{
    if (handle == EMPTY || handle == DELETED)
        return NULL;
    struct handle_map_shard *s = shard_of(m, handle);
    pthread_mutex_lock(&s->lock);
    void *value = NULL;
    if (s->capacity) {
        size_t slot = find_slot(s, handle, false);
        if (slot != SIZE_MAX) {
            value = s->values[slot];
            s->keys[slot] = DELETED;
            s->values[slot] = NULL;
            s->live--;
        }
    }
    pthread_mutex_unlock(&s->lock);
    return value;
}

void handle_map_for_each(struct handle_map *m, void (*visit)(uint64_t handle, void *value, void *user), void *user)
{
    for (int i = 0; i < HANDLE_MAP_SHARDS; ++i) {
        struct handle_map_shard *s = &m->shards[i];
        pthread_mutex_lock(&s->lock);
        for (size_t k = 0; k < s->capacity; ++k)
            if (s->keys[k] != EMPTY && s->keys[k] != DELETED)
                visit(s->keys[k], s->values[k], user);
        pthread_mutex_unlock(&s->lock);
    }
}
