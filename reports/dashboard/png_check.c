#include "png_check.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

static uint32_t big_endian(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* The image data as the header lays it out: the rows of each interlace pass (one pass without
 * interlacing), each a filter-type byte and the pixels' bytes. */
struct layout {
    uint64_t pass_rows[7], pass_row_bytes[7]; /* row bytes include the filter-type byte */
    int passes;
    uint64_t total;
};

/* Where the inflated data has got to: for checking the filter type at the start of every row. */
struct position {
    int pass;
    uint64_t row, offset, seen;
};

static uint64_t row_bytes(uint64_t pixels, unsigned bits_per_pixel)
{
    return 1 + (pixels * bits_per_pixel + 7) / 8;
}

static void lay_out(uint32_t width, uint32_t height, unsigned bits_per_pixel, bool interlaced, struct layout *l)
{
    /* Adam7: the first column and row of each pass, and its steps */
    static const unsigned x0[7] = {0, 4, 0, 2, 0, 1, 0}, y0[7] = {0, 0, 4, 0, 2, 0, 1};
    static const unsigned dx[7] = {8, 8, 4, 4, 2, 2, 1}, dy[7] = {8, 8, 8, 4, 4, 2, 2};
    memset(l, 0, sizeof(*l));
    if (!interlaced) {
        l->passes = 1;
        l->pass_rows[0] = height;
        l->pass_row_bytes[0] = row_bytes(width, bits_per_pixel);
    } else {
        for (int p = 0; p < 7; ++p) {
            uint64_t columns = width > x0[p] ? (width - x0[p] + dx[p] - 1) / dx[p] : 0;
            uint64_t rows = height > y0[p] ? (height - y0[p] + dy[p] - 1) / dy[p] : 0;
            if (columns == 0 || rows == 0)
                continue; /* an empty pass has no rows, not even filter bytes */
            l->pass_rows[l->passes] = rows;
            l->pass_row_bytes[l->passes++] = row_bytes(columns, bits_per_pixel);
        }
    }
    for (int p = 0; p < l->passes; ++p)
        l->total += l->pass_rows[p] * l->pass_row_bytes[p];
}

/* Follows `n` more inflated bytes; false when a row starts with a filter type above 4 (Paeth). */
static bool follow_rows(const struct layout *l, struct position *at, const unsigned char *bytes, size_t n)
{
    at->seen += n;
    while (n > 0 && at->pass < l->passes) {
        uint64_t row_size = l->pass_row_bytes[at->pass];
        if (at->offset == 0 && bytes[0] > 4)
            return false;
        uint64_t take = row_size - at->offset < n ? row_size - at->offset : n;
        at->offset += take;
        bytes += take;
        n -= (size_t)take;
        if (at->offset == row_size) {
            at->offset = 0;
            if (++at->row == l->pass_rows[at->pass]) {
                at->row = 0;
                ++at->pass;
            }
        }
    }
    return true;
}

static bool valid_depth(unsigned colour_type, unsigned depth, unsigned *channels)
{
    switch (colour_type) {
    case 0: /* greyscale */
        *channels = 1;
        return depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16;
    case 3: /* palette indices */
        *channels = 1;
        return depth == 1 || depth == 2 || depth == 4 || depth == 8;
    case 2: /* RGB */
        *channels = 3;
        return depth == 8 || depth == 16;
    case 4: /* greyscale and alpha */
        *channels = 2;
        return depth == 8 || depth == 16;
    case 6: /* RGBA */
        *channels = 4;
        return depth == 8 || depth == 16;
    default:
        return false;
    }
}

struct png_state {
    unsigned colour_type, depth;
    struct layout layout;
    struct position at;
    z_stream stream;
    bool inflating, inflated, palette, idat, idat_ended;
};

static bool check_header(const unsigned char *d, uint32_t length, struct png_state *s, char *why, size_t size)
{
    if (length != 13) {
        snprintf(why, size, "IHDR has %u bytes, not 13", length);
        return false;
    }
    uint32_t width = big_endian(d), height = big_endian(d + 4);
    s->depth = d[8];
    s->colour_type = d[9];
    unsigned channels = 0;
    if (width == 0 || height == 0 || width > PNG_CHECK_MAX_SIDE || height > PNG_CHECK_MAX_SIDE) {
        snprintf(why, size, "IHDR: %ux%u pixels (each side 1 to %d)", width, height, PNG_CHECK_MAX_SIDE);
        return false;
    }
    if (!valid_depth(s->colour_type, s->depth, &channels)) {
        snprintf(why, size, "IHDR: bit depth %u with colour type %u is not a PNG format", s->depth, s->colour_type);
        return false;
    }
    if (d[10] != 0 || d[11] != 0 || d[12] > 1) {
        snprintf(why, size, "IHDR: compression %u, filter %u, interlace %u (PNG knows 0, 0, 0 or 1)", d[10], d[11],
                 d[12]);
        return false;
    }
    lay_out(width, height, channels * s->depth, d[12] == 1, &s->layout);
    if (s->layout.total > PNG_CHECK_MAX_PIXEL_BYTES) {
        snprintf(why, size, "IHDR: %ux%u pixels would inflate to %llu bytes (at most %u)", width, height,
                 (unsigned long long)s->layout.total, PNG_CHECK_MAX_PIXEL_BYTES);
        return false;
    }
    if (inflateInit(&s->stream) != Z_OK) {
        snprintf(why, size, "out of memory");
        return false;
    }
    s->inflating = true;
    return true;
}

static bool check_image_data(const unsigned char *d, uint32_t length, struct png_state *s, char *why, size_t size)
{
    if (s->idat_ended) {
        snprintf(why, size, "IDAT chunks are not consecutive");
        return false;
    }
    s->idat = true;
    s->stream.next_in = (Bytef *)d;
    s->stream.avail_in = length;
    unsigned char out[65536];
    while (s->stream.avail_in > 0) {
        if (s->inflated) {
            snprintf(why, size, "IDAT: bytes after the end of the compressed image data");
            return false;
        }
        s->stream.next_out = out;
        s->stream.avail_out = sizeof(out);
        int result = inflate(&s->stream, Z_NO_FLUSH);
        if (result != Z_OK && result != Z_STREAM_END) {
            snprintf(why, size, "IDAT does not inflate (%s)", s->stream.msg ? s->stream.msg : "zlib error");
            return false;
        }
        size_t produced = sizeof(out) - s->stream.avail_out;
        if (s->at.seen + produced > s->layout.total) {
            snprintf(why, size, "IDAT inflates to more than the %llu bytes the header gives",
                     (unsigned long long)s->layout.total);
            return false;
        }
        if (!follow_rows(&s->layout, &s->at, out, produced)) {
            snprintf(why, size, "IDAT: a row with a filter type above 4");
            return false;
        }
        s->inflated = result == Z_STREAM_END;
        if (result == Z_OK && produced == 0 && s->stream.avail_in > 0) {
            snprintf(why, size, "IDAT does not inflate");
            return false;
        }
    }
    return true;
}

static bool known_critical(const unsigned char *type)
{
    return memcmp(type, "IHDR", 4) == 0 || memcmp(type, "PLTE", 4) == 0 || memcmp(type, "IDAT", 4) == 0 ||
           memcmp(type, "IEND", 4) == 0;
}

static bool check_chunks(const unsigned char *data, size_t length, struct png_state *s, char *why, size_t size)
{
    size_t at = 8;
    bool first = true;
    for (;;) {
        if (length - at < 12) {
            snprintf(why, size, "ends at byte %zu without an IEND chunk", length);
            return false;
        }
        uint32_t chunk_length = big_endian(data + at);
        const unsigned char *type = data + at + 4, *body = data + at + 8;
        char name[5];
        for (int i = 0; i < 4; ++i)
            name[i] = (type[i] >= 'A' && type[i] <= 'Z') || (type[i] >= 'a' && type[i] <= 'z') ? (char)type[i] : '?';
        name[4] = '\0';
        if (strchr(name, '?') != NULL) {
            snprintf(why, size, "a chunk at byte %zu has no valid type", at);
            return false;
        }
        if (chunk_length > 0x7fffffffu || chunk_length > length - at - 12) {
            snprintf(why, size, "chunk %s at byte %zu: its length %u runs past the end", name, at, chunk_length);
            return false;
        }
        uint32_t crc = (uint32_t)crc32(crc32(0, Z_NULL, 0), type, chunk_length + 4);
        if (crc != big_endian(body + chunk_length)) {
            snprintf(why, size, "chunk %s at byte %zu: CRC mismatch", name, at);
            return false;
        }
        bool is_ihdr = memcmp(type, "IHDR", 4) == 0;
        if (first && !is_ihdr) {
            snprintf(why, size, "the first chunk is %s, not IHDR", name);
            return false;
        }
        if (!first && is_ihdr) {
            snprintf(why, size, "a second IHDR at byte %zu", at);
            return false;
        }
        char detail[160] = "";
        bool ok = true;
        if (is_ihdr) {
            ok = check_header(body, chunk_length, s, detail, sizeof(detail));
        } else if (memcmp(type, "IDAT", 4) == 0) {
            ok = check_image_data(body, chunk_length, s, detail, sizeof(detail));
        } else {
            s->idat_ended = s->idat;
            if (memcmp(type, "PLTE", 4) == 0) {
                unsigned entries = chunk_length / 3;
                ok = !s->idat && !s->palette && s->colour_type != 0 && s->colour_type != 4 && chunk_length % 3 == 0 &&
                     entries >= 1 && entries <= (s->colour_type == 3 ? 1u << s->depth : 256u);
                s->palette = true;
                if (!ok)
                    snprintf(detail, sizeof(detail), "PLTE of %u bytes is not a palette for this image", chunk_length);
            } else if (memcmp(type, "IEND", 4) == 0) {
                if (chunk_length != 0) {
                    snprintf(why, size, "IEND is not empty");
                    return false;
                }
                if (at + 12 != length) {
                    snprintf(why, size, "%zu bytes after IEND", length - at - 12);
                    return false;
                }
                return true;
            } else if (!known_critical(type) && type[0] >= 'A' && type[0] <= 'Z') {
                snprintf(detail, sizeof(detail), "an unknown critical chunk");
                ok = false;
            }
        }
        if (!ok) {
            snprintf(why, size, "chunk %s at byte %zu: %s", name, at, detail);
            return false;
        }
        first = false;
        at += 12 + (size_t)chunk_length;
    }
}

bool png_check(const unsigned char *data, size_t length, char *why, size_t size)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    if (length < 8 || memcmp(data, signature, 8) != 0) {
        snprintf(why, size, "no PNG signature");
        return false;
    }
    struct png_state s = {0};
    bool ok = check_chunks(data, length, &s, why, size);
    if (ok && !s.idat) {
        snprintf(why, size, "no IDAT chunk");
        ok = false;
    } else if (ok && s.colour_type == 3 && !s.palette) {
        snprintf(why, size, "colour type 3 without a PLTE chunk");
        ok = false;
    } else if (ok && (!s.inflated || s.at.seen != s.layout.total)) {
        snprintf(why, size, "the image data inflates to %llu bytes, not the %llu the header gives",
                 (unsigned long long)s.at.seen, (unsigned long long)s.layout.total);
        ok = false;
    }
    if (s.inflating)
        inflateEnd(&s.stream);
    return ok;
}
