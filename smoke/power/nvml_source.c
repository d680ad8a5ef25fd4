/* NVML, loaded at run time: the probe has no build or package dependency on NVIDIA's library, and
 * a machine without the driver's libnvidia-ml.so.1 gets a reason instead of a sensor. Only the few
 * entry points used here are declared, with the types of nvml.h (stable C ABI since NVML 4). */
#include "power_source.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int nvml_return;
typedef struct nvml_device_opaque *nvml_device;
#define NVML_SUCCESS 0
#define NVML_ERROR_NOT_FOUND 6
#define NVML_TOTAL_POWER_SAMPLES 0
/* nvmlSample_t: a CPU timestamp in microseconds and an 8-byte union whose member the value type names */
struct nvml_sample {
    unsigned long long time_stamp;
    union {
        double d;
        unsigned int ui;
        unsigned long ul;
        unsigned long long ull;
        signed long long sll;
        signed int si;
        unsigned short us;
    } value;
};
enum { VALUE_DOUBLE, VALUE_UINT, VALUE_ULONG, VALUE_ULLONG, VALUE_SLLONG, VALUE_SINT, VALUE_USHORT };
/* The most samples one read asks for: the H100's buffer holds about 2.4 s of 20 ms samples. */
#define MAX_BUFFERED_SAMPLES 1024u
/* The newest sample of a buffer that is being filled is at most this old. */
#define SAMPLE_CLOCK_SLACK_MS 5000.0

struct nvml {
    void *library;
    nvml_return (*init)(void);
    nvml_return (*shutdown)(void);
    const char *(*error_string)(nvml_return);
    nvml_return (*by_pci)(const char *, nvml_device *);
    nvml_return (*by_uuid)(const char *, nvml_device *);
    nvml_return (*energy)(nvml_device, unsigned long long *); /* millijoules since the driver loaded */
    nvml_return (*power)(nvml_device, unsigned int *);        /* milliwatts */
    nvml_return (*samples)(nvml_device, int, unsigned long long, int *, unsigned int *, struct nvml_sample *);
    nvml_device device;
    /* the fast source's state: the newest timestamp returned, and which clock the timestamps are on */
    unsigned long long last_seen_us;
    enum { CLOCK_UNKNOWN, CLOCK_IS_REALTIME, CLOCK_IS_MONOTONIC } sample_clock;
    struct nvml_sample buffer[MAX_BUFFERED_SAMPLES];
    struct power_sample sorted[MAX_BUFFERED_SAMPLES];
};

const char *power_nvml_library(void)
{
    const char *path = getenv("PREFLIGHT_NVML_LIBRARY");
    return path != NULL && path[0] != '\0' ? path : "libnvidia-ml.so.1";
}

static const char *nvml_error(const struct nvml *n, nvml_return status)
{
    const char *text = n->error_string != NULL ? n->error_string(status) : NULL;
    return text != NULL ? text : "unknown NVML error";
}

static bool read_energy(struct power_source *s, double *joules, char *error, size_t size)
{
    struct nvml *n = s->state;
    unsigned long long millijoules = 0;
    nvml_return status = n->energy(n->device, &millijoules);
    if (status != NVML_SUCCESS) {
        snprintf(error, size, "nvmlDeviceGetTotalEnergyConsumption failed: %s", nvml_error(n, status));
        return false;
    }
    *joules = (double)millijoules / 1000.0;
    return true;
}

static bool read_power(struct power_source *s, double *watts, char *error, size_t size)
{
    struct nvml *n = s->state;
    unsigned int milliwatts = 0;
    nvml_return status = n->power(n->device, &milliwatts);
    if (status != NVML_SUCCESS) {
        snprintf(error, size, "nvmlDeviceGetPowerUsage failed: %s", nvml_error(n, status));
        return false;
    }
    *watts = milliwatts / 1000.0;
    return true;
}

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static bool sample_watts(int type, const struct nvml_sample *sample, double *watts)
{
    double milliwatts;
    switch (type) {
    case VALUE_DOUBLE:
        milliwatts = sample->value.d;
        break;
    case VALUE_UINT:
        milliwatts = sample->value.ui;
        break;
    case VALUE_ULONG:
        milliwatts = (double)sample->value.ul;
        break;
    case VALUE_ULLONG:
        milliwatts = (double)sample->value.ull;
        break;
    case VALUE_SLLONG:
        milliwatts = (double)sample->value.sll;
        break;
    case VALUE_SINT:
        milliwatts = sample->value.si;
        break;
    case VALUE_USHORT:
        milliwatts = sample->value.us;
        break;
    default:
        return false;
    }
    *watts = milliwatts / 1000.0;
    return milliwatts >= 0;
}

/* NVML documents the timestamps as the CPU's, in microseconds, without naming the clock: the
 * newest sample of the first read decides between the wall clock and CLOCK_MONOTONIC. */
static bool find_sample_clock(struct nvml *n, unsigned long long newest_us, char *error, size_t size)
{
    double newest_ms = newest_us / 1000.0;
    double off_realtime = clock_ms(CLOCK_REALTIME) - newest_ms, off_monotonic = clock_ms(CLOCK_MONOTONIC) - newest_ms;
    if (off_realtime > -SAMPLE_CLOCK_SLACK_MS && off_realtime < SAMPLE_CLOCK_SLACK_MS)
        n->sample_clock = CLOCK_IS_REALTIME;
    else if (off_monotonic > -SAMPLE_CLOCK_SLACK_MS && off_monotonic < SAMPLE_CLOCK_SLACK_MS)
        n->sample_clock = CLOCK_IS_MONOTONIC;
    else {
        snprintf(error, size,
                 "nvmlDeviceGetSamples: the newest sample's timestamp (%llu us) is on neither the wall clock "
                 "(%.0f ms away) nor CLOCK_MONOTONIC (%.0f ms away)",
                 newest_us, off_realtime, off_monotonic);
        return false;
    }
    return true;
}

static int read_samples(struct power_source *s, struct power_sample *out, unsigned max, char *error, size_t size)
{
    struct nvml *n = s->state;
    int type = 0;
    unsigned int count = MAX_BUFFERED_SAMPLES;
    nvml_return status = n->samples(n->device, NVML_TOTAL_POWER_SAMPLES, n->last_seen_us, &type, &count, n->buffer);
    if (status == NVML_ERROR_NOT_FOUND) /* nothing newer than last_seen_us */
        return 0;
    if (status != NVML_SUCCESS) {
        snprintf(error, size, "nvmlDeviceGetSamples failed: %s", nvml_error(n, status));
        return -1;
    }
    if (count > MAX_BUFFERED_SAMPLES)
        count = MAX_BUFFERED_SAMPLES;
    unsigned long long newest = n->last_seen_us;
    for (unsigned i = 0; i < count; ++i)
        if (n->buffer[i].time_stamp > newest)
            newest = n->buffer[i].time_stamp;
    if (newest == n->last_seen_us)
        return 0;
    if (n->sample_clock == CLOCK_UNKNOWN && !find_sample_clock(n, newest, error, size))
        return -1;
    double offset_ms =
        n->sample_clock == CLOCK_IS_REALTIME ? clock_ms(CLOCK_REALTIME) - clock_ms(CLOCK_MONOTONIC) : 0.0;
    /* the buffer's order is the driver's: sorted here (it is nearly sorted), the newest `max` kept */
    unsigned fresh = 0;
    for (unsigned i = 0; i < count; ++i) {
        const struct nvml_sample *sample = &n->buffer[i];
        double watts;
        if (sample->time_stamp <= n->last_seen_us || !sample_watts(type, sample, &watts))
            continue;
        struct power_sample converted = {.at_ms = sample->time_stamp / 1000.0 - offset_ms, .watts = watts};
        unsigned at = fresh++;
        for (; at > 0 && n->sorted[at - 1].at_ms > converted.at_ms; --at)
            n->sorted[at] = n->sorted[at - 1];
        n->sorted[at] = converted;
    }
    unsigned written = fresh < max ? fresh : max;
    memcpy(out, n->sorted + (fresh - written), written * sizeof(*out));
    n->last_seen_us = newest;
    return (int)written;
}

static void close_nvml(struct power_source *s)
{
    struct nvml *n = s->state;
    if (n == NULL)
        return;
    if (n->shutdown != NULL)
        n->shutdown();
    if (n->library != NULL)
        dlclose(n->library);
    free(n);
    s->state = NULL;
}

static bool load(struct nvml *n, const char *path, char *reason, size_t size)
{
    n->library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (n->library == NULL) {
        const char *why = dlerror();
        snprintf(reason, size, "NVML: %s could not be loaded (%s)", path, why ? why : "dlopen failed");
        return false;
    }
    *(void **)&n->init = dlsym(n->library, "nvmlInit_v2");
    *(void **)&n->shutdown = dlsym(n->library, "nvmlShutdown");
    *(void **)&n->error_string = dlsym(n->library, "nvmlErrorString");
    *(void **)&n->by_pci = dlsym(n->library, "nvmlDeviceGetHandleByPciBusId_v2");
    *(void **)&n->by_uuid = dlsym(n->library, "nvmlDeviceGetHandleByUUID");
    *(void **)&n->energy = dlsym(n->library, "nvmlDeviceGetTotalEnergyConsumption");
    *(void **)&n->power = dlsym(n->library, "nvmlDeviceGetPowerUsage");
    *(void **)&n->samples = dlsym(n->library, "nvmlDeviceGetSamples");
    if (n->init == NULL || n->shutdown == NULL || n->by_pci == NULL || n->by_uuid == NULL ||
        (n->energy == NULL && n->power == NULL)) {
        snprintf(reason, size, "NVML: %s lacks nvmlInit_v2, the device look-ups or both power queries", path);
        n->shutdown = NULL; /* never initialised: nothing to shut down */
        return false;
    }
    nvml_return status = n->init();
    if (status != NVML_SUCCESS) {
        snprintf(reason, size, "NVML: nvmlInit_v2 failed: %s", nvml_error(n, status));
        n->shutdown = NULL;
        return false;
    }
    return true;
}

/* The device by PCI address first, then by UUID ("GPU-" and the 16 bytes as NVML prints them). */
static bool match(struct nvml *n, const struct power_device_id *id, struct power_source *s, char *reason, size_t size)
{
    char pci[32] = "", uuid[48] = "";
    nvml_return pci_status = NVML_SUCCESS, uuid_status = NVML_SUCCESS;
    if (id->has_pci) {
        power_pci_name(id, pci, sizeof(pci));
        pci_status = n->by_pci(pci, &n->device);
        if (pci_status == NVML_SUCCESS) {
            snprintf(s->device_match, sizeof(s->device_match), "PCI %s", pci);
            return true;
        }
    }
    if (id->has_uuid) {
        const uint8_t *u = id->uuid;
        snprintf(uuid, sizeof(uuid), "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
                 u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
        uuid_status = n->by_uuid(uuid, &n->device);
        if (uuid_status == NVML_SUCCESS) {
            snprintf(s->device_match, sizeof(s->device_match), "UUID %s", uuid);
            return true;
        }
    }
    if (!id->has_pci && !id->has_uuid) {
        snprintf(reason, size, "NVML: the device has neither a PCI address nor a UUID to match it by");
        return false;
    }
    char by_pci[96] = "", by_uuid[96] = "";
    if (id->has_pci)
        snprintf(by_pci, sizeof(by_pci), " at PCI %s (%s)", pci, nvml_error(n, pci_status));
    if (id->has_uuid)
        snprintf(by_uuid, sizeof(by_uuid), "%s with UUID %s (%s)", id->has_pci ? " nor" : "", uuid,
                 nvml_error(n, uuid_status));
    snprintf(reason, size, "NVML knows no GPU%s%s", by_pci, by_uuid);
    return false;
}

/* The driver's sample buffer, where it answers: offered beside the counter, which stays the
 * reference (meter.c checks the two agree before the fast one is used). */
static void offer_samples(struct power_source *s, struct nvml *n, const char *path)
{
    if (n->samples == NULL)
        return;
    int type = 0;
    unsigned int count = 0;
    if (n->samples(n->device, NVML_TOTAL_POWER_SAMPLES, 0, &type, &count, NULL) != NVML_SUCCESS || count == 0)
        return;
    s->read_samples = read_samples;
    snprintf(s->samples_sensor, sizeof(s->samples_sensor),
             "nvmlDeviceGetSamples(NVML_TOTAL_POWER_SAMPLES) (mW, %u kept) from %s", count, path);
}

bool nvml_source_open(struct power_source *s, const struct power_device_id *id, char *reason, size_t size)
{
    struct nvml *n = calloc(1, sizeof(*n));
    if (n == NULL) {
        snprintf(reason, size, "NVML: out of memory");
        return false;
    }
    *s = (struct power_source){.name = "nvml", .state = n, .close = close_nvml};
    const char *path = power_nvml_library();
    if (!load(n, path, reason, size) || !match(n, id, s, reason, size)) {
        close_nvml(s);
        return false;
    }
    /* the energy counter where the GPU has one (Volta and newer), else the power reading */
    double probe;
    char why[160] = "";
    if (n->energy != NULL && (s->read = read_energy, read_energy(s, &probe, why, sizeof(why)))) {
        s->quantity = POWER_ENERGY_JOULES;
        snprintf(s->sensor, sizeof(s->sensor), "nvmlDeviceGetTotalEnergyConsumption (mJ) from %s", path);
        s->read_watts = n->power != NULL ? read_power : NULL;
        offer_samples(s, n, path);
        return true;
    }
    if (n->power != NULL && (s->read = read_power, read_power(s, &probe, why, sizeof(why)))) {
        s->quantity = POWER_WATTS;
        snprintf(s->sensor, sizeof(s->sensor), "nvmlDeviceGetPowerUsage (mW) from %s", path);
        return true;
    }
    snprintf(reason, size, "NVML matched the GPU (%s) but reads neither its energy nor its power: %s", s->device_match,
             why[0] ? why : "the queries are missing");
    close_nvml(s);
    return false;
}
