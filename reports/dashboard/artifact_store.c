#include "artifact_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "png_check.h"
#include "sha256.h"
#include "tokens.h"

/* The artifacts of report `report_id` stored already: how many, how many bytes. */
static bool report_usage(struct db *db, int64_t report_id, int64_t *files, int64_t *bytes)
{
    const struct db_param id = DB_INT(report_id);
    struct db_result *r = db_query(db,
                                   "SELECT COUNT(*), COALESCE(SUM(s.bytes), 0) FROM report_artifacts a "
                                   "JOIN artifacts s ON s.sha256 = a.sha256 WHERE a.report_id = ?",
                                   &id, 1);
    bool ok = r != NULL && db_result_rows(r) == 1;
    if (ok) {
        *files = db_result_int(r, 0, 0);
        *bytes = db_result_int(r, 0, 1);
    }
    db_result_free(r);
    return ok;
}

/* The bytes of artifacts `token` stored in the last 24 hours. */
static bool token_day_usage(struct db *db, const char *token, int64_t *bytes)
{
    time_t since = time(NULL) - 24 * 60 * 60;
    struct tm tm;
    char from[32];
    gmtime_r(&since, &tm);
    strftime(from, sizeof(from), "%Y-%m-%dT%H:%M:%SZ", &tm);
    const struct db_param p[] = {DB_TEXT(token), DB_TEXT(from)};
    struct db_result *r =
        db_query(db, "SELECT COALESCE(SUM(bytes), 0) FROM artifacts WHERE token = ? AND uploaded >= ?", p, 2);
    bool ok = r != NULL && db_result_rows(r) == 1;
    if (ok)
        *bytes = db_result_int(r, 0, 0);
    db_result_free(r);
    return ok;
}

/* Whether the report's and the token's quotas leave room for `length` more bytes. */
static enum artifact_status within_quota(struct db *db, int64_t report_id, size_t length, const char *token,
                                         const struct artifact_quota *quota, char *message, size_t size)
{
    int64_t files = 0, bytes = 0, day = 0;
    if (!report_usage(db, report_id, &files, &bytes) || (token != NULL && !token_day_usage(db, token, &day))) {
        snprintf(message, size, "database: %s", db_error(db));
        return ARTIFACT_FAILED;
    }
    if ((uint64_t)files + 1 > quota->report_files || (uint64_t)bytes + length > quota->report_bytes) {
        snprintf(message, size,
                 "report %lld has %lld artifacts of %lld bytes stored; with this one it would pass its quota of "
                 "%u artifacts and %llu bytes",
                 (long long)report_id, (long long)files, (long long)bytes, quota->report_files,
                 (unsigned long long)quota->report_bytes);
        return ARTIFACT_REPORT_QUOTA;
    }
    if (token != NULL && (uint64_t)day + length > quota->token_day_bytes) {
        snprintf(message, size,
                 "token '%s' stored %lld bytes of artifacts in the last 24 hours; with this one it would pass its "
                 "quota of %llu: retry later",
                 token, (long long)day, (unsigned long long)quota->token_day_bytes);
        return ARTIFACT_TOKEN_QUOTA;
    }
    return ARTIFACT_STORED;
}

enum artifact_status artifact_store(struct db *db, const char *report_key, const char *sha256, const void *data,
                                    size_t length, const char *token, const struct artifact_quota *quota, char *message,
                                    size_t size)
{
    char hash[65];
    sha256_hex(data, length, hash);
    if (strcmp(hash, sha256) != 0) {
        snprintf(message, size, "the body's SHA-256 is %s, not the artifact's name %s", hash, sha256);
        return ARTIFACT_MISMATCH;
    }
    char why[256];
    if (!png_check(data, length, why, sizeof(why))) {
        snprintf(message, size, "artifact %s is not a PNG image: %s", sha256, why);
        return ARTIFACT_NOT_PNG;
    }
    const struct db_param names[] = {DB_TEXT(report_key), DB_TEXT(sha256)};
    struct db_result *r = db_query(db,
                                   "SELECT r.id, (SELECT COUNT(*) FROM report_artifacts a WHERE a.report_id = r.id AND "
                                   "a.sha256 = ?), (SELECT COUNT(*) FROM artifacts s WHERE s.sha256 = ?) "
                                   "FROM reports r WHERE r.idempotency_key = ?",
                                   (const struct db_param[]){names[1], names[1], names[0]}, 3);
    if (r == NULL) {
        snprintf(message, size, "database: %s", db_error(db));
        return ARTIFACT_FAILED;
    }
    enum artifact_status status = ARTIFACT_STORED;
    int64_t report_id = db_result_rows(r) ? db_result_int(r, 0, 0) : 0;
    if (db_result_rows(r) == 0) {
        snprintf(message, size, "no stored report has Idempotency-Key %s (upload the report first)", report_key);
        status = ARTIFACT_NO_REPORT;
    } else if (db_result_int(r, 0, 1) == 0) {
        snprintf(message, size, "report %lld does not name artifact %s in its evidence", (long long)report_id, sha256);
        status = ARTIFACT_NOT_NAMED;
    } else if (db_result_int(r, 0, 2) > 0) {
        snprintf(message, size, "artifact %s is stored already", sha256);
        status = ARTIFACT_KNOWN;
    }
    db_result_free(r);
    if (status == ARTIFACT_STORED)
        status = within_quota(db, report_id, length, token, quota, message, size);
    if (status != ARTIFACT_STORED)
        return status;
    char uploaded[32];
    utc_now(uploaded);
    const struct db_param p[] = {DB_TEXT(sha256), DB_BLOB(data, length), DB_INT(length), DB_TEXT(uploaded),
                                 DB_TEXT(token ? token : "")};
    r = db_begin_write(db)
            ? db_query(db,
                       "INSERT INTO artifacts (sha256, data, bytes, uploaded, token) VALUES (?, ?, ?, ?, ?) "
                       "ON CONFLICT (sha256) DO NOTHING RETURNING sha256",
                       p, 5)
            : NULL;
    if (r == NULL || !db_commit(db)) {
        snprintf(message, size, "database: %s", db_error(db));
        db_result_free(r);
        db_rollback(db);
        return ARTIFACT_FAILED;
    }
    status = db_result_rows(r) == 1 ? ARTIFACT_STORED : ARTIFACT_KNOWN; /* or by another upload meanwhile */
    db_result_free(r);
    snprintf(message, size, status == ARTIFACT_STORED ? "stored artifact %s" : "artifact %s is stored already", sha256);
    return status;
}

void *artifact_load(struct db *db, const char *sha256, size_t *length)
{
    const struct db_param key = DB_TEXT(sha256);
    struct db_result *r = db_query(db, "SELECT data FROM artifacts WHERE sha256 = ?", &key, 1);
    void *copy = NULL;
    if (r != NULL && db_result_rows(r) == 1) {
        const void *data = db_result_blob(r, 0, 0, length);
        copy = malloc(*length + 1);
        if (copy != NULL)
            memcpy(copy, data, *length);
    }
    db_result_free(r);
    return copy;
}
