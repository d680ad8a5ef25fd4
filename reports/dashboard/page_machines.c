/* "/machines" and "/machines/<host>": the farm by machine (the report's host label): what each
 * one ran last, and a machine whose newest report has no Vulkan device (it lost its GPU or its
 * driver) said plainly, with the devices it had before. Reports without a host label are the
 * machine "-". */
#include <stdio.h>
#include <string.h>

#include "html_page.h"
#include "pages.h"

void view_machines(struct db *db, const struct page_request *request, struct view_response *out)
{
    (void)request;
    struct db_result *r = db_query(db,
                                   "SELECT m.host, m.reports, m.first_upload, m.last_upload, m.last_report, "
                                   "m.last_devices, (SELECT COUNT(*) FROM machine_devices d WHERE d.host = m.host) "
                                   "FROM machines m ORDER BY CASE WHEN m.last_devices = 0 THEN 0 ELSE 1 END, m.host",
                                   NULL, 0);
    if (r == NULL) {
        view_db_failed(out, db);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "machines");
    cJSON *list = cJSON_AddArrayToObject(out->model, "machines");
    int without = 0;
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "host", db_result_text(r, i, 0));
        cJSON_AddNumberToObject(m, "reports", (double)db_result_int(r, i, 1));
        cJSON_AddStringToObject(m, "firstUpload", db_result_text(r, i, 2));
        cJSON_AddStringToObject(m, "lastUpload", db_result_text(r, i, 3));
        cJSON_AddNumberToObject(m, "newestReport", (double)db_result_int(r, i, 4));
        cJSON_AddNumberToObject(m, "newestReportDevices", (double)db_result_int(r, i, 5));
        cJSON_AddNumberToObject(m, "devicesSeen", (double)db_result_int(r, i, 6));
        without += db_result_int(r, i, 5) == 0;
        cJSON_AddItemToArray(list, m);
    }
    cJSON_AddNumberToObject(out->model, "withoutDevice", without);
    db_result_free(r);
    out->status = 200;
}

void view_machine(struct db *db, const struct page_request *request, struct view_response *out)
{
    const char *host = request->part[0];
    const struct db_param p = DB_TEXT(host);
    struct db_result *r = db_query(db,
                                   "SELECT host, reports, first_upload, last_upload, last_report, last_devices "
                                   "FROM machines WHERE host = ?",
                                   &p, 1);
    if (r != NULL && db_result_rows(r) == 0 && strcmp(host, "-") == 0) { /* the reports without a host label */
        db_result_free(r);
        const struct db_param none = DB_TEXT("");
        r = db_query(db,
                     "SELECT host, reports, first_upload, last_upload, last_report, last_devices FROM machines "
                     "WHERE host = ?",
                     &none, 1);
    }
    if (r == NULL) {
        view_db_failed(out, db);
        return;
    }
    if (db_result_rows(r) == 0) {
        db_result_free(r);
        view_fail(out, 404, "no machine '%.100s' has uploaded a report", host);
        return;
    }
    const struct db_param key = DB_TEXT(db_result_text(r, 0, 0));
    struct db_result *devices = db_query(db,
                                         "SELECT m.device_key, d.device_name, e.driver_version, e.report_id, "
                                         "m.last_upload, e.tests_passed, e.tests_failed, COALESCE(v.failing, 0), "
                                         "COALESCE(v.flaky, 0), COALESCE(v.machines, 0) FROM machine_devices m "
                                         "JOIN devices d ON d.device_key = m.device_key JOIN entries e ON e.id = "
                                         "m.entry_id LEFT JOIN drivers v ON v.device_key = m.device_key AND "
                                         "v.driver_raw = m.driver_raw WHERE m.host = ? ORDER BY d.device_name",
                                         &key, 1);
    struct db_result *reports =
        devices
            ? db_query(db,
                       "SELECT id, uploaded, devices, created FROM reports WHERE host = ? ORDER BY id DESC LIMIT 50",
                       &key, 1)
            : NULL;
    if (reports == NULL) {
        db_result_free(r);
        db_result_free(devices);
        view_db_failed(out, db);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "machine");
    cJSON_AddStringToObject(out->model, "title",
                            *db_result_text(r, 0, 0) ? db_result_text(r, 0, 0) : "(no host label)");
    cJSON_AddStringToObject(out->model, "host", db_result_text(r, 0, 0));
    cJSON_AddNumberToObject(out->model, "reports", (double)db_result_int(r, 0, 1));
    cJSON_AddStringToObject(out->model, "firstUpload", db_result_text(r, 0, 2));
    cJSON_AddStringToObject(out->model, "lastUpload", db_result_text(r, 0, 3));
    cJSON_AddNumberToObject(out->model, "newestReport", (double)db_result_int(r, 0, 4));
    cJSON_AddNumberToObject(out->model, "newestReportDevices", (double)db_result_int(r, 0, 5));
    cJSON_AddBoolToObject(out->model, "noVulkanDevice", db_result_int(r, 0, 5) == 0);
    db_result_free(r);
    cJSON *list = cJSON_AddArrayToObject(out->model, "devices");
    for (size_t i = 0; i < db_result_rows(devices); ++i) {
        cJSON *d = cJSON_CreateObject();
        static const char *const texts[] = {"deviceKey", "deviceName", "driverVersion"};
        for (size_t c = 0; c < 3; ++c)
            cJSON_AddStringToObject(d, texts[c], db_result_text(devices, i, c));
        cJSON_AddNumberToObject(d, "report", (double)db_result_int(devices, i, 3));
        cJSON_AddStringToObject(d, "lastUpload", db_result_text(devices, i, 4));
        cJSON_AddNumberToObject(d, "testsPassed", (double)db_result_int(devices, i, 5));
        cJSON_AddNumberToObject(d, "testsFailed", (double)db_result_int(devices, i, 6));
        /* the driver over all its machines */
        cJSON_AddNumberToObject(d, "driverFailing",
                                (double)(db_result_int(devices, i, 7) + db_result_int(devices, i, 8)));
        cJSON_AddNumberToObject(d, "driverMachines", (double)db_result_int(devices, i, 9));
        cJSON_AddItemToArray(list, d);
    }
    db_result_free(devices);
    cJSON *recent = cJSON_AddArrayToObject(out->model, "recentReports");
    for (size_t i = 0; i < db_result_rows(reports); ++i) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "report", (double)db_result_int(reports, i, 0));
        cJSON_AddStringToObject(e, "uploaded", db_result_text(reports, i, 1));
        cJSON_AddNumberToObject(e, "devices", (double)db_result_int(reports, i, 2));
        cJSON_AddStringToObject(e, "created", db_result_text(reports, i, 3));
        cJSON_AddItemToArray(recent, e);
    }
    db_result_free(reports);
    out->status = 200;
}

void html_machines(const cJSON *m, const struct page_context *c, struct buf *b)
{
    (void)c;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(m, "machines");
    buf_add(b, "<h1>Machines</h1><p>");
    html_count(b, (double)cJSON_GetArraySize(list), "machine", "machines");
    buf_add(b, " (by the host label of their reports)");
    if (num(m, "withoutDevice") > 0) {
        buf_add(b, "; <b class=\"fail\">");
        html_count(b, num(m, "withoutDevice"), "machine's", "machines'");
        buf_add(b, " newest report has no Vulkan device</b>, listed first");
    }
    buf_add(b, ".</p><p><input placeholder=\"filter machines\" data-filter=\"#machines tbody tr\"></p>"
               "<table class=\"sortable\" id=\"machines\"><thead><tr><th>machine</th><th>devices seen</th>"
               "<th>newest report</th><th>reports</th><th>last upload</th></tr></thead><tbody>");
    const cJSON *machine;
    cJSON_ArrayForEach(machine, list)
    {
        bool none = num(machine, "newestReportDevices") == 0;
        buf_printf(b, "<tr%s><td>", none ? " class=\"regression\"" : "");
        html_link_machine(b, str(machine, "host"));
        buf_printf(b, "</td><td class=\"number\">%.0f</td><td>", num(machine, "devicesSeen"));
        char id[48];
        snprintf(id, sizeof(id), "%.0f", num(machine, "newestReport"));
        html_link_report(b, num(machine, "newestReport"), id);
        if (none)
            buf_add(b, " <b class=\"fail\">no Vulkan device</b>");
        buf_printf(b, "</td><td class=\"number\">%.0f</td><td>", num(machine, "reports"));
        buf_escape(b, str(machine, "lastUpload"));
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table>");
}

void html_machine(const cJSON *m, const struct page_context *c, struct buf *b)
{
    (void)c;
    buf_add(b, "<h1>Machine ");
    buf_escape(b, *str(m, "host") ? str(m, "host") : "(no host label)");
    buf_add(b, "</h1><p>");
    html_count(b, num(m, "reports"), "report", "reports");
    buf_add(b, " from ");
    buf_escape(b, str(m, "firstUpload"));
    buf_add(b, " to ");
    buf_escape(b, str(m, "lastUpload"));
    buf_add(b, "; newest ");
    char id[48];
    snprintf(id, sizeof(id), "report %.0f", num(m, "newestReport"));
    html_link_report(b, num(m, "newestReport"), id);
    buf_add(b, ".</p>");
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(m, "devices");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "noVulkanDevice"))) {
        buf_add(b, "<p class=\"warning no-device\"><b>No Vulkan device</b> in the newest report (");
        html_link_report(b, num(m, "newestReport"), id);
        buf_add(b, ", uploaded ");
        buf_escape(b, str(m, "lastUpload"));
        buf_add(b, "): the machine lost its GPU, its driver or its ICD.");
        if (cJSON_GetArraySize(devices) > 0)
            buf_add(b, " The devices below are what it reported before.");
        buf_add(b, "</p>");
    }
    buf_add(b, "<h2>Devices</h2><table class=\"sortable\" id=\"machine-devices\"><thead><tr><th>device</th>"
               "<th>driver</th><th>newest report here</th><th>failed here</th><th>the driver over its machines</th>"
               "<th>last upload</th></tr></thead><tbody>");
    const cJSON *d;
    cJSON_ArrayForEach(d, devices)
    {
        buf_add(b, "<tr><td>");
        html_link_device(b, str(d, "deviceKey"), str(d, "deviceName"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "driverVersion"));
        buf_add(b, "</td><td>");
        snprintf(id, sizeof(id), "%.0f", num(d, "report"));
        html_link_report(b, num(d, "report"), id);
        buf_printf(b, "</td><td class=\"number%s\">%.0f</td><td>", num(d, "testsFailed") > 0 ? " fail" : "",
                   num(d, "testsFailed"));
        if (num(d, "driverFailing") > 0)
            buf_printf(b, "<span class=\"fail\">%.0f failing</span>", num(d, "driverFailing"));
        else
            buf_add(b, "<span class=\"pass\">all pass</span>");
        buf_add(b, " on ");
        html_count(b, num(d, "driverMachines"), "machine", "machines");
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "lastUpload"));
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table><h2>Recent reports</h2><table class=\"sortable\"><thead><tr><th>report</th>"
               "<th>devices</th><th>probed</th><th>uploaded</th></tr></thead><tbody>");
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(m, "recentReports"))
    {
        snprintf(id, sizeof(id), "%.0f", num(e, "report"));
        buf_add(b, "<tr><td>");
        html_link_report(b, num(e, "report"), id);
        if (num(e, "devices") == 0)
            buf_add(b, "</td><td class=\"fail\">no Vulkan device</td><td>");
        else
            buf_printf(b, "</td><td class=\"number\">%.0f</td><td>", num(e, "devices"));
        buf_escape(b, str(e, "created"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(e, "uploaded"));
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table>");
}
