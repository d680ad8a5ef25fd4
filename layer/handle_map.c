#include "handle_map.h"

#include <stdlib.h>

#define EMPTY 0u
#define DELETED UINT64_MAX

/* Open addressing, linear probing. Slots are read by lock-free readers, so every slot access is
 * atomic: a writer stores the value before the key (release), a reader loads the key (acquire)
 * before the value. */
/* A key and its value side by side: a lookup reads one cache line, not one in each of two arrays
 * (the recording path looks up cold objects, such as rotated descriptor sets, at every command). */
struct handle_slot {
    uint64_t key;
    void *value;
};

struct handle_table {
    struct handle_table *next_retired;
    size_t capacity; /* a power of two */
    struct handle_slot *slots;
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
    struct handle_slot *slots = calloc(capacity, sizeof(*slots));
    if (t == NULL || slots == NULL) {
        free(t);
        free(slots);
        return NULL;
    }
    *t = (struct handle_table){.capacity = capacity, .slots = slots};
    return t;
}

static void table_free(struct handle_table *t)
{
    free(t->slots);
    free(t);
}

static uint64_t load_key(const struct handle_table *t, size_t i)
{
    return __atomic_load_n(&t->slots[i].key, __ATOMIC_ACQUIRE);
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
            if (t->slots[k].key != EMPTY && t->slots[k].key != DELETED && release)
                release(t->slots[k].value);
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
        uint64_t key = old->slots[k].key;
        if (key == EMPTY || key == DELETED)
            continue;
        fresh->slots[find_slot(fresh, key, true)] = old->slots[k];
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
        uint64_t key = t->slots[slot].key;
        if (key != handle) {
            s->used += key == EMPTY;
            s->live++;
        }
        __atomic_store_n(&t->slots[slot].value, value, __ATOMIC_RELAXED);
        __atomic_store_n(&t->slots[slot].key, handle, __ATOMIC_RELEASE);
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
    return slot == SIZE_MAX ? NULL : __atomic_load_n(&t->slots[slot].value, __ATOMIC_RELAXED);
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
        value = t->slots[slot].value;
        __atomic_store_n(&t->slots[slot].key, DELETED, __ATOMIC_RELEASE);
        __atomic_store_n(&t->slots[slot].value, NULL, __ATOMIC_RELAXED);
        s->live--;
    }
    pthread_mutex_unlock(&s->lock);
    return value;
}
