#include "render_area.h"

#include <pthread.h>

/* Published entries are never changed: a reader sees an id only after its rectangle was stored
 * (the count is released after the store), so lookups need no lock. Interning takes the lock and
 * searches the entries (few in practice: an engine's passes use a handful of areas). */
static struct render_rect areas[RENDER_AREAS_MAX + 1];
static uint32_t area_count; /* ids 1..area_count are in use */
static pthread_mutex_t area_lock = PTHREAD_MUTEX_INITIALIZER;

uint32_t render_area_id(struct render_rect rect, uint32_t width, uint32_t height)
{
    if (rect.x1 > width)
        rect.x1 = width;
    if (rect.y1 > height)
        rect.y1 = height;
    if (rect.x0 == 0 && rect.y0 == 0 && rect.x1 >= width && rect.y1 >= height)
        return 0;
    pthread_mutex_lock(&area_lock);
    uint32_t count = __atomic_load_n(&area_count, __ATOMIC_RELAXED), id = 0;
    for (uint32_t i = 1; i <= count && id == 0; ++i)
        if (areas[i].x0 == rect.x0 && areas[i].y0 == rect.y0 && areas[i].x1 == rect.x1 && areas[i].y1 == rect.y1)
            id = i;
    if (id == 0 && count < RENDER_AREAS_MAX) {
        areas[count + 1] = rect;
        id = count + 1;
        __atomic_store_n(&area_count, id, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&area_lock);
    return id;
}

struct render_rect render_area_rect(uint32_t id)
{
    uint32_t count = __atomic_load_n(&area_count, __ATOMIC_ACQUIRE);
    struct render_rect whole = {0, 0, UINT32_MAX, UINT32_MAX};
    return id >= 1 && id <= count ? areas[id] : whole;
}
