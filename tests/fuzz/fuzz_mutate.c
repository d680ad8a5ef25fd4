/* The mutations the fuzz targets share (fuzz_driver.h), and with libFuzzer a custom mutator that
 * mixes libFuzzer's own with the target's format-aware ones. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_driver.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

void fuzz_seed(uint64_t seed)
{
    rng_state = 0x9E3779B97F4A7C15ull ^ (seed + 1) * 0xBF58476D1CE4E5B9ull;
}

uint64_t fuzz_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

void fuzz_mutate_bytes(uint8_t *data, size_t *size, size_t capacity, const char *alphabet)
{
    size_t n = *size;
    switch (fuzz_random() % 5) {
    case 0:
        if (n)
            data[fuzz_random() % n] ^= (uint8_t)(1u << (fuzz_random() % 8));
        break;
    case 1:
        if (n)
            *size = fuzz_random() % n;
        break;
    case 2:
        if (n)
            data[fuzz_random() % n] =
                alphabet ? (uint8_t)alphabet[fuzz_random() % strlen(alphabet)] : (uint8_t)fuzz_random();
        break;
    case 3: {
        if (n < 2)
            break;
        size_t at = fuzz_random() % n, length = 1 + fuzz_random() % (n - at);
        memmove(data + at, data + at + length, n - at - length);
        *size = n - length;
        break;
    }
    default: {
        if (n < 2)
            break;
        size_t at = fuzz_random() % n, length = 1 + fuzz_random() % (n - at < 256 ? n - at : 256);
        if (n + length > capacity)
            break;
        memmove(data + at + length, data + at, n - at);
        *size = n + length;
        break;
    }
    }
}

void fuzz_mutate_words(uint8_t *data, size_t *size, size_t capacity)
{
    size_t words = *size / 4;
    if (words == 0) {
        fuzz_mutate_bytes(data, size, capacity, NULL);
        return;
    }
    uint32_t w;
    size_t at = fuzz_random() % words;
    memcpy(&w, data + at * 4, 4);
    switch (fuzz_random() % 7) {
    case 0: /* a random word */
        w = (uint32_t)fuzz_random();
        break;
    case 1: /* a small number: an id, an index, a count */
        w = (uint32_t)(fuzz_random() % 64);
        break;
    case 2: /* the high half: a SPIR-V instruction's word count */
        w = (w & 0xFFFFu) | (uint32_t)(fuzz_random() % 16) << 16;
        break;
    case 3: /* the low half: an opcode */
        w = (w & 0xFFFF0000u) | (uint32_t)(fuzz_random() % 400);
        break;
    case 4: { /* a word from elsewhere */
        memcpy(&w, data + (fuzz_random() % words) * 4, 4);
        break;
    }
    case 5: /* large values: bounds, sizes, all ones */
        w = (uint32_t)(0xFFFFFFFFu - fuzz_random() % 4);
        break;
    default:
        fuzz_mutate_bytes(data, size, capacity, NULL);
        return;
    }
    memcpy(data + at * 4, &w, 4);
}

#ifdef PREFLIGHT_LIBFUZZER
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    fuzz_seed(seed);
    if (fuzz_random() % 2)
        return LLVMFuzzerMutate(data, size, max_size);
    fuzz_target_mutate(data, &size, max_size);
    return size;
}
#endif
