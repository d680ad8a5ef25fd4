/* Expectations: what a team knows fails, flakes or is skipped on which devices, with a reason and
 * an optional expiry (docs/expectations.md). One entry per line:
 *   # comment
 *   KIND TEST-GLOB [CONDITION...] reason=TEXT [until=YYYY-MM-DD]
 * KIND is fail, flake or skip; a CONDITION is vendor=, device=, device_id=, device_key=,
 * driver_name=, driver= (a range: LOW..HIGH, LOW.., ..HIGH or one version), os= or type= (discrete,
 * integrated, virtual, cpu, other: VkPhysicalDeviceType); a value with
 * spaces is written in double quotes. The gate (gate.h) fails only on what no entry expects. */
#ifndef PREFLIGHT_REPORTS_EXPECTATIONS_H
#define PREFLIGHT_REPORTS_EXPECTATIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "driver_version.h"

enum expectation_kind { EXPECTATION_FAIL, EXPECTATION_FLAKE, EXPECTATION_SKIP };

struct expectation {
    enum expectation_kind kind;
    int line;
    char test[160];   /* glob over smoke test ids */
    char reason[256]; /* why: a ticket, a driver bug */
    char until[11];   /* "YYYY-MM-DD", the last day it holds; "" when it does not expire */
    /* the device pattern: a condition not given matches every device */
    bool has_vendor, has_device_id, has_driver_low, has_driver_high;
    uint32_t vendor_id, device_id;
    char device[128], device_key[128], driver_name[128], os[128]; /* globs; "" matches all */
    char device_type[16]; /* "discrete", "integrated", "virtual", "cpu", "other"; "" matches all */
    struct driver_version_fields driver_low, driver_high; /* inclusive, by prefix */
};

struct expectations;

/* NULL with `error` ("line 3: ...") on a malformed line; an empty file is no expectations. */
struct expectations *expectations_parse(const char *text, char *error, size_t size);
void expectations_free(struct expectations *e);
size_t expectations_count(const struct expectations *e);
const struct expectation *expectations_at(const struct expectations *e, size_t index);
const char *expectation_kind_name(enum expectation_kind kind);

/* One line's conditions (what follows KIND TEST-GLOB) into `x`; what import checks --device with. */
bool expectation_parse_conditions(const char *text, int line, struct expectation *x, char *error, size_t size);
/* Whether identity.deviceType `identity_type` ("VK_PHYSICAL_DEVICE_TYPE_CPU") is the type `name` ("cpu"). */
bool expectation_device_type_is(const char *identity_type, const char *name);
/* Whether the entry's device pattern holds for a report's device (identity block). */
bool expectation_matches_device(const struct expectation *x, const cJSON *device);
/* Expired: `today` ("YYYY-MM-DD") is past `until`. */
bool expectation_expired(const struct expectation *x, const char *today);
/* The first entry in file order, not expired on `today`, that matches the device and test; or NULL. */
const struct expectation *expectations_find(const struct expectations *e, const cJSON *device, const char *test_id,
                                            const char *today);
/* Whether an entry excuses a result: fail and flake excuse a failing status (anything but pass,
 * unsupported and skipped: fail, crashed, timeout, device_lost, not_applied, a fleet's "flaky"),
 * skip excuses every status. */
bool expectation_excuses(const struct expectation *x, const char *status);
/* Adds to `out` one object per smoke test of the device that passed though an entry expects it to
 * fail (a stale expectation): {"test", "line", "reason"}. */
void expectations_unexpected_passes(const struct expectations *e, const cJSON *device, const char *today, cJSON *out);
/* Adds to `out` one object per expired entry: {"line", "kind", "test", "until", "reason"}. */
void expectations_expired(const struct expectations *e, const char *today, cJSON *out);
/* Today's date in UTC as "YYYY-MM-DD". */
void expectations_today(char out[11]);

#endif
