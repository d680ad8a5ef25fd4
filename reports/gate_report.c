#include "gate_report.h"

#include "report_model.h"
#include "text_safe.h"

static const char *str(const cJSON *o, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
    return s ? s : "";
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(n) ? n->valuedouble : 0;
}

cJSON *gate_report_build(const struct gate *g, const struct expectations *e, const char *today,
                         const cJSON *const *devices, size_t count)
{
    cJSON *result = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(result, "devices");
    int failed = 0;
    for (size_t d = 0; d < count; ++d) {
        struct report_identity id = report_identity_of(devices[d]);
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "deviceName", id.device_name);
        cJSON_AddStringToObject(row, "deviceKey", id.device_key);
        cJSON_AddStringToObject(row, "driverName", id.driver_name);
        cJSON_AddStringToObject(row, "driverVersion", id.driver_version);
        cJSON *failures = cJSON_CreateArray(), *expected = cJSON_CreateArray();
        struct gate_expectations ex = {e, today, expected};
        bool ok = gate_evaluate_expected(g, devices[d], &ex, failures);
        cJSON_AddBoolToObject(row, "pass", ok);
        cJSON_AddItemToObject(row, "failures", failures);
        if (e != NULL) {
            cJSON_AddItemToObject(row, "expected", expected);
            expectations_unexpected_passes(e, devices[d], today, cJSON_AddArrayToObject(row, "unexpectedPasses"));
        } else {
            cJSON_Delete(expected);
        }
        cJSON_AddItemToArray(rows, row);
        failed += !ok;
    }
    cJSON_AddNumberToObject(result, "passed", (double)count - failed);
    cJSON_AddNumberToObject(result, "total", (double)count);
    if (e != NULL) {
        cJSON_AddStringToObject(result, "today", today);
        expectations_expired(e, today, cJSON_AddArrayToObject(result, "expired"));
    }
    return result;
}

void gate_report_write_text(const cJSON *result, FILE *out)
{
    char safe[4][512];
    const cJSON *row, *item;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(result, "devices"))
    {
        fprintf(out, "%s %s (%s %s)\n", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "pass")) ? "PASS" : "FAIL",
                text_safe(str(row, "deviceName"), safe[0], sizeof(safe[0])),
                text_safe(str(row, "driverName"), safe[1], sizeof(safe[1])),
                text_safe(str(row, "driverVersion"), safe[2], sizeof(safe[2])));
        cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(row, "failures"))
        {
            fprintf(out, "  %s\n", text_safe(item->valuestring, safe[0], sizeof(safe[0])));
        }
        cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(row, "expected"))
        {
            fprintf(out, "  expected: %s is %s (expectations line %.0f, %s: %s)\n",
                    text_safe(str(item, "test"), safe[0], sizeof(safe[0])),
                    text_safe(str(item, "status"), safe[1], sizeof(safe[1])), num(item, "line"), str(item, "kind"),
                    text_safe(str(item, "reason"), safe[2], sizeof(safe[2])));
        }
        cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(row, "unexpectedPasses"))
        {
            fprintf(out, "  unexpected pass: %s passed, expectations line %.0f expects it to fail (%s)\n",
                    text_safe(str(item, "test"), safe[0], sizeof(safe[0])), num(item, "line"),
                    text_safe(str(item, "reason"), safe[1], sizeof(safe[1])));
        }
    }
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(result, "expired"))
    {
        fprintf(out, "expired: expectations line %.0f (%s %s) ended %s: %s\n", num(item, "line"), str(item, "kind"),
                text_safe(str(item, "test"), safe[0], sizeof(safe[0])), str(item, "until"),
                text_safe(str(item, "reason"), safe[1], sizeof(safe[1])));
    }
}
