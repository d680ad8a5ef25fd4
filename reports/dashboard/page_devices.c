/* "/": one row per deviceKey, with what its newest driver fails over the machines that ran it and
 * what regressed from the driver before (fleet_verdict.h's rule, kept in `drivers`). */
#include <stdio.h>
#include <string.h>

#include "html_page.h"
#include "pages.h"

void view_devices(struct db *db, const struct page_request *request, struct view_response *out)
{
    const struct query_args *q = request->query;
    struct filter_sql f;
    long page;
    if (!filter_build(db, q, &f, out) || !view_page_of(q, &page, out)) {
        filter_free(&f);
        return;
    }
    struct buf sql = {0};
    buf_printf(
        &sql,
        "SELECT d.device_key, d.vendor, d.device_name, d.device_type, d.driver_name, d.newest_driver, d.reports, "
        "d.last_upload, d.os, d.api_version, e.report_id, COALESCE(v.machines, 0), COALESCE(v.failing, 0), "
        "COALESCE(v.flaky, 0), COALESCE(v.regressions, 0), COUNT(*) OVER (), "
        "SUM(CASE WHEN v.failing + v.flaky > 0 THEN 1 ELSE 0 END) OVER (), "
        "SUM(CASE WHEN v.regressions > 0 THEN 1 ELSE 0 END) OVER () "
        "FROM devices d JOIN entries e ON e.id = d.current_entry "
        "LEFT JOIN drivers v ON v.device_key = d.device_key AND v.driver_raw = d.newest_driver_raw "
        "WHERE 1 = 1%s ORDER BY d.vendor, d.driver_name, d.device_name, d.device_key LIMIT %d OFFSET %ld",
        f.where.data, PAGE_ROWS, (page - 1) * PAGE_ROWS);
    struct db_result *r = sql.failed ? NULL : db_query_dynamic(db, sql.data, f.params, f.count);
    buf_free(&sql);
    if (r == NULL) {
        view_db_failed(out, db);
        filter_free(&f);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "devices");
    filter_into_model(&f, out->model);
    bool any = db_result_rows(r) > 0;
    cJSON_AddNumberToObject(out->model, "total", any ? (double)db_result_int(r, 0, 15) : 0);
    cJSON_AddNumberToObject(out->model, "devicesFailing", any ? (double)db_result_int(r, 0, 16) : 0);
    cJSON_AddNumberToObject(out->model, "devicesRegressed", any ? (double)db_result_int(r, 0, 17) : 0);
    cJSON_AddNumberToObject(out->model, "page", (double)page);
    cJSON_AddNumberToObject(out->model, "page_rows", PAGE_ROWS);
    const char *group = query_get(q, "group");
    cJSON_AddBoolToObject(out->model, "grouped", group != NULL && strcmp(group, "1") == 0);
    cJSON *list = cJSON_AddArrayToObject(out->model, "devices");
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        cJSON *d = cJSON_CreateObject();
        static const char *const names[] = {"deviceKey",  "vendor",     "deviceName",
                                            "deviceType", "driverName", "newestDriver"};
        for (size_t c = 0; c < 6; ++c)
            cJSON_AddStringToObject(d, names[c], db_result_text(r, i, c));
        cJSON_AddNumberToObject(d, "reports", (double)db_result_int(r, i, 6));
        cJSON_AddStringToObject(d, "lastUpload", db_result_text(r, i, 7));
        cJSON_AddStringToObject(d, "os", db_result_text(r, i, 8));
        cJSON_AddStringToObject(d, "apiVersion", db_result_text(r, i, 9));
        cJSON_AddNumberToObject(d, "newestReport", (double)db_result_int(r, i, 10));
        /* the newest driver, over every machine's newest report of it */
        cJSON_AddNumberToObject(d, "machines", (double)db_result_int(r, i, 11));
        cJSON_AddNumberToObject(d, "failing", (double)db_result_int(r, i, 12));
        cJSON_AddNumberToObject(d, "flaky", (double)db_result_int(r, i, 13));
        cJSON_AddNumberToObject(d, "regressions", (double)db_result_int(r, i, 14));
        cJSON_AddItemToArray(list, d);
    }
    db_result_free(r);
    out->status = 200;
    filter_free(&f);
}

static void failing_cell(struct buf *b, const cJSON *d)
{
    double failing = num(d, "failing"), flaky = num(d, "flaky");
    if (failing + flaky == 0) {
        buf_add(b, "<td class=\"number pass\">0</td>");
        return;
    }
    buf_printf(b, "<td class=\"number fail\">%.0f", failing + flaky);
    if (flaky > 0)
        buf_printf(b, " <span class=\"flaky\">(%.0f flaky)</span>", flaky);
    buf_add(b, "</td>");
}

static void grouped(const cJSON *devices, struct buf *b)
{
    char vendor[128] = "\x01", driver[128] = "\x01";
    const cJSON *d;
    cJSON_ArrayForEach(d, devices)
    {
        if (strcmp(vendor, str(d, "vendor")) != 0) {
            if (vendor[0] != '\x01')
                buf_add(b, "</ul></details></details>");
            snprintf(vendor, sizeof(vendor), "%s", str(d, "vendor"));
            driver[0] = '\x01';
            buf_add(b, "<details open class=\"vendor\"><summary>");
            buf_escape(b, vendor);
            buf_add(b, "</summary>");
        }
        if (strcmp(driver, str(d, "driverName")) != 0) {
            if (driver[0] != '\x01')
                buf_add(b, "</ul></details>");
            snprintf(driver, sizeof(driver), "%s", str(d, "driverName"));
            buf_add(b, "<details open class=\"driver\" style=\"margin-left:16px\"><summary>");
            buf_escape(b, driver);
            buf_add(b, "</summary><ul>");
        }
        buf_add(b, "<li>");
        html_link_device(b, str(d, "deviceKey"), str(d, "deviceName"));
        buf_add(b, " <span class=\"muted\">");
        buf_escape(b, str(d, "newestDriver"));
        buf_add(b, " · ");
        html_count(b, num(d, "reports"), "report", "reports");
        buf_add(b, "</span>");
        if (num(d, "failing") + num(d, "flaky") > 0)
            buf_printf(b, " <span class=\"fail\">%.0f failing</span>", num(d, "failing") + num(d, "flaky"));
        if (num(d, "regressions") > 0) {
            buf_add(b, " <span class=\"fail\">");
            html_count(b, num(d, "regressions"), "regression", "regressions");
            buf_add(b, "</span>");
        }
        buf_add(b, "</li>");
    }
    if (vendor[0] != '\x01')
        buf_add(b, "</ul></details></details>");
}

void html_devices(const cJSON *m, const struct page_context *c, struct buf *b)
{
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(m, "devices");
    buf_add(b, "<h1>Devices</h1><div class=\"stats\"><div class=\"stat\"><b>");
    buf_printf(b, "%.0f</b>devices</div>", num(m, "total"));
    buf_printf(b, "<div class=\"stat%s\"><b>%.0f</b>failing a test on their newest driver</div>",
               num(m, "devicesFailing") > 0 ? " bad" : "", num(m, "devicesFailing"));
    buf_printf(b,
               "<div class=\"stat%s\"><b>%.0f</b><a href=\"/regressions?newest=1\">regressed</a> on their newest "
               "driver</div></div>",
               num(m, "devicesRegressed") > 0 ? " bad" : "", num(m, "devicesRegressed"));
    if (num(m, "total") > cJSON_GetArraySize(devices)) {
        buf_printf(b, "<p>Page %.0f shows %d; <a href=\"?page=%.0f", num(m, "page"), cJSON_GetArraySize(devices),
                   num(m, "page") + 1);
        html_query_suffix(b, c->query, false);
        buf_add(b, "\">next page</a></p>");
    }
    html_filter_form(b, m, "/");
    bool group = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "grouped"));
    buf_printf(b, "<p><a href=\"/?group=%d", group ? 0 : 1);
    html_query_suffix(b, c->query, false);
    buf_printf(b, "\">%s</a></p>", group ? "show as one table" : "group by vendor, then driver, then GPU");
    if (group) {
        grouped(devices, b);
        return;
    }
    buf_add(b, "<table class=\"sortable\" id=\"devices\"><thead><tr><th>vendor</th><th>device</th><th>type</th>"
               "<th>driver stack</th><th>newest driver</th><th>machines</th><th>failing</th><th>regressions</th>"
               "<th>API</th><th>OS</th><th>reports</th><th>last upload</th></tr></thead><tbody>");
    const cJSON *d;
    cJSON_ArrayForEach(d, devices)
    {
        buf_printf(b, "<tr%s><td class=\"short\">", num(d, "regressions") > 0 ? " class=\"regression\"" : "");
        buf_escape(b, str(d, "vendor"));
        buf_add(b, "</td><td>");
        html_link_device(b, str(d, "deviceKey"), str(d, "deviceName"));
        buf_add(b, "</td><td class=\"short\">");
        const char *type = str(d, "deviceType");
        buf_escape(b, type + (strncmp(type, "VK_PHYSICAL_DEVICE_TYPE_", 24) == 0 ? 24 : 0));
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "driverName"));
        buf_add(b, "</td><td class=\"short\">");
        html_link_report(b, num(d, "newestReport"), str(d, "newestDriver"));
        buf_printf(b, "</td><td class=\"number\">%.0f</td>", num(d, "machines"));
        failing_cell(b, d);
        buf_printf(b, "<td class=\"number%s\">%.0f</td><td class=\"short\">", num(d, "regressions") > 0 ? " fail" : "",
                   num(d, "regressions"));
        buf_escape(b, str(d, "apiVersion"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "os"));
        buf_printf(b, "</td><td class=\"number\">%.0f</td><td class=\"short\">", num(d, "reports"));
        buf_escape(b, str(d, "lastUpload"));
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table>");
}
