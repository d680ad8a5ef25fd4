#include "declared_query.h"

#include <stdio.h>
#include <string.h>

#include "json_path.h"

bool declared_has_extension(const cJSON *declared, const char *name)
{
    return cJSON_HasObjectItem(cJSON_GetObjectItemCaseSensitive(declared, "extensions"), name);
}

bool declared_feature(const cJSON *declared, const char *const *structs, const char *member)
{
    char path[256];
    for (; *structs != NULL; ++structs) {
        snprintf(path, sizeof(path), "features/%s/%s", *structs, member);
        if (json_path_true(declared, path))
            return true;
    }
    return false;
}

bool declared_flag(const cJSON *declared, const char *path, const char *bit)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, json_path_get(declared, path))
    {
        if (cJSON_IsString(item) && strcmp(item->valuestring, bit) == 0)
            return true;
    }
    return false;
}

bool declared_queue_flag(const cJSON *declared, const char *bit)
{
    const cJSON *family;
    cJSON_ArrayForEach(family, cJSON_GetObjectItemCaseSensitive(declared, "queueFamiliesProperties"))
    {
        if (declared_flag(family, "VkQueueFamilyProperties/queueFlags", bit))
            return true;
    }
    return false;
}

double declared_number(const cJSON *declared, const char *path, double fallback)
{
    double value;
    return json_path_number(declared, path, &value) ? value : fallback;
}
