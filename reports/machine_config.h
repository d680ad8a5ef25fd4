/* A machine configuration: the devices a farm machine must have, so that a run on other devices
 * (a software rasterizer where a GPU is expected, a missing GPU, a different driver than pinned)
 * fails instead of passing (docs/farm.md#the-machines-devices---machine). One entry per line:
 *   # comment
 *   device [CONDITION...]     a device that must be there: one device per line
 *   optional [CONDITION...]   devices that may be there too (any number)
 * The conditions are those of an expectations line (expectations.h: vendor=, device=, device_id=,
 * device_key=, driver_name=, driver= with a range by the vendor's version scheme, os=, type=, and
 * reason= as a note). A `device` line without type= matches no CPU device (lavapipe). */
#ifndef PREFLIGHT_REPORTS_MACHINE_CONFIG_H
#define PREFLIGHT_REPORTS_MACHINE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

struct machine_config;

/* NULL with `error` ("line 3: ...") on a malformed line or a file that names no device. */
struct machine_config *machine_config_parse(const char *text, char *error, size_t size);
void machine_config_free(struct machine_config *c);

/* Compares the devices of a report (a preflight.report/1 document) with the configuration: each
 * `device` line is given its own device (a maximum matching), a device no line takes must be
 * allowed by an `optional` line. Adds one string per configured device found to `matched` and one
 * per difference to `problems` (what differed: missing, another type, another driver, an extra
 * device). True when there is no difference. */
bool machine_config_check(const struct machine_config *c, const cJSON *report, cJSON *matched, cJSON *problems);

#endif
