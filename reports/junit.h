/* Smoke results as JUnit XML: a testsuite per device, a testcase per test. fail and
 * not_applied are failures; crashed, timeout and device_lost are errors; unsupported and
 * skipped are skipped, with the reason. */
#ifndef PREFLIGHT_REPORTS_JUNIT_H
#define PREFLIGHT_REPORTS_JUNIT_H

#include <stdio.h>
#include <cjson/cJSON.h>

void junit_write(cJSON *const *reports, size_t report_count, FILE *out);

#endif
