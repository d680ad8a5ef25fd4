/* EXPECT, decided on bytes read back from the device: values at a byte offset (EQ NE LT LE GT GE,
 * TOLERANCE absolute or %), a rectangle of pixels (EQ_RGB, EQ_RGBA), and two buffers against each
 * other (EQ_BUFFER, RMSE_BUFFER, EQ_HISTOGRAM_EMD_BUFFER). Each check says whether it held and,
 * when not, how many values or pixels differ and the first ones (where, expected, observed,
 * tolerance), as a one-line summary and as evidence. docs/amber.md "Verdicts" has the rules. Pure:
 * no Vulkan calls. */
#ifndef PREFLIGHT_AMBER_EXPECT_H
#define PREFLIGHT_AMBER_EXPECT_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "script.h"

#define AMBER_EXPECT_FIRST 8                /* mismatches listed in the evidence */
#define AMBER_DEFAULT_PIXEL_TOLERANCE 0.002 /* of the [0,1] range, per channel, as Amber */

struct amber_expect_result {
    bool passed;
    char summary[400]; /* when not: "EXPECT out IDX 0 EQ: 2 of 4 values differ; first ..." */
    cJSON *evidence;   /* always: what was compared and, when it failed, the first mismatches */
};

/* EXPECT buffer IDX offset [TOLERANCE ...] CMP values; `data` holds the buffer's `size` bytes. */
void amber_expect_values(const struct amber_command *c, const struct amber_buffer *b, const uint8_t *data,
                         uint64_t size, struct amber_expect_result *r);
/* EXPECT image IDX x y SIZE w h EQ_RGB(A); `data` holds width x height texels of the layout. */
void amber_expect_pixels(const struct amber_command *c, const struct amber_buffer *b, uint32_t width, uint32_t height,
                         const uint8_t *data, struct amber_expect_result *r);
/* EXPECT a EQ_BUFFER|RMSE_BUFFER|EQ_HISTOGRAM_EMD_BUFFER b; each holds its count of elements. */
void amber_expect_buffers(const struct amber_command *c, const struct amber_buffer *actual, const uint8_t *actual_data,
                          uint64_t actual_elements, const struct amber_buffer *reference, const uint8_t *reference_data,
                          uint64_t reference_elements, struct amber_expect_result *r);

/* "EQ", "NE", ... */
const char *amber_comparator_name(enum amber_comparator c);

#endif
