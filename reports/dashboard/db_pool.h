/* Database connections for the server's request threads: each request takes one, uses it alone
 * and gives it back; a request waits when all are in use. */
#ifndef PREFLIGHT_DASHBOARD_DB_POOL_H
#define PREFLIGHT_DASHBOARD_DB_POOL_H

#include <stddef.h>

#include "db.h"

struct db_pool;

struct db_pool *db_pool_open(const char *target, size_t size, char *error, size_t error_size);
void db_pool_close(struct db_pool *pool);
struct db *db_pool_take(struct db_pool *pool);
void db_pool_give(struct db_pool *pool, struct db *db);

#endif
