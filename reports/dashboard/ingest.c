#include "ingest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "artifact_store.h"
#include "driver_version.h"
#include "fleet_store.h"
#include "items.h"
#include "matrix.h"
#include "report_bounds.h"
#include "report_model.h"
#include "report_read.h"
#include "sha256.h"
#include "tokens.h"
#include "verdict.h"

/* The stored body: deflated (reports are repetitive JSON: about a tenth of the bytes). */
static unsigned char *deflate_body(const char *body, size_t length, size_t *out_length)
{
    uLongf bound = compressBound((uLong)length);
    unsigned char *out = malloc(bound);
    if (out == NULL)
        return NULL;
    if (compress2(out, &bound, (const Bytef *)body, (uLong)length, 1) != Z_OK) {
        free(out);
        return NULL;
    }
    *out_length = bound;
    return out;
}

char *ingest_inflate_body(const void *stored, size_t stored_length, size_t length)
{
    uLongf size = (uLongf)length;
    char *body = malloc(length + 1);
    if (body != NULL && uncompress((Bytef *)body, &size, stored, (uLong)stored_length) == Z_OK && size == length) {
        body[size] = '\0';
        return body;
    }
    free(body);
    return NULL;
}

char *ingest_load_body(struct db *db, int64_t id, size_t *length)
{
    const struct db_param param = DB_INT(id);
    struct db_result *r = db_query(db, "SELECT body, body_bytes FROM reports WHERE id = ?", &param, 1);
    char *body = NULL;
    if (r != NULL && db_result_rows(r) == 1) {
        size_t stored;
        const void *bytes = db_result_blob(r, 0, 0, &stored);
        *length = (size_t)db_result_int(r, 0, 1);
        body = ingest_inflate_body(bytes, stored, *length);
    }
    db_result_free(r);
    return body;
}

static const char *text_of(const cJSON *object, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(object, key));
    return s ? s : "";
}

/* One device entry's identity, as the listings keep it. */
struct entry_identity {
    const char *key, *name, *vendor, *type, *driver_name, *driver_id, *driver_version, *api_version, *os, *kernel;
    const char *verdicts; /* the entry's smoke verdicts as JSON: {"test": {id: verdict}, "capability": {...}} */
    int64_t vendor_id, device_id, driver_raw, api_raw;
    int passed, failed, violations;
};

/* The strings are copied into `keep` (the device's item list), so that the parsed report can go. */
static void identity_of(const cJSON *device, struct entry_identity *e, struct item_list *keep)
{
    struct report_identity id = report_identity_of(device);
    e->key = items_keep_text(keep, id.device_key);
    e->name = items_keep_text(keep, id.device_name);
    e->vendor_id = id.has_vendor_id ? id.vendor_id : 0;
    e->vendor = matrix_vendor_name((unsigned)e->vendor_id);
    e->device_id = id.has_device_id ? id.device_id : 0;
    e->type = items_keep_text(keep, id.device_type);
    e->driver_name = items_keep_text(keep, id.driver_name);
    e->driver_id = items_keep_text(keep, id.driver_id);
    char vendor_text[64];
    driver_version_vendor_text(
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(report_identity_block(device), "driverVersionScheme")),
        (uint32_t)id.driver_version_raw, id.driver_version, vendor_text, sizeof(vendor_text));
    e->driver_raw = id.driver_version_raw;
    /* a Mesa driver is its Mesa version: lavapipe's driverVersion is the same for every Mesa */
    driver_version_mesa(id.driver_id, id.driver_info, &e->driver_raw, vendor_text, sizeof(vendor_text));
    e->driver_version = items_keep_text(keep, vendor_text);
    e->api_version = items_keep_text(keep, id.api_version);
    e->api_raw = id.api_version_raw;
    e->os = items_keep_text(keep, id.os);
    e->kernel = items_keep_text(keep, id.kernel);
    e->passed = e->failed = 0;
    const cJSON *test;
    REPORT_FOR_EACH_SMOKE(test, device)
    {
        const char *status = report_smoke_of(test).status;
        e->passed += strcmp(status, "pass") == 0;
        e->failed += items_verdict_failing(status);
    }
    e->violations = (int)report_spec_minimum_count(device);
}

/* What one device contributes to an item's counts. */
struct contribution {
    int devices, declared, verified, failed;
};

static struct contribution contribution_of(bool declared, const char *verdict)
{
    struct contribution c = {1, declared, strcmp(verdict, "pass") == 0, declared && items_verdict_failing(verdict)};
    return c;
}

/* Rows written by one multi-row statement, up to BATCH_ROWS at a time: a device seen for the first
 * time writes some 1200 rows of each kind, and one statement per row is one round trip each on
 * PostgreSQL. The rows' texts must stay valid until the flush. */
#define BATCH_ROWS 100
/* a test's reruns counted per report: what preflight-probe --repeat can make (its schema's bound) */
#define RERUNS_COUNTED 100
#define BATCH_COLUMNS 7

struct batch {
    const char *single;      /* the statement for one row: SQLite runs it prepared once, row by row (faster there) */
    const char *head, *tail; /* "INSERT ... VALUES", " ON CONFLICT ..." */
    int columns, rows;
    struct db_param params[BATCH_ROWS * BATCH_COLUMNS];
};

static bool batch_flush(struct db *db, struct batch *b)
{
    if (b->rows == 0)
        return true;
    size_t row_text = (size_t)b->columns * 3 + 4;
    size_t size = strlen(b->head) + strlen(b->tail) + (size_t)b->rows * row_text + 1;
    char *sql = malloc(size);
    if (sql == NULL)
        return false;
    size_t o = (size_t)sprintf(sql, "%s", b->head);
    for (int r = 0; r < b->rows; ++r) {
        o += (size_t)sprintf(sql + o, "%s(", r ? ", " : " ");
        for (int c = 0; c < b->columns; ++c)
            o += (size_t)sprintf(sql + o, c ? ", ?" : "?");
        sql[o++] = ')';
    }
    sprintf(sql + o, "%s", b->tail);
    bool ok = db_exec_dynamic(db, sql, b->params, b->rows * b->columns);
    free(sql);
    b->rows = 0;
    return ok;
}

static bool batch_add(struct db *db, struct batch *b, const struct db_param *row)
{
    if (db_backend(db) == DB_SQLITE)
        return db_exec(db, b->single, row, b->columns);
    memcpy(&b->params[b->rows * b->columns], row, sizeof(*row) * (size_t)b->columns);
    return ++b->rows < BATCH_ROWS || batch_flush(db, b);
}

/* The three kinds of rows a device's new state writes. */
struct device_writes {
    struct batch current, counts, first_seen;
};

static void device_writes_init(struct device_writes *w)
{
    w->current = (struct batch){
        .single = "INSERT INTO current_items (declared, verdict, value, number, device_key, kind, name) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)",
        .head = "INSERT INTO current_items (declared, verdict, value, number, device_key, kind, name) VALUES",
        .tail = "",
        .columns = 7};
    w->counts = (struct batch){
        .single = "INSERT INTO item_counts (kind, name, devices, declared, verified, failed) VALUES (?, ?, ?, ?, ?, ?) "
                  "ON CONFLICT (kind, name) DO UPDATE SET devices = item_counts.devices + excluded.devices, "
                  "declared = item_counts.declared + excluded.declared, "
                  "verified = item_counts.verified + excluded.verified, failed = item_counts.failed + excluded.failed",
        .head = "INSERT INTO item_counts (kind, name, devices, declared, verified, failed) VALUES",
        .tail = " ON CONFLICT (kind, name) DO UPDATE SET devices = item_counts.devices + excluded.devices, "
                "declared = item_counts.declared + excluded.declared, "
                "verified = item_counts.verified + excluded.verified, failed = item_counts.failed + excluded.failed",
        .columns = 6};
    w->first_seen = (struct batch){
        .single = "INSERT INTO first_seen (device_key, kind, name, driver_raw, driver_version) "
                  "VALUES (?, ?, ?, ?, ?) ON CONFLICT (device_key, kind, name) DO UPDATE SET "
                  "driver_raw = excluded.driver_raw, driver_version = excluded.driver_version "
                  "WHERE excluded.driver_raw < first_seen.driver_raw",
        .head = "INSERT INTO first_seen (device_key, kind, name, driver_raw, driver_version) VALUES",
        .tail = " ON CONFLICT (device_key, kind, name) DO UPDATE SET driver_raw = excluded.driver_raw, "
                "driver_version = excluded.driver_version WHERE excluded.driver_raw < first_seen.driver_raw",
        .columns = 5};
}

static bool device_writes_flush(struct db *db, struct device_writes *w)
{
    return batch_flush(db, &w->current) && batch_flush(db, &w->counts) && batch_flush(db, &w->first_seen);
}

static bool add_counts(struct db *db, struct device_writes *w, const char *kind, const char *name,
                       struct contribution plus, struct contribution minus)
{
    struct contribution d = {plus.devices - minus.devices, plus.declared - minus.declared,
                             plus.verified - minus.verified, plus.failed - minus.failed};
    if (!d.devices && !d.declared && !d.verified && !d.failed)
        return true;
    const struct db_param p[] = {DB_TEXT(kind),      DB_TEXT(name),      DB_INT(d.devices),
                                 DB_INT(d.declared), DB_INT(d.verified), DB_INT(d.failed)};
    return batch_add(db, &w->counts, p);
}

static bool note_first_seen(struct db *db, struct device_writes *w, const char *key, const struct item *it,
                            const struct entry_identity *e)
{
    const struct db_param p[] = {DB_TEXT(key), DB_TEXT(it->kind), DB_TEXT(it->name), DB_INT(e->driver_raw),
                                 DB_TEXT(e->driver_version)};
    return batch_add(db, &w->first_seen, p);
}

static bool write_current(struct db *db, struct device_writes *w, const char *key, const struct item *it, bool update)
{
    const struct db_param p[] = {DB_INT(it->declared), DB_TEXT(it->verdict),
                                 DB_TEXT(it->value),   isnan(it->number) ? DB_NULL : DB_REAL(it->number),
                                 DB_TEXT(key),         DB_TEXT(it->kind),
                                 DB_TEXT(it->name)};
    if (update)
        return db_exec(db,
                       "UPDATE current_items SET declared = ?, verdict = ?, value = ?, number = ? "
                       "WHERE device_key = ? AND kind = ? AND name = ?",
                       p, 7);
    return batch_add(db, &w->current, p);
}

/* A row of current_items as read back, pointing into the query's result. */
struct current_row {
    const char *kind, *name, *verdict, *value;
    bool declared;
};

static int compare_rows(const void *a, const void *b)
{
    const struct current_row *x = a, *y = b;
    int k = strcmp(x->kind, y->kind);
    return k ? k : strcmp(x->name, y->name);
}

static int compare_items(const void *a, const void *b)
{
    return items_compare(a, b);
}

static int compare_row_item(const struct current_row *row, const struct item *it)
{
    int k = strcmp(row->kind, it->kind);
    return k ? k : strcmp(row->name, it->name);
}

/* The device's newest state becomes `now`: only the items that changed are written. */
static bool replace_current(struct db *db, const char *key, const struct item_list *now, const struct entry_identity *e)
{
    const struct db_param k = DB_TEXT(key);
    struct db_result *r =
        db_query(db, "SELECT kind, name, declared, verdict, value FROM current_items WHERE device_key = ?", &k, 1);
    if (r == NULL)
        return false;
    size_t count = db_result_rows(r);
    struct current_row *before = calloc(count + 1, sizeof(*before));
    if (before == NULL) {
        db_result_free(r);
        return false;
    }
    for (size_t i = 0; i < count; ++i)
        before[i] = (struct current_row){db_result_text(r, i, 0), db_result_text(r, i, 1), db_result_text(r, i, 3),
                                         db_result_text(r, i, 4), db_result_int(r, i, 2) != 0};
    /* sorted here: the engines' collations need not order text as strcmp does */
    qsort(before, count, sizeof(*before), compare_rows);
    static const struct contribution none = {0, 0, 0, 0};
    struct device_writes *w = malloc(sizeof(*w));
    bool ok = w != NULL;
    if (w != NULL)
        device_writes_init(w);
    size_t a = 0, b = 0;
    while (ok && (a < count || b < now->count)) {
        int order = a == count ? 1 : b == now->count ? -1 : compare_row_item(&before[a], &now->items[b]);
        if (order < 0) { /* gone */
            const struct current_row *old = &before[a++];
            const struct db_param p[] = {DB_TEXT(key), DB_TEXT(old->kind), DB_TEXT(old->name)};
            ok = db_exec(db, "DELETE FROM current_items WHERE device_key = ? AND kind = ? AND name = ?", p, 3) &&
                 add_counts(db, w, old->kind, old->name, none, contribution_of(old->declared, old->verdict));
        } else if (order > 0) { /* new */
            const struct item *it = &now->items[b++];
            ok = write_current(db, w, key, it, false) &&
                 add_counts(db, w, it->kind, it->name, contribution_of(it->declared, it->verdict), none) &&
                 (!it->declared || note_first_seen(db, w, key, it, e));
        } else {
            const struct current_row *old = &before[a++];
            const struct item *it = &now->items[b++];
            if (old->declared == it->declared && strcmp(old->verdict, it->verdict) == 0 &&
                strcmp(old->value, it->value) == 0)
                continue;
            ok = write_current(db, w, key, it, true) &&
                 add_counts(db, w, it->kind, it->name, contribution_of(it->declared, it->verdict),
                            contribution_of(old->declared, old->verdict)) &&
                 (!it->declared || old->declared || note_first_seen(db, w, key, it, e));
        }
    }
    ok = ok && device_writes_flush(db, w);
    free(w);
    free(before);
    db_result_free(r);
    return ok;
}

/* The device's newest items with the fleet's combined verdicts of its newest driver in place of
 * this entry's own (a test that fails on another machine of the same driver fails here too). */
static bool with_fleet_verdicts(struct db *db, const char *key, int64_t driver_raw, const struct item_list *items,
                                struct item_list *out)
{
    struct db_result *r = fleet_store_verdicts(db, key, driver_raw);
    if (r == NULL)
        return false;
    *out = *items;
    out->items = malloc((items->count + 1) * sizeof(*out->items));
    out->capacity = items->count;
    bool ok = out->items != NULL;
    if (ok)
        memcpy(out->items, items->items, items->count * sizeof(*out->items));
    for (size_t i = 0; ok && i < db_result_rows(r); ++i) {
        struct item wanted = {.name = (char *)db_result_text(r, i, 1)};
        snprintf(wanted.kind, sizeof(wanted.kind), "%s", db_result_text(r, i, 0));
        struct item *it = bsearch(&wanted, out->items, out->count, sizeof(*out->items), compare_items);
        if (it != NULL)
            snprintf(it->verdict, sizeof(it->verdict), "%s", db_result_text(r, i, 2));
    }
    db_result_free(r);
    return ok;
}

/* `observer`: who saw this device's verdicts, for the fleet's rule: the machine, or the machine
 * and the GPU where one machine has several GPUs of the same deviceKey (each GPU counts). */
static bool store_device(struct db *db, int64_t report_id, int index, const struct entry_identity *identity,
                         const struct item_list *prepared, const char *host, const char *observer, const char *uploaded,
                         const char *run_at, char *message, size_t size)
{
    const struct entry_identity e = *identity;
    const struct item_list items = *prepared;
    const struct db_param entry[] = {DB_INT(report_id),
                                     DB_INT(index),
                                     DB_TEXT(e.key),
                                     DB_TEXT(e.name),
                                     DB_TEXT(e.vendor),
                                     DB_INT(e.vendor_id),
                                     DB_INT(e.device_id),
                                     DB_TEXT(e.type),
                                     DB_TEXT(e.driver_name),
                                     DB_TEXT(e.driver_id),
                                     DB_TEXT(e.driver_version),
                                     DB_INT(e.driver_raw),
                                     DB_TEXT(e.api_version),
                                     DB_TEXT(e.os),
                                     DB_TEXT(e.kernel),
                                     DB_TEXT(host),
                                     DB_TEXT(uploaded),
                                     DB_INT(e.passed),
                                     DB_INT(e.failed),
                                     DB_INT(e.violations),
                                     DB_TEXT(e.verdicts),
                                     DB_TEXT(run_at)};
    struct db_result *r =
        db_query(db,
                 "INSERT INTO entries (report_id, device_index, device_key, device_name, vendor, vendor_id, "
                 "device_id, device_type, driver_name, driver_id, driver_version, driver_raw, api_version, os, "
                 "kernel, host, uploaded, tests_passed, tests_failed, spec_violations, verdicts, run_at) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                 entry, 22);
    bool ok = r != NULL && db_result_rows(r) == 1;
    int64_t entry_id = ok ? db_result_int(r, 0, 0) : 0;
    db_result_free(r);
    const struct db_param k = DB_TEXT(e.key);
    r = ok ? db_query(db,
                      "SELECT d.newest_driver_raw, c.run_at FROM devices d JOIN entries c ON c.id = d.current_entry "
                      "WHERE d.device_key = ?",
                      &k, 1)
           : NULL;
    ok = r != NULL;
    bool known = ok && db_result_rows(r) == 1;
    /* the newest report of a device: the highest driver version, and of those the latest run (a
     * spool flushed after an outage uploads older runs last) */
    bool newest = !known || e.driver_raw > db_result_int(r, 0, 0) ||
                  (e.driver_raw == db_result_int(r, 0, 0) && strcmp(run_at, db_result_text(r, 0, 1)) >= 0);
    db_result_free(r);
    const struct db_param d[] = {DB_INT(entry_id),          DB_TEXT(uploaded),    DB_TEXT(e.vendor),
                                 DB_TEXT(e.name),           DB_TEXT(e.type),      DB_TEXT(e.driver_name),
                                 DB_TEXT(e.driver_version), DB_INT(e.driver_raw), DB_TEXT(e.os),
                                 DB_TEXT(e.api_version),    DB_INT(e.api_raw),    DB_TEXT(e.key)};
    if (ok && !known)
        ok = db_exec(
            db,
            "INSERT INTO devices (current_entry, first_upload, last_upload, vendor, device_name, device_type, "
            "driver_name, newest_driver, newest_driver_raw, os, api_version, api_raw, device_key, reports) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
            (const struct db_param[]){d[0], d[1], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10], d[11]},
            13);
    else if (ok && newest)
        ok = db_exec(
            db,
            "UPDATE devices SET current_entry = ?, last_upload = ?, vendor = ?, device_name = ?, device_type = ?, "
            "driver_name = ?, newest_driver = ?, newest_driver_raw = ?, os = ?, api_version = ?, api_raw = ?, "
            "reports = reports + 1 WHERE device_key = ?",
            d, 12);
    else if (ok)
        ok = db_exec(db, "UPDATE devices SET last_upload = ?, reports = reports + 1 WHERE device_key = ?",
                     (const struct db_param[]){d[1], d[11]}, 2);
    const struct db_param machine[] = {DB_TEXT(host),        DB_TEXT(e.key),    DB_INT(entry_id),
                                       DB_INT(e.driver_raw), DB_TEXT(uploaded), DB_TEXT(run_at)};
    ok = ok && db_exec(db,
                       "INSERT INTO machine_devices (host, device_key, entry_id, driver_raw, last_upload, run_at) "
                       "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (host, device_key) DO UPDATE SET entry_id = "
                       "excluded.entry_id, driver_raw = excluded.driver_raw, last_upload = excluded.last_upload, "
                       "run_at = excluded.run_at WHERE excluded.run_at >= machine_devices.run_at",
                       machine, 6);
    const struct fleet_entry fleet = {e.key, e.driver_version, observer, uploaded, run_at, e.driver_raw, entry_id};
    ok = ok && fleet_store_entry(db, &fleet);
    if (ok && newest) {
        struct item_list combined = {0};
        ok = with_fleet_verdicts(db, e.key, e.driver_raw, &items, &combined) &&
             replace_current(db, e.key, &combined, &e);
        free(combined.items);
    } else if (ok) { /* an older driver: it may only lower the first versions */
        struct device_writes *w = malloc(sizeof(*w));
        ok = w != NULL;
        if (w != NULL)
            device_writes_init(w);
        for (size_t i = 0; ok && i < items.count; ++i)
            if (items.items[i].declared)
                ok = note_first_seen(db, w, e.key, &items.items[i], &e);
        ok = ok && device_writes_flush(db, w);
        free(w);
    }
    if (!ok)
        snprintf(message, size, "database: %s", db_error(db));
    return ok;
}

/* Everything the store needs, taken out of the parsed report (which the preparing thread frees:
 * memory goes back to the allocator arena it came from). */
struct ingest_prepared {
    char key[65];
    struct item_list texts; /* holds the report's strings */
    const char *created, *generator, *host;
    struct item_list *items; /* per device */
    struct entry_identity *identities;
    int devices;
    struct report_artifact *artifacts;
    size_t artifact_count;
    cJSON **devices_small; /* each device without its declared block and smoke results (for matching) */
    unsigned char *stored; /* the deflated body */
    size_t stored_length, length;
};

void ingest_prepared_free(struct ingest_prepared *p)
{
    if (p == NULL)
        return;
    for (int i = 0; p->items && i < p->devices; ++i)
        items_free(&p->items[i]);
    free(p->items);
    free(p->identities);
    for (int i = 0; p->devices_small && i < p->devices; ++i)
        cJSON_Delete(p->devices_small[i]);
    free(p->devices_small);
    free(p->artifacts);
    items_free(&p->texts);
    free(p->stored);
    free(p);
}

const char *ingest_prepared_host(const struct ingest_prepared *p)
{
    return p->host;
}

int ingest_prepared_device_count(const struct ingest_prepared *p)
{
    return p->devices;
}

const char *ingest_prepared_device_key(const struct ingest_prepared *p, int index)
{
    return p->identities[index].key;
}

int64_t ingest_prepared_driver_raw(const struct ingest_prepared *p, int index)
{
    return p->identities[index].driver_raw;
}

const cJSON *ingest_prepared_device(const struct ingest_prepared *p, int index)
{
    return p->devices_small[index];
}

const struct item_list *ingest_prepared_items(const struct ingest_prepared *p, int index)
{
    return &p->items[index];
}

const char *ingest_prepared_key(const struct ingest_prepared *p)
{
    return p->key;
}

const struct report_artifact *ingest_prepared_artifacts(const struct ingest_prepared *p, size_t *count)
{
    *count = p->artifact_count;
    return p->artifacts;
}

/* The entry's smoke verdicts, kept as JSON text with its items; a test's reruns (preflight-probe
 * --repeat) as the list of their verdicts, each a run of its own for the measured verdicts. */
static const char *verdicts_of(struct item_list *items, const cJSON *device)
{
    cJSON *all = cJSON_CreateObject();
    cJSON *tests = cJSON_AddObjectToObject(all, "test");
    cJSON *capabilities = cJSON_AddObjectToObject(all, "capability");
    for (size_t i = 0; i < items->count; ++i) {
        const struct item *it = &items->items[i];
        if (*it->verdict)
            cJSON_AddStringToObject(strcmp(it->kind, "test") == 0 ? tests : capabilities, it->name, it->verdict);
    }
    cJSON *reruns = NULL;
    const cJSON *entry;
    cJSON_ArrayForEach(entry, cJSON_GetObjectItemCaseSensitive(device, "smoke"))
    {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(entry, "id"), *run;
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(entry, "reruns");
        if (!cJSON_IsString(id) || !cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0 ||
            cJSON_GetObjectItemCaseSensitive(reruns, id->valuestring) != NULL)
            continue;
        if (reruns == NULL)
            reruns = cJSON_AddObjectToObject(all, "reruns");
        cJSON *verdicts = cJSON_AddArrayToObject(reruns, id->valuestring);
        enum verdict v;
        int kept = 0;
        cJSON_ArrayForEach(run, list)
        {
            const cJSON *status = cJSON_GetObjectItemCaseSensitive(run, "status");
            if (cJSON_IsString(status) && verdict_parse(status->valuestring, &v) && kept++ < RERUNS_COUNTED)
                cJSON_AddItemToArray(verdicts, cJSON_CreateString(verdict_name(v)));
        }
    }
    char *text = cJSON_PrintUnformatted(all);
    cJSON_Delete(all);
    const char *kept = text ? items_keep_text(items, text) : NULL;
    free(text);
    return kept;
}

static struct ingest_prepared *prepare(const char *body, size_t length, const char *key, bool compress,
                                       enum ingest_status *status, char *message, size_t size)
{
    struct ingest_prepared *p = calloc(1, sizeof(*p));
    *status = INGEST_FAILED;
    if (p == NULL) {
        snprintf(message, size, "out of memory");
        return NULL;
    }
    if (key == NULL)
        sha256_hex(body, length, p->key);
    else
        snprintf(p->key, sizeof(p->key), "%s", key);
    char error[512];
    cJSON *report = report_parse(body, length, "report", error, sizeof(error));
    if (report != NULL && !report_strings_bounded(report, error, sizeof(error))) {
        cJSON_Delete(report);
        report = NULL;
    }
    if (report == NULL) {
        snprintf(message, size, "%s", error);
        *status = INGEST_INVALID;
        ingest_prepared_free(p);
        return NULL;
    }
    p->devices = (int)report_device_count(report);
    for (int i = 0; i < p->devices; ++i) {
        if (!*report_device_key(report_device_at(report, (size_t)i))) {
            snprintf(message, size,
                     "report: devices[%d].identity.deviceKey: missing (a vulkaninfo document is not a report; "
                     "probe the device with preflight-probe)",
                     i);
            *status = INGEST_INVALID;
            cJSON_Delete(report);
            ingest_prepared_free(p);
            return NULL;
        }
    }
    p->items = calloc((size_t)p->devices + 1, sizeof(*p->items));
    p->identities = calloc((size_t)p->devices + 1, sizeof(*p->identities));
    p->devices_small = calloc((size_t)p->devices + 1, sizeof(*p->devices_small));
    p->artifacts = calloc(REPORT_ARTIFACTS_MAX, sizeof(*p->artifacts));
    bool ok = p->items != NULL && p->identities != NULL && p->devices_small != NULL && p->artifacts != NULL;
    int index = 0;
    const cJSON *device;
    REPORT_FOR_EACH_DEVICE(device, report)
    {
        if (!ok)
            break;
        ok = items_from_device(device, &p->items[index]);
        if (ok) {
            identity_of(device, &p->identities[index], &p->items[index]);
            p->identities[index].verdicts = verdicts_of(&p->items[index], device);
            ok = p->identities[index].verdicts != NULL;
        }
        if (ok) { /* what an expectation matches a device by: not its declared block or results */
            cJSON *small = p->devices_small[index] = cJSON_CreateObject();
            const cJSON *member;
            cJSON_ArrayForEach(member, device)
            {
                if (small != NULL && strcmp(member->string, "declared") != 0 && strcmp(member->string, "smoke") != 0)
                    cJSON_AddItemToObject(small, member->string, cJSON_Duplicate(member, true));
            }
            ok = small != NULL;
        }
        ++index;
    }
    if (ok)
        p->artifact_count = report_artifacts_of(report, p->artifacts, REPORT_ARTIFACTS_MAX);
    p->created = items_keep_text(&p->texts, report_created(report));
    const cJSON *generator = report_generator(report);
    char generator_text[256];
    snprintf(generator_text, sizeof(generator_text), "%s %s", text_of(generator, "name"),
             text_of(generator, "version"));
    p->generator = items_keep_text(&p->texts, generator_text);
    p->host = items_keep_text(&p->texts, report_host(report));
    cJSON_Delete(report);
    ok = ok && p->created && p->generator && p->host;
    p->stored = ok && compress ? deflate_body(body, length, &p->stored_length) : NULL;
    p->length = length;
    if (!ok || (compress && p->stored == NULL)) {
        snprintf(message, size, "out of memory");
        ingest_prepared_free(p);
        return NULL;
    }
    return p;
}

struct ingest_prepared *ingest_prepare(const char *body, size_t length, const char *key, enum ingest_status *status,
                                       char *message, size_t size)
{
    return prepare(body, length, key, true, status, message, size);
}

struct ingest_prepared *ingest_prepare_stored(const char *body, size_t length, const char *key, char *message,
                                              size_t size)
{
    enum ingest_status status;
    return prepare(body, length, key, false, &status, message, size);
}

/* When a report ran: its `created` time in UTC ("2026-12-04T16:25:28Z"; an offset applied,
 * fractions of a second dropped), else its upload time. Texts compare as times. */
static void run_time_of(const char *created, const char *uploaded, char out[32])
{
    struct tm tm = {0};
    char rest[16] = "";
    int fields = sscanf(created, "%4d-%2d-%2dT%2d:%2d:%2d%15s", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                        &tm.tm_min, &tm.tm_sec, rest);
    const char *zone = rest;
    if (*zone == '.' || *zone == ',') /* fractions of a second */
        zone += 1 + strspn(zone + 1, "0123456789");
    int sign = *zone == '-' ? -1 : 1, hours = 0, minutes = 0;
    bool zoned =
        fields == 7 && (strcmp(zone, "Z") == 0 || strcmp(zone, "z") == 0 ||
                        ((*zone == '+' || *zone == '-') && sscanf(zone + 1, "%2d:%2d", &hours, &minutes) == 2));
    if (fields < 6 || (fields == 7 && !zoned)) {
        snprintf(out, 32, "%s", uploaded);
        return;
    }
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    time_t t = timegm(&tm) - sign * (hours * 3600 + minutes * 60);
    struct tm utc;
    if (t == (time_t)-1 || gmtime_r(&t, &utc) == NULL) {
        snprintf(out, 32, "%s", uploaded);
        return;
    }
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &utc);
}

bool ingest_store_derived(struct db *db, int64_t report_id, const struct ingest_prepared *p, const char *uploaded,
                          char *message, size_t size)
{
    bool ok = true;
    char run_at[32];
    run_time_of(p->created, uploaded, run_at);
    for (int i = 0; ok && i < p->devices; ++i) {
        bool twin = false; /* another GPU of the report with the same deviceKey */
        for (int j = 0; j < p->devices && !twin; ++j)
            twin = j != i && strcmp(p->identities[j].key, p->identities[i].key) == 0;
        char observer[300];
        if (twin)
            snprintf(observer, sizeof(observer), "%s (GPU %d)", p->host, i);
        else
            snprintf(observer, sizeof(observer), "%s", p->host);
        ok = store_device(db, report_id, i, &p->identities[i], &p->items[i], p->host, observer, uploaded, run_at,
                          message, size);
    }
    /* the machine's newest report is its newest run, whenever it was uploaded */
    const struct db_param machine[] = {DB_TEXT(p->host), DB_TEXT(uploaded), DB_INT(report_id), DB_INT(p->devices),
                                       DB_TEXT(run_at)};
    ok = ok &&
         db_exec(db,
                 "INSERT INTO machines (host, reports, first_upload, last_upload, last_report, last_devices, last_run) "
                 "VALUES (?, 1, ?, ?, ?, ?, ?) ON CONFLICT (host) DO UPDATE SET reports = machines.reports + 1, "
                 "last_upload = excluded.last_upload, "
                 "last_report = CASE WHEN excluded.last_run >= machines.last_run THEN excluded.last_report "
                 "ELSE machines.last_report END, "
                 "last_devices = CASE WHEN excluded.last_run >= machines.last_run THEN excluded.last_devices "
                 "ELSE machines.last_devices END, "
                 "last_run = CASE WHEN excluded.last_run >= machines.last_run THEN excluded.last_run "
                 "ELSE machines.last_run END",
                 (const struct db_param[]){machine[0], machine[1], machine[1], machine[2], machine[3], machine[4]}, 6);
    for (size_t i = 0; ok && i < p->artifact_count; ++i) {
        const struct db_param a[] = {DB_INT(report_id), DB_TEXT(p->artifacts[i].sha256), DB_INT(p->artifacts[i].bytes)};
        ok = db_exec(db, "INSERT INTO report_artifacts (report_id, sha256, bytes) VALUES (?, ?, ?)", a, 3);
    }
    if (!ok && *message == '\0')
        snprintf(message, size, "database: %s", db_error(db));
    return ok;
}

enum ingest_status ingest_store(struct db *db, const struct ingest_prepared *p, const struct ingest_source *source,
                                int64_t *report_id, char *message, size_t size)
{
    char uploaded[32];
    utc_now(uploaded);
    const char *host = p->host;
    if (!db_begin_write(db)) {
        snprintf(message, size, "database: %s", db_error(db));
        return INGEST_FAILED;
    }
    const struct db_param params[] = {DB_TEXT(p->key),
                                      DB_BLOB(p->stored, p->stored_length),
                                      DB_INT(p->length),
                                      DB_TEXT(uploaded),
                                      DB_TEXT(source->token_name),
                                      DB_TEXT(source->peer),
                                      DB_TEXT(host),
                                      DB_TEXT(p->created),
                                      DB_TEXT(p->generator),
                                      DB_INT(p->devices)};
    struct db_result *r =
        db_query(db,
                 "INSERT INTO reports (idempotency_key, body, body_bytes, uploaded, token, peer, host, created, "
                 "generator, devices) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                 "ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
                 params, 10);
    if (r == NULL) {
        snprintf(message, size, "database: %s", db_error(db));
        db_rollback(db);
        return INGEST_FAILED;
    }
    if (db_result_rows(r) == 0) { /* stored meanwhile, by another upload of the same bytes */
        db_result_free(r);
        db_rollback(db);
        const struct db_param k = DB_TEXT(p->key);
        r = db_query(db, "SELECT id FROM reports WHERE idempotency_key = ?", &k, 1);
        *report_id = db_result_rows(r) ? db_result_int(r, 0, 0) : 0;
        db_result_free(r);
        snprintf(message, size, "a report with Idempotency-Key %s is stored already (report %lld)", p->key,
                 (long long)*report_id);
        return INGEST_DUPLICATE;
    }
    *report_id = db_result_int(r, 0, 0);
    db_result_free(r);
    *message = '\0';
    const struct ingest_observer *o = source->observer;
    void *before = o ? o->before(db, p, o->context) : NULL;
    bool ok = (o == NULL || before != NULL) && ingest_store_derived(db, *report_id, p, uploaded, message, size);
    if (o != NULL && before != NULL) /* the events of this upload, stored with it */
        ok = o->after(db, p, *report_id, before, ok, o->context) && ok;
    if (ok && !db_commit(db)) {
        snprintf(message, size, "database: %s", db_error(db));
        ok = false;
    }
    if (!ok) {
        db_rollback(db);
        return INGEST_FAILED;
    }
    snprintf(message, size, "stored as report %lld", (long long)*report_id);
    return INGEST_STORED;
}

bool ingest_known(struct db *db, const char *key, int64_t *report_id, char *message, size_t size)
{
    const struct db_param known_key = DB_TEXT(key);
    struct db_result *known = db_query(db, "SELECT id FROM reports WHERE idempotency_key = ?", &known_key, 1);
    bool found = known != NULL && db_result_rows(known) == 1;
    if (found) {
        *report_id = db_result_int(known, 0, 0);
        snprintf(message, size, "a report with Idempotency-Key %s is stored already (report %lld)", key,
                 (long long)*report_id);
    }
    db_result_free(known);
    return found;
}

enum ingest_status ingest_report(struct db *db, const char *body, size_t length, const char *key,
                                 const struct ingest_source *source, int64_t *report_id, char *message, size_t size)
{
    char computed[65];
    if (key == NULL) {
        sha256_hex(body, length, computed);
        key = computed;
    }
    if (ingest_known(db, key, report_id, message, size))
        return INGEST_DUPLICATE;
    enum ingest_status status;
    struct ingest_prepared *p = ingest_prepare(body, length, key, &status, message, size);
    if (p == NULL)
        return status;
    status = ingest_store(db, p, source, report_id, message, size);
    ingest_prepared_free(p);
    return status;
}
