#include "report.h"

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

bool report_write(const cJSON *report, const char *path, bool pretty, char *error, unsigned long error_size)
{
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
