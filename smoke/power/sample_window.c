#include "sample_window.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "steady.h"

void sample_window_begin(struct sample_window *w, double load_start_ms, double period_ms)
{
    memset(w, 0, sizeof(*w));
    w->load_start_ms = load_start_ms;
    w->period_ms = period_ms;
    w->newest_ms = -INFINITY;
}

static void take(struct sample_window *w, const struct power_sample *s)
{
    if (w->count < SAMPLE_WINDOW_MAX) {
        w->taken[w->count++] = *s;
    } else { /* the decision and the figures look at the last few */
        memmove(w->taken, w->taken + 1, (SAMPLE_WINDOW_MAX - 1) * sizeof(*s));
        w->taken[SAMPLE_WINDOW_MAX - 1] = *s;
    }
}

static void add_one(struct sample_window *w, const struct power_sample *s)
{
    if (!(s->at_ms > w->newest_ms)) { /* seen before, or older than one taken: also refuses NaN */
        w->out_of_order++;
        return;
    }
    bool first = !isfinite(w->newest_ms);
    double previous = w->newest_ms, step = s->at_ms - previous;
    w->newest_ms = s->at_ms;
    if (!first && w->period_ms <= 0)
        w->period_ms = step; /* the first step shows the period; a gap there is not known as one */
    bool gap = !first && step > SAMPLE_GAP_FACTOR * w->period_ms;
    if (gap) {
        w->gaps++;
        w->gap_ms += step - w->period_ms;
    }
    /* its time began at the sample before (or, with none known, a nominal period earlier): before
     * the load began, it mixes idle and load */
    double began = !first && !gap ? previous : s->at_ms - w->period_ms;
    if (w->period_ms <= 0 || began < w->load_start_ms) {
        w->partial++;
        return;
    }
    take(w, s);
}

void sample_window_add(struct sample_window *w, const struct power_sample *batch, unsigned n)
{
    /* sorted here: a batch is small and nearly in order */
    struct power_sample sorted[SAMPLE_WINDOW_MAX];
    if (n > SAMPLE_WINDOW_MAX) {
        batch += n - SAMPLE_WINDOW_MAX;
        n = SAMPLE_WINDOW_MAX;
    }
    for (unsigned i = 0; i < n; ++i) {
        unsigned at = i;
        for (; at > 0 && sorted[at - 1].at_ms > batch[i].at_ms; --at)
            sorted[at] = sorted[at - 1];
        sorted[at] = batch[i];
        if (at != i)
            w->out_of_order++;
    }
    for (unsigned i = 0; i < n; ++i)
        add_one(w, &sorted[i]);
}

static void last_watts(const struct sample_window *w, unsigned n, double *out)
{
    for (unsigned i = 0; i < n; ++i)
        out[i] = w->taken[w->count - n + i].watts;
}

bool sample_window_settled(const struct sample_window *w)
{
    if (w->count < STEADY_WINDOW)
        return false;
    double watts[STEADY_WINDOW], mean, cv;
    last_watts(w, STEADY_WINDOW, watts);
    power_mean_cv(watts, STEADY_WINDOW, &mean, &cv);
    return cv < STEADY_SPREAD_LIMIT;
}

bool sample_window_figures(const struct sample_window *w, double elapsed_ms, struct sample_figures *f, char *reason,
                           size_t size)
{
    memset(f, 0, sizeof(*f));
    if (w->count < 2) {
        snprintf(reason, size,
                 "the driver's power samples gave %u wholly under load in %.0f ms (%u began before the load, %u "
                 "came again or out of order, %u gaps): a figure needs 2",
                 w->count, elapsed_ms, w->partial, w->out_of_order, w->gaps);
        return false;
    }
    f->samples = w->count < STEADY_WINDOW ? w->count : STEADY_WINDOW;
    double watts[STEADY_WINDOW], cv;
    last_watts(w, f->samples, watts);
    power_mean_cv(watts, f->samples, &f->mean_watts, &cv);
    f->spread_pct = cv * 100.0;
    f->settled = sample_window_settled(w);
    f->covered_ms = w->count * w->period_ms;
    /* twice the standard error of the mean (about 95 %), and where the buffer skipped time the
     * uncovered share is power nobody saw: counted in full rather than guessed */
    double standard_error_pct = f->spread_pct / sqrt((double)f->samples);
    double uncovered = f->covered_ms + w->gap_ms > 0 ? w->gap_ms / (f->covered_ms + w->gap_ms) : 0;
    f->uncertainty_pct = 2.0 * standard_error_pct + 100.0 * uncovered;
    return true;
}
