#include "image_area.h"

#include <pthread.h>
#include <stdlib.h>

/* Rectangles live in pages that are never moved or changed once published: a reader sees an id
 * only after its rectangle was stored (the count is released after the store), so lookups take
 * no lock. Interning takes the lock and finds an existing id through an open-addressing index of
 * the ids (grown at half full); copies and render passes intern, dispatches and draws never do. */
#define PAGE_BITS 12
#define PAGE_SIZE (1u << PAGE_BITS)
#define PAGES (IMAGE_AREAS_MAX / PAGE_SIZE)

static struct image_rect *pages[PAGES];
static uint32_t area_count;   /* ids 1..area_count are in use */
static uint32_t *index_slots; /* ids, 0: empty */
static uint32_t index_capacity;
static pthread_mutex_t area_lock = PTHREAD_MUTEX_INITIALIZER;

static struct image_rect *slot_of(uint32_t id)
{
    return &pages[(id - 1) >> PAGE_BITS][(id - 1) & (PAGE_SIZE - 1)];
}

static uint32_t hash_of(struct image_rect r)
{
    uint64_t h = ((uint64_t)r.x0 * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)r.y0 * 0xC2B2AE3D27D4EB4Full) ^
                 ((uint64_t)r.x1 * 0x165667B19E3779F9ull) ^ ((uint64_t)r.y1 * 0x27D4EB2F165667C5ull);
    return (uint32_t)(h >> 32);
}

static bool same_rect(struct image_rect a, struct image_rect b)
{
    return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1;
}

/* Puts `id` into the index (which has room). */
static void index_put(uint32_t id)
{
    uint32_t mask = index_capacity - 1, i = hash_of(*slot_of(id)) & mask;
    while (index_slots[i] != 0)
        i = (i + 1) & mask;
    index_slots[i] = id;
}

static bool index_grow(void)
{
    uint32_t capacity = index_capacity ? index_capacity * 2 : 256;
    uint32_t *slots = calloc(capacity, sizeof(*slots));
    if (slots == NULL)
        return false;
    free(index_slots);
    index_slots = slots;
    index_capacity = capacity;
    for (uint32_t id = 1; id <= area_count; ++id)
        index_put(id);
    return true;
}

uint32_t image_area_id(struct image_rect rect, uint32_t width, uint32_t height)
{
    if (rect.x1 > width)
        rect.x1 = width;
    if (rect.y1 > height)
        rect.y1 = height;
    if (rect.x0 == 0 && rect.y0 == 0 && rect.x1 >= width && rect.y1 >= height)
        return 0;
    if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1)
        return 0; /* empty: the caller's region is malformed; the whole subresource is the safe answer */
    pthread_mutex_lock(&area_lock);
    uint32_t id = 0;
    if (index_capacity != 0) {
        uint32_t mask = index_capacity - 1;
        for (uint32_t i = hash_of(rect) & mask; index_slots[i] != 0 && id == 0; i = (i + 1) & mask)
            if (same_rect(*slot_of(index_slots[i]), rect))
                id = index_slots[i];
    }
    uint32_t count = area_count;
    if (id == 0 && count < IMAGE_AREAS_MAX && ((count + 1) * 2 <= index_capacity || index_grow())) {
        uint32_t page = count >> PAGE_BITS;
        if (pages[page] == NULL)
            pages[page] = malloc(PAGE_SIZE * sizeof(struct image_rect));
        if (pages[page] != NULL) {
            id = count + 1;
            *slot_of(id) = rect;
            __atomic_store_n(&area_count, id, __ATOMIC_RELEASE);
            index_put(id);
        }
    }
    pthread_mutex_unlock(&area_lock);
    return id;
}

struct image_rect image_area_rect(uint32_t id)
{
    id &= ~IMAGE_AREA_WHOLE_MEMORY;
    uint32_t count = __atomic_load_n(&area_count, __ATOMIC_ACQUIRE);
    struct image_rect whole = {0, 0, UINT32_MAX, UINT32_MAX};
    return id >= 1 && id <= count ? *slot_of(id) : whole;
}

/* The loader unloads the layer when the last instance goes: the table goes with it (no id is used
 * after that). */
__attribute__((destructor)) static void image_areas_release(void)
{
    for (uint32_t p = 0; p < PAGES; ++p) {
        free(pages[p]);
        pages[p] = NULL;
    }
    free(index_slots);
    index_slots = NULL;
    index_capacity = 0;
    area_count = 0;
}
