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

/* One test's place in the run. */
struct slot {
    struct worker_result result;
    double started_ms, duration_ms;
    bool runs, done;
};

/* A worker and the test it runs now (SIZE_MAX: idle). */
struct lane {
    struct worker worker;
    size_t test;
    double deadline_ms;
};

static void finish(struct slot *slots, struct lane *lane, const struct worker_result *r, double now,
                   const struct runner_options *options, uint32_t device_index)
{
    struct slot *slot = &slots[lane->test];
    slot->result = *r;
    slot->duration_ms = now - slot->started_ms;
    slot->done = true;
    if (options->progress)
        fprintf(stderr, "  GPU%u %-32s %-12s %8.1f ms%s%s\n", device_index, smoke_test_get(lane->test)->id,
                verdict_name(r->status), slot->duration_ms, r->reason[0] ? "  " : "", r->reason);
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

/* Runs the selected tests on `jobs` workers. Tests that measure GPU time run last, one at a time
 * with no other test running, so that no other process's work lands inside their timings. */
static unsigned schedule(struct slot *slots, size_t count, const struct worker_context *context,
                         const struct runner_options *options)
{
    unsigned started = 0; /* worker processes, for the summary line */
    size_t order[count], queued = 0;
    for (int alone = 0; alone < 2; ++alone)
        for (size_t i = 0; i < count; ++i)
            if (slots[i].runs && ((smoke_test_get(i)->flags & SMOKE_RUNS_ALONE) != 0) == alone)
                order[queued++] = i;
    unsigned jobs = options->jobs ? options->jobs : 1;
    if (jobs > queued)
        jobs = queued ? (unsigned)queued : 1;
    struct lane lanes[WORKER_MAX];
    for (unsigned j = 0; j < jobs; ++j)
        lanes[j] = (struct lane){.test = SIZE_MAX};
    size_t next = 0;
    double timeout_ms = options->timeout_seconds * 1000.0;
    for (;;) {
        unsigned busy = 0;
        for (unsigned j = 0; j < jobs; ++j)
            busy += lanes[j].test != SIZE_MAX;
        /* hand out work */
        for (unsigned j = 0; j < jobs && next < queued; ++j) {
            struct lane *lane = &lanes[j];
            if (lane->test != SIZE_MAX)
                continue;
            bool alone = (smoke_test_get(order[next])->flags & SMOKE_RUNS_ALONE) != 0;
            if (alone && busy > 0)
                break;
            size_t test = order[next++];
            slots[test].started_ms = now_ms();
            lane->test = test;
            lane->deadline_ms = slots[test].started_ms + timeout_ms;
            ++busy;
            char error[256];
            if (!hand_over(&lane->worker, context, test, &started, error, sizeof(error))) {
                struct worker_result r = {.status = VERDICT_CRASHED};
                snprintf(r.reason, sizeof(r.reason), "the test process could not be started: %s", error);
                worker_kill(&lane->worker);
                finish(slots, lane, &r, now_ms(), options, context->device_index);
                --busy;
            }
            if (alone)
                break;
        }
        if (busy == 0 && next >= queued)
            break;
        /* wait for answers, or the nearest deadline */
        struct pollfd fds[WORKER_MAX];
        unsigned lane_of[WORKER_MAX], polled = 0;
        double nearest = now_ms() + 1000.0;
        for (unsigned j = 0; j < jobs; ++j) {
            if (lanes[j].test == SIZE_MAX)
                continue;
            fds[polled] = (struct pollfd){.fd = lanes[j].worker.result_fd, .events = POLLIN};
            lane_of[polled++] = j;
            if (lanes[j].deadline_ms < nearest)
                nearest = lanes[j].deadline_ms;
        }
        double wait = nearest - now_ms();
        int ready = poll(fds, polled, wait <= 0 ? 0 : (int)wait + 1);
        if (ready < 0 && errno != EINTR)
            ready = 0;
        for (unsigned k = 0; k < polled && ready > 0; ++k) {
            if (fds[k].revents == 0)
                continue;
            struct lane *lane = &lanes[lane_of[k]];
            struct worker_result r;
            int got = worker_receive(&lane->worker, &r);
            if (got == 0)
                continue;
            finish(slots, lane, &r, now_ms(), options, context->device_index);
            /* a lost device may leave the driver in any state: the next test gets a fresh process */
            if (got > 0 && r.status == VERDICT_DEVICE_LOST)
                worker_kill(&lane->worker);
        }
        double now = now_ms();
        for (unsigned j = 0; j < jobs; ++j) {
            struct lane *lane = &lanes[j];
            if (lane->test == SIZE_MAX || now < lane->deadline_ms)
                continue;
            worker_kill(&lane->worker);
            struct worker_result r = {.status = VERDICT_TIMEOUT};
            snprintf(r.reason, sizeof(r.reason), "no result within %g s; the test process was killed",
                     timeout_ms / 1000);
            finish(slots, lane, &r, now, options, context->device_index);
        }
    }
    for (unsigned j = 0; j < jobs; ++j)
        worker_stop(&lanes[j].worker);
    return started;
}

void runner_run_device(cJSON *device, uint32_t device_index, const struct runner_options *options)
{
    const cJSON *declared = cJSON_GetObjectItemCaseSensitive(device, "declared");
    cJSON *smoke = cJSON_GetObjectItemCaseSensitive(device, "smoke");
    cJSON *capabilities = cJSON_GetObjectItemCaseSensitive(device, "capabilities");
    size_t count = smoke_test_count();
    struct slot *slots = calloc(count, sizeof(*slots));
    bool *is_declared = calloc(count, sizeof(*is_declared));
    char(*missing)[512] = calloc(count, sizeof(*missing));
    if (slots == NULL || is_declared == NULL || missing == NULL) {
        fprintf(stderr, "preflight-probe: out of memory for the smoke tests of GPU%u\n", device_index);
        free(slots);
        free(is_declared);
        free(missing);
        return;
    }
    bool selected[count];
    for (size_t i = 0; i < count; ++i) {
        const struct smoke_test *test = smoke_test_get(i);
        is_declared[i] = test->declared(declared, test->param, missing[i], sizeof(missing[i]));
        slots[i].result.status = VERDICT_PASS;
        slots[i].runs = selected[i] = !not_run(test, is_declared[i], missing[i], options, &slots[i].result);
    }
    const char *key = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(device, "identity"), "deviceKey"));
    char prefix[96];
    snprintf(prefix, sizeof(prefix), "gpu%u-%s", device_index, key ? key : "device");
    struct worker_context context = {
        .declared = declared,
        .device_index = device_index,
        .artifacts_dir = options->artifacts_dir,
        .artifact_prefix = prefix,
        .selected = selected,
        .fresh_device = options->fresh_device,
    };
    double began = now_ms();
    size_t ran = 0;
    for (size_t i = 0; i < count; ++i)
        ran += slots[i].runs;
    unsigned workers = schedule(slots, count, &context, options);
    if (options->progress)
        fprintf(stderr, "GPU%u: %zu smoke tests in %u worker processes (--jobs %u), %.0f ms\n", device_index, ran,
                workers, options->jobs, now_ms() - began);

    for (size_t i = 0; i < count; ++i) {
        const struct smoke_test *test = smoke_test_get(i);
        const struct worker_result *r = &slots[i].result;
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddStringToObject(entry, "id", test->id);
        cJSON_AddStringToObject(entry, "status", verdict_name(r->status));
        cJSON_AddNumberToObject(entry, "duration_ms", (double)(long long)(slots[i].duration_ms * 1000) / 1000.0);
        if (r->reason[0] != '\0')
            cJSON_AddStringToObject(entry, "reason", r->reason);
        else
            cJSON_AddNullToObject(entry, "reason");
        cJSON_AddItemToObject(entry, "evidence", r->evidence ? r->evidence : cJSON_CreateObject());
        cJSON_AddItemToArray(smoke, entry);
        cJSON_AddItemToArray(capabilities,
                             capability_row(test, is_declared[i], is_declared[i] ? NULL : missing[i], r->status));
    }
    free(slots);
    free(is_declared);
    free(missing);
}
