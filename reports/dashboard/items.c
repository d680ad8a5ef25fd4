#include "items.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_path.h"
#include "verdict.h"
#include "vk_json.h"

bool items_kind_valid(const char *kind)
{
    static const char *const kinds[] = {ITEM_KINDS};
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i)
        if (strcmp(kind, kinds[i]) == 0)
            return true;
    return false;
}

bool items_verdict_failing(const char *verdict)
{
    enum verdict v;
    if (!verdict_parse(verdict, &v))
        return false;
    return v == VERDICT_FAIL || v == VERDICT_NOT_APPLIED || v == VERDICT_CRASHED || v == VERDICT_TIMEOUT ||
           v == VERDICT_DEVICE_LOST;
}

bool items_add(struct item_list *list, const char *kind, const char *name, bool declared, const char *verdict,
               const char *value, double number)
{
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 256;
        struct item *items = realloc(list->items, capacity * sizeof(*items));
        if (items == NULL)
            return false;
        list->items = items;
        list->capacity = capacity;
    }
    struct item *it = &list->items[list->count];
    memset(it, 0, sizeof(*it));
    snprintf(it->kind, sizeof(it->kind), "%s", kind);
    snprintf(it->verdict, sizeof(it->verdict), "%s", verdict ? verdict : "");
    it->name = strdup(name);
    it->value = strdup(value ? value : "");
    it->declared = declared;
    it->number = number;
    if (it->name == NULL || it->value == NULL) {
        free(it->name);
        free(it->value);
        return false;
    }
    ++list->count;
    return true;
}

int items_compare(const struct item *a, const struct item *b)
{
    int k = strcmp(a->kind, b->kind);
    return k ? k : strcmp(a->name, b->name);
}

static int compare_for_sort(const void *a, const void *b)
{
    const struct item *x = a, *y = b;
    int c = items_compare(x, y);
    /* equal names keep their order of appearance (the first struct that has a limit gives it) */
    return c ? c : (x < y ? -1 : x > y);
}

void items_sort(struct item_list *list)
{
    if (list->count == 0)
        return;
    qsort(list->items, list->count, sizeof(list->items[0]), compare_for_sort);
    size_t kept = 0;
    for (size_t i = 0; i < list->count; ++i) {
        struct item *it = &list->items[i];
        if (kept > 0 && items_compare(&list->items[kept - 1], it) == 0) {
            list->items[kept - 1].declared |= it->declared;
            free(it->name);
            free(it->value);
            continue;
        }
        list->items[kept++] = *it;
    }
    list->count = kept;
}

void items_free(struct item_list *list)
{
    for (size_t i = 0; i < list->count; ++i) {
        free(list->items[i].name);
        free(list->items[i].value);
    }
    free(list->items);
    memset(list, 0, sizeof(*list));
}

static const char *text_of(const cJSON *object, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, key));
    return s ? s : "";
}

static bool add_smoke(const cJSON *device, struct item_list *out)
{
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(device, "capabilities"))
    {
        if (*text_of(row, "id") &&
            !items_add(out, "capability", text_of(row, "id"), cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "declared")),
                       text_of(row, "verified"), NULL, NAN))
            return false;
    }
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(device, "smoke"))
    {
        const char *status = text_of(row, "status");
        if (*text_of(row, "id") && !items_add(out, "test", text_of(row, "id"), strcmp(status, "unsupported") != 0, status, NULL, NAN))
            return false;
    }
    return true;
}

static bool add_declared(const cJSON *declared, struct item_list *out)
{
    const cJSON *entry, *member;
    cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(declared, "extensions"))
    {
        char version[32] = "";
        if (cJSON_IsNumber(entry))
            snprintf(version, sizeof(version), "%d", entry->valueint);
        if (!items_add(out, "extension", entry->string, true, NULL, version, cJSON_IsNumber(entry) ? entry->valuedouble : NAN))
            return false;
    }
    cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(declared, "features"))
    {
        cJSON_ArrayForEach(member, entry)
        {
            if (cJSON_IsBool(member) && !items_add(out, "feature", member->string, cJSON_IsTrue(member), NULL,
                                                   cJSON_IsTrue(member) ? "true" : "false", NAN))
                return false;
        }
    }
    for (size_t i = 0; i < vkjson_limit_count; ++i) {
        const struct vkjson_limit *limit = &vkjson_limits[i];
        char path[256];
        if (strcmp(limit->structure, "VkPhysicalDeviceLimits") == 0)
            snprintf(path, sizeof(path), "properties/VkPhysicalDeviceProperties/limits/%s", limit->member);
        else if (strcmp(limit->structure, "VkPhysicalDeviceSparseProperties") == 0)
            snprintf(path, sizeof(path), "properties/VkPhysicalDeviceProperties/sparseProperties/%s", limit->member);
        else
            snprintf(path, sizeof(path), "properties/%s/%s", limit->structure, limit->member);
        const cJSON *value = json_path_get(declared, path);
        if (value == NULL)
            continue;
        bool ok;
        if (cJSON_IsNumber(value)) {
            char text[48];
            snprintf(text, sizeof(text), "%.17g", value->valuedouble);
            ok = items_add(out, "limit", limit->member, true, NULL, text, value->valuedouble);
        } else if (cJSON_IsRaw(value)) { /* a 64-bit value kept exact */
            ok = items_add(out, "limit", limit->member, true, NULL, value->valuestring, strtod(value->valuestring, NULL));
        } else {
            char *text = cJSON_PrintUnformatted(value);
            ok = text != NULL && items_add(out, "limit", limit->member, true, NULL, text, NAN);
            free(text);
        }
        if (!ok)
            return false;
    }
    cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(declared, "formats"))
    {
        const cJSON *properties = cJSON_GetObjectItemCaseSensitive(entry, "VkFormatProperties");
        bool any = false;
        cJSON_ArrayForEach(member, properties) any |= cJSON_GetArraySize(member) > 0;
        char *text = properties ? cJSON_PrintUnformatted(properties) : NULL;
        bool ok = items_add(out, "format", entry->string, any, NULL, text ? text : "{}", NAN);
        free(text);
        if (!ok)
            return false;
    }
    return true;
}

bool items_from_device(const cJSON *device, struct item_list *out)
{
    if (!add_smoke(device, out) || !add_declared(cJSON_GetObjectItemCaseSensitive(device, "declared"), out)) {
        items_free(out);
        return false;
    }
    items_sort(out);
    return true;
}
