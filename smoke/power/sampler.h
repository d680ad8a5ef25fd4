/* One phase of a power measurement: a batch of passes submitted again and again, the source read
 * while the batch runs, until the power per pass settles (steady.h) or the phase's time is up.
 * The load is given as callbacks so the loop runs the same over a GPU queue (power_gpu.c) and
 * over a fake load in the unit tests. */
#ifndef PREFLIGHT_POWER_SAMPLER_H
#define PREFLIGHT_POWER_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "power_source.h"

struct power_load {
    bool (*record)(void *context); /* prepares the batch, once per phase */
    bool (*submit)(void *context); /* starts the batch */
    /* waits up to `timeout_ms` for the batch: 1 done, 0 still running, -1 failed */
    int (*wait)(void *context, double timeout_ms);
    /* why the load failed, after record, submit or wait said so */
    const char *(*error)(void *context);
    uint32_t passes_per_batch;
    void *context;
};

/* Time as the sampler sees it: a monotonic clock and a way to let it pass. Tests bring a clock
 * they move, so what they check does not hang on how the machine schedules them. */
struct power_clock {
    double (*now_ms)(void);
    void (*sleep_ms)(double ms);
};
/* CLOCK_MONOTONIC and nanosleep */
extern const struct power_clock power_real_clock;

struct power_limits {
    double bound_ms;                 /* the phase stops at the first batch that ends after this */
    double min_sample_ms;            /* steady.h */
    double poll_ms;                  /* how often the source is read while a batch runs */
    const struct power_clock *clock; /* NULL: power_real_clock */
};

struct power_phase {
    bool measured;
    char reason[512]; /* why not, when not measured */
    double joules_per_pass, mean_watts, spread_pct;
    unsigned samples, samples_taken, wraps;
    bool settled;
    uint64_t passes;
    double seconds;          /* under load */
    double update_period_ms; /* between the changes seen; 0 when fewer than two */
    bool has_reported_watts;
    double reported_watts; /* the driver's own power figure, read while the last batch ran */
    /* from the fast source (sample_window.h): its period, the gaps in it, and the figure's uncertainty */
    bool fast;
    double sample_period_ms;
    unsigned gaps;
    double uncertainty_pct;
};

void power_sample_phase(struct power_source *source, const struct power_load *load, const struct power_limits *limits,
                        struct power_phase *out);

/* The same phase on the source's buffered samples (source->read_samples) instead of its
 * readings: read every few milliseconds while the batches run; the figures come from the samples
 * whose period lies wholly under load (sample_window.h). `period_ms`: the buffer's period as known
 * (0: learnt from the samples). */
void power_sample_phase_fast(struct power_source *source, const struct power_load *load,
                             const struct power_limits *limits, double period_ms, struct power_phase *out);

/* How often the source changes, idle or not: read every `poll_ms` for up to `max_ms` (of `clock`,
 * NULL: power_real_clock) until it has changed three times. The mean interval, or 0 when it
 * changed fewer than twice (`error` is set when a read failed). */
double power_update_period(struct power_source *source, double max_ms, double poll_ms, const struct power_clock *clock,
                           char *error, size_t size);

#endif
