/* "/capabilities": every smoke capability, test, extension, feature, limit and format over the
 * distinct devices of the set (each device's newest report; smoke verdicts combined over the
 * machines of its newest driver), declared beside verified. "/capabilities/<kind>:<name>": one
 * item, by its qualified name (limit:VkPhysicalDeviceLimits.maxComputeSharedMemorySize) or, where
 * one struct alone has the member, its bare name; an unknown name is a 404 with the closest ones. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_path.h"
#include "fleet_verdict.h"
#include "html_page.h"
#include "item_names.h"
#include "items.h"
#include "pages.h"

#define CLOSEST 8

static int64_t device_count(struct db *db, const struct filter_sql *f)
{
    struct buf sql = {0};
    buf_printf(&sql, "SELECT COUNT(*) FROM devices d WHERE 1 = 1%s", f->where.data);
    struct db_result *r = db_query_dynamic(db, sql.data, f->params, f->count);
    buf_free(&sql);
    int64_t n = db_result_rows(r) ? db_result_int(r, 0, 0) : -1;
    db_result_free(r);
    return n;
}

void view_capabilities(struct db *db, const struct page_request *request, struct view_response *out)
{
    const struct query_args *q = request->query;
    struct filter_sql f;
    if (!filter_build(db, q, &f, out)) {
        filter_free(&f);
        return;
    }
    const char *kind = query_get(q, "kind");
    if (kind && *kind && !items_kind_valid(kind)) {
        view_fail(out, 400, "kind=%.40s: use capability, test, extension, feature, limit or format", kind);
        filter_free(&f);
        return;
    }
    int64_t devices = device_count(db, &f);
    struct buf sql = {0};
    struct db_param params[20];
    int count = 0;
    if (filters_given(&f)) {
        /* a filtered set: counted from the devices' rows (one indexed pass over the set's items) */
        buf_printf(
            &sql,
            "SELECT c.kind, c.name, COUNT(*), SUM(c.declared), SUM(CASE WHEN c.verdict = 'pass' THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN c.declared = 1 AND c.verdict IN ('fail', 'not_applied', 'crashed', 'timeout', "
            "'device_lost', 'flaky') THEN 1 ELSE 0 END) FROM current_items c JOIN devices d ON d.device_key = "
            "c.device_key WHERE 1 = 1%s%s GROUP BY c.kind, c.name ORDER BY c.kind, c.name",
            f.where.data, kind && *kind ? " AND c.kind = ?" : "");
        memcpy(params, f.params, sizeof(f.params[0]) * (size_t)f.count);
        count = f.count;
    } else {
        /* the whole fleet: the counts kept at ingest */
        buf_printf(&sql,
                   "SELECT kind, name, devices, declared, verified, failed FROM item_counts WHERE devices > 0%s "
                   "ORDER BY kind, name",
                   kind && *kind ? " AND kind = ?" : "");
    }
    if (kind && *kind)
        params[count++] = DB_TEXT(kind);
    struct db_result *r = devices < 0 ? NULL : db_query_dynamic(db, sql.data, params, count);
    buf_free(&sql);
    if (r == NULL) {
        view_db_failed(out, db);
        filter_free(&f);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "capabilities");
    filter_into_model(&f, out->model);
    filter_free(&f);
    if (kind && *kind)
        cJSON_AddStringToObject(out->model, "kind", kind);
    cJSON_AddNumberToObject(out->model, "devices", (double)devices);
    cJSON *list = cJSON_AddArrayToObject(out->model, "items");
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        cJSON *it = cJSON_CreateObject();
        char id[512];
        snprintf(id, sizeof(id), "%s:%s", db_result_text(r, i, 0), db_result_text(r, i, 1));
        cJSON_AddStringToObject(it, "id", id);
        cJSON_AddStringToObject(it, "kind", db_result_text(r, i, 0));
        cJSON_AddStringToObject(it, "name", db_result_text(r, i, 1));
        cJSON_AddNumberToObject(it, "devicesReporting", (double)db_result_int(r, i, 2));
        cJSON_AddNumberToObject(it, "devicesDeclaring", (double)db_result_int(r, i, 3));
        cJSON_AddNumberToObject(it, "devicesVerified", (double)db_result_int(r, i, 4));
        cJSON_AddNumberToObject(it, "devicesDeclaredFailing", (double)db_result_int(r, i, 5));
        view_add_share(it, "declaredShare", db_result_int(r, i, 3), devices);
        view_add_share(it, "verifiedShare", db_result_int(r, i, 4), devices);
        cJSON_AddItemToArray(list, it);
    }
    db_result_free(r);
    out->status = 200;
}

static int compare_numbers(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void add_distribution(cJSON *model, struct db_result *r, size_t value_column, size_t number_column)
{
    /* value -> number of devices, in numeric order when the values are numbers */
    cJSON *distribution = cJSON_AddArrayToObject(model, "distribution");
    size_t rows = db_result_rows(r), reporting = 0;
    double *numbers = calloc(rows + 1, sizeof(*numbers));
    size_t n = 0;
    for (size_t i = 0; numbers && i < rows; ++i) {
        if (db_result_null(r, i, value_column))
            continue; /* a device that does not report it */
        ++reporting;
        if (!db_result_null(r, i, number_column))
            numbers[n++] = db_result_real(r, i, number_column);
    }
    if (numbers && n == reporting && n > 0) {
        qsort(numbers, n, sizeof(*numbers), compare_numbers);
        for (size_t i = 0; i < n;) {
            size_t j = i;
            while (j < n && numbers[j] == numbers[i])
                ++j;
            cJSON *bucket = cJSON_CreateObject();
            char text[48];
            snprintf(text, sizeof(text), "%.17g", numbers[i]);
            cJSON_AddStringToObject(bucket, "value", text);
            cJSON_AddNumberToObject(bucket, "devices", (double)(j - i));
            cJSON_AddItemToArray(distribution, bucket);
            i = j;
        }
    } else { /* texts (flag sets, arrays): grouped by the text */
        for (size_t i = 0; i < rows; ++i) {
            if (db_result_null(r, i, value_column))
                continue;
            const char *value = db_result_text(r, i, value_column);
            cJSON *bucket = NULL, *b;
            cJSON_ArrayForEach(b, distribution) if (strcmp(str(b, "value"), value) == 0) bucket = b;
            if (bucket == NULL) {
                bucket = cJSON_CreateObject();
                cJSON_AddStringToObject(bucket, "value", value);
                cJSON_AddNumberToObject(bucket, "devices", 0);
                cJSON_AddItemToArray(distribution, bucket);
            }
            cJSON *count = cJSON_GetObjectItemCaseSensitive(bucket, "devices");
            cJSON_SetNumberValue(count, count->valuedouble + 1);
        }
    }
    free(numbers);
}

static void add_format_bits(cJSON *model, struct db_result *r, size_t value_column, int64_t devices)
{
    /* per tiling and bit: how many devices' newest reports declare it */
    cJSON *bits = cJSON_CreateObject();
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        if (db_result_null(r, i, value_column))
            continue;
        cJSON *value = cJSON_Parse(db_result_text(r, i, value_column));
        const cJSON *tiling, *bit;
        cJSON_ArrayForEach(tiling, value)
        {
            cJSON *counts = cJSON_GetObjectItemCaseSensitive(bits, tiling->string);
            if (counts == NULL)
                counts = cJSON_AddObjectToObject(bits, tiling->string);
            cJSON_ArrayForEach(bit, tiling)
            {
                if (!cJSON_IsString(bit))
                    continue;
                cJSON *count = cJSON_GetObjectItemCaseSensitive(counts, bit->valuestring);
                if (count == NULL)
                    cJSON_AddNumberToObject(counts, bit->valuestring, 1);
                else
                    cJSON_SetNumberValue(count, count->valuedouble + 1);
            }
        }
        cJSON_Delete(value);
    }
    cJSON *list = cJSON_AddArrayToObject(model, "formatFeatures");
    const cJSON *tiling, *count;
    cJSON_ArrayForEach(tiling, bits)
    {
        cJSON_ArrayForEach(count, tiling)
        {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "tiling", tiling->string);
            cJSON_AddStringToObject(o, "feature", count->string);
            cJSON_AddNumberToObject(o, "devices", count->valuedouble);
            view_add_share(o, "share", json_number_i64(count, 0), devices);
            cJSON_AddItemToArray(list, o);
        }
    }
    cJSON_Delete(bits);
}

/* The item the id names: `name` qualified where the bare member is unambiguous. false with `out`
 * set to 404 (and the closest names in its model) when nothing by that name exists. */
static bool resolve(struct db *db, const char *kind, const char *asked, char name[ITEM_NAME_MAX],
                    struct view_response *out)
{
    snprintf(name, ITEM_NAME_MAX, "%s", asked);
    const struct db_param p[] = {DB_TEXT(kind), DB_TEXT(asked)};
    struct db_result *r = db_query(db, "SELECT 1 FROM item_counts WHERE kind = ? AND name = ? AND devices > 0", p, 2);
    if (r == NULL) {
        view_db_failed(out, db);
        return false;
    }
    bool stored = db_result_rows(r) > 0;
    db_result_free(r);
    if (stored || item_name_defined(kind, asked))
        return true;
    char(*names)[ITEM_NAME_MAX] = calloc(CLOSEST, sizeof(*names));
    if (names == NULL) {
        view_fail(out, 500, "out of memory");
        return false;
    }
    size_t found = item_name_qualify(kind, asked, names, CLOSEST);
    if (found == 1) {
        snprintf(name, ITEM_NAME_MAX, "%s", names[0]);
        free(names);
        return true;
    }
    if (found > 1) {
        view_fail(out, 404, "%s:%.100s is a member of %zu structs: name one of them as Struct.%.100s", kind, asked,
                  found, asked);
    } else {
        /* the names the database knows of this kind, beside vk.xml's */
        r = db_query(db, "SELECT name FROM item_counts WHERE kind = ? AND devices > 0", p, 1);
        size_t rows = db_result_rows(r);
        const char **extra = calloc(rows + 1, sizeof(*extra));
        for (size_t i = 0; extra && i < rows; ++i)
            extra[i] = db_result_text(r, i, 0);
        found = item_names_closest(kind, asked, extra, extra ? rows : 0, names, CLOSEST);
        free(extra);
        db_result_free(r);
        view_fail(out, 404, "no %s named '%.120s' is known%s", kind, asked, found ? "; the closest names follow" : "");
    }
    out->model = cJSON_CreateObject();
    cJSON *closest = cJSON_AddArrayToObject(out->model, "closest");
    for (size_t i = 0; i < found && i < CLOSEST; ++i) {
        char id[ITEM_NAME_MAX + 16];
        snprintf(id, sizeof(id), "%s:%s", kind, names[i]);
        cJSON_AddItemToArray(closest, cJSON_CreateString(id));
    }
    free(names);
    return false;
}

void view_capability(struct db *db, const struct page_request *request, struct view_response *out)
{
    const char *id = request->part[0];
    char kind[16];
    const char *colon = strchr(id, ':');
    if (colon == NULL || (size_t)(colon - id) >= sizeof(kind) || colon[1] == '\0') {
        view_fail(out, 404, "'%.80s' is not a capability id (kind:name, e.g. extension:VK_KHR_swapchain)", id);
        return;
    }
    snprintf(kind, sizeof(kind), "%.*s", (int)(colon - id), id);
    if (!items_kind_valid(kind)) {
        view_fail(out, 404,
                  "'%.80s' is not a capability id: the kinds are capability, test, extension, feature, "
                  "limit and format",
                  id);
        return;
    }
    char name[ITEM_NAME_MAX];
    if (!resolve(db, kind, colon + 1, name, out))
        return;
    struct filter_sql f;
    if (!filter_build(db, request->query, &f, out)) {
        filter_free(&f);
        return;
    }
    int64_t devices = device_count(db, &f);
    struct db_param params[20];
    params[0] = DB_TEXT(kind);
    params[1] = DB_TEXT(name);
    memcpy(params + 2, f.params, sizeof(f.params[0]) * (size_t)f.count);
    struct buf sql = {0};
    /* every device of the set, with this item's row where it has one */
    buf_printf(
        &sql,
        "SELECT d.device_key, d.vendor, d.device_name, d.newest_driver, c.declared, c.verdict, c.value, c.number, "
        "s.driver_version, e.report_id, n.runs, n.failures FROM devices d JOIN entries e ON e.id = d.current_entry "
        "LEFT JOIN current_items c ON c.device_key = d.device_key AND c.kind = ? AND c.name = ? "
        "LEFT JOIN first_seen s ON s.device_key = d.device_key AND s.kind = c.kind AND s.name = c.name "
        "LEFT JOIN driver_runs n ON c.kind = 'test' AND n.device_key = d.device_key AND n.driver_raw = "
        "d.newest_driver_raw AND n.name = c.name "
        "WHERE 1 = 1%s ORDER BY d.vendor, d.device_name, d.device_key",
        f.where.data);
    struct db_result *r = devices < 0 ? NULL : db_query_dynamic(db, sql.data, params, 2 + f.count);
    buf_free(&sql);
    if (r == NULL) {
        view_db_failed(out, db);
        filter_free(&f);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "capability");
    char full[ITEM_NAME_MAX + 16];
    snprintf(full, sizeof(full), "%s:%s", kind, name);
    cJSON_AddStringToObject(out->model, "title", full);
    cJSON_AddStringToObject(out->model, "id", full);
    if (strcmp(name, colon + 1) != 0)
        cJSON_AddStringToObject(out->model, "aliasOf", id);
    cJSON_AddStringToObject(out->model, "kind", kind);
    cJSON_AddStringToObject(out->model, "name", name);
    filter_into_model(&f, out->model);
    filter_free(&f);
    cJSON_AddNumberToObject(out->model, "devices", (double)devices);
    cJSON *declaring = cJSON_AddArrayToObject(out->model, "declaring");
    cJSON *failing = cJSON_AddArrayToObject(out->model, "declaredButFailing");
    cJSON *lacking = cJSON_AddArrayToObject(out->model, "lacking");
    int64_t declared = 0, verified = 0;
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        cJSON *d = cJSON_CreateObject();
        cJSON_AddStringToObject(d, "deviceKey", db_result_text(r, i, 0));
        cJSON_AddStringToObject(d, "vendor", db_result_text(r, i, 1));
        cJSON_AddStringToObject(d, "deviceName", db_result_text(r, i, 2));
        cJSON_AddStringToObject(d, "newestDriver", db_result_text(r, i, 3));
        cJSON_AddNumberToObject(d, "newestReport", (double)db_result_int(r, i, 9));
        bool has = !db_result_null(r, i, 4) && db_result_int(r, i, 4) != 0;
        const char *verdict = db_result_text(r, i, 5);
        if (*verdict)
            cJSON_AddStringToObject(d, "verdict", verdict);
        if (!db_result_null(r, i, 6) && *db_result_text(r, i, 6) && strcmp(kind, "format") != 0)
            cJSON_AddStringToObject(d, "value", db_result_text(r, i, 6));
        if (!db_result_null(r, i, 8))
            cJSON_AddStringToObject(d, "firstDriver", db_result_text(r, i, 8));
        if (!db_result_null(r, i, 10)) { /* a test: its verdict with a confidence over every run (fleet_verdict.h) */
            struct fleet_measure m;
            fleet_measure((int)db_result_int(r, i, 10), (int)db_result_int(r, i, 11), &m);
            cJSON *measured = cJSON_AddObjectToObject(d, "measured");
            cJSON_AddStringToObject(measured, "verdict", m.verdict);
            cJSON_AddNumberToObject(measured, "runs", m.runs);
            cJSON_AddNumberToObject(measured, "failures", m.failures);
            cJSON_AddNumberToObject(measured, "failureRate", m.rate);
            cJSON_AddNumberToObject(measured, "low", m.low);
            cJSON_AddNumberToObject(measured, "high", m.high);
        }
        declared += has;
        verified += strcmp(verdict, "pass") == 0;
        if (has && items_verdict_failing(verdict))
            cJSON_AddItemToArray(failing, cJSON_Duplicate(d, 1));
        cJSON_AddItemToArray(has ? declaring : lacking, d);
    }
    cJSON_AddNumberToObject(out->model, "devicesDeclaring", (double)declared);
    cJSON_AddNumberToObject(out->model, "devicesVerified", (double)verified);
    view_add_share(out->model, "declaredShare", declared, devices);
    view_add_share(out->model, "verifiedShare", verified, devices);
    /* values: of the devices that report the item (the rows above with a value) */
    if (strcmp(kind, "limit") == 0)
        add_distribution(out->model, r, 6, 7);
    else if (strcmp(kind, "format") == 0)
        add_format_bits(out->model, r, 6, devices);
    db_result_free(r);
    out->status = 200;
}

/* ---- HTML ---- */

static void capability_link(struct buf *b, const char *id, const char *query)
{
    buf_add(b, "<a href=\"/capabilities/");
    buf_url(b, id);
    html_query_suffix(b, query, true);
    buf_add(b, "\">");
}

void html_capabilities(const cJSON *m, const struct page_context *c, struct buf *b)
{
    double devices = num(m, "devices");
    buf_printf(b,
               "<h1>Coverage</h1><p>Shares of %.0f distinct devices (each device's newest report; a smoke verdict "
               "combines the machines of its newest driver): the blue bar declares, the green bar is verified by a "
               "smoke test.</p><p>",
               devices);
    static const char *const kinds[] = {"capability", "test", "extension", "feature", "limit", "format"};
    buf_add(b, "<a href=\"/capabilities\">all</a>");
    for (size_t k = 0; k < 6; ++k)
        buf_printf(b, " · <a href=\"/capabilities?kind=%s\">%s</a>", kinds[k], kinds[k]);
    buf_add(b, "</p>");
    html_filter_form(b, m, "/capabilities");
    buf_add(b, "<p><input placeholder=\"filter rows\" data-filter=\"#coverage tbody tr\"></p>"
               "<table class=\"sortable\" id=\"coverage\"><thead><tr><th>kind</th><th>name</th><th>declared</th>"
               "<th>verified</th><th>declared but failing</th><th>share</th></tr></thead><tbody>");
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(m, "items"))
    {
        bool failing = num(it, "devicesDeclaredFailing") > 0;
        buf_printf(b, "<tr%s><td>", failing ? " class=\"regression\"" : "");
        buf_escape(b, str(it, "kind"));
        buf_add(b, "</td><td>");
        capability_link(b, str(it, "id"), c->query);
        buf_escape(b, str(it, "name"));
        bool smoke = strcmp(str(it, "kind"), "capability") == 0 || strcmp(str(it, "kind"), "test") == 0;
        buf_printf(b, "</a></td><td>%.1f%% (%.0f)</td>", num(it, "declaredShare") * 100, num(it, "devicesDeclaring"));
        if (smoke)
            buf_printf(b, "<td>%.1f%% (%.0f)</td><td class=\"number%s\">%.0f</td><td>", num(it, "verifiedShare") * 100,
                       num(it, "devicesVerified"), failing ? " fail" : "", num(it, "devicesDeclaredFailing"));
        else
            buf_add(b, "<td class=\"muted\">declared only</td><td class=\"muted\">-</td><td>");
        char label[64];
        snprintf(label, sizeof(label), "%.1f%% declare", num(it, "declaredShare") * 100);
        svg_share_bar(b, num(it, "declaredShare"), num(it, "verifiedShare"), label);
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table>");
}

/* `measured`: a test's column of its verdict with a confidence */
static void device_list(struct buf *b, const cJSON *list, const char *title, const char *css_class, bool values,
                        bool verdicts, bool measured)
{
    buf_printf(b, "<h2>%s (%d)</h2>", title, cJSON_GetArraySize(list));
    if (cJSON_GetArraySize(list) == 0)
        return;
    buf_printf(b,
               "<table class=\"sortable %s\"><thead><tr><th>vendor</th><th>device</th><th>newest driver</th>%s"
               "%s%s<th>first driver with it</th></tr></thead><tbody>",
               css_class, verdicts ? "<th>verdict</th>" : "", measured ? "<th>measured over every run</th>" : "",
               values ? "<th>value</th>" : "");
    const cJSON *d;
    cJSON_ArrayForEach(d, list)
    {
        buf_add(b, "<tr><td>");
        buf_escape(b, str(d, "vendor"));
        buf_add(b, "</td><td>");
        html_link_device(b, str(d, "deviceKey"), str(d, "deviceName"));
        buf_add(b, "</td><td>");
        html_link_report(b, num(d, "newestReport"), str(d, "newestDriver"));
        buf_add(b, "</td>");
        if (verdicts)
            html_verdict_cell(b, str(d, "verdict"));
        const cJSON *runs = cJSON_GetObjectItemCaseSensitive(d, "measured");
        if (measured && runs != NULL) {
            struct fleet_measure m;
            fleet_measure((int)num(runs, "runs"), (int)num(runs, "failures"), &m);
            char text[160];
            fleet_measure_text(&m, text, sizeof(text));
            buf_printf(b, "<td class=\"muted\">%s: ", m.verdict);
            buf_escape(b, text);
            buf_add(b, "</td>");
        } else if (measured) {
            buf_add(b, "<td></td>");
        }
        if (values) {
            buf_add(b, "<td><code>");
            buf_escape(b, str(d, "value"));
            buf_add(b, "</code></td>");
        }
        buf_add(b, "<td>");
        buf_escape(b, str(d, "firstDriver"));
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table>");
}

void html_capability(const cJSON *m, const struct page_context *c, struct buf *b)
{
    (void)c;
    buf_add(b, "<h1>");
    buf_escape(b, str(m, "kind"));
    buf_add(b, " ");
    buf_escape(b, str(m, "name"));
    buf_add(b, "</h1>");
    if (*str(m, "aliasOf")) {
        buf_add(b, "<p class=\"muted\">");
        buf_escape(b, str(m, "aliasOf"));
        buf_add(b, " names this item: one struct alone has the member.</p>");
    }
    /* only smoke capabilities and tests have a verdict; the rest is what drivers declare */
    bool smoke = strcmp(str(m, "kind"), "capability") == 0 || strcmp(str(m, "kind"), "test") == 0;
    bool test = strcmp(str(m, "kind"), "test") == 0;
    buf_printf(b, "<p>%.0f of %.0f devices declare it (%.1f%%)", num(m, "devicesDeclaring"), num(m, "devices"),
               num(m, "declaredShare") * 100);
    if (smoke)
        buf_printf(b, ", %.0f verified working over their newest driver's machines (%.1f%%)", num(m, "devicesVerified"),
                   num(m, "verifiedShare") * 100);
    buf_add(b, ".</p>");
    svg_share_bar(b, num(m, "declaredShare"), num(m, "verifiedShare"), "share of devices");
    const cJSON *distribution = cJSON_GetObjectItemCaseSensitive(m, "distribution");
    if (distribution) {
        size_t n = (size_t)cJSON_GetArraySize(distribution);
        const char **labels = calloc(n + 1, sizeof(*labels));
        long *counts = calloc(n + 1, sizeof(*counts));
        size_t i = 0;
        const cJSON *bucket;
        cJSON_ArrayForEach(bucket, distribution)
        {
            if (labels && counts) {
                labels[i] = str(bucket, "value");
                counts[i++] = (long)num(bucket, "devices");
            }
        }
        buf_add(b, "<h2>Values</h2>");
        if (labels && counts)
            svg_distribution(b, labels, counts, i);
        free(labels);
        free(counts);
    }
    const cJSON *bits = cJSON_GetObjectItemCaseSensitive(m, "formatFeatures");
    if (bits) {
        buf_add(b, "<h2>Format features</h2><table class=\"sortable\"><thead><tr><th>tiling</th><th>feature</th>"
                   "<th>devices</th><th>share</th></tr></thead><tbody>");
        const cJSON *f;
        cJSON_ArrayForEach(f, bits)
        {
            buf_add(b, "<tr><td>");
            buf_escape(b, str(f, "tiling"));
            buf_add(b, "</td><td>");
            buf_escape(b, str(f, "feature"));
            buf_printf(b, "</td><td>%.0f</td><td>", num(f, "devices"));
            svg_share_bar(b, num(f, "share"), 0, "share");
            buf_add(b, "</td></tr>");
        }
        buf_add(b, "</tbody></table>");
    }
    html_filter_form(b, m, "");
    bool values = strcmp(str(m, "kind"), "limit") == 0 || strcmp(str(m, "kind"), "extension") == 0;
    if (smoke)
        device_list(b, cJSON_GetObjectItemCaseSensitive(m, "declaredButFailing"), "Declare it but fail it", "failing",
                    values, true, test);
    device_list(b, cJSON_GetObjectItemCaseSensitive(m, "declaring"), "Declare it", "declaring", values, smoke, test);
    device_list(b, cJSON_GetObjectItemCaseSensitive(m, "lacking"), "Lack it", "lacking", values, smoke, false);
}
