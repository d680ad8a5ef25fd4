/* "/": what is not shippable first: the devices whose newest driver fails a test on any machine
 * (the tests named, with the machines), then the machines to look at (lost their GPU, stale, a
 * driver behind the fleet's), then one row per deviceKey, failing and regressed first, with what
 * its newest driver fails over the machines that ran it and what regressed from the driver before
 * (fleet_verdict.h's rule, kept in `drivers`). */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fleet_verdict.h"
#include "html_page.h"
#include "pages.h"

/* A machine whose newest run is older than this is stale. */
#define STALE_DAYS 7

/* The tests the device's newest driver fails on any machine: `failingTests`, each with how many of
 * the machines that ran it fail it and which. */
static bool failing_tests(struct db *db, cJSON *device)
{
    const struct db_param key = DB_TEXT(str(device, "deviceKey"));
    struct db_result *r = db_query(db,
                                   "SELECT t.name, t.verdict, t.machines, t.failing, t.detail, COALESCE(n.runs, 0), "
                                   "COALESCE(n.failures, 0) FROM driver_tests t "
                                   "JOIN devices d ON d.device_key = t.device_key AND t.driver_raw = "
                                   "d.newest_driver_raw LEFT JOIN driver_runs n ON n.device_key = t.device_key AND "
                                   "n.driver_raw = t.driver_raw AND n.name = t.name "
                                   "WHERE t.device_key = ? AND t.kind = 'test' AND t.failing > 0 "
                                   "ORDER BY t.failing = t.machines DESC, t.failing DESC, t.name",
                                   &key, 1);
    if (r == NULL)
        return false;
    cJSON *list = cJSON_AddArrayToObject(device, "failingTests");
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "name", db_result_text(r, i, 0));
        cJSON_AddStringToObject(t, "verdict", db_result_text(r, i, 1));
        cJSON_AddNumberToObject(t, "machines", (double)db_result_int(r, i, 2));
        cJSON_AddNumberToObject(t, "failingMachines", (double)db_result_int(r, i, 3));
        cJSON_AddStringToObject(t, "detail", db_result_text(r, i, 4));
        struct fleet_measure m; /* over every run of the driver (fleet_verdict.h) */
        fleet_measure((int)db_result_int(r, i, 5), (int)db_result_int(r, i, 6), &m);
        cJSON *measured = cJSON_AddObjectToObject(t, "measured");
        cJSON_AddStringToObject(measured, "verdict", m.verdict);
        cJSON_AddNumberToObject(measured, "runs", m.runs);
        cJSON_AddNumberToObject(measured, "failures", m.failures);
        cJSON_AddNumberToObject(measured, "failureRate", m.rate);
        cJSON_AddNumberToObject(measured, "low", m.low);
        cJSON_AddNumberToObject(measured, "high", m.high);
        cJSON_AddItemToArray(list, t);
    }
    db_result_free(r);
    return true;
}

/* The tests the device's newest driver fixed: `fixedTests`, each with what it was before. */
static bool fixed_tests(struct db *db, cJSON *device)
{
    const struct db_param key = DB_TEXT(str(device, "deviceKey"));
    struct db_result *r =
        db_query(db,
                 "SELECT c.name, c.before, c.before_detail, c.after_detail, c.after FROM driver_changes c "
                 "JOIN devices d ON d.device_key = c.device_key AND c.driver_raw = "
                 "d.newest_driver_raw WHERE c.device_key = ? AND c.change = 'fix' ORDER BY c.name",
                 &key, 1);
    if (r == NULL)
        return false;
    cJSON *list = cJSON_AddArrayToObject(device, "fixedTests");
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        cJSON *t = cJSON_CreateObject();
        static const char *const names[] = {"name", "before", "beforeDetail", "afterDetail", "after"};
        for (size_t c = 0; c < 5; ++c)
            cJSON_AddStringToObject(t, names[c], db_result_text(r, i, c));
        cJSON_AddItemToArray(list, t);
    }
    db_result_free(r);
    return true;
}

/* `machinesToLookAt`: machines whose newest run has no Vulkan device (lost), whose newest run is
 * older than STALE_DAYS (stale), and whose newest driver of a device is behind the device's
 * newest driver in the fleet (behind; a lost machine is listed as lost only). */
static bool machines_to_look_at(struct db *db, cJSON *model)
{
    time_t cutoff_time = time(NULL) - (time_t)STALE_DAYS * 86400;
    struct tm tm;
    char cutoff[32];
    gmtime_r(&cutoff_time, &tm);
    strftime(cutoff, sizeof(cutoff), "%Y-%m-%dT%H:%M:%SZ", &tm);
    const struct db_param p = DB_TEXT(cutoff);
    struct db_result *lost = db_query(db,
                                      "SELECT host, last_run, last_upload, last_devices FROM machines "
                                      "WHERE last_devices = 0 OR last_run < ? ORDER BY last_devices, last_run, host",
                                      &p, 1);
    struct db_result *behind =
        lost ? db_query(db,
                        "SELECT m.host, d.device_key, d.device_name, e.driver_version, d.newest_driver, m.run_at "
                        "FROM machine_devices m JOIN devices d ON d.device_key = m.device_key "
                        "JOIN entries e ON e.id = m.entry_id WHERE m.driver_raw < d.newest_driver_raw "
                        "AND m.host NOT IN (SELECT host FROM machines WHERE last_devices = 0) "
                        "ORDER BY m.host, d.device_name",
                        NULL, 0)
             : NULL;
    if (behind == NULL) {
        db_result_free(lost);
        return false;
    }
    cJSON_AddNumberToObject(model, "staleDays", STALE_DAYS);
    cJSON *list = cJSON_AddArrayToObject(model, "machinesToLookAt");
    for (size_t i = 0; i < db_result_rows(lost); ++i) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "host", db_result_text(lost, i, 0));
        cJSON_AddStringToObject(m, "problem", db_result_int(lost, i, 3) == 0 ? "lost" : "stale");
        cJSON_AddStringToObject(m, "lastRun", db_result_text(lost, i, 1));
        cJSON_AddStringToObject(m, "lastUpload", db_result_text(lost, i, 2));
        cJSON_AddItemToArray(list, m);
    }
    for (size_t i = 0; i < db_result_rows(behind); ++i) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "host", db_result_text(behind, i, 0));
        cJSON_AddStringToObject(m, "problem", "behind");
        cJSON_AddStringToObject(m, "deviceKey", db_result_text(behind, i, 1));
        cJSON_AddStringToObject(m, "deviceName", db_result_text(behind, i, 2));
        cJSON_AddStringToObject(m, "driverVersion", db_result_text(behind, i, 3));
        cJSON_AddStringToObject(m, "fleetDriverVersion", db_result_text(behind, i, 4));
        cJSON_AddStringToObject(m, "lastRun", db_result_text(behind, i, 5));
        cJSON_AddItemToArray(list, m);
    }
    db_result_free(lost);
    db_result_free(behind);
    return true;
}

void view_devices(struct db *db, const struct page_request *request, struct view_response *out)
{
    const struct query_args *q = request->query;
    struct filter_sql f;
    long page;
    if (!filter_build(db, q, &f, out) || !view_page_of(q, &page, out)) {
        filter_free(&f);
        return;
    }
    const char *group = query_get(q, "group");
    bool grouped = group != NULL && strcmp(group, "1") == 0; /* by vendor; else what is not shippable first */
    struct buf sql = {0};
    buf_printf(
        &sql,
        "SELECT d.device_key, d.vendor, d.device_name, d.device_type, d.driver_name, d.newest_driver, d.reports, "
        "d.last_upload, d.os, d.api_version, e.report_id, COALESCE(v.machines, 0), COALESCE(v.failing, 0), "
        "COALESCE(v.flaky, 0), COALESCE(v.regressions, 0), COUNT(*) OVER (), "
        "SUM(CASE WHEN v.failing + v.flaky > 0 THEN 1 ELSE 0 END) OVER (), "
        "SUM(CASE WHEN v.regressions > 0 THEN 1 ELSE 0 END) OVER (), COALESCE(v.fixes, 0) "
        "FROM devices d JOIN entries e ON e.id = d.current_entry "
        "LEFT JOIN drivers v ON v.device_key = d.device_key AND v.driver_raw = d.newest_driver_raw "
        "WHERE 1 = 1%s ORDER BY %sd.vendor, d.driver_name, d.device_name, d.device_key LIMIT %d OFFSET %ld",
        f.where.data,
        grouped ? "" : "CASE WHEN COALESCE(v.failing + v.flaky + v.regressions, 0) > 0 THEN 0 ELSE 1 END, ", PAGE_ROWS,
        (page - 1) * PAGE_ROWS);
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
    cJSON_AddBoolToObject(out->model, "grouped", grouped);
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
        cJSON_AddNumberToObject(d, "fixes", (double)db_result_int(r, i, 18));
        if ((db_result_int(r, i, 12) + db_result_int(r, i, 13) > 0 && !failing_tests(db, d)) ||
            (db_result_int(r, i, 18) > 0 && !fixed_tests(db, d))) {
            cJSON_Delete(d);
            db_result_free(r);
            filter_free(&f);
            view_db_failed(out, db);
            return;
        }
        cJSON_AddItemToArray(list, d);
    }
    db_result_free(r);
    filter_free(&f);
    if (!machines_to_look_at(db, out->model)) {
        view_db_failed(out, db);
        return;
    }
    out->status = 200;
}

static void failing_cell(struct buf *b, const cJSON *d)
{
    double failing = num(d, "failing"), flaky = num(d, "flaky");
    if (failing + flaky == 0) {
        buf_add(b, "<td class=\"number pass\">0</td>");
        return;
    }
    buf_printf(b, "<td class=\"number fail\">%.0f", failing + flaky);
    if (flaky > 0) /* failing on some machines is failing: not the benign word "flaky" */
        buf_printf(b, " <span class=\"flaky\">(%.0f on some machines)</span>", flaky);
    buf_add(b, "</td>");
}

/* "vrs.attachment fails on 2 of 3 machines: fail on 2 of 3 machines: farm-a, farm-b" */
static void failing_test_line(struct buf *b, const cJSON *t)
{
    buf_add(b, "<li><code>");
    buf_escape(b, str(t, "name"));
    buf_add(b, "</code> <span class=\"fail\">");
    double failing = num(t, "failingMachines"), machines = num(t, "machines");
    if (failing == machines && machines == 1)
        buf_add(b, "fails on its 1 machine");
    else if (failing == machines)
        buf_printf(b, "fails on every machine (%.0f)", machines);
    else
        buf_printf(b, "fails on %.0f of %.0f machines", failing, machines);
    buf_add(b, "</span> <span class=\"muted\">");
    buf_escape(b, str(t, "detail"));
    const cJSON *measured = cJSON_GetObjectItemCaseSensitive(t, "measured");
    if (num(measured, "runs") > 0) {
        struct fleet_measure m;
        fleet_measure((int)num(measured, "runs"), (int)num(measured, "failures"), &m);
        char text[160];
        fleet_measure_text(&m, text, sizeof(text));
        buf_add(b, "; ");
        buf_escape(b, text);
    }
    buf_add(b, "</span></li>");
}

/* Above the table: the devices not shippable on their newest driver, the tests their newest driver
 * fixed, then the machines to look at. */
static void not_shippable(const cJSON *m, struct buf *b)
{
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(m, "devices"), *d;
    bool any = false;
    cJSON_ArrayForEach(d, devices)
    {
        const cJSON *tests = cJSON_GetObjectItemCaseSensitive(d, "failingTests"), *t;
        if (cJSON_GetArraySize(tests) == 0)
            continue;
        if (!any)
            buf_add(b, "<section class=\"card\" id=\"not-shippable\"><h2>Not shippable: failing on their newest "
                       "driver</h2><ul>");
        any = true;
        buf_add(b, "<li>");
        html_link_device(b, str(d, "deviceKey"), str(d, "deviceName"));
        buf_add(b, " <span class=\"muted\">");
        buf_escape(b, str(d, "newestDriver"));
        buf_add(b, " · ");
        html_count(b, num(d, "machines"), "machine", "machines");
        buf_add(b, "</span><ul>");
        cJSON_ArrayForEach(t, tests) failing_test_line(b, t);
        buf_add(b, "</ul></li>");
    }
    if (any)
        buf_add(b, "</ul></section>");
    bool fixed = false;
    cJSON_ArrayForEach(d, devices)
    {
        const cJSON *tests = cJSON_GetObjectItemCaseSensitive(d, "fixedTests"), *t;
        if (cJSON_GetArraySize(tests) == 0)
            continue;
        if (!fixed)
            buf_add(b, "<section class=\"card\" id=\"fixed\"><h2>Fixed on their newest driver</h2><ul>");
        fixed = true;
        buf_add(b, "<li>");
        html_link_device(b, str(d, "deviceKey"), str(d, "deviceName"));
        buf_add(b, " <span class=\"muted\">");
        buf_escape(b, str(d, "newestDriver"));
        buf_add(b, "</span><ul>");
        cJSON_ArrayForEach(t, tests)
        {
            buf_add(b, "<li><code>");
            buf_escape(b, str(t, "name"));
            buf_add(b, "</code> ");
            html_verdict(b, str(t, "after"));
            buf_add(b, " <span class=\"muted\">");
            buf_escape(b, str(t, "afterDetail"));
            buf_add(b, "; was ");
            buf_escape(b, str(t, "before"));
            buf_add(b, ": ");
            buf_escape(b, str(t, "beforeDetail"));
            buf_add(b, "</span></li>");
        }
        buf_add(b, "</ul></li>");
    }
    if (fixed)
        buf_add(b, "</ul></section>");
    const cJSON *machines = cJSON_GetObjectItemCaseSensitive(m, "machinesToLookAt"), *x;
    if (cJSON_GetArraySize(machines) == 0)
        return;
    buf_add(b, "<section class=\"card\" id=\"machines-to-look-at\"><h2>Machines to look at</h2><ul>");
    cJSON_ArrayForEach(x, machines)
    {
        buf_add(b, "<li>");
        html_link_machine(b, str(x, "host"));
        const char *problem = str(x, "problem");
        if (strcmp(problem, "lost") == 0) {
            buf_add(b, " <span class=\"fail\">no Vulkan device</span> in its newest run (");
            buf_escape(b, str(x, "lastRun"));
            buf_add(b, "): it lost its GPU, its driver or its ICD");
        } else if (strcmp(problem, "stale") == 0) {
            buf_printf(b, " <span class=\"fail\">stale</span>: no run for over %.0f days (newest run ",
                       num(m, "staleDays"));
            buf_escape(b, str(x, "lastRun"));
            buf_add(b, ", last upload ");
            buf_escape(b, str(x, "lastUpload"));
            buf_add(b, ")");
        } else {
            buf_add(b, " <span class=\"fail\">behind</span>: ");
            html_link_device(b, str(x, "deviceKey"), str(x, "deviceName"));
            buf_add(b, " on ");
            buf_escape(b, str(x, "driverVersion"));
            buf_add(b, " where the fleet has ");
            buf_escape(b, str(x, "fleetDriverVersion"));
        }
        buf_add(b, "</li>");
    }
    buf_add(b, "</ul></section>");
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
    not_shippable(m, b);
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
