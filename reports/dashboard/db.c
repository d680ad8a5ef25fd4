#include "db_backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct db *db_open(const char *target, char *error, size_t size)
{
    struct db *db = calloc(1, sizeof(*db));
    if (db == NULL) {
        snprintf(error, size, "out of memory");
        return NULL;
    }
    bool postgres = strncmp(target, "postgresql://", 13) == 0 || strncmp(target, "postgres://", 11) == 0;
    bool opened = postgres ? db_postgres_open(db, target) : db_sqlite_open(db, target);
    if (!opened) {
        snprintf(error, size, "%s", db->error);
        if (db->ops != NULL)
            db->ops->close(db);
        free(db);
        return NULL;
    }
    return db;
}

void db_close(struct db *db)
{
    if (db == NULL)
        return;
    db->ops->close(db);
    free(db);
}

enum db_backend db_backend(const struct db *db)
{
    return db->backend;
}
const char *db_error(const struct db *db)
{
    return db->error;
}
bool db_error_is_duplicate(const struct db *db)
{
    return db->duplicate;
}

void db_set_error(struct db *db, bool duplicate, const char *format, ...)
{
    va_list list;
    va_start(list, format);
    vsnprintf(db->error, sizeof(db->error), format, list);
    va_end(list);
    db->duplicate = duplicate;
}

static struct db_result *query(struct db *db, const char *sql, bool cache, const struct db_param *params, int count)
{
    struct db_result *r = calloc(1, sizeof(*r));
    if (r == NULL) {
        db_set_error(db, false, "out of memory");
        return NULL;
    }
    if (!db->ops->run(db, sql, cache, params, count, r)) {
        db_result_free(r);
        return NULL;
    }
    return r;
}

bool db_exec(struct db *db, const char *sql, const struct db_param *params, int count)
{
    return db->ops->run(db, sql, true, params, count, NULL);
}

bool db_exec_dynamic(struct db *db, const char *sql, const struct db_param *params, int count)
{
    return db->ops->run(db, sql, false, params, count, NULL);
}

struct db_result *db_query(struct db *db, const char *sql, const struct db_param *params, int count)
{
    return query(db, sql, true, params, count);
}

struct db_result *db_query_dynamic(struct db *db, const char *sql, const struct db_param *params, int count)
{
    return query(db, sql, false, params, count);
}

bool db_begin_write(struct db *db)
{
    return db->ops->begin_write(db);
}
bool db_begin_read(struct db *db)
{
    return db->ops->begin_read(db);
}
bool db_commit(struct db *db)
{
    return db->ops->run(db, "COMMIT", true, NULL, 0, NULL);
}

void db_rollback(struct db *db)
{
    char kept[sizeof(db->error)];
    bool duplicate = db->duplicate;
    memcpy(kept, db->error, sizeof(kept)); /* the error that made us roll back is the one to report */
    db->ops->run(db, "ROLLBACK", true, NULL, 0, NULL);
    memcpy(db->error, kept, sizeof(kept));
    db->duplicate = duplicate;
}

struct db_cell *db_result_add_row(struct db_result *r, size_t columns)
{
    if (r->rows == 0)
        r->columns = columns;
    if (r->rows == r->capacity) {
        size_t capacity = r->capacity ? r->capacity * 2 : 16;
        struct db_cell *cells = realloc(r->cells, capacity * r->columns * sizeof(*cells) + 1);
        if (cells == NULL)
            return NULL;
        r->cells = cells;
        r->capacity = capacity;
    }
    struct db_cell *row = &r->cells[r->rows * r->columns];
    memset(row, 0, r->columns * sizeof(*row));
    ++r->rows;
    return row;
}

bool db_result_set_cell(struct db_result *r, struct db_cell *cell, const void *data, size_t length)
{
    if (r->arena_used + length + 1 > r->arena_capacity) {
        size_t capacity = r->arena_capacity ? r->arena_capacity : 4096;
        while (capacity < r->arena_used + length + 1)
            capacity *= 2;
        char *arena = realloc(r->arena, capacity);
        if (arena == NULL)
            return false;
        r->arena = arena;
        r->arena_capacity = capacity;
    }
    if (length > 0)
        memcpy(r->arena + r->arena_used, data, length);
    r->arena[r->arena_used + length] = '\0';
    cell->present = true;
    cell->offset = r->arena_used;
    cell->length = length;
    r->arena_used += length + 1;
    return true;
}

size_t db_result_rows(const struct db_result *r)
{
    return r ? r->rows : 0;
}
size_t db_result_columns(const struct db_result *r)
{
    return r ? r->columns : 0;
}

static const struct db_cell *cell(const struct db_result *r, size_t row, size_t column)
{
    if (r == NULL || row >= r->rows || column >= r->columns)
        return NULL;
    return &r->cells[row * r->columns + column];
}

bool db_result_null(const struct db_result *r, size_t row, size_t column)
{
    const struct db_cell *c = cell(r, row, column);
    return c == NULL || !c->present;
}

const char *db_result_text(const struct db_result *r, size_t row, size_t column)
{
    const struct db_cell *c = cell(r, row, column);
    return c && c->present ? r->arena + c->offset : "";
}

int64_t db_result_int(const struct db_result *r, size_t row, size_t column)
{
    return strtoll(db_result_text(r, row, column), NULL, 10);
}

double db_result_real(const struct db_result *r, size_t row, size_t column)
{
    return strtod(db_result_text(r, row, column), NULL);
}

const void *db_result_blob(const struct db_result *r, size_t row, size_t column, size_t *length)
{
    const struct db_cell *c = cell(r, row, column);
    *length = c && c->present ? c->length : 0;
    return c && c->present ? r->arena + c->offset : "";
}

void db_result_free(struct db_result *r)
{
    if (r == NULL)
        return;
    free(r->arena);
    free(r->cells);
    free(r);
}
