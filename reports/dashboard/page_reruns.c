/* "/reruns": what a farm should run again, for a CI job to poll: per device's newest driver, the
 * tests whose verdict with a confidence (fleet_verdict.h) is still unknown (too few runs to tell),
 * each with how many more runs decide it if they go as the runs so far did. */
#include <stdio.h>
#include <string.h>

#include "fleet_verdict.h"
#include "html_page.h"
#include "pages.h"

#define RUNS_NEEDED_MAX 1000

/* The runs beyond `runs` that decide a test whose runs all agreed so far, if the next ones agree too. */
static int runs_needed(int runs, int failures)
{
    bool failing = failures > 0;
    for (int more = 1; more <= RUNS_NEEDED_MAX; ++more) {
        struct fleet_measure m;
        fleet_measure(runs + more, failing ? failures + more : 0, &m);
        if (strcmp(m.verdict, "unknown") != 0)
            return more;
    }
    return RUNS_NEEDED_MAX;
}

void view_reruns(struct db *db, const struct page_request *request, struct view_response *out)
{
    const struct query_args *q = request->query;
    struct filter_sql f;
    if (!filter_build(db, q, &f, out)) {
        filter_free(&f);
        return;
    }
    struct buf sql = {0};
    buf_printf(&sql,
               "SELECT d.device_key, d.device_name, d.newest_driver, d.newest_driver_raw, n.name, n.runs, n.failures "
               "FROM devices d JOIN driver_runs n ON n.device_key = d.device_key AND n.driver_raw = "
               "d.newest_driver_raw WHERE 1 = 1%s ORDER BY d.device_key, n.name",
               f.where.data);
    struct db_result *r = sql.failed ? NULL : db_query_dynamic(db, sql.data, f.params, f.count);
    buf_free(&sql);
    if (r == NULL) {
        view_db_failed(out, db);
        filter_free(&f);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "reruns");
    filter_into_model(&f, out->model);
    filter_free(&f);
    cJSON_AddNumberToObject(out->model, "confidence", FLEET_CONFIDENCE);
    cJSON_AddNumberToObject(out->model, "decisiveRate", FLEET_DECISIVE_RATE);
    cJSON *list = cJSON_AddArrayToObject(out->model, "reruns");
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        int runs = (int)db_result_int(r, i, 5), failures = (int)db_result_int(r, i, 6);
        struct fleet_measure m;
        fleet_measure(runs, failures, &m);
        if (strcmp(m.verdict, "unknown") != 0)
            continue;
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "deviceKey", db_result_text(r, i, 0));
        cJSON_AddStringToObject(t, "deviceName", db_result_text(r, i, 1));
        cJSON_AddStringToObject(t, "driverVersion", db_result_text(r, i, 2));
        cJSON_AddNumberToObject(t, "driverRaw", (double)db_result_int(r, i, 3));
        cJSON_AddStringToObject(t, "test", db_result_text(r, i, 4));
        cJSON_AddNumberToObject(t, "runs", runs);
        cJSON_AddNumberToObject(t, "failures", failures);
        cJSON_AddNumberToObject(t, "runsNeeded", runs_needed(runs, failures));
        cJSON_AddItemToArray(list, t);
    }
    cJSON_AddNumberToObject(out->model, "total", cJSON_GetArraySize(list));
    db_result_free(r);
    out->status = 200;
}

void html_reruns(const cJSON *m, const struct page_context *c, struct buf *b)
{
    (void)c;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(m, "reruns"), *t;
    buf_printf(b,
               "<h1>Reruns</h1><p>%.0f tests of the devices' newest drivers whose runs cannot yet tell pass from fail "
               "at %.0f %% confidence (a failure rate of %.0f %% not ruled out either way): run them again. The same "
               "list as JSON at <code>/api/v1/reruns</code>.</p>",
               num(m, "total"), 100 * num(m, "confidence"), 100 * num(m, "decisiveRate"));
    html_filter_form(b, m, "/reruns");
    buf_add(b, "<table class=\"sortable\" id=\"reruns\"><thead><tr><th>device</th><th>driver</th><th>test</th>"
               "<th>runs</th><th>failures</th><th>more runs that decide it</th></tr></thead><tbody>");
    cJSON_ArrayForEach(t, list)
    {
        buf_add(b, "<tr><td>");
        html_link_device(b, str(t, "deviceKey"), str(t, "deviceName"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(t, "driverVersion"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(t, "test"));
        buf_printf(
            b, "</td><td class=\"number\">%.0f</td><td class=\"number\">%.0f</td><td class=\"number\">%.0f</td></tr>",
            num(t, "runs"), num(t, "failures"), num(t, "runsNeeded"));
    }
    buf_add(b, "</tbody></table>");
}
