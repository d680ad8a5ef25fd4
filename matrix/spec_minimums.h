/* Limits a device reports that fall short of what the Vulkan specification requires for the
 * API version, extensions and features it declares ("Required Limits" in the spec). The table of
 * requirements is data, in spec_minimums_table.c; this module evaluates it against a `declared`
 * block, so the probe and the report tools (diff: "a new spec-minimum violation") agree. */
#ifndef PREFLIGHT_MATRIX_SPEC_MINIMUMS_H
#define PREFLIGHT_MATRIX_SPEC_MINIMUMS_H

#include <stddef.h>
#include <cjson/cJSON.h>

enum spec_requirement {
    SPEC_AT_LEAST,      /* the reported value must be >= value ("max" limits) */
    SPEC_AT_MOST,       /* the reported value must be <= value ("min" limits, alignments) */
    SPEC_INCLUDES_BITS, /* the reported flag array must contain every name in `bits` */
};

struct spec_minimum {
    const char *path; /* under declared/, e.g. "properties/VkPhysicalDeviceProperties/limits/maxViewports" */
    enum spec_requirement requirement;
    double value;
    const char *bits[3];   /* for SPEC_INCLUDES_BITS */
    const char *extension; /* applies only when the device has this extension (NULL: always) */
    const char *feature;   /* ... and this feature path is true (NULL: always) */
};

extern const struct spec_minimum spec_minimums_table[];
extern const size_t spec_minimums_table_size;

/* An array of violations, each {"limit", "value", "required", "requirement", "condition"}. */
cJSON *spec_minimums_check(const cJSON *declared);

#endif
