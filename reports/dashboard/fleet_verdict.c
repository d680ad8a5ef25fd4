#include "fleet_verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "items.h"

#define HOSTS_NAMED 6 /* machines named in a detail; the rest are counted */

bool fleet_verdict_ran(const char *verdict)
{
    return strcmp(verdict, "pass") == 0 || items_verdict_failing(verdict);
}

static const char *host_of(const struct machine_verdict *v)
{
    return *v->host ? v->host : "(no host label)";
}

/* Appends "<verdict> on <n> of <of> machines: a, b" for every verdict `wanted` accepts, one clause
 * per verdict in the order first met. */
static size_t clauses(const struct machine_verdict *v, size_t count, bool (*wanted)(const char *), size_t of,
                      char *detail, size_t size, size_t at)
{
    for (size_t i = 0; i < count && at < size; ++i) {
        if (!wanted(v[i].verdict))
            continue;
        bool first = true;
        for (size_t j = 0; j < i; ++j)
            first = first && strcmp(v[j].verdict, v[i].verdict) != 0;
        if (!first)
            continue;
        size_t with = 0;
        for (size_t j = i; j < count; ++j)
            with += strcmp(v[j].verdict, v[i].verdict) == 0;
        at += (size_t)snprintf(detail + at, size - at, "%s%s on %zu of %zu machines:", at ? "; " : "", v[i].verdict,
                               with, of);
        size_t named = 0;
        for (size_t j = i; j < count && at < size; ++j) {
            if (strcmp(v[j].verdict, v[i].verdict) != 0)
                continue;
            if (named++ < HOSTS_NAMED)
                at += (size_t)snprintf(detail + at, size - at, "%s %s", named > 1 ? "," : "", host_of(&v[j]));
        }
        if (named > HOSTS_NAMED && at < size)
            at += (size_t)snprintf(detail + at, size - at, " and %zu more", named - HOSTS_NAMED);
    }
    return at;
}

static bool not_run(const char *verdict)
{
    return !fleet_verdict_ran(verdict);
}

static bool failing(const char *verdict)
{
    return items_verdict_failing(verdict);
}

void fleet_combine(const struct machine_verdict *v, size_t count, struct fleet_verdict *out)
{
    memset(out, 0, sizeof(*out));
    if (count == 0)
        return;
    size_t runs = 0, unsupported = 0;
    const char *failing_kind = NULL; /* the failing verdict every failing machine gave, NULL where they differ */
    bool kinds_agree = true;
    for (size_t i = 0; i < count; ++i) {
        if (!fleet_verdict_ran(v[i].verdict)) {
            unsupported += strcmp(v[i].verdict, "unsupported") == 0;
            continue;
        }
        ++runs;
        out->passing += strcmp(v[i].verdict, "pass") == 0;
        if (items_verdict_failing(v[i].verdict)) {
            ++out->failing;
            kinds_agree = kinds_agree && (failing_kind == NULL || strcmp(failing_kind, v[i].verdict) == 0);
            failing_kind = v[i].verdict;
        }
    }
    const char *verdict = runs == 0           ? (unsupported ? "unsupported" : "skipped")
                          : out->failing == 0 ? "pass"
                          : out->passing > 0  ? ITEM_VERDICT_FLAKY
                          : kinds_agree       ? failing_kind
                                              : "fail";
    snprintf(out->verdict, sizeof(out->verdict), "%s", verdict);
    out->machines = (int)(runs ? runs : count);
    size_t at = 0, size = sizeof(out->detail);
    if (runs == 0) {
        clauses(v, count, not_run, count, out->detail, size, 0);
        return;
    }
    if (out->failing == 0 || (out->passing == 0 && kinds_agree)) { /* they agree: only where it was seen */
        const struct machine_verdict *ran = v;
        while (!fleet_verdict_ran(ran->verdict))
            ++ran;
        if (runs == 1)
            at = (size_t)snprintf(out->detail, size, "on 1 machine: %s", host_of(ran));
        else
            at = (size_t)snprintf(out->detail, size, "on all %zu machines", runs);
    } else {
        at = clauses(v, count, failing, runs, out->detail, size, 0);
    }
    if (runs < count && at < size) { /* the machines that did not run it, named: none of them counted */
        at += (size_t)snprintf(out->detail + at, size - at, "; not run on %zu:", count - runs);
        size_t named = 0;
        for (size_t j = 0; j < count && at < size; ++j)
            if (!fleet_verdict_ran(v[j].verdict) && named++ < HOSTS_NAMED)
                at += (size_t)snprintf(out->detail + at, size - at, "%s %s (%s)", named > 1 ? "," : "", host_of(&v[j]),
                                       v[j].verdict);
        if (named > HOSTS_NAMED && at < size)
            snprintf(out->detail + at, size - at, " and %zu more", named - HOSTS_NAMED);
    }
}

enum fleet_change fleet_compare(const char *before, const char *after)
{
    if (strcmp(before, after) == 0 || strcmp(before, "skipped") == 0 || strcmp(after, "skipped") == 0 || !*before ||
        !*after)
        return FLEET_SAME; /* a driver on which no machine ran the test says nothing of a change */
    bool passed = strcmp(before, "pass") == 0, passes = strcmp(after, "pass") == 0;
    if (passed)
        return FLEET_REGRESSION;
    if (strcmp(before, ITEM_VERDICT_FLAKY) == 0 && items_verdict_failing(after))
        return FLEET_REGRESSION;
    if (passes && items_verdict_failing(before))
        return FLEET_FIX;
    return FLEET_CHANGED;
}

enum fleet_change fleet_measured_change(const struct fleet_measure *before, const struct fleet_measure *after)
{
    if (before->runs == 0 || after->runs == 0)
        return FLEET_SAME;
    if (after->low > before->high)
        return FLEET_REGRESSION;
    if (after->high < before->low)
        return FLEET_FIX;
    return FLEET_SAME;
}

void fleet_measure_text(const struct fleet_measure *m, char *out, size_t size)
{
    snprintf(out, size, "failure rate %.0f %% of %d run%s (%.0f %% interval %.0f-%.0f %%)", 100 * m->rate, m->runs,
             m->runs == 1 ? "" : "s", 100 * FLEET_CONFIDENCE, 100 * m->low, 100 * m->high);
}
