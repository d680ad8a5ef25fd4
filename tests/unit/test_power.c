/* The power signal without a GPU: the steady decision over made-up readings; DRM hwmon over a fake
 * sysfs tree whose counters advance, wrap, stall and vanish; NVML through the same dlopen path
 * with a fake library (fake_nvml.c, its behaviour set by environment); a phase run over a fake
 * load; the meter's evidence, shared baselines, budget and reasons. Every failure must give a
 * reason and no number. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include <dlfcn.h>

#include "evidence.h"
#include "meter.h"
#include "power_source.h"
#include "sampler.h"
#include "steady.h"

/* --- the steady decision --- */

/* A reading that changed at `at_ms`: the read just before still showed the old value. */
static void reading(struct steady *s, double at_ms, double value)
{
    steady_observe(s, at_ms - 0.05, s->last_value);
    steady_observe(s, at_ms, value);
}

/* An energy counter at `watts`, a change every `period_ms` from `from_ms` for `changes` changes;
 * returns the time of the last one. */
static double advance(struct steady *s, double *energy, double from_ms, double period_ms, double watts, int changes)
{
    double t = from_ms;
    for (int i = 0; i < changes; ++i) {
        t += period_ms;
        *energy += watts * period_ms / 1000.0;
        reading(s, t, *energy);
    }
    return t;
}

static void steady_counter_settles(void **state)
{
    (void)state;
    struct steady s;
    double energy = 100;
    steady_begin(&s, POWER_ENERGY_JOULES, 10, 0, energy);
    advance(&s, &energy, 0, 20, 200, 1); /* the first change only anchors: the time before it is stale */
    assert_int_equal(s.count, 0);
    advance(&s, &energy, 20, 20, 200, STEADY_WINDOW - 1);
    assert_false(steady_settled(&s)); /* one sample short of the window */
    advance(&s, &energy, 20.0 * STEADY_WINDOW, 20, 200, 1);
    assert_true(steady_settled(&s));
    struct steady_figures f;
    char reason[256] = "";
    assert_true(steady_figures(&s, 20.0 * (STEADY_WINDOW + 1), &f, reason, sizeof(reason)));
    assert_int_equal(f.samples, STEADY_WINDOW);
    assert_true(f.mean_watts > 199.999 && f.mean_watts < 200.001);
    assert_true(f.spread_pct < 1e-9);
    assert_true(f.settled);
    assert_true(steady_update_period_ms(&s) > 19.99 && steady_update_period_ms(&s) < 20.01);
}

/* Samples alternating 100 - x and 100 + x watts: coefficient of variation 1.1547 x / 100. */
static bool settles_with_swing(double x)
{
    struct steady s;
    double energy = 0, t = 0;
    steady_begin(&s, POWER_ENERGY_JOULES, 10, 0, energy);
    t = advance(&s, &energy, t, 10, 100, 1);
    for (int i = 0; i < 4; ++i)
        t = advance(&s, &energy, t, 10, i % 2 ? 100 + x : 100 - x, 1);
    assert_int_equal(s.count, 4);
    return steady_settled(&s);
}

static void steady_threshold_is_five_percent(void **state)
{
    (void)state;
    assert_true(settles_with_swing(4.2));  /* 4.85 % */
    assert_false(settles_with_swing(4.5)); /* 5.20 % */
}

static void steady_judges_the_last_window(void **state)
{
    (void)state;
    struct steady s;
    double energy = 0, t = 0;
    steady_begin(&s, POWER_ENERGY_JOULES, 10, 0, energy);
    t = advance(&s, &energy, t, 10, 90, 1);
    t = advance(&s, &energy, t, 10, 60, 2); /* clocks ramping up */
    t = advance(&s, &energy, t, 10, 300, 2);
    assert_false(steady_settled(&s));
    struct steady_figures f;
    char reason[256];
    assert_true(steady_figures(&s, t, &f, reason, sizeof(reason)));
    assert_false(f.settled);
    assert_true(f.spread_pct > 5); /* the figure is given, with its spread, but not settled */
    t = advance(&s, &energy, t, 10, 300, 2);
    assert_true(steady_settled(&s));
    assert_true(steady_figures(&s, t, &f, reason, sizeof(reason)));
    assert_true(f.mean_watts > 299.99 && f.mean_watts < 300.01);
}

static void steady_drops_a_wrapped_interval(void **state)
{
    (void)state;
    struct steady s;
    double energy = 4000, t = 0;
    steady_begin(&s, POWER_ENERGY_JOULES, 10, 0, energy);
    t = advance(&s, &energy, t, 10, 200, 3);
    energy = 0.5; /* wrapped */
    reading(&s, t += 10, energy);
    t = advance(&s, &energy, t, 10, 200, 4);
    assert_int_equal(s.wraps, 1);
    assert_int_equal(s.count, 2 + 4); /* the interval across the wrap is not a sample */
    struct steady_figures f;
    char reason[256];
    assert_true(steady_figures(&s, t, &f, reason, sizeof(reason)));
    assert_true(f.settled && f.mean_watts > 199.99 && f.mean_watts < 200.01);
}

static void steady_stalled_counter_gives_a_reason(void **state)
{
    (void)state;
    struct steady s;
    steady_begin(&s, POWER_ENERGY_JOULES, 10, 0, 55);
    for (int t = 1; t < 300; ++t)
        steady_observe(&s, t, 55);
    struct steady_figures f = {.mean_watts = -1};
    char reason[256] = "";
    assert_false(steady_figures(&s, 300, &f, reason, sizeof(reason)));
    assert_non_null(strstr(reason, "energy counter did not change in 300 ms"));
    assert_true(f.mean_watts == 0 && f.samples == 0); /* no number */
}

static void steady_coarse_counter_gives_a_reason(void **state)
{
    (void)state;
    struct steady s;
    double energy = 0;
    steady_begin(&s, POWER_ENERGY_JOULES, 10, 0, energy);
    advance(&s, &energy, 0, 150, 200, 2); /* two changes in 300 ms: one sample */
    struct steady_figures f;
    char reason[256] = "";
    assert_false(steady_figures(&s, 300, &f, reason, sizeof(reason)));
    assert_non_null(strstr(reason, "changed 2 times in 300 ms"));
    assert_non_null(strstr(reason, "too coarse"));
}

static void steady_short_updates_are_merged(void **state)
{
    (void)state;
    struct steady s;
    double energy = 0;
    steady_begin(&s, POWER_ENERGY_JOULES, 10, 0, energy);
    advance(&s, &energy, 0, 1, 200, 101); /* a counter updated every millisecond */
    assert_int_equal(s.count, 10);        /* samples of 10 ms, not 100 of 1 ms */
    assert_true(steady_settled(&s));
    assert_true(steady_update_period_ms(&s) > 0.99 && steady_update_period_ms(&s) < 1.01);
}

static void steady_power_readings(void **state)
{
    (void)state;
    struct steady s;
    steady_begin(&s, POWER_WATTS, 10, 0, 80); /* idle before the load */
    steady_observe(&s, 5, 80);                /* unchanged: stale */
    reading(&s, 12, 240);
    reading(&s, 15, 241); /* within 10 ms of the last sample */
    reading(&s, 30, 242);
    reading(&s, 45, 239);
    reading(&s, 60, 241);
    assert_int_equal(s.count, 4);
    assert_true(steady_settled(&s));
    struct steady_figures f;
    char reason[256];
    assert_true(steady_figures(&s, 60, &f, reason, sizeof(reason)));
    assert_true(f.mean_watts > 240 && f.mean_watts < 241);
}

/* A reader descheduled around a change knows its time only roughly: that sample is dropped. */
static void steady_drops_imprecise_samples(void **state)
{
    (void)state;
    struct steady s;
    double energy = 0, t = 0;
    steady_begin(&s, POWER_ENERGY_JOULES, 10, 0, energy);
    t = advance(&s, &energy, t, 10, 100, 3);
    energy += 100 * 0.020;
    steady_observe(&s, t += 20, energy); /* the read before was 20 ms earlier: the change is known to 10 ms */
    assert_int_equal(s.imprecise, 1);
    assert_int_equal(s.count, 2);
    assert_true(s.min_sample_ms == 20); /* what follows is measured over twice the time */
    t = advance(&s, &energy, t, 10, 100, 1);
    assert_int_equal(s.imprecise, 1); /* the next sample begins at that change: too short, not yet judged */
    t = advance(&s, &energy, t, 10, 100, 1);
    assert_int_equal(s.imprecise, 2); /* and dropped too: its start was known to 10 ms */
    assert_true(s.min_sample_ms == 40);
    t = advance(&s, &energy, t, 10, 100, 16);
    assert_int_equal(s.count, 6); /* four samples of 40 ms */
    struct steady_figures f;
    char reason[256];
    assert_true(steady_figures(&s, t, &f, reason, sizeof(reason)));
    assert_true(f.settled && f.mean_watts > 99.99 && f.mean_watts < 100.01);
    /* the lengthening stops at 8 times the first length */
    steady_begin(&s, POWER_ENERGY_JOULES, 10, 0, energy = 0);
    for (int i = 1; i <= 40; ++i)
        steady_observe(&s, i * 100.0, energy += 2);
    assert_true(s.min_sample_ms == 80);
    /* nothing but imprecise samples: no figure, and the reason says why */
    assert_false(steady_figures(&s, 4000, &f, reason, sizeof(reason)));
    assert_non_null(strstr(reason, "but 39 samples (lengthened up to 80 ms) were dropped: their ends were not seen "
                                   "within 5% of their length"));
}

/* --- a fake sysfs tree --- */

static char root[64];

static void write_file(const char *relative, const char *text)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", root, relative);
    for (char *slash = strchr(path + strlen(root) + 1, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(path, 0755);
        *slash = '/';
    }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void remove_tree(const char *path)
{
    char command[600];
    snprintf(command, sizeof(command), "rm -rf '%s'", path);
    assert_int_equal(system(command), 0);
}

static int make_tree(void **state)
{
    (void)state;
    snprintf(root, sizeof(root), "/tmp/preflight-hwmon-XXXXXX");
    assert_non_null(mkdtemp(root));
    setenv("PREFLIGHT_HWMON_ROOT", root, 1);
    /* card0 is another GPU; card1 is ours, with a connector beside it; renderD128 is no card */
    write_file("card0/device/uevent", "DRIVER=amdgpu\nPCI_SLOT_NAME=0000:03:00.0\n");
    write_file("card0/device/hwmon/hwmon2/energy1_input", "999\n");
    write_file("card1/device/uevent", "DRIVER=xe\nPCI_CLASS=30000\nPCI_SLOT_NAME=0000:0a:00.0\n");
    write_file("card1-DP-1/device/uevent", "PCI_SLOT_NAME=0000:0a:00.0\n");
    write_file("renderD128/device/uevent", "PCI_SLOT_NAME=0000:0a:00.0\n");
    write_file("card1/device/hwmon/hwmon4/name", "xe\n");
    write_file("card1/device/hwmon/hwmon4/power1_average", "41000000\n");
    write_file("card1/device/hwmon/hwmon4/energy1_input", "7000000\n");
    write_file("card1/device/hwmon/hwmon4/energy1_label", "pkg\n");
    write_file("card1/device/hwmon/hwmon4/energy2_input", "5000000\n");
    write_file("card1/device/hwmon/hwmon4/energy2_label", "card\n");
    return 0;
}

static int remove_root(void **state)
{
    (void)state;
    remove_tree(root);
    unsetenv("PREFLIGHT_HWMON_ROOT");
    return 0;
}

static const struct power_device_id ours = {
    .has_pci = true, .pci_domain = 0, .pci_bus = 0x0a, .pci_device = 0, .pci_function = 0};

static void hwmon_matches_by_pci_and_prefers_the_card_counter(void **state)
{
    (void)state;
    struct power_source s;
    char reason[512] = "";
    assert_true(hwmon_source_open(&s, &ours, reason, sizeof(reason)));
    assert_string_equal(s.name, "hwmon");
    assert_int_equal(s.quantity, POWER_ENERGY_JOULES);
    assert_string_equal(s.device_match, "PCI 0000:0a:00.0 (card1)");
    assert_non_null(strstr(s.sensor, "card1/device/hwmon/hwmon4/energy2_input")); /* labelled "card" */
    double value = 0, watts = 0;
    char error[512];
    assert_true(s.read(&s, &value, error, sizeof(error)));
    assert_true(value == 5.0); /* microjoules */
    assert_non_null(s.read_watts);
    assert_true(s.read_watts(&s, &watts, error, sizeof(error)));
    assert_true(watts == 41.0);
    power_source_close(&s);
}

static void hwmon_power_reading_without_a_counter(void **state)
{
    (void)state;
    write_file("card2/device/uevent", "PCI_SLOT_NAME=0000:0b:00.0\n");
    write_file("card2/device/hwmon/hwmon5/power1_input", "12000000\n");
    write_file("card2/device/hwmon/hwmon5/power1_average", "15500000\n");
    struct power_device_id id = {.has_pci = true, .pci_bus = 0x0b};
    struct power_source s;
    char reason[512] = "", error[512];
    assert_true(hwmon_source_open(&s, &id, reason, sizeof(reason)));
    assert_int_equal(s.quantity, POWER_WATTS);
    assert_non_null(strstr(s.sensor, "power1_average")); /* an average before an instantaneous reading */
    double watts;
    assert_true(s.read(&s, &watts, error, sizeof(error)));
    assert_true(watts == 15.5);
    assert_null(s.read_watts);
    power_source_close(&s);
}

static void hwmon_reasons(void **state)
{
    (void)state;
    struct power_source s;
    char reason[512] = "";
    struct power_device_id software = {.has_uuid = true};
    assert_false(hwmon_source_open(&s, &software, reason, sizeof(reason)));
    assert_non_null(strstr(reason, "no PCI address"));
    struct power_device_id elsewhere = {.has_pci = true, .pci_bus = 0x42};
    assert_false(hwmon_source_open(&s, &elsewhere, reason, sizeof(reason)));
    assert_non_null(strstr(reason, "names PCI 0000:42:00.0"));
    write_file("card3/device/uevent", "PCI_SLOT_NAME=0000:0c:00.0\n");
    write_file("card3/device/hwmon/hwmon6/temp1_input", "40000\n");
    struct power_device_id bare = {.has_pci = true, .pci_bus = 0x0c};
    assert_false(hwmon_source_open(&s, &bare, reason, sizeof(reason)));
    assert_non_null(strstr(reason, "card3 (PCI 0000:0c:00.0) has no energy*_input"));
    write_file("card4/device/uevent", "PCI_SLOT_NAME=0000:0d:00.0\n");
    write_file("card4/device/hwmon/hwmon7/energy1_input", "not a number\n");
    struct power_device_id garbled = {.has_pci = true, .pci_bus = 0x0d};
    assert_false(hwmon_source_open(&s, &garbled, reason, sizeof(reason)));
    assert_non_null(strstr(reason, "holds no number"));
    setenv("PREFLIGHT_HWMON_ROOT", "/nonexistent/drm", 1);
    assert_false(hwmon_source_open(&s, &ours, reason, sizeof(reason)));
    assert_non_null(strstr(reason, "/nonexistent/drm cannot be listed"));
    setenv("PREFLIGHT_HWMON_ROOT", root, 1);
}

static void hwmon_sensor_vanishes(void **state)
{
    (void)state;
    write_file("card5/device/uevent", "PCI_SLOT_NAME=0000:0e:00.0\n");
    write_file("card5/device/hwmon/hwmon8/energy1_input", "100\n");
    struct power_device_id id = {.has_pci = true, .pci_bus = 0x0e};
    struct power_source s;
    char reason[512] = "", error[512] = "";
    assert_true(hwmon_source_open(&s, &id, reason, sizeof(reason)));
    char path[512];
    snprintf(path, sizeof(path), "%s/card5/device/hwmon/hwmon8/energy1_input", root);
    assert_int_equal(unlink(path), 0);
    double value = -1;
    assert_false(s.read(&s, &value, error, sizeof(error)));
    assert_non_null(strstr(error, "energy1_input could not be read: No such file or directory"));
    power_source_close(&s);
}

/* --- a phase over a fake load, on a clock the test moves --- */

/* The hwmon tests' clock: it moves 0.01 ms each time it is read and as far as a load waits. */
static double test_ms = 1000;

static double test_clock(void)
{
    return test_ms += 0.01;
}

static void test_advance(double ms)
{
    test_ms += ms;
}

static const struct power_clock test_time = {.now_ms = test_clock, .sleep_ms = test_advance};

struct fake_load {
    const struct power_clock *clock;
    const char *counter;     /* the energy file it advances (microjoules); NULL: none */
    double watts, period_ms; /* the counter's update period */
    double batch_ms;
    double energy_uj, last_update_ms, started_ms;
    int batches;
    int wrap_after, vanish_after, fail_after; /* after this many batches (0: never) */
    bool wrapped;
};

static void fake_update(struct fake_load *l)
{
    double t = l->clock->now_ms();
    if (l->counter == NULL || t - l->last_update_ms < l->period_ms)
        return;
    l->energy_uj += l->watts * (t - l->last_update_ms) * 1000.0; /* W * ms = mJ */
    l->last_update_ms = t;
    if (l->wrap_after && l->batches >= l->wrap_after && !l->wrapped) {
        l->energy_uj = 3; /* once: the counter starts over */
        l->wrapped = true;
    }
    if (l->vanish_after && l->batches >= l->vanish_after) {
        unlink(l->counter);
        return;
    }
    FILE *f = fopen(l->counter, "w");
    if (f != NULL) {
        fprintf(f, "%.0f\n", l->energy_uj);
        fclose(f);
    }
}

static bool fake_record(void *context)
{
    (void)context;
    return true;
}

static bool fake_submit(void *context)
{
    struct fake_load *l = context;
    l->started_ms = l->clock->now_ms();
    return ++l->batches != l->fail_after || l->fail_after == 0;
}

static int fake_wait(void *context, double timeout_ms)
{
    struct fake_load *l = context;
    double left = l->started_ms + l->batch_ms - l->clock->now_ms();
    l->clock->sleep_ms(left < timeout_ms ? (left > 0 ? left : 0) : timeout_ms);
    fake_update(l);
    return l->clock->now_ms() >= l->started_ms + l->batch_ms;
}

static const char *fake_error(void *context)
{
    (void)context;
    return "vkQueueSubmit returned VkResult -4";
}

static struct power_load load_of(struct fake_load *l, uint32_t passes)
{
    return (struct power_load){.record = fake_record,
                               .submit = fake_submit,
                               .wait = fake_wait,
                               .error = fake_error,
                               .passes_per_batch = passes,
                               .context = l};
}

static struct fake_load counter_load(char *path, size_t size)
{
    snprintf(path, size, "%s/card6/device/hwmon/hwmon9/energy1_input", root);
    write_file("card6/device/uevent", "PCI_SLOT_NAME=0000:0f:00.0\n");
    write_file("card6/device/hwmon/hwmon9/energy1_input", "1000\n");
    return (struct fake_load){.clock = &test_time,
                              .counter = path,
                              .watts = 120,
                              .period_ms = 5,
                              .batch_ms = 4,
                              .energy_uj = 1000,
                              .last_update_ms = test_ms};
}

static void open_counter(struct power_source *s)
{
    struct power_device_id id = {.has_pci = true, .pci_bus = 0x0f};
    char reason[512];
    assert_true(hwmon_source_open(s, &id, reason, sizeof(reason)));
}

static const struct power_limits limits = {.bound_ms = 400, .min_sample_ms = 20, .poll_ms = 0.05, .clock = &test_time};

static void phase_settles_on_an_advancing_counter(void **state)
{
    (void)state;
    char path[512];
    struct fake_load fake = counter_load(path, sizeof(path));
    struct power_source s;
    open_counter(&s);
    struct power_load load = load_of(&fake, 8);
    struct power_phase p;
    power_sample_phase(&s, &load, &limits, &p);
    assert_true(p.measured);
    assert_true(p.settled);
    assert_int_equal(p.samples, STEADY_WINDOW);
    assert_true(p.mean_watts > 117.6 && p.mean_watts < 122.4); /* 120 W, to 2 % */
    assert_true(p.spread_pct < 5);
    assert_int_equal(p.passes, 8 * (uint64_t)fake.batches);
    assert_true(p.seconds > 0.06 && p.seconds < 0.2); /* the anchor, STEADY_WINDOW samples of 20 ms or more */
    /* the energy of a pass: the mean power times each pass's share of the time */
    double expected = p.mean_watts * p.seconds / (double)p.passes;
    assert_true(p.joules_per_pass > expected * 0.999 && p.joules_per_pass < expected * 1.001);
    assert_true(p.update_period_ms >= 5 && p.update_period_ms < 6);
    power_source_close(&s);
}

static void phase_survives_a_wrap(void **state)
{
    (void)state;
    char path[512];
    struct fake_load fake = counter_load(path, sizeof(path));
    fake.wrap_after = 8;
    struct power_source s;
    open_counter(&s);
    struct power_load load = load_of(&fake, 1);
    struct power_phase p;
    power_sample_phase(&s, &load, &limits, &p);
    assert_true(p.measured);
    assert_true(p.settled);
    assert_int_equal(p.wraps, 1);
    assert_true(p.mean_watts > 117.6 && p.mean_watts < 122.4);
    power_source_close(&s);
}

static void phase_stalled_counter_is_not_a_number(void **state)
{
    (void)state;
    char path[512];
    struct fake_load fake = counter_load(path, sizeof(path));
    fake.counter = NULL; /* never written */
    struct power_source s;
    open_counter(&s);
    struct power_load load = load_of(&fake, 1);
    struct power_phase p;
    power_sample_phase(&s, &load, &limits, &p);
    assert_false(p.measured);
    assert_non_null(strstr(p.reason, "the energy counter did not change in 40"));
    assert_true(p.joules_per_pass == 0 && p.mean_watts == 0);
    power_source_close(&s);
}

static void phase_coarse_counter_says_so(void **state)
{
    (void)state;
    char path[512];
    struct fake_load fake = counter_load(path, sizeof(path));
    fake.period_ms = 250; /* two updates in the 400 ms the phase may take: one sample */
    struct power_source s;
    open_counter(&s);
    struct power_load load = load_of(&fake, 1);
    struct power_phase p;
    power_sample_phase(&s, &load, &limits, &p);
    assert_false(p.measured);
    assert_non_null(strstr(p.reason, "changed 1 times"));
    assert_non_null(strstr(p.reason, "too coarse"));
    power_source_close(&s);
}

static void phase_counter_vanishing_mid_run(void **state)
{
    (void)state;
    char path[512];
    struct fake_load fake = counter_load(path, sizeof(path));
    fake.vanish_after = 4;
    struct power_source s;
    open_counter(&s);
    struct power_load load = load_of(&fake, 1);
    struct power_phase p;
    power_sample_phase(&s, &load, &limits, &p);
    assert_false(p.measured);
    assert_non_null(strstr(p.reason, "the sensor stopped answering mid-run"));
    assert_non_null(strstr(p.reason, "energy1_input could not be read: No such file or directory"));
    assert_true(p.joules_per_pass == 0);
    power_source_close(&s);
}

static void phase_load_failure(void **state)
{
    (void)state;
    char path[512];
    struct fake_load fake = counter_load(path, sizeof(path));
    fake.fail_after = 2;
    struct power_source s;
    open_counter(&s);
    struct power_load load = load_of(&fake, 1);
    struct power_phase p;
    power_sample_phase(&s, &load, &limits, &p);
    assert_false(p.measured);
    assert_string_equal(p.reason, "the measured passes failed to submit: vkQueueSubmit returned VkResult -4");
    power_source_close(&s);
}

/* --- NVML through the fake library, on its virtual clock --- */

static struct power_clock nvml_time;

static int reset_fake_nvml(void **state)
{
    (void)state;
    setenv("PREFLIGHT_NVML_LIBRARY", FAKE_NVML_PATH, 1);
    setenv("FAKE_NVML_CLOCK", "virtual", 1);
    unsetenv("FAKE_NVML_PCI");
    unsetenv("FAKE_NVML_UUID");
    unsetenv("FAKE_NVML_WATTS");
    unsetenv("FAKE_NVML_PERIOD_MS");
    unsetenv("FAKE_NVML_MODE");
    unsetenv("FAKE_NVML_WRAP_MJ");
    /* the library the sources load: this handle keeps it, and its clock, loaded between them */
    static void *library;
    if (library == NULL)
        library = dlopen(FAKE_NVML_PATH, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(library);
    *(void **)&nvml_time.now_ms = dlsym(library, "fake_nvml_clock");
    *(void **)&nvml_time.sleep_ms = dlsym(library, "fake_nvml_advance");
    assert_non_null(nvml_time.now_ms);
    assert_non_null(nvml_time.sleep_ms);
    return 0;
}

static struct fake_load nvml_load(void)
{
    return (struct fake_load){.clock = &nvml_time, .batch_ms = 4};
}

static const struct power_device_id h200 = {.has_pci = true,
                                            .pci_bus = 0x18,
                                            .has_uuid = true,
                                            .uuid = {0x1c, 0x2d, 0x3e, 0x4f, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}};

static void nvml_matches_by_pci_then_uuid(void **state)
{
    (void)state;
    struct power_source s;
    char reason[512] = "", error[256];
    assert_true(nvml_source_open(&s, &h200, reason, sizeof(reason)));
    assert_string_equal(s.name, "nvml");
    assert_string_equal(s.device_match, "PCI 0000:18:00.0");
    assert_int_equal(s.quantity, POWER_ENERGY_JOULES);
    assert_non_null(strstr(s.sensor, "nvmlDeviceGetTotalEnergyConsumption"));
    double joules, watts;
    assert_true(s.read(&s, &joules, error, sizeof(error)));
    assert_true(joules > 1000);
    assert_true(s.read_watts(&s, &watts, error, sizeof(error)));
    assert_true(watts >= 250 && watts < 250.01);
    power_source_close(&s);

    setenv("FAKE_NVML_PCI", "0000:99:00.0", 1);
    setenv("FAKE_NVML_UUID", "GPU-1c2d3e4f-0001-0203-0405-060708090a0b", 1);
    assert_true(nvml_source_open(&s, &h200, reason, sizeof(reason)));
    assert_string_equal(s.device_match, "UUID GPU-1c2d3e4f-0001-0203-0405-060708090a0b");
    power_source_close(&s);
}

static void nvml_reasons(void **state)
{
    (void)state;
    struct power_source s;
    char reason[512] = "";
    setenv("PREFLIGHT_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
    assert_false(nvml_source_open(&s, &h200, reason, sizeof(reason)));
    assert_non_null(strstr(reason, "NVML: /nonexistent/libnvidia-ml.so.1 could not be loaded"));
    setenv("PREFLIGHT_NVML_LIBRARY", FAKE_NVML_PATH, 1);
    setenv("FAKE_NVML_MODE", "init-fails", 1);
    assert_false(nvml_source_open(&s, &h200, reason, sizeof(reason)));
    assert_string_equal(reason, "NVML: nvmlInit_v2 failed: Unknown Error");
    unsetenv("FAKE_NVML_MODE");
    setenv("FAKE_NVML_PCI", "0000:99:00.0", 1);
    assert_false(nvml_source_open(&s, &h200, reason, sizeof(reason)));
    assert_string_equal(reason, "NVML knows no GPU at PCI 0000:18:00.0 (Not Found) nor with UUID "
                                "GPU-1c2d3e4f-0001-0203-0405-060708090a0b (Not Found)");
    struct power_device_id nameless = {0};
    assert_false(nvml_source_open(&s, &nameless, reason, sizeof(reason)));
    assert_non_null(strstr(reason, "neither a PCI address nor a UUID"));
    /* both sources: every attempt's reason */
    setenv("PREFLIGHT_HWMON_ROOT", "/nonexistent/drm", 1);
    assert_false(power_source_open(&s, &h200, reason, sizeof(reason)));
    assert_non_null(strstr(reason, "no power sensor for this device: NVML knows no GPU"));
    assert_non_null(strstr(reason, "; hwmon: /nonexistent/drm cannot be listed"));
    unsetenv("PREFLIGHT_HWMON_ROOT");
}

static void nvml_power_reading_without_a_counter(void **state)
{
    (void)state;
    setenv("FAKE_NVML_MODE", "power-only", 1);
    struct power_source s;
    char reason[512] = "";
    assert_true(nvml_source_open(&s, &h200, reason, sizeof(reason)));
    assert_int_equal(s.quantity, POWER_WATTS);
    assert_non_null(strstr(s.sensor, "nvmlDeviceGetPowerUsage"));
    assert_null(s.read_watts);
    struct fake_load fake = nvml_load();
    struct power_load load = load_of(&fake, 1);
    struct power_limits on_nvml = limits;
    on_nvml.clock = &nvml_time;
    struct power_phase p;
    power_sample_phase(&s, &load, &on_nvml, &p);
    assert_true(p.measured); /* a reading per change: the fake's moves a milliwatt each period */
    assert_true(p.mean_watts > 249.99 && p.mean_watts < 250.01);
    power_source_close(&s);
}

static void nvml_update_period_is_found(void **state)
{
    (void)state;
    setenv("FAKE_NVML_PERIOD_MS", "20", 1);
    struct power_source s;
    char reason[512] = "", error[256] = "";
    assert_true(nvml_source_open(&s, &h200, reason, sizeof(reason)));
    double period = power_update_period(&s, 300, 0.2, &nvml_time, error, sizeof(error));
    assert_true(period > 19.9 && period < 20.1);
    setenv("FAKE_NVML_MODE", "stall", 1);
    assert_true(power_update_period(&s, 50, 0.2, &nvml_time, error, sizeof(error)) == 0); /* unknown, not a guess */
    power_source_close(&s);
}

static void nvml_lost_mid_phase(void **state)
{
    (void)state;
    setenv("FAKE_NVML_MODE", "lost-after:20", 1);
    struct power_source s;
    char reason[512] = "";
    assert_true(nvml_source_open(&s, &h200, reason, sizeof(reason))); /* one read to choose the counter */
    struct fake_load fake = nvml_load();
    struct power_load load = load_of(&fake, 1);
    struct power_limits on_nvml = limits;
    on_nvml.clock = &nvml_time;
    struct power_phase p;
    power_sample_phase(&s, &load, &on_nvml, &p);
    assert_false(p.measured);
    assert_string_equal(p.reason, "the sensor stopped answering mid-run: nvmlDeviceGetTotalEnergyConsumption failed: "
                                  "GPU is lost");
    power_source_close(&s);
}

/* --- the meter --- */

static struct power_options options(double budget_s, double phase_ms)
{
    return (struct power_options){.budget_s = budget_s, .phase_ms = phase_ms, .clock = &nvml_time};
}

static void meter_measures_and_shares_the_baseline(void **state)
{
    (void)state;
    setenv("FAKE_NVML_PERIOD_MS", "20", 1);
    struct power_options o = options(10, 400);
    struct power_meter *m = power_meter_create(&h200, &o);
    assert_non_null(m);
    /* the same batch time: the feature does twice the passes, so half the energy per pass */
    struct fake_load base = nvml_load(), with = nvml_load();
    struct power_load baseline = load_of(&base, 10), feature = load_of(&with, 20);
    struct power_measurement what = {
        .what = "a pass", .baseline_key = "the empty pass", .baseline = &baseline, .feature = &feature};
    power_meter_begin_test(m, "t.first");
    cJSON *evidence = cJSON_CreateObject();
    struct power_signal signal;
    power_meter_measure(m, &what, evidence, &signal);
    assert_true(signal.measured);
    assert_string_equal(signal.source, "nvml");
    const cJSON *power = cJSON_GetObjectItem(evidence, "power");
    assert_non_null(power);
    assert_string_equal(cJSON_GetObjectItem(power, "source")->valuestring, "nvml");
    assert_string_equal(cJSON_GetObjectItem(power, "device_match")->valuestring, "PCI 0000:18:00.0");
    assert_string_equal(cJSON_GetObjectItem(power, "what")->valuestring, "a pass");
    double ratio = cJSON_GetObjectItem(power, "ratio")->valuedouble;
    assert_true(ratio > 0.49 && ratio < 0.51);
    double period = cJSON_GetObjectItem(power, "update_period_ms")->valuedouble;
    assert_true(period > 19.9 && period < 20.1);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(power, "settled")));
    static const char *const phase_keys[] = {"joules_per_pass", "mean_watts", "samples", "spread_pct", "settled"};
    for (int k = 0; k < 2; ++k) {
        const cJSON *phase = cJSON_GetObjectItem(power, k ? "feature" : "baseline");
        for (size_t i = 0; i < sizeof(phase_keys) / sizeof(phase_keys[0]); ++i)
            assert_non_null(cJSON_GetObjectItem(phase, phase_keys[i]));
        double watts = cJSON_GetObjectItem(phase, "mean_watts")->valuedouble;
        assert_true(watts > 245 && watts < 255); /* the fake's 250 W */
        double joules = cJSON_GetObjectItem(phase, "joules_per_pass")->valuedouble;
        assert_true(joules > 0.4 * 250 * 0.004 / (k ? 20 : 10) && joules < 1.1 * 250 * 0.004 / (k ? 20 : 10));
        assert_int_equal(cJSON_GetObjectItem(phase, "samples")->valueint, STEADY_WINDOW);
        assert_true(cJSON_GetObjectItem(phase, "reported_watts")->valuedouble >= 250);
        assert_null(cJSON_GetObjectItem(phase, "measured_in"));
    }
    cJSON_Delete(evidence);

    power_meter_begin_test(m, "t.second");
    evidence = cJSON_CreateObject();
    int batches = base.batches;
    power_meter_measure(m, &what, evidence, &signal);
    assert_true(signal.measured);
    assert_int_equal(base.batches, batches); /* the baseline was not run again */
    const cJSON *baseline_json = cJSON_GetObjectItem(cJSON_GetObjectItem(evidence, "power"), "baseline");
    assert_string_equal(cJSON_GetObjectItem(baseline_json, "measured_in")->valuestring, "t.first");
    cJSON_Delete(evidence);
    power_meter_destroy(m);
}

static void meter_reasons(void **state)
{
    (void)state;
    struct fake_load base = nvml_load(), with = nvml_load();
    struct power_load baseline = load_of(&base, 1), feature = load_of(&with, 1);
    struct power_measurement what = {.what = "a pass", .baseline = &baseline, .feature = &feature};
    struct power_signal signal;
    cJSON *evidence = cJSON_CreateObject();

    struct power_options off = options(10, 300);
    off.disabled = true;
    struct power_meter *m = power_meter_create(&h200, &off);
    power_meter_measure(m, &what, evidence, &signal);
    assert_false(signal.measured);
    assert_string_equal(signal.reason, "not sampled: --no-power");
    power_meter_destroy(m);

    struct power_options small = options(0.1, 150);
    m = power_meter_create(&h200, &small);
    power_meter_measure(m, &what, evidence, &signal); /* the budget allows about one test */
    assert_true(signal.measured);
    power_meter_measure(m, &what, evidence, &signal);
    assert_false(signal.measured);
    assert_non_null(strstr(signal.reason, "spent this run's power budget (0.1 s, --power-budget)"));
    power_meter_destroy(m);
    cJSON_DeleteItemFromObject(evidence, "power");

    setenv("FAKE_NVML_PERIOD_MS", "120", 1);
    struct power_options short_phase = options(10, 100);
    m = power_meter_create(&h200, &short_phase);
    power_meter_measure(m, &what, evidence, &signal);
    assert_false(signal.measured);
    assert_non_null(strstr(signal.reason, "the energy counter (nvml) updates about every 120 ms"));
    assert_non_null(strstr(signal.reason, "more than the 100 ms a phase may take (--power-phase-ms)"));
    power_meter_destroy(m);
    unsetenv("FAKE_NVML_PERIOD_MS");

    setenv("FAKE_NVML_MODE", "stall", 1);
    m = power_meter_create(&h200, &short_phase);
    power_meter_measure(m, &what, evidence, &signal);
    assert_false(signal.measured);
    assert_non_null(strstr(signal.reason, "the baseline pass: the energy counter did not change"));
    power_meter_destroy(m);
    unsetenv("FAKE_NVML_MODE");

    setenv("PREFLIGHT_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1", 1);
    setenv("PREFLIGHT_HWMON_ROOT", "/nonexistent/drm", 1);
    m = power_meter_create(&h200, &short_phase);
    power_meter_measure(m, &what, evidence, &signal);
    assert_false(signal.measured);
    assert_non_null(strstr(signal.reason, "no power sensor for this device: NVML: /nonexistent/libnvidia-ml.so.1"));
    power_meter_destroy(m);
    unsetenv("PREFLIGHT_HWMON_ROOT");

    assert_null(cJSON_GetObjectItem(evidence, "power")); /* no failure left a number behind */
    cJSON_Delete(evidence);
}

static void rounding_keeps_significant_digits(void **state)
{
    (void)state;
    assert_true(power_round(0.000123456, 4) == 0.0001235);
    assert_true(power_round(251.4567, 4) == 251.5);
    assert_true(power_round(0, 4) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(steady_counter_settles),
        cmocka_unit_test(steady_threshold_is_five_percent),
        cmocka_unit_test(steady_judges_the_last_window),
        cmocka_unit_test(steady_drops_a_wrapped_interval),
        cmocka_unit_test(steady_stalled_counter_gives_a_reason),
        cmocka_unit_test(steady_coarse_counter_gives_a_reason),
        cmocka_unit_test(steady_short_updates_are_merged),
        cmocka_unit_test(steady_power_readings),
        cmocka_unit_test(steady_drops_imprecise_samples),
        cmocka_unit_test(rounding_keeps_significant_digits),
        cmocka_unit_test_setup_teardown(hwmon_matches_by_pci_and_prefers_the_card_counter, make_tree, remove_root),
        cmocka_unit_test_setup_teardown(hwmon_power_reading_without_a_counter, make_tree, remove_root),
        cmocka_unit_test_setup_teardown(hwmon_reasons, make_tree, remove_root),
        cmocka_unit_test_setup_teardown(hwmon_sensor_vanishes, make_tree, remove_root),
        cmocka_unit_test_setup_teardown(phase_settles_on_an_advancing_counter, make_tree, remove_root),
        cmocka_unit_test_setup_teardown(phase_survives_a_wrap, make_tree, remove_root),
        cmocka_unit_test_setup_teardown(phase_stalled_counter_is_not_a_number, make_tree, remove_root),
        cmocka_unit_test_setup_teardown(phase_coarse_counter_says_so, make_tree, remove_root),
        cmocka_unit_test_setup_teardown(phase_counter_vanishing_mid_run, make_tree, remove_root),
        cmocka_unit_test_setup_teardown(phase_load_failure, make_tree, remove_root),
        cmocka_unit_test_setup(nvml_matches_by_pci_then_uuid, reset_fake_nvml),
        cmocka_unit_test_setup(nvml_reasons, reset_fake_nvml),
        cmocka_unit_test_setup(nvml_power_reading_without_a_counter, reset_fake_nvml),
        cmocka_unit_test_setup(nvml_update_period_is_found, reset_fake_nvml),
        cmocka_unit_test_setup(nvml_lost_mid_phase, reset_fake_nvml),
        cmocka_unit_test_setup(meter_measures_and_shares_the_baseline, reset_fake_nvml),
        cmocka_unit_test_setup(meter_reasons, reset_fake_nvml),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
