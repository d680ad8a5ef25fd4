#include "report_artifacts.h"

#include <stdio.h>
#include <string.h>

#include "report_model.h"

bool report_artifact_hash_valid(const char *text)
{
    if (text == NULL || strlen(text) != 64)
        return false;
    for (const char *s = text; *s; ++s)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return false;
    return true;
}

static void collect(const cJSON *node, bool in_artifacts, struct report_artifact *out, size_t max, size_t *count)
{
    if (cJSON_IsObject(node) && in_artifacts) {
        const char *sha = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(node, "sha256"));
        bool seen = false;
        for (size_t i = 0; i < *count && !seen && sha; ++i)
            seen = strcmp(out[i].sha256, sha) == 0;
        if (report_artifact_hash_valid(sha) && !seen && *count < max) {
            struct report_artifact *a = &out[(*count)++];
            const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(node, "bytes");
            const char *file = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(node, "file"));
            snprintf(a->sha256, sizeof(a->sha256), "%s", sha);
            snprintf(a->file, sizeof(a->file), "%s", file ? file : "");
            a->bytes = cJSON_IsNumber(bytes) ? (int64_t)bytes->valuedouble : -1;
        }
    }
    const cJSON *child;
    cJSON_ArrayForEach(child, node)
    {
        /* the elements of an "artifacts" array are artifacts; their own members are not */
        bool artifacts = cJSON_IsArray(child) && child->string && strcmp(child->string, "artifacts") == 0;
        collect(child, artifacts || (in_artifacts && cJSON_IsArray(node)), out, max, count);
    }
}

size_t report_artifacts_of(const cJSON *report, struct report_artifact *out, size_t max)
{
    size_t count = 0;
    const cJSON *device, *test;
    REPORT_FOR_EACH_DEVICE(device, report)
    {
        REPORT_FOR_EACH_SMOKE(test, device)
        collect(report_smoke_of(test).evidence, false, out, max, &count);
    }
    return count;
}
