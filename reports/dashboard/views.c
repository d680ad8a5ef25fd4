#include "views.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "fleet_limits.h"
#include "report_model.h"
#include "gate.h"
#include "html.h"
#include "ingest.h"
#include "items.h"
#include "junit.h"
#include "matrix.h"
#include "profile_export.h"
#include "profile_intersect.h"
#include "render.h"
#include "report.h"
#include "report_read.h"

#define HISTORY_DRIVERS 12 /* driver versions diffed on a device page unless ?all=1 */
#define PAGE_ROWS 500      /* rows of a listing per page; the page says how many there are in all */

const char *query_get(const struct query_args *q, const char *key)
{
    for (size_t i = 0; q && i < q->count; ++i)
        if (strcmp(q->keys[i], key) == 0)
            return q->values[i] ? q->values[i] : "";
    return NULL;
}

void view_response_free(struct view_response *r)
{
    cJSON_Delete(r->model);
    free(r->body);
    memset(r, 0, sizeof(*r));
}

static void fail(struct view_response *out, int status, const char *format, const char *detail)
{
    out->status = status;
    snprintf(out->message, sizeof(out->message), format, detail ? detail : "");
    cJSON_Delete(out->model);
    out->model = NULL;
}

static void db_failed(struct view_response *out, struct db *db)
{
    fail(out, 500, "database: %s", db_error(db));
}

static bool parse_id(const char *text, int64_t *id)
{
    if (text == NULL || *text == '\0' || strlen(text) > 18)
        return false;
    for (const char *s = text; *s; ++s)
        if (!isdigit((unsigned char)*s))
            return false;
    *id = strtoll(text, NULL, 10);
    return *id > 0;
}

/* ---- filters over devices (d.*), shared by the listings, coverage and the fleet ---- */

struct filter_sql {
    struct buf where; /* " AND ..." fragments */
    struct db_param params[12];
    char like[160];
    int count;
    cJSON *echo; /* the filters in effect, for the model */
};

static int64_t api_from_text(const char *text)
{
    unsigned major = 0, minor = 0, patch = 0;
    if (sscanf(text, "%u.%u.%u", &major, &minor, &patch) < 1)
        return -1;
    return ((int64_t)major << 22) | ((int64_t)minor << 12) | patch;
}

static void filter_build(const struct query_args *q, struct filter_sql *f)
{
    memset(f, 0, sizeof(*f));
    f->echo = cJSON_CreateObject();
    buf_add(&f->where, "");
    const char *v;
    if ((v = query_get(q, "vendor")) && *v) {
        buf_add(&f->where, " AND d.vendor = ?");
        f->params[f->count++] = DB_TEXT(v);
        cJSON_AddStringToObject(f->echo, "vendor", v);
    }
    if ((v = query_get(q, "type")) && *v) {
        buf_add(&f->where, " AND d.device_type = ?");
        f->params[f->count++] = DB_TEXT(v);
        cJSON_AddStringToObject(f->echo, "type", v);
    }
    if ((v = query_get(q, "os")) && *v) {
        buf_add(&f->where, " AND d.os = ?");
        f->params[f->count++] = DB_TEXT(v);
        cJSON_AddStringToObject(f->echo, "os", v);
    }
    if ((v = query_get(q, "exclude_cpu")) && strcmp(v, "1") == 0) {
        buf_add(&f->where, " AND d.device_type <> 'VK_PHYSICAL_DEVICE_TYPE_CPU'");
        cJSON_AddBoolToObject(f->echo, "exclude_cpu", 1);
    }
    if ((v = query_get(q, "exclude_virtual")) && strcmp(v, "1") == 0) {
        buf_add(&f->where, " AND d.device_type <> 'VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU'");
        cJSON_AddBoolToObject(f->echo, "exclude_virtual", 1);
    }
    if ((v = query_get(q, "api")) && *v && api_from_text(v) >= 0) {
        buf_add(&f->where, " AND d.api_raw >= ?");
        f->params[f->count++] = DB_INT(api_from_text(v));
        cJSON_AddStringToObject(f->echo, "api", v);
    }
    if ((v = query_get(q, "since")) && *v) {
        buf_add(&f->where, " AND d.last_upload >= ?");
        f->params[f->count++] = DB_TEXT(v);
        cJSON_AddStringToObject(f->echo, "since", v);
    }
    if ((v = query_get(q, "q")) && *v) {
        /* a search in names: LIKE with its wildcards in the user's text escaped */
        size_t o = 0;
        f->like[o++] = '%';
        for (const char *s = v; *s && o < sizeof(f->like) - 3; ++s) {
            if (*s == '%' || *s == '_' || *s == '!')
                f->like[o++] = '!';
            f->like[o++] = (char)tolower((unsigned char)*s);
        }
        f->like[o++] = '%';
        f->like[o] = '\0';
        buf_add(&f->where, " AND (LOWER(d.device_name) LIKE ? ESCAPE '!' OR LOWER(d.vendor) LIKE ? ESCAPE '!' OR "
                           "LOWER(d.driver_name) LIKE ? ESCAPE '!' OR LOWER(d.device_key) LIKE ? ESCAPE '!' OR "
                           "LOWER(d.newest_driver) LIKE ? ESCAPE '!')");
        for (int i = 0; i < 5; ++i)
            f->params[f->count++] = DB_TEXT(f->like);
        cJSON_AddStringToObject(f->echo, "q", v);
    }
}

static void filter_free(struct filter_sql *f)
{
    buf_free(&f->where);
    cJSON_Delete(f->echo);
}

static bool filters_given(const struct filter_sql *f)
{
    return f->where.length > 0;
}

static cJSON *distinct_values(struct db *db, const char *sql)
{
    cJSON *list = cJSON_CreateArray();
    struct db_result *r = db_query(db, sql, NULL, 0);
    for (size_t i = 0; i < db_result_rows(r); ++i)
        cJSON_AddItemToArray(list, cJSON_CreateString(db_result_text(r, i, 0)));
    db_result_free(r);
    return list;
}

static long page_of(const struct query_args *q)
{
    const char *p = query_get(q, "page");
    long page = p ? strtol(p, NULL, 10) : 1;
    return page < 1 ? 1 : page > 1000000 ? 1000000 : page;
}

/* ---- 1. devices ---- */

void view_devices(struct db *db, const struct query_args *q, struct view_response *out)
{
    struct filter_sql f;
    filter_build(q, &f);
    long page = page_of(q);
    struct buf sql = {0};
    buf_printf(
        &sql,
        "SELECT d.device_key, d.vendor, d.device_name, d.device_type, d.driver_name, d.newest_driver, d.reports, "
        "d.last_upload, d.os, d.api_version, d.current_entry, e.report_id, COUNT(*) OVER () "
        "FROM devices d JOIN entries e ON e.id = d.current_entry WHERE 1 = 1%s "
        "ORDER BY d.vendor, d.driver_name, d.device_name, d.device_key LIMIT %d OFFSET %ld",
        f.where.data, PAGE_ROWS, (page - 1) * PAGE_ROWS);
    struct db_result *r = sql.failed ? NULL : db_query_dynamic(db, sql.data, f.params, f.count);
    buf_free(&sql);
    if (r == NULL) {
        db_failed(out, db);
        filter_free(&f);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "devices");
    cJSON_AddItemToObject(out->model, "filters", f.echo);
    f.echo = NULL;
    cJSON_AddNumberToObject(out->model, "total", db_result_rows(r) ? (double)db_result_int(r, 0, 12) : 0);
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
        cJSON_AddNumberToObject(d, "newestReport", (double)db_result_int(r, i, 11));
        cJSON_AddItemToArray(list, d);
    }
    db_result_free(r);
    cJSON_AddItemToObject(out->model, "vendors",
                          distinct_values(db, "SELECT DISTINCT vendor FROM devices ORDER BY vendor"));
    cJSON_AddItemToObject(out->model, "types",
                          distinct_values(db, "SELECT DISTINCT device_type FROM devices ORDER BY device_type"));
    cJSON_AddItemToObject(out->model, "oses", distinct_values(db, "SELECT DISTINCT os FROM devices ORDER BY os"));
    out->status = 200;
    filter_free(&f);
}

/* One row that must exist: NULL with `out` set to 500 (the database failed) or 404 (no such row). */
static struct db_result *query_one(struct db *db, const char *sql, const struct db_param *param,
                                   struct view_response *out, const char *not_found, const char *what)
{
    struct db_result *r = db_query(db, sql, param, 1);
    if (r == NULL) {
        db_failed(out, db);
        return NULL;
    }
    if (db_result_rows(r) == 0) {
        db_result_free(r);
        fail(out, 404, not_found, what);
        return NULL;
    }
    return r;
}

/* ---- 2. one report ---- */

static cJSON *load_report(struct db *db, int64_t id, struct view_response *out)
{
    size_t length = 0;
    char *body = ingest_load_body(db, id, &length);
    if (body == NULL) {
        char text[32];
        snprintf(text, sizeof(text), "%lld", (long long)id);
        fail(out, 404, "no report %s", text);
        return NULL;
    }
    char error[512];
    cJSON *report = report_parse(body, length, "stored report", error, sizeof(error));
    free(body);
    if (report == NULL)
        fail(out, 500, "%s", error);
    return report;
}

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

void view_report(struct db *db, const char *id_text, struct view_response *out)
{
    int64_t id;
    if (!parse_id(id_text, &id)) {
        fail(out, 404, "no report '%.40s'", id_text);
        return;
    }
    const struct db_param p = DB_INT(id);
    struct db_result *r =
        query_one(db,
                  "SELECT uploaded, token, peer, host, created, generator, body_bytes, idempotency_key "
                  "FROM reports WHERE id = ?",
                  &p, out, "no report %s", id_text);
    if (r == NULL)
        return;
    cJSON *report = load_report(db, id, out);
    if (report == NULL) {
        db_result_free(r);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "report");
    cJSON_AddNumberToObject(out->model, "id", (double)id);
    static const char *const names[] = {"uploaded", "token", "peer", "host", "created", "generator"};
    for (size_t c = 0; c < 6; ++c)
        cJSON_AddStringToObject(out->model, names[c], db_result_text(r, 0, c));
    cJSON_AddNumberToObject(out->model, "bytes", (double)db_result_int(r, 0, 6));
    cJSON_AddStringToObject(out->model, "idempotencyKey", db_result_text(r, 0, 7));
    db_result_free(r);
    cJSON *devices = cJSON_AddArrayToObject(out->model, "devices");
    const cJSON *device;
    int index = 0;
    REPORT_FOR_EACH_DEVICE(device, report)
    {
        cJSON *d = cJSON_CreateObject();
        cJSON_AddNumberToObject(d, "index", index++);
        cJSON_AddItemToObject(d, "identity", cJSON_Duplicate(report_identity_block(device), 1));
        cJSON_AddItemToObject(d, "smoke", cJSON_Duplicate(report_smoke_results(device), 1));
        cJSON_AddItemToObject(d, "spec_minimums", cJSON_Duplicate(report_spec_minimums(device), 1));
        cJSON_AddItemToObject(d, "declared", declared_groups(report_declared(device)));
        cJSON_AddItemToArray(devices, d);
    }
    cJSON_Delete(report);
    out->status = 200;
}

static void take_stream(struct view_response *out, char *data, size_t length, const char *type, const char *filename)
{
    out->body = data;
    out->length = length;
    out->content_type = type;
    snprintf(out->filename, sizeof(out->filename), "%s", filename);
    out->status = 200;
}

static void download_json(struct view_response *out, const cJSON *document, const char *filename)
{
    char *text = cJSON_Print(document);
    if (text == NULL) {
        fail(out, 500, "out of memory%s", "");
        return;
    }
    take_stream(out, text, strlen(text), "application/json", filename);
}

void view_report_download(struct db *db, const char *id_text, const char *what, const struct query_args *q,
                          struct view_response *out)
{
    int64_t id;
    if (!parse_id(id_text, &id)) {
        fail(out, 404, "no report '%.40s'", id_text);
        return;
    }
    char filename[64];
    if (strcmp(what, "report.json") == 0) {
        size_t length = 0;
        char *body = ingest_load_body(db, id, &length);
        if (body == NULL) {
            fail(out, 404, "no report %s", id_text);
            return;
        }
        snprintf(filename, sizeof(filename), "report-%lld.json", (long long)id);
        take_stream(out, body, length, "application/json", filename);
        return;
    }
    cJSON *report = load_report(db, id, out);
    if (report == NULL)
        return;
    if (strcmp(what, "profile.json") == 0) {
        const char *d = query_get(q, "device");
        long index = d ? strtol(d, NULL, 10) : 0;
        const cJSON *device = index >= 0 ? report_device_at(report, (size_t)index) : NULL;
        if (device == NULL) {
            fail(out, 404, "the report has no device %s", d);
        } else {
            cJSON *profile = profile_export(device);
            snprintf(filename, sizeof(filename), "report-%lld-device-%ld.profile.json", (long long)id, index);
            download_json(out, profile, filename);
            cJSON_Delete(profile);
        }
    } else if (strcmp(what, "junit.xml") == 0) {
        char *data = NULL;
        size_t length = 0;
        FILE *stream = open_memstream(&data, &length);
        if (stream == NULL) {
            fail(out, 500, "out of memory%s", "");
        } else {
            junit_write(&report, 1, stream);
            fclose(stream);
            snprintf(filename, sizeof(filename), "report-%lld.junit.xml", (long long)id);
            take_stream(out, data, length, "application/xml", filename);
        }
    } else {
        fail(out, 404, "no download '%.60s'", what);
    }
    cJSON_Delete(report);
}

/* ---- 3. a device's history ---- */

static const cJSON *device_of(const cJSON *report, int index)
{
    return index >= 0 ? report_device_at(report, (size_t)index) : NULL;
}

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
    if (*c->reason)
        cJSON_AddStringToObject(j, "reason", c->reason);
    return j;
}

void view_device_history(struct db *db, const char *device_key, const struct query_args *q, struct view_response *out)
{
    const struct db_param p = DB_TEXT(device_key);
    struct db_result *d = query_one(db,
                                    "SELECT vendor, device_name, device_type, driver_name, newest_driver, reports, "
                                    "first_upload, last_upload FROM devices WHERE device_key = ?",
                                    &p, out, "no device '%.80s'", device_key);
    if (d == NULL)
        return;
    struct db_result *r =
        db_query(db,
                 "SELECT e.id, e.report_id, e.device_index, e.driver_version, e.driver_raw, e.host, e.os, "
                 "e.kernel, e.uploaded, e.tests_passed, e.tests_failed, e.spec_violations, r.token, r.peer "
                 "FROM entries e JOIN reports r ON r.id = e.report_id WHERE e.device_key = ? "
                 "ORDER BY e.driver_raw, e.id",
                 &p, 1);
    if (r == NULL) {
        db_result_free(d);
        db_failed(out, db);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "device");
    cJSON_AddStringToObject(out->model, "deviceKey", device_key);
    static const char *const names[] = {"vendor", "deviceName", "deviceType", "driverName", "newestDriver"};
    for (size_t c = 0; c < 5; ++c)
        cJSON_AddStringToObject(out->model, names[c], db_result_text(d, 0, c));
    cJSON_AddNumberToObject(out->model, "reports", (double)db_result_int(d, 0, 5));
    cJSON_AddStringToObject(out->model, "firstUpload", db_result_text(d, 0, 6));
    cJSON_AddStringToObject(out->model, "lastUpload", db_result_text(d, 0, 7));
    db_result_free(d);
    cJSON *list = cJSON_AddArrayToObject(out->model, "entries");
    size_t rows = db_result_rows(r);
    /* the newest entry of each driver version, oldest version first: the diffs run between these */
    size_t *versions = calloc(rows + 1, sizeof(*versions));
    size_t version_count = 0;
    for (size_t i = 0; i < rows; ++i) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "report", (double)db_result_int(r, i, 1));
        cJSON_AddNumberToObject(e, "deviceIndex", (double)db_result_int(r, i, 2));
        cJSON_AddStringToObject(e, "driverVersion", db_result_text(r, i, 3));
        static const char *const more[] = {"host", "os", "kernel", "uploaded"};
        for (size_t c = 0; c < 4; ++c)
            cJSON_AddStringToObject(e, more[c], db_result_text(r, i, 5 + c));
        cJSON_AddNumberToObject(e, "testsPassed", (double)db_result_int(r, i, 9));
        cJSON_AddNumberToObject(e, "testsFailed", (double)db_result_int(r, i, 10));
        cJSON_AddNumberToObject(e, "specViolations", (double)db_result_int(r, i, 11));
        cJSON_AddStringToObject(e, "token", db_result_text(r, i, 12));
        cJSON_AddStringToObject(e, "peer", db_result_text(r, i, 13));
        cJSON_AddItemToArray(list, e);
        if (versions == NULL)
            continue;
        if (version_count > 0 && db_result_int(r, versions[version_count - 1], 4) == db_result_int(r, i, 4))
            versions[version_count - 1] = i;
        else
            versions[version_count++] = i;
    }
    bool all = query_get(q, "all") != NULL;
    size_t first = !all && version_count > HISTORY_DRIVERS ? version_count - HISTORY_DRIVERS : 0;
    cJSON_AddNumberToObject(out->model, "driverVersions", (double)version_count);
    cJSON_AddNumberToObject(out->model, "driverVersionsDiffed", (double)(version_count - first));
    cJSON *transitions = cJSON_AddArrayToObject(out->model, "transitions");
    cJSON *previous = NULL;
    int previous_index = 0;
    for (size_t v = first; versions != NULL && v < version_count; ++v) {
        size_t row = versions[v];
        cJSON *report = load_report(db, db_result_int(r, row, 1), out);
        if (report == NULL)
            break;
        int index = (int)db_result_int(r, row, 2);
        if (previous != NULL) {
            struct diff changes = {0};
            diff_devices(device_of(previous, previous_index), device_of(report, index), &changes);
            cJSON *t = cJSON_CreateObject();
            cJSON_AddStringToObject(t, "from", db_result_text(r, versions[v - 1], 3));
            cJSON_AddStringToObject(t, "to", db_result_text(r, row, 3));
            cJSON_AddNumberToObject(t, "fromReport", (double)db_result_int(r, versions[v - 1], 1));
            cJSON_AddNumberToObject(t, "toReport", (double)db_result_int(r, row, 1));
            cJSON_AddNumberToObject(t, "regressions", (double)changes.regressions);
            cJSON *list_changes = cJSON_AddArrayToObject(t, "changes");
            for (int pass = 0; pass < 2; ++pass) /* regressions first */
                for (size_t c = 0; c < changes.count; ++c)
                    if (changes.changes[c].regression == (pass == 0))
                        cJSON_AddItemToArray(list_changes, change_json(&changes.changes[c]));
            diff_free(&changes);
            cJSON_InsertItemInArray(transitions, 0, t); /* newest first */
        }
        cJSON_Delete(previous);
        previous = report;
        previous_index = index;
    }
    cJSON_Delete(previous);
    free(versions);
    db_result_free(r);
    if (out->model != NULL)
        out->status = 200;
}

/* ---- 4. compare ---- */

void view_compare(struct db *db, const struct query_args *q, struct view_response *out)
{
    cJSON **reports = calloc(q->count + 1, sizeof(*reports));
    size_t n = 0;
    cJSON *ids = cJSON_CreateArray();
    bool ok = reports != NULL;
    for (size_t i = 0; ok && i < q->count; ++i) {
        if (strcmp(q->keys[i], "r") != 0)
            continue;
        int64_t id;
        if (!parse_id(q->values[i], &id)) {
            fail(out, 400, "r=%.40s is not a report id", q->values[i]);
            ok = false;
        } else if ((reports[n] = load_report(db, id, out)) == NULL) {
            ok = false;
        } else {
            ++n;
            cJSON_AddItemToArray(ids, cJSON_CreateNumber((double)id));
        }
    }
    if (ok && n == 0) {
        fail(out, 400, "compare needs reports: /compare?r=ID&r=ID...%s", "");
        ok = false;
    }
    if (ok) {
        struct matrix *m = matrix_build(reports, n);
        if (m == NULL) {
            fail(out, 500, "out of memory%s", "");
        } else {
            out->model = render_matrix_json(m);
            cJSON_AddStringToObject(out->model, "view", "compare");
            cJSON_AddItemToObject(out->model, "reports", ids);
            ids = NULL;
            cJSON_AddBoolToObject(out->model, "onlyDifferences", query_get(q, "differ") != NULL);
            matrix_free(m);
            out->status = 200;
        }
    }
    cJSON_Delete(ids);
    for (size_t i = 0; i < n; ++i)
        cJSON_Delete(reports[i]);
    free(reports);
}

/* ---- 5. coverage ---- */

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

static void add_share(cJSON *o, const char *name, int64_t part, int64_t whole)
{
    cJSON_AddNumberToObject(o, name, whole > 0 ? (double)part / (double)whole : 0);
}

void view_capabilities(struct db *db, const struct query_args *q, struct view_response *out)
{
    struct filter_sql f;
    filter_build(q, &f);
    const char *kind = query_get(q, "kind");
    if (kind && *kind && !items_kind_valid(kind)) {
        fail(out, 400, "kind=%.40s: use capability, test, extension, feature, limit or format", kind);
        filter_free(&f);
        return;
    }
    int64_t devices = device_count(db, &f);
    struct buf sql = {0};
    struct db_param params[16];
    int count = 0;
    if (filters_given(&f)) {
        /* a filtered set: counted from the devices' rows (one indexed pass over the set's items) */
        buf_printf(
            &sql,
            "SELECT c.kind, c.name, COUNT(*), SUM(c.declared), SUM(CASE WHEN c.verdict = 'pass' THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN c.declared = 1 AND c.verdict IN ('fail', 'not_applied', 'crashed', 'timeout', "
            "'device_lost') THEN 1 ELSE 0 END) FROM current_items c JOIN devices d ON d.device_key = c.device_key "
            "WHERE 1 = 1%s%s GROUP BY c.kind, c.name ORDER BY c.kind, c.name",
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
        db_failed(out, db);
        filter_free(&f);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "capabilities");
    cJSON_AddItemToObject(out->model, "filters", f.echo);
    f.echo = NULL;
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
        add_share(it, "declaredShare", db_result_int(r, i, 3), devices);
        add_share(it, "verifiedShare", db_result_int(r, i, 4), devices);
        cJSON_AddItemToArray(list, it);
    }
    db_result_free(r);
    out->status = 200;
    filter_free(&f);
}

static int compare_numbers(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void add_distribution(cJSON *model, struct db_result *r, size_t value_column, size_t number_column)
{
    /* value → number of devices, in numeric order when the values are numbers */
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
            cJSON_ArrayForEach(b, distribution) if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(b, "value")),
                                                           value) == 0) bucket = b;
            if (bucket == NULL) {
                bucket = cJSON_CreateObject();
                cJSON_AddStringToObject(bucket, "value", value);
                cJSON_AddNumberToObject(bucket, "devices", 0);
                cJSON_AddItemToArray(distribution, bucket);
            }
            cJSON *count = cJSON_GetObjectItem(bucket, "devices");
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
            add_share(o, "share", (int64_t)count->valuedouble, devices);
            cJSON_AddItemToArray(list, o);
        }
    }
    cJSON_Delete(bits);
}

void view_capability(struct db *db, const char *id, const struct query_args *q, struct view_response *out)
{
    char kind[16];
    const char *colon = strchr(id, ':');
    if (colon == NULL || (size_t)(colon - id) >= sizeof(kind)) {
        fail(out, 404, "'%.80s' is not a capability id (kind:name, e.g. extension:VK_KHR_swapchain)", id);
        return;
    }
    snprintf(kind, sizeof(kind), "%.*s", (int)(colon - id), id);
    const char *name = colon + 1;
    if (!items_kind_valid(kind)) {
        fail(out, 404, "'%.80s' is not a capability id (kind:name, e.g. extension:VK_KHR_swapchain)", id);
        return;
    }
    struct filter_sql f;
    filter_build(q, &f);
    int64_t devices = device_count(db, &f);
    struct db_param params[16];
    params[0] = DB_TEXT(kind);
    params[1] = DB_TEXT(name);
    memcpy(params + 2, f.params, sizeof(f.params[0]) * (size_t)f.count);
    struct buf sql = {0};
    /* every device of the set, with this item's row where it has one */
    buf_printf(
        &sql,
        "SELECT d.device_key, d.vendor, d.device_name, d.newest_driver, c.declared, c.verdict, c.value, c.number, "
        "s.driver_version, e.report_id FROM devices d JOIN entries e ON e.id = d.current_entry "
        "LEFT JOIN current_items c ON c.device_key = d.device_key AND c.kind = ? AND c.name = ? "
        "LEFT JOIN first_seen s ON s.device_key = d.device_key AND s.kind = c.kind AND s.name = c.name "
        "WHERE 1 = 1%s ORDER BY d.vendor, d.device_name, d.device_key",
        f.where.data);
    struct db_result *r = devices < 0 ? NULL : db_query_dynamic(db, sql.data, params, 2 + f.count);
    buf_free(&sql);
    if (r == NULL) {
        db_failed(out, db);
        filter_free(&f);
        return;
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "capability");
    cJSON_AddStringToObject(out->model, "id", id);
    cJSON_AddStringToObject(out->model, "kind", kind);
    cJSON_AddStringToObject(out->model, "name", name);
    cJSON_AddItemToObject(out->model, "filters", f.echo);
    f.echo = NULL;
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
        declared += has;
        verified += strcmp(verdict, "pass") == 0;
        if (has && items_verdict_failing(verdict))
            cJSON_AddItemToArray(failing, cJSON_Duplicate(d, 1));
        cJSON_AddItemToArray(has ? declaring : lacking, d);
    }
    cJSON_AddNumberToObject(out->model, "devicesDeclaring", (double)declared);
    cJSON_AddNumberToObject(out->model, "devicesVerified", (double)verified);
    add_share(out->model, "declaredShare", declared, devices);
    add_share(out->model, "verifiedShare", verified, devices);
    /* values: of the devices that report the item (the rows above with a value) */
    if (strcmp(kind, "limit") == 0)
        add_distribution(out->model, r, 6, 7);
    else if (strcmp(kind, "format") == 0)
        add_format_bits(out->model, r, 6, devices);
    db_result_free(r);
    out->status = 200;
    filter_free(&f);
}

/* ---- 6. fleet ---- */

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
        db_failed(out, db);
        return NULL;
    }
    size_t rows = db_result_rows(r);
    cJSON **reports = calloc(rows + 1, sizeof(*reports));
    cJSON *loaded = NULL;
    int64_t loaded_id = 0;
    *count = 0;
    for (size_t i = 0; reports && i < rows; ++i) {
        int64_t id = db_result_int(r, i, 0);
        if (loaded == NULL || loaded_id != id) {
            cJSON_Delete(loaded);
            loaded = load_report(db, id, out);
            loaded_id = id;
            if (loaded == NULL)
                break;
        }
        cJSON *single = report_new("preflight-dashboard");
        cJSON_AddItemToArray(report_devices(single),
                             cJSON_Duplicate(device_of(loaded, (int)db_result_int(r, i, 1)), 1));
        reports[(*count)++] = single;
    }
    cJSON_Delete(loaded);
    db_result_free(r);
    if (out->status >= 400) {
        for (size_t i = 0; i < *count; ++i)
            cJSON_Delete(reports[i]);
        free(reports);
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

void view_fleet(struct db *db, const struct query_args *q, struct view_response *out)
{
    struct filter_sql f;
    filter_build(q, &f);
    size_t n = 0;
    cJSON **reports = fleet_reports(db, &f, &n, out);
    if (reports == NULL) {
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
            devices[i] = device_of(reports[i], 0);
        if (g && devices && !gate_check_tests(g, devices, n, error, sizeof(error))) {
            gate_free(g);
            g = NULL;
        }
        free(devices);
        if (g == NULL) {
            fail(out, 400, "requirements: %s", error);
            free_reports(reports, n);
            filter_free(&f);
            return;
        }
    }
    out->model = cJSON_CreateObject();
    cJSON_AddStringToObject(out->model, "view", "fleet");
    cJSON_AddItemToObject(out->model, "filters", f.echo);
    f.echo = NULL;
    cJSON_AddNumberToObject(out->model, "devices", (double)n);
    cJSON *list = cJSON_AddArrayToObject(out->model, "members");
    size_t passing = 0;
    for (size_t i = 0; i < n; ++i) {
        const cJSON *device = device_of(reports[i], 0);
        const cJSON *identity = report_identity_block(device);
        cJSON *m = cJSON_CreateObject();
        static const char *const names[] = {"deviceKey", "deviceName", "driverVersion"};
        for (size_t c = 0; c < 3; ++c)
            cJSON_AddItemToObject(m, names[c],
                                  cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(identity, names[c]), 1));
        if (g != NULL) {
            cJSON *failures = cJSON_CreateArray();
            bool pass = gate_evaluate(g, device, failures);
            passing += pass;
            cJSON_AddBoolToObject(m, "pass", pass);
            cJSON_AddItemToObject(m, "failures", failures);
        }
        cJSON_AddItemToArray(list, m);
    }
    if (g != NULL) {
        cJSON_AddStringToObject(out->model, "requirements", requirements);
        cJSON_AddNumberToObject(out->model, "passing", (double)passing);
        cJSON_AddNumberToObject(out->model, "rules", (double)gate_rule_count(g));
    }
    gate_free(g);
    free_reports(reports, n);
    filter_free(&f);
    out->status = 200;
}

void view_fleet_download(struct db *db, const char *what, const struct query_args *q, struct view_response *out)
{
    if (strcmp(what, "limits.json") != 0 && strcmp(what, "profiles.json") != 0) {
        fail(out, 404, "no fleet download '%.60s'", what);
        return;
    }
    struct filter_sql f;
    filter_build(q, &f);
    size_t n = 0;
    cJSON **reports = fleet_reports(db, &f, &n, out);
    filter_free(&f);
    if (reports == NULL)
        return;
    if (n == 0) {
        fail(out, 404, "no device matches the filters%s", "");
        free(reports);
        return;
    }
    cJSON *document;
    if (strcmp(what, "limits.json") == 0) {
        document = fleet_limits_build(reports, n);
    } else {
        const cJSON **devices = calloc(n, sizeof(*devices));
        for (size_t i = 0; devices && i < n; ++i)
            devices[i] = device_of(reports[i], 0);
        document = devices ? profile_intersect(devices, n, "VP_PREFLIGHT_fleet") : NULL;
        free(devices);
    }
    if (document == NULL)
        fail(out, 500, "out of memory%s", "");
    else
        download_json(out, document, strcmp(what, "limits.json") == 0 ? "fleet-limits.json" : "fleet.profiles.json");
    cJSON_Delete(document);
    free_reports(reports, n);
}
