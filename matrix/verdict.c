#include "verdict.h"

#include <string.h>

static const char *const verdict_names[VERDICT_COUNT] = {
    [VERDICT_PASS] = "pass",
    [VERDICT_FAIL] = "fail",
    [VERDICT_NOT_APPLIED] = "not_applied",
    [VERDICT_UNSUPPORTED] = "unsupported",
    [VERDICT_SKIPPED] = "skipped",
    [VERDICT_CRASHED] = "crashed",
    [VERDICT_TIMEOUT] = "timeout",
    [VERDICT_DEVICE_LOST] = "device_lost",
};

const char *verdict_name(enum verdict v)
{
    return (unsigned)v < VERDICT_COUNT ? verdict_names[v] : "invalid";
}

bool verdict_parse(const char *name, enum verdict *out)
{
    for (int i = 0; name != NULL && i < VERDICT_COUNT; ++i) {
        if (strcmp(verdict_names[i], name) == 0) {
            *out = (enum verdict)i;
            return true;
        }
    }
    return false;
}

bool verdict_is_verified(enum verdict v)
{
    return v == VERDICT_PASS;
}
