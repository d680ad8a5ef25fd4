/* The dashboard's tables, and their upgrades. The database records its schema version (table
 * `meta`); on start the dashboard creates a new database or migrates an older one, step by step,
 * each step in one transaction, and refuses a database newer than itself. */
#ifndef PREFLIGHT_DASHBOARD_SCHEMA_H
#define PREFLIGHT_DASHBOARD_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"

#define SCHEMA_VERSION 5

/* Creates or migrates; false with `error` set. `migrated_from` (may be NULL): the version found
 * (0: a new database). */
bool schema_prepare(struct db *db, int *migrated_from, char *error, size_t size);

#endif
