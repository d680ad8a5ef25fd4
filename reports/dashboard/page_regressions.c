/* "/regressions": every (device, driver) whose combined verdicts are worse than the device's
 * previous driver's, newest first, with the tests that regressed and on which machines;
 * ?newest=1 keeps the devices' newest drivers (what is still open); "what changed since":
 * ?appeared=YYYY-MM-DD keeps the drivers first uploaded on or after that day, ?fixes=1 lists the
 * drivers that fixed tests too, with those tests. */
#include <stdio.h>
#include <string.h>

#include "first_bad.h"
#include "html_page.h"
#include "pages.h"

static const char *const change_fields[] = {"test", "before", "after", "beforeDetail", "afterDetail"};

/* The tests a (device, driver) fixed, as its regressed tests are listed. */
static bool add_fixes(struct db *db, const struct db_param key[2], cJSON *list)
{
    struct db_result *c = db_query(db,
                                   "SELECT name, before, after, before_detail, after_detail FROM driver_changes "
                                   "WHERE device_key = ? AND driver_raw = ? AND change = 'fix' ORDER BY name",
                                   key, 2);
    for (size_t k = 0; c && k < db_result_rows(c); ++k) {
        cJSON *t = cJSON_CreateObject();
        for (size_t n = 0; n < 5; ++n)
            cJSON_AddStringToObject(t, change_fields[n], db_result_text(c, k, n));
        cJSON_AddItemToArray(list, t);
    }
    bool ok = c != NULL;
    db_result_free(c);
    return ok;
}

void view_regressions(struct db *db, const struct page_request *request, struct view_response *out)
{
    const struct query_args *q = request->query;
    struct filter_sql f;
    long page;
    if (!filter_build(db, q, &f, out) || !view_page_of(q, &page, out)) {
        filter_free(&f);
        return;
    }
    const char *newest = query_get(q, "newest");
    if (newest && *newest && strcmp(newest, "1") != 0 && strcmp(newest, "0") != 0) {
        view_fail(out, 400, "newest=%.20s: use 1 or 0", newest);
        filter_free(&f);
        return;
    }
    bool only_newest = newest && strcmp(newest, "1") == 0;
    const char *fixes = query_get(q, "fixes"), *appeared = query_get(q, "appeared");
    if ((fixes && *fixes && strcmp(fixes, "1") != 0 && strcmp(fixes, "0") != 0) ||
        (appeared && *appeared && !view_date_valid(appeared))) {
        if (appeared && *appeared && !view_date_valid(appeared))
            view_fail(out, 400, "appeared=%.40s is not a date (YYYY-MM-DD, e.g. 2026-11-01)", appeared);
        else
            view_fail(out, 400, "fixes=%.20s: use 1 or 0", fixes);
        filter_free(&f);
        return;
    }
    bool with_fixes = fixes && strcmp(fixes, "1") == 0;
    if (appeared && *appeared)
        f.params[f.count++] = DB_TEXT(appeared);
    struct buf sql = {0};
    buf_printf(&sql,
               "SELECT v.device_key, d.device_name, d.vendor, v.driver_raw, v.driver_version, v.previous_version, "
               "v.machines, v.regressions, v.fixes, v.failing, v.flaky, v.first_upload, v.last_upload, e.report_id, "
               "CASE WHEN v.driver_raw = d.newest_driver_raw THEN 1 ELSE 0 END, COUNT(*) OVER () "
               "FROM drivers v JOIN devices d ON d.device_key = v.device_key JOIN entries e ON e.id = v.newest_entry "
               "WHERE (v.regressions > 0%s)%s%s%s ORDER BY v.last_upload DESC, v.device_key, v.driver_raw DESC "
               "LIMIT %d OFFSET %ld",
               with_fixes ? " OR v.fixes > 0" : "", only_newest ? " AND v.driver_raw = d.newest_driver_raw" : "",
               f.where.data ? f.where.data : "", appeared && *appeared ? " AND v.first_upload >= ?" : "", PAGE_ROWS,
               (page - 1) * PAGE_ROWS);
    struct db_result *r = sql.failed ? NULL : db_query_dynamic(db, sql.data, f.params, f.count);
    buf_free(&sql);
    if (r == NULL) {
        view_db_failed(out, db);
        filter_free(&f);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "regressions");
    filter_into_model(&f, out->model);
    filter_free(&f);
    cJSON_AddBoolToObject(out->model, "newestOnly", only_newest);
    cJSON_AddBoolToObject(out->model, "withFixes", with_fixes);
    cJSON_AddStringToObject(out->model, "appeared", appeared ? appeared : "");
    cJSON_AddNumberToObject(out->model, "total", db_result_rows(r) ? (double)db_result_int(r, 0, 15) : 0);
    cJSON_AddNumberToObject(out->model, "page", (double)page);
    cJSON *list = cJSON_AddArrayToObject(out->model, "regressions");
    bool ok = true;
    for (size_t i = 0; ok && i < db_result_rows(r); ++i) {
        cJSON *g = cJSON_CreateObject();
        cJSON_AddItemToArray(list, g);
        static const char *const texts[] = {"deviceKey", "deviceName", "vendor"};
        for (size_t c = 0; c < 3; ++c)
            cJSON_AddStringToObject(g, texts[c], db_result_text(r, i, c));
        cJSON_AddStringToObject(g, "driverVersion", db_result_text(r, i, 4));
        cJSON_AddStringToObject(g, "previousVersion", db_result_text(r, i, 5));
        static const char *const counts[] = {"machines", "regressions", "fixes", "failing", "flaky"};
        for (size_t c = 0; c < 5; ++c)
            cJSON_AddNumberToObject(g, counts[c], (double)db_result_int(r, i, 6 + c));
        cJSON_AddStringToObject(g, "firstUpload", db_result_text(r, i, 11));
        cJSON_AddStringToObject(g, "lastUpload", db_result_text(r, i, 12));
        cJSON_AddNumberToObject(g, "newestReport", (double)db_result_int(r, i, 13));
        cJSON_AddBoolToObject(g, "newestDriver", db_result_int(r, i, 14) != 0);
        const struct db_param key[] = {DB_TEXT(db_result_text(r, i, 0)), DB_INT(db_result_int(r, i, 3))};
        struct db_result *c =
            db_query(db,
                     "SELECT name, before, after, before_detail, after_detail FROM driver_changes "
                     "WHERE device_key = ? AND driver_raw = ? AND change = 'regression' ORDER BY name",
                     key, 2);
        struct first_bad fb = {0};
        ok = c != NULL &&
             first_bad_prepare(db, db_result_text(r, i, 0), db_result_int(r, i, 3), db_result_text(r, i, 4), &fb);
        cJSON *tests = cJSON_AddArrayToObject(g, "tests");
        for (size_t k = 0; c && k < db_result_rows(c); ++k) {
            cJSON *t = cJSON_CreateObject();
            for (size_t n = 0; n < 5; ++n)
                cJSON_AddStringToObject(t, change_fields[n], db_result_text(c, k, n));
            cJSON_AddItemToArray(tests, t);
            if (ok)
                first_bad_describe(&fb, db_result_text(c, k, 0), t);
        }
        if (ok)
            first_bad_release(&fb);
        db_result_free(c);
        if (ok && with_fixes)
            ok = add_fixes(db, key, cJSON_AddArrayToObject(g, "fixedTests"));
    }
    db_result_free(r);
    if (!ok) {
        view_db_failed(out, db);
        return;
    }
    out->status = 200;
}

void html_regressions(const cJSON *m, const struct page_context *c, struct buf *b)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(m, "regressions");
    bool newest = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "newestOnly"));
    buf_add(b, "<h1>Regressions</h1><p>");
    html_count(b, num(m, "total"), "driver", "drivers");
    buf_printf(b,
               " of a device worse than the device's previous driver (verdicts combined over the machines that ran "
               "each driver), newest first. %s</p>",
               newest ? "Only the devices' newest drivers. <a href=\"/regressions\">All drivers</a>."
                      : "<a href=\"/regressions?newest=1\">Only the devices' newest drivers</a>.");
    html_filter_form(b, m, "/regressions");
    buf_add(b, "<form class=\"filters\" method=\"get\" action=\"/regressions\" id=\"changes\"><label>What changed "
               "since: drivers first uploaded on or after <input type=\"date\" name=\"appeared\" value=\"");
    buf_escape(b, str(m, "appeared"));
    buf_printf(b,
               "\"></label><label><input type=\"checkbox\" name=\"fixes\" value=\"1\"%s> with fixes</label>"
               "<button>show</button></form>",
               cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "withFixes")) ? " checked" : "");
    if (cJSON_GetArraySize(list) == 0) {
        buf_add(b, "<p>No regressions.</p>");
        return;
    }
    if (num(m, "total") > cJSON_GetArraySize(list)) {
        buf_printf(b, "<p>Page %.0f; <a href=\"?page=%.0f", num(m, "page"), num(m, "page") + 1);
        html_query_suffix(b, c->query, false);
        buf_add(b, "\">next page</a></p>");
    }
    buf_add(b, "<table id=\"regressions\"><thead><tr><th>device</th><th>driver</th><th>machines</th>"
               "<th>regressed tests</th><th>first upload</th><th>last upload</th></tr></thead><tbody>");
    const cJSON *g;
    cJSON_ArrayForEach(g, list)
    {
        buf_add(b, num(g, "regressions") > 0 ? "<tr class=\"regression\"><td>" : "<tr class=\"fix\"><td>");
        html_link_device(b, str(g, "deviceKey"), str(g, "deviceName"));
        buf_add(b, " <span class=\"muted\">");
        buf_escape(b, str(g, "vendor"));
        buf_add(b, "</span></td><td>");
        buf_escape(b, str(g, "previousVersion"));
        buf_add(b, " → ");
        html_link_report(b, num(g, "newestReport"), str(g, "driverVersion"));
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(g, "newestDriver")))
            buf_add(b, " <span class=\"muted\">(newest)</span>");
        buf_printf(b, "</td><td class=\"number\">%.0f</td><td><ul>", num(g, "machines"));
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            buf_add(b, "<li><b>");
            buf_escape(b, str(t, "test"));
            buf_add(b, "</b> ");
            html_verdict(b, str(t, "before"));
            buf_add(b, " → ");
            html_verdict(b, str(t, "after"));
            buf_add(b, " <span class=\"muted\">");
            buf_escape(b, str(t, "afterDetail"));
            buf_add(b, "</span><br>");
            first_bad_html(t, b);
            buf_add(b, "</li>");
        }
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "fixedTests"))
        {
            buf_add(b, "<li class=\"fix\">fixed: <b>");
            buf_escape(b, str(t, "test"));
            buf_add(b, "</b> ");
            html_verdict(b, str(t, "before"));
            buf_add(b, " → ");
            html_verdict(b, str(t, "after"));
            buf_add(b, "</li>");
        }
        buf_add(b, "</ul></td><td>");
        buf_escape(b, str(g, "firstUpload"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(g, "lastUpload"));
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table>");
}
