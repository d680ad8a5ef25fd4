#include "profile_intersect.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "profile_export.h"
#include "vk_json.h"

static const char *limittype_of(const char *member)
{
    for (size_t i = 0; member && i < vkjson_limit_count; ++i)
        if (strcmp(vkjson_limits[i].member, member) == 0)
            return vkjson_limits[i].limittype;
    return "";
}

static bool contains_string(const cJSON *array, const char *s)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, array) if (cJSON_IsString(e) && strcmp(e->valuestring, s) == 0) return true;
    return false;
}

/* The common part of `a` and `b` (NULL: nothing in common). `member` names the value, for its
 * limittype; `features`: booleans are features (common only when both are true). */
static cJSON *common(const cJSON *a, const cJSON *b, const char *member, bool features)
{
    if (a == NULL || b == NULL)
        return NULL;
    if (cJSON_IsObject(a) && cJSON_IsObject(b)) {
        cJSON *out = cJSON_CreateObject();
        const cJSON *child;
        cJSON_ArrayForEach(child, a)
        {
            cJSON *c = common(child, cJSON_GetObjectItemCaseSensitive(b, child->string), child->string, features);
            if (c != NULL)
                cJSON_AddItemToObject(out, child->string, c);
        }
        return out;
    }
    if (cJSON_IsArray(a) && cJSON_IsArray(b)) {
        bool strings = cJSON_GetArraySize(a) == 0 || cJSON_IsString(cJSON_GetArrayItem(a, 0));
        cJSON *out = cJSON_CreateArray();
        if (strings) { /* flag bits: those both have */
            const cJSON *e;
            cJSON_ArrayForEach(e, a) if (cJSON_IsString(e) && contains_string(b, e->valuestring))
                cJSON_AddItemToArray(out, cJSON_CreateString(e->valuestring));
            return out;
        }
        if (cJSON_GetArraySize(a) != cJSON_GetArraySize(b)) {
            cJSON_Delete(out);
            return NULL;
        }
        for (int i = 0; i < cJSON_GetArraySize(a); ++i) {
            cJSON *c = common(cJSON_GetArrayItem(a, i), cJSON_GetArrayItem(b, i), member, features);
            if (c == NULL) {
                cJSON_Delete(out);
                return NULL;
            }
            cJSON_AddItemToArray(out, c);
        }
        return out;
    }
    if (cJSON_IsBool(a) && cJSON_IsBool(b)) {
        if (features)
            return cJSON_IsTrue(a) && cJSON_IsTrue(b) ? cJSON_CreateTrue() : NULL;
        return cJSON_IsTrue(a) == cJSON_IsTrue(b) ? cJSON_Duplicate(a, 1) : NULL;
    }
    if (cJSON_IsNumber(a) && cJSON_IsNumber(b)) {
        const char *type = limittype_of(member);
        if (strncmp(type, "max", 3) == 0)
            return cJSON_Duplicate(a->valuedouble <= b->valuedouble ? a : b, 1);
        if (strncmp(type, "min", 3) == 0)
            return cJSON_Duplicate(a->valuedouble >= b->valuedouble ? a : b, 1);
        return a->valuedouble == b->valuedouble ? cJSON_Duplicate(a, 1) : NULL;
    }
    return cJSON_Compare(a, b, 1) ? cJSON_Duplicate(a, 1) : NULL;
}

static cJSON *extensions_common(const cJSON *a, const cJSON *b)
{
    cJSON *out = cJSON_CreateObject();
    const cJSON *e;
    cJSON_ArrayForEach(e, a)
    {
        const cJSON *other = cJSON_GetObjectItemCaseSensitive(b, e->string);
        if (cJSON_IsNumber(e) && cJSON_IsNumber(other))
            cJSON_AddNumberToObject(out, e->string,
                                    e->valuedouble < other->valuedouble ? e->valuedouble : other->valuedouble);
    }
    return out;
}

static unsigned api_of(const char *text)
{
    unsigned major = 0, minor = 0, patch = 0;
    sscanf(text ? text : "", "%u.%u.%u", &major, &minor, &patch);
    return major << 22 | minor << 12 | patch;
}

static const char *api_text_of(const cJSON *doc)
{
    const cJSON *profiles = cJSON_GetObjectItemCaseSensitive(doc, "profiles");
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(profiles ? profiles->child : NULL, "api-version"));
}

cJSON *profile_intersect(const cJSON *const *devices, size_t n, const char *profile_name)
{
    cJSON *block = NULL, *history = NULL;
    char lowest_api[32] = "";
    for (size_t i = 0; i < n; ++i) {
        cJSON *doc = profile_export(devices[i]);
        if (doc == NULL)
            continue;
        const cJSON *capabilities = cJSON_GetObjectItemCaseSensitive(doc, "capabilities");
        const cJSON *mine = capabilities ? capabilities->child : NULL;
        const char *api = api_text_of(doc);
        if (api && (!*lowest_api || api_of(api) < api_of(lowest_api)))
            snprintf(lowest_api, sizeof(lowest_api), "%s", api);
        if (block == NULL) {
            block = cJSON_Duplicate(mine, 1);
            cJSON_DeleteItemFromObject(block, "queueFamiliesProperties"); /* no meaningful "common" */
            const cJSON *profiles = cJSON_GetObjectItemCaseSensitive(doc, "profiles");
            history =
                cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(profiles ? profiles->child : NULL, "history"), 1);
            cJSON_Delete(doc);
            continue;
        }
        cJSON *next = cJSON_CreateObject();
        cJSON_AddItemToObject(next, "extensions",
                              extensions_common(cJSON_GetObjectItemCaseSensitive(block, "extensions"),
                                                cJSON_GetObjectItemCaseSensitive(mine, "extensions")));
        static const char *const parts[] = {"features", "properties", "formats"};
        for (size_t p = 0; p < 3; ++p) {
            cJSON *c = common(cJSON_GetObjectItemCaseSensitive(block, parts[p]),
                              cJSON_GetObjectItemCaseSensitive(mine, parts[p]), NULL, p == 0);
            cJSON_AddItemToObject(next, parts[p], c ? c : cJSON_CreateObject());
        }
        cJSON_Delete(block);
        cJSON_Delete(doc);
        block = next;
    }
    if (block == NULL) {
        cJSON_Delete(history);
        return NULL;
    }
    cJSON *result = cJSON_CreateObject();
    cJSON_AddStringToObject(result, "$schema", PROFILES_SCHEMA_URL);
    cJSON *capabilities = cJSON_AddObjectToObject(result, "capabilities");
    cJSON_AddItemToObject(capabilities, "device", block);
    cJSON *profiles = cJSON_AddObjectToObject(result, "profiles");
    cJSON *profile = cJSON_AddObjectToObject(profiles, profile_name);
    cJSON_AddNumberToObject(profile, "version", 1);
    cJSON_AddStringToObject(profile, "api-version", *lowest_api ? lowest_api : "1.0.0");
    char label[96];
    snprintf(label, sizeof(label), "What all %zu devices of the set support", n);
    cJSON_AddStringToObject(profile, "label", label);
    cJSON_AddStringToObject(profile, "description",
                            "Intersection of declared capabilities recorded by preflight-probe");
    cJSON_AddObjectToObject(profile, "contributors");
    cJSON_AddItemToObject(profile, "history", history ? history : cJSON_CreateArray());
    cJSON *list = cJSON_AddArrayToObject(profile, "capabilities");
    cJSON_AddItemToArray(list, cJSON_CreateString("device"));
    return result;
}
