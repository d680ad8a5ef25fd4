/* The "power" object of a test's evidence, built from two measured phases. */
#ifndef PREFLIGHT_POWER_EVIDENCE_H
#define PREFLIGHT_POWER_EVIDENCE_H

#include <cjson/cJSON.h>

#include "fast_check.h"
#include "power_source.h"
#include "sampler.h"

/* {"source", "device_match", "sensor", "what", "update_period_ms", "baseline": {...}, "feature":
 * {...}, "ratio", "settled"}; a phase is {"joules_per_pass", "mean_watts", "samples",
 * "spread_pct", "settled", "samples_taken", "passes", "seconds", "reported_watts"?, "wraps"?,
 * "measured_in"?, and from the fast source "sample_period_ms", "gaps", "uncertainty_pct"}.
 * `baseline_from` names the earlier test whose baseline is reused (NULL: this one). `check`: the
 * fast source's check against the counter, where the source has samples (NULL: none). */
cJSON *power_evidence(const struct power_source *source, const char *what, double update_period_ms,
                      const struct power_phase *baseline, const char *baseline_from, const struct power_phase *feature,
                      const struct fast_check *check);

/* `value` to `digits` significant digits (JSON numbers a reader can take in). */
double power_round(double value, int digits);

#endif
