/* The dashboard's database, behind one small interface with two backends: SQLite (a file, the
 * default) and PostgreSQL through libpq (a postgresql:// URL, for several dashboard processes
 * sharing one database). Statements are written once, with `?` placeholders, in the SQL both
 * engines accept; values are always bound, never spliced into the text. Results are copied out
 * whole (the dashboard's queries return pages, not tables). One connection is used by one thread
 * at a time (db_pool.h hands them out). */
#ifndef PREFLIGHT_DASHBOARD_DB_H
#define PREFLIGHT_DASHBOARD_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum db_backend { DB_SQLITE, DB_POSTGRES };

enum db_param_type { DB_PARAM_NULL, DB_PARAM_INT, DB_PARAM_REAL, DB_PARAM_TEXT, DB_PARAM_BLOB };
struct db_param {
    enum db_param_type type;
    int64_t integer;
    double real;
    const char *text; /* TEXT: zero-terminated; BLOB: `length` bytes */
    size_t length;
};
#define DB_INT(v) ((struct db_param){.type = DB_PARAM_INT, .integer = (int64_t)(v)})
#define DB_REAL(v) ((struct db_param){.type = DB_PARAM_REAL, .real = (double)(v)})
/* NULL text binds SQL NULL */
static inline struct db_param db_param_text(const char *v)
{
    return (struct db_param){.type = v ? DB_PARAM_TEXT : DB_PARAM_NULL, .text = v};
}
#define DB_TEXT(v) db_param_text(v)
#define DB_BLOB(p, n) ((struct db_param){.type = DB_PARAM_BLOB, .text = (const char *)(p), .length = (n)})
#define DB_NULL ((struct db_param){.type = DB_PARAM_NULL})

struct db;
struct db_result;

/* `target`: a file path (SQLite) or a postgresql:// / postgres:// URL. NULL with `error` set. */
struct db *db_open(const char *target, char *error, size_t size);
void db_close(struct db *db);
enum db_backend db_backend(const struct db *db);

/* Runs one statement; false with the engine's message in db_error(). `sql` must stay valid while
 * the connection lives (a string literal): prepared statements are kept per connection by it. */
bool db_exec(struct db *db, const char *sql, const struct db_param *params, int count);
/* A statement that returns rows; NULL on error (db_error()). */
struct db_result *db_query(struct db *db, const char *sql, const struct db_param *params, int count);
/* SQL built at run time (only from fixed fragments; values still bound): not cached. */
struct db_result *db_query_dynamic(struct db *db, const char *sql, const struct db_param *params, int count);
bool db_exec_dynamic(struct db *db, const char *sql, const struct db_param *params, int count);
const char *db_error(const struct db *db);
/* The error is a unique-constraint violation (a duplicate key). */
bool db_error_is_duplicate(const struct db *db);

/* Write transactions are serialized (SQLite BEGIN IMMEDIATE; PostgreSQL a transaction-level
 * advisory lock), so concurrent ingests of the same device never interleave. */
bool db_begin_write(struct db *db);
bool db_begin_read(struct db *db);
bool db_commit(struct db *db);
void db_rollback(struct db *db);

size_t db_result_rows(const struct db_result *r);
size_t db_result_columns(const struct db_result *r);
bool db_result_null(const struct db_result *r, size_t row, size_t column);
/* "" for NULL; never NULL */
const char *db_result_text(const struct db_result *r, size_t row, size_t column);
int64_t db_result_int(const struct db_result *r, size_t row, size_t column);
double db_result_real(const struct db_result *r, size_t row, size_t column);
/* BLOB/BYTEA bytes; `length` set */
const void *db_result_blob(const struct db_result *r, size_t row, size_t column, size_t *length);
void db_result_free(struct db_result *r);

#endif
