/* The fleet's verdicts, kept at ingest by the rule of fleet_verdict.h: per (device, driver) the
 * newest entry of each machine (driver_machines), the combined verdict of every smoke test and
 * capability (driver_tests), their summary (drivers) and the tests that changed from the
 * device's previous driver (driver_changes). Pages read these tables; none recombines. */
#ifndef PREFLIGHT_DASHBOARD_FLEET_STORE_H
#define PREFLIGHT_DASHBOARD_FLEET_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "db.h"

struct fleet_entry {
    /* host: the machine, or "machine (GPU n)" where a machine has several GPUs of one deviceKey */
    const char *device_key, *driver_version, *host, *uploaded;
    const char *run_at; /* when the report ran (its `created`, UTC): a machine's newest run counts */
    int64_t driver_raw, entry_id;
};

/* An entry was stored (inside the ingest's transaction): its (device, driver) is combined again,
 * and the changes of that driver and of the next one recomputed where the verdicts moved. */
bool fleet_store_entry(struct db *db, const struct fleet_entry *entry);

/* The combined verdicts of (device, driver): rows (kind, name, verdict); NULL on error. */
struct db_result *fleet_store_verdicts(struct db *db, const char *device_key, int64_t driver_raw);

#endif
