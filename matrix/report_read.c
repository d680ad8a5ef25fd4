#include "report_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identity.h"
#include "json_file.h"
#include "json_strict.h"
#include "report.h"
#include "spec_minimums.h"
#include "verdict.h"

static bool fail(char *error, size_t size, const char *format, const char *place, const char *detail)
{
    snprintf(error, size, format, place, detail);
    return false;
}

static bool require(const cJSON *object, const char *key, cJSON_bool (*is)(const cJSON *), const char *what,
                    const char *place, char *error, size_t size)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);
    if (is(item))
        return true;
    char where[512];
    snprintf(where, sizeof(where), "%s.%s", place, key);
    return fail(error, size, "%s: %s", where, item ? what : "missing");
}

static bool check_smoke(const cJSON *smoke, const char *place, char *error, size_t size)
{
    int i = 0;
    const cJSON *entry;
    cJSON_ArrayForEach(entry, smoke)
    {
        char where[256];
        snprintf(where, sizeof(where), "%s.smoke[%d]", place, i++);
        if (!cJSON_IsObject(entry))
            return fail(error, size, "%s: %s", where, "not an object");
        if (!require(entry, "id", cJSON_IsString, "not a string", where, error, size) ||
            !require(entry, "status", cJSON_IsString, "not a string", where, error, size) ||
            !require(entry, "duration_ms", cJSON_IsNumber, "not a number", where, error, size))
            return false;
        enum verdict v;
        const char *status = cJSON_GetObjectItemCaseSensitive(entry, "status")->valuestring;
        if (!verdict_parse(status, &v)) {
            char detail[160];
            snprintf(detail, sizeof(detail), "'%.100s' is not a verdict", status);
            strncat(where, ".status", sizeof(where) - strlen(where) - 1);
            return fail(error, size, "%s: %s", where, detail);
        }
    }
    return true;
}

/* The smoke result of test `id` on the device, or NULL. */
static const cJSON *smoke_entry(const cJSON *smoke, const char *id)
{
    const cJSON *entry;
    cJSON_ArrayForEach(entry, smoke)
    {
        const char *entry_id = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(entry, "id"));
        if (entry_id != NULL && strcmp(entry_id, id) == 0)
            return entry;
    }
    return NULL;
}

static bool check_capabilities(const cJSON *rows, const cJSON *smoke, const char *place, char *error, size_t size)
{
    int i = 0;
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        char where[256];
        snprintf(where, sizeof(where), "%s.capabilities[%d]", place, i++);
        if (!require(row, "id", cJSON_IsString, "not a string", where, error, size) ||
            !require(row, "group", cJSON_IsString, "not a string", where, error, size) ||
            !require(row, "declared", cJSON_IsBool, "not a boolean", where, error, size))
            return false;
        const cJSON *verified = cJSON_GetObjectItemCaseSensitive(row, "verified");
        enum verdict v;
        if (!cJSON_IsNull(verified) && !(cJSON_IsString(verified) && verdict_parse(verified->valuestring, &v)))
            return fail(error, size, "%s.verified: %s", where, "neither a verdict nor null");
        /* one source of truth: a row's verdict is its test's smoke verdict (the matrix shows the
         * row, diff and gate read the smoke result; a hand-edited report must not split them) */
        const cJSON *tests = cJSON_GetObjectItemCaseSensitive(row, "tests");
        if (cJSON_IsString(verified) && cJSON_GetArraySize(tests) == 1 &&
            cJSON_IsString(cJSON_GetArrayItem(tests, 0))) {
            const char *test = cJSON_GetArrayItem(tests, 0)->valuestring;
            const cJSON *entry = smoke_entry(smoke, test);
            const char *status = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(entry, "status"));
            if (status == NULL || strcmp(status, verified->valuestring) != 0) {
                char detail[400];
                snprintf(detail, sizeof(detail),
                         "'%.40s', but the smoke result of %.100s is %s%.40s%s (an inconsistent report)",
                         verified->valuestring, test, status ? "'" : "", status ? status : "missing",
                         status ? "'" : "");
                return fail(error, size, "%s.verified: %s", where, detail);
            }
        }
    }
    return true;
}

bool report_check(const cJSON *report, char *error, size_t size)
{
    if (!cJSON_IsObject(report))
        return fail(error, size, "%s: %s", "(document)", "not a JSON object");
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(report, "schema");
    if (!cJSON_IsString(schema) || strcmp(schema->valuestring, REPORT_SCHEMA_ID) != 0)
        return fail(error, size, "%s: %s", "schema",
                    cJSON_IsString(schema) ? "not preflight.report/1 (a newer or foreign document)"
                                           : "missing: not a preflight report");
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(report, "devices");
    if (!cJSON_IsArray(devices))
        return fail(error, size, "%s: %s", "devices", "missing or not an array");
    int i = 0;
    const cJSON *device;
    cJSON_ArrayForEach(device, devices)
    {
        char place[64];
        snprintf(place, sizeof(place), "devices[%d]", i++);
        if (!cJSON_IsObject(device))
            return fail(error, size, "%s: %s", place, "not an object");
        if (!require(device, "identity", cJSON_IsObject, "not an object", place, error, size) ||
            !require(device, "declared", cJSON_IsObject, "not an object", place, error, size) ||
            !require(device, "spec_minimums", cJSON_IsArray, "not an array", place, error, size) ||
            !require(device, "smoke", cJSON_IsArray, "not an array", place, error, size) ||
            !require(device, "capabilities", cJSON_IsArray, "not an array", place, error, size))
            return false;
        char sub[96];
        const cJSON *identity = cJSON_GetObjectItemCaseSensitive(device, "identity");
        snprintf(sub, sizeof(sub), "%s.identity", place);
        if (!require(identity, "deviceName", cJSON_IsString, "not a string", sub, error, size) ||
            !require(identity, "deviceKey", cJSON_IsString, "not a string", sub, error, size) ||
            !require(identity, "driverVersion", cJSON_IsString, "not a string", sub, error, size) ||
            !require(identity, "vendorID", cJSON_IsNumber, "not a number", sub, error, size))
            return false;
        const cJSON *declared = cJSON_GetObjectItemCaseSensitive(device, "declared");
        snprintf(sub, sizeof(sub), "%s.declared", place);
        if (!require(declared, "extensions", cJSON_IsObject, "not an object", sub, error, size) ||
            !require(declared, "features", cJSON_IsObject, "not an object", sub, error, size) ||
            !require(declared, "properties", cJSON_IsObject, "not an object", sub, error, size) ||
            !require(cJSON_GetObjectItemCaseSensitive(declared, "properties"), "VkPhysicalDeviceProperties",
                     cJSON_IsObject, "not an object", "declared.properties", error, size))
            return false;
        if (!check_smoke(cJSON_GetObjectItemCaseSensitive(device, "smoke"), place, error, size) ||
            !check_capabilities(cJSON_GetObjectItemCaseSensitive(device, "capabilities"),
                                cJSON_GetObjectItemCaseSensitive(device, "smoke"), place, error, size))
            return false;
    }
    return true;
}

/* A vulkaninfo --json document: a Vulkan Profiles file whose capabilities.device block has the
 * layout of a report's `declared`. */
static cJSON *from_vulkaninfo(const cJSON *profile)
{
    const cJSON *device_block =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(profile, "capabilities"), "device");
    if (!cJSON_IsObject(device_block) ||
        !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(device_block, "properties"),
                                                         "VkPhysicalDeviceProperties")))
        return NULL;
    cJSON *report = report_new("vulkaninfo");
    cJSON *device = cJSON_CreateObject();
    cJSON *declared = cJSON_Duplicate(device_block, 1);
    cJSON_AddNumberToObject(device, "index", 0);
    cJSON *identity = identity_from_declared(declared);
    cJSON_AddStringToObject(identity, "os", "unknown (from vulkaninfo --json)");
    cJSON_AddStringToObject(identity, "kernel", "unknown (from vulkaninfo --json)");
    cJSON_AddItemToObject(device, "identity", identity);
    cJSON_AddItemToObject(device, "declared", declared);
    cJSON_AddItemToObject(device, "spec_minimums", spec_minimums_check(declared));
    cJSON_AddArrayToObject(device, "smoke");
    cJSON_AddArrayToObject(device, "capabilities");
    cJSON_AddStringToObject(device, "source", "vulkaninfo");
    cJSON_AddItemToArray(report_devices(report), device);
    return report;
}

cJSON *report_from_json(cJSON *json, const char *name, char *error, size_t size)
{
    if (cJSON_GetObjectItemCaseSensitive(json, "$schema") != NULL &&
        cJSON_GetObjectItemCaseSensitive(json, "schema") == NULL) {
        cJSON *converted = from_vulkaninfo(json);
        cJSON_Delete(json);
        if (converted == NULL) {
            snprintf(error, size, "%s: a Vulkan Profiles document without capabilities.device.properties", name);
            return NULL;
        }
        json = converted;
    }
    char detail[512];
    if (!report_check(json, detail, sizeof(detail))) {
        snprintf(error, size, "%s: %s", name, detail);
        cJSON_Delete(json);
        return NULL;
    }
    return json;
}

cJSON *report_parse(const char *text, size_t length, const char *name, char *error, size_t size)
{
    cJSON *json = json_strict_parse(text, length, name, error, size);
    return json ? report_from_json(json, name, error, size) : NULL;
}

cJSON *report_load(const char *path, char *error, size_t size)
{
    size_t length = 0;
    char *text = json_file_read(path, JSON_FILE_MAX_BYTES, &length, error, size);
    if (text == NULL)
        return NULL;
    cJSON *report = report_parse(text, length, json_file_name(path), error, size);
    free(text);
    return report;
}
