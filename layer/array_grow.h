/* Growing the layer's realloc'd arrays: one doubling rule instead of one per array. */
#ifndef PREFLIGHT_LAYER_ARRAY_GROW_H
#define PREFLIGHT_LAYER_ARRAY_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The capacity that holds `needed` items: `capacity` (or `first` for an empty array) doubled. */
static inline uint32_t array_capacity_for(uint32_t capacity, uint32_t needed, uint32_t first)
{
    uint32_t grown_capacity = capacity ? capacity : first;
    while (grown_capacity < needed)
        grown_capacity *= 2;
    return grown_capacity;
}

/* `items` (with `*capacity` slots of `item_size` bytes) with room for `needed` (at least one):
 * the same array, or a larger one (capacity doubled from `first` until it fits, `*capacity`
 * updated). NULL when memory runs out; then `items` and `*capacity` are unchanged and valid. */
static inline void *array_grow(void *items, uint32_t *capacity, uint32_t needed, size_t item_size, uint32_t first)
{
    if (needed <= *capacity)
        return items;
    uint32_t grown_capacity = array_capacity_for(*capacity, needed, first);
    void *grown = realloc(items, (size_t)grown_capacity * item_size);
    if (grown != NULL)
        *capacity = grown_capacity;
    return grown;
}

/* array_grow for arrays whose items must start at `alignment` (a power of two that divides
 * item_size): moved into a new aligned block, as realloc keeps only malloc's alignment. */
static inline void *array_grow_aligned(void *items, uint32_t *capacity, uint32_t needed, size_t item_size,
                                       uint32_t first, size_t alignment)
{
    if (needed <= *capacity)
        return items;
    uint32_t grown_capacity = array_capacity_for(*capacity, needed, first);
    void *grown = aligned_alloc(alignment, (size_t)grown_capacity * item_size);
    if (grown == NULL)
        return NULL;
    if (items != NULL)
        memcpy(grown, items, (size_t)*capacity * item_size);
    free(items);
    *capacity = grown_capacity;
    return grown;
}

#endif
