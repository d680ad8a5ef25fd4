/* "/devices/<deviceKey>": the device's drivers, newest first, each with its verdicts combined over
 * the machines that ran it, what changed from the driver before (tests by the fleet's rule, the
 * declared values by diffing the two drivers' newest reports), its machines and its reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "first_bad.h"
#include "fleet_verdict.h"
#include "html_page.h"
#include "items.h"
#include "pages.h"

#define HISTORY_DRIVERS 12 /* driver changes whose declared values are diffed, unless ?all=1 */
#define DEVICE_REPORTS 500 /* reports listed, newest first */

static cJSON *change_json(const struct diff_change *c)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "kind", c->kind);
    cJSON_AddStringToObject(j, "what", c->what);
    cJSON_AddStringToObject(j, "before", c->before);
    cJSON_AddStringToObject(j, "after", c->after);
    cJSON_AddBoolToObject(j, "regression", c->regression);
    if (c->flags) {
        cJSON_AddStringToObject(j, "lost", c->lost);
        cJSON_AddStringToObject(j, "gained", c->gained);
    }
    return j;
}

static cJSON *find_driver(cJSON *drivers, double raw)
{
    cJSON *d;
    cJSON_ArrayForEach(d, drivers) if (num(d, "driverRaw") == raw) return d;
    return NULL;
}

static cJSON *measure_json(const char *test, int runs, int failures)
{
    struct fleet_measure m;
    fleet_measure(runs, failures, &m);
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "test", test);
    cJSON_AddStringToObject(j, "verdict", m.verdict);
    cJSON_AddNumberToObject(j, "runs", m.runs);
    cJSON_AddNumberToObject(j, "failures", m.failures);
    cJSON_AddNumberToObject(j, "failureRate", m.rate);
    cJSON_AddNumberToObject(j, "low", m.low);
    cJSON_AddNumberToObject(j, "high", m.high);
    return j;
}

/* Per driver, every test's runs over every report and the verdict with a confidence
 * (fleet_verdict.h): `measured` and the count of each verdict in `measuredCounts`; a test that
 * does not pass gets its own beside it. */
static bool add_measured(struct db *db, const struct db_param *key, cJSON *drivers)
{
    struct db_result *r = db_query(db,
                                   "SELECT driver_raw, name, runs, failures FROM driver_runs WHERE device_key = ? "
                                   "ORDER BY driver_raw, name",
                                   key, 1);
    if (r == NULL)
        return false;
    cJSON *d;
    cJSON_ArrayForEach(d, drivers)
    {
        cJSON_AddArrayToObject(d, "measured");
        cJSON *counts = cJSON_AddObjectToObject(d, "measuredCounts");
        static const char *const verdicts[] = {"pass", "fail", "flaky", "unknown"};
        for (size_t v = 0; v < 4; ++v)
            cJSON_AddNumberToObject(counts, verdicts[v], 0);
    }
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        d = find_driver(drivers, (double)db_result_int(r, i, 0));
        if (d == NULL)
            continue;
        cJSON *m = measure_json(db_result_text(r, i, 1), (int)db_result_int(r, i, 2), (int)db_result_int(r, i, 3));
        cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(d, "measured"), m);
        cJSON *count =
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(d, "measuredCounts"), str(m, "verdict"));
        if (count)
            cJSON_SetNumberValue(count, count->valuedouble + 1);
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(d, "notPassing"))
        {
            if (strcmp(str(t, "test"), str(m, "test")) == 0)
                cJSON_AddItemToObject((cJSON *)t, "measured", cJSON_Duplicate(m, true));
        }
    }
    db_result_free(r);
    return true;
}

/* The test changes (each regression with its first bad driver) and the tests that do not pass, per driver. */
static bool add_tests(struct db *db, const struct db_param *key, cJSON *drivers)
{
    bool ok = true;
    struct first_bad fb = {.bad_raw = -1};
    struct db_result *r = db_query(db,
                                   "SELECT driver_raw, name, change, before, after, before_detail, after_detail "
                                   "FROM driver_changes WHERE device_key = ? ORDER BY driver_raw, CASE change WHEN "
                                   "'regression' THEN 0 WHEN 'fix' THEN 1 ELSE 2 END, name",
                                   key, 1);
    if (r == NULL)
        return false;
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        cJSON *d = find_driver(drivers, (double)db_result_int(r, i, 0));
        if (d == NULL)
            continue;
        cJSON *c = cJSON_CreateObject();
        static const char *const names[] = {"test", "change", "before", "after", "beforeDetail", "afterDetail"};
        for (size_t k = 0; k < 6; ++k)
            cJSON_AddStringToObject(c, names[k], db_result_text(r, i, 1 + k));
        cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(d, "changes"), c); /* regressions, fixes, the rest */
        if (!ok || strcmp(db_result_text(r, i, 2), "regression") != 0)
            continue;
        if (fb.drivers == NULL || fb.bad_raw != db_result_int(r, i, 0)) { /* the rows come by driver */
            first_bad_release(&fb);
            ok = first_bad_prepare(db, key[0].text, db_result_int(r, i, 0),
                                   cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "driverVersion")), &fb);
        }
        if (ok)
            first_bad_describe(&fb, db_result_text(r, i, 1), c);
    }
    first_bad_release(&fb);
    db_result_free(r);
    if (!ok)
        return false;
    r = db_query(db,
                 "SELECT driver_raw, name, verdict, detail, machines, passing, failing FROM driver_tests "
                 "WHERE device_key = ? AND kind = 'test' AND verdict <> 'pass' ORDER BY driver_raw, name",
                 key, 1);
    if (r == NULL)
        return false;
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        cJSON *d = find_driver(drivers, (double)db_result_int(r, i, 0));
        if (d == NULL || !items_verdict_failing(db_result_text(r, i, 2)))
            continue;
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "test", db_result_text(r, i, 1));
        cJSON_AddStringToObject(t, "verdict", db_result_text(r, i, 2));
        cJSON_AddStringToObject(t, "detail", db_result_text(r, i, 3));
        cJSON_AddNumberToObject(t, "machines", (double)db_result_int(r, i, 4));
        cJSON_AddNumberToObject(t, "failing", (double)db_result_int(r, i, 6));
        cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(d, "notPassing"), t);
    }
    db_result_free(r);
    return add_measured(db, key, drivers);
}

/* What the declared values did between consecutive drivers (their newest reports): the smoke
 * verdicts are left to the fleet's rule above. */
static void add_declared_changes(struct db *db, cJSON *drivers, size_t limit, struct view_response *out)
{
    int count = cJSON_GetArraySize(drivers);
    cJSON *after = NULL;
    int after_index = 0;
    for (int i = 0; i < count && (size_t)i <= limit; ++i) {
        cJSON *d = cJSON_GetArrayItem(drivers, i);
        cJSON *report = view_load_report(db, (int64_t)num(d, "newestReport"), out);
        if (report == NULL)
            break;
        int index = (int)num(d, "deviceIndex");
        if (after != NULL) {
            cJSON *later = cJSON_GetArrayItem(drivers, i - 1);
            struct diff changes = {0};
            diff_devices(view_device_of(report, index), view_device_of(after, after_index), &changes);
            cJSON *list = cJSON_AddArrayToObject(later, "declaredChanges");
            for (int pass = 0; pass < 2; ++pass) /* regressions first */
                for (size_t c = 0; c < changes.count; ++c)
                    if (changes.changes[c].regression == (pass == 0) && strcmp(changes.changes[c].kind, "smoke") != 0)
                        cJSON_AddItemToArray(list, change_json(&changes.changes[c]));
            diff_free(&changes);
        }
        cJSON_Delete(after);
        after = report;
        after_index = index;
    }
    cJSON_Delete(after);
}

void view_device(struct db *db, const struct page_request *request, struct view_response *out)
{
    const char *device_key = request->part[0];
    const struct db_param key = DB_TEXT(device_key);
    char not_found[160];
    snprintf(not_found, sizeof(not_found), "no device '%.80s'", device_key);
    struct db_result *d =
        view_query_one(db,
                       "SELECT vendor, device_name, device_type, driver_name, newest_driver, reports, "
                       "first_upload, last_upload FROM devices WHERE device_key = ?",
                       &key, 1, out, not_found);
    if (d == NULL)
        return;
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "device");
    cJSON_AddStringToObject(out->model, "title", db_result_text(d, 0, 1));
    cJSON_AddStringToObject(out->model, "deviceKey", device_key);
    static const char *const names[] = {"vendor", "deviceName", "deviceType", "driverName", "newestDriver"};
    for (size_t c = 0; c < 5; ++c)
        cJSON_AddStringToObject(out->model, names[c], db_result_text(d, 0, c));
    cJSON_AddNumberToObject(out->model, "reports", (double)db_result_int(d, 0, 5));
    cJSON_AddStringToObject(out->model, "firstUpload", db_result_text(d, 0, 6));
    cJSON_AddStringToObject(out->model, "lastUpload", db_result_text(d, 0, 7));
    db_result_free(d);

    struct db_result *r =
        db_query(db,
                 "SELECT v.driver_raw, v.driver_version, v.machines, v.reports, v.tests, v.failing, "
                 "v.flaky, v.regressions, v.fixes, v.previous_version, v.first_upload, v.last_upload, "
                 "e.report_id, e.device_index, v.previous_raw FROM drivers v JOIN entries e ON e.id = v.newest_entry "
                 "WHERE v.device_key = ? ORDER BY v.driver_raw DESC",
                 &key, 1);
    if (r == NULL) {
        view_db_failed(out, db);
        return;
    }
    cJSON *drivers = cJSON_AddArrayToObject(out->model, "drivers");
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        cJSON *v = cJSON_CreateObject();
        cJSON_AddNumberToObject(v, "driverRaw", (double)db_result_int(r, i, 0));
        cJSON_AddStringToObject(v, "driverVersion", db_result_text(r, i, 1));
        static const char *const counts[] = {"machines", "reports",     "tests", "failing",
                                             "flaky",    "regressions", "fixes"};
        for (size_t c = 0; c < 7; ++c)
            cJSON_AddNumberToObject(v, counts[c], (double)db_result_int(r, i, 2 + c));
        if (!db_result_null(r, i, 9)) {
            cJSON_AddStringToObject(v, "previousVersion", db_result_text(r, i, 9));
            cJSON_AddNumberToObject(v, "previousRaw", (double)db_result_int(r, i, 14));
        }
        cJSON_AddStringToObject(v, "firstUpload", db_result_text(r, i, 10));
        cJSON_AddStringToObject(v, "lastUpload", db_result_text(r, i, 11));
        cJSON_AddNumberToObject(v, "newestReport", (double)db_result_int(r, i, 12));
        cJSON_AddNumberToObject(v, "deviceIndex", (double)db_result_int(r, i, 13));
        cJSON_AddArrayToObject(v, "notPassing");
        cJSON_AddArrayToObject(v, "changes");
        cJSON_AddItemToArray(drivers, v);
    }
    db_result_free(r);
    if (!add_tests(db, &key, drivers)) {
        view_db_failed(out, db);
        return;
    }
    bool all = query_get(request->query, "all") != NULL;
    size_t count = (size_t)cJSON_GetArraySize(drivers);
    size_t diffed = all || count <= HISTORY_DRIVERS ? count : HISTORY_DRIVERS;
    cJSON_AddNumberToObject(out->model, "driverVersions", (double)count);
    cJSON_AddNumberToObject(out->model, "confidence", FLEET_CONFIDENCE);
    cJSON_AddNumberToObject(out->model, "decisiveRate", FLEET_DECISIVE_RATE);
    cJSON_AddNumberToObject(out->model, "driverVersionsDiffed", (double)diffed);
    add_declared_changes(db, drivers, diffed, out);
    if (out->status >= 400) {
        cJSON_Delete(out->model);
        out->model = NULL;
        return;
    }

    r = db_query(db,
                 "SELECT m.host, e.driver_version, e.report_id, m.last_upload, e.tests_failed FROM machine_devices m "
                 "JOIN entries e ON e.id = m.entry_id WHERE m.device_key = ? ORDER BY m.host",
                 &key, 1);
    struct db_result *entries =
        r ? db_query(db,
                     "SELECT e.report_id, e.driver_version, e.host, e.os, e.kernel, e.uploaded, e.tests_passed, "
                     "e.tests_failed, e.spec_violations, r.token FROM entries e JOIN reports r ON r.id = e.report_id "
                     "WHERE e.device_key = ? ORDER BY e.id DESC LIMIT 500",
                     &key, 1)
          : NULL;
    if (r == NULL || entries == NULL) {
        db_result_free(r);
        view_db_failed(out, db);
        return;
    }
    cJSON *machines = cJSON_AddArrayToObject(out->model, "machines");
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "host", db_result_text(r, i, 0));
        cJSON_AddStringToObject(m, "driverVersion", db_result_text(r, i, 1));
        cJSON_AddNumberToObject(m, "report", (double)db_result_int(r, i, 2));
        cJSON_AddStringToObject(m, "lastUpload", db_result_text(r, i, 3));
        cJSON_AddNumberToObject(m, "testsFailed", (double)db_result_int(r, i, 4));
        cJSON_AddItemToArray(machines, m);
    }
    db_result_free(r);
    cJSON *list = cJSON_AddArrayToObject(out->model, "entries");
    for (size_t i = 0; i < db_result_rows(entries); ++i) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "report", (double)db_result_int(entries, i, 0));
        static const char *const texts[] = {"driverVersion", "host", "os", "kernel", "uploaded"};
        for (size_t c = 0; c < 5; ++c)
            cJSON_AddStringToObject(e, texts[c], db_result_text(entries, i, 1 + c));
        cJSON_AddNumberToObject(e, "testsPassed", (double)db_result_int(entries, i, 6));
        cJSON_AddNumberToObject(e, "testsFailed", (double)db_result_int(entries, i, 7));
        cJSON_AddNumberToObject(e, "specViolations", (double)db_result_int(entries, i, 8));
        cJSON_AddStringToObject(e, "token", db_result_text(entries, i, 9));
        cJSON_AddItemToArray(list, e);
    }
    db_result_free(entries);
    out->status = 200;
}

static void not_passing(const cJSON *driver, struct buf *b)
{
    buf_add(
        b,
        "<table class=\"not-passing\"><thead><tr><th>test</th><th>verdict</th><th>machines</th><th>measured over every "
        "run</th></tr></thead><tbody>");
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(driver, "notPassing"))
    {
        buf_add(b, "<tr><td>");
        buf_escape(b, str(t, "test"));
        buf_add(b, "</td>");
        html_verdict_cell(b, str(t, "verdict"));
        buf_add(b, "<td>");
        buf_escape(b, str(t, "detail"));
        buf_add(b, "</td><td>");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(t, "measured");
        if (m != NULL) {
            struct fleet_measure measure;
            fleet_measure((int)num(m, "runs"), (int)num(m, "failures"), &measure);
            char text[160];
            fleet_measure_text(&measure, text, sizeof(text));
            buf_printf(b, "%s: ", measure.verdict);
            buf_escape(b, text);
        }
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table>");
}

static void transition(const cJSON *m, const cJSON *v, struct buf *b)
{
    double regressions = num(v, "regressions");
    const cJSON *declared = cJSON_GetObjectItemCaseSensitive(v, "declaredChanges");
    double declared_regressions = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, declared) declared_regressions +=
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "regression"));
    bool regressed = regressions + declared_regressions > 0;
    buf_printf(b, "<section class=\"transition%s\"><h3>", regressed ? " regression" : "");
    buf_escape(b, str(v, "previousVersion"));
    buf_add(b, " → ");
    buf_escape(b, str(v, "driverVersion"));
    buf_add(b, ": ");
    html_count(b, regressions, "test regression", "test regressions");
    buf_add(b, ", ");
    html_count(b, num(v, "fixes"), "fix", "fixes");
    buf_add(b, ", ");
    html_count(b, (double)cJSON_GetArraySize(declared), "declared change", "declared changes");
    if (declared_regressions > 0)
        buf_printf(b, " (%.0f worse)", declared_regressions);
    buf_add(b, " <a href=\"/compare?differ=1&amp;d=");
    buf_url(b, str(m, "deviceKey"));
    buf_printf(b, "%%40%.0f&amp;d=", num(v, "previousRaw"));
    buf_url(b, str(m, "deviceKey"));
    buf_printf(b, "%%40%.0f\">side by side</a></h3>", num(v, "driverRaw"));
    const cJSON *changes = cJSON_GetObjectItemCaseSensitive(v, "changes");
    if (cJSON_GetArraySize(changes) > 0) {
        buf_add(
            b,
            "<table class=\"test-changes\"><thead><tr><th>test</th><th>before</th><th>after</th></tr></thead><tbody>");
        cJSON_ArrayForEach(c, changes)
        {
            buf_printf(b, "<tr class=\"%s\"><td>",
                       strcmp(str(c, "change"), "regression") == 0 ? "regression"
                       : strcmp(str(c, "change"), "fix") == 0      ? "fix"
                                                                   : "changed");
            buf_escape(b, str(c, "test"));
            buf_add(b, "</td><td>");
            html_verdict(b, str(c, "before"));
            buf_add(b, " <span class=\"muted\">");
            buf_escape(b, str(c, "beforeDetail"));
            buf_add(b, "</span></td><td>");
            html_verdict(b, str(c, "after"));
            buf_add(b, " <span class=\"muted\">");
            buf_escape(b, str(c, "afterDetail"));
            buf_add(b, "</span>");
            if (strcmp(str(c, "change"), "regression") == 0) {
                buf_add(b, "<br>");
                first_bad_html(c, b);
            }
            buf_add(b, "</td></tr>");
        }
        buf_add(b, "</tbody></table>");
    }
    if (cJSON_GetArraySize(declared) > 0) {
        buf_add(b, "<details><summary>declared values that changed</summary><table><thead><tr><th>kind</th>"
                   "<th>what</th><th>before</th><th>after</th></tr></thead><tbody>");
        cJSON_ArrayForEach(c, declared)
        {
            bool regression = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "regression"));
            buf_printf(b, "<tr%s><td>", regression ? " class=\"regression\"" : "");
            buf_escape(b, str(c, "kind"));
            buf_add(b, "</td><td>");
            buf_escape(b, str(c, "what"));
            buf_add(b, "</td><td>");
            buf_escape(b, *str(c, "lost") ? str(c, "lost") : str(c, "before"));
            buf_add(b, "</td><td>");
            buf_escape(b, *str(c, "gained") ? str(c, "gained") : str(c, "after"));
            buf_add(b, "</td></tr>");
        }
        buf_add(b, "</tbody></table></details>");
    }
    buf_add(b, "</section>");
}

void html_device(const cJSON *m, const struct page_context *context, struct buf *b)
{
    (void)context;
    buf_add(b, "<h1>");
    buf_escape(b, str(m, "deviceName"));
    buf_add(b, "</h1><p><code>");
    buf_escape(b, str(m, "deviceKey"));
    buf_add(b, "</code> · ");
    buf_escape(b, str(m, "vendor"));
    buf_add(b, " · ");
    buf_escape(b, str(m, "driverName"));
    buf_add(b, " · ");
    html_count(b, num(m, "reports"), "report", "reports");
    buf_add(b, ", newest driver ");
    buf_escape(b, str(m, "newestDriver"));
    buf_add(b, "</p>");
    const cJSON *drivers = cJSON_GetObjectItemCaseSensitive(m, "drivers");
    const cJSON *newest = cJSON_GetArrayItem(drivers, 0);
    if (newest && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(newest, "notPassing")) > 0) {
        buf_add(b, "<div class=\"warning\"><b>Driver ");
        buf_escape(b, str(newest, "driverVersion"));
        buf_add(b, " fails ");
        html_count(b, num(newest, "failing") + num(newest, "flaky"), "test", "tests");
        buf_add(b, " over its ");
        html_count(b, num(newest, "machines"), "machine", "machines");
        if (num(newest, "regressions") > 0) {
            buf_add(b, ", ");
            html_count(b, num(newest, "regressions"), "regression", "regressions");
            buf_add(b, " from ");
            buf_escape(b, str(newest, "previousVersion"));
        }
        buf_add(b, "</b>");
        not_passing(newest, b);
        buf_add(b, "</div>");
    }
    buf_printf(b,
               "<h2>Drivers</h2><p class=\"muted\">Each driver's verdicts combine the newest run of every machine "
               "on it, counting only the machines that ran the test (skipped and unsupported are no runs): a test "
               "passes where all of them pass, fails where all fail (whatever the failing kind), and is flaky where "
               "it fails on some. Measured over every run of every report, at %.0f %% confidence (Wilson "
               "interval of the failure rate): pass where no run failed and a rate of %.0f %% is ruled out, fail where "
               "every run failed likewise, flaky where runs disagree, unknown where too few ran to tell.</p>"
               "<table class=\"sortable\" id=\"drivers\"><thead><tr><th>driver</th><th>machines</th><th>reports</th>"
               "<th>failing on every machine</th><th>failing on some (flaky)</th><th>regressions</th><th>fixes</th>"
               "<th>measured: pass / fail / flaky / unknown</th><th>first upload</th><th>last upload</th><th>newest "
               "report</th></tr></thead><tbody>",
               100 * FLEET_CONFIDENCE, 100 * FLEET_DECISIVE_RATE);
    const cJSON *v;
    cJSON_ArrayForEach(v, drivers)
    {
        buf_printf(b, "<tr%s><td>", num(v, "regressions") > 0 ? " class=\"regression\"" : "");
        buf_escape(b, str(v, "driverVersion"));
        buf_printf(b,
                   "</td><td class=\"number\">%.0f</td><td class=\"number\">%.0f</td><td class=\"number%s\">%.0f</td>"
                   "<td class=\"number%s\">%.0f</td><td class=\"number%s\">%.0f</td><td class=\"number\">%.0f</td><td>",
                   num(v, "machines"), num(v, "reports"), num(v, "failing") > 0 ? " fail" : "", num(v, "failing"),
                   num(v, "flaky") > 0 ? " flaky" : "", num(v, "flaky"), num(v, "regressions") > 0 ? " fail" : "",
                   num(v, "regressions"), num(v, "fixes"));
        const cJSON *counts = cJSON_GetObjectItemCaseSensitive(v, "measuredCounts");
        buf_printf(b, "%.0f / %.0f / %.0f / %.0f</td><td>", num(counts, "pass"), num(counts, "fail"),
                   num(counts, "flaky"), num(counts, "unknown"));
        buf_escape(b, str(v, "firstUpload"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(v, "lastUpload"));
        buf_add(b, "</td><td>");
        char id[32];
        snprintf(id, sizeof(id), "%.0f", num(v, "newestReport"));
        html_link_report(b, num(v, "newestReport"), id);
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table><h2>Driver changes</h2>");
    if (num(m, "driverVersionsDiffed") < num(m, "driverVersions"))
        buf_printf(b,
                   "<p>Declared values are compared for the newest %.0f of %.0f driver versions; "
                   "<a href=\"?all=1\">compare all</a>.</p>",
                   num(m, "driverVersionsDiffed"), num(m, "driverVersions"));
    if (cJSON_GetArraySize(drivers) < 2)
        buf_add(b, "<p>Only one driver version has been reported.</p>");
    for (int pass = 0; pass < 2; ++pass) { /* transitions with regressions first */
        cJSON_ArrayForEach(v, drivers)
        {
            if (*str(v, "previousVersion") == '\0')
                continue;
            bool regressed = num(v, "regressions") > 0;
            const cJSON *c;
            cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(v, "declaredChanges")) regressed =
                regressed || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "regression"));
            if (regressed == (pass == 0))
                transition(m, v, b);
        }
    }
    buf_add(b, "<h2>Machines</h2><table class=\"sortable\" id=\"machines\"><thead><tr><th>machine</th><th>driver</th>"
               "<th>newest report there</th><th>failed tests in it</th><th>last upload</th></tr></thead><tbody>");
    const cJSON *machine;
    cJSON_ArrayForEach(machine, cJSON_GetObjectItemCaseSensitive(m, "machines"))
    {
        buf_add(b, "<tr><td>");
        html_link_machine(b, str(machine, "host"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(machine, "driverVersion"));
        buf_add(b, "</td><td>");
        char id[32];
        snprintf(id, sizeof(id), "%.0f", num(machine, "report"));
        html_link_report(b, num(machine, "report"), id);
        buf_printf(b, "</td><td class=\"number%s\">%.0f</td><td>", num(machine, "testsFailed") > 0 ? " fail" : "",
                   num(machine, "testsFailed"));
        buf_escape(b, str(machine, "lastUpload"));
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table><h2>Reports</h2><table class=\"sortable\" id=\"reports\"><thead><tr><th>report</th>"
               "<th>driver</th><th>machine</th><th>OS</th><th>kernel</th><th>uploaded</th><th>token</th>"
               "<th>passed</th><th>failed</th><th>spec violations</th></tr></thead><tbody>");
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(m, "entries"))
    {
        char id[32];
        snprintf(id, sizeof(id), "%.0f", num(e, "report"));
        buf_add(b, "<tr><td>");
        html_link_report(b, num(e, "report"), id);
        buf_add(b, "</td><td>");
        buf_escape(b, str(e, "driverVersion"));
        buf_add(b, "</td><td>");
        html_link_machine(b, str(e, "host"));
        static const char *const fields[] = {"os", "kernel", "uploaded", "token"};
        for (size_t f = 0; f < 4; ++f) {
            buf_add(b, "</td><td>");
            buf_escape(b, str(e, fields[f]));
        }
        buf_printf(
            b, "</td><td class=\"number\">%.0f</td><td class=\"number%s\">%.0f</td><td class=\"number\">%.0f</td></tr>",
            num(e, "testsPassed"), num(e, "testsFailed") > 0 ? " fail" : "", num(e, "testsFailed"),
            num(e, "specViolations"));
    }
    buf_add(b, "</tbody></table>");
}
