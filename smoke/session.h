/* A test session: the device that the tests of one worker process share. Creating a VkDevice
 * costs about 100 ms on NVIDIA's driver (more than most tests), so a worker creates one device
 * with everything the tests it may run need (the union of their device options, only ever what
 * the device declares) and each test releases what it created. After a test whose Vulkan calls
 * failed the device is closed, and the next test gets a fresh one; a crash or a lost device ends
 * the whole worker (runner.c). With per_test set, each test gets its own device, as before; a test
 * flagged SMOKE_OWN_DEVICE always does, and its options stay out of the union. */
#ifndef PREFLIGHT_SMOKE_SESSION_H
#define PREFLIGHT_SMOKE_SESSION_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "meter.h"
#include "smoke.h"

struct smoke_session {
    const cJSON *declared;
    VkInstance instance;
    VkPhysicalDevice physical;
    uint32_t api_version;
    bool per_test;              /* a device per test: no sharing */
    bool union_refused;         /* the shared device could not be created: fall back to per test */
    struct gpu_options options; /* the union */
    struct smoke_device_features features;
    struct gpu gpu; /* the shared device, when open */
    unsigned devices_created;
    struct power_meter *power; /* NULL when no test of the session samples power */
};

/* `selected[i]` says whether smoke_test_get(i) runs in this session: selected and declared, as the
 * runner decided (NULL: every test the device declares). Where one of them samples power, the
 * session's power meter starts opening the device's sensor with `power`'s settings. */
void smoke_session_init(struct smoke_session *s, const cJSON *declared, VkInstance instance, VkPhysicalDevice physical,
                        uint32_t api_version, const bool *selected, bool per_test, const struct power_options *power);
/* Runs one test; fills `out` (evidence owned by the caller). */
void smoke_session_run(struct smoke_session *s, const struct smoke_test *test, enum smoke_fault fault,
                       struct smoke_outcome *out);
void smoke_session_close(struct smoke_session *s);

/* The union of two option sets, into `into` (extensions deduplicated, every VkBool32 feature
 * ORed); the feature chain of `into` is rebuilt over `storage`. Exposed for the unit test. */
void smoke_options_merge(struct gpu_options *into, struct smoke_device_features *storage,
                         const struct gpu_options *from, const struct smoke_device_features *from_storage);

#endif
