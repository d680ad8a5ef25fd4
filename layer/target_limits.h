/* Target limits: the compute limits of the devices a team ships to, read from a fleet-limits
 * file (preflight-report fleet-limits, docs/fleet-limits.md) or from a probe report. Each limit
 * keeps its most restrictive value and the device that sets it, so a finding can say which
 * device of the fleet would fail. */
#ifndef PREFLIGHT_LAYER_TARGET_LIMITS_H
#define PREFLIGHT_LAYER_TARGET_LIMITS_H

#include <stdbool.h>
#include <stdint.h>

struct target_limit {
    bool present;
    uint64_t value;
    char device[160]; /* "Mali-G52 (10de-1234-arm_proprietary)" */
};

struct target_limits {
    bool loaded;
    char source[256];
    struct target_limit group_count[3], workgroup_size[3], invocations, shared_memory;
};

/* false with `error` set when the file cannot be read or is neither format. */
bool target_limits_load(const char *path, struct target_limits *t, char *error, unsigned long size);

#endif
