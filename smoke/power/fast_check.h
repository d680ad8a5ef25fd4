/* The check that lets the fast source (the driver's buffered power samples) stand in for the
 * energy counter on a device: over one long window both give the energy, and the fast source is
 * used only where the two agree within FAST_CHECK_TOLERANCE_PCT. The counter stays the
 * reference: it counts every joule, while a sensor that integrates only part of each period (as
 * published for A100/H100) can be off on a load that changes faster than its period. */
#ifndef PREFLIGHT_POWER_FAST_CHECK_H
#define PREFLIGHT_POWER_FAST_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "power_source.h"
#include "sampler.h"

#define FAST_CHECK_TOLERANCE_PCT 10.0
/* the window: about ten updates of a 100 ms counter, so its edges' timing weighs little */
#define FAST_CHECK_MS 1000.0

struct fast_check {
    bool ran;                 /* both sources were read over the window */
    bool agreed;              /* within the tolerance: the fast source is used */
    double seconds;           /* between the counter's first and last change seen */
    double counter_joules;    /* the counter's energy over them */
    double samples_joules;    /* the samples' energy over the same time */
    double error_pct;         /* (samples - counter) / counter */
    double period_ms;         /* the samples' period as seen */
    double counter_period_ms; /* the counter's, from its changes in the window; 0: fewer than two */
    char reason[320];         /* why not used, when not agreed */
};

/* The energy of `n` samples (sorted, each the mean power over the `period_ms` ending at its time)
 * over [from_ms, to_ms]; *covered_ms is the part of that time their periods cover. */
double power_samples_energy(const struct power_sample *samples, unsigned n, double period_ms, double from_ms,
                            double to_ms, double *covered_ms);

/* Decides from the figures filled in: agreed, or the reason. A window the samples do not cover
 * to within 5 % is not judged (a buffer that stopped, or gaps): not agreed. */
void fast_check_judge(struct fast_check *c, double covered_ms);

/* Reads the counter (source->read) and the samples (source->read_samples) for `duration_ms` of
 * `clock` (NULL: power_real_clock), whatever the GPU does meanwhile, and judges. */
void power_fast_check(struct power_source *source, double duration_ms, const struct power_clock *clock,
                      struct fast_check *out);

#endif
