#include "fast_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sample_window.h"

#define CHECK_MAX_SAMPLES 1024
/* a change of a 100 ms counter is placed within half a millisecond: 0.1 % of the window, and the
 * driver's lock is taken a thousand times a second rather than five thousand while the tests run */
#define COUNTER_POLL_MS 1.0
#define SAMPLES_POLL_MS 5.0
#define MIN_COVERED_SHARE 0.95

double power_samples_energy(const struct power_sample *samples, unsigned n, double period_ms, double from_ms,
                            double to_ms, double *covered_ms)
{
    double joules = 0, covered = 0;
    for (unsigned i = 0; i < n; ++i) {
        /* The driver stamps a sample when it takes it, and the stamps jitter (8 to 31 ms apart at a
         * 20 ms period on an H100): a sample covers the time since the one before, unless that is a
         * gap (more than SAMPLE_GAP_FACTOR periods), where it covers one period. */
        double end = samples[i].at_ms, begin = end - period_ms;
        if (i > 0 && end - samples[i - 1].at_ms <= SAMPLE_GAP_FACTOR * period_ms)
            begin = samples[i - 1].at_ms;
        double a = begin > from_ms ? begin : from_ms, b = end < to_ms ? end : to_ms;
        if (b > a) {
            joules += samples[i].watts * (b - a) / 1000.0;
            covered += b - a;
        }
    }
    *covered_ms = covered;
    return joules;
}

void fast_check_judge(struct fast_check *c, double covered_ms)
{
    c->agreed = false;
    double window_ms = c->seconds * 1000.0;
    if (!(c->counter_joules > 0) || window_ms <= 0) {
        snprintf(c->reason, sizeof(c->reason),
                 "the energy counter did not move over the check's window, so the samples could not be checked");
        return;
    }
    c->error_pct = (c->samples_joules - c->counter_joules) / c->counter_joules * 100.0;
    if (covered_ms < MIN_COVERED_SHARE * window_ms) {
        snprintf(c->reason, sizeof(c->reason),
                 "the driver's power samples covered %.0f of the check's %.0f ms (gaps, or a buffer that stopped)",
                 covered_ms, window_ms);
        return;
    }
    if (fabs(c->error_pct) > FAST_CHECK_TOLERANCE_PCT) {
        snprintf(
            c->reason, sizeof(c->reason),
            "over %.2f s the driver's power samples gave %.4g J and the energy counter %.4g J (%+.1f %%, more than "
            "the %g %% allowed): the counter is used",
            c->seconds, c->samples_joules, c->counter_joules, c->error_pct, FAST_CHECK_TOLERANCE_PCT);
        return;
    }
    c->agreed = true;
    c->reason[0] = '\0';
}

static double step_period(const struct power_sample *s, unsigned n)
{
    /* the median step: a gap or a repeated stamp moves it little */
    double steps[CHECK_MAX_SAMPLES];
    unsigned m = 0;
    for (unsigned i = 1; i < n; ++i)
        if (s[i].at_ms > s[i - 1].at_ms)
            steps[m++] = s[i].at_ms - s[i - 1].at_ms;
    if (m == 0)
        return 0;
    for (unsigned i = 1; i < m; ++i)
        for (unsigned j = i; j > 0 && steps[j - 1] > steps[j]; --j) {
            double t = steps[j];
            steps[j] = steps[j - 1];
            steps[j - 1] = t;
        }
    return steps[m / 2];
}

void power_fast_check(struct power_source *source, double duration_ms, const struct power_clock *clock,
                      struct fast_check *out)
{
    memset(out, 0, sizeof(*out));
    if (clock == NULL)
        clock = &power_real_clock;
    if (source->read_samples == NULL || source->quantity != POWER_ENERGY_JOULES) {
        snprintf(out->reason, sizeof(out->reason), "no energy counter and sample buffer to check against each other");
        return;
    }
    struct power_sample *samples = malloc(CHECK_MAX_SAMPLES * sizeof(*samples));
    if (samples == NULL) {
        snprintf(out->reason, sizeof(out->reason), "out of memory");
        return;
    }
    unsigned count = 0;
    char error[256] = "";
    /* what the buffer held before the window is not needed: drained first */
    struct power_sample drain[64];
    while (source->read_samples(source, drain, 64, error, sizeof(error)) == 64)
        ;
    double value, before = clock->now_ms();
    if (!source->read(source, &value, error, sizeof(error))) {
        snprintf(out->reason, sizeof(out->reason), "the energy counter could not be read: %s", error);
        goto done;
    }
    double last_read = clock->now_ms(), start = before, last_samples_read = before;
    double first_edge = 0, last_edge = 0, first_value = 0, last_value = value;
    unsigned changes = 0;
    while (clock->now_ms() - start < duration_ms) {
        clock->sleep_ms(COUNTER_POLL_MS);
        double v, t0 = clock->now_ms();
        if (!source->read(source, &v, error, sizeof(error))) {
            snprintf(out->reason, sizeof(out->reason), "the energy counter stopped answering: %s", error);
            goto done;
        }
        double t = (t0 + clock->now_ms()) / 2;
        if (v != last_value) {
            double edge = (last_read + t) / 2;
            if (v < last_value) { /* wrapped or reset: the window begins again here */
                changes = 0;
                count = 0;
            }
            if (changes++ == 0) {
                first_edge = edge;
                first_value = v;
            }
            last_edge = edge;
            last_value = v;
        }
        last_read = t;
        if (t - last_samples_read >= SAMPLES_POLL_MS && count < CHECK_MAX_SAMPLES) {
            int got = source->read_samples(source, samples + count, CHECK_MAX_SAMPLES - count, error, sizeof(error));
            if (got < 0) {
                snprintf(out->reason, sizeof(out->reason), "the driver's power samples could not be read: %s", error);
                goto done;
            }
            count += (unsigned)got;
            last_samples_read = t;
        }
    }
    /* samples for the window's last period may be published a little after it */
    clock->sleep_ms(2 * SAMPLES_POLL_MS);
    int got = source->read_samples(source, samples + count, CHECK_MAX_SAMPLES - count, error, sizeof(error));
    if (got > 0)
        count += (unsigned)got;
    out->ran = true;
    out->period_ms = step_period(samples, count);
    if (changes < 2) {
        snprintf(out->reason, sizeof(out->reason),
                 "the energy counter changed %u times in %.0f ms: nothing to check "
                 "the samples against",
                 changes, duration_ms);
        goto done;
    }
    out->seconds = (last_edge - first_edge) / 1000.0;
    out->counter_period_ms = (last_edge - first_edge) / (changes - 1);
    out->counter_joules = last_value - first_value;
    double covered = 0;
    out->samples_joules = power_samples_energy(samples, count, out->period_ms, first_edge, last_edge, &covered);
    fast_check_judge(out, covered);
done:
    free(samples);
}
