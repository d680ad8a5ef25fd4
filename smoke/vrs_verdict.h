/* Judging a VRS readback: what the fragment shader reported as its shading rate per texel and
 * how often it ran, against what was asked for. Pure logic, no Vulkan, unit-tested on synthetic
 * readbacks. Rates are encoded as the spec encodes them: (log2 width << 2) | log2 height. */
#ifndef PREFLIGHT_SMOKE_VRS_VERDICT_H
#define PREFLIGHT_SMOKE_VRS_VERDICT_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "verdict.h"

struct vrs_readback {
    const uint32_t *observed; /* per texel, as written by the fragment shader */
    const uint8_t *expected;  /* per texel, the rate code that was requested there */
    uint32_t texels;
    uint32_t invocations; /* counted by the fragment shader */
    uint32_t expected_invocations;
};

uint32_t vrs_rate_code(uint32_t width, uint32_t height);
/* "2x2" for code 5; "unwritten" for anything that is not a rate code */
void vrs_rate_name(uint32_t code, char *out, size_t size);

/* pass: every texel reports its requested rate and the shader ran once per block.
 * not_applied: every texel reports 1x1 and the shader ran once per pixel, although a larger rate
 * was requested somewhere. fail: anything else. Adds "histogram", "invocations",
 * "expected_invocations" and "mismatched_texels" to `evidence`. */
enum verdict vrs_judge(const struct vrs_readback *r, cJSON *evidence, char *reason, size_t size);

#endif
