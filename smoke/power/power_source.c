#include "power_source.h"

#include <stdio.h>

bool power_source_open(struct power_source *s, const struct power_device_id *id, char *reason, size_t size)
{
    /* NVML for any vendor: it matches only its own GPUs, and where it is missing it fails at once */
    char nvml[320] = "";
    if (nvml_source_open(s, id, nvml, sizeof(nvml)))
        return true;
    char hwmon[400] = "";
    if (hwmon_source_open(s, id, hwmon, sizeof(hwmon)))
        return true;
    snprintf(reason, size, "no power sensor for this device: %s; %s", nvml, hwmon);
    return false;
}

void power_source_close(struct power_source *s)
{
    if (s->close != NULL)
        s->close(s);
    s->close = NULL;
}
