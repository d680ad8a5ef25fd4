/* A gate's result over many devices, as one JSON document (preflight-report gate --format json)
 * and as text: each device passes or fails the requirements, what expectations excused, the
 * expectations that no longer hold (unexpected passes) and those past their expiry. */
#ifndef PREFLIGHT_REPORTS_GATE_REPORT_H
#define PREFLIGHT_REPORTS_GATE_REPORT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "expectations.h"
#include "gate.h"

/* {"devices": [{deviceName, deviceKey, driverName, driverVersion, pass, failures[], expected[],
 * unexpectedPasses[]}], "passed", "total", "expired": [...]}; `e` may be NULL (no expectations,
 * and no expected, unexpectedPasses nor expired members). */
cJSON *gate_report_build(const struct gate *g, const struct expectations *e, const char *today,
                         const cJSON *const *devices, size_t count);
/* The document as lines for a terminal (strings from reports made safe). */
void gate_report_write_text(const cJSON *result, FILE *out);

#endif
