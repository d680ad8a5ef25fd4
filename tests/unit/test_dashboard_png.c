/* The dashboard's PNG check (issue 44): real images pass, in every layout the format has
 * (interlaced, palette, 1-bit); fakes that only start like a PNG, bad CRCs, lengths running past
 * the end, impossible headers, image data of the wrong size or with a bad filter type, trailing
 * bytes, and headers promising gigabytes are refused, each with its reason. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>
#include <zlib.h>

#include "png_check.h"

struct image {
    unsigned char bytes[1 << 16];
    size_t length;
};

static void put32(struct image *m, uint32_t v)
{
    unsigned char *p = m->bytes + m->length;
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16), p[2] = (unsigned char)(v >> 8),
    p[3] = (unsigned char)v;
    m->length += 4;
}

static void chunk(struct image *m, const char *type, const void *data, size_t length)
{
    put32(m, (uint32_t)length);
    memcpy(m->bytes + m->length, type, 4);
    if (length)
        memcpy(m->bytes + m->length + 4, data, length);
    uint32_t crc = (uint32_t)crc32(crc32(0, Z_NULL, 0), m->bytes + m->length, (uInt)length + 4);
    m->length += 4 + length;
    put32(m, crc);
}

static void start(struct image *m, uint32_t width, uint32_t height, unsigned depth, unsigned colour, unsigned interlace)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    memcpy(m->bytes, signature, 8);
    m->length = 8;
    unsigned char h[13] = {0};
    for (int i = 0; i < 4; ++i) {
        h[i] = (unsigned char)(width >> (24 - 8 * i));
        h[4 + i] = (unsigned char)(height >> (24 - 8 * i));
    }
    h[8] = (unsigned char)depth, h[9] = (unsigned char)colour, h[12] = (unsigned char)interlace;
    chunk(m, "IHDR", h, sizeof(h));
}

static void image_data(struct image *m, const unsigned char *raw, size_t length)
{
    unsigned char packed[8192];
    uLongf size = sizeof(packed);
    assert_int_equal(compress(packed, &size, raw, length), Z_OK);
    chunk(m, "IDAT", packed, size);
}

/* An 8x8 RGB image of one colour, rows filtered "none" (or with `filter` in the third row). */
static void rgb_8x8(struct image *m, unsigned char filter)
{
    unsigned char raw[8 * (1 + 24)] = {0};
    for (int row = 0; row < 8; ++row)
        memset(raw + row * 25 + 1, 0x40, 24);
    raw[2 * 25] = filter;
    start(m, 8, 8, 8, 2, 0);
    image_data(m, raw, sizeof(raw));
    chunk(m, "IEND", NULL, 0);
}

static bool accepted(const struct image *m, char *why)
{
    return png_check(m->bytes, m->length, why, 200);
}

static void real_images_pass(void **state)
{
    (void)state;
    static struct image m;
    char why[200] = "";
    rgb_8x8(&m, 0);
    assert_true(accepted(&m, why));
    rgb_8x8(&m, 4); /* Paeth */
    assert_true(accepted(&m, why));

    /* interlaced 1-bit greyscale 5x3: a row each in passes 1, 2, 4, 5 and 7, two in pass 6, none
     * in pass 3 (it starts at row 4) */
    start(&m, 5, 3, 1, 0, 1);
    unsigned char interlaced[] = {0, 0x80, 0, 0x80, 0, 0x80, 0, 0xe0, 0, 0xc0, 0, 0xc0, 0, 0xf8};
    image_data(&m, interlaced, sizeof(interlaced));
    chunk(&m, "tEXt", "Comment\0ok", 10); /* an ancillary chunk is fine */
    chunk(&m, "IEND", NULL, 0);
    assert_true(accepted(&m, why));

    /* a palette of two colours, 4x2 pixels at 2 bits, the data split over two IDAT chunks */
    start(&m, 4, 2, 2, 3, 0);
    chunk(&m, "PLTE", "\0\0\0\377\377\377", 6);
    unsigned char indexed[] = {0, 0x11, 0, 0x41};
    unsigned char packed[64];
    uLongf size = sizeof(packed);
    assert_int_equal(compress(packed, &size, indexed, sizeof(indexed)), Z_OK);
    chunk(&m, "IDAT", packed, 5);
    chunk(&m, "IDAT", packed + 5, size - 5);
    chunk(&m, "IEND", NULL, 0);
    assert_true(accepted(&m, why));
}

static void fakes_are_refused(void **state)
{
    (void)state;
    static struct image m;
    char why[200] = "";

    /* signature and IHDR, then anything: the old check's whole test */
    start(&m, 8, 8, 8, 2, 0);
    memset(m.bytes + m.length, 'A', 4000);
    m.length += 4000;
    assert_false(accepted(&m, why));
    assert_non_null(strstr(why, "runs past the end"));

    rgb_8x8(&m, 0);
    m.bytes[45] ^= 1; /* a byte of the IDAT chunk */
    assert_false(accepted(&m, why));
    assert_non_null(strstr(why, "IDAT"));
    assert_non_null(strstr(why, "CRC mismatch"));

    rgb_8x8(&m, 0);
    memcpy(m.bytes + m.length, "trailer", 7);
    m.length += 7;
    assert_false(accepted(&m, why));
    assert_string_equal(why, "7 bytes after IEND");

    rgb_8x8(&m, 7);
    assert_false(accepted(&m, why));
    assert_non_null(strstr(why, "filter type"));

    m.length = 0;
    memcpy(m.bytes, "GIF89a", 6);
    m.length = 6;
    assert_false(accepted(&m, why));
    assert_string_equal(why, "no PNG signature");

    rgb_8x8(&m, 0);
    m.length -= 12; /* no IEND */
    assert_false(accepted(&m, why));
    assert_non_null(strstr(why, "without an IEND"));
}

static void impossible_headers_are_refused(void **state)
{
    (void)state;
    static struct image m;
    char why[200] = "";
    unsigned char raw[2] = {0, 0};

    start(&m, 0, 8, 8, 2, 0); /* no pixels */
    image_data(&m, raw, 1);
    chunk(&m, "IEND", NULL, 0);
    assert_false(accepted(&m, why));
    assert_non_null(strstr(why, "IHDR"));

    start(&m, 8, 8, 3, 2, 0); /* bit depth 3 */
    chunk(&m, "IEND", NULL, 0);
    assert_false(accepted(&m, why));
    assert_non_null(strstr(why, "bit depth 3"));

    start(&m, 16384, 16384, 16, 6, 0); /* 2 GiB of pixels from a few bytes: refused before inflating */
    assert_false(accepted(&m, why));
    assert_non_null(strstr(why, "would inflate"));

    start(&m, 2, 2, 8, 3, 0); /* a palette image without a palette */
    unsigned char indices[] = {0, 0, 0, 0, 0, 0};
    image_data(&m, indices, sizeof(indices));
    chunk(&m, "IEND", NULL, 0);
    assert_false(accepted(&m, why));
    assert_non_null(strstr(why, "PLTE"));

    start(&m, 8, 8, 8, 2, 0); /* image data one row short */
    unsigned char short_rows[7 * 25] = {0};
    image_data(&m, short_rows, sizeof(short_rows));
    chunk(&m, "IEND", NULL, 0);
    assert_false(accepted(&m, why));
    assert_non_null(strstr(why, "not the 200"));

    start(&m, 8, 8, 8, 2, 0); /* an unknown critical chunk */
    chunk(&m, "ABCD", "x", 1);
    assert_false(accepted(&m, why));
    assert_non_null(strstr(why, "unknown critical chunk"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(real_images_pass),
        cmocka_unit_test(fakes_are_refused),
        cmocka_unit_test(impossible_headers_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
