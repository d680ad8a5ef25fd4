#include "runner.h"

#include <errno.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "smoke.h"
#include "vulkan_instance.h"

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

static enum smoke_fault fault_for(const char *id)
{
#ifdef PREFLIGHT_FAULT_INJECTION
    /* Test builds only: PREFLIGHT_FAULT="compute.buffer=crash,compute.barrier=hang,compute.1x1=wrong" */
    const char *spec = getenv("PREFLIGHT_FAULT");
    size_t length = strlen(id);
    for (const char *at = spec; at != NULL && *at != '\0';) {
        if (strncmp(at, id, length) == 0 && at[length] == '=') {
            const char *kind = at + length + 1;
            if (strncmp(kind, "crash", 5) == 0)
                return SMOKE_FAULT_CRASH;
            if (strncmp(kind, "hang", 4) == 0)
                return SMOKE_FAULT_HANG;
            if (strncmp(kind, "wrong", 5) == 0)
                return SMOKE_FAULT_WRONG_RESULT;
        }
        at = strchr(at, ',');
        at = at ? at + 1 : NULL;
    }
#else
    (void)id;
#endif
    return SMOKE_FAULT_NONE;
}

/* In the child: a fresh instance, the test, its outcome as JSON on `fd`. */
static void child_run(const struct smoke_test *test, const cJSON *declared, uint32_t device_index, int fd)
{
    /* Anything the driver or a validation layer prints must not land in a report on stdout. */
    dup2(STDERR_FILENO, STDOUT_FILENO);
    struct smoke_outcome outcome = {.status = VERDICT_FAIL};
    struct vulkan_instance vi;
    if (vulkan_instance_open(&vi) != VULKAN_INSTANCE_OK || device_index >= vi.device_count) {
        outcome.evidence = cJSON_CreateObject();
        smoke_set(&outcome, VERDICT_FAIL, "the test process could not reach the device (%s)",
                  vulkan_result_name(vi.last_result));
    } else {
        smoke_run(test, declared, vi.instance, vi.devices[device_index],
                  vulkan_effective_version(&vi, vi.devices[device_index]), fault_for(test->id), &outcome);
    }
    vulkan_instance_close(&vi);
    cJSON *result = cJSON_CreateObject();
    cJSON_AddStringToObject(result, "status", verdict_name(outcome.status));
    cJSON_AddStringToObject(result, "reason", outcome.reason);
    cJSON_AddItemToObject(result, "evidence", outcome.evidence);
    char *text = cJSON_PrintUnformatted(result);
    for (size_t done = 0, length = text ? strlen(text) : 0; done < length;) {
        ssize_t n = write(fd, text + done, length - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    _exit(0);
}

struct child_result {
    enum verdict status;
    char reason[512];
    cJSON *evidence;
};

/* The test process running now (0: none), for the signal handler: a probe stopped by SIGTERM,
 * SIGINT or SIGHUP kills the test's process group before it goes. */
static pid_t running_test;

static void on_stop_signal(int sig)
{
    pid_t pid = __atomic_load_n(&running_test, __ATOMIC_RELAXED);
    if (pid > 0)
        kill(-pid, SIGKILL);
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
}

/* Reads the child's answer until EOF or the deadline; decides the verdict from how it ended. */
static void supervise(pid_t pid, int fd, double timeout_ms, struct child_result *r)
{
    size_t capacity = 1 << 16, length = 0;
    char *text = malloc(capacity);
    double deadline = now_ms() + timeout_ms;
    bool timed_out = false;
    while (text != NULL) {
        double left = deadline - now_ms();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int ready = poll(&pfd, 1, left > 1000 ? 1000 : (int)left + 1);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready <= 0)
            continue;
        if (length + 4096 > capacity) {
            char *bigger = realloc(text, capacity * 2);
            if (bigger == NULL)
                break;
            text = bigger;
            capacity *= 2;
        }
        ssize_t n = read(fd, text + length, capacity - length - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; /* EOF: the child finished or died */
        length += (size_t)n;
    }
    if (timed_out)
        kill(-pid, SIGKILL); /* the test's whole process group: nothing it started survives */
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    kill(-pid, SIGKILL); /* anything the test left behind in its group */
    __atomic_store_n(&running_test, 0, __ATOMIC_RELAXED);
    r->evidence = NULL;
    if (timed_out) {
        r->status = VERDICT_TIMEOUT;
        snprintf(r->reason, sizeof(r->reason), "no result within %g s; the test process was killed", timeout_ms / 1000);
    } else if (WIFSIGNALED(status)) {
        r->status = VERDICT_CRASHED;
        snprintf(r->reason, sizeof(r->reason), "the test process was killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    } else {
        cJSON *answer = NULL;
        if (text != NULL) {
            text[length] = '\0';
            answer = cJSON_Parse(text);
        }
        enum verdict parsed;
        const char *status_name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answer, "status"));
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && status_name != NULL && verdict_parse(status_name, &parsed)) {
            r->status = parsed;
            snprintf(r->reason, sizeof(r->reason), "%s",
                     cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answer, "reason")) ?: "");
            r->evidence = cJSON_DetachItemFromObjectCaseSensitive(answer, "evidence");
        } else {
            r->status = VERDICT_CRASHED;
            snprintf(r->reason, sizeof(r->reason), "the test process exited with status %d without a result",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        }
        cJSON_Delete(answer);
    }
    free(text);
}

static void run_in_child(const struct smoke_test *test, const cJSON *declared, uint32_t device_index,
                         double timeout_ms, struct child_result *r)
{
    int fds[2];
    fflush(NULL);
    if (pipe(fds) != 0) {
        r->status = VERDICT_CRASHED;
        snprintf(r->reason, sizeof(r->reason), "pipe failed: %s", strerror(errno));
        return;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        r->status = VERDICT_CRASHED;
        snprintf(r->reason, sizeof(r->reason), "fork failed: %s", strerror(errno));
        return;
    }
    if (pid == 0) {
        /* its own process group, killed as one; and killed with the probe, however the probe ends */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1); /* the probe ended before the line above */
        close(fds[0]);
        child_run(test, declared, device_index, fds[1]);
    }
    setpgid(pid, pid); /* also here: no window in which the group does not exist yet */
    __atomic_store_n(&running_test, pid, __ATOMIC_RELAXED);
    close(fds[1]);
    supervise(pid, fds[0], timeout_ms, r);
    close(fds[0]);
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

void runner_run_device(cJSON *device, uint32_t device_index, const struct runner_options *options)
{
    const cJSON *declared = cJSON_GetObjectItemCaseSensitive(device, "declared");
    cJSON *smoke = cJSON_GetObjectItemCaseSensitive(device, "smoke");
    cJSON *capabilities = cJSON_GetObjectItemCaseSensitive(device, "capabilities");
    for (size_t i = 0; i < smoke_test_count(); ++i) {
        const struct smoke_test *test = smoke_test_get(i);
        struct child_result r = {.status = VERDICT_PASS};
        char missing[512] = "";
        bool is_declared = test->declared(declared, test->param, missing, sizeof(missing));
        double started = now_ms();
        if (options->include != NULL && !runner_matches(options->include, test->id)) {
            r.status = VERDICT_SKIPPED;
            snprintf(r.reason, sizeof(r.reason), "not selected by --tests %s", options->include);
        } else if (options->exclude != NULL && runner_matches(options->exclude, test->id)) {
            r.status = VERDICT_SKIPPED;
            snprintf(r.reason, sizeof(r.reason), "skipped by --skip %s", options->exclude);
        } else if (!is_declared) {
            /* never run what the device does not declare */
            r.status = VERDICT_UNSUPPORTED;
            snprintf(r.reason, sizeof(r.reason), "%s", missing);
        } else {
            run_in_child(test, declared, device_index, options->timeout_seconds * 1000.0, &r);
        }
        double duration = now_ms() - started;
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddStringToObject(entry, "id", test->id);
        cJSON_AddStringToObject(entry, "status", verdict_name(r.status));
        cJSON_AddNumberToObject(entry, "duration_ms", (double)(long long)(duration * 1000) / 1000.0);
        if (r.reason[0] != '\0')
            cJSON_AddStringToObject(entry, "reason", r.reason);
        else
            cJSON_AddNullToObject(entry, "reason");
        cJSON_AddItemToObject(entry, "evidence", r.evidence ? r.evidence : cJSON_CreateObject());
        cJSON_AddItemToArray(smoke, entry);
        cJSON_AddItemToArray(capabilities, capability_row(test, is_declared, is_declared ? NULL : missing, r.status));
        if (options->progress && r.status != VERDICT_SKIPPED)
            fprintf(stderr, "  GPU%u %-32s %-12s %8.1f ms%s%s\n", device_index, test->id, verdict_name(r.status),
                    duration, r.reason[0] ? "  " : "", r.reason);
    }
}
