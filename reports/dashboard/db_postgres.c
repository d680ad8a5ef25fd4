/* The PostgreSQL backend (libpq): the dashboard's `?` placeholders become $1..$n, literal
 * statements are prepared once per connection, BYTEA travels in binary, and write transactions
 * take one transaction-level advisory lock so that dashboard processes sharing the database
 * ingest one report at a time (as SQLite's single writer does). */
#include "db_backend.h"

#include <inttypes.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATEMENT_CACHE 64
#define BYTEA_OID 17
#define WRITE_LOCK_KEY 847001 /* the advisory lock of ingest transactions */

struct postgres_impl {
    PGconn *connection;
    struct {
        const char *sql;
        char name[16];
    } cache[STATEMENT_CACHE];
    int prepared;
};

/* `?` → `$n`, outside quoted text. */
static char *translate(const char *sql)
{
    size_t length = strlen(sql), marks = 0;
    for (size_t i = 0; i < length; ++i)
        marks += sql[i] == '?';
    char *out = malloc(length + marks * 6 + 1);
    if (out == NULL)
        return NULL;
    size_t o = 0;
    int n = 0;
    bool quoted = false;
    for (size_t i = 0; i < length; ++i) {
        if (sql[i] == '\'')
            quoted = !quoted;
        if (sql[i] == '?' && !quoted)
            o += (size_t)sprintf(out + o, "$%d", ++n);
        else
            out[o++] = sql[i];
    }
    out[o] = '\0';
    return out;
}

static void set_error(struct db *db, PGconn *connection, const PGresult *result)
{
    const char *state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : NULL;
    const char *message = result ? PQresultErrorMessage(result) : PQerrorMessage(connection);
    char text[400];
    snprintf(text, sizeof(text), "%s", message && *message ? message : PQerrorMessage(connection));
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' '))
        text[--n] = '\0';
    db_set_error(db, state != NULL && strcmp(state, "23505") == 0, "postgresql: %s", text);
}

static const char *prepared_name(struct db *db, struct postgres_impl *p, const char *sql, int count)
{
    size_t slot = ((uintptr_t)sql >> 4) % STATEMENT_CACHE;
    for (size_t probe = 0; probe < STATEMENT_CACHE; ++probe) {
        size_t i = (slot + probe) % STATEMENT_CACHE;
        if (p->cache[i].sql == sql)
            return p->cache[i].name;
        if (p->cache[i].sql != NULL)
            continue;
        char *text = translate(sql);
        if (text == NULL) {
            db_set_error(db, false, "out of memory");
            return NULL;
        }
        snprintf(p->cache[i].name, sizeof(p->cache[i].name), "s%d", p->prepared++);
        PGresult *result = PQprepare(p->connection, p->cache[i].name, text, count, NULL);
        free(text);
        bool ok = PQresultStatus(result) == PGRES_COMMAND_OK;
        if (!ok)
            set_error(db, p->connection, result);
        PQclear(result);
        if (!ok)
            return NULL;
        p->cache[i].sql = sql;
        return p->cache[i].name;
    }
    return ""; /* the cache is full: run it unprepared */
}

static bool copy_rows(const PGresult *result, struct db_result *out)
{
    int rows = PQntuples(result), columns = PQnfields(result);
    for (int r = 0; r < rows; ++r) {
        struct db_cell *row = db_result_add_row(out, (size_t)columns);
        if (row == NULL)
            return false;
        for (int c = 0; c < columns; ++c) {
            if (PQgetisnull(result, r, c))
                continue;
            const char *value = PQgetvalue(result, r, c);
            size_t length = (size_t)PQgetlength(result, r, c);
            unsigned char *decoded = NULL;
            if (PQftype(result, c) == BYTEA_OID) {
                decoded = PQunescapeBytea((const unsigned char *)value, &length);
                if (decoded == NULL)
                    return false;
                value = (const char *)decoded;
            }
            bool copied = db_result_set_cell(out, &row[c], value, length);
            PQfreemem(decoded);
            if (!copied)
                return false;
        }
    }
    return true;
}

/* A connection the server dropped (a restart, a failover) is opened again before the next statement;
 * its prepared statements went with it. */
static bool ensure_connected(struct db *db, struct postgres_impl *p)
{
    if (PQstatus(p->connection) == CONNECTION_OK)
        return true;
    PQreset(p->connection);
    memset(p->cache, 0, sizeof(p->cache));
    if (PQstatus(p->connection) != CONNECTION_OK) {
        set_error(db, p->connection, NULL);
        return false;
    }
    PQsetErrorVerbosity(p->connection, PQERRORS_TERSE);
    return true;
}

static bool run(struct db *db, const char *sql, bool cache, const struct db_param *params, int count,
                struct db_result *out)
{
    struct postgres_impl *p = db->impl;
    if (!ensure_connected(db, p))
        return false;
    const char **values = calloc((size_t)count + 1, sizeof(*values));
    int *lengths = calloc((size_t)count + 1, sizeof(*lengths));
    int *formats = calloc((size_t)count + 1, sizeof(*formats));
    char(*numbers)[32] = calloc((size_t)count + 1, sizeof(*numbers));
    PGresult *result = NULL;
    bool ok = values && lengths && formats && numbers;
    if (!ok)
        db_set_error(db, false, "out of memory");
    for (int i = 0; ok && i < count; ++i) {
        switch (params[i].type) {
        case DB_PARAM_NULL:
            values[i] = NULL;
            break;
        case DB_PARAM_INT:
            snprintf(numbers[i], sizeof(numbers[i]), "%" PRId64, params[i].integer);
            values[i] = numbers[i];
            break;
        case DB_PARAM_REAL:
            snprintf(numbers[i], sizeof(numbers[i]), "%.17g", params[i].real);
            values[i] = numbers[i];
            break;
        case DB_PARAM_TEXT:
            values[i] = params[i].text;
            break;
        case DB_PARAM_BLOB:
            values[i] = params[i].text;
            lengths[i] = (int)params[i].length;
            formats[i] = 1;
            break;
        }
    }
    /* outside a transaction, a statement that failed because the connection was lost is sent
     * once more on a new connection (inside one, the transaction is gone: the caller's error) */
    for (int attempt = 0; ok && attempt < 2; ++attempt) {
        bool idle = PQtransactionStatus(p->connection) == PQTRANS_IDLE;
        const char *name = cache ? prepared_name(db, p, sql, count) : "";
        if (name == NULL) {
            if (idle && attempt == 0 && PQstatus(p->connection) != CONNECTION_OK && ensure_connected(db, p))
                continue; /* the PREPARE found the connection gone */
            ok = false;
        } else if (*name) {
            result = PQexecPrepared(p->connection, name, count, values, lengths, formats, 0);
        } else {
            char *text = translate(sql);
            result = text ? PQexecParams(p->connection, text, count, NULL, values, lengths, formats, 0) : NULL;
            free(text);
        }
        if (!ok || !idle || attempt > 0 || PQstatus(p->connection) == CONNECTION_OK)
            break;
        PQclear(result);
        result = NULL;
        ok = ensure_connected(db, p);
    }

    if (ok) {
        ExecStatusType status = PQresultStatus(result);
        ok = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
        if (!ok)
            set_error(db, p->connection, result);
        else if (out != NULL && status == PGRES_TUPLES_OK && !copy_rows(result, out)) {
            db_set_error(db, false, "out of memory");
            ok = false;
        }
    }
    PQclear(result);
    free(values);
    free(lengths);
    free(formats);
    free(numbers);
    return ok;
}

static bool begin_write(struct db *db)
{
    if (!run(db, "BEGIN", true, NULL, 0, NULL))
        return false;
    const struct db_param key = DB_INT(WRITE_LOCK_KEY);
    struct db_result *ignored = calloc(1, sizeof(*ignored));
    bool ok = ignored && run(db, "SELECT pg_advisory_xact_lock(?::bigint)::text", true, &key, 1, ignored);
    db_result_free(ignored);
    if (!ok)
        db_rollback(db);
    return ok;
}

/* One snapshot for every query of a page. */
static bool begin_read(struct db *db)
{
    return run(db, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", true, NULL, 0, NULL);
}

static void close_impl(struct db *db)
{
    struct postgres_impl *p = db->impl;
    if (p == NULL)
        return;
    PQfinish(p->connection);
    free(p);
    db->impl = NULL;
}

static const struct db_backend_ops postgres_ops = {run, begin_write, begin_read, close_impl};

bool db_postgres_open(struct db *db, const char *url)
{
    struct postgres_impl *p = calloc(1, sizeof(*p));
    if (p == NULL) {
        db_set_error(db, false, "out of memory");
        return false;
    }
    db->backend = DB_POSTGRES;
    db->ops = &postgres_ops;
    db->impl = p;
    p->connection = PQconnectdb(url);
    if (PQstatus(p->connection) != CONNECTION_OK) {
        set_error(db, p->connection, NULL);
        return false;
    }
    PQsetErrorVerbosity(p->connection, PQERRORS_TERSE);
    struct db_result *ignored = calloc(1, sizeof(*ignored));
    bool ok = ignored && run(db, "SET client_min_messages = warning", false, NULL, 0, ignored);
    db_result_free(ignored);
    return ok;
}
