/* Whether bytes are a whole, well-formed PNG image (the PNG specification, 2nd edition): the
 * signature; chunks whose lengths stay inside the bytes and whose CRCs match; IHDR first with a
 * sane size and a valid bit depth and colour type; a palette where the colour type needs one; the
 * image data in consecutive IDAT chunks that inflate to exactly the bytes the header implies
 * (every row with a valid filter type); IEND last, and nothing after it. Decoding is bounded:
 * an image whose pixels would inflate beyond PNG_CHECK_MAX_PIXEL_BYTES is refused before any
 * inflation, so a small file cannot make the server inflate gigabytes. */
#ifndef PREFLIGHT_DASHBOARD_PNG_CHECK_H
#define PREFLIGHT_DASHBOARD_PNG_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#define PNG_CHECK_MAX_SIDE 16384                        /* pixels, width and height each */
#define PNG_CHECK_MAX_PIXEL_BYTES (64u * 1024u * 1024u) /* the filtered image data, inflated */

/* true when `data` is such a PNG; otherwise false with `why` saying what is wrong, e.g. "chunk
 * IDAT at byte 33: CRC mismatch". */
bool png_check(const unsigned char *data, size_t length, char *why, size_t size);

#endif
