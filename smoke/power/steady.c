#include "steady.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void steady_begin(struct steady *s, enum power_quantity quantity, double min_sample_ms, double start_ms, double value)
{
    memset(s, 0, sizeof(*s));
    s->quantity = quantity;
    s->min_sample_ms = s->first_min_sample_ms = min_sample_ms;
    s->start_ms = start_ms;
    s->last_value = value;
    s->last_read_ms = start_ms;
    s->last_change_ms = start_ms;
}

static void push(struct steady *s, double watts)
{
    if (s->count < STEADY_MAX_SAMPLES) {
        s->watts[s->count++] = watts;
    } else { /* keep the newest: the decision looks at the last few */
        memmove(s->watts, s->watts + 1, (STEADY_MAX_SAMPLES - 1) * sizeof(double));
        s->watts[STEADY_MAX_SAMPLES - 1] = watts;
    }
}

static void anchor(struct steady *s, double edge_ms, double halfwidth, double value)
{
    s->anchored = true;
    s->anchor_ms = edge_ms;
    s->anchor_halfwidth = halfwidth;
    s->anchor_value = value;
}

static void observe_change(struct steady *s, double edge_ms, double halfwidth, double value)
{
    if (s->quantity == POWER_ENERGY_JOULES && value < s->last_value) {
        /* wrapped or reset: the energy since the anchor is unknown; begin a new sample here */
        s->wraps++;
        anchor(s, edge_ms, halfwidth, value);
        return;
    }
    if (s->changes++ == 0)
        s->first_change_ms = edge_ms;
    s->last_change_ms = edge_ms;
    if (!s->anchored) {
        anchor(s, edge_ms, halfwidth, value);
        if (s->quantity == POWER_WATTS)
            push(s, value);
        return;
    }
    double length = edge_ms - s->anchor_ms;
    if (length < s->min_sample_ms - 1e-6) /* times are sums of doubles: a hair short is long enough */
        return;
    if (s->anchor_halfwidth + halfwidth > STEADY_TIMING_SHARE * length) {
        /* longer samples make the same lateness weigh less */
        s->imprecise++;
        if (s->min_sample_ms * 2 <= s->first_min_sample_ms * STEADY_MAX_LENGTHENING)
            s->min_sample_ms *= 2;
    } else
        push(s, s->quantity == POWER_ENERGY_JOULES ? (value - s->anchor_value) / (length / 1000.0) : value);
    anchor(s, edge_ms, halfwidth, value);
}

void steady_observe(struct steady *s, double at_ms, double value)
{
    if (value != s->last_value)
        observe_change(s, (s->last_read_ms + at_ms) / 2, (at_ms - s->last_read_ms) / 2, value);
    s->last_value = value;
    s->last_read_ms = at_ms;
}

double steady_update_period_ms(const struct steady *s)
{
    return s->changes >= 2 ? (s->last_change_ms - s->first_change_ms) / (s->changes - 1) : 0;
}

void power_mean_cv(const double *values, unsigned n, double *mean, double *cv)
{
    double sum = 0;
    for (unsigned i = 0; i < n; ++i)
        sum += values[i];
    *mean = n > 0 ? sum / n : 0;
    double squares = 0;
    for (unsigned i = 0; i < n; ++i)
        squares += (values[i] - *mean) * (values[i] - *mean);
    *cv = n > 1 && *mean > 0 ? sqrt(squares / (n - 1)) / *mean : INFINITY;
}

static void window_of(const struct steady *s, unsigned n, double *mean, double *cv)
{
    power_mean_cv(s->watts + s->count - n, n, mean, cv);
}

bool steady_settled(const struct steady *s)
{
    if (s->count < STEADY_WINDOW)
        return false;
    double mean, cv;
    window_of(s, STEADY_WINDOW, &mean, &cv);
    return cv < STEADY_SPREAD_LIMIT;
}

bool steady_figures(const struct steady *s, double elapsed_ms, struct steady_figures *f, char *reason, size_t size)
{
    memset(f, 0, sizeof(*f));
    if (s->count < 2) {
        const char *what = s->quantity == POWER_ENERGY_JOULES ? "energy counter" : "power reading";
        char wrapped[128] = "";
        if (s->wraps > 0)
            snprintf(wrapped, sizeof(wrapped),
                     "; it went backwards %u times (a wrap or reset: those intervals dropped)", s->wraps);
        if (s->changes == 0)
            snprintf(reason, size, "the %s did not change in %.0f ms under load (stalled, or it updates less often)%s",
                     what, elapsed_ms, wrapped);
        else if (s->imprecise > 0)
            snprintf(reason, size,
                     "the %s changed %u times in %.0f ms under load, but %u samples (lengthened up to %.0f ms) were "
                     "dropped: their ends were not seen within %g%% of their length (the probe was not scheduled "
                     "often enough)%s",
                     what, s->changes, elapsed_ms, s->imprecise, s->min_sample_ms, STEADY_TIMING_SHARE * 100, wrapped);
        else
            snprintf(reason, size,
                     "the %s changed %u times in %.0f ms under load: %u samples of at least %.0f ms, a figure needs "
                     "2 (too coarse for the time this phase may take)%s",
                     what, s->changes, elapsed_ms, s->count, s->min_sample_ms, wrapped);
        return false;
    }
    f->samples = s->count < STEADY_WINDOW ? s->count : STEADY_WINDOW;
    double cv;
    window_of(s, f->samples, &f->mean_watts, &cv);
    f->spread_pct = cv * 100.0;
    f->settled = steady_settled(s);
    return true;
}
