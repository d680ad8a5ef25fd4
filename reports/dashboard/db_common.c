/* What the database front (db.c) and its backends (db_sqlite.c, db_postgres.c) share: the error
 * of a connection, rolling back while keeping that error, and result sets. Both sides call into
 * this file, never into each other, except for db.c opening a backend. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_backend.h"

void db_set_error(struct db *db, bool duplicate, const char *format, ...)
{
    va_list list;
    va_start(list, format);
    vsnprintf(db->error, sizeof(db->error), format, list);
    va_end(list);
    db->duplicate = duplicate;
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
