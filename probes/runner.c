#include "runner.h"

#include <errno.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fleet_measure.h"
#include "report_model.h"
#include "smoke.h"
#include "worker.h"

bool runner_matches(const char *patterns, const char *id)
{
    char buffer[1024];
    snprintf(buffer, sizeof(buffer), "%s", patterns);
    char *save = NULL;
    for (char *p = strtok_r(buffer, ",", &save); p != NULL; p = strtok_r(NULL, ",", &save)) {
        while (*p == ' ')
            ++p;
        if (*p != '\0' && fnmatch(p, id, 0) == 0)
            return true;
    }
    return false;
}

size_t runner_count_matching(const char *patterns)
{
    size_t n = 0;
    for (size_t i = 0; i < smoke_test_count(); ++i)
        n += runner_matches(patterns, smoke_test_get(i)->id);
    return n;
}

void runner_list_tests(void)
{
    for (size_t i = 0; i < smoke_test_count(); ++i) {
        const struct smoke_test *t = smoke_test_get(i);
        printf("%-34s %-10s %s\n", t->id, t->group, t->description);
    }
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* The stop-signal handler: kills every worker's process group, then ends the probe as the signal
 * would have. */
static void on_stop_signal(int sig)
{
    for (size_t i = 0; i < WORKER_MAX; ++i) {
        pid_t pid = __atomic_load_n(&worker_pids[i], __ATOMIC_RELAXED);
        if (pid > 0)
            kill(-pid, SIGKILL);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void runner_install_signal_handlers(void)
{
    struct sigaction action = {.sa_handler = on_stop_signal};
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGHUP, &action, NULL);
    /* a worker that dies leaves its command pipe without a reader: that is a verdict, not a reason
     * for the probe to die */
    signal(SIGPIPE, SIG_IGN);
}

/* A matrix row: the declared column beside the verified one, never merged. */
static cJSON *capability_row(const struct smoke_test *test, bool declared, const char *missing, enum verdict v)
{
    cJSON *row = cJSON_CreateObject();
    cJSON_AddStringToObject(row, "id", test->id);
    cJSON_AddStringToObject(row, "group", test->group);
    cJSON_AddBoolToObject(row, "declared", declared);
    if (!declared)
        cJSON_AddStringToObject(row, "missing", missing);
    cJSON_AddStringToObject(row, "verified", verdict_name(v));
    cJSON *tests = cJSON_AddArrayToObject(row, "tests");
    cJSON_AddItemToArray(tests, cJSON_CreateString(test->id));
    return row;
}

/* true (and `r` says why) when the test is not run: not selected, skipped or not declared. */
static bool not_run(const struct smoke_test *test, bool is_declared, const char *missing,
                    const struct runner_options *options, struct worker_result *r)
{
    if (options->include != NULL && !runner_matches(options->include, test->id)) {
        r->status = VERDICT_SKIPPED;
        snprintf(r->reason, sizeof(r->reason), "not selected by --tests %s", options->include);
    } else if (options->exclude != NULL && runner_matches(options->exclude, test->id)) {
        r->status = VERDICT_SKIPPED;
        snprintf(r->reason, sizeof(r->reason), "skipped by --skip %s", options->exclude);
    } else if (!is_declared) {
        /* never run what the device does not declare */
        r->status = VERDICT_UNSUPPORTED;
        snprintf(r->reason, sizeof(r->reason), "%s", missing);
    } else {
        return false;
    }
    return true;
}

/* A run of a test after its first (--repeat): its verdict, reason, evidence and time. */
struct rerun {
    struct worker_result result;
    double duration_ms;
};

/* One test's place in the run: its first run, and its reruns. */
struct slot {
    struct worker_result result;
    double started_ms, duration_ms;
    bool runs;
    struct rerun *reruns;
    unsigned rerun_count;
};

/* A worker and the test it runs now (SIZE_MAX: idle). */
struct lane {
    struct worker worker;
    size_t test;
    double deadline_ms;
};

/* One device's run: its tests, its workers, its queue. Devices are independent GPUs: their runs
 * go on side by side, each with its own lanes; the "alone" rule holds per device. */
struct device_run {
    cJSON *device;
    uint32_t index;
    struct slot *slots;
    bool *is_declared, *selected;
    char (*missing)[512];
    size_t *order, queued, next, ran;
    struct lane lanes[WORKER_MAX];
    unsigned jobs, started;
    char prefix[96];
    struct worker_context context;
    double began, elapsed_ms;
    unsigned round; /* 0: the first runs; k: the k-th rerun of what failed (--repeat) */
};

static void finish(struct device_run *d, struct lane *lane, const struct worker_result *r, double now,
                   const struct runner_options *options)
{
    struct slot *slot = &d->slots[lane->test];
    double duration_ms = now - slot->started_ms;
    if (d->round == 0) {
        slot->result = *r;
        slot->duration_ms = duration_ms;
    } else {
        struct rerun *more = realloc(slot->reruns, (slot->rerun_count + 1) * sizeof(*more));
        if (more != NULL) {
            slot->reruns = more;
            slot->reruns[slot->rerun_count++] = (struct rerun){*r, duration_ms};
        } else {
            cJSON_Delete(r->evidence); /* without memory the rerun is not kept */
        }
    }
    if (options->progress)
        fprintf(stderr, "  GPU%u %-32s %-12s %8.1f ms%s%s%s\n", d->index, smoke_test_get(lane->test)->id,
                verdict_name(r->status), duration_ms, d->round ? "  (rerun)" : "", r->reason[0] ? "  " : "", r->reason);
    lane->test = SIZE_MAX;
}

/* Gives `test` to the lane's worker, starting one if there is none. A worker that died while idle
 * (between tests: nothing of this test ran yet) is replaced once rather than blamed on the test. */
static bool hand_over(struct worker *w, const struct worker_context *context, size_t test, unsigned *started,
                      char *error, size_t size)
{
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (w->pid == 0) {
            if (!worker_start(w, context, error, size))
                return false;
            ++*started;
        }
        if (worker_send(w, test))
            return true;
        snprintf(error, size, "the worker did not take the test: %s", strerror(errno));
        worker_kill(w);
    }
    return false;
}

static unsigned busy_lanes(const struct device_run *d)
{
    unsigned busy = 0;
    for (unsigned j = 0; j < d->jobs; ++j)
        busy += d->lanes[j].test != SIZE_MAX;
    return busy;
}

/* Hands the device's next tests to its idle lanes. Tests that measure GPU time come last and run
 * one at a time with nothing else on that device, so no other test's work lands in their timings. */
static void hand_out(struct device_run *d, const struct runner_options *options)
{
    unsigned busy = busy_lanes(d);
    for (unsigned j = 0; j < d->jobs && d->next < d->queued; ++j) {
        struct lane *lane = &d->lanes[j];
        if (lane->test != SIZE_MAX)
            continue;
        bool alone = (smoke_test_get(d->order[d->next])->flags & SMOKE_RUNS_ALONE) != 0;
        if (alone && busy > 0)
            break;
        size_t test = d->order[d->next++];
        d->slots[test].started_ms = now_ms();
        lane->test = test;
        lane->deadline_ms = d->slots[test].started_ms + options->timeout_seconds * 1000.0;
        ++busy;
        char error[256];
        if (!hand_over(&lane->worker, &d->context, test, &d->started, error, sizeof(error))) {
            struct worker_result r = {.status = VERDICT_CRASHED};
            snprintf(r.reason, sizeof(r.reason), "the test process could not be started: %s", error);
            worker_kill(&lane->worker);
            finish(d, lane, &r, now_ms(), options);
            --busy;
        }
        if (alone)
            break;
    }
}

/* Runs every device's selected tests until all are answered. */
static void schedule(struct device_run *runs, size_t device_count, const struct runner_options *options)
{
    double timeout_ms = options->timeout_seconds * 1000.0;
    for (;;) {
        bool pending = false;
        for (size_t d = 0; d < device_count; ++d) {
            hand_out(&runs[d], options);
            bool done = busy_lanes(&runs[d]) == 0 && runs[d].next >= runs[d].queued;
            if (done && runs[d].elapsed_ms == 0)
                runs[d].elapsed_ms = now_ms() - runs[d].began;
            pending |= !done;
        }
        if (!pending)
            break;
        /* wait for answers, or the nearest deadline */
        struct pollfd fds[WORKER_MAX];
        struct lane *lane_of[WORKER_MAX];
        struct device_run *run_of[WORKER_MAX];
        unsigned polled = 0;
        double nearest = now_ms() + 1000.0;
        for (size_t d = 0; d < device_count; ++d) {
            for (unsigned j = 0; j < runs[d].jobs; ++j) {
                struct lane *lane = &runs[d].lanes[j];
                if (lane->test == SIZE_MAX || polled >= WORKER_MAX)
                    continue;
                fds[polled] = (struct pollfd){.fd = lane->worker.result_fd, .events = POLLIN};
                lane_of[polled] = lane;
                run_of[polled++] = &runs[d];
                if (lane->deadline_ms < nearest)
                    nearest = lane->deadline_ms;
            }
        }
        double wait = nearest - now_ms();
        int ready = poll(fds, polled, wait <= 0 ? 0 : (int)wait + 1);
        if (ready < 0 && errno != EINTR)
            ready = 0;
        for (unsigned k = 0; k < polled && ready > 0; ++k) {
            if (fds[k].revents == 0)
                continue;
            struct worker_result r;
            int got = worker_receive(&lane_of[k]->worker, &r);
            if (got == 0)
                continue;
            finish(run_of[k], lane_of[k], &r, now_ms(), options);
            /* a lost device may leave the driver in any state: the next test gets a fresh process */
            if (got > 0 && r.status == VERDICT_DEVICE_LOST)
                worker_kill(&lane_of[k]->worker);
        }
        double now = now_ms();
        for (size_t d = 0; d < device_count; ++d) {
            for (unsigned j = 0; j < runs[d].jobs; ++j) {
                struct lane *lane = &runs[d].lanes[j];
                if (lane->test == SIZE_MAX || now < lane->deadline_ms)
                    continue;
                worker_kill(&lane->worker);
                struct worker_result r = {.status = VERDICT_TIMEOUT};
                snprintf(r.reason, sizeof(r.reason), "no result within %g s; the test process was killed",
                         timeout_ms / 1000);
                finish(&runs[d], lane, &r, now, options);
            }
        }
    }
    for (size_t d = 0; d < device_count; ++d)
        for (unsigned j = 0; j < runs[d].jobs; ++j)
            worker_stop(&runs[d].lanes[j].worker);
}

/* A device's tests: which run (declared, selected), in which order, on how many lanes. */
static bool prepare(struct device_run *d, cJSON *device, unsigned jobs, const struct runner_options *options)
{
    size_t count = smoke_test_count();
    d->device = device;
    d->index = (uint32_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(device, "index"));
    d->slots = calloc(count, sizeof(*d->slots));
    d->is_declared = calloc(count, sizeof(*d->is_declared));
    d->selected = calloc(count, sizeof(*d->selected));
    d->missing = calloc(count, sizeof(*d->missing));
    d->order = calloc(count, sizeof(*d->order));
    if (d->slots == NULL || d->is_declared == NULL || d->selected == NULL || d->missing == NULL || d->order == NULL)
        return false;
    const cJSON *declared = report_declared(device);
    for (size_t i = 0; i < count; ++i) {
        const struct smoke_test *test = smoke_test_get(i);
        d->is_declared[i] = test->declared(declared, test->param, d->missing[i], sizeof(d->missing[i]));
        d->slots[i].result.status = VERDICT_PASS;
        d->slots[i].runs = d->selected[i] =
            !not_run(test, d->is_declared[i], d->missing[i], options, &d->slots[i].result);
        d->ran += d->slots[i].runs;
    }
    for (int alone = 0; alone < 2; ++alone)
        for (size_t i = 0; i < count; ++i)
            if (d->slots[i].runs && ((smoke_test_get(i)->flags & SMOKE_RUNS_ALONE) != 0) == alone)
                d->order[d->queued++] = i;
    d->jobs = jobs < d->queued ? jobs : (d->queued ? (unsigned)d->queued : 1);
    for (unsigned j = 0; j < d->jobs; ++j)
        d->lanes[j] = (struct lane){.test = SIZE_MAX};
    const char *key = report_device_key(device);
    snprintf(d->prefix, sizeof(d->prefix), "gpu%u-%s", d->index, key[0] ? key : "device");
    d->context = (struct worker_context){
        .declared = declared,
        .device_index = d->index,
        .artifacts_dir = options->artifacts_dir,
        .artifact_prefix = d->prefix,
        .selected = d->selected,
        .fresh_device = options->fresh_device,
        .power = options->power,
    };
    d->began = now_ms();
    return true;
}

/* A test's runs so far measured (fleet_measure.h): the first and every rerun. */
static void measure_slot(const struct slot *slot, struct fleet_measure *m)
{
    int runs = 0, failures = 0;
    for (unsigned k = 0; k <= slot->rerun_count; ++k) {
        enum verdict v = k == 0 ? slot->result.status : slot->reruns[k - 1].result.status;
        runs += v == VERDICT_PASS || verdict_is_failure(v);
        failures += verdict_is_failure(v);
    }
    fleet_measure(runs, failures, m);
}

/* Queues round `round` of reruns: the tests that failed in some run and whose verdict over their
 * runs is still unknown (a test failing every time needs 4 runs to be a confident fail; one that
 * passed once is flaky at once). False when there is none. */
static bool queue_reruns(struct device_run *d, unsigned round)
{
    d->round = round;
    d->queued = d->next = 0;
    for (int alone = 0; alone < 2; ++alone)
        for (size_t i = 0; i < smoke_test_count(); ++i) {
            struct fleet_measure m;
            measure_slot(&d->slots[i], &m);
            if (d->slots[i].runs && m.failures > 0 && strcmp(m.verdict, "unknown") == 0 &&
                ((smoke_test_get(i)->flags & SMOKE_RUNS_ALONE) != 0) == alone)
                d->order[d->queued++] = i;
        }
    return d->queued > 0;
}

/* The device's `smoke` and `capabilities` arrays, in the tests' table order. */
static void write_results(struct device_run *d)
{
    cJSON *smoke = cJSON_GetObjectItemCaseSensitive(d->device, "smoke");
    cJSON *capabilities = cJSON_GetObjectItemCaseSensitive(d->device, "capabilities");
    for (size_t i = 0; i < smoke_test_count(); ++i) {
        const struct smoke_test *test = smoke_test_get(i);
        const struct worker_result *r = &d->slots[i].result;
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddStringToObject(entry, "id", test->id);
        cJSON_AddStringToObject(entry, "status", verdict_name(r->status));
        cJSON_AddNumberToObject(entry, "duration_ms", (double)(long long)(d->slots[i].duration_ms * 1000) / 1000.0);
        if (r->reason[0] != '\0')
            cJSON_AddStringToObject(entry, "reason", r->reason);
        else
            cJSON_AddNullToObject(entry, "reason");
        cJSON_AddItemToObject(entry, "evidence", r->evidence ? r->evidence : cJSON_CreateObject());
        if (d->slots[i].rerun_count > 0) { /* --repeat: each rerun a run of its own */
            cJSON *reruns = cJSON_AddArrayToObject(entry, "reruns");
            for (unsigned k = 0; k < d->slots[i].rerun_count; ++k) {
                const struct rerun *again = &d->slots[i].reruns[k];
                cJSON *run = cJSON_CreateObject();
                cJSON_AddStringToObject(run, "status", verdict_name(again->result.status));
                cJSON_AddNumberToObject(run, "duration_ms", (double)(long long)(again->duration_ms * 1000) / 1000.0);
                if (again->result.reason[0] != '\0')
                    cJSON_AddStringToObject(run, "reason", again->result.reason);
                else
                    cJSON_AddNullToObject(run, "reason");
                cJSON_AddItemToObject(run, "evidence",
                                      again->result.evidence ? again->result.evidence : cJSON_CreateObject());
                cJSON_AddItemToArray(reruns, run);
            }
            struct fleet_measure m;
            measure_slot(&d->slots[i], &m);
            cJSON *measured = cJSON_AddObjectToObject(entry, "measured");
            cJSON_AddStringToObject(measured, "verdict", m.verdict);
            cJSON_AddNumberToObject(measured, "runs", m.runs);
            cJSON_AddNumberToObject(measured, "failures", m.failures);
        }
        cJSON_AddItemToArray(smoke, entry);
        cJSON_AddItemToArray(
            capabilities, capability_row(test, d->is_declared[i], d->is_declared[i] ? NULL : d->missing[i], r->status));
    }
}

static void release(struct device_run *d)
{
    for (size_t i = 0; d->slots != NULL && i < smoke_test_count(); ++i)
        free(d->slots[i].reruns); /* their evidence went into the report */
    free(d->slots);
    free(d->is_declared);
    free(d->selected);
    free(d->missing);
    free(d->order);
}

void runner_run_devices(cJSON *devices, const struct runner_options *options)
{
    size_t count = (size_t)cJSON_GetArraySize(devices);
    if (count == 0)
        return;
    struct device_run *runs = calloc(count, sizeof(*runs));
    if (runs == NULL) {
        fprintf(stderr, "preflight-probe: out of memory for the smoke tests\n");
        return;
    }
    /* every device's lanes together stay within the workers the stop handler can track */
    unsigned jobs = options->jobs ? options->jobs : 1;
    if (jobs * count > WORKER_MAX)
        jobs = (unsigned)(WORKER_MAX / count) ? (unsigned)(WORKER_MAX / count) : 1;
    bool ok = true;
    size_t d = 0;
    const cJSON *device;
    cJSON_ArrayForEach(device, devices)
    {
        ok = prepare(&runs[d++], (cJSON *)device, jobs, options) && ok;
    }
    if (!ok) {
        fprintf(stderr, "preflight-probe: out of memory for the smoke tests\n");
    } else {
        schedule(runs, count, options);
        /* --repeat N: what failed runs again, until its verdict is known or N reruns are spent */
        for (unsigned round = 1; round <= options->repeat; ++round) {
            bool any = false;
            for (d = 0; d < count; ++d)
                any = queue_reruns(&runs[d], round) || any;
            if (!any)
                break;
            schedule(runs, count, options);
        }
        for (d = 0; d < count; ++d) {
            if (options->progress)
                fprintf(stderr, "GPU%u: %zu smoke tests in %u worker processes (--jobs %u), %.0f ms\n", runs[d].index,
                        runs[d].ran, runs[d].started, runs[d].jobs, runs[d].elapsed_ms);
            write_results(&runs[d]);
        }
    }
    for (d = 0; d < count; ++d)
        release(&runs[d]);
    free(runs);
}
