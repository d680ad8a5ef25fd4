#include "profile_export.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report_model.h"

/* Drops "0x..." entries from flag arrays, recursively. */
static void strip_unnamed_bits(cJSON *node)
{
    if (cJSON_IsArray(node)) {
        for (int i = cJSON_GetArraySize(node) - 1; i >= 0; --i) {
            cJSON *item = cJSON_GetArrayItem(node, i);
            if (cJSON_IsString(item) && strncmp(item->valuestring, "0x", 2) == 0)
                cJSON_DeleteItemFromArray(node, i);
            else
                strip_unnamed_bits(item);
        }
    } else if (cJSON_IsObject(node)) {
        cJSON *child;
        cJSON_ArrayForEach(child, node)
        {
            strip_unnamed_bits(child);
        }
    }
}

static void append_upper(char *out, size_t size, const char *text)
{
    size_t at = strlen(out);
    bool underscore = at > 0 && out[at - 1] == '_';
    for (; *text && at + 1 < size; ++text) {
        if (isalnum((unsigned char)*text)) {
            out[at++] = (char)toupper((unsigned char)*text);
            underscore = false;
        } else if (!underscore) {
            out[at++] = '_';
            underscore = true;
        }
    }
    out[at] = '\0';
}

cJSON *profile_export(const cJSON *device)
{
    static const char *const sections[] = {"extensions", "features", "properties", "formats",
                                           "queueFamiliesProperties"};
    const cJSON *declared = report_declared(device);
    struct report_identity id = report_identity_of(device);
    /* "" (absent) reads as the defaults below */
    const char *name = id.device_name[0] ? id.device_name : NULL;
    const char *driver = id.driver_version[0] ? id.driver_version : NULL;
    const char *api = id.api_version[0] ? id.api_version : NULL;

    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "$schema", PROFILES_SCHEMA_URL);
    cJSON *block = cJSON_AddObjectToObject(cJSON_AddObjectToObject(doc, "capabilities"), "device");
    for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); ++i) {
        const cJSON *section = cJSON_GetObjectItemCaseSensitive(declared, sections[i]);
        cJSON *copy = section ? cJSON_Duplicate(section, 1) : (i == 4 ? cJSON_CreateArray() : cJSON_CreateObject());
        strip_unnamed_bits(copy);
        cJSON_AddItemToObject(block, sections[i], copy);
    }

    char profile_name[256] = "VP_PREFLIGHT_";
    append_upper(profile_name, sizeof(profile_name), name ? name : "DEVICE");
    append_upper(profile_name, sizeof(profile_name), "_");
    append_upper(profile_name, sizeof(profile_name), driver ? driver : "0");
    cJSON *profile = cJSON_AddObjectToObject(cJSON_AddObjectToObject(doc, "profiles"), profile_name);
    cJSON_AddNumberToObject(profile, "version", 1);
    cJSON_AddStringToObject(profile, "api-version", api ? api : "1.0.0");
    char text[512];
    snprintf(text, sizeof(text), "%s driver %s", name ? name : "device", driver ? driver : "?");
    cJSON_AddStringToObject(profile, "label", text);
    cJSON_AddStringToObject(profile, "description", "Declared capabilities recorded by preflight-probe");
    cJSON_AddObjectToObject(profile, "contributors");
    cJSON *history = cJSON_AddArrayToObject(profile, "history");
    cJSON *entry = cJSON_CreateObject();
    char date[16];
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(date, sizeof(date), "%Y-%m-%d", &utc);
    cJSON_AddNumberToObject(entry, "revision", 1);
    cJSON_AddStringToObject(entry, "date", date);
    cJSON_AddStringToObject(entry, "author", "preflight-report profile");
    cJSON_AddStringToObject(entry, "comment", "");
    cJSON_AddItemToArray(history, entry);
    cJSON *capabilities = cJSON_AddArrayToObject(profile, "capabilities");
    cJSON_AddItemToArray(capabilities, cJSON_CreateString("device"));
    return doc;
}
