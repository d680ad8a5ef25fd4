#include "report.h"

#include "json_strict.h"
#include "output_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

cJSON *report_new(const char *generator_name)
{
    cJSON *report = cJSON_CreateObject();
    cJSON_AddStringToObject(report, "schema", REPORT_SCHEMA_ID);
    cJSON *generator = cJSON_AddObjectToObject(report, "generator");
    cJSON_AddStringToObject(generator, "name", generator_name);
    cJSON_AddStringToObject(generator, "version", PREFLIGHT_VERSION);
    char created[32];
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(created, sizeof(created), "%Y-%m-%dT%H:%M:%SZ", &utc);
    cJSON_AddStringToObject(report, "created", created);
    cJSON_AddArrayToObject(report, "devices");
    return report;
}

cJSON *report_devices(cJSON *report)
{
    return cJSON_GetObjectItemCaseSensitive(report, "devices");
}

/* A copy of `text` with each byte that does not start a valid UTF-8 sequence replaced by U+FFFD. */
static char *utf8_repaired(const char *text)
{
    size_t length = strlen(text);
    char *out = malloc(length * 3 + 1), *at = out;
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < length;) {
        size_t n = 1;
        while (n <= 4 && i + n <= length && !json_valid_utf8(text + i, n))
            ++n;
        if (n <= 4 && i + n <= length) {
            memcpy(at, text + i, n);
            at += n;
            i += n;
        } else {
            memcpy(at, "\xEF\xBF\xBD", 3); /* U+FFFD */
            at += 3;
            i += 1;
        }
    }
    *at = '\0';
    return out;
}

/* Strings from the driver (device names, driver info, extension names) may be any bytes: the
 * report is written as valid UTF-8 whatever they hold, keys and values alike. */
static void repair_strings(cJSON *item)
{
    for (; item != NULL; item = item->next) {
        if (item->string != NULL && !json_valid_utf8(item->string, strlen(item->string))) {
            char *fixed = utf8_repaired(item->string);
            if (fixed != NULL && !(item->type & cJSON_StringIsConst)) {
                cJSON_free(item->string);
                item->string = fixed;
            } else {
                free(fixed);
            }
        }
        if (cJSON_IsString(item) && item->valuestring != NULL &&
            !json_valid_utf8(item->valuestring, strlen(item->valuestring))) {
            char *fixed = utf8_repaired(item->valuestring);
            if (fixed != NULL)
                cJSON_SetValuestring(item, fixed);
            free(fixed);
        }
        repair_strings(item->child);
    }
}

bool report_write(const cJSON *report, const char *path, bool pretty, char *error, unsigned long error_size)
{
    repair_strings((cJSON *)report);
    char *text = pretty ? cJSON_Print(report) : cJSON_PrintUnformatted(report);
    if (text == NULL) {
        snprintf(error, error_size, "out of memory while printing the report");
        return false;
    }
    struct output_file out;
    if (!output_open(&out, path, error, error_size)) {
        free(text);
        return false;
    }
    bool ok = fputs(text, out.file) >= 0 && fputc('\n', out.file) != EOF;
    free(text);
    if (!ok) {
        snprintf(error, error_size, "cannot write %s: %s", out.path[0] ? out.path : "standard output", strerror(errno));
        output_abandon(&out);
        return false;
    }
    if (!output_commit(&out, error, error_size))
        return false;
    return true;
}
