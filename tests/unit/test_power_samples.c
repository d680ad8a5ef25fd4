/* The fast power source without a GPU: the sample window over made-up buffers (a 20 ms period,
 * gaps, a buffer that wrapped before it was read, batches out of order, samples seen twice, a
 * buffer that stops); the energy of samples over a window and the check against the counter;
 * a phase over a fake buffer on a clock the test moves; NVML's sample buffer through the fake
 * library (fake_nvml.c): its timestamps' clock found, the check agreeing and refusing, and the
 * meter measuring from samples and falling back to the counter. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "fast_check.h"
#include "meter.h"
#include "power_source.h"
#include "sample_window.h"
#include "sampler.h"
#include "steady.h"

static struct power_sample at(double ms, double watts)
{
    return (struct power_sample){.at_ms = ms, .watts = watts};
}

/* --- the window --- */

static void window_takes_whole_periods_under_load(void **state)
{
    (void)state;
    struct sample_window w;
    sample_window_begin(&w, 1005, 20); /* the load began 5 ms into the period ending at 1020 */
    struct power_sample batch[] = {at(1000, 80), at(1020, 150), at(1040, 300), at(1060, 301), at(1080, 299)};
    sample_window_add(&w, batch, 5);
    assert_int_equal(w.partial, 2); /* 1000 is idle's, 1020 began before the load */
    assert_int_equal(w.count, 3);
    assert_true(sample_window_settled(&w));
    struct sample_figures f;
    char reason[256];
    assert_true(sample_window_figures(&w, 80, &f, reason, sizeof(reason)));
    assert_int_equal(f.samples, STEADY_WINDOW);
    assert_true(f.mean_watts > 299.9 && f.mean_watts < 300.1);
    assert_true(f.spread_pct < 1);
    assert_true(f.uncertainty_pct > 0 && f.uncertainty_pct < 1.5); /* 2 x (0.33 % / sqrt 3) */
}

static void window_period_is_learnt_and_ramps_do_not_settle(void **state)
{
    (void)state;
    struct sample_window w;
    sample_window_begin(&w, 995, 0);
    struct power_sample ramp[] = {at(1000, 100), at(1020, 150), at(1040, 200), at(1060, 250)};
    sample_window_add(&w, ramp, 4);
    assert_true(w.period_ms > 19.99 && w.period_ms < 20.01);
    assert_int_equal(w.count, 3); /* 1000 showed no period; 1020 began at 1000, after the load */
    assert_false(sample_window_settled(&w));
    struct power_sample flat[] = {at(1080, 250), at(1100, 251)};
    sample_window_add(&w, flat, 2);
    assert_true(sample_window_settled(&w)); /* the last three: 250, 250, 251 */
}

static void window_orders_batches_and_drops_repeats(void **state)
{
    (void)state;
    struct sample_window w;
    sample_window_begin(&w, 1000, 20);
    struct power_sample backwards[] = {at(1060, 200), at(1040, 200), at(1020, 200)};
    sample_window_add(&w, backwards, 3);
    assert_int_equal(w.count, 3);
    assert_true(w.taken[0].at_ms < w.taken[1].at_ms && w.taken[1].at_ms < w.taken[2].at_ms);
    struct power_sample again[] = {at(1060, 200), at(1050, 999), at(1080, 200)};
    sample_window_add(&w, again, 3); /* 1060 seen, 1050 older than the newest taken */
    assert_int_equal(w.count, 4);
    assert_true(w.out_of_order >= 2);
    assert_int_equal(w.gaps, 0);
}

static void window_counts_gaps_and_a_wrapped_buffer(void **state)
{
    (void)state;
    struct sample_window w;
    sample_window_begin(&w, 1000, 20);
    struct power_sample a[] = {at(1020, 200), at(1040, 200), at(1100, 200)}; /* two missing */
    sample_window_add(&w, a, 3);
    assert_int_equal(w.gaps, 1);
    assert_true(w.gap_ms > 39.9 && w.gap_ms < 40.1);
    /* read too late: the buffer kept only its newest, 2.4 s after the last seen */
    struct power_sample late[] = {at(3500, 200), at(3520, 200)};
    sample_window_add(&w, late, 2);
    assert_int_equal(w.gaps, 2);
    struct sample_figures f;
    char reason[256];
    assert_true(sample_window_figures(&w, 2520, &f, reason, sizeof(reason)));
    /* time nobody sampled weighs in the uncertainty, in full */
    assert_true(f.uncertainty_pct > 90);
}

static void window_without_samples_gives_a_reason(void **state)
{
    (void)state;
    struct sample_window w;
    sample_window_begin(&w, 1000, 20);
    struct power_sample one[] = {at(1010, 200), at(1040, 200)};
    sample_window_add(&w, one, 2);
    struct sample_figures f;
    char reason[256] = "";
    assert_false(sample_window_figures(&w, 60, &f, reason, sizeof(reason)));
    assert_string_equal(reason, "the driver's power samples gave 1 wholly under load in 60 ms (1 began before the "
                                "load, 0 came again or out of order, 0 gaps): a figure needs 2");
    assert_true(f.mean_watts == 0); /* no number */
}

/* --- energy over a window and the check --- */

static void samples_energy_over_a_window(void **state)
{
    (void)state;
    struct power_sample s[] = {at(1020, 100), at(1040, 200), at(1060, 300)};
    double covered = 0;
    /* [1010, 1050]: half of the first period, the second, half of the third */
    double joules = power_samples_energy(s, 3, 20, 1010, 1050, &covered);
    assert_true(covered > 39.99 && covered < 40.01);
    double expected = (100 * 10 + 200 * 20 + 300 * 10) / 1000.0;
    assert_true(joules > expected - 1e-9 && joules < expected + 1e-9);
    /* stamps that jitter as an H100's do (8 to 31 ms apart): each covers the time since the one before */
    struct power_sample jitter[] = {at(1020, 100), at(1051, 100), at(1059, 100), at(1080, 100)};
    joules = power_samples_energy(jitter, 4, 20, 1000, 1080, &covered);
    assert_true(covered > 79.99 && covered < 80.01);
    assert_true(joules > 7.999 && joules < 8.001);
    struct sample_window w;
    sample_window_begin(&w, 990, 20);
    sample_window_add(&w, jitter, 4);
    assert_int_equal(w.gaps, 0);
    assert_int_equal(w.count, 4);
    /* a gap leaves time uncovered */
    struct power_sample gap[] = {at(1020, 100), at(1080, 100)};
    power_samples_energy(gap, 2, 20, 1000, 1080, &covered);
    assert_true(covered > 39.99 && covered < 40.01);
}

static void check_tolerance_and_coverage(void **state)
{
    (void)state;
    struct fast_check c = {.seconds = 1.0, .counter_joules = 200, .samples_joules = 209};
    fast_check_judge(&c, 1000);
    assert_true(c.agreed);
    assert_true(c.error_pct > 4.49 && c.error_pct < 4.51);
    c.samples_joules = 179;
    fast_check_judge(&c, 1000);
    assert_false(c.agreed);
    assert_non_null(strstr(c.reason, "(-10.5 %, more than the 10 % allowed): the counter is used"));
    c.samples_joules = 200;
    fast_check_judge(&c, 900);
    assert_false(c.agreed);
    assert_non_null(strstr(c.reason, "covered 900 of the check's 1000 ms"));
    c.counter_joules = 0;
    fast_check_judge(&c, 1000);
    assert_false(c.agreed);
    assert_non_null(strstr(c.reason, "did not move"));
}

/* --- a phase over a fake buffer, on a clock the test moves --- */

static double test_ms = 5000;
static double test_clock(void)
{
    return test_ms += 0.01;
}
static void test_advance(double ms)
{
    test_ms += ms;
}
static const struct power_clock test_time = {.now_ms = test_clock, .sleep_ms = test_advance};

struct fake_buffer {
    double period_ms, watts, published_ms; /* the newest sample handed out */
    int reads, stop_after, fail_after;     /* 0: never */
};

static int fake_read_samples(struct power_source *s, struct power_sample *out, unsigned max, char *error, size_t size)
{
    struct fake_buffer *b = s->state;
    if (b->fail_after && ++b->reads > b->fail_after) {
        snprintf(error, size, "nvmlDeviceGetSamples failed: GPU is lost");
        return -1;
    }
    if (b->stop_after && b->reads++ >= b->stop_after)
        return 0;
    unsigned n = 0;
    double now = test_ms;
    /* the newest sample ended at the last whole period; this fake returns them newest first */
    double newest = (double)(long long)(now / b->period_ms) * b->period_ms;
    for (double t = newest; t > b->published_ms && n < max; t -= b->period_ms)
        out[n++] = at(t, b->watts + ((long long)(t / b->period_ms) % 2) * 0.5);
    if (n > 0)
        b->published_ms = newest;
    return (int)n;
}

static bool fake_unused_read(struct power_source *s, double *value, char *error, size_t size)
{
    (void)s, (void)value;
    snprintf(error, size, "the counter is not read by a fast phase");
    return false;
}

struct fake_load {
    double batch_ms, started_ms;
    int batches;
};
static bool fake_record(void *context)
{
    (void)context;
    return true;
}
static bool fake_submit(void *context)
{
    struct fake_load *l = context;
    l->started_ms = test_ms;
    l->batches++;
    return true;
}
static int fake_wait(void *context, double timeout_ms)
{
    struct fake_load *l = context;
    double left = l->started_ms + l->batch_ms - test_ms;
    test_advance(left < timeout_ms ? (left > 0 ? left : 0) : timeout_ms);
    return test_ms >= l->started_ms + l->batch_ms;
}

static void fast_phase_on_a_fake_buffer(void **state)
{
    (void)state;
    struct fake_buffer b = {.period_ms = 20, .watts = 310, .published_ms = 0};
    struct power_source s = {.name = "nvml",
                             .quantity = POWER_ENERGY_JOULES,
                             .read = fake_unused_read,
                             .read_samples = fake_read_samples,
                             .state = &b};
    struct fake_load fake = {.batch_ms = 4};
    struct power_load load = {
        .record = fake_record, .submit = fake_submit, .wait = fake_wait, .passes_per_batch = 16, .context = &fake};
    struct power_limits limits = {.bound_ms = 400, .min_sample_ms = 10, .poll_ms = 0.05, .clock = &test_time};
    struct power_phase p;
    power_sample_phase_fast(&s, &load, &limits, 20, &p);
    assert_true(p.measured);
    assert_true(p.fast);
    assert_true(p.settled);
    assert_true(p.mean_watts > 309.9 && p.mean_watts < 310.6);
    /* the first period wholly under load, then STEADY_WINDOW samples: about 60-90 ms, not 300 */
    assert_true(p.seconds > 0.059 && p.seconds < 0.1);
    assert_int_equal(p.passes, 16 * (uint64_t)fake.batches);
    double expected = p.mean_watts * p.seconds / (double)p.passes;
    assert_true(p.joules_per_pass > expected * 0.999 && p.joules_per_pass < expected * 1.001);
    assert_true(p.uncertainty_pct > 0 && p.uncertainty_pct < 1);

    /* a buffer that stops: no figure, a reason */
    b = (struct fake_buffer){.period_ms = 20, .watts = 310, .stop_after = 2};
    power_sample_phase_fast(&s, &load, &limits, 20, &p);
    assert_false(p.measured);
    assert_non_null(strstr(p.reason, "the driver's power samples gave"));
    assert_true(p.seconds >= 0.4); /* it ran to its bound */
    /* a buffer that fails */
    b = (struct fake_buffer){.period_ms = 20, .watts = 310, .fail_after = 3};
    power_sample_phase_fast(&s, &load, &limits, 20, &p);
    assert_false(p.measured);
    assert_string_equal(
        p.reason, "the driver's power samples stopped answering mid-run: nvmlDeviceGetSamples failed: GPU is lost");
}

/* --- NVML's buffer through the fake library, on the machine's clocks --- */

static int reset_fake_nvml(void **state)
{
    (void)state;
    setenv("PREFLIGHT_NVML_LIBRARY", FAKE_NVML_PATH, 1);
    setenv("FAKE_NVML_CLOCK", "monotonic", 1);
    setenv("FAKE_NVML_SAMPLES", "on", 1);
    setenv("FAKE_NVML_PERIOD_MS", "20", 1);
    unsetenv("FAKE_NVML_SAMPLE_CLOCK");
    unsetenv("FAKE_NVML_SAMPLE_MS");
    unsetenv("FAKE_NVML_MODE");
    unsetenv("FAKE_NVML_WATTS");
    return 0;
}

static const struct power_device_id h100 = {.has_pci = true, .pci_bus = 0x18};

static double monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static void nvml_samples_on_the_callers_clock(void **state)
{
    (void)state;
    const char *clocks[] = {"realtime", "monotonic"};
    for (int c = 0; c < 2; ++c) {
        setenv("FAKE_NVML_SAMPLE_CLOCK", clocks[c], 1);
        setenv("FAKE_NVML_SAMPLES", c == 0 ? "on" : "reversed", 1);
        struct power_source s;
        char reason[512] = "", error[256] = "";
        assert_true(nvml_source_open(&s, &h100, reason, sizeof(reason)));
        assert_non_null(s.read_samples);
        assert_non_null(strstr(s.samples_sensor, "nvmlDeviceGetSamples(NVML_TOTAL_POWER_SAMPLES) (mW, 120 kept)"));
        struct power_sample out[200];
        int n = s.read_samples(&s, out, 200, error, sizeof(error));
        assert_int_equal(n, 120);
        double now = monotonic_ms();
        /* converted to CLOCK_MONOTONIC, oldest first, 20 ms apart, in watts */
        assert_true(out[n - 1].at_ms <= now + 1 && out[n - 1].at_ms > now - 500); /* 20 ms, or a descheduled test */
        for (int i = 1; i < n; ++i)
            assert_true(out[i].at_ms - out[i - 1].at_ms > 19.9 && out[i].at_ms - out[i - 1].at_ms < 20.1);
        assert_true(out[0].watts >= 250 && out[0].watts < 250.01);
        /* only what is new: nothing, or the one or two samples since */
        n = s.read_samples(&s, out, 200, error, sizeof(error));
        assert_true(n >= 0 && n <= 2);
        power_source_close(&s);
    }
    /* timestamps on no clock the probe has */
    setenv("FAKE_NVML_SAMPLE_CLOCK", "bogus", 1);
    setenv("FAKE_NVML_SAMPLES", "on", 1);
    struct power_source s;
    char reason[512] = "", error[256] = "";
    assert_true(nvml_source_open(&s, &h100, reason, sizeof(reason)));
    struct power_sample out[8];
    assert_int_equal(s.read_samples(&s, out, 8, error, sizeof(error)), -1);
    assert_non_null(strstr(error, "is on neither the wall clock"));
    power_source_close(&s);
    /* a driver without the buffer: the counter alone */
    setenv("FAKE_NVML_SAMPLES", "off", 1);
    assert_true(nvml_source_open(&s, &h100, reason, sizeof(reason)));
    assert_null(s.read_samples);
    power_source_close(&s);
}

static void nvml_check_agrees_and_refuses(void **state)
{
    (void)state;
    struct power_source s;
    char reason[512] = "";
    struct fast_check c;
    assert_true(nvml_source_open(&s, &h100, reason, sizeof(reason)));
    power_fast_check(&s, 300, NULL, &c);
    assert_true(c.ran);
    assert_true(c.agreed);
    assert_true(c.error_pct > -FAST_CHECK_TOLERANCE_PCT && c.error_pct < FAST_CHECK_TOLERANCE_PCT);
    assert_true(c.period_ms > 19.9 && c.period_ms < 20.1);
    assert_true(c.seconds > 0.2);
    power_source_close(&s);

    setenv("FAKE_NVML_SAMPLES", "disagree", 1);
    assert_true(nvml_source_open(&s, &h100, reason, sizeof(reason)));
    power_fast_check(&s, 300, NULL, &c);
    assert_false(c.agreed);
    assert_true(c.error_pct > 40 && c.error_pct < 60);
    assert_non_null(strstr(c.reason, "the counter is used"));
    power_source_close(&s);

    setenv("FAKE_NVML_SAMPLES", "stops-after:3", 1);
    assert_true(nvml_source_open(&s, &h100, reason, sizeof(reason)));
    power_fast_check(&s, 300, NULL, &c);
    assert_false(c.agreed);
    assert_non_null(strstr(c.reason, "the driver's power samples covered"));
    power_source_close(&s);
}

/* a load on the machine's clock: the fake NVML's power does not depend on it */
struct timed_load {
    double batch_ms, started_ms;
};
static bool timed_submit(void *context)
{
    struct timed_load *l = context;
    l->started_ms = monotonic_ms();
    return true;
}
static int timed_wait(void *context, double timeout_ms)
{
    struct timed_load *l = context;
    double left = l->started_ms + l->batch_ms - monotonic_ms();
    if (left > 0)
        power_real_clock.sleep_ms(left < timeout_ms ? left : timeout_ms);
    return monotonic_ms() >= l->started_ms + l->batch_ms;
}

static void meter_measures_from_samples(void **state)
{
    (void)state;
    struct power_options o = {.budget_s = 10, .phase_ms = 400};
    struct power_meter *m = power_meter_create(&h100, &o);
    assert_non_null(m);
    /* batches of 20 ms: a late wake-up (a loaded machine, a sanitizer build) is a small part of each */
    struct timed_load base = {.batch_ms = 20}, with = {.batch_ms = 20};
    struct power_load baseline = {
        .record = fake_record, .submit = timed_submit, .wait = timed_wait, .passes_per_batch = 10, .context = &base};
    struct power_load feature = baseline;
    feature.passes_per_batch = 20;
    feature.context = &with;
    struct power_measurement what = {.what = "a pass", .baseline = &baseline, .feature = &feature};
    power_meter_begin_test(m, "t.fast");
    cJSON *evidence = cJSON_CreateObject();
    struct power_signal signal;
    power_meter_measure(m, &what, evidence, &signal);
    assert_true(signal.measured);
    const cJSON *power = cJSON_GetObjectItem(evidence, "power");
    assert_string_equal(cJSON_GetObjectItem(power, "quantity")->valuestring, "power samples");
    assert_non_null(strstr(cJSON_GetObjectItem(power, "sensor")->valuestring, "nvmlDeviceGetSamples"));
    const cJSON *check = cJSON_GetObjectItem(power, "fast_source");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(check, "used")));
    const cJSON *phase = cJSON_GetObjectItem(power, "feature");
    assert_string_equal(cJSON_GetObjectItem(phase, "from")->valuestring, "samples");
    assert_non_null(cJSON_GetObjectItem(phase, "uncertainty_pct"));
    double ratio = cJSON_GetObjectItem(power, "ratio")->valuedouble;
    assert_true(ratio > 0.45 && ratio < 0.55); /* twice the passes in the same time */
    cJSON_Delete(evidence);
    power_meter_destroy(m);

    /* samples that disagree with the counter: the counter measures, and the evidence says why */
    setenv("FAKE_NVML_SAMPLES", "disagree", 1);
    m = power_meter_create(&h100, &o);
    evidence = cJSON_CreateObject();
    power_meter_measure(m, &what, evidence, &signal);
    assert_true(signal.measured);
    power = cJSON_GetObjectItem(evidence, "power");
    assert_string_equal(cJSON_GetObjectItem(power, "quantity")->valuestring, "energy counter");
    check = cJSON_GetObjectItem(power, "fast_source");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(check, "used")));
    assert_non_null(strstr(cJSON_GetObjectItem(check, "reason")->valuestring, "the counter is used"));
    phase = cJSON_GetObjectItem(power, "baseline");
    assert_string_equal(cJSON_GetObjectItem(phase, "from")->valuestring, "readings");
    cJSON_Delete(evidence);
    power_meter_destroy(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(window_takes_whole_periods_under_load),
        cmocka_unit_test(window_period_is_learnt_and_ramps_do_not_settle),
        cmocka_unit_test(window_orders_batches_and_drops_repeats),
        cmocka_unit_test(window_counts_gaps_and_a_wrapped_buffer),
        cmocka_unit_test(window_without_samples_gives_a_reason),
        cmocka_unit_test(samples_energy_over_a_window),
        cmocka_unit_test(check_tolerance_and_coverage),
        cmocka_unit_test(fast_phase_on_a_fake_buffer),
        cmocka_unit_test_setup(nvml_samples_on_the_callers_clock, reset_fake_nvml),
        cmocka_unit_test_setup(nvml_check_agrees_and_refuses, reset_fake_nvml),
        cmocka_unit_test_setup(meter_measures_from_samples, reset_fake_nvml),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
