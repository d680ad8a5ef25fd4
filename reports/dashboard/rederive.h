/* Deriving every table that comes from reports again from the stored bytes, in upload order: what
 * a schema upgrade does when what is derived changes (schema.c runs it inside the step's
 * transaction). Worker threads inflate and parse the reports while the one database connection
 * reads the next ones and stores what the workers derived, so it takes about as long as an
 * `import` of every stored report. */
#ifndef PREFLIGHT_DASHBOARD_REDERIVE_H
#define PREFLIGHT_DASHBOARD_REDERIVE_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"

bool rederive_all(struct db *db, char *message, size_t size);

#endif
