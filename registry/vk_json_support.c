/* Helpers that the generated struct writers (vk_json.c) call: numbers that keep 64-bit
 * precision, fixed-size char arrays, enum names and flag arrays in vulkaninfo's spelling. */
#include <stdio.h>
#include <string.h>

#include "vk_json.h"

/* cJSON stores numbers as doubles; integers above 2^53 would print rounded (for example
 * maxTimelineSemaphoreValueDifference = 2^64-1), so those are written as raw decimal text. */
#define LARGEST_EXACT_DOUBLE_INTEGER (1ULL << 53)

cJSON *vkjson_uint(uint64_t v)
{
    if (v <= LARGEST_EXACT_DOUBLE_INTEGER)
        return cJSON_CreateNumber((double)v);
    char text[32];
    snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
    return cJSON_CreateRaw(text);
}

cJSON *vkjson_int(int64_t v)
{
    return cJSON_CreateNumber((double)v);
}

cJSON *vkjson_string(const char *chars, size_t capacity)
{
    size_t length = strnlen(chars, capacity);
    char copy[1024];
    if (length >= sizeof(copy))
        length = sizeof(copy) - 1;
    memcpy(copy, chars, length);
    copy[length] = '\0';
    return cJSON_CreateString(copy);
}

/* An enum value the registry did not know when we were built stays visible as its number. */
cJSON *vkjson_enum_item(const char *name, int64_t value)
{
    if (name != NULL)
        return cJSON_CreateString(name);
    return cJSON_CreateNumber((double)value);
}

cJSON *vkjson_flags(const struct vkjson_bit *bits, uint64_t value)
{
    cJSON *array = cJSON_CreateArray();
    uint64_t known = 0;
    for (const struct vkjson_bit *bit = bits; bit != NULL && bit->name != NULL; ++bit) {
        if (value & bit->value) {
            cJSON_AddItemToArray(array, cJSON_CreateString(bit->name));
            known |= bit->value;
        }
    }
    uint64_t unknown = value & ~known;
    if (unknown != 0) {
        char text[32];
        snprintf(text, sizeof(text), "0x%llx", (unsigned long long)unknown);
        cJSON_AddItemToArray(array, cJSON_CreateString(text));
    }
    return array;
}
