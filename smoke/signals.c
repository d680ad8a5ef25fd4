#include "signals.h"

static cJSON *power_entry(const struct power_signal *power)
{
    cJSON *entry = cJSON_CreateObject();
    cJSON_AddBoolToObject(entry, "measured", power != NULL && power->measured);
    if (power != NULL && power->measured)
        cJSON_AddStringToObject(entry, "source", power->source);
    else
        cJSON_AddStringToObject(entry, "reason",
                                power != NULL ? power->reason
                                              : "not sampled: power is sampled around a timed baseline and feature "
                                                "pass, and this test timed none");
    return entry;
}

void smoke_signals(struct smoke_outcome *out, const struct signals *s)
{
    cJSON *signals = cJSON_AddObjectToObject(out->evidence, "signals");
    cJSON_AddBoolToObject(signals, "declared", true);
    cJSON_AddBoolToObject(signals, "readback", s->readback);
    cJSON_AddBoolToObject(signals, "artifacts", s->artifacts);
    cJSON_AddBoolToObject(signals, "counters", s->counters);
    cJSON_AddBoolToObject(signals, "timing", s->timing);
    cJSON_AddItemToObject(signals, "power", power_entry(s->power));
    bool power = s->power != NULL && s->power->measured;
    cJSON_AddNumberToObject(out->evidence, "signals_collected",
                            1 + s->readback + s->artifacts + s->counters + s->timing + power);
}
