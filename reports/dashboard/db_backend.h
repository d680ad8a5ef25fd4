/* What db.c needs from a backend (db_sqlite.c, db_postgres.c); not for the dashboard's other files. */
#ifndef PREFLIGHT_DASHBOARD_DB_BACKEND_H
#define PREFLIGHT_DASHBOARD_DB_BACKEND_H

#include "db.h"

struct db_cell {
    bool present;  /* false: SQL NULL */
    size_t offset; /* of the zero-terminated copy (blobs too) in the result's arena */
    size_t length;
};

struct db_result {
    size_t rows, columns, capacity;
    struct db_cell *cells; /* rows * columns */
    char *arena;           /* every cell's bytes, one allocation for the whole result */
    size_t arena_used, arena_capacity;
};

struct db_backend_ops {
    /* runs `sql`; with `out` != NULL the rows are appended to it. `cache`: the text is a literal
     * that may be kept prepared. */
    bool (*run)(struct db *db, const char *sql, bool cache, const struct db_param *params, int count,
                struct db_result *out);
    bool (*begin_write)(struct db *db);
    bool (*begin_read)(struct db *db);
    void (*close)(struct db *db);
};

struct db {
    enum db_backend backend;
    const struct db_backend_ops *ops;
    void *impl;
    char error[512];
    bool duplicate; /* the last error was a unique-constraint violation */
};

/* Adds one row of `columns` cells to `r` (the cells are set by the caller); NULL when out of memory. */
struct db_cell *db_result_add_row(struct db_result *r, size_t columns);
/* Copies a cell's bytes into the result; false when out of memory. */
bool db_result_set_cell(struct db_result *r, struct db_cell *cell, const void *data, size_t length);
void db_set_error(struct db *db, bool duplicate, const char *format, ...) __attribute__((format(printf, 3, 4)));

bool db_sqlite_open(struct db *db, const char *path);
bool db_postgres_open(struct db *db, const char *url);

#endif
