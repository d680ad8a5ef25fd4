#include "target_limits.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = size >= 0 ? malloc((size_t)size + 1) : NULL;
    if (text != NULL)
        text[fread(text, 1, (size_t)size, f)] = '\0';
    fclose(f);
    return text;
}

static void take(struct target_limit *l, const cJSON *value, const char *device)
{
    if (!cJSON_IsNumber(value))
        return;
    uint64_t v = value->valuedouble < 0 ? 0 : (uint64_t)value->valuedouble;
    if (!l->present || v < l->value) {
        l->present = true;
        l->value = v;
        snprintf(l->device, sizeof(l->device), "%s", device);
    }
}

/* A probe report: every device's own limits, the smallest wins. */
static void from_report(const cJSON *report, struct target_limits *t)
{
    const cJSON *device;
    cJSON_ArrayForEach(device, cJSON_GetObjectItemCaseSensitive(report, "devices"))
    {
        const cJSON *identity = cJSON_GetObjectItemCaseSensitive(device, "identity");
        char name[160];
        snprintf(name, sizeof(name), "%s (%s)",
                 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(identity, "deviceName")) ?: "?",
                 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(identity, "deviceKey")) ?: "?");
        const cJSON *limits = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(device, "declared"), "properties"),
                "VkPhysicalDeviceProperties"),
            "limits");
        for (int i = 0; i < 3; ++i) {
            take(&t->group_count[i],
                 cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(limits, "maxComputeWorkGroupCount"), i), name);
            take(&t->workgroup_size[i],
                 cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(limits, "maxComputeWorkGroupSize"), i), name);
        }
        take(&t->invocations, cJSON_GetObjectItemCaseSensitive(limits, "maxComputeWorkGroupInvocations"), name);
        take(&t->shared_memory, cJSON_GetObjectItemCaseSensitive(limits, "maxComputeSharedMemorySize"), name);
    }
}

/* A fleet-limits file: the value and the first device that sets it, named from `devices`. */
static void from_fleet(const cJSON *fleet, struct target_limits *t)
{
    const cJSON *limits = cJSON_GetObjectItemCaseSensitive(fleet, "limits");
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(fleet, "devices");
    static const struct {
        const char *key;
        int kind;
    } wanted[] = {{"VkPhysicalDeviceLimits.maxComputeWorkGroupCount", 0},
                  {"VkPhysicalDeviceLimits.maxComputeWorkGroupSize", 1},
                  {"VkPhysicalDeviceLimits.maxComputeWorkGroupInvocations", 2},
                  {"VkPhysicalDeviceLimits.maxComputeSharedMemorySize", 3}};
    for (size_t w = 0; w < sizeof(wanted) / sizeof(wanted[0]); ++w) {
        const cJSON *entry = cJSON_GetObjectItemCaseSensitive(limits, wanted[w].key);
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(entry, "value");
        const cJSON *set_by = cJSON_GetObjectItemCaseSensitive(entry, "set_by");
        for (int i = 0; i < (cJSON_IsArray(value) ? 3 : 1); ++i) {
            const cJSON *v = cJSON_IsArray(value) ? cJSON_GetArrayItem(value, i) : value;
            /* for arrays, find a device whose element equals the fleet value */
            const char *key = cJSON_GetStringValue(cJSON_GetArrayItem(set_by, 0));
            char name[160];
            snprintf(name, sizeof(name), "%s", key ? key : "a device of the fleet");
            const cJSON *d;
            cJSON_ArrayForEach(d, devices)
            {
                const char *k = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "deviceKey"));
                if (key != NULL && k != NULL && strcmp(k, key) == 0)
                    snprintf(name, sizeof(name), "%s (%s)",
                             cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "deviceName")) ?: "?", k);
            }
            struct target_limit *l = wanted[w].kind == 0   ? &t->group_count[i]
                                     : wanted[w].kind == 1 ? &t->workgroup_size[i]
                                     : wanted[w].kind == 2 ? &t->invocations
                                                           : &t->shared_memory;
            take(l, v, name);
        }
    }
}

bool target_limits_load(const char *path, struct target_limits *t, char *error, unsigned long size)
{
    memset(t, 0, sizeof(*t));
    char *text = read_file(path);
    if (text == NULL) {
        snprintf(error, size, "cannot read target limits %s", path);
        return false;
    }
    cJSON *json = cJSON_Parse(text);
    free(text);
    const char *schema = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "schema"));
    bool ok = true;
    if (schema != NULL && strcmp(schema, "preflight.fleet-limits/1") == 0)
        from_fleet(json, t);
    else if (schema != NULL && strcmp(schema, "preflight.report/1") == 0)
        from_report(json, t);
    else {
        snprintf(error, size, "%s is neither preflight.fleet-limits/1 nor preflight.report/1", path);
        ok = false;
    }
    cJSON_Delete(json);
    if (ok) {
        t->loaded = true;
        snprintf(t->source, sizeof(t->source), "%s", path);
    }
    return ok;
}
