#include "sampler.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "sample_window.h"
#include "steady.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static void sleep_ms(double ms)
{
    struct timespec ts = {.tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)((ms - (time_t)(ms / 1000) * 1000) * 1e6)};
    nanosleep(&ts, NULL);
}

/* How often the fast source's buffer is read while a batch runs: a sample every 20 ms is seen
 * within a few milliseconds of its end, at a cost of one driver call. */
#define FAST_POLL_MS 2.0
#define FAST_BATCH_SAMPLES 256

const struct power_clock power_real_clock = {.now_ms = now_ms, .sleep_ms = sleep_ms};

/* A reading and when it was taken (the middle of the call: a driver query can take a while). */
static bool read_at(struct power_source *source, const struct power_clock *clock, double *value, double *at_ms,
                    char *error, size_t size)
{
    double before = clock->now_ms();
    bool ok = source->read(source, value, error, size);
    *at_ms = (before + clock->now_ms()) / 2;
    return ok;
}

double power_update_period(struct power_source *source, double max_ms, double poll_ms, const struct power_clock *clock,
                           char *error, size_t size)
{
    if (clock == NULL)
        clock = &power_real_clock;
    double value, at;
    if (!read_at(source, clock, &value, &at, error, size))
        return 0;
    struct steady s;
    steady_begin(&s, source->quantity, 0, at, value);
    while (s.changes < 3 && at - s.start_ms < max_ms) {
        clock->sleep_ms(poll_ms);
        if (!read_at(source, clock, &value, &at, error, size))
            return 0;
        steady_observe(&s, at, value);
    }
    return steady_update_period_ms(&s);
}

static void load_failed(const struct power_load *load, const char *when, struct power_phase *out)
{
    const char *why = load->error != NULL ? load->error(load->context) : NULL;
    snprintf(out->reason, sizeof(out->reason), "the measured passes failed %s%s%s", when, why ? ": " : "",
             why ? why : "");
}

/* Submits the next batch; while the GPU works, reads the driver's own power figure (the latest
 * one read is kept). false, with the reason in `out`, when the submission failed. */
static bool start_batch(struct power_source *source, const struct power_load *load, struct power_phase *out)
{
    if (!load->submit(load->context)) {
        load_failed(load, "to submit", out);
        return false;
    }
    char watts_error[128];
    if (source->read_watts != NULL)
        out->has_reported_watts |= source->read_watts(source, &out->reported_watts, watts_error, sizeof(watts_error));
    return true;
}

void power_sample_phase(struct power_source *source, const struct power_load *load, const struct power_limits *limits,
                        struct power_phase *out)
{
    memset(out, 0, sizeof(*out));
    const struct power_clock *clock = limits->clock != NULL ? limits->clock : &power_real_clock;
    if (!load->record(load->context)) {
        load_failed(load, "to record", out);
        return;
    }
    char error[384] = "";
    double value, at;
    if (!read_at(source, clock, &value, &at, error, sizeof(error))) {
        snprintf(out->reason, sizeof(out->reason), "the sensor could not be read: %s", error);
        return;
    }
    struct steady s;
    steady_begin(&s, source->quantity, limits->min_sample_ms, at, value);
    bool readable = true;
    double elapsed = 0;
    for (;;) {
        if (!start_batch(source, load, out))
            return;
        int done;
        do {
            done = load->wait(load->context, limits->poll_ms);
            if (done < 0) {
                load_failed(load, "on the device", out);
                return;
            }
            /* after a failed read the batch still runs to its end: nothing is left pending */
            if (readable && (readable = read_at(source, clock, &value, &at, error, sizeof(error))))
                steady_observe(&s, at, value);
        } while (done == 0);
        out->passes += load->passes_per_batch;
        elapsed = clock->now_ms() - s.start_ms;
        if (!readable) {
            snprintf(out->reason, sizeof(out->reason), "the sensor stopped answering mid-run: %s", error);
            return;
        }
        if (steady_settled(&s) || elapsed >= limits->bound_ms)
            break;
    }
    out->seconds = elapsed / 1000.0;
    out->update_period_ms = steady_update_period_ms(&s);
    out->wraps = s.wraps;
    out->samples_taken = s.count;
    struct steady_figures f;
    if (!steady_figures(&s, elapsed, &f, out->reason, sizeof(out->reason)))
        return;
    out->mean_watts = f.mean_watts;
    out->spread_pct = f.spread_pct;
    out->samples = f.samples;
    out->settled = f.settled;
    /* twice the standard error of the mean of the samples behind the figure */
    out->uncertainty_pct = 2.0 * f.spread_pct / sqrt((double)f.samples);
    /* the load ran without pause: each pass had an equal share of the time, at the mean power */
    out->joules_per_pass = f.mean_watts * out->seconds / (double)out->passes;
    out->measured = true;
}

static bool take_samples(struct power_source *source, struct sample_window *w, char *error, size_t size)
{
    struct power_sample batch[FAST_BATCH_SAMPLES];
    int got;
    while ((got = source->read_samples(source, batch, FAST_BATCH_SAMPLES, error, size)) > 0) {
        sample_window_add(w, batch, (unsigned)got);
        if (got < FAST_BATCH_SAMPLES)
            break;
    }
    return got >= 0;
}

void power_sample_phase_fast(struct power_source *source, const struct power_load *load,
                             const struct power_limits *limits, double period_ms, struct power_phase *out)
{
    memset(out, 0, sizeof(*out));
    out->fast = true;
    const struct power_clock *clock = limits->clock != NULL ? limits->clock : &power_real_clock;
    if (!load->record(load->context)) {
        load_failed(load, "to record", out);
        return;
    }
    char error[384] = "";
    struct sample_window w;
    /* the samples from before the load are not this phase's */
    sample_window_begin(&w, -1e300, period_ms);
    if (!take_samples(source, &w, error, sizeof(error))) {
        snprintf(out->reason, sizeof(out->reason), "the driver's power samples could not be read: %s", error);
        return;
    }
    double start = clock->now_ms(), drained_newest = w.newest_ms;
    sample_window_begin(&w, start, period_ms > 0 ? period_ms : w.period_ms);
    /* the newest sample before the load: the first one after it covers the time since, idle and load */
    w.newest_ms = drained_newest;
    double elapsed = 0, last_read = start;
    for (;;) {
        if (!start_batch(source, load, out))
            return;
        int done;
        do {
            done = load->wait(load->context, FAST_POLL_MS);
            if (done < 0) {
                load_failed(load, "on the device", out);
                return;
            }
            double now = clock->now_ms();
            if (now - last_read >= FAST_POLL_MS) {
                last_read = now;
                if (!take_samples(source, &w, error, sizeof(error))) {
                    snprintf(out->reason, sizeof(out->reason),
                             "the driver's power samples stopped answering mid-run: %s", error);
                    return;
                }
            }
        } while (done == 0);
        out->passes += load->passes_per_batch;
        elapsed = clock->now_ms() - start;
        if (sample_window_settled(&w) || elapsed >= limits->bound_ms)
            break;
    }
    out->seconds = elapsed / 1000.0;
    out->sample_period_ms = w.period_ms;
    out->update_period_ms = w.period_ms;
    out->gaps = w.gaps;
    out->samples_taken = w.count;
    struct sample_figures f;
    if (!sample_window_figures(&w, elapsed, &f, out->reason, sizeof(out->reason)))
        return;
    out->mean_watts = f.mean_watts;
    out->spread_pct = f.spread_pct;
    out->samples = f.samples;
    out->settled = f.settled;
    out->uncertainty_pct = f.uncertainty_pct;
    out->joules_per_pass = f.mean_watts * out->seconds / (double)out->passes;
    out->measured = true;
}
