#include "fleet_measure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void fleet_measure(int runs, int failures, struct fleet_measure *out)
{
    memset(out, 0, sizeof(*out));
    out->runs = runs;
    out->failures = failures;
    out->high = 1;
    if (runs <= 0) {
        snprintf(out->verdict, sizeof(out->verdict), "unknown");
        return;
    }
    double n = runs, p = (double)failures / n, z2 = FLEET_Z * FLEET_Z;
    double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    double half = FLEET_Z * sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
    out->rate = p;
    out->low = failures == 0 ? 0 : fmax(0, centre - half);
    out->high = failures == runs ? 1 : fmin(1, centre + half);
    const char *verdict = failures > 0 && failures < runs                          ? "flaky"
                          : failures == 0 && out->high < FLEET_DECISIVE_RATE       ? "pass"
                          : failures == runs && out->low > 1 - FLEET_DECISIVE_RATE ? "fail"
                                                                                   : "unknown";
    snprintf(out->verdict, sizeof(out->verdict), "%s", verdict);
}

bool verdict_is_failure(enum verdict v)
{
    return v == VERDICT_FAIL || v == VERDICT_NOT_APPLIED || v == VERDICT_CRASHED || v == VERDICT_TIMEOUT ||
           v == VERDICT_DEVICE_LOST;
}
