/* "/fleet": the newest report of every device of the filtered set, gated by requirements (the gate
 * format of preflight-report gate) with each smoke verdict combined over the machines of the
 * device's newest driver; failing devices first; the fleet's limits as a table. Downloads:
 * /fleet/limits.json (the layer's fleet-limits file), /fleet/profiles.json (what all support). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet_limits.h"
#include "fleet_verdict.h"
#include "expectations.h"
#include "gate.h"
#include "html_page.h"
#include "pages.h"
#include "profile_intersect.h"
#include "report.h"
#include "report_model.h"

/* The newest report of each device of the filtered set, one single-device document each. */
static cJSON **fleet_reports(struct db *db, const struct filter_sql *f, size_t *count, struct view_response *out)
{
    struct buf sql = {0};
    buf_printf(&sql,
               "SELECT e.report_id, e.device_index FROM devices d JOIN entries e ON e.id = d.current_entry "
               "WHERE 1 = 1%s ORDER BY e.report_id, e.device_index",
               f->where.data);
    struct db_result *r = db_query_dynamic(db, sql.data, f->params, f->count);
    buf_free(&sql);
    if (r == NULL) {
        view_db_failed(out, db);
        return NULL;
    }
    size_t rows = db_result_rows(r);
    cJSON **reports = calloc(rows + 1, sizeof(*reports));
    cJSON *loaded = NULL;
    *count = 0;
    for (size_t i = 0; reports && i < rows;) {
        /* the rows of one report together: it is parsed once and its devices moved out of it
         * (a copy of each would double what the allocator has to do for a fleet of reports) */
        int64_t id = db_result_int(r, i, 0);
        size_t end = i;
        while (end < rows && db_result_int(r, end, 0) == id)
            ++end;
        cJSON_Delete(loaded);
        loaded = view_load_report(db, id, out);
        if (loaded == NULL)
            break;
        cJSON *devices[64];
        size_t taken = 0;
        for (size_t k = i; k < end && taken < 64; ++k)
            devices[taken++] = (cJSON *)view_device_of(loaded, (int)db_result_int(r, k, 1));
        for (size_t k = 0; k < taken; ++k) {
            if (devices[k] == NULL)
                continue;
            cJSON *single = report_new("preflight-dashboard");
            cJSON_AddItemToArray(report_devices(single),
                                 cJSON_DetachItemViaPointer((cJSON *)report_device_array(loaded), devices[k]));
            reports[(*count)++] = single;
        }
        i = end;
    }
    cJSON_Delete(loaded);
    db_result_free(r);
    if (reports == NULL || out->status >= 400) {
        for (size_t i = 0; reports && i < *count; ++i)
            cJSON_Delete(reports[i]);
        free(reports);
        if (out->status < 400)
            view_fail(out, 500, "out of memory");
        return NULL;
    }
    return reports;
}

static void free_reports(cJSON **reports, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        cJSON_Delete(reports[i]);
    free(reports);
}

static void set_string(cJSON *object, const char *key, const char *value)
{
    cJSON_DeleteItemFromObjectCaseSensitive(object, key);
    cJSON_AddStringToObject(object, key, value);
}

/* A combined verdict of a device's newest driver (rows of the query below). */
struct fleet_test {
    const char *device_key, *name, *verdict, *detail;
    int runs, failures; /* over every report of the driver, for the measured rate */
};

static int compare_tests(const void *a, const void *b)
{
    const struct fleet_test *x = a, *y = b;
    int c = strcmp(x->device_key, y->device_key);
    return c ? c : strcmp(x->name, y->name);
}

/* Each device's smoke verdicts become the fleet's for its newest driver (fleet_verdict.h): a test
 * that fails on one machine of that driver fails the gate, with the machines in the reason; and
 * its driver is written as the vendor writes it. */
static bool combine_verdicts(struct db *db, const struct filter_sql *f, cJSON **reports, size_t n)
{
    struct buf sql = {0};
    buf_printf(&sql,
               "SELECT t.device_key, t.name, t.verdict, t.detail, COALESCE(n.runs, 0), COALESCE(n.failures, 0) "
               "FROM devices d JOIN driver_tests t ON t.device_key = d.device_key AND t.driver_raw = "
               "d.newest_driver_raw LEFT JOIN driver_runs n ON n.device_key = t.device_key AND n.driver_raw = "
               "t.driver_raw AND n.name = t.name WHERE t.kind = 'test'%s",
               f->where.data);
    struct db_result *r = db_query_dynamic(db, sql.data, f->params, f->count);
    buf_free(&sql);
    buf_printf(&sql, "SELECT d.device_key, d.newest_driver FROM devices d WHERE 1 = 1%s", f->where.data);
    struct db_result *drivers = r ? db_query_dynamic(db, sql.data, f->params, f->count) : NULL;
    buf_free(&sql);
    size_t rows = db_result_rows(r), driver_rows = db_result_rows(drivers);
    struct fleet_test *tests = calloc(rows + driver_rows + 1, sizeof(*tests));
    if (r == NULL || drivers == NULL || tests == NULL) {
        db_result_free(r);
        db_result_free(drivers);
        free(tests);
        return false;
    }
    for (size_t i = 0; i < rows; ++i)
        tests[i] =
            (struct fleet_test){db_result_text(r, i, 0), db_result_text(r, i, 1),     db_result_text(r, i, 2),
                                db_result_text(r, i, 3), (int)db_result_int(r, i, 4), (int)db_result_int(r, i, 5)};
    struct fleet_test *versions = tests + rows; /* (device_key, "", newest driver) */
    for (size_t i = 0; i < driver_rows; ++i)
        versions[i] = (struct fleet_test){db_result_text(drivers, i, 0), "", db_result_text(drivers, i, 1), "", 0, 0};
    qsort(tests, rows, sizeof(*tests), compare_tests);
    qsort(versions, driver_rows, sizeof(*versions), compare_tests);
    for (size_t i = 0; i < n; ++i) {
        cJSON *device = (cJSON *)view_device_of(reports[i], 0);
        const char *key = report_device_key(device);
        const struct fleet_test wanted_driver = {key, "", "", "", 0, 0};
        const struct fleet_test *version =
            bsearch(&wanted_driver, versions, driver_rows, sizeof(*versions), compare_tests);
        if (version != NULL)
            set_string((cJSON *)report_identity_block(device), "driverVersion", version->verdict);
        cJSON *entry;
        cJSON_ArrayForEach(entry, (cJSON *)report_smoke_results(device))
        {
            struct report_smoke smoke = report_smoke_of(entry);
            const struct fleet_test wanted = {key, smoke.id, "", "", 0, 0};
            const struct fleet_test *t = bsearch(&wanted, tests, rows, sizeof(*tests), compare_tests);
            if (t == NULL || strcmp(t->verdict, smoke.status) == 0)
                continue;
            char reason[1024], measured[160] = "";
            if (t->failures > 0) { /* how often it fails, over every run */
                struct fleet_measure m;
                fleet_measure(t->runs, t->failures, &m);
                fleet_measure_text(&m, measured, sizeof(measured));
            }
            snprintf(reason, sizeof(reason), "%s%s%s%s%s", t->detail, *measured ? "; " : "", measured,
                     *smoke.reason ? "; " : "", smoke.reason);
            set_string(entry, "status", t->verdict);
            set_string(entry, "reason", reason);
        }
    }
    free(tests);
    db_result_free(r);
    db_result_free(drivers);
    return true;
}

static cJSON *limits_table(cJSON **reports, size_t n)
{
    cJSON *document = fleet_limits_build(reports, n);
    cJSON *table = cJSON_CreateArray();
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(document, "devices");
    const cJSON *limit;
    cJSON_ArrayForEach(limit, cJSON_GetObjectItemCaseSensitive(document, "limits"))
    {
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "limit", limit->string);
        cJSON_AddItemToObject(row, "value", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(limit, "value"), 1));
        cJSON_AddStringToObject(row, "limittype", str(limit, "limittype"));
        cJSON *set_by = cJSON_AddArrayToObject(row, "setBy");
        const cJSON *key, *d;
        cJSON_ArrayForEach(key, cJSON_GetObjectItemCaseSensitive(limit, "set_by"))
        {
            const char *name = cJSON_GetStringValue(key);
            cJSON_ArrayForEach(d, names) if (strcmp(str(d, "deviceKey"), cJSON_GetStringValue(key)) == 0) name =
                str(d, "deviceName");
            cJSON_AddItemToArray(set_by, cJSON_CreateString(name ? name : ""));
        }
        cJSON_AddItemToArray(table, row);
    }
    cJSON_Delete(document);
    return table;
}

void view_fleet(struct db *db, const struct page_request *request, struct view_response *out)
{
    const struct query_args *q = request->query;
    struct filter_sql f;
    if (!filter_build(db, q, &f, out)) {
        filter_free(&f);
        return;
    }
    size_t n = 0;
    cJSON **reports = fleet_reports(db, &f, &n, out);
    if (reports == NULL || !combine_verdicts(db, &f, reports, n)) {
        if (reports != NULL)
            view_db_failed(out, db);
        free_reports(reports, n);
        filter_free(&f);
        return;
    }
    const char *requirements = query_get(q, "requirements");
    struct gate *g = NULL;
    char error[512] = "";
    if (requirements && *requirements) {
        g = gate_parse(requirements, error, sizeof(error));
        const cJSON **devices = calloc(n + 1, sizeof(*devices));
        for (size_t i = 0; g && devices && i < n; ++i)
            devices[i] = view_device_of(reports[i], 0);
        if (g && devices && !gate_check_tests(g, devices, n, error, sizeof(error))) {
            gate_free(g);
            g = NULL;
        }
        free(devices);
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "fleet");
    filter_into_model(&f, out->model);
    filter_free(&f);
    cJSON_AddNumberToObject(out->model, "devices", (double)n);
    if (requirements && *requirements)
        cJSON_AddStringToObject(out->model, "requirements", requirements);
    if (requirements && *requirements && g == NULL) { /* the page again, with the text and the error in place */
        view_fail(out, 400, "requirements: %s", error);
        cJSON_AddStringToObject(out->model, "error", out->message);
        free_reports(reports, n);
        return;
    }
    cJSON *list = cJSON_AddArrayToObject(out->model, "members");
    size_t passing = 0;
    char today[11];
    expectations_today(today);
    const struct expectations *e = g != NULL ? request->expectations : NULL;
    for (int pass = 0; pass < 2; ++pass) { /* failing devices first */
        for (size_t i = 0; i < n; ++i) {
            const cJSON *device = view_device_of(reports[i], 0);
            cJSON *failures = cJSON_CreateArray(), *expected = cJSON_CreateArray();
            struct gate_expectations ex = {e, today, expected};
            bool ok = g == NULL || gate_evaluate_expected(g, device, &ex, failures);
            if (ok != (pass == 1)) {
                cJSON_Delete(failures);
                cJSON_Delete(expected);
                continue;
            }
            const cJSON *identity = report_identity_block(device);
            cJSON *m = cJSON_CreateObject();
            static const char *const names[] = {"deviceKey", "deviceName", "driverVersion"};
            for (size_t c = 0; c < 3; ++c)
                cJSON_AddItemToObject(m, names[c],
                                      cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(identity, names[c]), 1));
            if (g != NULL) {
                passing += ok;
                cJSON_AddBoolToObject(m, "pass", ok);
                cJSON_AddItemToObject(m, "failures", failures);
            } else {
                cJSON_Delete(failures);
            }
            if (e != NULL) { /* what the expectations excused, and where they no longer hold */
                cJSON_AddItemToObject(m, "expected", expected);
                expectations_unexpected_passes(e, device, today, cJSON_AddArrayToObject(m, "unexpectedPasses"));
            } else {
                cJSON_Delete(expected);
            }
            cJSON_AddItemToArray(list, m);
        }
    }
    if (g != NULL) {
        cJSON_AddNumberToObject(out->model, "passing", (double)passing);
        cJSON_AddNumberToObject(out->model, "rules", (double)gate_rule_count(g));
    }
    if (e != NULL) {
        cJSON_AddNumberToObject(out->model, "expectations", (double)expectations_count(e));
        expectations_expired(e, today, cJSON_AddArrayToObject(out->model, "expired"));
    }
    if (n > 0)
        cJSON_AddItemToObject(out->model, "limits", limits_table(reports, n));
    gate_free(g);
    free_reports(reports, n);
    out->status = 200;
}

void view_fleet_download(struct db *db, const struct page_request *request, struct view_response *out)
{
    const char *what = request->part[0];
    if (strcmp(what, "limits.json") != 0 && strcmp(what, "profiles.json") != 0) {
        view_fail(out, 404, "no fleet download '%.60s'", what);
        return;
    }
    struct filter_sql f;
    if (!filter_build(db, request->query, &f, out)) {
        filter_free(&f);
        return;
    }
    size_t n = 0;
    cJSON **reports = fleet_reports(db, &f, &n, out);
    filter_free(&f);
    if (reports == NULL)
        return;
    if (n == 0) {
        view_fail(out, 404, "no device matches the filters");
        free(reports);
        return;
    }
    cJSON *document;
    if (strcmp(what, "limits.json") == 0) {
        document = fleet_limits_build(reports, n);
    } else {
        const cJSON **devices = calloc(n, sizeof(*devices));
        for (size_t i = 0; devices && i < n; ++i)
            devices[i] = view_device_of(reports[i], 0);
        document = devices ? profile_intersect(devices, n, "VP_PREFLIGHT_fleet") : NULL;
        free(devices);
    }
    if (document == NULL)
        view_fail(out, 500, "out of memory");
    else
        view_download_json(out, document,
                           strcmp(what, "limits.json") == 0 ? "fleet-limits.json" : "fleet.profiles.json");
    cJSON_Delete(document);
    free_reports(reports, n);
}

void html_fleet(const cJSON *m, const struct page_context *c, struct buf *b)
{
    buf_printf(b,
               "<h1>Fleet</h1><p>%.0f devices (the newest report of each; smoke verdicts combined over the "
               "machines of its newest driver). Downloads: <a href=\"/fleet/limits.json",
               num(m, "devices"));
    html_query_suffix(b, c->query, true);
    buf_add(b, "\">fleet limits for the layer</a> · <a href=\"/fleet/profiles.json");
    html_query_suffix(b, c->query, true);
    buf_add(b, "\">Vulkan Profiles of what all support</a></p>");
    html_filter_form(b, m, "/fleet");
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(m, "filters");
    buf_add(b, "<form method=\"get\" action=\"/fleet\" class=\"requirements\">");
    const cJSON *v;
    cJSON_ArrayForEach(v, f)
    {
        buf_add(b, "<input type=\"hidden\" name=\"");
        buf_escape(b, v->string);
        buf_add(b, "\" value=\"");
        if (cJSON_IsString(v))
            buf_escape(b, v->valuestring);
        else
            buf_add(b, "1");
        buf_add(b, "\">");
    }
    buf_add(
        b,
        "<p>Requirements (the gate format of <code>preflight-report gate</code>: <code>vrs.* pass or "
        "unsupported</code>, <code>maxComputeSharedMemorySize &gt;= 32768</code>, <code>extension "
        "VK_KHR_swapchain</code>):</p><textarea name=\"requirements\" rows=\"6\" style=\"width:100%;max-width:60em\">");
    buf_escape(b, str(m, "requirements"));
    buf_add(b, "</textarea><br><button>gate the fleet</button></form>");
    if (c->status >= 400) {
        buf_add(b, "<p class=\"error\">");
        buf_escape(b, c->error ? c->error : str(m, "error"));
        buf_add(b, "</p>");
        return;
    }
    bool gated = cJSON_GetObjectItemCaseSensitive(m, "rules") != NULL;
    if (gated) {
        buf_printf(b, "<p class=\"gate\">%.0f of ", num(m, "passing"));
        html_count(b, num(m, "devices"), "device meets", "devices meet");
        buf_add(b, " the ");
        html_count(b, num(m, "rules"), "rule", "rules");
        buf_add(b, "; the failing ones first.</p>");
    }
    if (cJSON_GetObjectItemCaseSensitive(m, "expectations") != NULL) {
        buf_add(b, "<p class=\"expectations\">");
        html_count(b, num(m, "expectations"), "expectation", "expectations");
        buf_add(b, " (the server's <code>--expectations</code> file) excuse known failures.</p>");
        const cJSON *x;
        cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(m, "expired"))
        {
            buf_printf(b, "<p class=\"expired\">expired: expectations line %.0f (", num(x, "line"));
            buf_escape(b, str(x, "kind"));
            buf_add(b, " <code>");
            buf_escape(b, str(x, "test"));
            buf_add(b, "</code>) ended ");
            buf_escape(b, str(x, "until"));
            buf_add(b, ": ");
            buf_escape(b, str(x, "reason"));
            buf_add(b, "</p>");
        }
    }
    buf_printf(b,
               "<table class=\"sortable\" id=\"fleet\"><thead><tr><th>device</th><th>driver</th>%s</tr></thead><tbody>",
               gated ? "<th>gate</th><th>why not</th>" : "");
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(m, "members"))
    {
        bool pass = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "pass"));
        buf_printf(b, "<tr%s><td>", gated && !pass ? " class=\"regression\"" : "");
        html_link_device(b, str(d, "deviceKey"), str(d, "deviceName"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "driverVersion"));
        buf_add(b, "</td>");
        if (gated) {
            buf_printf(b, "<td class=\"%s\">%s</td><td><ul>", pass ? "pass" : "fail", pass ? "pass" : "fail");
            const cJSON *reason;
            cJSON_ArrayForEach(reason, cJSON_GetObjectItemCaseSensitive(d, "failures"))
            {
                buf_add(b, "<li>");
                buf_escape(b, cJSON_GetStringValue(reason));
                buf_add(b, "</li>");
            }
            cJSON_ArrayForEach(reason, cJSON_GetObjectItemCaseSensitive(d, "expected"))
            {
                buf_add(b, "<li class=\"expected\">expected: ");
                buf_escape(b, str(reason, "test"));
                buf_add(b, " is ");
                buf_escape(b, str(reason, "status"));
                buf_printf(b, " (expectations line %.0f, ", num(reason, "line"));
                buf_escape(b, str(reason, "kind"));
                buf_add(b, ": ");
                buf_escape(b, str(reason, "reason"));
                buf_add(b, ")</li>");
            }
            cJSON_ArrayForEach(reason, cJSON_GetObjectItemCaseSensitive(d, "unexpectedPasses"))
            {
                buf_add(b, "<li class=\"unexpected-pass\">unexpected pass: ");
                buf_escape(b, str(reason, "test"));
                buf_printf(b, " passed, expectations line %.0f expects it to fail (", num(reason, "line"));
                buf_escape(b, str(reason, "reason"));
                buf_add(b, ")</li>");
            }
            buf_add(b, "</ul></td>");
        }
        buf_add(b, "</tr>");
    }
    buf_add(b, "</tbody></table>");
    const cJSON *limits = cJSON_GetObjectItemCaseSensitive(m, "limits");
    if (cJSON_GetArraySize(limits) == 0)
        return;
    buf_printf(b,
               "<h2>Fleet limits</h2><p>The most restrictive value of every limit over these %.0f devices (what "
               "<a href=\"/fleet/limits.json",
               num(m, "devices"));
    html_query_suffix(b, c->query, true);
    buf_add(b, "\">limits.json</a> gives the layer), and the devices that set it.</p>"
               "<p><input placeholder=\"filter limits\" data-filter=\"#fleet-limits tbody tr\"></p>"
               "<table class=\"sortable\" id=\"fleet-limits\" style=\"width:100%;table-layout:fixed\"><colgroup>"
               "<col style=\"width:38%\"><col style=\"width:24%\"><col style=\"width:7%\"><col></colgroup><thead><tr>"
               "<th>limit</th><th>fleet value</th><th>kind</th><th>set by</th></tr></thead><tbody>");
    const cJSON *row;
    cJSON_ArrayForEach(row, limits)
    {
        buf_add(b, "<tr><td>");
        buf_escape(b, str(row, "limit"));
        buf_add(b, "</td><td><code>");
        const cJSON *value = cJSON_GetObjectItemCaseSensitive(row, "value");
        char *text = cJSON_IsString(value) ? NULL : cJSON_PrintUnformatted(value);
        buf_escape(b, text ? text : cJSON_GetStringValue(value));
        free(text);
        buf_add(b, "</code></td><td>");
        buf_escape(b, str(row, "limittype"));
        buf_add(b, "</td><td>");
        const cJSON *name;
        int i = 0, total = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(row, "setBy"));
        cJSON_ArrayForEach(name, cJSON_GetObjectItemCaseSensitive(row, "setBy"))
        {
            if (i == 4) {
                buf_printf(b, " and %d more", total - 4);
                break;
            }
            buf_add(b, i++ ? ", " : "");
            buf_escape(b, cJSON_GetStringValue(name));
        }
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table>");
}
