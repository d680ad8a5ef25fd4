/* Smoke-test verdicts, as the report contract names them (docs/report.md). */
#ifndef PREFLIGHT_MATRIX_VERDICT_H
#define PREFLIGHT_MATRIX_VERDICT_H

#include <stdbool.h>

enum verdict {
    VERDICT_PASS,        /* ran, and the readback proved the feature works */
    VERDICT_FAIL,        /* ran, wrong result */
    VERDICT_NOT_APPLIED, /* ran, the feature had no effect */
    VERDICT_UNSUPPORTED, /* not declared; the reason names the bit or extension */
    VERDICT_SKIPPED,     /* not run on request (--skip) or because a test it needs did not pass */
    VERDICT_CRASHED,     /* the test's process died (signal or unexpected exit) */
    VERDICT_TIMEOUT,     /* the watchdog stopped it */
    VERDICT_DEVICE_LOST, /* VK_ERROR_DEVICE_LOST */
    VERDICT_COUNT
};

const char *verdict_name(enum verdict v);
/* false when `name` is not a verdict */
bool verdict_parse(const char *name, enum verdict *out);
/* Verified means a readback proved it: only `pass`. */
bool verdict_is_verified(enum verdict v);

#endif
