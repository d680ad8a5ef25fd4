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
