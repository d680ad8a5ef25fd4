#include "fleet_limits_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "fleet_limits.h"
#include "json_file.h"
#include "json_path.h"
#include "json_strict.h"
#include "report.h"
#include "report_model.h"
#include "report_read.h"

/* Keeps the smaller value: a dispatch must fit the most restrictive device. */
static void take(struct fleet_limit *l, const cJSON *value, const char *device)
{
    if (!cJSON_IsNumber(value))
        return;
    int64_t signed_value = json_number_i64(value, 0);
    uint64_t v = signed_value < 0 ? 0 : (uint64_t)signed_value;
    if (!l->present || v < l->value) {
        l->present = true;
        l->value = v;
        snprintf(l->device, sizeof(l->device), "%s", device);
    }
}

static void from_report(const cJSON *report, struct fleet_compute_limits *t)
{
    const cJSON *device;
    REPORT_FOR_EACH_DEVICE(device, report)
    {
        struct report_identity id = report_identity_of(device);
        char name[160];
        snprintf(name, sizeof(name), "%s (%s)", id.device_name[0] ? id.device_name : "?",
                 id.device_key[0] ? id.device_key : "?");
        const cJSON *limits = report_declared_limits(device);
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

/* The device a fleet value came from, by its key in the file's `devices`. */
static void name_of(const cJSON *devices, const char *key, char *out, size_t size)
{
    snprintf(out, size, "%s", key ? key : "a device of the fleet");
    const cJSON *d;
    cJSON_ArrayForEach(d, devices)
    {
        const char *k = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "deviceKey"));
        if (key != NULL && k != NULL && strcmp(k, key) == 0) {
            const char *device_name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "deviceName"));
            snprintf(out, size, "%s (%s)", device_name ? device_name : "?", k);
            return;
        }
    }
}

static void from_fleet(const cJSON *fleet, struct fleet_compute_limits *t)
{
    const cJSON *limits = cJSON_GetObjectItemCaseSensitive(fleet, "limits");
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(fleet, "devices");
    const struct {
        const char *key;
        struct fleet_limit *into; /* three of them for the arrays */
    } wanted[] = {{"VkPhysicalDeviceLimits.maxComputeWorkGroupCount", t->group_count},
                  {"VkPhysicalDeviceLimits.maxComputeWorkGroupSize", t->workgroup_size},
                  {"VkPhysicalDeviceLimits.maxComputeWorkGroupInvocations", &t->invocations},
                  {"VkPhysicalDeviceLimits.maxComputeSharedMemorySize", &t->shared_memory}};
    for (size_t w = 0; w < sizeof(wanted) / sizeof(wanted[0]); ++w) {
        const cJSON *entry = cJSON_GetObjectItemCaseSensitive(limits, wanted[w].key);
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(entry, "value");
        char name[160];
        name_of(devices, cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(entry, "set_by"), 0)),
                name, sizeof(name));
        if (cJSON_IsArray(value))
            for (int i = 0; i < 3; ++i)
                take(&wanted[w].into[i], cJSON_GetArrayItem(value, i), name);
        else
            take(wanted[w].into, value, name);
    }
}

bool fleet_compute_limits_read(const char *path, struct fleet_compute_limits *t, char *error, size_t size)
{
    memset(t, 0, sizeof(*t));
    size_t length = 0;
    char *text = json_file_read(path, JSON_FILE_MAX_BYTES, &length, error, size);
    if (text == NULL)
        return false;
    const char *name = json_file_name(path);
    cJSON *json = json_strict_parse(text, length, name, error, size);
    free(text);
    if (json == NULL)
        return false;
    const char *schema = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(json, "schema"));
    if (schema != NULL && strcmp(schema, FLEET_LIMITS_SCHEMA_ID) == 0) {
        from_fleet(json, t);
        cJSON_Delete(json);
    } else if (schema != NULL && strcmp(schema, REPORT_SCHEMA_ID) != 0) {
        snprintf(error, size, "%s: schema '%.64s' is neither %s nor %s", name, schema, FLEET_LIMITS_SCHEMA_ID,
                 REPORT_SCHEMA_ID);
        cJSON_Delete(json);
        return false;
    } else {
        /* a report, or a Vulkan Profiles document (no schema): the report reader's conversion and checks */
        bool unnamed = schema == NULL;
        char detail[512];
        cJSON *report = report_from_json(json, name, detail, sizeof(detail));
        if (report == NULL && unnamed)
            snprintf(error, size, "%s is neither %s nor %s (nor a Vulkan Profiles document): %s", name,
                     FLEET_LIMITS_SCHEMA_ID, REPORT_SCHEMA_ID, detail);
        else if (report == NULL)
            snprintf(error, size, "%s", detail);
        if (report == NULL)
            return false;
        from_report(report, t);
        cJSON_Delete(report);
    }
    t->loaded = true;
    snprintf(t->source, sizeof(t->source), "%s", path);
    return true;
}
