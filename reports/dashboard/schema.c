#include "schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rederive.h"

/* Statements of one migration step. "%ID%", "%BLOB%" and "%WITHOUT_ROWID%" (SQLite's clustered
 * tables, for the per-item rows keyed by text) are what the engines spell differently; everything
 * else is SQL both accept. */
static const char *const version_1[] = {
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE tokens (name TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, created TEXT NOT NULL, revoked TEXT)",
    /* one row per upload: the exact bytes (deflated), who sent them, from where and when */
    "CREATE TABLE reports (id %ID%, idempotency_key TEXT NOT NULL UNIQUE, body %BLOB% NOT NULL, "
    "body_bytes BIGINT NOT NULL, uploaded TEXT NOT NULL, token TEXT NOT NULL, peer TEXT NOT NULL, host TEXT, "
    "created TEXT, generator TEXT, devices INTEGER NOT NULL)",
    /* one row per device of a report, with what the listings show and filter by */
    "CREATE TABLE entries (id %ID%, report_id BIGINT NOT NULL REFERENCES reports(id), device_index INTEGER NOT NULL, "
    "device_key TEXT NOT NULL, device_name TEXT NOT NULL, vendor TEXT NOT NULL, vendor_id BIGINT, device_id BIGINT, "
    "device_type TEXT NOT NULL, driver_name TEXT NOT NULL, driver_id TEXT NOT NULL, driver_version TEXT NOT NULL, "
    "driver_raw BIGINT NOT NULL, api_version TEXT NOT NULL, os TEXT NOT NULL, kernel TEXT NOT NULL, host TEXT NOT NULL, "
    "uploaded TEXT NOT NULL, tests_passed INTEGER NOT NULL, tests_failed INTEGER NOT NULL, "
    "spec_violations INTEGER NOT NULL)",
    "CREATE INDEX entries_device ON entries (device_key, driver_raw, id)",
    "CREATE INDEX entries_report ON entries (report_id)",
    /* one row per deviceKey: its newest entry (highest driver, then latest upload) */
    "CREATE TABLE devices (device_key TEXT PRIMARY KEY, current_entry BIGINT NOT NULL, reports INTEGER NOT NULL, "
    "first_upload TEXT NOT NULL, last_upload TEXT NOT NULL, vendor TEXT NOT NULL, device_name TEXT NOT NULL, "
    "device_type TEXT NOT NULL, driver_name TEXT NOT NULL, newest_driver TEXT NOT NULL, newest_driver_raw BIGINT "
    "NOT NULL, os TEXT NOT NULL, api_version TEXT NOT NULL, api_raw BIGINT NOT NULL)",
    "CREATE INDEX devices_grouping ON devices (vendor, driver_name, device_name)",
    "CREATE INDEX devices_last_upload ON devices (last_upload)",
    /* what each device's newest entry says of every capability, extension, feature, limit, format
     * and test: the coverage pages read these rows (a device's rows lie together: one key prefix),
     * never the reports. No index by item: a page about one item visits each device of the set
     * by key, which costs less than keeping a second index of every row at ingest. */
    "CREATE TABLE current_items (device_key TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, "
    "declared INTEGER NOT NULL, verdict TEXT NOT NULL, value TEXT NOT NULL, number DOUBLE PRECISION, "
    "PRIMARY KEY (device_key, kind, name))%WITHOUT_ROWID%",
    /* the lowest driver version of each device that declared an item */
    "CREATE TABLE first_seen (device_key TEXT NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, "
    "driver_raw BIGINT NOT NULL, driver_version TEXT NOT NULL, PRIMARY KEY (device_key, kind, name))%WITHOUT_ROWID%",
    /* per item, over the devices' newest entries: kept up to date at ingest */
    "CREATE TABLE item_counts (kind TEXT NOT NULL, name TEXT NOT NULL, devices INTEGER NOT NULL, "
    "declared INTEGER NOT NULL, verified INTEGER NOT NULL, failed INTEGER NOT NULL, PRIMARY KEY (kind, name))%WITHOUT_ROWID%",
    NULL,
};

/* Version 2 (issue 30): verdicts over machines, machines, artifacts, sessions; features and limits
 * named by struct. The tables derived from reports are derived again from the stored bytes. */
static const char *const version_2[] = {
    /* each entry's smoke verdicts: {"test": {id: verdict}, "capability": {id: verdict}} */
    "ALTER TABLE entries ADD COLUMN verdicts TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX reports_host ON reports (host, id)",
    /* per machine (host label): its newest report, also one without a device */
    "CREATE TABLE machines (host TEXT PRIMARY KEY, reports INTEGER NOT NULL, first_upload TEXT NOT NULL, "
    "last_upload TEXT NOT NULL, last_report BIGINT NOT NULL, last_devices INTEGER NOT NULL)",
    /* the newest entry of each device on each machine */
    "CREATE TABLE machine_devices (host TEXT NOT NULL, device_key TEXT NOT NULL, entry_id BIGINT NOT NULL, "
    "driver_raw BIGINT NOT NULL, last_upload TEXT NOT NULL, PRIMARY KEY (host, device_key))%WITHOUT_ROWID%",
    "CREATE INDEX machine_devices_device ON machine_devices (device_key, host)",
    /* per (device, driver): the newest entry of each machine, whose verdicts combine */
    "CREATE TABLE driver_machines (device_key TEXT NOT NULL, driver_raw BIGINT NOT NULL, host TEXT NOT NULL, "
    "entry_id BIGINT NOT NULL, PRIMARY KEY (device_key, driver_raw, host))%WITHOUT_ROWID%",
    /* per (device, driver): the combined verdicts' summary and the change from the previous driver */
    "CREATE TABLE drivers (device_key TEXT NOT NULL, driver_raw BIGINT NOT NULL, driver_version TEXT NOT NULL, "
    "machines INTEGER NOT NULL, reports INTEGER NOT NULL, tests INTEGER NOT NULL, failing INTEGER NOT NULL, "
    "flaky INTEGER NOT NULL, regressions INTEGER NOT NULL, fixes INTEGER NOT NULL, previous_raw BIGINT, "
    "previous_version TEXT, first_upload TEXT NOT NULL, last_upload TEXT NOT NULL, newest_entry BIGINT NOT NULL, "
    "PRIMARY KEY (device_key, driver_raw))",
    "CREATE INDEX drivers_regressions ON drivers (regressions, last_upload)",
    /* per (device, driver) and smoke test or capability: the combined verdict */
    "CREATE TABLE driver_tests (device_key TEXT NOT NULL, driver_raw BIGINT NOT NULL, kind TEXT NOT NULL, "
    "name TEXT NOT NULL, verdict TEXT NOT NULL, machines INTEGER NOT NULL, passing INTEGER NOT NULL, "
    "failing INTEGER NOT NULL, detail TEXT NOT NULL, PRIMARY KEY (device_key, driver_raw, kind, name))%WITHOUT_ROWID%",
    /* per (device, driver): the tests whose combined verdict differs from the previous driver's */
    "CREATE TABLE driver_changes (device_key TEXT NOT NULL, driver_raw BIGINT NOT NULL, name TEXT NOT NULL, "
    "change TEXT NOT NULL, before TEXT NOT NULL, after TEXT NOT NULL, before_detail TEXT NOT NULL, "
    "after_detail TEXT NOT NULL, PRIMARY KEY (device_key, driver_raw, name))%WITHOUT_ROWID%",
    /* the artifacts (PNG) a report's evidence names, and the uploaded bytes by their SHA-256 */
    "CREATE TABLE report_artifacts (report_id BIGINT NOT NULL, sha256 TEXT NOT NULL, bytes BIGINT NOT NULL, "
    "PRIMARY KEY (report_id, sha256))",
    "CREATE TABLE artifacts (sha256 TEXT PRIMARY KEY, data %BLOB% NOT NULL, bytes BIGINT NOT NULL, "
    "uploaded TEXT NOT NULL)",
    /* browser sessions: the SHA-256 of a random cookie, for a token (its revocation ends them) */
    "CREATE TABLE sessions (hash TEXT PRIMARY KEY, token TEXT NOT NULL, created TEXT NOT NULL, "
    "expires TEXT NOT NULL)",
    NULL,
};

/* Version 3 (issue 43): a machine's newest report is its newest run (the report's `created`), not
 * its last upload; Mesa drivers are told apart by their Mesa version; only tests that ran count in
 * the verdicts over machines; every run is counted for the verdicts with a confidence. The tables
 * derived from reports are derived again. */
static const char *const version_3[] = {
    "ALTER TABLE entries ADD COLUMN run_at TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE machines ADD COLUMN last_run TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE machine_devices ADD COLUMN run_at TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE driver_machines ADD COLUMN run_at TEXT NOT NULL DEFAULT ''",
    /* per (device, driver) and smoke test: its runs and failures over every report of every
     * machine, for the verdicts with a confidence (fleet_verdict.h) */
    "CREATE TABLE driver_runs (device_key TEXT NOT NULL, driver_raw BIGINT NOT NULL, name TEXT NOT NULL, "
    "runs INTEGER NOT NULL, failures INTEGER NOT NULL, PRIMARY KEY (device_key, driver_raw, name))%WITHOUT_ROWID%",
    NULL,
};

/* Version 4 (issue 44): who stored each artifact, for the quota per token (artifact_store.h);
 * artifacts stored before have no token ('') and count for none. */
static const char *const version_4[] = {
    "ALTER TABLE artifacts ADD COLUMN token TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX artifacts_token ON artifacts (token, uploaded)",
    NULL,
};

/* Version 5 (issue 43 item 6): the webhook's outbox, written in the upload's transaction (an
 * event is sent exactly when its upload is stored) and emptied by the delivery thread (webhook.h). */
static const char *const version_5[] = {
    "CREATE TABLE webhook_outbox (id %ID%, event TEXT NOT NULL, body TEXT NOT NULL, created TEXT NOT NULL, "
    "attempts INTEGER NOT NULL DEFAULT 0, next_attempt TEXT NOT NULL, claimed_until TEXT, delivered TEXT, "
    "failed TEXT, last_error TEXT)",
    "CREATE INDEX webhook_outbox_due ON webhook_outbox (delivered, failed, next_attempt)",
    NULL,
};

static const char *const *const migrations[SCHEMA_VERSION] = {version_1, version_2, version_3, version_4, version_5};
/* Data a step changes beyond the tables (NULL: none); runs in the step's transaction. A step
 * whose derivation a later step repeats skips it (the later tables are not there yet). */
static bool (*const rederive[SCHEMA_VERSION])(struct db *, char *, size_t) = {NULL, rederive_all, rederive_all, NULL,
                                                                              NULL};

static char *spell(enum db_backend backend, const char *statement)
{
    const char *id =
        backend == DB_SQLITE ? "INTEGER PRIMARY KEY" : "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY";
    const char *blob = backend == DB_SQLITE ? "BLOB" : "BYTEA";
    char *out = malloc(strlen(statement) + 128);
    if (out == NULL)
        return NULL;
    size_t o = 0;
    for (const char *s = statement; *s;) {
        if (strncmp(s, "%ID%", 4) == 0) {
            o += (size_t)sprintf(out + o, "%s", id);
            s += 4;
        } else if (strncmp(s, "%WITHOUT_ROWID%", 15) == 0) {
            o += (size_t)sprintf(out + o, "%s", backend == DB_SQLITE ? " WITHOUT ROWID" : "");
            s += 15;
        } else if (strncmp(s, "%BLOB%", 6) == 0) {
            o += (size_t)sprintf(out + o, "%s", blob);
            s += 6;
        } else {
            out[o++] = *s++;
        }
    }
    out[o] = '\0';
    return out;
}

static int stored_version(struct db *db)
{
    const struct db_param key = DB_TEXT("schema_version");
    struct db_result *r = db_query(db, "SELECT value FROM meta WHERE key = ?", &key, 1);
    int version = r && db_result_rows(r) ? (int)db_result_int(r, 0, 0) : 0;
    db_result_free(r);
    return version;
}

bool schema_prepare(struct db *db, int *migrated_from, char *error, size_t size)
{
    /* the meta table first, so that its version can be read inside the write transaction */
    if (!db_begin_write(db) || !db_exec(db, version_1[0], NULL, 0) || !db_commit(db)) {
        snprintf(error, size, "database: %s", db_error(db));
        db_rollback(db);
        return false;
    }
    if (!db_begin_write(db)) {
        snprintf(error, size, "database: %s", db_error(db));
        return false;
    }
    int version = stored_version(db);
    if (migrated_from)
        *migrated_from = version;
    if (version > SCHEMA_VERSION) {
        db_rollback(db);
        snprintf(error, size,
                 "the database has schema version %d; this preflight-dashboard knows up to %d: use a newer one",
                 version, SCHEMA_VERSION);
        return false;
    }
    db_rollback(db);
    for (int step = version; step < SCHEMA_VERSION; ++step) {
        if (!db_begin_write(db)) {
            snprintf(error, size, "database: %s", db_error(db));
            return false;
        }
        if (stored_version(db) != step) { /* another dashboard process migrated it meanwhile */
            db_rollback(db);
            continue;
        }
        bool ok = true;
        for (const char *const *s = migrations[step] + (step == 0); ok && *s; ++s) {
            char *statement = spell(db_backend(db), *s);
            ok = statement != NULL && db_exec_dynamic(db, statement, NULL, 0);
            free(statement);
        }
        char detail[512] = "";
        bool derived_later = false;
        for (int later = step + 1; later < SCHEMA_VERSION; ++later)
            derived_later = derived_later || rederive[later] != NULL;
        if (ok && rederive[step] != NULL && !derived_later && !rederive[step](db, detail, sizeof(detail))) {
            snprintf(error, size, "database: migrating to schema version %d: %s", step + 1, detail);
            db_rollback(db);
            return false;
        }
        char number[16];
        snprintf(number, sizeof(number), "%d", step + 1);
        const struct db_param params[] = {DB_TEXT("schema_version"), DB_TEXT(number)};
        ok = ok && db_exec(db, "DELETE FROM meta WHERE key = ?", params, 1) &&
             db_exec(db, "INSERT INTO meta (key, value) VALUES (?, ?)", params, 2) && db_commit(db);
        if (!ok) {
            snprintf(error, size, "database: migrating to schema version %d: %s", step + 1, db_error(db));
            db_rollback(db);
            return false;
        }
    }
    return true;
}
