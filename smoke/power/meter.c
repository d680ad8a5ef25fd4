#include "meter.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "fast_check.h"

/* The source is read every POLL_MS while a batch runs, so a change is placed within about that;
 * samples of MIN_SAMPLE_MS or more keep that within steady.h's STEADY_TIMING_SHARE. */
#define MIN_SAMPLE_MS 10.0
#define POLL_MS 0.05
#define PERIOD_POLL_MS 0.2
/* How long the background opener watches the counter to learn its update period. */
#define PERIOD_PROBE_MS 300.0
#define MAX_SHARED_BASELINES 8

struct shared_baseline {
    char key[96];
    char test[96];
    struct power_phase phase;
};

struct power_meter {
    struct power_options options;
    struct power_device_id id;
    pthread_t opener;
    bool opener_running;
    /* written by the opener, read after it is joined */
    bool open;
    struct power_source source;
    char reason[640];
    double period_ms; /* the counter's update period as the opener saw it; 0: unknown */
    /* the fast source (the driver's sample buffer), where the opener found it agrees with the counter */
    struct fast_check check;
    bool fast;

    double spent_ms;
    char test[96];
    struct shared_baseline baselines[MAX_SHARED_BASELINES];
    unsigned baseline_count;
};

void power_not_sampled(struct power_signal *signal, const char *format, ...)
{
    signal->measured = false;
    signal->source = NULL;
    va_list args;
    va_start(args, format);
    vsnprintf(signal->reason, sizeof(signal->reason), format, args);
    va_end(args);
}

static void *open_sensor(void *argument)
{
    struct power_meter *m = argument;
    m->open = power_source_open(&m->source, &m->id, m->reason, sizeof(m->reason));
    if (m->open) {
        char error[256];
        /* the check watches the counter too, so it tells the counter's period where it runs */
        if (m->source.read_samples != NULL && m->options.counter_only)
            snprintf(m->check.reason, sizeof(m->check.reason), "not checked: --power-counter-only");
        else if (m->source.read_samples != NULL) {
            power_fast_check(&m->source, FAST_CHECK_MS, m->options.clock, &m->check);
            m->fast = m->check.agreed;
            m->period_ms = m->check.counter_period_ms;
        }
        if (m->period_ms <= 0)
            m->period_ms = power_update_period(&m->source, PERIOD_PROBE_MS, PERIOD_POLL_MS, m->options.clock, error,
                                               sizeof(error));
    }
    return NULL;
}

struct power_meter *power_meter_create(const struct power_device_id *id, const struct power_options *options)
{
    struct power_meter *m = calloc(1, sizeof(*m));
    if (m == NULL)
        return NULL;
    m->options = *options;
    if (m->options.clock == NULL)
        m->options.clock = &power_real_clock;
    m->id = *id;
    if (options->disabled)
        return m;
    /* in the background: the tests before the first one that samples power hide its cost */
    m->opener_running = pthread_create(&m->opener, NULL, open_sensor, m) == 0;
    if (!m->opener_running)
        open_sensor(m);
    return m;
}

static void join_opener(struct power_meter *m)
{
    if (m->opener_running) {
        pthread_join(m->opener, NULL);
        m->opener_running = false;
    }
}

void power_meter_destroy(struct power_meter *m)
{
    if (m == NULL)
        return;
    join_opener(m);
    if (m->open)
        power_source_close(&m->source);
    free(m);
}

void power_meter_begin_test(struct power_meter *m, const char *test_id)
{
    if (m != NULL)
        snprintf(m->test, sizeof(m->test), "%s", test_id);
}

static double phase_bound(const struct power_meter *m)
{
    double left = m->options.budget_s * 1000.0 - m->spent_ms;
    return left < m->options.phase_ms ? left : m->options.phase_ms;
}

/* false (and the signal says why) when no phase can be sampled now. */
static bool can_sample(const struct power_meter *m, double bound, struct power_signal *signal)
{
    /* a sample spans at least one update, and the first update under load may take a whole period;
     * the fast source's first sample wholly under load ends one to two of its periods in */
    double needed = m->fast            ? 4 * m->check.period_ms
                    : m->period_ms > 0 ? 3 * (m->period_ms > MIN_SAMPLE_MS ? m->period_ms : MIN_SAMPLE_MS)
                                       : POWER_MIN_PHASE_MS;
    if (needed < POWER_MIN_PHASE_MS)
        needed = POWER_MIN_PHASE_MS;
    if (needed <= bound)
        return true;
    if (bound < m->options.phase_ms)
        power_not_sampled(signal,
                          "not sampled: earlier tests spent this run's power budget (%g s, --power-budget); %.0f ms "
                          "are left, a phase needs about %.0f",
                          m->options.budget_s, bound > 0 ? bound : 0, needed);
    else
        power_not_sampled(signal,
                          "not sampled: the %s (%s) updates about every %.0f ms; two samples under load need "
                          "about %.0f ms per phase, more than the %.0f ms a phase may take (--power-phase-ms)",
                          m->source.quantity == POWER_ENERGY_JOULES ? "energy counter" : "power reading",
                          m->source.name, m->period_ms, needed, bound);
    return false;
}

static void sample(struct power_meter *m, const struct power_load *load, double bound, struct power_phase *phase)
{
    struct power_limits limits = {
        .bound_ms = bound, .min_sample_ms = MIN_SAMPLE_MS, .poll_ms = POLL_MS, .clock = m->options.clock};
    double start = m->options.clock->now_ms();
    if (m->fast) {
        power_sample_phase_fast(&m->source, load, &limits, m->check.period_ms, phase);
        if (!phase->measured && strstr(phase->reason, "the driver's power samples") != NULL) {
            /* the buffer failed or stopped: the counter takes over for the rest of the run */
            m->fast = m->check.agreed = false;
            snprintf(m->check.reason, sizeof(m->check.reason), "used until %.60s: %.200s", m->test, phase->reason);
            power_sample_phase(&m->source, load, &limits, phase);
        }
    } else {
        power_sample_phase(&m->source, load, &limits, phase);
    }
    m->spent_ms += m->options.clock->now_ms() - start;
}

static const struct shared_baseline *shared(const struct power_meter *m, const char *key)
{
    for (unsigned i = 0; key != NULL && i < m->baseline_count; ++i)
        if (strcmp(m->baselines[i].key, key) == 0)
            return &m->baselines[i];
    return NULL;
}

static void share(struct power_meter *m, const char *key, const struct power_phase *phase)
{
    if (key == NULL || m->baseline_count >= MAX_SHARED_BASELINES)
        return;
    struct shared_baseline *b = &m->baselines[m->baseline_count++];
    snprintf(b->key, sizeof(b->key), "%s", key);
    snprintf(b->test, sizeof(b->test), "%s", m->test);
    b->phase = *phase;
}

void power_meter_measure(struct power_meter *m, const struct power_measurement *what, cJSON *evidence,
                         struct power_signal *signal)
{
    if (m == NULL) {
        power_not_sampled(signal, "not sampled: this process has no power meter");
        return;
    }
    if (m->options.disabled) {
        power_not_sampled(signal, "not sampled: --no-power");
        return;
    }
    /* not counted in the budget: at most the opener's probe (PERIOD_PROBE_MS), mostly behind earlier tests */
    join_opener(m);
    if (!m->open) {
        power_not_sampled(signal, "%s", m->reason);
        return;
    }
    double bound = phase_bound(m);
    if (!can_sample(m, bound, signal))
        return;
    struct power_phase baseline, feature;
    const struct shared_baseline *earlier = shared(m, what->baseline_key);
    if (earlier != NULL) {
        baseline = earlier->phase;
    } else {
        sample(m, what->baseline, bound, &baseline);
        if (!baseline.measured) {
            power_not_sampled(signal, "the baseline pass: %s", baseline.reason);
            return;
        }
        share(m, what->baseline_key, &baseline);
    }
    bound = phase_bound(m);
    if (!can_sample(m, bound, signal))
        return;
    sample(m, what->feature, bound, &feature);
    if (!feature.measured) {
        power_not_sampled(signal, "the pass with the feature: %s", feature.reason);
        return;
    }
    double period = feature.update_period_ms > 0 ? feature.update_period_ms : m->period_ms;
    cJSON_AddItemToObject(evidence, "power",
                          power_evidence(&m->source, what->what, period, &baseline, earlier ? earlier->test : NULL,
                                         &feature, m->source.read_samples != NULL ? &m->check : NULL));
    signal->measured = true;
    signal->source = m->source.name;
    signal->reason[0] = '\0';
}
