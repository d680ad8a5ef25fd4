/* Runs the smoke tests of the report's devices in worker processes (worker.h) with a watchdog per
 * test, so a test that crashes, hangs or loses the device costs only its own verdict: the report
 * is always written. Up to `jobs` workers per device run at once, every device beside the others;
 * tests that measure GPU time run alone on their device. Fills each device's `smoke` and
 * `capabilities` arrays, in the tests' table order whatever the run order. */
#ifndef PREFLIGHT_PROBE_RUNNER_H
#define PREFLIGHT_PROBE_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "meter.h"

struct runner_options {
    const char *include;        /* comma-separated glob patterns (fnmatch); NULL: every test */
    const char *exclude;        /* tests matching these are `skipped` */
    double timeout_seconds;     /* per test */
    bool progress;              /* one line per test on stderr */
    unsigned jobs;              /* workers at once, 1..RUNNER_MAX_JOBS */
    const char *artifacts_dir;  /* where tests write their images (PNG); NULL: none */
    bool fresh_device;          /* a VkDevice per test rather than one per worker */
    struct power_options power; /* sampling power around timed passes (smoke/power/meter.h) */
    unsigned repeat;            /* reruns at most of each test that failed, until its verdict is known */
};

/* The most reruns --repeat may ask for. */
#define RUNNER_MAX_REPEAT 100

/* --jobs when none is given. One worker is the fastest measured on both drivers we have (H200:
 * 3.5 s with 1, 3.7 s with 2, 4.2 s with 4; lavapipe: 0.31 s with 1 or 2; docs/benchmarks.md):
 * each extra worker pays its own instance and device, and concurrent work slows the longest
 * test. More workers pay off where many tests are long. */
#define RUNNER_DEFAULT_JOBS 1
#define RUNNER_MAX_JOBS 64

#define RUNNER_DEFAULT_TIMEOUT_SECONDS 60.0

/* Runs the tests of every device of the report's `devices` array (each has its `index`), all
 * devices side by side: they are independent GPUs. */
void runner_run_devices(cJSON *devices, const struct runner_options *options);
/* Lists test ids, groups and descriptions on stdout. */
void runner_list_tests(void);
/* true when `id` matches one of the comma-separated patterns */
bool runner_matches(const char *patterns, const char *id);
/* How many tests a pattern list selects (for a usage error when none). */
size_t runner_count_matching(const char *patterns);
/* SIGTERM, SIGINT and SIGHUP kill the running test's process group, then end the probe as the
 * signal would have: no test process outlives the probe (PR_SET_PDEATHSIG covers SIGKILL). */
void runner_install_signal_handlers(void);
/* The most a --timeout may say (a day): past it a hung test would never be killed in practice. */
#define RUNNER_MAX_TIMEOUT_SECONDS 86400.0
#define RUNNER_MIN_TIMEOUT_SECONDS 0.1

#endif
