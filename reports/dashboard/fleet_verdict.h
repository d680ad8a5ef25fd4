/* The fleet's rule for verdicts (docs/dashboard.md, "Verdicts over machines"): a farm has many
 * machines per GPU, and the verdict of a test for a (device, driver) combines every machine's
 * newest run. Every page, the gate and the API use these functions and nothing else:
 *   - only machines that ran the test count: skipped (not selected, not run) and unsupported are
 *     no runs, so a machine that ran a subset of the tests changes nothing for the others;
 *   - every machine that ran it passed: pass; every one failed, whatever the failing kind (fail,
 *     not_applied, crashed, timeout, device_lost): that kind where they agree, else "fail";
 *   - some passed and some failed: "flaky" (the detail says which machines gave what);
 *   - no machine ran it: unsupported where one machine says so, else skipped;
 *   - a regression: the last driver before this one that ran the test passed and this one does
 *     not, or was flaky and this one fails everywhere; a fix: this driver passes where that one
 *     did not. */
#ifndef PREFLIGHT_DASHBOARD_FLEET_VERDICT_H
#define PREFLIGHT_DASHBOARD_FLEET_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "fleet_measure.h"

struct machine_verdict {
    const char *host;    /* the machine's host label ("" when the report had none) */
    const char *verdict; /* its newest run's verdict */
};

struct fleet_verdict {
    char verdict[16]; /* the combined verdict: a report verdict, or "flaky" */
    int machines;     /* machines that ran it (every machine where none did) */
    int passing;      /* of them, how many passed */
    int failing;      /* of them, how many failed (items_verdict_failing) */
    char detail[512]; /* "fail on 2 of 3 machines: farm-a, farm-b"; "on all 3 machines" where they agree */
};

/* Whether a verdict is a run of the test: pass or one of the failing kinds (not skipped,
 * unsupported or none). */
bool fleet_verdict_ran(const char *verdict);

/* Combines `count` machines' verdicts (count > 0). */
void fleet_combine(const struct machine_verdict *verdicts, size_t count, struct fleet_verdict *out);

enum fleet_change {
    FLEET_SAME,       /* the same combined verdict, or one of them no run */
    FLEET_REGRESSION, /* worse than the previous driver */
    FLEET_FIX,        /* passes where the previous driver did not */
    FLEET_CHANGED,    /* different, neither (e.g. unsupported -> fail) */
};

/* The change from the previous driver's combined verdict to this driver's. */
enum fleet_change fleet_compare(const char *before, const char *after);

/* Verdicts with a confidence over every run: matrix/fleet_measure.h. */
/* FLEET_REGRESSION where `after`'s interval lies above `before`'s, FLEET_FIX where below, else
 * FLEET_SAME (the runs cannot tell them apart). */
enum fleet_change fleet_measured_change(const struct fleet_measure *before, const struct fleet_measure *after);
/* "failure rate 40 % of 20 runs (95 % interval 22-61 %)" */
void fleet_measure_text(const struct fleet_measure *m, char *out, size_t size);

#endif
