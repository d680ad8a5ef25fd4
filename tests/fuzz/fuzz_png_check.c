/* Fuzzing the dashboard's PNG check (reports/dashboard/png_check.c), which reads every artifact an
 * upload sends before anything is stored: the probe's real images, mutated. Each input is checked
 * as it is, then once more with every chunk's CRC made right, so that the mutations reach the
 * header, palette and image-data checks behind the CRCs (inflation, row filters, sizes). Whatever
 * the bytes, the check answers yes, or no with a reason, and accepts only bytes that start with
 * the signature and end with an IEND chunk. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fuzz_driver.h"
#include "png_check.h"

static void check(const uint8_t *data, size_t size)
{
    char why[256];
    memset(why, 0x55, sizeof(why));
    bool accepted = png_check(data, size, why, sizeof(why));
    if (!accepted && (memchr(why, '\0', sizeof(why)) == NULL || why[0] == '\0'))
        abort(); /* a refusal always says why */
    if (accepted && (size < 8 + 25 + 12 || memcmp(data + size - 8, "IEND", 4) != 0))
        abort();
}

static uint32_t big_endian(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size);
    uint8_t *fixed = malloc(size ? size : 1);
    if (fixed == NULL)
        return 0;
    memcpy(fixed, data, size);
    for (size_t at = 8; size >= 12 && at <= size - 12;) { /* every chunk whose length fits: its CRC made right */
        uint32_t length = big_endian(fixed + at);
        if (length > size - at - 12)
            break;
        uint32_t crc = (uint32_t)crc32(crc32(0, Z_NULL, 0), fixed + at + 4, length + 4);
        uint8_t *p = fixed + at + 8 + length;
        p[0] = (uint8_t)(crc >> 24), p[1] = (uint8_t)(crc >> 16), p[2] = (uint8_t)(crc >> 8), p[3] = (uint8_t)crc;
        at += 12 + (size_t)length;
    }
    check(fixed, size);
    free(fixed);
    return 0;
}

void fuzz_target_mutate(uint8_t *data, size_t *size, size_t capacity)
{
    if (fuzz_random() % 2)
        fuzz_mutate_words(data, size, capacity); /* lengths, sizes, depths: big-endian words */
    else
        fuzz_mutate_bytes(data, size, capacity, NULL);
}
