#include "report_artifacts.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "json_path.h"
#include "report_model.h"
#include "sha256.h"

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
            a->bytes = json_number_i64(bytes, -1);
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

char *report_artifact_read(const char *dir, const struct report_artifact *a, size_t *length, char *why, size_t size)
{
    why[0] = '\0';
    if (a->file[0] == '\0' || strchr(a->file, '/') != NULL || strcmp(a->file, "..") == 0 || a->file[0] == '.') {
        snprintf(why, size, "the evidence names no plain file for artifact %.12s", a->sha256);
        return NULL;
    }
    char path[4400];
    snprintf(path, sizeof(path), "%s/%s", dir, a->file);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *data = malloc(REPORT_ARTIFACT_MAX_BYTES + 1);
    size_t n = data ? fread(data, 1, REPORT_ARTIFACT_MAX_BYTES + 1, f) : 0;
    bool error = ferror(f) != 0;
    fclose(f);
    char hash[65];
    if (data != NULL && !error && n <= REPORT_ARTIFACT_MAX_BYTES)
        sha256_hex(data, n, hash);
    if (data == NULL || error)
        snprintf(why, size, "%s: cannot be read", path);
    else if (n > REPORT_ARTIFACT_MAX_BYTES)
        snprintf(why, size, "%s: larger than %u bytes, not sent", path, REPORT_ARTIFACT_MAX_BYTES);
    else if (strcmp(hash, a->sha256) != 0)
        snprintf(why, size,
                 "%s: its SHA-256 is not the one the report names (changed since the probe wrote it), not sent", path);
    if (why[0]) {
        free(data);
        return NULL;
    }
    *length = n;
    return data;
}

void report_artifacts_dir(const char *given, const char *report, char *out, size_t size)
{
    if (given != NULL) {
        snprintf(out, size, "%s", given);
        return;
    }
    const char *slash = strrchr(report, '/');
    char folder[4096];
    if (slash == NULL)
        snprintf(folder, sizeof(folder), ".");
    else if (slash == report)
        snprintf(folder, sizeof(folder), "/");
    else
        snprintf(folder, sizeof(folder), "%.*s", (int)(slash - report), report);
    snprintf(out, size, "%s/artifacts", folder);
    struct stat st;
    if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode))
        snprintf(out, size, "%s", folder);
}
