/* A worker: one child process that opens its own Vulkan instance once and then runs smoke tests
 * one at a time, as the runner asks, answering each with one line of JSON. A batch of tests thus
 * shares one process and one instance (no process start and instance creation per test), while a
 * test that crashes, hangs or loses the device still ends only that worker: the runner records the
 * verdict and starts a fresh worker for the tests that follow (how Mesa's deqp-runner runs
 * conformance suites). Each worker is its own process group, killed as one. */
#ifndef PREFLIGHT_PROBE_WORKER_H
#define PREFLIGHT_PROBE_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <cjson/cJSON.h>

#include "meter.h"
#include "verdict.h"

struct worker {
    pid_t pid;      /* 0: not running */
    int command_fd; /* the runner writes test indices here */
    int result_fd;  /* the worker writes one JSON line per test here */
    char *line;     /* what has arrived of the current answer */
    size_t length, capacity;
};

/* What came back for one test. */
struct worker_result {
    enum verdict status;
    char reason[512];
    cJSON *evidence; /* owned by the receiver; NULL when the worker produced none */
};

struct worker_context {
    const cJSON *declared; /* the device's declared block (the worker's copy, after fork) */
    uint32_t device_index;
    const char *artifacts_dir; /* NULL: no image files */
    const char *artifact_prefix;
    const bool *selected; /* per test index: may run here (what the shared device is made for) */
    bool fresh_device;    /* a VkDevice per test instead of one per worker */
    struct power_options power;
};

/* Forks a worker for `context`; false (with `error`) when the system refused a pipe or fork. */
bool worker_start(struct worker *w, const struct worker_context *context, char *error, size_t size);
/* Asks the worker to run the test at `test_index` (smoke_test_get). */
bool worker_send(struct worker *w, size_t test_index);
/* Reads what the worker has written. 1: a whole answer is in `r`; 0: not yet; -1: the worker
 * ended (crashed or exited) before answering, `r` says how (the worker is reaped). */
int worker_receive(struct worker *w, struct worker_result *r);
/* Kills the worker's process group and reaps it (a hung or lost worker). */
void worker_kill(struct worker *w);
/* Lets an idle worker exit (its command pipe closes) and reaps it. */
void worker_stop(struct worker *w);

/* The pids of running workers, for the stop-signal handler (async-signal-safe to read). */
#define WORKER_MAX 256
extern pid_t worker_pids[WORKER_MAX];

#endif
