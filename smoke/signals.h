/* The six signals by which a feature is shown to *take effect* (the field's acceptance practice
 * for VRS, mesh shading and ray tracing): the declared bit, read-back pipeline state, exported
 * intermediates (artifacts.h), counters, GPU timing per stage (timing.h) and steady power
 * (power/power.h). A feature test ends with smoke_signals(), which adds {"signals": {...},
 * "signals_collected": N} to its evidence, so runs and drivers can be compared signal by signal. */
#ifndef PREFLIGHT_SMOKE_SIGNALS_H
#define PREFLIGHT_SMOKE_SIGNALS_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "meter.h"
#include "smoke.h"

struct signals {
    bool readback;  /* the verdict rests on read-back results */
    bool counters;  /* a query counted the work (pipeline statistics, primitives generated) */
    bool timing;    /* timestamps around the work at a baseline and with the feature */
    bool artifacts; /* an image of what the GPU produced is in the evidence */
    /* energy at the baseline and with the feature (power_measure); NULL: the test timed no pass */
    const struct power_signal *power;
};

/* Declared is always true here (a test runs only on what the device declares). Power is
 * {"measured": true, "source"} or {"measured": false, "reason"}. */
void smoke_signals(struct smoke_outcome *out, const struct signals *s);

#endif
