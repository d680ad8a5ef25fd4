#include "fleet_limits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_path.h"
#include "report_model.h"
#include "report.h"
#include "vk_json.h"

struct fleet_device {
    const cJSON *declared;
    const char *key;
};

static const char *struct_path(const char *structure, char *out, size_t size)
{
    if (strcmp(structure, "VkPhysicalDeviceLimits") == 0)
        snprintf(out, size, "properties/VkPhysicalDeviceProperties/limits");
    else if (strcmp(structure, "VkPhysicalDeviceSparseProperties") == 0)
        snprintf(out, size, "properties/VkPhysicalDeviceProperties/sparseProperties");
    else
        snprintf(out, size, "properties/%s", structure);
    return out;
}

static bool has_flag(const cJSON *flags, const char *name)
{
    const cJSON *f;
    cJSON_ArrayForEach(f, flags)
    {
        if (cJSON_IsString(f) && strcmp(f->valuestring, name) == 0)
            return true;
    }
    return false;
}

/* Is `candidate` more restrictive than `current` for this limit type? (numbers only) */
static bool more_restrictive(const char *type, double candidate, double current)
{
    return strncmp(type, "max", 3) == 0 ? candidate < current : candidate > current;
}

static double number_of(const cJSON *v)
{
    return cJSON_IsRaw(v) ? strtod(v->valuestring, NULL) : v->valuedouble;
}

/* The most restrictive value of one scalar (number or boolean), and who sets it. */
static cJSON *restrict_scalar(const char *type, const cJSON *const *values, const struct fleet_device *devices,
                              size_t n, cJSON *set_by)
{
    const cJSON *best = NULL;
    for (size_t i = 0; i < n; ++i) {
        const cJSON *v = values[i];
        if (v == NULL)
            continue;
        if (cJSON_IsBool(v)) {
            if (best == NULL || (cJSON_IsTrue(best) && !cJSON_IsTrue(v)))
                best = v;
        } else if (best == NULL || more_restrictive(type, number_of(v), number_of(best))) {
            best = v;
        }
    }
    for (size_t i = 0; best != NULL && i < n; ++i)
        if (values[i] != NULL && cJSON_Compare(values[i], best, 1))
            cJSON_AddItemToArray(set_by, cJSON_CreateString(devices[i].key));
    return best ? cJSON_Duplicate(best, 1) : NULL;
}

static cJSON *restrict_flags(const cJSON *const *values, size_t n)
{
    cJSON *common = cJSON_CreateArray();
    const cJSON *first = NULL;
    for (size_t i = 0; i < n && first == NULL; ++i)
        first = values[i];
    const cJSON *bit;
    cJSON_ArrayForEach(bit, first)
    {
        bool everywhere = cJSON_IsString(bit);
        for (size_t i = 0; i < n && everywhere; ++i)
            if (values[i] != NULL && !has_flag(values[i], bit->valuestring))
                everywhere = false;
        if (everywhere)
            cJSON_AddItemToArray(common, cJSON_CreateString(bit->valuestring));
    }
    return common;
}

/* `blocks`: each device's struct that holds the limit (NULL where it has none). */
static void add_limit(cJSON *limits, const struct vkjson_limit *limit, const struct fleet_device *devices,
                      const cJSON *const *blocks, size_t n)
{
    const char *type = limit->limittype;
    bool ordered = strncmp(type, "max", 3) == 0 || strncmp(type, "min", 3) == 0;
    if (!ordered && strcmp(type, "bitmask") != 0)
        return; /* exact, noauto, range, ...: no "most restrictive" value */
    const cJSON **values = calloc(n ? n : 1, sizeof(*values));
    const cJSON **parts = calloc(n ? n : 1, sizeof(*parts)); /* per element or member, below */
    if (values == NULL || parts == NULL) {
        free(values);
        free(parts);
        return;
    }
    cJSON *missing_on = cJSON_CreateArray();
    const cJSON *shape = NULL;
    for (size_t i = 0; i < n; ++i) {
        values[i] = blocks[i] ? cJSON_GetObjectItemCaseSensitive(blocks[i], limit->member) : NULL;
        if (values[i] == NULL)
            cJSON_AddItemToArray(missing_on, cJSON_CreateString(devices[i].key));
        else if (shape == NULL)
            shape = values[i];
    }
    if (shape == NULL) {
        cJSON_Delete(missing_on);
        free(values);
        free(parts);
        return;
    }
    cJSON *entry = cJSON_CreateObject();
    cJSON *set_by = cJSON_CreateArray();
    cJSON *value = NULL;
    if (cJSON_IsArray(shape) && (cJSON_GetArraySize(shape) == 0 || cJSON_IsString(cJSON_GetArrayItem(shape, 0)))) {
        value = restrict_flags(values, n);
    } else if (cJSON_IsArray(shape) || cJSON_IsObject(shape)) {
        /* per element (maxComputeWorkGroupSize[3]) or per member (VkExtent2D) */
        value = cJSON_IsArray(shape) ? cJSON_CreateArray() : cJSON_CreateObject();
        const cJSON *part;
        int index = 0;
        cJSON_ArrayForEach(part, shape)
        {
            for (size_t i = 0; i < n; ++i)
                parts[i] = values[i] == NULL      ? NULL
                           : cJSON_IsArray(shape) ? cJSON_GetArrayItem(values[i], index)
                                                  : cJSON_GetObjectItemCaseSensitive(values[i], part->string);
            cJSON *ignored = cJSON_CreateArray();
            cJSON *best = restrict_scalar(type, parts, devices, n, ignored);
            cJSON_Delete(ignored);
            if (best == NULL)
                best = cJSON_CreateNull();
            if (cJSON_IsArray(shape))
                cJSON_AddItemToArray(value, best);
            else
                cJSON_AddItemToObject(value, part->string, best);
            ++index;
        }
        for (size_t i = 0; i < n; ++i) /* who sets at least one element */
            if (values[i] != NULL && cJSON_Compare(values[i], value, 1))
                cJSON_AddItemToArray(set_by, cJSON_CreateString(devices[i].key));
    } else {
        value = restrict_scalar(type, values, devices, n, set_by);
    }
    cJSON_AddItemToObject(entry, "value", value ? value : cJSON_CreateNull());
    cJSON_AddStringToObject(entry, "limittype", type);
    cJSON_AddItemToObject(entry, "set_by", set_by);
    if (cJSON_GetArraySize(missing_on) > 0)
        cJSON_AddItemToObject(entry, "missing_on", missing_on);
    else
        cJSON_Delete(missing_on);
    char key[192];
    snprintf(key, sizeof(key), "%s.%s", limit->structure, limit->member);
    cJSON_AddItemToObject(limits, key, entry);
    free(values);
    free(parts);
}

/* A feature member of a struct, and where it was first met (the output keeps that order). */
struct feature_key {
    const char *structure, *member;
    size_t first;
};

static int compare_names(const struct feature_key *x, const struct feature_key *y)
{
    int c = strcmp(x->structure, y->structure);
    return c ? c : strcmp(x->member, y->member);
}

static int compare_feature_keys(const void *a, const void *b)
{
    const struct feature_key *x = a, *y = b;
    int c = compare_names(x, y);
    return c ? c : x->first < y->first ? -1 : x->first > y->first;
}

static int find_feature_key(const void *a, const void *b)
{
    return compare_names(a, b);
}

/* The keys' positions, in the order the keys were first met. */
struct key_order {
    size_t first, index;
};

static int compare_order(const void *a, const void *b)
{
    const struct key_order *x = a, *y = b;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* Every feature any device declares, true only where every device declares it true. The keys are
 * sorted once and each device's members looked up among them: a fleet of a thousand devices with
 * some three hundred features each costs a sort, not a search of the output per member. */
static void add_features(cJSON *features, const struct fleet_device *devices, size_t n)
{
    size_t count = 0, capacity = 1024;
    struct feature_key *keys = malloc(capacity * sizeof(*keys));
    for (size_t d = 0; keys && d < n; ++d) {
        const cJSON *structure, *member;
        cJSON_ArrayForEach(structure, cJSON_GetObjectItemCaseSensitive(devices[d].declared, "features"))
        {
            if (!cJSON_IsObject(structure))
                continue;
            cJSON_ArrayForEach(member, structure)
            {
                if (count == capacity) {
                    struct feature_key *grown = realloc(keys, 2 * capacity * sizeof(*keys));
                    if (grown == NULL) {
                        free(keys);
                        return;
                    }
                    keys = grown;
                    capacity *= 2;
                }
                keys[count] = (struct feature_key){structure->string, member->string, count};
                ++count;
            }
        }
    }
    if (keys == NULL)
        return;
    qsort(keys, count, sizeof(*keys), compare_feature_keys);
    size_t unique = 0;
    for (size_t i = 0; i < count; ++i) /* of equal keys the first sorted is the first met */
        if (unique == 0 || compare_names(&keys[unique - 1], &keys[i]) != 0)
            keys[unique++] = keys[i];
    bool *truth = calloc(unique * n + 1, sizeof(*truth));
    struct key_order *order = malloc((unique + 1) * sizeof(*order));
    for (size_t d = 0; truth && d < n; ++d) {
        const cJSON *structure, *member;
        cJSON_ArrayForEach(structure, cJSON_GetObjectItemCaseSensitive(devices[d].declared, "features"))
        {
            if (!cJSON_IsObject(structure))
                continue;
            cJSON_ArrayForEach(member, structure)
            {
                const struct feature_key wanted = {structure->string, member->string, 0};
                const struct feature_key *k = bsearch(&wanted, keys, unique, sizeof(*keys), find_feature_key);
                if (k != NULL && cJSON_IsTrue(member))
                    truth[(size_t)(k - keys) * n + d] = true;
            }
        }
    }
    for (size_t i = 0; order && i < unique; ++i)
        order[i] = (struct key_order){keys[i].first, i};
    if (order)
        qsort(order, unique, sizeof(*order), compare_order);
    for (size_t o = 0; truth && order && o < unique; ++o) {
        const struct feature_key *k = &keys[order[o].index];
        char key[192];
        snprintf(key, sizeof(key), "%s.%s", k->structure, k->member);
        cJSON *entry = cJSON_CreateObject();
        cJSON *missing_on = cJSON_CreateArray();
        for (size_t d = 0; d < n; ++d)
            if (!truth[order[o].index * n + d])
                cJSON_AddItemToArray(missing_on, cJSON_CreateString(devices[d].key));
        cJSON_AddBoolToObject(entry, "value", cJSON_GetArraySize(missing_on) == 0);
        cJSON_AddItemToObject(entry, "missing_on", missing_on);
        cJSON_AddItemToObject(features, key, entry);
    }
    free(order);
    free(truth);
    free(keys);
}

cJSON *fleet_limits_build(cJSON *const *reports, size_t report_count)
{
    /* every device of every report: a fleet limit from part of the fleet would be wrong */
    size_t total = 0;
    for (size_t r = 0; r < report_count; ++r)
        total += report_device_count(reports[r]);
    struct fleet_device *devices = calloc(total ? total : 1, sizeof(*devices));
    if (devices == NULL)
        return NULL;
    size_t n = 0;
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "schema", FLEET_LIMITS_SCHEMA_ID);
    cJSON *source = report_new("preflight-report fleet-limits");
    cJSON_AddItemToObject(out, "generator", cJSON_DetachItemFromObject(source, "generator"));
    cJSON_AddItemToObject(out, "created", cJSON_DetachItemFromObject(source, "created"));
    cJSON_Delete(source);
    cJSON *list = cJSON_AddArrayToObject(out, "devices");
    for (size_t r = 0; r < report_count; ++r) {
        const cJSON *device;
        REPORT_FOR_EACH_DEVICE(device, reports[r])
        {
            if (n == total)
                break;
            const cJSON *identity = report_identity_block(device);
            devices[n].declared = report_declared(device);
            devices[n].key = report_device_key(device);
            cJSON *d = cJSON_CreateObject();
            cJSON_AddStringToObject(d, "deviceKey", devices[n].key);
            cJSON_AddItemToObject(d, "deviceName",
                                  cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(identity, "deviceName"), 1));
            cJSON_AddItemToObject(d, "driverVersion",
                                  cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(identity, "driverVersion"), 1));
            cJSON_AddItemToArray(list, d);
            ++n;
        }
    }
    cJSON *limits = cJSON_AddObjectToObject(out, "limits");
    /* each device's struct looked up once for all its limits (the table lists a struct's limits together) */
    const cJSON **blocks = calloc(n ? n : 1, sizeof(*blocks));
    const char *structure = NULL;
    for (size_t i = 0; blocks && i < vkjson_limit_count; ++i) {
        if (structure == NULL || strcmp(structure, vkjson_limits[i].structure) != 0) {
            structure = vkjson_limits[i].structure;
            char path[256];
            struct_path(structure, path, sizeof(path));
            for (size_t d = 0; d < n; ++d)
                blocks[d] = json_path_get(devices[d].declared, path);
        }
        add_limit(limits, &vkjson_limits[i], devices, blocks, n);
    }
    free(blocks);
    add_features(cJSON_AddObjectToObject(out, "features"), devices, n);
    free(devices);
    return out;
}
