#include "fleet_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "fleet_verdict.h"
#include "items.h"

/* One machine's verdict of one item, from an entry's verdicts JSON. */
struct tuple {
    const char *kind, *name, *host, *verdict;
};

static int compare_tuples(const void *a, const void *b)
{
    const struct tuple *x = a, *y = b;
    int c = strcmp(x->kind, y->kind);
    if (c == 0)
        c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->host, y->host);
}

struct combined {
    const char *kind, *name;
    struct fleet_verdict v;
};

/* A stored row of driver_tests, pointing into its result. */
struct stored_test {
    const char *kind, *name, *verdict, *detail;
    int machines, passing, failing;
};

static int compare_stored(const void *a, const void *b)
{
    const struct stored_test *x = a, *y = b;
    int c = strcmp(x->kind, y->kind);
    return c ? c : strcmp(x->name, y->name);
}

/* The combined verdicts of the machines' newest entries; `parsed` keeps their JSON alive. */
static struct combined *combine_machines(struct db *db, const struct fleet_entry *e, size_t *count, int *machines,
                                         cJSON ***parsed, size_t *parsed_count)
{
    const struct db_param key[] = {DB_TEXT(e->device_key), DB_INT(e->driver_raw)};
    struct db_result *r =
        db_query(db,
                 "SELECT m.host, e.verdicts FROM driver_machines m JOIN entries e ON e.id = m.entry_id "
                 "WHERE m.device_key = ? AND m.driver_raw = ?",
                 key, 2);
    if (r == NULL)
        return NULL;
    size_t rows = db_result_rows(r), n = 0, capacity = 64;
    *machines = (int)rows;
    *parsed = calloc(rows + 1, sizeof(**parsed));
    struct tuple *tuples = malloc(capacity * sizeof(*tuples));
    char **hosts = calloc(rows + 1, sizeof(*hosts));
    bool ok = *parsed != NULL && tuples != NULL && hosts != NULL;
    for (size_t i = 0; ok && i < rows; ++i) {
        hosts[i] = strdup(db_result_text(r, i, 0));
        cJSON *verdicts = cJSON_Parse(db_result_text(r, i, 1));
        (*parsed)[i] = verdicts;
        ok = hosts[i] != NULL;
        const cJSON *kind, *item;
        cJSON_ArrayForEach(kind, verdicts)
        {
            cJSON_ArrayForEach(item, kind)
            {
                if (!ok || !cJSON_IsString(item))
                    continue;
                if (n == capacity) {
                    struct tuple *grown = realloc(tuples, 2 * capacity * sizeof(*tuples));
                    ok = grown != NULL;
                    if (!ok)
                        break;
                    tuples = grown;
                    capacity *= 2;
                }
                tuples[n++] = (struct tuple){kind->string, item->string, hosts[i], item->valuestring};
            }
        }
    }
    *parsed_count = rows;
    db_result_free(r);
    struct combined *out = ok ? calloc(n + 1, sizeof(*out)) : NULL;
    *count = 0;
    if (out != NULL) {
        qsort(tuples, n, sizeof(*tuples), compare_tuples);
        struct machine_verdict *group = calloc(rows + 1, sizeof(*group));
        for (size_t i = 0; group && i < n;) {
            size_t j = i, g = 0;
            for (; j < n && strcmp(tuples[j].kind, tuples[i].kind) == 0 && strcmp(tuples[j].name, tuples[i].name) == 0;
                 ++j)
                if (g < rows) /* one machine per host: a host repeated would be a malformed entry */
                    group[g++] = (struct machine_verdict){tuples[j].host, tuples[j].verdict};
            struct combined *c = &out[(*count)++];
            c->kind = tuples[i].kind;
            c->name = tuples[i].name;
            fleet_combine(group, g, &c->v);
            i = j;
        }
        if (group == NULL) {
            free(out);
            out = NULL;
        }
        free(group);
    }
    free(tuples);
    /* the hosts are copied into each fleet_verdict's detail; the names stay in `parsed` */
    for (size_t i = 0; hosts && i < rows; ++i)
        free(hosts[i]);
    free(hosts);
    return out;
}

static void free_parsed(cJSON **parsed, size_t count)
{
    for (size_t i = 0; parsed && i < count; ++i)
        cJSON_Delete(parsed[i]);
    free(parsed);
}

static struct stored_test *read_tests(struct db_result *r, size_t *count)
{
    *count = db_result_rows(r);
    struct stored_test *rows = calloc(*count + 1, sizeof(*rows));
    for (size_t i = 0; rows && i < *count; ++i)
        rows[i] =
            (struct stored_test){db_result_text(r, i, 0),    db_result_text(r, i, 1),     db_result_text(r, i, 2),
                                 db_result_text(r, i, 3),    (int)db_result_int(r, i, 4), (int)db_result_int(r, i, 5),
                                 (int)db_result_int(r, i, 6)};
    /* sorted here: the engines' collations need not order text as strcmp does */
    if (rows)
        qsort(rows, *count, sizeof(*rows), compare_stored);
    return rows;
}

static struct db_result *query_tests(struct db *db, const char *device_key, int64_t driver_raw, bool tests_only)
{
    const struct db_param key[] = {DB_TEXT(device_key), DB_INT(driver_raw)};
    return tests_only ? db_query(db,
                                 "SELECT kind, name, verdict, detail, machines, passing, failing FROM driver_tests "
                                 "WHERE device_key = ? AND driver_raw = ? AND kind = 'test'",
                                 key, 2)
                      : db_query(db,
                                 "SELECT kind, name, verdict, detail, machines, passing, failing FROM driver_tests "
                                 "WHERE device_key = ? AND driver_raw = ?",
                                 key, 2);
}

static bool write_test(struct db *db, const struct fleet_entry *e, const struct combined *c, bool update)
{
    const struct db_param p[] = {DB_TEXT(c->v.verdict), DB_INT(c->v.machines), DB_INT(c->v.passing),
                                 DB_INT(c->v.failing),  DB_TEXT(c->v.detail),  DB_TEXT(e->device_key),
                                 DB_INT(e->driver_raw), DB_TEXT(c->kind),      DB_TEXT(c->name)};
    if (update)
        return db_exec(db,
                       "UPDATE driver_tests SET verdict = ?, machines = ?, passing = ?, failing = ?, detail = ? "
                       "WHERE device_key = ? AND driver_raw = ? AND kind = ? AND name = ?",
                       p, 9);
    return db_exec(db,
                   "INSERT INTO driver_tests (verdict, machines, passing, failing, detail, device_key, driver_raw, "
                   "kind, name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   p, 9);
}

/* driver_tests of (device, driver) become `now`: only the rows that moved are written. */
static bool replace_tests(struct db *db, const struct fleet_entry *e, const struct combined *now, size_t count)
{
    struct db_result *r = query_tests(db, e->device_key, e->driver_raw, false);
    if (r == NULL)
        return false;
    size_t before_count;
    struct stored_test *before = read_tests(r, &before_count);
    bool ok = before != NULL;
    size_t a = 0, b = 0;
    while (ok && (a < before_count || b < count)) {
        int order = a == before_count ? 1
                    : b == count      ? -1
                                      : (strcmp(before[a].kind, now[b].kind) ? strcmp(before[a].kind, now[b].kind)
                                                                             : strcmp(before[a].name, now[b].name));
        if (order < 0) {
            const struct db_param p[] = {DB_TEXT(e->device_key), DB_INT(e->driver_raw), DB_TEXT(before[a].kind),
                                         DB_TEXT(before[a].name)};
            ok = db_exec(
                db, "DELETE FROM driver_tests WHERE device_key = ? AND driver_raw = ? AND kind = ? AND name = ?", p, 4);
            ++a;
        } else if (order > 0) {
            ok = write_test(db, e, &now[b++], false);
        } else {
            const struct stored_test *old = &before[a++];
            const struct combined *c = &now[b++];
            if (strcmp(old->verdict, c->v.verdict) == 0 && strcmp(old->detail, c->v.detail) == 0 &&
                old->machines == c->v.machines)
                continue;
            ok = write_test(db, e, c, true);
        }
    }
    free(before);
    db_result_free(r);
    return ok;
}

static const char *change_name(enum fleet_change c)
{
    return c == FLEET_REGRESSION ? "regression" : c == FLEET_FIX ? "fix" : "changed";
}

/* The driver next to `raw` on the device: below (`below`) or above it. */
static bool neighbour(struct db *db, const char *device_key, int64_t raw, bool below, int64_t *found, bool *exists)
{
    const struct db_param p[] = {DB_TEXT(device_key), DB_INT(raw)};
    struct db_result *r = below ? db_query(db,
                                           "SELECT driver_raw FROM drivers WHERE device_key = ? AND driver_raw < ? "
                                           "ORDER BY driver_raw DESC LIMIT 1",
                                           p, 2)
                                : db_query(db,
                                           "SELECT driver_raw FROM drivers WHERE device_key = ? AND driver_raw > ? "
                                           "ORDER BY driver_raw LIMIT 1",
                                           p, 2);
    if (r == NULL)
        return false;
    *exists = db_result_rows(r) == 1;
    *found = *exists ? db_result_int(r, 0, 0) : 0;
    db_result_free(r);
    return true;
}

/* A test's verdict on an earlier driver, for the change to a later one. */
struct earlier_test {
    const char *name, *verdict, *detail, *driver_version;
    int64_t driver_raw;
    int runs, failures;
};

static int compare_earlier(const void *a, const void *b)
{
    const struct earlier_test *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->driver_raw < y->driver_raw) - (x->driver_raw > y->driver_raw); /* newest driver first */
}

/* Per test, the verdict of the newest driver below `after` on which a machine ran it (a driver
 * whose machines all skipped it, a subset run, says nothing): sorted by name, one per test. */
static struct earlier_test *earlier_verdicts(struct db *db, const char *device_key, int64_t after,
                                             struct db_result **keep, size_t *count)
{
    const struct db_param key[] = {DB_TEXT(device_key), DB_INT(after)};
    *keep = db_query(db,
                     "SELECT t.name, t.verdict, t.detail, t.driver_raw, v.driver_version, COALESCE(n.runs, 0), "
                     "COALESCE(n.failures, 0) FROM driver_tests t "
                     "JOIN drivers v ON v.device_key = t.device_key AND v.driver_raw = t.driver_raw "
                     "LEFT JOIN driver_runs n ON n.device_key = t.device_key AND n.driver_raw = t.driver_raw AND "
                     "n.name = t.name "
                     "WHERE t.device_key = ? AND t.driver_raw < ? AND t.kind = 'test' AND t.verdict <> 'skipped'",
                     key, 2);
    if (*keep == NULL)
        return NULL;
    size_t rows = db_result_rows(*keep);
    struct earlier_test *all = calloc(rows + 1, sizeof(*all));
    if (all == NULL)
        return NULL;
    for (size_t i = 0; i < rows; ++i)
        all[i] = (struct earlier_test){db_result_text(*keep, i, 0),    db_result_text(*keep, i, 1),
                                       db_result_text(*keep, i, 2),    db_result_text(*keep, i, 4),
                                       db_result_int(*keep, i, 3),     (int)db_result_int(*keep, i, 5),
                                       (int)db_result_int(*keep, i, 6)};
    qsort(all, rows, sizeof(*all), compare_earlier);
    size_t n = 0;
    for (size_t i = 0; i < rows; ++i)
        if (n == 0 || strcmp(all[n - 1].name, all[i].name) != 0)
            all[n++] = all[i];
    *count = n;
    return all;
}

/* The changes of driver `after` from the drivers before it (per test, the newest that ran it),
 * written to driver_changes and counted in `after`'s drivers row with its previous driver. */
static bool rewrite_changes(struct db *db, const char *device_key, int64_t after)
{
    int64_t before = 0;
    bool has_before = false;
    if (!neighbour(db, device_key, after, true, &before, &has_before))
        return false;
    struct db_result *ra = query_tests(db, device_key, after, true), *rb = NULL;
    size_t na = 0, nb = 0;
    struct stored_test *ta = ra ? read_tests(ra, &na) : NULL;
    struct earlier_test *tb = earlier_verdicts(db, device_key, after, &rb, &nb);
    const struct db_param runs_key[] = {DB_TEXT(device_key), DB_INT(after)};
    struct db_result *rr = db_query(
        db, "SELECT name, runs, failures FROM driver_runs WHERE device_key = ? AND driver_raw = ?", runs_key, 2);
    const struct db_param key[] = {DB_TEXT(device_key), DB_INT(after)};
    bool ok = ta != NULL && tb != NULL && rr != NULL &&
              db_exec(db, "DELETE FROM driver_changes WHERE device_key = ? AND driver_raw = ?", key, 2);
    int regressions = 0, fixes = 0;
    for (size_t a = 0, b = 0; ok && a < na && b < nb;) {
        int order = strcmp(ta[a].name, tb[b].name);
        if (order != 0) { /* a test only one driver ran is no change of verdict */
            order < 0 ? ++a : ++b;
            continue;
        }
        enum fleet_change c = fleet_compare(tb[b].verdict, ta[a].verdict);
        /* measured: a flaky test much worse (or better) on this driver, where the rule sees no change */
        struct fleet_measure was, now;
        fleet_measure(tb[b].runs, tb[b].failures, &was);
        fleet_measure(0, 0, &now);
        for (size_t k = 0; rr && k < db_result_rows(rr); ++k)
            if (strcmp(db_result_text(rr, k, 0), ta[a].name) == 0)
                fleet_measure((int)db_result_int(rr, k, 1), (int)db_result_int(rr, k, 2), &now);
        enum fleet_change measured = fleet_measured_change(&was, &now);
        char measured_before[160] = "", measured_after[160] = "";
        if ((c == FLEET_SAME || c == FLEET_CHANGED) && measured != FLEET_SAME) {
            c = measured;
            fleet_measure_text(&was, measured_before, sizeof(measured_before));
            fleet_measure_text(&now, measured_after, sizeof(measured_after));
        }
        if (c != FLEET_SAME) {
            regressions += c == FLEET_REGRESSION;
            fixes += c == FLEET_FIX;
            char before_detail[900], after_detail[700];
            if (tb[b].driver_raw == before) /* the previous driver: the page names it already */
                snprintf(before_detail, sizeof(before_detail), "%s%s%s", tb[b].detail, *measured_before ? "; " : "",
                         measured_before);
            else
                snprintf(before_detail, sizeof(before_detail), "on %s (the last driver that ran it): %s%s%s",
                         tb[b].driver_version, tb[b].detail, *measured_before ? "; " : "", measured_before);
            snprintf(after_detail, sizeof(after_detail), "%s%s%s", ta[a].detail, *measured_after ? "; " : "",
                     measured_after);
            const struct db_param p[] = {DB_TEXT(device_key),     DB_INT(after),          DB_TEXT(ta[a].name),
                                         DB_TEXT(change_name(c)), DB_TEXT(tb[b].verdict), DB_TEXT(ta[a].verdict),
                                         DB_TEXT(before_detail),  DB_TEXT(after_detail)};
            ok = db_exec(db,
                         "INSERT INTO driver_changes (device_key, driver_raw, name, change, before, after, "
                         "before_detail, after_detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         p, 8);
        }
        ++a, ++b;
    }
    const struct db_param p[] = {DB_INT(regressions),
                                 DB_INT(fixes),
                                 has_before ? DB_INT(before) : DB_NULL,
                                 DB_TEXT(device_key),
                                 has_before ? DB_INT(before) : DB_NULL,
                                 DB_TEXT(device_key),
                                 DB_INT(after)};
    ok = ok && db_exec(db,
                       "UPDATE drivers SET regressions = ?, fixes = ?, previous_raw = ?, previous_version = "
                       "(SELECT p.driver_version FROM drivers p WHERE p.device_key = ? AND p.driver_raw = ?) "
                       "WHERE device_key = ? AND driver_raw = ?",
                       p, 7);
    free(ta);
    free(tb);
    db_result_free(ra);
    db_result_free(rb);
    db_result_free(rr);
    return ok;
}

/* The changes of driver `raw` and of every driver above it: a later driver's change may look back
 * past drivers that did not run a test to this one. */
static bool rewrite_changes_from(struct db *db, const char *device_key, int64_t raw)
{
    const struct db_param p[] = {DB_TEXT(device_key), DB_INT(raw)};
    struct db_result *r = db_query(db, "SELECT driver_raw FROM drivers WHERE device_key = ? AND driver_raw >= ?", p, 2);
    bool ok = r != NULL;
    for (size_t i = 0; ok && i < db_result_rows(r); ++i)
        ok = rewrite_changes(db, device_key, db_result_int(r, i, 0));
    db_result_free(r);
    return ok;
}

/* The entry's test runs added to driver_runs: every run counts for the measured verdicts. */
static bool count_runs(struct db *db, const struct fleet_entry *e)
{
    const struct db_param id = DB_INT(e->entry_id);
    struct db_result *r = db_query(db, "SELECT verdicts FROM entries WHERE id = ?", &id, 1);
    if (r == NULL || db_result_rows(r) != 1) {
        db_result_free(r);
        return false;
    }
    cJSON *verdicts = cJSON_Parse(db_result_text(r, 0, 0));
    db_result_free(r);
    bool ok = true;
    const cJSON *test, *again;
    cJSON_ArrayForEach(test, cJSON_GetObjectItemCaseSensitive(verdicts, "test"))
    {
        if (!ok || !cJSON_IsString(test) || !fleet_verdict_ran(test->valuestring))
            continue;
        /* the report's run, and its reruns (preflight-probe --repeat) */
        int runs = 1, failures = items_verdict_failing(test->valuestring);
        cJSON_ArrayForEach(
            again, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(verdicts, "reruns"), test->string))
        {
            if (cJSON_IsString(again) && fleet_verdict_ran(again->valuestring)) {
                ++runs;
                failures += items_verdict_failing(again->valuestring);
            }
        }
        const struct db_param p[] = {DB_TEXT(e->device_key), DB_INT(e->driver_raw), DB_TEXT(test->string), DB_INT(runs),
                                     DB_INT(failures)};
        ok = db_exec(db,
                     "INSERT INTO driver_runs (device_key, driver_raw, name, runs, failures) VALUES (?, ?, ?, ?, ?) "
                     "ON CONFLICT (device_key, driver_raw, name) DO UPDATE SET runs = driver_runs.runs + "
                     "excluded.runs, failures = driver_runs.failures + excluded.failures",
                     p, 5);
    }
    cJSON_Delete(verdicts);
    return ok;
}

bool fleet_store_entry(struct db *db, const struct fleet_entry *e)
{
    /* a machine's newest run counts, not its last upload: a spool flushed after an outage uploads
     * older runs after newer ones */
    const struct db_param m[] = {DB_TEXT(e->device_key), DB_INT(e->driver_raw), DB_TEXT(e->host), DB_INT(e->entry_id),
                                 DB_TEXT(e->run_at)};
    if (!db_exec(db,
                 "INSERT INTO driver_machines (device_key, driver_raw, host, entry_id, run_at) VALUES (?, ?, ?, ?, ?) "
                 "ON CONFLICT (device_key, driver_raw, host) DO UPDATE SET entry_id = excluded.entry_id, "
                 "run_at = excluded.run_at WHERE excluded.run_at >= driver_machines.run_at",
                 m, 5))
        return false;
    size_t count = 0, parsed_count = 0;
    int machines = 0;
    cJSON **parsed = NULL;
    struct combined *now = combine_machines(db, e, &count, &machines, &parsed, &parsed_count);
    bool ok = now != NULL && replace_tests(db, e, now, count);
    int tests = 0, failing = 0, flaky = 0;
    for (size_t i = 0; ok && i < count; ++i) {
        if (strcmp(now[i].kind, "test") != 0)
            continue;
        ++tests;
        flaky += strcmp(now[i].v.verdict, ITEM_VERDICT_FLAKY) == 0;
        failing += items_verdict_failing(now[i].v.verdict) && strcmp(now[i].v.verdict, ITEM_VERDICT_FLAKY) != 0;
    }
    free(now);
    free_parsed(parsed, parsed_count);
    const struct db_param key[] = {DB_TEXT(e->device_key), DB_INT(e->driver_raw)};
    struct db_result *r =
        ok ? db_query(db, "SELECT 1 FROM drivers WHERE device_key = ? AND driver_raw = ?", key, 2) : NULL;
    ok = r != NULL;
    bool known = ok && db_result_rows(r) == 1;
    db_result_free(r);
    const struct db_param d[] = {
        DB_TEXT(e->driver_version), DB_INT(machines),    DB_INT(tests),          DB_INT(failing),      DB_INT(flaky),
        DB_TEXT(e->uploaded),       DB_INT(e->entry_id), DB_TEXT(e->device_key), DB_INT(e->driver_raw)};
    if (ok && known)
        ok = db_exec(
            db,
            "UPDATE drivers SET driver_version = ?, machines = ?, reports = reports + 1, tests = ?, "
            "failing = ?, flaky = ?, last_upload = ?, newest_entry = CASE WHEN ? >= (SELECT n.run_at FROM "
            "entries n WHERE n.id = drivers.newest_entry) THEN ? ELSE newest_entry END "
            "WHERE device_key = ? AND driver_raw = ?",
            (const struct db_param[]){d[0], d[1], d[2], d[3], d[4], d[5], DB_TEXT(e->run_at), d[6], d[7], d[8]}, 10);
    else if (ok)
        ok = db_exec(db,
                     "INSERT INTO drivers (driver_version, machines, reports, tests, failing, flaky, regressions, "
                     "fixes, first_upload, last_upload, newest_entry, device_key, driver_raw) "
                     "VALUES (?, ?, 1, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?)",
                     (const struct db_param[]){d[0], d[1], d[2], d[3], d[4], d[5], d[5], d[6], d[7], d[8]}, 10);
    /* every upload adds runs, which may move the measured changes where no verdict moved */
    ok = ok && count_runs(db, e) && rewrite_changes_from(db, e->device_key, e->driver_raw);
    return ok;
}

struct db_result *fleet_store_verdicts(struct db *db, const char *device_key, int64_t driver_raw)
{
    const struct db_param key[] = {DB_TEXT(device_key), DB_INT(driver_raw)};
    return db_query(db, "SELECT kind, name, verdict FROM driver_tests WHERE device_key = ? AND driver_raw = ?", key, 2);
}
