/* Reading the compute limits a dispatch must stay within on every device of a fleet: from a
 * preflight.fleet-limits/1 file (fleet_limits.h writes it) or from a report (or a Vulkan Profiles
 * document), the smallest value of its devices. VK_LAYER_PREFLIGHT_validation reads its
 * `target_limits` setting through this; each value names the device that sets it. */
#ifndef PREFLIGHT_MATRIX_FLEET_LIMITS_READ_H
#define PREFLIGHT_MATRIX_FLEET_LIMITS_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fleet_limit {
    bool present;
    uint64_t value;
    char device[160]; /* "Mali-G52 (10de-1234-arm_proprietary)" */
};

struct fleet_compute_limits {
    bool loaded;
    char source[256]; /* the file they came from */
    struct fleet_limit group_count[3], workgroup_size[3], invocations, shared_memory;
};

/* False with `error` set when the file cannot be read, is not strict JSON, or is neither a
 * fleet-limits file nor a valid report; `out` is then all absent. */
bool fleet_compute_limits_read(const char *path, struct fleet_compute_limits *out, char *error, size_t size);

#endif
