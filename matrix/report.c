#include "report.h"

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

bool report_write(const cJSON *report, const char *path, bool pretty, char *error, unsigned long error_size)
{
    char *text = pretty ? cJSON_Print(report) : cJSON_PrintUnformatted(report);
    if (text == NULL) {
        snprintf(error, error_size, "out of memory while printing the report");
        return false;
    }
    bool to_stdout = strcmp(path, "-") == 0;
    /* Write to a temporary name and rename, so a reader never sees half a report. */
    char temporary[4096];
    FILE *out = stdout;
    if (!to_stdout) {
        snprintf(temporary, sizeof(temporary), "%s.partial", path);
        out = fopen(temporary, "w");
        if (out == NULL) {
            snprintf(error, error_size, "cannot open %s: %s", temporary, strerror(errno));
            free(text);
            return false;
        }
    }
    bool ok = fputs(text, out) >= 0 && fputc('\n', out) != EOF;
    ok = (to_stdout ? fflush(out) == 0 : fclose(out) == 0) && ok;
    free(text);
    if (!ok) {
        snprintf(error, error_size, "cannot write %s: %s", to_stdout ? "standard output" : temporary, strerror(errno));
        if (!to_stdout)
            remove(temporary);
        return false;
    }
    if (!to_stdout && rename(temporary, path) != 0) {
        snprintf(error, error_size, "cannot rename %s to %s: %s", temporary, path, strerror(errno));
        remove(temporary);
        return false;
    }
    return true;
}
