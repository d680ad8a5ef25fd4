/* Looking up values in report documents by a '/'-separated path of object keys, with an
 * optional trailing array index: "properties/VkPhysicalDeviceProperties/limits/maxViewports",
 * "properties/VkPhysicalDeviceProperties/limits/maxComputeWorkGroupSize/0". */
#ifndef PREFLIGHT_MATRIX_JSON_PATH_H
#define PREFLIGHT_MATRIX_JSON_PATH_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

const cJSON *json_path_get(const cJSON *root, const char *path);
/* true only where the path holds the JSON value true */
bool json_path_true(const cJSON *root, const char *path);
/* The number at path into *out; false where there is none. */
bool json_path_number(const cJSON *root, const char *path, double *out);

/* Numbers from documents nobody vetted become integers only through these: a C cast of a double
 * outside the target type's range (1e300, -1, a JSON number rounded to infinity) is undefined
 * behaviour, so values out of range are refused or saturated, never cast. */
/* true and *out where node is a number in [0, 4294967295]; a fraction is truncated */
bool json_number_u32(const cJSON *node, uint32_t *out);
/* the number in node saturated to [INT64_MIN, INT64_MAX]; fallback where node is no number */
int64_t json_number_i64(const cJSON *node, int64_t fallback);

#endif
