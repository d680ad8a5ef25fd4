#include "handle_map.h"

#include <stdlib.h>

#define EMPTY 0u
#define DELETED UINT64_MAX

/* Open addressing, linear probing. Slots are read by lock-free readers, so every slot access is
 * atomic: a writer stores the value before the key (release), a reader loads the key (acquire)
 * before the value. */
struct handle_table {
    struct handle_table *next_retired;
    size_t capacity; /* a power of two */
    uint64_t *keys;
    void **values;
};

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

static struct handle_table *table_new(size_t capacity)
{
    struct handle_table *t = malloc(sizeof(*t));
    uint64_t *keys = calloc(capacity, sizeof(*keys));
    void **values = calloc(capacity, sizeof(*values));
    if (t == NULL || keys == NULL || values == NULL) {
        free(t);
        free(keys);
        free(values);
        return NULL;
    }
    *t = (struct handle_table){.capacity = capacity, .keys = keys, .values = values};
    return t;
}

static void table_free(struct handle_table *t)
{
    free(t->keys);
    free(t->values);
    free(t);
}

static uint64_t load_key(const struct handle_table *t, size_t i)
{
    return __atomic_load_n(&t->keys[i], __ATOMIC_ACQUIRE);
}

void handle_map_init(struct handle_map *m)
{
    for (int i = 0; i < HANDLE_MAP_SHARDS; ++i) {
        pthread_mutex_init(&m->shards[i].lock, NULL);
        m->shards[i].table = m->shards[i].retired = NULL;
        m->shards[i].used = m->shards[i].live = 0;
    }
}

void handle_map_destroy(struct handle_map *m, void (*release)(void *value))
{
    for (int i = 0; i < HANDLE_MAP_SHARDS; ++i) {
        struct handle_map_shard *s = &m->shards[i];
        struct handle_table *t = s->table;
        for (size_t k = 0; t != NULL && k < t->capacity; ++k)
            if (t->keys[k] != EMPTY && t->keys[k] != DELETED && release)
                release(t->values[k]);
        if (t != NULL)
            table_free(t);
        while (s->retired != NULL) {
            struct handle_table *next = s->retired->next_retired;
            table_free(s->retired);
            s->retired = next;
        }
        s->table = NULL;
        pthread_mutex_destroy(&s->lock);
    }
}

/* The slot holding `handle`, or SIZE_MAX; with `for_insert`, the slot to store it in. */
static size_t find_slot(const struct handle_table *t, uint64_t handle, bool for_insert)
{
    size_t mask = t->capacity - 1, i = (size_t)mix(handle * 31 + 7) & mask, tomb = SIZE_MAX;
    for (size_t probes = 0; probes < t->capacity; ++probes, i = (i + 1) & mask) {
        uint64_t key = load_key(t, i);
        if (key == handle)
            return i;
        if (key == EMPTY)
            return for_insert && tomb != SIZE_MAX ? tomb : (for_insert ? i : SIZE_MAX);
        if (key == DELETED && tomb == SIZE_MAX)
            tomb = i;
    }
    return for_insert ? tomb : SIZE_MAX;
}

/* Writer lock held. Builds a new table with the live entries and publishes it. */
static bool grow(struct handle_map_shard *s)
{
    struct handle_table *old = s->table;
    size_t capacity = old ? old->capacity * 2 : 64;
    /* a table full of tombstones is rebuilt at the same size */
    if (old != NULL && s->live * 2 < old->capacity)
        capacity = old->capacity;
    struct handle_table *fresh = table_new(capacity);
    if (fresh == NULL)
        return false;
    size_t live = 0;
    for (size_t k = 0; old != NULL && k < old->capacity; ++k) {
        uint64_t key = old->keys[k];
        if (key == EMPTY || key == DELETED)
            continue;
        size_t slot = find_slot(fresh, key, true);
        fresh->keys[slot] = key;
        fresh->values[slot] = old->values[k];
        live++;
    }
    __atomic_store_n(&s->table, fresh, __ATOMIC_RELEASE);
    if (old != NULL) {
        old->next_retired = s->retired;
        s->retired = old;
    }
    s->used = s->live = live;
    return true;
}

bool handle_map_put(struct handle_map *m, uint64_t handle, void *value)
{
    if (handle == EMPTY || handle == DELETED)
        return false;
    struct handle_map_shard *s = shard_of(m, handle);
    pthread_mutex_lock(&s->lock);
    bool ok = true;
    if (s->table == NULL || (s->used + 1) * 4 > s->table->capacity * 3)
        ok = grow(s);
    if (ok) {
        struct handle_table *t = s->table;
        size_t slot = find_slot(t, handle, true);
        uint64_t key = t->keys[slot];
        if (key != handle) {
            s->used += key == EMPTY;
            s->live++;
        }
        __atomic_store_n(&t->values[slot], value, __ATOMIC_RELAXED);
        __atomic_store_n(&t->keys[slot], handle, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&s->lock);
    return ok;
}

void *handle_map_get(struct handle_map *m, uint64_t handle)
{
    if (handle == EMPTY || handle == DELETED)
        return NULL;
    struct handle_table *t = __atomic_load_n(&shard_of(m, handle)->table, __ATOMIC_ACQUIRE);
    if (t == NULL)
        return NULL;
    size_t slot = find_slot(t, handle, false);
    return slot == SIZE_MAX ? NULL : __atomic_load_n(&t->values[slot], __ATOMIC_RELAXED);
}

void *handle_map_take(struct handle_map *m, uint64_t handle)
{
    if (handle == EMPTY || handle == DELETED)
        return NULL;
    struct handle_map_shard *s = shard_of(m, handle);
    pthread_mutex_lock(&s->lock);
    void *value = NULL;
    struct handle_table *t = s->table;
    size_t slot = t ? find_slot(t, handle, false) : SIZE_MAX;
    if (slot != SIZE_MAX) {
        value = t->values[slot];
        __atomic_store_n(&t->keys[slot], DELETED, __ATOMIC_RELEASE);
        __atomic_store_n(&t->values[slot], NULL, __ATOMIC_RELAXED);
        s->live--;
    }
    pthread_mutex_unlock(&s->lock);
    return value;
}
