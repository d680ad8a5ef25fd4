#include "artifact_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "tokens.h"

static bool is_png(const unsigned char *data, size_t length)
{
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    return length > 8 + 25 && memcmp(data, signature, 8) == 0 && memcmp(data + 12, "IHDR", 4) == 0;
}

enum artifact_status artifact_store(struct db *db, const char *report_key, const char *sha256, const void *data,
                                    size_t length, char *message, size_t size)
{
    char hash[65];
    sha256_hex(data, length, hash);
    if (strcmp(hash, sha256) != 0) {
        snprintf(message, size, "the body's SHA-256 is %s, not the artifact's name %s", hash, sha256);
        return ARTIFACT_MISMATCH;
    }
    if (!is_png(data, length)) {
        snprintf(message, size, "artifact %s is not a PNG image", sha256);
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
    if (db_result_rows(r) == 0) {
        snprintf(message, size, "no stored report has Idempotency-Key %s (upload the report first)", report_key);
        status = ARTIFACT_NO_REPORT;
    } else if (db_result_int(r, 0, 1) == 0) {
        snprintf(message, size, "report %lld does not name artifact %s in its evidence",
                 (long long)db_result_int(r, 0, 0), sha256);
        status = ARTIFACT_NOT_NAMED;
    } else if (db_result_int(r, 0, 2) > 0) {
        snprintf(message, size, "artifact %s is stored already", sha256);
        status = ARTIFACT_KNOWN;
    }
    db_result_free(r);
    if (status != ARTIFACT_STORED)
        return status;
    char uploaded[32];
    utc_now(uploaded);
    const struct db_param p[] = {DB_TEXT(sha256), DB_BLOB(data, length), DB_INT(length), DB_TEXT(uploaded)};
    r = db_begin_write(db) ? db_query(db,
                                      "INSERT INTO artifacts (sha256, data, bytes, uploaded) VALUES (?, ?, ?, ?) "
                                      "ON CONFLICT (sha256) DO NOTHING RETURNING sha256",
                                      p, 4)
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
