/* The fleet's rule for verdicts (docs/dashboard.md, "Verdicts over machines"): a farm has many
 * machines per GPU, and the verdict of a test for a (device, driver) combines every machine's
 * newest report. Every page, the gate and the API use these functions and nothing else:
 *   - every machine the same verdict: that verdict;
 *   - machines disagree: "flaky" (the detail says which machines gave what);
 *   - a regression: the device's previous driver passed and this one does not, or was flaky
 *     and this one fails everywhere; a fix: this driver passes where the previous did not. */
#ifndef PREFLIGHT_DASHBOARD_FLEET_VERDICT_H
#define PREFLIGHT_DASHBOARD_FLEET_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

struct machine_verdict {
    const char *host;    /* the machine's host label ("" when the report had none) */
    const char *verdict; /* its newest report's verdict */
};

struct fleet_verdict {
    char verdict[16]; /* the combined verdict: a report verdict, or "flaky" */
    int machines;     /* machines with a result */
    int passing;      /* of them, how many passed */
    int failing;      /* of them, how many failed (items_verdict_failing) */
    char detail[512]; /* "fail on 2 of 3 machines: farm-a, farm-b"; "on all 3 machines" where they agree */
};

/* Combines `count` machines' verdicts (count > 0). */
void fleet_combine(const struct machine_verdict *verdicts, size_t count, struct fleet_verdict *out);

enum fleet_change {
    FLEET_SAME,       /* the same combined verdict */
    FLEET_REGRESSION, /* worse than the previous driver */
    FLEET_FIX,        /* passes where the previous driver did not */
    FLEET_CHANGED,    /* different, neither (e.g. unsupported -> skipped) */
};

/* The change from the previous driver's combined verdict to this driver's. */
enum fleet_change fleet_compare(const char *before, const char *after);

#endif
