/* A power sensor of one GPU, found at run time: NVIDIA's NVML (its total-energy counter, or its
 * power reading where the counter is missing), or a DRM hwmon sensor (amdgpu, i915, xe and some
 * Arm SoC drivers: an energy counter, or an average or instantaneous power reading). A source is
 * matched to the Vulkan device by PCI address (VK_EXT_pci_bus_info) or, for NVML, by UUID; when
 * none matches, the reason says what was tried. No Vulkan here: sources and their tests need none. */
#ifndef PREFLIGHT_POWER_SOURCE_H
#define PREFLIGHT_POWER_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Who the device is, as Vulkan tells it. */
struct power_device_id {
    bool has_pci; /* VK_EXT_pci_bus_info */
    uint32_t pci_domain, pci_bus, pci_device, pci_function;
    bool has_uuid; /* VkPhysicalDeviceIDProperties.deviceUUID */
    uint8_t uuid[16];
};

/* What a source reads: a cumulative energy counter (joules; it may wrap or reset), or power (watts). */
enum power_quantity { POWER_ENERGY_JOULES, POWER_WATTS };

/* One of the driver's buffered power samples: the mean power over the sensor's period that ended
 * at `at_ms`, on the sampler's clock (CLOCK_MONOTONIC milliseconds, sampler.h). */
struct power_sample {
    double at_ms, watts;
};

struct power_source {
    const char *name; /* "nvml" or "hwmon" */
    enum power_quantity quantity;
    char device_match[96]; /* how it was matched: "PCI 0000:18:00.0", "UUID GPU-..." */
    char sensor[256];      /* what is read: a function, or a file */
    /* one reading; false (and `error` says why) when the sensor could not be read */
    bool (*read)(struct power_source *s, double *value, char *error, size_t size);
    /* the driver's own power figure in watts beside an energy counter; NULL where there is none */
    bool (*read_watts)(struct power_source *s, double *watts, char *error, size_t size);
    /* The fast source, where the driver keeps a buffer of power samples (NVML's
     * nvmlDeviceGetSamples): the samples newer than those the last call returned, at most `max`,
     * oldest first. The count, or -1 (and `error` says why) when the buffer could not be read.
     * NULL where there is none. */
    int (*read_samples)(struct power_source *s, struct power_sample *out, unsigned max, char *error, size_t size);
    double sample_period_ms; /* the buffer's period as the driver fills it (20 ms on an H100); 0: unknown */
    char samples_sensor[192];
    void (*close)(struct power_source *s);
    void *state;
};

/* NVML first, then hwmon. false, with every attempt's reason in `reason`, when no sensor belongs
 * to the device. */
bool power_source_open(struct power_source *s, const struct power_device_id *id, char *reason, size_t size);
void power_source_close(struct power_source *s);

/* The library NVML is loaded from: $PREFLIGHT_NVML_LIBRARY, or libnvidia-ml.so.1 (the driver's). */
const char *power_nvml_library(void);
bool nvml_source_open(struct power_source *s, const struct power_device_id *id, char *reason, size_t size);

/* Where DRM devices are listed: $PREFLIGHT_HWMON_ROOT, or /sys/class/drm. Under it, each card<N>
 * has device/uevent (PCI_SLOT_NAME=...) and device/hwmon/hwmon<M>/ with the sensors. */
const char *power_hwmon_root(void);
bool hwmon_source_open(struct power_source *s, const struct power_device_id *id, char *reason, size_t size);

/* "0000:18:00.0" */
void power_pci_name(const struct power_device_id *id, char *out, size_t size);

#endif
