/* "/compare": up to COMPARE_COLUMNS columns side by side over every declared value (extensions,
 * features and limits by struct, formats), every smoke test and capability, and the identity:
 * r=ID for each device of a report, d=<deviceKey>@<driverVersionRaw> for a (device, driver) with
 * its tests combined over its machines. Without either, a picker of recent reports and drivers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_page.h"
#include "items.h"
#include "pages.h"
#include "report_model.h"

#define COMPARE_COLUMNS 8
#define PICKER_ROWS 200

struct column {
    cJSON *report; /* owned */
    const cJSON *device;
    struct item_list items;
    cJSON *info; /* the column's heading, for the model */
};

static const char *const identity_rows[] = {"driverVersion", "driverInfo", "apiVersion", "conformanceVersion",
                                            "driverName",    "os",         "kernel"};

/* Text shown in a cell, and compared across a row. */
static void cell_text(const struct item *it, char *out, size_t size)
{
    if (strcmp(it->kind, "test") == 0 || strcmp(it->kind, "capability") == 0)
        snprintf(out, size, "%s", *it->verdict ? it->verdict : it->declared ? "declared" : "not declared");
    else if (strcmp(it->kind, "extension") == 0)
        snprintf(out, size, "version %s", it->value);
    else if (strcmp(it->kind, "format") == 0) {
        /* the number of feature bits per tiling: the full sets are on the report page */
        cJSON *bits = cJSON_Parse(it->value);
        const cJSON *tiling;
        size_t at = 0;
        out[0] = '\0';
        cJSON_ArrayForEach(tiling, bits)
        {
            const char *name = tiling->string;
            if (strncmp(name, "VkFormatProperties", 18) == 0)
                continue;
            at += (size_t)snprintf(out + at, at < size ? size - at : 0, "%s%s %d", at ? ", " : "", name,
                                   cJSON_GetArraySize(tiling));
        }
        if (at == 0)
            snprintf(out, size, "%s", it->declared ? "supported" : "no features");
        cJSON_Delete(bits);
    } else
        snprintf(out, size, "%s", it->value);
}

static bool add_column(struct column *c, cJSON *report, const cJSON *device, cJSON *info)
{
    c->report = report;
    c->device = device;
    c->info = info;
    return items_from_device(device, &c->items);
}

static int compare_items_qsort(const void *a, const void *b)
{
    return items_compare(a, b);
}

/* A (device, driver) column: the declared values of its newest report, its tests combined. */
static bool driver_column(struct db *db, const char *pair, struct column *c, bool *owned, struct view_response *out)
{
    const char *at = strrchr(pair, '@');
    int64_t raw = 0;
    char *end = NULL;
    if (at != NULL)
        raw = strtoll(at + 1, &end, 10);
    if (at == NULL || at == pair || end == at + 1 || *end != '\0' || raw < 0) {
        view_fail(out, 400, "d=%.100s: use <deviceKey>@<driverVersionRaw>", pair);
        return false;
    }
    char key[256];
    snprintf(key, sizeof(key), "%.*s", (int)(at - pair), pair);
    const struct db_param p[] = {DB_TEXT(key), DB_INT(raw)};
    char not_found[400];
    snprintf(not_found, sizeof(not_found), "no driver %.100s of device %.200s", at + 1, key);
    struct db_result *r = view_query_one(db,
                                         "SELECT e.report_id, e.device_index, v.driver_version, v.machines, e.host "
                                         "FROM drivers v JOIN entries e ON e.id = v.newest_entry "
                                         "WHERE v.device_key = ? AND v.driver_raw = ?",
                                         p, 2, out, not_found);
    if (r == NULL)
        return false;
    cJSON *report = view_load_report(db, db_result_int(r, 0, 0), out);
    const cJSON *device = report ? view_device_of(report, (int)db_result_int(r, 0, 1)) : NULL;
    if (device == NULL) {
        if (out->status < 400)
            view_fail(out, 500, "the stored report has no device %lld", (long long)db_result_int(r, 0, 1));
        db_result_free(r);
        cJSON_Delete(report);
        return false;
    }
    cJSON *info = cJSON_CreateObject();
    cJSON_AddStringToObject(info, "kind", "driver");
    cJSON_AddStringToObject(info, "pair", pair);
    cJSON_AddStringToObject(info, "deviceKey", key);
    cJSON_AddStringToObject(info, "deviceName", report_device_name(device));
    cJSON_AddStringToObject(info, "driverVersion", db_result_text(r, 0, 2));
    cJSON_AddNumberToObject(info, "machines", (double)db_result_int(r, 0, 3));
    cJSON_AddNumberToObject(info, "report", (double)db_result_int(r, 0, 0));
    db_result_free(r);
    if (!add_column(c, report, device, info)) {
        cJSON_Delete(info);
        cJSON_Delete(report);
        view_fail(out, 500, "out of memory");
        return false;
    }
    *owned = true;
    /* the fleet's verdicts in place of this one report's */
    struct db_result *t = db_query(db,
                                   "SELECT kind, name, verdict, detail FROM driver_tests WHERE device_key = ? AND "
                                   "driver_raw = ?",
                                   p, 2);
    if (t == NULL) {
        view_db_failed(out, db);
        return false;
    }
    cJSON *details = cJSON_AddObjectToObject(info, "details");
    for (size_t i = 0; i < db_result_rows(t); ++i) {
        struct item wanted = {.name = (char *)db_result_text(t, i, 1)};
        snprintf(wanted.kind, sizeof(wanted.kind), "%s", db_result_text(t, i, 0));
        struct item *it = bsearch(&wanted, c->items.items, c->items.count, sizeof(*it), compare_items_qsort);
        if (it == NULL)
            continue;
        snprintf(it->verdict, sizeof(it->verdict), "%s", db_result_text(t, i, 2));
        if (strcmp(wanted.kind, "test") == 0)
            cJSON_AddStringToObject(details, wanted.name, db_result_text(t, i, 3));
    }
    db_result_free(t);
    return true;
}

static bool report_columns(struct db *db, const char *text, struct column *columns, size_t *n,
                           struct view_response *out)
{
    int64_t id;
    if (!view_parse_id(text, &id)) {
        view_fail(out, 400, "r=%.40s is not a report id", text);
        return false;
    }
    cJSON *report = view_load_report(db, id, out);
    if (report == NULL)
        return false;
    const struct db_param p = DB_INT(id);
    struct db_result *r = db_query(db, "SELECT host FROM reports WHERE id = ?", &p, 1);
    const char *host = r && db_result_rows(r) ? db_result_text(r, 0, 0) : "";
    /* the driver as the vendor writes it, as the entries keep it */
    struct db_result *versions =
        db_query(db, "SELECT device_index, driver_version FROM entries WHERE report_id = ?", &p, 1);
    int index = 0;
    const cJSON *device;
    bool owner = true, ok = true;
    REPORT_FOR_EACH_DEVICE(device, report)
    {
        if (*n == COMPARE_COLUMNS) {
            view_fail(out, 400, "compare takes up to %d columns (each device of a report is one)", COMPARE_COLUMNS);
            ok = false;
            break;
        }
        struct report_identity identity = report_identity_of(device);
        cJSON *info = cJSON_CreateObject();
        cJSON_AddStringToObject(info, "kind", "report");
        cJSON_AddNumberToObject(info, "report", (double)id);
        cJSON_AddStringToObject(info, "deviceKey", identity.device_key);
        cJSON_AddStringToObject(info, "deviceName", identity.device_name);
        const char *driver = identity.driver_version;
        for (size_t v = 0; versions && v < db_result_rows(versions); ++v)
            if (db_result_int(versions, v, 0) == index)
                driver = db_result_text(versions, v, 1);
        ++index;
        cJSON_AddStringToObject(info, "driverVersion", driver);
        cJSON_AddStringToObject(info, "host", host);
        if (!add_column(&columns[*n], owner ? report : NULL, device, info)) {
            cJSON_Delete(info);
            view_fail(out, 500, "out of memory");
            ok = false;
            break;
        }
        owner = false; /* the first column of the report frees it */
        ++*n;
    }
    if (owner)
        cJSON_Delete(report);
    db_result_free(r);
    db_result_free(versions);
    return ok;
}

static void picker(struct db *db, const struct query_args *q, struct view_response *out)
{
    const char *search = query_get(q, "q");
    char like[200] = "%";
    if (search && *search) {
        size_t o = 1;
        for (const char *s = search; *s && o < sizeof(like) - 3; ++s) {
            if (*s == '%' || *s == '_' || *s == '!')
                like[o++] = '!';
            like[o++] = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;
        }
        like[o++] = '%';
        like[o] = '\0';
    }
    const struct db_param p[] = {DB_TEXT(like), DB_TEXT(like), DB_TEXT(like)};
    struct db_result *reports = db_query(db,
                                         "SELECT e.report_id, e.device_name, e.driver_version, e.host, e.uploaded, "
                                         "e.tests_failed FROM entries e WHERE LOWER(e.device_name) LIKE ? ESCAPE '!' "
                                         "OR LOWER(e.host) LIKE ? ESCAPE '!' OR LOWER(e.driver_version) LIKE ? "
                                         "ESCAPE '!' ORDER BY e.id DESC LIMIT 200",
                                         p, 3);
    struct db_result *drivers = reports
                                    ? db_query(db,
                                               "SELECT v.device_key, d.device_name, v.driver_raw, v.driver_version, "
                                               "v.machines, v.failing + v.flaky, v.last_upload FROM drivers v "
                                               "JOIN devices d ON d.device_key = v.device_key WHERE "
                                               "LOWER(d.device_name) LIKE ? ESCAPE '!' OR LOWER(v.device_key) "
                                               "LIKE ? ESCAPE '!' OR LOWER(v.driver_version) LIKE ? ESCAPE '!' "
                                               "ORDER BY v.last_upload DESC, v.device_key LIMIT 200",
                                               p, 3)
                                    : NULL;
    if (drivers == NULL) {
        db_result_free(reports);
        view_db_failed(out, db);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "compare");
    cJSON_AddNumberToObject(out->model, "maxColumns", COMPARE_COLUMNS);
    cJSON_AddStringToObject(out->model, "search", search ? search : "");
    cJSON *pick = cJSON_AddObjectToObject(out->model, "picker");
    cJSON *list = cJSON_AddArrayToObject(pick, "reports");
    for (size_t i = 0; i < db_result_rows(reports); ++i) {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddNumberToObject(r, "report", (double)db_result_int(reports, i, 0));
        static const char *const texts[] = {"deviceName", "driverVersion", "host", "uploaded"};
        for (size_t c = 0; c < 4; ++c)
            cJSON_AddStringToObject(r, texts[c], db_result_text(reports, i, 1 + c));
        cJSON_AddNumberToObject(r, "testsFailed", (double)db_result_int(reports, i, 5));
        cJSON_AddItemToArray(list, r);
    }
    list = cJSON_AddArrayToObject(pick, "drivers");
    for (size_t i = 0; i < db_result_rows(drivers); ++i) {
        cJSON *d = cJSON_CreateObject();
        char pair[400];
        snprintf(pair, sizeof(pair), "%s@%lld", db_result_text(drivers, i, 0), (long long)db_result_int(drivers, i, 2));
        cJSON_AddStringToObject(d, "pair", pair);
        cJSON_AddStringToObject(d, "deviceName", db_result_text(drivers, i, 1));
        cJSON_AddStringToObject(d, "driverVersion", db_result_text(drivers, i, 3));
        cJSON_AddNumberToObject(d, "machines", (double)db_result_int(drivers, i, 4));
        cJSON_AddNumberToObject(d, "failing", (double)db_result_int(drivers, i, 5));
        cJSON_AddStringToObject(d, "lastUpload", db_result_text(drivers, i, 6));
        cJSON_AddItemToArray(list, d);
    }
    db_result_free(reports);
    db_result_free(drivers);
    out->status = 200;
}

static void add_identity_rows(cJSON *rows, struct column *columns, size_t n, bool only_differences)
{
    for (size_t k = 0; k < sizeof(identity_rows) / sizeof(identity_rows[0]); ++k) {
        cJSON *row = cJSON_CreateObject(), *cells = cJSON_CreateArray();
        bool differs = false;
        const char *first = NULL;
        for (size_t c = 0; c < n; ++c) {
            const char *text = cJSON_GetStringValue(
                cJSON_GetObjectItemCaseSensitive(report_identity_block(columns[c].device), identity_rows[k]));
            /* a (device, driver) column: the driver as the vendor writes it */
            if (k == 0)
                text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(columns[c].info, "driverVersion"));
            text = text ? text : "";
            differs = differs || (first && strcmp(first, text) != 0);
            first = first ? first : text;
            cJSON *cell = cJSON_CreateObject();
            cJSON_AddStringToObject(cell, "value", text);
            cJSON_AddItemToArray(cells, cell);
        }
        if (only_differences && !differs) {
            cJSON_Delete(row);
            cJSON_Delete(cells);
            continue;
        }
        cJSON_AddStringToObject(row, "kind", "identity");
        cJSON_AddStringToObject(row, "name", identity_rows[k]);
        cJSON_AddBoolToObject(row, "differs", differs);
        cJSON_AddItemToObject(row, "cells", cells);
        cJSON_AddItemToArray(rows, row);
    }
}

/* The union of the columns' items, row by row: a k-way merge of their sorted lists. */
static void add_item_rows(cJSON *rows, struct column *columns, size_t n, bool only_differences)
{
    size_t at[COMPARE_COLUMNS] = {0};
    char text[512], first[512];
    for (;;) {
        const struct item *least = NULL;
        for (size_t c = 0; c < n; ++c)
            if (at[c] < columns[c].items.count &&
                (least == NULL || items_compare(&columns[c].items.items[at[c]], least) < 0))
                least = &columns[c].items.items[at[c]];
        if (least == NULL)
            return;
        struct item key = *least;
        cJSON *cells = cJSON_CreateArray();
        bool differs = false;
        for (size_t c = 0; c < n; ++c) {
            cJSON *cell = cJSON_CreateObject();
            cJSON_AddItemToArray(cells, cell);
            const struct item *it = at[c] < columns[c].items.count ? &columns[c].items.items[at[c]] : NULL;
            if (it == NULL || items_compare(it, &key) != 0) {
                snprintf(text, sizeof(text), "—");
            } else {
                cell_text(it, text, sizeof(text));
                cJSON_AddBoolToObject(cell, "declared", it->declared);
                if (*it->verdict)
                    cJSON_AddStringToObject(cell, "verdict", it->verdict);
                const char *detail = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(columns[c].info, "details"), it->name));
                if (detail && strcmp(it->kind, "test") == 0)
                    cJSON_AddStringToObject(cell, "detail", detail);
                ++at[c];
            }
            cJSON_AddStringToObject(cell, "value", text);
            if (c == 0)
                snprintf(first, sizeof(first), "%s", text);
            differs = differs || strcmp(first, text) != 0;
        }
        if (only_differences && !differs) {
            cJSON_Delete(cells);
            continue;
        }
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "kind", key.kind);
        cJSON_AddStringToObject(row, "name", key.name);
        cJSON_AddBoolToObject(row, "differs", differs);
        cJSON_AddItemToObject(row, "cells", cells);
        cJSON_AddItemToArray(rows, row);
    }
}

void view_compare(struct db *db, const struct page_request *request, struct view_response *out)
{
    const struct query_args *q = request->query;
    size_t asked = 0;
    for (size_t i = 0; i < q->count; ++i)
        asked += strcmp(q->keys[i], "r") == 0 || strcmp(q->keys[i], "d") == 0;
    if (asked == 0) {
        picker(db, q, out);
        return;
    }
    if (asked > COMPARE_COLUMNS) {
        view_fail(out, 400, "compare takes up to %d reports or (device, driver) pairs; %zu given", COMPARE_COLUMNS,
                  asked);
        return;
    }
    struct column columns[COMPARE_COLUMNS];
    memset(columns, 0, sizeof(columns));
    size_t n = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < q->count; ++i) {
        if (strcmp(q->keys[i], "r") == 0) {
            ok = report_columns(db, q->values[i], columns, &n, out);
        } else if (strcmp(q->keys[i], "d") == 0) {
            if (n == COMPARE_COLUMNS) {
                view_fail(out, 400, "compare takes up to %d columns (each device of a report is one)", COMPARE_COLUMNS);
                ok = false;
                break;
            }
            bool owned = false;
            ok = driver_column(db, q->values[i], &columns[n], &owned, out);
            n += owned;
        }
    }
    if (ok && n == 0) {
        view_fail(out, 404, "the reports named have no device");
        ok = false;
    }
    if (ok) {
        const char *differ = query_get(q, "differ");
        bool only = differ != NULL && strcmp(differ, "0") != 0;
        out->model = cJSON_CreateObject();
        cJSON_AddStringToObject(out->model, "view", "compare");
        cJSON_AddNumberToObject(out->model, "maxColumns", COMPARE_COLUMNS);
        cJSON_AddBoolToObject(out->model, "onlyDifferences", only);
        cJSON *list = cJSON_AddArrayToObject(out->model, "columns");
        for (size_t c = 0; c < n; ++c) {
            cJSON_AddItemToArray(list, columns[c].info);
            columns[c].info = NULL;
        }
        cJSON *rows = cJSON_AddArrayToObject(out->model, "rows");
        /* (the headings moved into the model; their details stay reachable through it) */
        for (size_t c = 0; c < n; ++c)
            columns[c].info = cJSON_GetArrayItem(list, (int)c);
        add_identity_rows(rows, columns, n, only);
        add_item_rows(rows, columns, n, only);
        int differing = 0;
        const cJSON *row;
        cJSON_ArrayForEach(row, rows) differing += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "differs"));
        cJSON_AddNumberToObject(out->model, "rowsDiffering", differing);
        const cJSON *c;
        cJSON_ArrayForEach(c, list) cJSON_DeleteItemFromObject((cJSON *)c, "details");
        for (size_t k = 0; k < n; ++k)
            columns[k].info = NULL;
        out->status = 200;
    }
    for (size_t c = 0; c < COMPARE_COLUMNS; ++c) {
        items_free(&columns[c].items);
        cJSON_Delete(columns[c].report);
        cJSON_Delete(columns[c].info);
    }
}

/* ---- HTML ---- */

static void html_picker(const cJSON *m, struct buf *b)
{
    const cJSON *pick = cJSON_GetObjectItemCaseSensitive(m, "picker");
    buf_printf(b,
               "<h1>Compare</h1><p>Pick up to %.0f reports or drivers (a driver's tests are combined over its "
               "machines) and compare every declared value, test and capability side by side.</p>"
               "<form method=\"get\" action=\"/compare\"><label>search <input name=\"q\" value=\"",
               num(m, "maxColumns"));
    buf_escape(b, str(m, "search"));
    buf_printf(b,
               "\"></label> <button>search</button></form><form method=\"get\" action=\"/compare\" "
               "class=\"picker\" data-max=\"%.0f\"><p><button>compare</button> <label><input type=\"checkbox\" "
               "name=\"differ\" value=\"1\" checked> only rows that differ</label> <span class=\"picked\"></span> "
               "<input placeholder=\"filter the lists\" data-filter=\"form.picker tbody tr\"></p>",
               num(m, "maxColumns"));
    buf_add(b, "<h2>Drivers</h2><table class=\"sortable\" id=\"pick-drivers\"><thead><tr><th></th><th>device</th>"
               "<th>driver</th><th>machines</th><th>failing</th><th>last upload</th></tr></thead><tbody>");
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(pick, "drivers"))
    {
        buf_add(b, "<tr><td><input type=\"checkbox\" data-pick name=\"d\" value=\"");
        buf_escape(b, str(d, "pair"));
        buf_add(b, "\"></td><td>");
        buf_escape(b, str(d, "deviceName"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "driverVersion"));
        buf_printf(b, "</td><td class=\"number\">%.0f</td><td class=\"number%s\">%.0f</td><td>", num(d, "machines"),
                   num(d, "failing") > 0 ? " fail" : "", num(d, "failing"));
        buf_escape(b, str(d, "lastUpload"));
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table><h2>Reports</h2><table class=\"sortable\" id=\"pick-reports\"><thead><tr><th></th>"
               "<th>report</th><th>device</th><th>driver</th><th>machine</th><th>failed</th><th>uploaded</th></tr>"
               "</thead><tbody>");
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(pick, "reports"))
    {
        buf_printf(b, "<tr><td><input type=\"checkbox\" data-pick name=\"r\" value=\"%.0f\"></td><td>%.0f</td><td>",
                   num(d, "report"), num(d, "report"));
        buf_escape(b, str(d, "deviceName"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "driverVersion"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "host"));
        buf_printf(b, "</td><td class=\"number%s\">%.0f</td><td>", num(d, "testsFailed") > 0 ? " fail" : "",
                   num(d, "testsFailed"));
        buf_escape(b, str(d, "uploaded"));
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table></form>");
}

void html_compare(const cJSON *m, const struct page_context *context, struct buf *b)
{
    (void)context;
    if (cJSON_GetObjectItemCaseSensitive(m, "picker") != NULL) {
        html_picker(m, b);
        return;
    }
    bool only = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "onlyDifferences"));
    const cJSON *columns = cJSON_GetObjectItemCaseSensitive(m, "columns");
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(m, "rows");
    buf_add(b, "<h1>Compare ");
    html_count(b, (double)cJSON_GetArraySize(columns), "column", "columns");
    buf_add(b, "</h1><form method=\"get\" action=\"/compare\">");
    const cJSON *c;
    cJSON_ArrayForEach(c, columns)
    {
        if (strcmp(str(c, "kind"), "driver") == 0) {
            buf_add(b, "<input type=\"hidden\" name=\"d\" value=\"");
            buf_escape(b, str(c, "pair"));
            buf_add(b, "\">");
        } else {
            buf_printf(b, "<input type=\"hidden\" name=\"r\" value=\"%.0f\">", num(c, "report"));
        }
    }
    buf_printf(b,
               "<label><input type=\"checkbox\" name=\"differ\" value=\"1\"%s> only rows that differ</label> "
               "<button>apply</button> · <a href=\"/compare\">pick others</a></form><p>%.0f of the rows differ. "
               "<input placeholder=\"filter rows\" data-filter=\"table.compare tbody tr\" "
               "data-groups=\"details.kind\"></p>",
               only ? " checked" : "", num(m, "rowsDiffering"));
    static const char *const kinds[] = {"identity", "test", "capability", "extension", "feature", "limit", "format"};
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); ++k) {
        int count = 0, differing = 0;
        const cJSON *row;
        cJSON_ArrayForEach(row, rows)
        {
            if (strcmp(str(row, "kind"), kinds[k]) != 0)
                continue;
            ++count;
            differing += cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "differs"));
        }
        if (count == 0)
            continue;
        /* the sections with differences open; a long list of equal rows folded */
        buf_printf(b, "<details class=\"kind\"%s><summary><b>%s</b> (%d of %d rows differ)</summary>",
                   differing > 0 || count <= 60 ? " open" : "", kinds[k], differing, count);
        buf_add(b, "<table class=\"compare\"><colgroup><col style=\"width:22%\"></colgroup><thead><tr><th>");
        buf_add(b, kinds[k]);
        buf_add(b, "</th>");
        cJSON_ArrayForEach(c, columns)
        {
            buf_add(b, "<th>");
            if (strcmp(str(c, "kind"), "driver") == 0)
                html_link_device(b, str(c, "deviceKey"), str(c, "deviceName"));
            else
                html_link_report(b, num(c, "report"), str(c, "deviceName"));
            buf_add(b, "<br><span class=\"muted\">");
            buf_escape(b, str(c, "driverVersion"));
            if (strcmp(str(c, "kind"), "driver") == 0) {
                buf_add(b, " on ");
                html_count(b, num(c, "machines"), "machine", "machines");
            } else {
                buf_add(b, " · ");
                buf_escape(b, *str(c, "host") ? str(c, "host") : "no host label");
            }
            buf_add(b, "</span></th>");
        }
        buf_add(b, "</tr></thead><tbody>");
        cJSON_ArrayForEach(row, rows)
        {
            if (strcmp(str(row, "kind"), kinds[k]) != 0)
                continue;
            bool differs = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "differs"));
            buf_printf(b, "<tr%s><td>", differs ? " class=\"differs\"" : "");
            buf_escape(b, str(row, "name"));
            buf_add(b, "</td>");
            const cJSON *cell;
            cJSON_ArrayForEach(cell, cJSON_GetObjectItemCaseSensitive(row, "cells"))
            {
                const char *verdict = str(cell, "verdict");
                buf_add(b, "<td class=\"");
                buf_escape(b, verdict);
                buf_add(b, differs ? " differs\">" : "\">");
                buf_escape(b, str(cell, "value"));
                if (*str(cell, "detail")) {
                    buf_add(b, "<br><span class=\"muted\">");
                    buf_escape(b, str(cell, "detail"));
                    buf_add(b, "</span>");
                }
                buf_add(b, "</td>");
            }
            buf_add(b, "</tr>");
        }
        buf_add(b, "</tbody></table></details>");
    }
}
