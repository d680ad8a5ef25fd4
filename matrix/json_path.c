#include "json_path.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const cJSON *json_path_get(const cJSON *root, const char *path)
{
    const cJSON *node = root;
    const char *segment = path;
    while (node != NULL && segment != NULL && *segment != '\0') {
        const char *slash = strchr(segment, '/');
        size_t length = slash ? (size_t)(slash - segment) : strlen(segment);
        char key[256];
        if (length >= sizeof(key))
            return NULL;
        memcpy(key, segment, length);
        key[length] = '\0';
        if (cJSON_IsArray(node)) {
            char *end = NULL;
            long index = strtol(key, &end, 10);
            if (end == key || *end != '\0' || index < 0)
                return NULL;
            node = cJSON_GetArrayItem(node, (int)index);
        } else {
            node = cJSON_GetObjectItemCaseSensitive(node, key);
        }
        segment = slash ? slash + 1 : NULL;
    }
    return node;
}

bool json_path_true(const cJSON *root, const char *path)
{
    return cJSON_IsTrue(json_path_get(root, path));
}

bool json_path_number(const cJSON *root, const char *path, double *out)
{
    const cJSON *node = json_path_get(root, path);
    if (!cJSON_IsNumber(node))
        return false;
    *out = node->valuedouble;
    return true;
}

bool json_number_u32(const cJSON *node, uint32_t *out)
{
    if (!cJSON_IsNumber(node))
        return false;
    double v = node->valuedouble;
    if (!(v >= 0.0 && v <= 4294967295.0)) /* also refuses NaN */
        return false;
    *out = (uint32_t)v;
    return true;
}

int64_t json_number_i64(const cJSON *node, int64_t fallback)
{
    if (!cJSON_IsNumber(node) || isnan(node->valuedouble))
        return fallback;
    double v = node->valuedouble;
    /* 2^63 is exactly representable; every double below it converts */
    if (v >= 9223372036854775808.0)
        return INT64_MAX;
    if (v <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)v;
}
