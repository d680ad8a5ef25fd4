#include "evidence.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

double power_round(double value, int digits)
{
    if (value == 0 || !isfinite(value))
        return value;
    char text[40];
    snprintf(text, sizeof(text), "%.*g", digits, value);
    return strtod(text, NULL);
}

static cJSON *phase_object(const struct power_phase *p, const char *measured_in)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "joules_per_pass", power_round(p->joules_per_pass, 4));
    cJSON_AddNumberToObject(o, "mean_watts", power_round(p->mean_watts, 4));
    cJSON_AddNumberToObject(o, "samples", p->samples);
    cJSON_AddNumberToObject(o, "spread_pct", power_round(p->spread_pct, 3));
    cJSON_AddBoolToObject(o, "settled", p->settled);
    cJSON_AddNumberToObject(o, "samples_taken", p->samples_taken);
    cJSON_AddNumberToObject(o, "passes", (double)p->passes);
    cJSON_AddNumberToObject(o, "seconds", power_round(p->seconds, 4));
    if (p->has_reported_watts)
        cJSON_AddNumberToObject(o, "reported_watts", power_round(p->reported_watts, 4));
    if (p->wraps > 0)
        cJSON_AddNumberToObject(o, "wraps", p->wraps);
    if (measured_in != NULL)
        cJSON_AddStringToObject(o, "measured_in", measured_in);
    cJSON_AddNumberToObject(o, "uncertainty_pct", power_round(p->uncertainty_pct, 2));
    if (p->fast) {
        cJSON_AddStringToObject(o, "from", "samples");
        cJSON_AddNumberToObject(o, "sample_period_ms", power_round(p->sample_period_ms, 3));
        if (p->gaps > 0)
            cJSON_AddNumberToObject(o, "gaps", p->gaps);
    } else {
        cJSON_AddStringToObject(o, "from", "readings");
    }
    return o;
}

/* The fast source's check against the counter: whether it is used, on what figures, and why not. */
static cJSON *check_object(const struct power_source *source, const struct fast_check *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "sensor", source->samples_sensor);
    cJSON_AddBoolToObject(o, "used", c->agreed);
    if (c->period_ms > 0)
        cJSON_AddNumberToObject(o, "sample_period_ms", power_round(c->period_ms, 3));
    if (c->seconds > 0) {
        cJSON_AddNumberToObject(o, "check_seconds", power_round(c->seconds, 4));
        cJSON_AddNumberToObject(o, "counter_joules", power_round(c->counter_joules, 5));
        cJSON_AddNumberToObject(o, "samples_joules", power_round(c->samples_joules, 5));
        cJSON_AddNumberToObject(o, "error_pct", power_round(c->error_pct, 3));
    }
    cJSON_AddNumberToObject(o, "tolerance_pct", FAST_CHECK_TOLERANCE_PCT);
    if (c->reason[0] != '\0')
        cJSON_AddStringToObject(o, "reason", c->reason);
    return o;
}

cJSON *power_evidence(const struct power_source *source, const char *what, double update_period_ms,
                      const struct power_phase *baseline, const char *baseline_from, const struct power_phase *feature,
                      const struct fast_check *check)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "source", source->name);
    cJSON_AddStringToObject(e, "device_match", source->device_match);
    bool fast = feature->fast;
    cJSON_AddStringToObject(e, "sensor", fast ? source->samples_sensor : source->sensor);
    cJSON_AddStringToObject(e, "quantity",
                            fast                                      ? "power samples"
                            : source->quantity == POWER_ENERGY_JOULES ? "energy counter"
                                                                      : "power reading");
    cJSON_AddStringToObject(e, "what", what);
    if (update_period_ms > 0)
        cJSON_AddNumberToObject(e, "update_period_ms", power_round(update_period_ms, 3));
    else
        cJSON_AddNullToObject(e, "update_period_ms");
    cJSON_AddItemToObject(e, "baseline", phase_object(baseline, baseline_from));
    cJSON_AddItemToObject(e, "feature", phase_object(feature, NULL));
    cJSON_AddNumberToObject(e, "ratio", power_round(feature->joules_per_pass / baseline->joules_per_pass, 4));
    cJSON_AddBoolToObject(e, "settled", baseline->settled && feature->settled);
    if (check != NULL)
        cJSON_AddItemToObject(e, "fast_source", check_object(source, check));
    return e;
}
