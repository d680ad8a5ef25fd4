/* The sixth signal for the smoke tests: the energy a test's timed pass costs, at its baseline and
 * with the feature, read from the device's own sensor (NVML or DRM hwmon, power_source.h) while
 * the pass repeats until the power per pass settles (steady.h). A test that times a baseline pass
 * against a feature pass hands both here as a power_work; the result lands in its evidence as
 * "power" and in its signals. Vulkan has no power query: nothing here comes from the driver's
 * Vulkan side but the device's identity. */
#ifndef PREFLIGHT_POWER_H
#define PREFLIGHT_POWER_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "gpu.h"
#include "meter.h"

struct power_work {
    const char *what;         /* the pass, in words */
    const char *baseline_key; /* tests whose baseline pass is the same work share it (meter.h); NULL: never */
    /* records one pass, at the baseline or with the feature */
    void (*record)(struct gpu *gpu, void *context, bool feature);
    /* recorded between two passes in one command buffer (what the test's timing loop records there) */
    void (*between)(struct gpu *gpu, void *context);
    void *context;
    double pass_ns[2]; /* one pass's GPU time from the test's timing: [0] baseline, [1] feature */
};

/* The PCI address (VK_EXT_pci_bus_info, where exposed) and UUID of a physical device. */
void power_device_id_of(VkPhysicalDevice physical, struct power_device_id *id);

/* Measures `work` on gpu->power (the worker's meter): batches of passes of about 4 ms of GPU time,
 * submitted back to back. Adds "power" to `evidence` when measured; `signal` says either way. */
void power_measure(struct gpu *gpu, const struct power_work *work, cJSON *evidence, struct power_signal *signal);

#endif
