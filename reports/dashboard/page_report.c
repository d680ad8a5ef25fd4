/* "/reports/<id>": one report as a person reads it: per device a summary (what failed, regressed
 * or was not applied first), every smoke test's evidence rendered by kind with the artifacts it
 * names inline, the verdict of the same test over every machine of this (device, driver), spec-
 * minimum violations, identity and every declared value. Downloads: the exact bytes, a Vulkan
 * Profiles document per device, JUnit; "/artifacts/<sha256>.png" serves an uploaded image. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifact_store.h"
#include "evidence_html.h"
#include "html_page.h"
#include "ingest.h"
#include "items.h"
#include "junit.h"
#include "pages.h"
#include "profile_export.h"
#include "report_model.h"

static cJSON *declared_groups(const cJSON *declared)
{
    /* every declared value, grouped by struct: [{group, struct, values: {member: value}}] */
    cJSON *groups = cJSON_CreateArray();
    const cJSON *block, *structure;
    cJSON_ArrayForEach(block, declared)
    {
        if (cJSON_IsObject(block) &&
            (strcmp(block->string, "features") == 0 || strcmp(block->string, "properties") == 0)) {
            cJSON_ArrayForEach(structure, block)
            {
                cJSON *g = cJSON_CreateObject();
                cJSON_AddStringToObject(g, "group", block->string);
                cJSON_AddStringToObject(g, "struct", structure->string);
                cJSON_AddItemToObject(g, "values", cJSON_Duplicate(structure, 1));
                cJSON_AddItemToArray(groups, g);
            }
        } else {
            cJSON *g = cJSON_CreateObject();
            cJSON_AddStringToObject(g, "group", block->string);
            cJSON_AddStringToObject(g, "struct", block->string);
            cJSON_AddItemToObject(g, "values", cJSON_Duplicate(block, 1));
            cJSON_AddItemToArray(groups, g);
        }
    }
    return groups;
}

static bool needs_attention(const cJSON *test)
{
    const cJSON *fleet = cJSON_GetObjectItemCaseSensitive(test, "fleet");
    return items_verdict_failing(str(test, "status")) || strcmp(str(test, "change"), "regression") == 0 ||
           items_verdict_failing(str(fleet, "verdict"));
}

/* The fleet's verdict of each test for this report's (device, driver), and its change from the
 * device's previous driver, onto the device's smoke entries. */
static bool add_fleet(struct db *db, int64_t report_id, cJSON *d)
{
    const struct db_param p[] = {DB_INT(report_id), DB_INT(num(d, "index"))};
    struct db_result *e =
        db_query(db,
                 "SELECT e.device_key, e.driver_raw, e.driver_version, v.machines, v.previous_version "
                 "FROM entries e LEFT JOIN drivers v ON v.device_key = e.device_key AND "
                 "v.driver_raw = e.driver_raw WHERE e.report_id = ? AND e.device_index = ?",
                 p, 2);
    if (e == NULL)
        return false;
    if (db_result_rows(e) == 0) {
        db_result_free(e);
        return true;
    }
    cJSON_AddStringToObject(d, "driverVersion", db_result_text(e, 0, 2));
    cJSON_AddNumberToObject(d, "driverMachines", (double)db_result_int(e, 0, 3));
    cJSON_AddStringToObject(d, "previousDriver", db_result_text(e, 0, 4));
    const struct db_param key[] = {DB_TEXT(db_result_text(e, 0, 0)), DB_INT(db_result_int(e, 0, 1))};
    struct db_result *t = db_query(db,
                                   "SELECT name, verdict, detail, machines, failing FROM driver_tests "
                                   "WHERE device_key = ? AND driver_raw = ? AND kind = 'test'",
                                   key, 2);
    struct db_result *c = t ? db_query(db,
                                       "SELECT name, change, before FROM driver_changes WHERE device_key = ? AND "
                                       "driver_raw = ?",
                                       key, 2)
                            : NULL;
    db_result_free(e);
    if (t == NULL || c == NULL) {
        db_result_free(t);
        return false;
    }
    cJSON *smoke = cJSON_GetObjectItemCaseSensitive(d, "smoke");
    cJSON *test;
    cJSON_ArrayForEach(test, smoke)
    {
        for (size_t i = 0; i < db_result_rows(t); ++i) {
            if (strcmp(db_result_text(t, i, 0), str(test, "id")) != 0)
                continue;
            cJSON *fleet = cJSON_AddObjectToObject(test, "fleet");
            cJSON_AddStringToObject(fleet, "verdict", db_result_text(t, i, 1));
            cJSON_AddStringToObject(fleet, "detail", db_result_text(t, i, 2));
            cJSON_AddNumberToObject(fleet, "machines", (double)db_result_int(t, i, 3));
            cJSON_AddNumberToObject(fleet, "failing", (double)db_result_int(t, i, 4));
        }
        for (size_t i = 0; i < db_result_rows(c); ++i) {
            if (strcmp(db_result_text(c, i, 0), str(test, "id")) != 0)
                continue;
            cJSON_AddStringToObject(test, "change", db_result_text(c, i, 1));
            cJSON_AddStringToObject(test, "previousVerdict", db_result_text(c, i, 2));
        }
    }
    db_result_free(t);
    db_result_free(c);
    return true;
}

void view_report(struct db *db, const struct page_request *request, struct view_response *out)
{
    int64_t id;
    if (!view_parse_id(request->part[0], &id)) {
        view_fail(out, 404, "no report '%.40s'", request->part[0]);
        return;
    }
    const struct db_param p = DB_INT(id);
    char not_found[64];
    snprintf(not_found, sizeof(not_found), "no report %lld", (long long)id);
    struct db_result *r = view_query_one(db,
                                         "SELECT uploaded, token, peer, host, created, generator, body_bytes, "
                                         "idempotency_key FROM reports WHERE id = ?",
                                         &p, 1, out, not_found);
    if (r == NULL)
        return;
    struct db_result *a = db_query(db,
                                   "SELECT a.sha256, (SELECT COUNT(*) FROM artifacts s WHERE s.sha256 = a.sha256) "
                                   "FROM report_artifacts a WHERE a.report_id = ?",
                                   &p, 1);
    cJSON *report = a ? view_load_report(db, id, out) : NULL;
    if (report == NULL) {
        if (a == NULL)
            view_db_failed(out, db);
        db_result_free(r);
        db_result_free(a);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "report");
    char title[48];
    snprintf(title, sizeof(title), "Report %lld", (long long)id);
    cJSON_AddStringToObject(out->model, "title", title);
    cJSON_AddNumberToObject(out->model, "id", (double)id);
    static const char *const names[] = {"uploaded", "token", "peer", "host", "created", "generator"};
    for (size_t c = 0; c < 6; ++c)
        cJSON_AddStringToObject(out->model, names[c], db_result_text(r, 0, c));
    cJSON_AddNumberToObject(out->model, "bytes", (double)db_result_int(r, 0, 6));
    cJSON_AddStringToObject(out->model, "idempotencyKey", db_result_text(r, 0, 7));
    db_result_free(r);
    cJSON *stored = cJSON_AddObjectToObject(out->model, "artifacts");
    for (size_t i = 0; i < db_result_rows(a); ++i)
        cJSON_AddBoolToObject(stored, db_result_text(a, i, 0), db_result_int(a, i, 1) > 0);
    db_result_free(a);
    cJSON *devices = cJSON_AddArrayToObject(out->model, "devices");
    const cJSON *device;
    int index = 0;
    bool ok = true;
    REPORT_FOR_EACH_DEVICE(device, report)
    {
        cJSON *d = cJSON_CreateObject();
        cJSON_AddItemToArray(devices, d);
        cJSON_AddNumberToObject(d, "index", index++);
        cJSON_AddItemToObject(d, "identity", cJSON_Duplicate(report_identity_block(device), 1));
        cJSON_AddItemToObject(d, "smoke", cJSON_Duplicate(report_smoke_results(device), 1));
        cJSON_AddItemToObject(d, "spec_minimums", cJSON_Duplicate(report_spec_minimums(device), 1));
        cJSON_AddItemToObject(d, "declared", declared_groups(report_declared(device)));
        ok = ok && add_fleet(db, id, d);
        cJSON *summary = cJSON_AddObjectToObject(d, "summary");
        cJSON *attention = cJSON_AddArrayToObject(d, "attention");
        const cJSON *test;
        cJSON_ArrayForEach(test, cJSON_GetObjectItemCaseSensitive(d, "smoke"))
        {
            const char *status = str(test, "status");
            cJSON *count = cJSON_GetObjectItemCaseSensitive(summary, status);
            if (count == NULL)
                cJSON_AddNumberToObject(summary, status, 1);
            else
                cJSON_SetNumberValue(count, count->valuedouble + 1);
            if (needs_attention(test))
                cJSON_AddItemToArray(attention, cJSON_CreateString(str(test, "id")));
        }
        cJSON_AddNumberToObject(summary, "regressed", 0);
        cJSON_ArrayForEach(test, cJSON_GetObjectItemCaseSensitive(d, "smoke"))
        {
            if (strcmp(str(test, "change"), "regression") == 0)
                cJSON_SetNumberValue(cJSON_GetObjectItemCaseSensitive(summary, "regressed"),
                                     num(summary, "regressed") + 1);
        }
    }
    cJSON_Delete(report);
    if (!ok) {
        view_db_failed(out, db);
        return;
    }
    out->status = 200;
}

void view_report_download(struct db *db, const struct page_request *request, struct view_response *out)
{
    int64_t id;
    const char *what = request->part[1];
    if (!view_parse_id(request->part[0], &id)) {
        view_fail(out, 404, "no report '%.40s'", request->part[0]);
        return;
    }
    char filename[64];
    if (strcmp(what, "report.json") == 0) {
        size_t length = 0;
        char *body = ingest_load_body(db, id, &length);
        if (body == NULL) {
            view_fail(out, 404, "no report %lld", (long long)id);
            return;
        }
        snprintf(filename, sizeof(filename), "report-%lld.json", (long long)id);
        view_download(out, body, length, "application/json", filename);
        return;
    }
    if (strcmp(what, "profile.json") != 0 && strcmp(what, "junit.xml") != 0) {
        view_fail(out, 404, "no download '%.60s'", what);
        return;
    }
    cJSON *report = view_load_report(db, id, out);
    if (report == NULL)
        return;
    if (strcmp(what, "profile.json") == 0) {
        const char *d = query_get(request->query, "device");
        long index = d ? strtol(d, NULL, 10) : 0;
        const cJSON *device = view_device_of(report, (int)index);
        if (device == NULL) {
            view_fail(out, 404, "the report has no device %.20s", d ? d : "0");
        } else {
            cJSON *profile = profile_export(device);
            snprintf(filename, sizeof(filename), "report-%lld-device-%ld.profile.json", (long long)id, index);
            view_download_json(out, profile, filename);
            cJSON_Delete(profile);
        }
    } else {
        char *data = NULL;
        size_t length = 0;
        FILE *stream = open_memstream(&data, &length);
        if (stream == NULL) {
            view_fail(out, 500, "out of memory");
        } else {
            junit_write(&report, 1, stream);
            fclose(stream);
            snprintf(filename, sizeof(filename), "report-%lld.junit.xml", (long long)id);
            view_download(out, data, length, "application/xml", filename);
        }
    }
    cJSON_Delete(report);
}

void view_artifact(struct db *db, const struct page_request *request, struct view_response *out)
{
    const char *name = request->part[0];
    char sha[65];
    size_t n = strlen(name);
    if (n != 68 || strcmp(name + 64, ".png") != 0) {
        view_fail(out, 404, "no artifact '%.80s' (artifacts are /artifacts/<sha256>.png)", name);
        return;
    }
    snprintf(sha, sizeof(sha), "%.64s", name);
    size_t length = 0;
    void *data = report_artifact_hash_valid(sha) ? artifact_load(db, sha, &length) : NULL;
    if (data == NULL) {
        view_fail(out, 404, "no artifact %s has been uploaded", sha);
        return;
    }
    view_download(out, data, length, "image/png", "");
    snprintf(out->immutable, sizeof(out->immutable), "%s", sha);
}

/* ---- HTML ---- */

/* A test rerun by preflight-probe --repeat: the verdict over every run, then each later run with
 * its verdict, time, reason and evidence (the card above is the first run). */
static void reruns_html(const cJSON *test, const cJSON *stored, struct buf *b)
{
    const cJSON *reruns = cJSON_GetObjectItemCaseSensitive(test, "reruns");
    if (!cJSON_IsArray(reruns) || cJSON_GetArraySize(reruns) == 0)
        return;
    const cJSON *measured = cJSON_GetObjectItemCaseSensitive(test, "measured");
    buf_printf(b, "<div class=\"reruns\"><p>rerun %d time%s", cJSON_GetArraySize(reruns),
               cJSON_GetArraySize(reruns) == 1 ? "" : "s");
    if (cJSON_IsObject(measured)) {
        buf_printf(b, "; over its %.0f runs (%.0f failed): ", num(measured, "runs"), num(measured, "failures"));
        html_verdict(b, str(measured, "verdict"));
    }
    buf_add(b, "</p><table class=\"reruns\"><thead><tr><th>run</th><th>verdict</th><th>ms</th><th>reason</th>"
               "</tr></thead><tbody>");
    int run = 2;
    const cJSON *r;
    cJSON_ArrayForEach(r, reruns)
    {
        buf_printf(b, "<tr><td>%d</td>", run++);
        html_verdict_cell(b, str(r, "status"));
        buf_printf(b, "<td>%.1f</td><td>", num(r, "duration_ms"));
        buf_escape(b, str(r, "reason"));
        const cJSON *evidence = cJSON_GetObjectItemCaseSensitive(r, "evidence");
        if (cJSON_IsObject(evidence) && evidence->child != NULL) {
            buf_add(b, "<details><summary>evidence</summary>");
            evidence_html(b, evidence, stored);
            buf_add(b, "</details>");
        }
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table></div>");
}

static void test_card(const cJSON *test, const cJSON *stored, bool attention, struct buf *b)
{
    const char *id = str(test, "id");
    const cJSON *fleet = cJSON_GetObjectItemCaseSensitive(test, "fleet");
    buf_printf(b, "<section class=\"card%s\" id=\"test-", attention ? " attention" : "");
    buf_url(b, id);
    buf_add(b, "\"><h3>");
    buf_escape(b, id);
    buf_add(b, " ");
    html_verdict(b, str(test, "status"));
    buf_printf(b, " <span class=\"muted\">%.1f ms</span></h3>", num(test, "duration_ms"));
    if (strcmp(str(test, "change"), "regression") == 0) {
        buf_add(b, "<p class=\"regression\">regressed: ");
        buf_escape(b, str(test, "previousVerdict"));
        buf_add(b, " on the previous driver</p>");
    }
    if (fleet != NULL && strcmp(str(fleet, "verdict"), str(test, "status")) != 0) {
        buf_add(b, "<p class=\"fleet\">this driver over its machines: ");
        html_verdict(b, str(fleet, "verdict"));
        buf_add(b, " <span class=\"muted\">");
        buf_escape(b, str(fleet, "detail"));
        buf_add(b, "</span></p>");
    }
    if (*str(test, "reason")) {
        buf_add(b, "<p class=\"reason\">");
        buf_escape(b, str(test, "reason"));
        buf_add(b, "</p>");
    }
    evidence_html(b, cJSON_GetObjectItemCaseSensitive(test, "evidence"), stored);
    reruns_html(test, stored, b);
    buf_add(b, "</section>");
}

static bool not_run(const char *status)
{
    return strcmp(status, "unsupported") == 0 || strcmp(status, "skipped") == 0;
}

static void summary(const cJSON *d, struct buf *b)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(d, "summary");
    static const char *const order[] = {"fail",      "not_applied", "crashed",     "timeout", "device_lost",
                                        "regressed", "pass",        "unsupported", "skipped"};
    buf_add(b, "<div class=\"stats\">");
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); ++i) {
        double n = num(s, order[i]);
        bool bad = i < 6 && n > 0;
        if (n == 0 && i != 0 && i != 6)
            continue;
        buf_printf(b, "<div class=\"stat%s\"><b>%.0f</b>%s</div>", bad ? " bad" : "", n, order[i]);
    }
    buf_add(b, "</div>");
    const cJSON *attention = cJSON_GetObjectItemCaseSensitive(d, "attention");
    if (cJSON_GetArraySize(attention) == 0)
        return;
    buf_add(b, "<div class=\"warning\"><b>Needs attention</b><ul class=\"attention\">");
    const cJSON *id, *test;
    cJSON_ArrayForEach(id, attention)
    {
        cJSON_ArrayForEach(test, cJSON_GetObjectItemCaseSensitive(d, "smoke"))
        {
            if (strcmp(str(test, "id"), cJSON_GetStringValue(id)) != 0)
                continue;
            const cJSON *fleet = cJSON_GetObjectItemCaseSensitive(test, "fleet");
            buf_add(b, "<li><a href=\"#test-");
            buf_url(b, str(test, "id"));
            buf_add(b, "\">");
            buf_escape(b, str(test, "id"));
            buf_add(b, "</a> ");
            html_verdict(b, str(test, "status"));
            if (strcmp(str(test, "change"), "regression") == 0) {
                buf_add(b, " <b class=\"fail\">regressed</b> (");
                buf_escape(b, str(test, "previousVerdict"));
                buf_add(b, " on the previous driver)");
            }
            if (fleet && strcmp(str(fleet, "verdict"), str(test, "status")) != 0) {
                buf_add(b, " · over the driver's machines: ");
                html_verdict(b, str(fleet, "verdict"));
                buf_add(b, " <span class=\"muted\">");
                buf_escape(b, str(fleet, "detail"));
                buf_add(b, "</span>");
            }
            if (*str(test, "reason")) {
                buf_add(b, " — ");
                buf_escape(b, str(test, "reason"));
            }
            buf_add(b, "</li>");
        }
    }
    buf_add(b, "</ul></div>");
}

static void value_text(struct buf *b, const cJSON *v)
{
    if (cJSON_IsString(v)) {
        buf_escape(b, v->valuestring);
        return;
    }
    char *text = cJSON_PrintUnformatted(v);
    buf_escape(b, text ? text : "");
    free(text);
}

static void declared(const cJSON *d, struct buf *b)
{
    double index = num(d, "index");
    buf_printf(b,
               "<h3>Declared</h3><p><input placeholder=\"search declared values\" data-filter=\"#declared%.0f tr\" "
               "data-groups=\"#declared%.0f details\"></p><div id=\"declared%.0f\">",
               index, index, index);
    const cJSON *group;
    cJSON_ArrayForEach(group, cJSON_GetObjectItemCaseSensitive(d, "declared"))
    {
        const cJSON *values = cJSON_GetObjectItemCaseSensitive(group, "values");
        buf_add(b, "<details><summary>");
        buf_escape(b, str(group, "group"));
        buf_add(b, " · ");
        buf_escape(b, str(group, "struct"));
        buf_printf(b, " (%d)</summary><table><tbody>", cJSON_GetArraySize(values));
        const cJSON *v;
        cJSON_ArrayForEach(v, values)
        {
            buf_add(b, "<tr><th>");
            buf_escape(b, str(group, "struct"));
            buf_add(b, ".");
            buf_escape(b, v->string ? v->string : "");
            buf_add(b, "</th><td><code>");
            value_text(b, v);
            buf_add(b, "</code></td></tr>");
        }
        buf_add(b, "</tbody></table></details>");
    }
    buf_add(b, "</div>");
}

void html_report(const cJSON *m, const struct page_context *context, struct buf *b)
{
    (void)context;
    double id = num(m, "id");
    const cJSON *stored = cJSON_GetObjectItemCaseSensitive(m, "artifacts");
    buf_printf(b, "<h1>Report %.0f</h1><p>machine ", id);
    html_link_machine(b, str(m, "host"));
    buf_add(b, " · uploaded ");
    buf_escape(b, str(m, "uploaded"));
    buf_add(b, " with token <b>");
    buf_escape(b, str(m, "token"));
    buf_add(b, "</b> from ");
    buf_escape(b, str(m, "peer"));
    buf_add(b, " · probed ");
    buf_escape(b, str(m, "created"));
    buf_add(b, " by ");
    buf_escape(b, str(m, "generator"));
    buf_printf(b,
               " · downloads: <a href=\"/reports/%.0f/report.json\">report JSON</a> · "
               "<a href=\"/reports/%.0f/junit.xml\">JUnit</a></p>",
               id, id);
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(m, "devices");
    if (cJSON_GetArraySize(devices) == 0)
        buf_add(b, "<p class=\"warning\">This report has no Vulkan device: the machine saw no GPU or no driver.</p>");
    const cJSON *d;
    cJSON_ArrayForEach(d, devices)
    {
        const cJSON *identity = cJSON_GetObjectItemCaseSensitive(d, "identity");
        buf_add(b, "<h2>");
        buf_escape(b, str(identity, "deviceName"));
        buf_add(b, "</h2><p>driver <b>");
        buf_escape(b, *str(d, "driverVersion") ? str(d, "driverVersion") : str(identity, "driverVersion"));
        buf_add(b, "</b>");
        if (num(d, "driverMachines") > 0) {
            buf_add(b, " (reported by ");
            html_count(b, num(d, "driverMachines"), "machine", "machines");
            buf_add(b, ")");
        }
        buf_add(b, " · ");
        html_link_device(b, str(identity, "deviceKey"), "device history");
        buf_printf(b, " · <a href=\"/reports/%.0f/profile.json?device=%.0f\">Vulkan Profiles document</a></p>", id,
                   num(d, "index"));
        summary(d, b);
        const cJSON *smoke = cJSON_GetObjectItemCaseSensitive(d, "smoke");
        buf_add(b, "<h3>Smoke tests</h3><div class=\"cards\">");
        const cJSON *test;
        for (int pass = 0; pass < 2; ++pass) /* the ones that need attention first */
            cJSON_ArrayForEach(test, smoke)
            {
                bool attention = needs_attention(test);
                if (attention == (pass == 0) && !not_run(str(test, "status")))
                    test_card(test, stored, attention, b);
            }
        buf_add(b, "</div>");
        bool any = false;
        cJSON_ArrayForEach(test, smoke)
        {
            if (!not_run(str(test, "status")))
                continue;
            if (!any)
                buf_add(b, "<h3>Not run</h3><table class=\"sortable not-run\"><thead><tr><th>test</th><th>verdict</th>"
                           "<th>reason</th></tr></thead><tbody>");
            any = true;
            buf_add(b, "<tr><td>");
            buf_escape(b, str(test, "id"));
            buf_add(b, "</td>");
            html_verdict_cell(b, str(test, "status"));
            buf_add(b, "<td>");
            buf_escape(b, str(test, "reason"));
            buf_add(b, "</td></tr>");
        }
        if (any)
            buf_add(b, "</tbody></table>");
        buf_add(b, "<h3>Spec-minimum violations</h3>");
        const cJSON *violations = cJSON_GetObjectItemCaseSensitive(d, "spec_minimums");
        if (cJSON_GetArraySize(violations) == 0) {
            buf_add(b, "<p>none</p>");
        } else {
            buf_add(b, "<ul class=\"violations\">");
            const cJSON *v;
            cJSON_ArrayForEach(v, violations)
            {
                buf_add(b, "<li><code>");
                value_text(b, v);
                buf_add(b, "</code></li>");
            }
            buf_add(b, "</ul>");
        }
        buf_add(b, "<details open><summary><b>Identity</b></summary><table class=\"identity\"><tbody>");
        const cJSON *field;
        cJSON_ArrayForEach(field, identity)
        {
            buf_add(b, "<tr><th>");
            buf_escape(b, field->string);
            buf_add(b, "</th><td>");
            value_text(b, field);
            buf_add(b, "</td></tr>");
        }
        buf_add(b, "</tbody></table></details>");
        declared(d, b);
    }
}
