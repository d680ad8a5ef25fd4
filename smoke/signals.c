#include "signals.h"

#include <glob.h>
#include <stdio.h>

/* Power: Vulkan has no query for it. Linux exposes some GPUs' power through hwmon under DRM
 * (amdgpu, some Intel); NVIDIA's proprietary driver only through NVML. Either way a steady-power
 * reading needs a sustained load far longer than these tests, so it is not sampled: the evidence
 * says so, and which sensor a farm could sample instead. */
static cJSON *power_entry(void)
{
    cJSON *power = cJSON_CreateObject();
    cJSON_AddBoolToObject(power, "measured", false);
    glob_t found = {0};
    int status = glob("/sys/class/drm/card*/device/hwmon/hwmon*/power1_average", 0, NULL, &found);
    if (status == 0 && found.gl_pathc > 0) {
        cJSON_AddStringToObject(power, "sensor", found.gl_pathv[0]);
        cJSON_AddStringToObject(power, "reason",
                                "a DRM hwmon power sensor exists, but steady power needs a sustained "
                                "load longer than this test; not sampled");
    } else {
        cJSON_AddStringToObject(power, "reason",
                                "no standard interface: Vulkan has no power query and no DRM hwmon "
                                "power sensor is present (NVIDIA reports power through NVML only)");
    }
    globfree(&found);
    return power;
}

void smoke_signals(struct smoke_outcome *out, const struct signals *s)
{
    cJSON *signals = cJSON_AddObjectToObject(out->evidence, "signals");
    cJSON_AddBoolToObject(signals, "declared", true);
    cJSON_AddBoolToObject(signals, "readback", s->readback);
    cJSON_AddBoolToObject(signals, "artifacts", s->artifacts);
    cJSON_AddBoolToObject(signals, "counters", s->counters);
    cJSON_AddBoolToObject(signals, "timing", s->timing);
    cJSON_AddItemToObject(signals, "power", power_entry());
    cJSON_AddNumberToObject(out->evidence, "signals_collected",
                            1 + s->readback + s->artifacts + s->counters + s->timing);
}
