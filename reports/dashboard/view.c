#include "view.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ingest.h"
#include "report_model.h"
#include "report_read.h"

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

void view_fail(struct view_response *out, int status, const char *format, ...)
{
    out->status = status;
    va_list list;
    va_start(list, format);
    vsnprintf(out->message, sizeof(out->message), format, list);
    va_end(list);
}

void view_db_failed(struct view_response *out, struct db *db)
{
    view_fail(out, 500, "database: %s", db_error(db));
    cJSON_Delete(out->model);
    out->model = NULL;
}

bool view_parse_id(const char *text, int64_t *id)
{
    if (text == NULL || *text == '\0' || strlen(text) > 18)
        return false;
    for (const char *s = text; *s; ++s)
        if (!isdigit((unsigned char)*s))
            return false;
    *id = strtoll(text, NULL, 10);
    return *id > 0;
}

/* ---- filters ---- */

static const char *const device_types[] = {"VK_PHYSICAL_DEVICE_TYPE_OTHER", "VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU",
                                           "VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU",
                                           "VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU", "VK_PHYSICAL_DEVICE_TYPE_CPU"};
static const char *const api_versions[] = {"1.0", "1.1", "1.2", "1.3", "1.4"};

static cJSON *distinct_values(struct db *db, const char *sql)
{
    struct db_result *r = db_query(db, sql, NULL, 0);
    if (r == NULL)
        return NULL;
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; i < db_result_rows(r); ++i)
        cJSON_AddItemToArray(list, cJSON_CreateString(db_result_text(r, i, 0)));
    db_result_free(r);
    return list;
}

/* The known value `given` matches, case ignored; NULL when none does. */
static const char *known_value(const cJSON *values, const char *given)
{
    const cJSON *v;
    cJSON_ArrayForEach(v, values) if (strcasecmp(cJSON_GetStringValue(v), given) == 0) return cJSON_GetStringValue(v);
    return NULL;
}

static void list_values(const cJSON *values, char *out, size_t size)
{
    size_t at = 0;
    out[0] = '\0';
    const cJSON *v;
    cJSON_ArrayForEach(v, values)
    {
        if (at + 4 >= size)
            break;
        at += (size_t)snprintf(out + at, size - at, "%s%s", at ? ", " : "", cJSON_GetStringValue(v));
    }
    if (at >= size)
        snprintf(out + size - 5, 5, "...");
}

static const char *device_type_of(const char *given)
{
    for (size_t i = 0; i < sizeof(device_types) / sizeof(device_types[0]); ++i) {
        const char *short_name = device_types[i] + strlen("VK_PHYSICAL_DEVICE_TYPE_");
        if (strcasecmp(given, device_types[i]) == 0 || strcasecmp(given, short_name) == 0)
            return device_types[i];
        /* "discrete" for DISCRETE_GPU, "integrated", "virtual" */
        size_t n = strlen(given);
        if (n >= 3 && strncasecmp(given, short_name, n) == 0 && short_name[n] == '_')
            return device_types[i];
    }
    return NULL;
}

static bool api_valid(const char *text, int64_t *packed)
{
    unsigned major = 0, minor = 0, patch = 0;
    int consumed = 0;
    int fields = sscanf(text, "%3u.%4u%n.%4u%n", &major, &minor, &consumed, &patch, &consumed);
    if (fields < 2 || text[consumed] != '\0' || major > 127 || minor > 1023 || patch > 4095)
        return false;
    *packed = ((int64_t)major << 22) | ((int64_t)minor << 12) | patch;
    return true;
}

bool view_date_valid(const char *text)
{
    /* YYYY-MM-DD, optionally with a time as uploads are stamped (2026-11-01T12:00:00Z) */
    size_t n = strlen(text);
    if (n != 10 && (n < 11 || text[10] != 'T' || n > 20))
        return false;
    for (size_t i = 0; i < 10; ++i)
        if (i == 4 || i == 7 ? text[i] != '-' : !isdigit((unsigned char)text[i]))
            return false;
    int month = atoi(text + 5), day = atoi(text + 8);
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

static bool flag_valid(const struct query_args *q, const char *key, bool *on, struct view_response *out)
{
    const char *v = query_get(q, key);
    *on = v != NULL && strcmp(v, "1") == 0;
    if (v != NULL && *v && strcmp(v, "1") != 0 && strcmp(v, "0") != 0) {
        view_fail(out, 400, "%s=%.40s: use 1 or 0", key, v);
        return false;
    }
    return true;
}

bool filter_build(struct db *db, const struct query_args *q, struct filter_sql *f, struct view_response *out)
{
    memset(f, 0, sizeof(*f));
    f->echo = cJSON_CreateObject();
    f->choices = cJSON_CreateObject();
    buf_add(&f->where, "");
    cJSON *vendors = distinct_values(db, "SELECT DISTINCT vendor FROM devices ORDER BY vendor");
    cJSON *oses = distinct_values(db, "SELECT DISTINCT os FROM devices ORDER BY os");
    if (vendors == NULL || oses == NULL) {
        cJSON_Delete(vendors);
        cJSON_Delete(oses);
        view_db_failed(out, db);
        return false;
    }
    cJSON_AddItemToObject(f->choices, "vendors", vendors);
    cJSON *types = cJSON_AddArrayToObject(f->choices, "types");
    for (size_t i = 0; i < sizeof(device_types) / sizeof(device_types[0]); ++i)
        cJSON_AddItemToArray(types, cJSON_CreateString(device_types[i]));
    cJSON_AddItemToObject(f->choices, "oses", oses);
    cJSON *apis = cJSON_AddArrayToObject(f->choices, "apis");
    for (size_t i = 0; i < sizeof(api_versions) / sizeof(api_versions[0]); ++i)
        cJSON_AddItemToArray(apis, cJSON_CreateString(api_versions[i]));
    char known[400];
    const char *v;
    if ((v = query_get(q, "vendor")) && *v) {
        const char *match = known_value(vendors, v);
        if (match == NULL) {
            list_values(vendors, known, sizeof(known));
            view_fail(out, 400, "vendor=%.60s: no device has this vendor (vendors: %s)", v, known);
            return false;
        }
        buf_add(&f->where, " AND d.vendor = ?");
        f->params[f->count++] = DB_TEXT(match);
        cJSON_AddStringToObject(f->echo, "vendor", match);
    }
    if ((v = query_get(q, "type")) && *v) {
        const char *match = device_type_of(v);
        if (match == NULL) {
            view_fail(out, 400, "type=%.60s: use discrete, integrated, virtual, cpu or other", v);
            return false;
        }
        buf_add(&f->where, " AND d.device_type = ?");
        f->params[f->count++] = DB_TEXT(match);
        cJSON_AddStringToObject(f->echo, "type", match);
    }
    if ((v = query_get(q, "os")) && *v) {
        const char *match = known_value(oses, v);
        if (match == NULL) {
            list_values(oses, known, sizeof(known));
            view_fail(out, 400, "os=%.60s: no device runs this OS (known: %s)", v, known);
            return false;
        }
        buf_add(&f->where, " AND d.os = ?");
        f->params[f->count++] = DB_TEXT(match);
        cJSON_AddStringToObject(f->echo, "os", match);
    }
    bool on;
    if (!flag_valid(q, "exclude_cpu", &on, out))
        return false;
    if (on) {
        buf_add(&f->where, " AND d.device_type <> 'VK_PHYSICAL_DEVICE_TYPE_CPU'");
        cJSON_AddBoolToObject(f->echo, "exclude_cpu", 1);
    }
    if (!flag_valid(q, "exclude_virtual", &on, out))
        return false;
    if (on) {
        buf_add(&f->where, " AND d.device_type <> 'VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU'");
        cJSON_AddBoolToObject(f->echo, "exclude_virtual", 1);
    }
    if ((v = query_get(q, "api")) && *v) {
        int64_t packed;
        if (!api_valid(v, &packed)) {
            view_fail(out, 400, "api=%.40s is not a Vulkan version (e.g. 1.3)", v);
            return false;
        }
        buf_add(&f->where, " AND d.api_raw >= ?");
        f->params[f->count++] = DB_INT(packed);
        cJSON_AddStringToObject(f->echo, "api", v);
    }
    if ((v = query_get(q, "since")) && *v) {
        if (!view_date_valid(v)) {
            view_fail(out, 400, "since=%.40s is not a date (YYYY-MM-DD, e.g. 2026-11-01)", v);
            return false;
        }
        buf_add(&f->where, " AND d.last_upload >= ?");
        f->params[f->count++] = DB_TEXT(v);
        cJSON_AddStringToObject(f->echo, "since", v);
    }
    if ((v = query_get(q, "q")) && *v) {
        /* a search in names and machines: LIKE with its wildcards in the user's text escaped */
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
                           "LOWER(d.newest_driver) LIKE ? ESCAPE '!' OR EXISTS (SELECT 1 FROM machine_devices m "
                           "WHERE m.device_key = d.device_key AND LOWER(m.host) LIKE ? ESCAPE '!'))");
        for (int i = 0; i < 6; ++i)
            f->params[f->count++] = DB_TEXT(f->like);
        cJSON_AddStringToObject(f->echo, "q", v);
    }
    return true;
}

void filter_free(struct filter_sql *f)
{
    buf_free(&f->where);
    cJSON_Delete(f->echo);
    cJSON_Delete(f->choices);
    f->echo = f->choices = NULL;
}

bool filters_given(const struct filter_sql *f)
{
    return f->where.length > 0;
}

void filter_into_model(struct filter_sql *f, cJSON *model)
{
    cJSON_AddItemToObject(model, "filters", f->echo);
    cJSON_AddItemToObject(model, "choices", f->choices);
    f->echo = f->choices = NULL;
}

bool view_page_of(const struct query_args *q, long *page, struct view_response *out)
{
    const char *p = query_get(q, "page");
    *page = 1;
    if (p == NULL || *p == '\0')
        return true;
    char *end = NULL;
    long n = strtol(p, &end, 10);
    if (*end != '\0' || n < 1 || n > 1000000) {
        view_fail(out, 400, "page=%.20s: a page number from 1", p);
        return false;
    }
    *page = n;
    return true;
}

struct db_result *view_query_one(struct db *db, const char *sql, const struct db_param *params, int count,
                                 struct view_response *out, const char *not_found)
{
    struct db_result *r = db_query(db, sql, params, count);
    if (r == NULL) {
        view_db_failed(out, db);
        return NULL;
    }
    if (db_result_rows(r) == 0) {
        db_result_free(r);
        view_fail(out, 404, "%s", not_found);
        return NULL;
    }
    return r;
}

cJSON *view_load_report(struct db *db, int64_t id, struct view_response *out)
{
    size_t length = 0;
    char *body = ingest_load_body(db, id, &length);
    if (body == NULL) {
        view_fail(out, 404, "no report %lld", (long long)id);
        return NULL;
    }
    char error[512];
    cJSON *report = report_parse(body, length, "stored report", error, sizeof(error));
    free(body);
    if (report == NULL)
        view_fail(out, 500, "%s", error);
    return report;
}

const cJSON *view_device_of(const cJSON *report, int index)
{
    return index >= 0 ? report_device_at(report, (size_t)index) : NULL;
}

void view_download(struct view_response *out, char *data, size_t length, const char *type, const char *filename)
{
    out->body = data;
    out->length = length;
    out->content_type = type;
    snprintf(out->filename, sizeof(out->filename), "%s", filename);
    out->status = 200;
}

void view_download_json(struct view_response *out, const cJSON *document, const char *filename)
{
    char *text = cJSON_Print(document);
    if (text == NULL) {
        view_fail(out, 500, "out of memory");
        return;
    }
    view_download(out, text, strlen(text), "application/json", filename);
}

void view_add_share(cJSON *o, const char *name, int64_t part, int64_t whole)
{
    cJSON_AddNumberToObject(o, name, whole > 0 ? (double)part / (double)whole : 0);
}
