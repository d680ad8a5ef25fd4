/* The steady decision: readings of a power source taken while a pass repeats, turned into power
 * samples and judged settled or not. Pure logic over (time, reading) pairs, unit-tested with
 * made-up readings.
 *
 * An energy counter is only known to be fresh when its value changes: a sample runs from one
 * observed change to the first change at least `min_sample_ms` later, and its power is the
 * energy between them over the time between them. So a sample always spans whole counter
 * updates, however coarse the counter: a counter slower than the pass lengthens the sample, not
 * the error. A change is placed midway between the read that first showed it and the read before;
 * a sample whose two ends are known less precisely than STEADY_TIMING_SHARE of its length (the
 * reader was descheduled) is dropped, and the samples after it are made twice as long (up to
 * STEADY_MAX_LENGTHENING times the first length). A reading below the one before (a wrap or a reset) drops
 * that interval too. A power
 * reading gives a sample each time it changes, at least `min_sample_ms` apart. The window has
 * settled when the last STEADY_WINDOW samples vary by less than STEADY_SPREAD_LIMIT (their
 * coefficient of variation). */
#ifndef PREFLIGHT_POWER_STEADY_H
#define PREFLIGHT_POWER_STEADY_H

#include <stdbool.h>
#include <stddef.h>

#include "power_source.h"

#define STEADY_WINDOW 3
#define STEADY_SPREAD_LIMIT 0.05
#define STEADY_MAX_SAMPLES 512
#define STEADY_TIMING_SHARE 0.05
#define STEADY_MAX_LENGTHENING 8

struct steady {
    enum power_quantity quantity;
    double min_sample_ms, first_min_sample_ms;
    double start_ms;
    double last_read_ms; /* the read before the latest */
    double last_value;
    unsigned changes; /* readings above the one before (for the update period) */
    double first_change_ms, last_change_ms;
    bool anchored; /* a sample has begun: at a change seen under load */
    double anchor_ms, anchor_value, anchor_halfwidth;
    double watts[STEADY_MAX_SAMPLES];
    unsigned count;
    unsigned wraps;     /* energy readings below the one before */
    unsigned imprecise; /* samples dropped for their ends' timing */
};

/* `value` is the reading at `start_ms`, when the load began (stale until it changes). */
void steady_begin(struct steady *s, enum power_quantity quantity, double min_sample_ms, double start_ms, double value);
/* A reading taken at `at_ms`; readings come in the order taken. */
void steady_observe(struct steady *s, double at_ms, double value);
bool steady_settled(const struct steady *s);
/* The mean time between the changes seen; 0 when fewer than two. */
double steady_update_period_ms(const struct steady *s);

struct steady_figures {
    unsigned samples;  /* in the figures: the last STEADY_WINDOW, or all when fewer */
    double mean_watts; /* their mean */
    double spread_pct; /* their coefficient of variation, in percent */
    bool settled;
};

/* The figures after `elapsed_ms` under load; false, with `reason`, when they cannot be given:
 * fewer than two samples (the reason tells a stalled source from a coarse one). */
bool steady_figures(const struct steady *s, double elapsed_ms, struct steady_figures *f, char *reason, size_t size);

/* Mean and coefficient of variation (sample standard deviation over the mean) of n values;
 * the coefficient is INFINITY for fewer than two or a mean of 0. */
void power_mean_cv(const double *values, unsigned n, double *mean, double *cv);

#endif
