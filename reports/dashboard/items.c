#include "items.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_path.h"
#include "report_model.h"
#include "fleet_measure.h"
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
    if (strcmp(verdict, ITEM_VERDICT_FLAKY) == 0)
        return true;
    enum verdict v;
    if (!verdict_parse(verdict, &v))
        return false;
    return verdict_is_failure(v);
}

struct item_text_block {
    struct item_text_block *next;
    size_t used, capacity;
    char text[];
};

/* A copy of `text` in the list's blocks (they never move, so the pointers stay valid). */
static char *keep_text(struct item_list *list, const char *text)
{
    size_t n = strlen(text) + 1;
    struct item_text_block *b = list->blocks;
    if (b == NULL || b->used + n > b->capacity) {
        size_t capacity = n > 65536 ? n : 65536;
        struct item_text_block *fresh = malloc(sizeof(*fresh) + capacity);
        if (fresh == NULL)
            return NULL;
        fresh->used = 0;
        fresh->capacity = capacity;
        if (b != NULL && n > 65536) { /* an outsized text: behind the current block, which stays in use */
            fresh->next = b->next;
            b->next = fresh;
        } else {
            fresh->next = b;
            list->blocks = fresh;
        }
        b = fresh;
    }
    char *copy = b->text + b->used;
    memcpy(copy, text, n);
    b->used += n;
    return copy;
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
    it->name = keep_text(list, name);
    it->value = keep_text(list, value ? value : "");
    it->declared = declared;
    it->number = number;
    if (it->name == NULL || it->value == NULL)
        return false;
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
    /* equal names keep their order of appearance */
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
            continue;
        }
        list->items[kept++] = *it;
    }
    list->count = kept;
}

void items_free(struct item_list *list)
{
    while (list->blocks != NULL) {
        struct item_text_block *next = list->blocks->next;
        free(list->blocks);
        list->blocks = next;
    }
    free(list->items);
    memset(list, 0, sizeof(*list));
}

static bool add_smoke(const cJSON *device, struct item_list *out)
{
    const cJSON *row;
    REPORT_FOR_EACH_CAPABILITY(row, device)
    {
        struct report_capability c = report_capability_of(row);
        if (*c.id && !items_add(out, "capability", c.id, c.declared, c.verified, NULL, NAN))
            return false;
    }
    REPORT_FOR_EACH_SMOKE(row, device)
    {
        struct report_smoke result = report_smoke_of(row);
        if (*result.id &&
            !items_add(out, "test", result.id, strcmp(result.status, "unsupported") != 0, result.status, NULL, NAN))
            return false;
    }
    return true;
}

static bool add_declared(const cJSON *device, struct item_list *out)
{
    const cJSON *entry, *member;
    cJSON_ArrayForEach(entry, report_declared_extensions(device))
    {
        char version[32] = "";
        if (cJSON_IsNumber(entry))
            snprintf(version, sizeof(version), "%d", entry->valueint);
        if (!items_add(out, "extension", entry->string, true, NULL, version,
                       cJSON_IsNumber(entry) ? entry->valuedouble : NAN))
            return false;
    }
    char name[256];
    cJSON_ArrayForEach(entry, report_declared_features(device))
    {
        cJSON_ArrayForEach(member, entry)
        {
            if (!cJSON_IsBool(member))
                continue;
            snprintf(name, sizeof(name), "%s.%s", entry->string, member->string);
            if (!items_add(out, "feature", name, cJSON_IsTrue(member), NULL, cJSON_IsTrue(member) ? "true" : "false",
                           NAN))
                return false;
        }
    }
    const cJSON *properties = report_declared_properties(device);
    const char *structure = NULL;
    const cJSON *block = NULL;
    for (size_t i = 0; i < vkjson_limit_count; ++i) {
        const struct vkjson_limit *limit = &vkjson_limits[i];
        if (structure == NULL ||
            strcmp(structure, limit->structure) != 0) { /* the table lists a struct's limits together */
            structure = limit->structure;
            if (strcmp(structure, "VkPhysicalDeviceLimits") == 0)
                block = report_declared_limits(device);
            else if (strcmp(structure, "VkPhysicalDeviceSparseProperties") == 0)
                block = json_path_get(properties, "VkPhysicalDeviceProperties/sparseProperties");
            else
                block = cJSON_GetObjectItemCaseSensitive(properties, structure);
        }
        const cJSON *value = block ? cJSON_GetObjectItemCaseSensitive(block, limit->member) : NULL;
        if (value == NULL)
            continue;
        bool ok;
        snprintf(name, sizeof(name), "%s.%s", limit->structure, limit->member);
        if (cJSON_IsNumber(value)) {
            char text[48];
            snprintf(text, sizeof(text), "%.17g", value->valuedouble);
            ok = items_add(out, "limit", name, true, NULL, text, value->valuedouble);
        } else if (cJSON_IsRaw(value)) { /* a 64-bit value kept exact */
            ok = items_add(out, "limit", name, true, NULL, value->valuestring, strtod(value->valuestring, NULL));
        } else {
            char *text = cJSON_PrintUnformatted(value);
            ok = text != NULL && items_add(out, "limit", name, true, NULL, text, NAN);
            free(text);
        }
        if (!ok)
            return false;
    }
    cJSON_ArrayForEach(entry, report_declared_formats(device))
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
    if (!add_smoke(device, out) || !add_declared(device, out)) {
        items_free(out);
        return false;
    }
    items_sort(out);
    return true;
}

const char *items_keep_text(struct item_list *list, const char *text)
{
    return keep_text(list, text ? text : "");
}
