#include "fleet_verdict.h"

#include <stdio.h>
#include <string.h>

#include "items.h"

#define HOSTS_NAMED 6 /* machines named in a detail; the rest are counted */

void fleet_combine(const struct machine_verdict *v, size_t count, struct fleet_verdict *out)
{
    memset(out, 0, sizeof(*out));
    out->machines = (int)count;
    bool same = true;
    for (size_t i = 0; i < count; ++i) {
        out->passing += strcmp(v[i].verdict, "pass") == 0;
        out->failing += items_verdict_failing(v[i].verdict);
        same = same && strcmp(v[i].verdict, v[0].verdict) == 0;
    }
    snprintf(out->verdict, sizeof(out->verdict), "%s", count == 0 ? "" : same ? v[0].verdict : ITEM_VERDICT_FLAKY);
    if (count == 0)
        return;
    if (same) { /* the verdict is beside it on every page: only where it was seen */
        if (count == 1)
            snprintf(out->detail, sizeof(out->detail), "on 1 machine: %s", *v[0].host ? v[0].host : "(no host label)");
        else
            snprintf(out->detail, sizeof(out->detail), "on all %zu machines", count);
        return;
    }
    /* one clause per verdict other than pass, in the order first met: "fail on 2 of 3 machines: a, b" */
    size_t at = 0;
    for (size_t i = 0; i < count && at < sizeof(out->detail); ++i) {
        if (strcmp(v[i].verdict, "pass") == 0)
            continue;
        bool first = true;
        for (size_t j = 0; j < i; ++j)
            first = first && strcmp(v[j].verdict, v[i].verdict) != 0;
        if (!first)
            continue;
        size_t with = 0;
        for (size_t j = i; j < count; ++j)
            with += strcmp(v[j].verdict, v[i].verdict) == 0;
        at += (size_t)snprintf(out->detail + at, sizeof(out->detail) - at,
                               "%s%s on %zu of %zu machines:", at ? "; " : "", v[i].verdict, with, count);
        size_t named = 0;
        for (size_t j = i; j < count && at < sizeof(out->detail); ++j) {
            if (strcmp(v[j].verdict, v[i].verdict) != 0)
                continue;
            if (named++ < HOSTS_NAMED)
                at += (size_t)snprintf(out->detail + at, sizeof(out->detail) - at, "%s %s", named > 1 ? "," : "",
                                       *v[j].host ? v[j].host : "(no host label)");
        }
        if (named > HOSTS_NAMED && at < sizeof(out->detail))
            at += (size_t)snprintf(out->detail + at, sizeof(out->detail) - at, " and %zu more", named - HOSTS_NAMED);
    }
}

enum fleet_change fleet_compare(const char *before, const char *after)
{
    if (strcmp(before, after) == 0)
        return FLEET_SAME;
    bool passed = strcmp(before, "pass") == 0, passes = strcmp(after, "pass") == 0;
    if (passed)
        return FLEET_REGRESSION;
    if (strcmp(before, ITEM_VERDICT_FLAKY) == 0 && items_verdict_failing(after))
        return FLEET_REGRESSION;
    if (passes && items_verdict_failing(before))
        return FLEET_FIX;
    return FLEET_CHANGED;
}
