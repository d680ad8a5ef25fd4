#include "vrs_verdict.h"

#include <stdbool.h>
#include <stdio.h>

#define RATE_CODES 16 /* 4 bits: two log2 sizes of up to 2 bits each */

uint32_t vrs_rate_code(uint32_t width, uint32_t height)
{
    uint32_t log_w = width >= 4 ? 2 : width >= 2 ? 1 : 0;
    uint32_t log_h = height >= 4 ? 2 : height >= 2 ? 1 : 0;
    return (log_w << 2) | log_h;
}

static bool is_rate_code(uint32_t code)
{
    return code < RATE_CODES && (code & 3) != 3 && (code >> 2) != 3;
}

void vrs_rate_name(uint32_t code, char *out, size_t size)
{
    if (is_rate_code(code))
        snprintf(out, size, "%ux%u", 1u << (code >> 2), 1u << (code & 3));
    else
        snprintf(out, size, "unwritten");
}

enum verdict vrs_judge(const struct vrs_readback *r, cJSON *evidence, char *reason, size_t size)
{
    uint32_t histogram[RATE_CODES + 1] = {0}; /* last slot: not a rate code */
    uint32_t mismatched = 0, all_one_by_one = 1, larger_requested = 0;
    for (uint32_t i = 0; i < r->texels; ++i) {
        uint32_t code = r->observed[i];
        histogram[is_rate_code(code) ? code : RATE_CODES]++;
        mismatched += code != r->expected[i];
        all_one_by_one &= code == 0;
        larger_requested |= r->expected[i] != 0;
    }
    cJSON *h = cJSON_AddObjectToObject(evidence, "histogram");
    for (uint32_t code = 0; code <= RATE_CODES; ++code) {
        if (histogram[code] == 0)
            continue;
        char name[16];
        vrs_rate_name(code, name, sizeof(name));
        cJSON_AddNumberToObject(h, name, histogram[code]);
    }
    cJSON_AddNumberToObject(evidence, "invocations", r->invocations);
    cJSON_AddNumberToObject(evidence, "expected_invocations", r->expected_invocations);
    cJSON_AddNumberToObject(evidence, "mismatched_texels", mismatched);

    if (mismatched == 0 && r->invocations == r->expected_invocations)
        return VERDICT_PASS;
    if (all_one_by_one && larger_requested && r->invocations == r->texels) {
        snprintf(reason, size,
                 "every texel was shaded at 1x1 (%u invocations for %u texels) although a larger rate "
                 "was requested",
                 r->invocations, r->texels);
        return VERDICT_NOT_APPLIED;
    }
    if (mismatched == 0)
        snprintf(reason, size, "the shader reports the requested rates but ran %u times, expected %u", r->invocations,
                 r->expected_invocations);
    else
        snprintf(reason, size, "%u of %u texels report another rate than requested; %u invocations, expected %u",
                 mismatched, r->texels, r->invocations, r->expected_invocations);
    return VERDICT_FAIL;
}
