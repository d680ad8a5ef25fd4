/* A stand-in for libnvidia-ml.so.1, for tests: the entry points the probe loads, with the
 * behaviour chosen by environment variables read at every call (so a test changes it mid-run):
 *   FAKE_NVML_PCI        the one PCI address it knows (default 0000:18:00.0)
 *   FAKE_NVML_UUID       the one UUID it knows, or "any" (default: none)
 *   FAKE_NVML_WATTS      the power it draws (default 250)
 *   FAKE_NVML_PERIOD_MS  how often its energy counter updates (default 10)
 *   FAKE_NVML_MODE       energy (default) | power-only (no energy counter) | stall (the counter
 *                        never moves) | init-fails | lost-after:N (reads fail after N)
 *   FAKE_NVML_WRAP_MJ    the counter wraps at this many millijoules (default: never)
 *   FAKE_NVML_CLOCK      monotonic (default) | virtual: time is fake_nvml_clock(), which moves
 *                        0.01 ms each time it is read and as far as fake_nvml_advance() says
 *   FAKE_NVML_SAMPLES    off (default: nvmlDeviceGetSamples is not supported) | on | gaps (every
 *                        third sample missing) | reversed (the buffer newest first) | disagree
 *                        (the samples say 1.5 times the counter's power) | stops-after:N (no
 *                        sample newer than the first N calls' time)
 *   FAKE_NVML_SAMPLE_MS  the sample buffer's period (default 20); it keeps FAKE_NVML_SAMPLE_KEEP
 *                        samples (default 120), stamped in microseconds of the wall clock, or of
 *                        FAKE_NVML_SAMPLE_CLOCK = monotonic | bogus (an hour off both)
 * The counter is the power times the monotonic time, advanced in whole periods; the power reading
 * moves by a milliwatt each period (a real one is never quite still). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int nvml_return;
typedef struct nvml_device_opaque *nvml_device;

enum { SUCCESS = 0, NOT_SUPPORTED = 3, NOT_FOUND = 6, UNKNOWN = 999, GPU_IS_LOST = 15 };

static int reads;
static struct nvml_device_opaque {
    int unused;
} the_device;

static const char *setting(const char *name, const char *fallback)
{
    const char *value = getenv(name);
    return value != NULL && value[0] != '\0' ? value : fallback;
}

static double number(const char *name, double fallback)
{
    const char *value = getenv(name);
    return value != NULL && value[0] != '\0' ? strtod(value, NULL) : fallback;
}

static bool mode_is(const char *mode)
{
    return strncmp(setting("FAKE_NVML_MODE", "energy"), mode, strlen(mode)) == 0;
}

static bool lost(void)
{
    if (!mode_is("lost-after:"))
        return false;
    return ++reads > atoi(setting("FAKE_NVML_MODE", "") + strlen("lost-after:"));
}

static int sample_calls;

nvml_return nvmlInit_v2(void)
{
    reads = 0;
    sample_calls = 0;
    return mode_is("init-fails") ? UNKNOWN : SUCCESS;
}

nvml_return nvmlShutdown(void)
{
    return SUCCESS;
}

const char *nvmlErrorString(nvml_return status)
{
    switch (status) {
    case SUCCESS:
        return "Success";
    case NOT_SUPPORTED:
        return "Not Supported";
    case NOT_FOUND:
        return "Not Found";
    case GPU_IS_LOST:
        return "GPU is lost";
    default:
        return "Unknown Error";
    }
}

nvml_return nvmlDeviceGetHandleByPciBusId_v2(const char *pci, nvml_device *device)
{
    if (strcmp(pci, setting("FAKE_NVML_PCI", "0000:18:00.0")) != 0)
        return NOT_FOUND;
    *device = &the_device;
    return SUCCESS;
}

nvml_return nvmlDeviceGetHandleByUUID(const char *uuid, nvml_device *device)
{
    const char *known = setting("FAKE_NVML_UUID", "");
    if (strcmp(known, "any") != 0 && strcmp(known, uuid) != 0)
        return NOT_FOUND;
    *device = &the_device;
    return SUCCESS;
}

static double virtual_ms = 1000;

/* The virtual clock, for tests that must not depend on how the machine schedules them. */
double fake_nvml_clock(void)
{
    return virtual_ms += 0.01;
}

void fake_nvml_advance(double ms)
{
    virtual_ms += ms;
}

static double now_ms(void)
{
    if (strcmp(setting("FAKE_NVML_CLOCK", "monotonic"), "virtual") == 0)
        return fake_nvml_clock();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* The start of the current counter period. */
static double period_start_ms(void)
{
    double ms = now_ms();
    double period = number("FAKE_NVML_PERIOD_MS", 10);
    return (double)(long long)(ms / period) * period;
}

nvml_return nvmlDeviceGetTotalEnergyConsumption(nvml_device device, unsigned long long *millijoules)
{
    (void)device;
    if (mode_is("power-only"))
        return NOT_SUPPORTED;
    if (lost())
        return GPU_IS_LOST;
    double updated = mode_is("stall") ? 0 : period_start_ms();
    double energy = 1e6 + number("FAKE_NVML_WATTS", 250) * updated; /* W * ms = mJ */
    double wrap = number("FAKE_NVML_WRAP_MJ", 0);
    if (wrap > 0)
        energy -= (double)(long long)(energy / wrap) * wrap;
    *millijoules = (unsigned long long)energy;
    return SUCCESS;
}

nvml_return nvmlDeviceGetPowerUsage(nvml_device device, unsigned int *milliwatts)
{
    (void)device;
    if (lost())
        return GPU_IS_LOST;
    long long period = (long long)(period_start_ms() / number("FAKE_NVML_PERIOD_MS", 10));
    *milliwatts = (unsigned int)(number("FAKE_NVML_WATTS", 250) * 1000) + (unsigned int)(period % 2);
    return SUCCESS;
}

/* nvmlSample_t, as nvml.h lays it out */
struct fake_sample {
    unsigned long long time_stamp;
    union {
        double d;
        unsigned int ui;
        unsigned long long ull;
    } value;
};

static double samples_stopped_at_ms;

static double sample_clock_ms(void)
{
    const char *which = setting("FAKE_NVML_SAMPLE_CLOCK", "realtime");
    struct timespec ts;
    clock_gettime(strcmp(which, "realtime") == 0 ? CLOCK_REALTIME : CLOCK_MONOTONIC, &ts);
    double ms = ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
    return strcmp(which, "bogus") == 0 ? ms + 3.6e6 * 24 * 365 : ms;
}

nvml_return nvmlDeviceGetSamples(nvml_device device, int type, unsigned long long last_seen, int *value_type,
                                 unsigned int *count, struct fake_sample *samples)
{
    (void)device;
    const char *mode = setting("FAKE_NVML_SAMPLES", "off");
    if (strcmp(mode, "off") == 0 || type != 0)
        return NOT_SUPPORTED;
    if (lost())
        return GPU_IS_LOST;
    double period = number("FAKE_NVML_SAMPLE_MS", 20);
    unsigned keep = (unsigned)number("FAKE_NVML_SAMPLE_KEEP", 120);
    *value_type = 1; /* unsigned int, milliwatts */
    if (samples == NULL) {
        *count = keep;
        return SUCCESS;
    }
    double now = sample_clock_ms();
    ++sample_calls;
    if (strncmp(mode, "stops-after:", 12) == 0) {
        if (sample_calls == atoi(mode + 12))
            samples_stopped_at_ms = now;
        if (sample_calls > atoi(mode + 12))
            now = samples_stopped_at_ms;
    }
    double watts = number("FAKE_NVML_WATTS", 250) * (strcmp(mode, "disagree") == 0 ? 1.5 : 1.0);
    long long newest = (long long)(now / period);
    unsigned n = 0;
    for (long long k = newest - keep + 1; k <= newest && n < *count; ++k) {
        unsigned long long stamp = (unsigned long long)(k * period * 1000.0);
        if (stamp <= last_seen || (strcmp(mode, "gaps") == 0 && k % 3 == 0))
            continue;
        samples[n].time_stamp = stamp;
        samples[n].value.ui = (unsigned int)(watts * 1000) + (unsigned int)(k % 2);
        ++n;
    }
    if (n == 0)
        return NOT_FOUND;
    if (strcmp(mode, "reversed") == 0)
        for (unsigned i = 0; i < n / 2; ++i) {
            struct fake_sample t = samples[i];
            samples[i] = samples[n - 1 - i];
            samples[n - 1 - i] = t;
        }
    *count = n;
    return SUCCESS;
}
