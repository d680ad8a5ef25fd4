/* A test's verdict measured over its runs, with a confidence: the dashboard's verdicts per
 * (device, driver, test) over every machine and report, and the probe's reruns (--repeat), which
 * stop once the verdict is no longer unknown. */
#ifndef PREFLIGHT_MATRIX_FLEET_MEASURE_H
#define PREFLIGHT_MATRIX_FLEET_MEASURE_H

#include <stdbool.h>

#include "verdict.h"

/* Verdicts with a confidence: every run of a test on a (device, driver), over every machine and
 * every report (not only the newest) and every rerun, is one Bernoulli trial; its failure rate is estimated with
 * the Wilson score interval at FLEET_CONFIDENCE. Decided:
 *   - unknown: no run, or too few to tell;
 *   - pass: no failure, and the interval's upper bound is below FLEET_DECISIVE_RATE (a test failing
 *     that often would have failed at least once: 4 runs at 95 %);
 *   - fail: every run failed, and the lower bound is above 1 - FLEET_DECISIVE_RATE;
 *   - flaky: it both passed and failed, with the estimated rate and its interval.
 * A measured regression: this driver's interval lies wholly above the earlier driver's (a flaky
 * test getting much worse is one; a stable flake, whose intervals overlap, is not). */
#define FLEET_CONFIDENCE 0.95
#define FLEET_Z 1.959963984540054 /* the standard normal quantile of (1 + FLEET_CONFIDENCE) / 2 */
#define FLEET_DECISIVE_RATE 0.5

struct fleet_measure {
    char verdict[8]; /* "pass", "fail", "flaky", "unknown" */
    int runs, failures;
    double rate, low, high; /* failures / runs and its interval; 0, 0, 1 without a run */
};

void fleet_measure(int runs, int failures, struct fleet_measure *out);
/* Whether a run with this verdict counts as a failure: fail, not_applied, crashed, timeout,
 * device_lost (pass is the other way a test ran; unsupported and skipped are no runs). */
bool verdict_is_failure(enum verdict v);

#endif
