#include "junit.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report_model.h"

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

static bool status_in(const char *status, const char *const *statuses)
{
    for (const char *const *st = statuses; *st != NULL; ++st)
        if (strcmp(status, *st) == 0)
            return true;
    return false;
}

static int count_status(const cJSON *device, const char *const *statuses)
{
    int n = 0;
    const cJSON *entry;
    REPORT_FOR_EACH_SMOKE(entry, device) n += status_in(report_smoke_of(entry).status, statuses);
    return n;
}

static const char *const failure_statuses[] = {"fail", "not_applied", NULL};
static const char *const error_statuses[] = {"crashed", "timeout", "device_lost", NULL};
static const char *const skipped_statuses[] = {"unsupported", "skipped", NULL};

static void write_case(FILE *out, const struct report_smoke *result)
{
    const char *dot = strchr(result->id, '.');
    fputs("    <testcase classname=\"", out);
    if (dot)
        fprintf(out, "%.*s", (int)(dot - result->id), result->id);
    fputs("\" name=\"", out);
    xml_text(out, result->id);
    fprintf(out, "\" time=\"%.3f\"", result->duration_ms / 1000.0);
    const char *element = status_in(result->status, failure_statuses)   ? "failure"
                          : status_in(result->status, error_statuses)   ? "error"
                          : status_in(result->status, skipped_statuses) ? "skipped"
                                                                        : NULL;
    if (element == NULL) {
        fputs("/>\n", out);
        return;
    }
    fprintf(out, ">\n      <%s type=\"%s\" message=\"", element, result->status);
    xml_text(out, result->status);
    if (result->reason[0] != '\0') {
        fputs(": ", out);
        xml_text(out, result->reason);
    }
    fputs("\">", out);
    char *evidence = result->evidence ? cJSON_PrintUnformatted(result->evidence) : NULL;
    xml_text(out, evidence ? evidence : "null");
    free(evidence);
    fprintf(out, "</%s>\n    </testcase>\n", element);
}

void junit_write(cJSON *const *reports, size_t report_count, FILE *out)
{
    int tests = 0, failures = 0, errors = 0, skipped = 0;
    for (size_t r = 0; r < report_count; ++r) {
        const cJSON *device;
        REPORT_FOR_EACH_DEVICE(device, reports[r])
        {
            tests += (int)report_smoke_count(device);
            failures += count_status(device, failure_statuses);
            errors += count_status(device, error_statuses);
            skipped += count_status(device, skipped_statuses);
        }
    }
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out, "<testsuites name=\"preflight\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\">\n", tests,
            failures, errors, skipped);
    for (size_t r = 0; r < report_count; ++r) {
        const cJSON *device;
        REPORT_FOR_EACH_DEVICE(device, reports[r])
        {
            struct report_identity id = report_identity_of(device);
            double seconds = 0;
            const cJSON *entry;
            REPORT_FOR_EACH_SMOKE(entry, device) seconds += report_smoke_of(entry).duration_ms / 1000.0;
            fputs("  <testsuite name=\"", out);
            xml_text(out, id.device_name);
            fputs(" (", out);
            xml_text(out, id.driver_name);
            fputc(' ', out);
            xml_text(out, id.driver_version);
            fprintf(out, ")\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"%d\" time=\"%.3f\">\n",
                    (int)report_smoke_count(device), count_status(device, failure_statuses),
                    count_status(device, error_statuses), count_status(device, skipped_statuses), seconds);
            fputs("    <properties><property name=\"deviceKey\" value=\"", out);
            xml_text(out, id.device_key);
            fputs("\"/><property name=\"driverInfo\" value=\"", out);
            xml_text(out, id.driver_info);
            fputs("\"/></properties>\n", out);
            REPORT_FOR_EACH_SMOKE(entry, device)
            {
                struct report_smoke result = report_smoke_of(entry);
                write_case(out, &result);
            }
            fputs("  </testsuite>\n", out);
        }
    }
    fputs("</testsuites>\n", out);
}
