/* The first bad driver of a regression: for a test that regressed on a (device, driver), the last
 * good driver (the newest below it on which a machine ran the test), the first bad one (the
 * regressed driver: every driver between ran no machine's run of the test, or it would have been
 * compared with that one), and the drivers between them, which machines of the device ran for other
 * tests but not this one. Drivers are ordered by their packed version (driver_raw): every vendor's
 * scheme (matrix/driver_version.h) packs its fields most significant first, and Mesa drivers are
 * keyed by their Mesa version, so the order of driver_raw is the order of the vendor's versions,
 * never of strings or upload times. The dashboard knows only the versions some machine ran:
 * releases between the two that no machine ran cannot be listed (docs/dashboard.md). */
#ifndef PREFLIGHT_DASHBOARD_FIRST_BAD_H
#define PREFLIGHT_DASHBOARD_FIRST_BAD_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "db.h"
#include "html.h"

/* What the regressions of one (device, driver) need: the device's drivers below it, and for each
 * test that regressed there the newest of them that ran it. Two queries, whatever the count. */
struct first_bad {
    int64_t bad_raw;
    const char *bad_version;
    struct db_result *drivers, *last_run;
};
bool first_bad_prepare(struct db *db, const char *device_key, int64_t bad_raw, const char *bad_version,
                       struct first_bad *fb);
void first_bad_release(struct first_bad *fb);
/* Adds to `change` (a regression of `test`): "lastGood": {"driverVersion", "driverRaw"} (null
 * when no earlier driver ran it), "firstBad": {"driverVersion", "driverRaw"}, "notRunBetween":
 * [{"driverVersion", "driverRaw"}, ...] (in version order) and "adjacent" (no driver any machine
 * ran lies between the two). */
void first_bad_describe(const struct first_bad *fb, const char *test, cJSON *change);
/* "first bad 590.44.01, last good 580.159.04; not run for this test between them: 585.10.02" as HTML. */
void first_bad_html(const cJSON *change, struct buf *b);

#endif
