#include "junit.h"

#include <stdlib.h>
#include <string.h>

static void xml_text(FILE *out, const char *text)
{
    for (const unsigned char *c = (const unsigned char *)(text ? text : ""); *c; ++c) {
        switch (*c) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        default:
            /* XML 1.0 forbids most control characters even as references */
            if (*c >= 0x20 || *c == '\t' || *c == '\n' || *c == '\r')
                fputc(*c, out);
        }
    }
}

static const char *string_of(const cJSON *o, const char *key)
{
    return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
}

static int count_status(const cJSON *smoke, const char *const *statuses)
{
    int n = 0;
    const cJSON *entry;
    cJSON_ArrayForEach(entry, smoke)
    {
        const char *s = string_of(entry, "status");
        for (const char *const *st = statuses; *st != NULL; ++st)
            n += s != NULL && strcmp(s, *st) == 0;
    }
    return n;
}

static const char *const failure_statuses[] = {"fail", "not_applied", NULL};
static const char *const error_statuses[] = {"crashed", "timeout", "device_lost", NULL};
static const char *const skipped_statuses[] = {"unsupported", "skipped", NULL};

void junit_write(cJSON *const *reports, size_t report_count, FILE *out)
{
    int tests = 0, failures = 0, errors = 0, skipped = 0;
    for (size_t r = 0; r < report_count; ++r) {
        const cJSON *device;
        cJSON_ArrayForEach(device, cJSON_GetObjectItemCaseSensitive(reports[r], "devices"))
        {
            const cJSON *smoke = cJSON_GetObjectItemCaseSensitive(device, "smoke");
            tests += cJSON_GetArraySize(smoke);
            failures += count_status(smoke, failure_statuses);
            errors += count_status(smoke, error_statuses);
            skipped += count_status(smoke, skipped_statuses);
        }
    }
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out, "<testsuites name=\"preflight\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n", tests,
            failures, errors, skipped);
    for (size_t r = 0; r < report_count; ++r) {
        const cJSON *device;
        cJSON_ArrayForEach(device, cJSON_GetObjectItemCaseSensitive(reports[r], "devices"))
        {
            const cJSON *identity = cJSON_GetObjectItemCaseSensitive(device, "identity");
            const cJSON *smoke = cJSON_GetObjectItemCaseSensitive(device, "smoke");
            double seconds = 0;
            const cJSON *entry;
            cJSON_ArrayForEach(entry, smoke)
            {
                seconds += cJSON_GetObjectItemCaseSensitive(entry, "duration_ms")->valuedouble / 1000.0;
            }
            fputs("  <testsuite name=\"", out);
            xml_text(out, string_of(identity, "deviceName"));
            fputs(" (", out);
            xml_text(out, string_of(identity, "driverName"));
            fputc(' ', out);
            xml_text(out, string_of(identity, "driverVersion"));
            fprintf(out, ")\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
                    cJSON_GetArraySize(smoke), count_status(smoke, failure_statuses),
                    count_status(smoke, error_statuses), count_status(smoke, skipped_statuses), seconds);
            fputs("    <properties><property name=\"deviceKey\" value=\"", out);
            xml_text(out, string_of(identity, "deviceKey"));
            fputs("\"/><property name=\"driverInfo\" value=\"", out);
            xml_text(out, string_of(identity, "driverInfo"));
            fputs("\"/></properties>\n", out);
            cJSON_ArrayForEach(entry, smoke)
            {
                const char *id = string_of(entry, "id");
                const char *status = string_of(entry, "status");
                const char *reason = string_of(entry, "reason");
                const char *dot = id ? strchr(id, '.') : NULL;
                fputs("    <testcase classname=\"", out);
                if (dot)
                    fprintf(out, "%.*s", (int)(dot - id), id);
                fputs("\" name=\"", out);
                xml_text(out, id);
                fprintf(out, "\" time=\"%.3f\"",
                        cJSON_GetObjectItemCaseSensitive(entry, "duration_ms")->valuedouble / 1000.0);
                const char *element = NULL;
                for (const char *const *s = failure_statuses; *s && !element; ++s)
                    element = strcmp(status, *s) == 0 ? "failure" : NULL;
                for (const char *const *s = error_statuses; *s && !element; ++s)
                    element = strcmp(status, *s) == 0 ? "error" : NULL;
                for (const char *const *s = skipped_statuses; *s && !element; ++s)
                    element = strcmp(status, *s) == 0 ? "skipped" : NULL;
                if (element == NULL) {
                    fputs("/>\n", out);
                    continue;
                }
                fprintf(out, ">\n      <%s type=\"%s\" message=\"", element, status);
                xml_text(out, status);
                if (reason) {
                    fputs(": ", out);
                    xml_text(out, reason);
                }
                fputs("\">", out);
                char *evidence = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(entry, "evidence"));
                xml_text(out, evidence);
                free(evidence);
                fprintf(out, "</%s>\n    </testcase>\n", element);
            }
            fputs("  </testsuite>\n", out);
        }
    }
    fputs("</testsuites>\n", out);
}
