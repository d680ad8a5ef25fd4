/* Looking up values in report documents by a '/'-separated path of object keys, with an
 * optional trailing array index: "properties/VkPhysicalDeviceProperties/limits/maxViewports",
 * "properties/VkPhysicalDeviceProperties/limits/maxComputeWorkGroupSize/0". */
#ifndef PREFLIGHT_MATRIX_JSON_PATH_H
#define PREFLIGHT_MATRIX_JSON_PATH_H

#include <stdbool.h>
#include <cjson/cJSON.h>

const cJSON *json_path_get(const cJSON *root, const char *path);
/* true only where the path holds the JSON value true */
bool json_path_true(const cJSON *root, const char *path);
/* The number at path into *out; false where there is none. */
bool json_path_number(const cJSON *root, const char *path, double *out);

#endif
