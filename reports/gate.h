/* Release gates: a requirements file evaluated per device. Format (docs/report-tool.md):
 *   # comment
 *   compute.1x1 must pass                 a smoke test's verdict ("must" is optional)
 *   vrs.pipeline.2x2 pass or unsupported  any of several verdicts
 *   vrs.* pass or unsupported or skipped  a glob over test ids
 *   maxComputeSharedMemorySize >= 32768   a limit (member name where one struct has it, or Struct.member)
 *                                         and >=, <=, >, <, ==, !=
 *   feature shaderInt64                   a feature that must be declared true
 *   extension VK_KHR_dynamic_rendering    an extension that must be exposed
 *   spec_minimums none                    no limit below what the spec requires */
#ifndef PREFLIGHT_REPORTS_GATE_H
#define PREFLIGHT_REPORTS_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

struct gate;

/* Parses the requirements text; NULL with `error` ("line 3: ...") on a malformed line. */
struct gate *gate_parse(const char *text, char *error, size_t size);
void gate_free(struct gate *g);
size_t gate_rule_count(const struct gate *g);
/* The rules against every device to be gated: a test-id glob that matches no test anywhere, and a
 * limit, feature or extension that neither vk.xml (checked by gate_parse) nor any of these reports
 * declares, are errors in the requirements (false with "line N: ..."). gate_parse refuses a bare
 * limit name that several structs have (name one as Struct.member). */
bool gate_check_tests(const struct gate *g, const cJSON *const *devices, size_t count, char *error, size_t size);
/* Evaluates every rule on one device; adds one string per failed rule to `failures`. */
bool gate_evaluate(const struct gate *g, const cJSON *device, cJSON *failures);

/* The same where an expectations file (expectations.h) excuses known failures: a smoke result a
 * rule refuses but an entry (not expired on `today`) expects is no failure; it is added to
 * `expected` as {"test", "status", "rule", "line", "kind", "reason"}. */
struct expectations;
struct gate_expectations {
    const struct expectations *expectations;
    const char *today; /* "YYYY-MM-DD" */
    cJSON *expected;
};
bool gate_evaluate_expected(const struct gate *g, const cJSON *device, const struct gate_expectations *ex,
                            cJSON *failures);

#endif
