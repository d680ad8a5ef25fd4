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

nvml_return nvmlInit_v2(void)
{
    reads = 0;
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
