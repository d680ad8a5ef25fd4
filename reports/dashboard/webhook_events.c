/* The webhook's events of one upload (webhook_events.h). */
#include "webhook_events.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "webhook.h"

/* What the tables said of one device key before the upload. */
struct device_before {
    const char *key;
    int64_t driver_raw;
    char **regressions; /* "driver_raw:name", sorted */
    size_t regression_count;
    struct db_result *runs; /* name, failures of (key, driver_raw) */
};

struct before {
    struct device_before *devices;
    int device_count;
    int64_t machine_devices; /* the machine's newest run's devices; -1: no machine row */
};

static int compare_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *regression_key(int64_t driver_raw, const char *name)
{
    size_t n = strlen(name) + 24;
    char *k = malloc(n);
    if (k != NULL)
        snprintf(k, n, "%lld:%s", (long long)driver_raw, name);
    return k;
}

static struct db_result *regressions_of(struct db *db, const char *key)
{
    const struct db_param p[] = {DB_TEXT(key)};
    return db_query(db,
                    "SELECT c.driver_raw, c.name, c.before, c.after, c.before_detail, c.after_detail, d.driver_version "
                    "FROM driver_changes c JOIN drivers d ON d.device_key = c.device_key AND d.driver_raw = "
                    "c.driver_raw WHERE c.device_key = ? AND c.change = 'regression' ORDER BY c.driver_raw, c.name",
                    p, 1);
}

static void free_before(struct before *b)
{
    for (int i = 0; b && i < b->device_count; ++i) {
        for (size_t k = 0; k < b->devices[i].regression_count; ++k)
            free(b->devices[i].regressions[k]);
        free(b->devices[i].regressions);
        db_result_free(b->devices[i].runs);
    }
    if (b)
        free(b->devices);
    free(b);
}

static void *before(struct db *db, const struct ingest_prepared *p, void *context)
{
    (void)context;
    struct before *b = calloc(1, sizeof(*b));
    int n = ingest_prepared_device_count(p);
    if (b == NULL || (b->devices = calloc((size_t)n + 1, sizeof(*b->devices))) == NULL) {
        free(b);
        return NULL;
    }
    b->device_count = n;
    bool ok = true;
    for (int i = 0; ok && i < n; ++i) {
        struct device_before *d = &b->devices[i];
        d->key = ingest_prepared_device_key(p, i);
        d->driver_raw = ingest_prepared_driver_raw(p, i);
        struct db_result *r = regressions_of(db, d->key);
        ok = r != NULL;
        size_t rows = r ? db_result_rows(r) : 0;
        d->regressions = calloc(rows + 1, sizeof(*d->regressions));
        ok = ok && d->regressions != NULL;
        for (size_t k = 0; ok && k < rows; ++k)
            ok = (d->regressions[d->regression_count++] =
                      regression_key(db_result_int(r, k, 0), db_result_text(r, k, 1))) != NULL;
        if (ok)
            qsort(d->regressions, d->regression_count, sizeof(char *), compare_text);
        db_result_free(r);
        const struct db_param key[] = {DB_TEXT(d->key), DB_INT(d->driver_raw)};
        d->runs =
            ok ? db_query(db, "SELECT name, failures FROM driver_runs WHERE device_key = ? AND driver_raw = ?", key, 2)
               : NULL;
        ok = ok && d->runs != NULL;
    }
    const struct db_param host[] = {DB_TEXT(ingest_prepared_host(p))};
    struct db_result *m = ok ? db_query(db, "SELECT last_devices FROM machines WHERE host = ?", host, 1) : NULL;
    ok = ok && m != NULL;
    b->machine_devices = m && db_result_rows(m) ? db_result_int(m, 0, 0) : -1;
    db_result_free(m);
    if (!ok) {
        free_before(b);
        return NULL;
    }
    return b;
}

static cJSON *device_json(const struct ingest_prepared *p, int index, const char *driver_version)
{
    const cJSON *identity = cJSON_GetObjectItemCaseSensitive(ingest_prepared_device(p, index), "identity");
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "deviceKey", ingest_prepared_device_key(p, index));
    const char *fields[] = {"deviceName", "driverName", "driverInfo"};
    for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); ++i) {
        const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(identity, fields[i]));
        cJSON_AddStringToObject(d, fields[i], v ? v : "");
    }
    const cJSON *vendor = cJSON_GetObjectItemCaseSensitive(identity, "vendorID");
    if (cJSON_IsNumber(vendor))
        cJSON_AddNumberToObject(d, "vendorID", vendor->valuedouble);
    if (driver_version != NULL)
        cJSON_AddStringToObject(d, "driverVersion", driver_version);
    return d;
}

static void add_link(cJSON *links, const struct webhook_events_config *c, const char *name, const char *path)
{
    if (c->public_url == NULL || c->public_url[0] == '\0')
        return;
    size_t n = strlen(c->public_url) + strlen(path) + 2;
    char *url = malloc(n);
    if (url == NULL)
        return;
    snprintf(url, n, "%s%s", c->public_url, path);
    cJSON_AddStringToObject(links, name, url);
    free(url);
}

static bool seen_before(const struct device_before *d, int64_t driver_raw, const char *name)
{
    char *k = regression_key(driver_raw, name);
    if (k == NULL)
        return true; /* out of memory: rather no event than a wrong one */
    bool found = bsearch(&k, d->regressions, d->regression_count, sizeof(char *), compare_text) != NULL;
    free(k);
    return found;
}

/* One event per (device, driver) with regressions not there before. */
static bool new_regressions(struct db *db, const struct ingest_prepared *p, int index, const struct device_before *d,
                            int64_t report_id, const struct webhook_events_config *c)
{
    struct db_result *r = regressions_of(db, d->key);
    if (r == NULL)
        return false;
    bool ok = true;
    for (size_t k = 0; ok && k < db_result_rows(r);) {
        int64_t driver = db_result_int(r, k, 0);
        cJSON *tests = cJSON_CreateArray();
        const char *version = db_result_text(r, k, 6);
        for (; k < db_result_rows(r) && db_result_int(r, k, 0) == driver; ++k) {
            if (seen_before(d, driver, db_result_text(r, k, 1)))
                continue;
            cJSON *t = cJSON_CreateObject();
            cJSON_AddStringToObject(t, "test", db_result_text(r, k, 1));
            cJSON_AddStringToObject(t, "before", db_result_text(r, k, 2));
            cJSON_AddStringToObject(t, "after", db_result_text(r, k, 3));
            cJSON_AddStringToObject(t, "beforeDetail", db_result_text(r, k, 4));
            cJSON_AddStringToObject(t, "afterDetail", db_result_text(r, k, 5));
            cJSON_AddItemToArray(tests, t);
        }
        if (cJSON_GetArraySize(tests) == 0) {
            cJSON_Delete(tests);
            continue;
        }
        cJSON *payload = cJSON_CreateObject();
        cJSON_AddNumberToObject(payload, "reportId", (double)report_id);
        cJSON_AddStringToObject(payload, "host", ingest_prepared_host(p));
        cJSON_AddItemToObject(payload, "device", device_json(p, index, version));
        cJSON_AddItemToObject(payload, "tests", tests);
        cJSON *links = cJSON_AddObjectToObject(payload, "links");
        char path[300];
        snprintf(path, sizeof(path), "/devices/%s", d->key);
        add_link(links, c, "device", path);
        snprintf(path, sizeof(path), "/reports/%lld", (long long)report_id);
        add_link(links, c, "report", path);
        ok = webhook_enqueue(db, "regression", payload);
        cJSON_Delete(payload);
    }
    db_result_free(r);
    return ok;
}

static int64_t failures_before(const struct device_before *d, const char *name)
{
    for (size_t i = 0; i < db_result_rows(d->runs); ++i)
        if (strcmp(db_result_text(d->runs, i, 0), name) == 0)
            return db_result_int(d->runs, i, 1);
    return 0;
}

/* The device's failing tests no entry excuses, failing on this (device, driver) for the first time. */
static bool unexpected_failures(struct db *db, const struct ingest_prepared *p, int index,
                                const struct device_before *d, int64_t report_id, const struct webhook_events_config *c)
{
    char today[11];
    expectations_today(today);
    const struct item_list *items = ingest_prepared_items(p, index);
    const cJSON *device = ingest_prepared_device(p, index);
    cJSON *tests = cJSON_CreateArray();
    for (size_t i = 0; i < items->count; ++i) {
        const struct item *it = &items->items[i];
        if (strcmp(it->kind, "test") != 0 || !items_verdict_failing(it->verdict))
            continue;
        const struct expectation *x = expectations_find(c->expectations, device, it->name, today);
        if ((x != NULL && expectation_excuses(x, it->verdict)) || failures_before(d, it->name) > 0)
            continue;
        cJSON *t = cJSON_CreateObject();
        cJSON_AddStringToObject(t, "test", it->name);
        cJSON_AddStringToObject(t, "verdict", it->verdict);
        cJSON_AddItemToArray(tests, t);
    }
    if (cJSON_GetArraySize(tests) == 0) {
        cJSON_Delete(tests);
        return true;
    }
    cJSON *payload = cJSON_CreateObject();
    cJSON_AddNumberToObject(payload, "reportId", (double)report_id);
    cJSON_AddStringToObject(payload, "host", ingest_prepared_host(p));
    cJSON_AddItemToObject(payload, "device", device_json(p, index, NULL));
    cJSON_AddItemToObject(payload, "tests", tests);
    cJSON *links = cJSON_AddObjectToObject(payload, "links");
    char path[64];
    snprintf(path, sizeof(path), "/reports/%lld", (long long)report_id);
    add_link(links, c, "report", path);
    bool ok = webhook_enqueue(db, "unexpected-failure", payload);
    cJSON_Delete(payload);
    return ok;
}

/* The machine's newest run has no device now, where the one before had. */
static bool lost_gpu(struct db *db, const struct ingest_prepared *p, const struct before *b, int64_t report_id,
                     const struct webhook_events_config *c)
{
    if (ingest_prepared_device_count(p) != 0 || b->machine_devices <= 0)
        return true;
    const struct db_param host[] = {DB_TEXT(ingest_prepared_host(p))};
    struct db_result *m =
        db_query(db, "SELECT last_report, last_devices, last_run FROM machines WHERE host = ?", host, 1);
    if (m == NULL)
        return false;
    bool newest = db_result_rows(m) == 1 && db_result_int(m, 0, 0) == report_id && db_result_int(m, 0, 1) == 0;
    bool ok = true;
    if (newest) {
        cJSON *payload = cJSON_CreateObject();
        cJSON_AddNumberToObject(payload, "reportId", (double)report_id);
        cJSON_AddStringToObject(payload, "host", ingest_prepared_host(p));
        cJSON_AddStringToObject(payload, "run", db_result_text(m, 0, 2));
        cJSON_AddNumberToObject(payload, "devicesBefore", (double)b->machine_devices);
        cJSON *links = cJSON_AddObjectToObject(payload, "links");
        char path[300];
        snprintf(path, sizeof(path), "/machines/%s", ingest_prepared_host(p));
        add_link(links, c, "machine", path);
        ok = webhook_enqueue(db, "lost-gpu", payload);
        cJSON_Delete(payload);
    }
    db_result_free(m);
    return ok;
}

static bool after(struct db *db, const struct ingest_prepared *p, int64_t report_id, void *state, bool stored,
                  void *context)
{
    struct before *b = state;
    const struct webhook_events_config *c = context;
    bool ok = true;
    for (int i = 0; stored && ok && i < b->device_count; ++i) {
        bool twin = false; /* another GPU of the report with this key: its events once */
        for (int j = 0; j < i && !twin; ++j)
            twin = strcmp(b->devices[j].key, b->devices[i].key) == 0;
        if (twin)
            continue;
        ok = new_regressions(db, p, i, &b->devices[i], report_id, c);
        if (ok && c->expectations != NULL)
            ok = unexpected_failures(db, p, i, &b->devices[i], report_id, c);
    }
    ok = ok && (!stored || lost_gpu(db, p, b, report_id, c));
    free_before(b);
    return ok;
}

struct ingest_observer webhook_events_observer(const struct webhook_events_config *config)
{
    return (struct ingest_observer){before, after, (void *)config};
}
