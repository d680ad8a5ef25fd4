/* The most restrictive limits over a set of devices: for every property member vk.xml marks as a
 * limit, the smallest "max" limit, the largest "min" limit and the common bits of bitmask
 * limits, with the devices that set each value; and every feature, true only where every device
 * declares it. This is the file VK_LAYER_PREFLIGHT_validation reads as target limits
 * (preflight.fleet-limits/1, docs/fleet-limits.md). */
#ifndef PREFLIGHT_MATRIX_FLEET_LIMITS_H
#define PREFLIGHT_MATRIX_FLEET_LIMITS_H

#include <stddef.h>
#include <cjson/cJSON.h>

#define FLEET_LIMITS_SCHEMA_ID "preflight.fleet-limits/1"

cJSON *fleet_limits_build(cJSON *const *reports, size_t report_count);

#endif
