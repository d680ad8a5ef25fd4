/* What changed between two reports of the same device (a new driver, a new OS): features,
 * extensions, limits, formats, smoke verdicts and spec-minimum violations. A change is a
 * regression when the device got worse by the registry's own measure: a feature or extension
 * lost, a "max" limit that shrank or a "min" limit that grew (vk.xml limittype), flag bits
 * lost, a test that passed and now does not, a new spec-minimum violation. */
#ifndef PREFLIGHT_MATRIX_DIFF_H
#define PREFLIGHT_MATRIX_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

struct diff_change {
    char kind[16]; /* identity, extension, feature, limit, format, smoke, spec_minimum */
    char what[192];
    char before[128];
    char after[128];
    bool regression;
    /* flag sets (limits and format features): the bits lost and gained, '|'-joined, in full (the
     * before/after texts may be cut); "" when none or not a flag set */
    char lost[1024], gained[1024];
    bool flags;
    char reason[384]; /* smoke: the new verdict's reason ("" when none) */
};

struct diff {
    struct diff_change *changes;
    size_t count, capacity;
    size_t regressions;
};

/* Compares two devices' report entries; fills `out` (diff_free releases it). */
void diff_devices(const cJSON *before, const cJSON *after, struct diff *out);
void diff_free(struct diff *d);

#endif
