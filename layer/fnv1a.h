/* FNV-1a, the layer's one hash of names and keys: stable across builds, runs and machines (the
 * checks' message IDs are FNV-1a 32 of their names), cheap for the short strings it sees. */
#ifndef PREFLIGHT_LAYER_FNV1A_H
#define PREFLIGHT_LAYER_FNV1A_H

#include <stdint.h>

#define FNV1A64_START 14695981039346656037ull
#define FNV1A32_START 2166136261u

/* One more value: a byte for the standard hash; a whole 64-bit word (a handle) for keys. */
static inline uint64_t fnv1a64_step(uint64_t hash, uint64_t value)
{
    return (hash ^ value) * 1099511628211ull;
}
static inline uint64_t fnv1a64_string(uint64_t hash, const char *s)
{
    for (; s != NULL && *s; ++s)
        hash = fnv1a64_step(hash, (uint8_t)*s);
    return hash;
}
static inline uint32_t fnv1a32_string(uint32_t hash, const char *s)
{
    for (; s != NULL && *s; ++s)
        hash = (hash ^ (uint8_t)*s) * 16777619u;
    return hash;
}

#endif
