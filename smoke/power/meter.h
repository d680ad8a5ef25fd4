/* The power meter of a worker process: the sensor of its device, opened in the background while
 * the first tests run (loading NVML and finding how often its counter updates take a while), the
 * time the run may spend sampling power, and the baseline measurements tests share. A test hands
 * it its baseline and feature loads (sampler.h) and gets the evidence and the signal back. */
#ifndef PREFLIGHT_POWER_METER_H
#define PREFLIGHT_POWER_METER_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "power_source.h"
#include "sampler.h"

struct power_options {
    bool disabled;                   /* --no-power */
    bool counter_only;               /* --power-counter-only: never the driver's sample buffer */
    double budget_s;                 /* the most one worker spends sampling power over the whole run */
    double phase_ms;                 /* the most one phase (a test's baseline, or its feature) may take */
    const struct power_clock *clock; /* NULL: power_real_clock (sampler.h) */
};

/* A phase of 400 ms leaves room for two samples of a counter that updates every 130 ms; the
 * budget for about fifteen phases (the VRS, mesh and ray-tracing tests of one GPU, VRS sharing
 * its baseline). A faster counter settles long before either bound. */
#define POWER_DEFAULT_BUDGET_S 6.0
#define POWER_DEFAULT_PHASE_MS 400.0
#define POWER_MAX_BUDGET_S 3600.0
#define POWER_MIN_PHASE_MS 20.0
#define POWER_MAX_PHASE_MS 60000.0

/* What smoke_signals() reports: measured, with the source, or the reason it was not. */
struct power_signal {
    bool measured;
    const char *source; /* "nvml" or "hwmon" when measured */
    char reason[768];
};

struct power_measurement {
    const char *what;         /* the pass, in words */
    const char *baseline_key; /* tests whose baseline pass is the same work share it; NULL: never shared */
    const struct power_load *baseline, *feature;
};

struct power_meter;

/* Starts opening the device's sensor (unless disabled); NULL when out of memory. */
struct power_meter *power_meter_create(const struct power_device_id *id, const struct power_options *options);
void power_meter_destroy(struct power_meter *m);
/* The test whose measurements follow (named where a later test reuses its baseline). */
void power_meter_begin_test(struct power_meter *m, const char *test_id);
/* Samples the baseline, then the feature; adds "power" to `evidence` when both were measured. */
void power_meter_measure(struct power_meter *m, const struct power_measurement *what, cJSON *evidence,
                         struct power_signal *signal);

/* signal = not measured, for `reason` (printf-style). */
void power_not_sampled(struct power_signal *signal, const char *format, ...) __attribute__((format(printf, 2, 3)));

#endif
