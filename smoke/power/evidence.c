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
    return o;
}

cJSON *power_evidence(const struct power_source *source, const char *what, double update_period_ms,
                      const struct power_phase *baseline, const char *baseline_from, const struct power_phase *feature)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "source", source->name);
    cJSON_AddStringToObject(e, "device_match", source->device_match);
    cJSON_AddStringToObject(e, "sensor", source->sensor);
    cJSON_AddStringToObject(e, "quantity",
                            source->quantity == POWER_ENERGY_JOULES ? "energy counter" : "power reading");
    cJSON_AddStringToObject(e, "what", what);
    if (update_period_ms > 0)
        cJSON_AddNumberToObject(e, "update_period_ms", power_round(update_period_ms, 3));
    else
        cJSON_AddNullToObject(e, "update_period_ms");
    cJSON_AddItemToObject(e, "baseline", phase_object(baseline, baseline_from));
    cJSON_AddItemToObject(e, "feature", phase_object(feature, NULL));
    cJSON_AddNumberToObject(e, "ratio", power_round(feature->joules_per_pass / baseline->joules_per_pass, 4));
    cJSON_AddBoolToObject(e, "settled", baseline->settled && feature->settled);
    return e;
}
