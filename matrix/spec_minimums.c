#include "spec_minimums.h"

#include <stdio.h>
#include <string.h>

#include "json_path.h"

static bool flag_array_has(const cJSON *array, const char *name)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, array)
    {
        if (cJSON_IsString(item) && strcmp(item->valuestring, name) == 0)
            return true;
    }
    return false;
}

static bool applies(const struct spec_minimum *m, const cJSON *declared)
{
    if (m->extension != NULL &&
        !cJSON_HasObjectItem(cJSON_GetObjectItemCaseSensitive(declared, "extensions"), m->extension))
        return false;
    if (m->feature != NULL && !json_path_true(declared, m->feature))
        return false;
    return true;
}

static void describe_condition(const struct spec_minimum *m, char *out, size_t size)
{
    if (m->feature != NULL) {
        const char *member = strrchr(m->feature, '/');
        snprintf(out, size, "feature %s", member ? member + 1 : m->feature);
    } else if (m->extension != NULL) {
        snprintf(out, size, "extension %s", m->extension);
    } else {
        snprintf(out, size, "always");
    }
}

/* "properties/VkPhysicalDeviceProperties/limits/maxViewports" -> "limits.maxViewports" style
 * names as engine developers read them: the struct (or limits) and the member. */
static void limit_name(const char *path, char *out, size_t size)
{
    const char *start = path;
    if (strncmp(start, "properties/", 11) == 0)
        start += 11;
    if (strncmp(start, "VkPhysicalDeviceProperties/limits/", 34) == 0)
        start += 27; /* keep "limits/..." */
    snprintf(out, size, "%s", start);
    for (char *c = out; *c; ++c)
        if (*c == '/')
            *c = '.';
}

cJSON *spec_minimums_check(const cJSON *declared)
{
    cJSON *violations = cJSON_CreateArray();
    for (size_t i = 0; i < spec_minimums_table_size; ++i) {
        const struct spec_minimum *m = &spec_minimums_table[i];
        if (!applies(m, declared))
            continue;
        const cJSON *value = json_path_get(declared, m->path);
        if (value == NULL)
            continue; /* the struct was not reported: nothing to hold against the device */
        bool ok = true;
        char required[160];
        if (m->requirement == SPEC_INCLUDES_BITS) {
            size_t at = 0;
            required[0] = '\0';
            for (int b = 0; b < 3 && m->bits[b] != NULL; ++b) {
                ok = ok && cJSON_IsArray(value) && flag_array_has(value, m->bits[b]);
                at += (size_t)snprintf(required + at, sizeof(required) - at, "%s%s", b ? " | " : "", m->bits[b]);
            }
        } else {
            if (!cJSON_IsNumber(value))
                continue;
            double v = value->valuedouble;
            ok = m->requirement == SPEC_AT_LEAST ? v >= m->value : v <= m->value;
            snprintf(required, sizeof(required), "%s %.17g", m->requirement == SPEC_AT_LEAST ? ">=" : "<=", m->value);
        }
        if (ok)
            continue;
        cJSON *v = cJSON_CreateObject();
        char text[256];
        limit_name(m->path, text, sizeof(text));
        cJSON_AddStringToObject(v, "limit", text);
        cJSON_AddItemToObject(v, "value", cJSON_Duplicate(value, 1));
        cJSON_AddStringToObject(v, "required", required);
        describe_condition(m, text, sizeof(text));
        cJSON_AddStringToObject(v, "condition", text);
        cJSON_AddItemToArray(violations, v);
    }
    return violations;
}
