/* The SQLite backend: one database file in WAL mode (readers never wait for the writer), a busy
 * timeout instead of failing when another connection writes, and prepared statements kept per
 * connection for the literal statements the dashboard runs for every report. */
#include "db_backend.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATEMENT_CACHE 64

struct sqlite_impl {
    sqlite3 *handle;
    struct {
        const char *sql;
        sqlite3_stmt *statement;
    } cache[STATEMENT_CACHE];
};

static void set_error(struct db *db, sqlite3 *handle)
{
    int code = sqlite3_extended_errcode(handle);
    bool duplicate = code == SQLITE_CONSTRAINT_UNIQUE || code == SQLITE_CONSTRAINT_PRIMARYKEY;
    db_set_error(db, duplicate, "sqlite: %s", sqlite3_errmsg(handle));
}

static sqlite3_stmt *prepare(struct db *db, struct sqlite_impl *s, const char *sql, bool cache)
{
    size_t slot = ((uintptr_t)sql >> 4) % STATEMENT_CACHE;
    if (cache) {
        for (size_t probe = 0; probe < STATEMENT_CACHE; ++probe) {
            size_t i = (slot + probe) % STATEMENT_CACHE;
            if (s->cache[i].sql == sql)
                return s->cache[i].statement;
            if (s->cache[i].sql == NULL) {
                slot = i;
                break;
            }
        }
    }
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v3(s->handle, sql, -1, cache ? SQLITE_PREPARE_PERSISTENT : 0, &statement, NULL) != SQLITE_OK) {
        set_error(db, s->handle);
        return NULL;
    }
    if (cache && s->cache[slot].sql == NULL) {
        s->cache[slot].sql = sql;
        s->cache[slot].statement = statement;
    }
    return statement;
}

static bool is_cached(const struct sqlite_impl *s, const sqlite3_stmt *statement)
{
    for (size_t i = 0; i < STATEMENT_CACHE; ++i)
        if (s->cache[i].statement == statement)
            return true;
    return false;
}

static bool bind(struct db *db, struct sqlite_impl *s, sqlite3_stmt *statement, const struct db_param *params,
                 int count)
{
    for (int i = 0; i < count; ++i) {
        int rc = SQLITE_OK;
        switch (params[i].type) {
        case DB_PARAM_NULL:
            rc = sqlite3_bind_null(statement, i + 1);
            break;
        case DB_PARAM_INT:
            rc = sqlite3_bind_int64(statement, i + 1, params[i].integer);
            break;
        case DB_PARAM_REAL:
            rc = sqlite3_bind_double(statement, i + 1, params[i].real);
            break;
        case DB_PARAM_TEXT:
            rc = sqlite3_bind_text(statement, i + 1, params[i].text, -1, SQLITE_TRANSIENT);
            break;
        case DB_PARAM_BLOB:
            rc = sqlite3_bind_blob64(statement, i + 1, params[i].text, params[i].length, SQLITE_TRANSIENT);
            break;
        }
        if (rc != SQLITE_OK) {
            set_error(db, s->handle);
            return false;
        }
    }
    return true;
}

static bool copy_row(sqlite3_stmt *statement, struct db_result *out)
{
    int columns = sqlite3_column_count(statement);
    struct db_cell *row = db_result_add_row(out, (size_t)columns);
    if (row == NULL)
        return false;
    for (int c = 0; c < columns; ++c) {
        int type = sqlite3_column_type(statement, c);
        if (type == SQLITE_NULL)
            continue;
        const void *data =
            type == SQLITE_BLOB ? sqlite3_column_blob(statement, c) : (const void *)sqlite3_column_text(statement, c);
        size_t length = (size_t)sqlite3_column_bytes(statement, c);
        if (!db_result_set_cell(out, &row[c], data, length))
            return false;
    }
    return true;
}

static bool run(struct db *db, const char *sql, bool cache, const struct db_param *params, int count,
                struct db_result *out)
{
    struct sqlite_impl *s = db->impl;
    sqlite3_stmt *statement = prepare(db, s, sql, cache);
    if (statement == NULL)
        return false;
    bool ok = bind(db, s, statement, params, count);
    while (ok) {
        int rc = sqlite3_step(statement);
        if (rc == SQLITE_DONE)
            break;
        if (rc != SQLITE_ROW) {
            set_error(db, s->handle);
            ok = false;
            break;
        }
        if (out != NULL && !copy_row(statement, out)) {
            db_set_error(db, false, "out of memory");
            ok = false;
        }
    }
    if (is_cached(s, statement)) {
        sqlite3_reset(statement);
        sqlite3_clear_bindings(statement);
    } else {
        sqlite3_finalize(statement);
    }
    return ok;
}

static bool begin_write(struct db *db)
{
    return run(db, "BEGIN IMMEDIATE", true, NULL, 0, NULL);
}
static bool begin_read(struct db *db)
{
    return run(db, "BEGIN", true, NULL, 0, NULL);
}

static void close_impl(struct db *db)
{
    struct sqlite_impl *s = db->impl;
    if (s == NULL)
        return;
    for (size_t i = 0; i < STATEMENT_CACHE; ++i)
        sqlite3_finalize(s->cache[i].statement);
    sqlite3_close(s->handle);
    free(s);
    db->impl = NULL;
}

static const struct db_backend_ops sqlite_ops = {run, begin_write, begin_read, close_impl};

bool db_sqlite_open(struct db *db, const char *path)
{
    struct sqlite_impl *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        db_set_error(db, false, "out of memory");
        return false;
    }
    db->backend = DB_SQLITE;
    db->ops = &sqlite_ops;
    db->impl = s;
    if (sqlite3_open_v2(path, &s->handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
        SQLITE_OK) {
        db_set_error(db, false, "%s: %s", path, s->handle ? sqlite3_errmsg(s->handle) : "cannot open");
        return false;
    }
    sqlite3_busy_timeout(s->handle, 30000);
    /* WAL: readers see a snapshot while one writer appends; synchronous=NORMAL keeps every commit
     * through a process crash (a power loss may lose the last commits, never half of one). */
    static const char *const pragmas[] = {"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL",
                                          "PRAGMA foreign_keys=ON", "PRAGMA cache_size=-65536",
                                          /* checkpoints (each one an fsync) every 64 MiB of WAL rather than 4 */
                                          "PRAGMA wal_autocheckpoint=16384"};
    for (size_t i = 0; i < sizeof(pragmas) / sizeof(pragmas[0]); ++i) {
        struct db_result *ignored = calloc(1, sizeof(*ignored));
        bool ok = ignored != NULL && run(db, pragmas[i], false, NULL, 0, ignored);
        db_result_free(ignored);
        if (!ok) {
            char message[sizeof(db->error)];
            snprintf(message, sizeof(message), "%s", db->error);
            db_set_error(db, false, "%s: %s", path, message);
            return false;
        }
    }
    return true;
}
