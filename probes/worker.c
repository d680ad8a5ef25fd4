#include "worker.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "artifacts.h"
#include "session.h"
#include "smoke.h"
#include "vulkan_instance.h"

pid_t worker_pids[WORKER_MAX];

static enum smoke_fault fault_for(const char *id)
{
#ifdef PREFLIGHT_FAULT_INJECTION
    /* Test builds only: PREFLIGHT_FAULT="compute.buffer=crash,compute.barrier=hang,compute.1x1=wrong,compute.atomics=lost";
     * wrong-once: a wrong result the first time the test runs in the probe's run, a pass when it
     * runs again (--repeat), told apart by a file per test in PREFLIGHT_FAULT_ONCE_DIR */
    const char *spec = getenv("PREFLIGHT_FAULT");
    size_t length = strlen(id);
    for (const char *at = spec; at != NULL && *at != '\0';) {
        if (strncmp(at, id, length) == 0 && at[length] == '=') {
            const char *kind = at + length + 1;
            const char *once_dir = getenv("PREFLIGHT_FAULT_ONCE_DIR");
            if (strncmp(kind, "wrong-once", 10) == 0 && once_dir != NULL) {
                char marker[4096];
                snprintf(marker, sizeof(marker), "%s/%s", once_dir, id);
                int fd = open(marker, O_CREAT | O_EXCL | O_WRONLY, 0600);
                if (fd < 0)
                    return SMOKE_FAULT_NONE; /* it failed before: this time it passes */
                close(fd);
                return SMOKE_FAULT_WRONG_RESULT;
            }
            if (strncmp(kind, "crash", 5) == 0)
                return SMOKE_FAULT_CRASH;
            if (strncmp(kind, "hang", 4) == 0)
                return SMOKE_FAULT_HANG;
            if (strncmp(kind, "wrong", 5) == 0)
                return SMOKE_FAULT_WRONG_RESULT;
            if (strncmp(kind, "lost", 4) == 0)
                return SMOKE_FAULT_DEVICE_LOST;
        }
        at = strchr(at, ',');
        at = at ? at + 1 : NULL;
    }
#else
    (void)id;
#endif
    return SMOKE_FAULT_NONE;
}

static bool write_all(int fd, const char *text, size_t length)
{
    for (size_t done = 0; done < length;) {
        ssize_t n = write(fd, text + done, length - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += (size_t)n;
    }
    return true;
}

static void answer(int fd, const struct smoke_outcome *outcome)
{
    cJSON *result = cJSON_CreateObject();
    cJSON_AddStringToObject(result, "status", verdict_name(outcome->status));
    cJSON_AddStringToObject(result, "reason", outcome->reason);
    cJSON_AddItemToObject(result, "evidence", outcome->evidence);
    char *text = cJSON_PrintUnformatted(result); /* one line: cJSON escapes newlines in strings */
    bool ok = text != NULL && write_all(fd, text, strlen(text)) && write_all(fd, "\n", 1);
    free(text);
    cJSON_Delete(result);
    if (!ok)
        _exit(1); /* the runner is gone or the answer could not be built: nothing to tell */
}

/* The worker's life: one instance and one shared device (session.h), then one test per index
 * read, until the pipe closes. */
static _Noreturn void worker_main(const struct worker_context *context, int command_fd, int result_fd)
{
    /* Anything the driver or a validation layer prints must not land in a report on stdout. */
    dup2(STDERR_FILENO, STDOUT_FILENO);
    artifacts_configure(context->artifacts_dir, context->artifact_prefix);
    struct vulkan_instance vi;
    bool reachable = vulkan_instance_open(&vi) == VULKAN_INSTANCE_OK && context->device_index < vi.device_count;
    struct smoke_session session;
    if (reachable)
        smoke_session_init(&session, context->declared, vi.instance, vi.devices[context->device_index],
                           vulkan_effective_version(&vi, vi.devices[context->device_index]), context->selected,
                           context->fresh_device, &context->power);
    for (;;) {
        uint32_t index;
        ssize_t n;
        while ((n = read(command_fd, &index, sizeof(index))) < 0 && errno == EINTR)
            ;
        if (n != (ssize_t)sizeof(index) || index >= smoke_test_count())
            break;
        const struct smoke_test *test = smoke_test_get(index);
        struct smoke_outcome outcome = {.status = VERDICT_FAIL};
        if (!reachable) {
            outcome.evidence = cJSON_CreateObject();
            smoke_set(&outcome, VERDICT_FAIL, "the test process could not reach the device (%s)",
                      vulkan_result_name(vi.last_result));
        } else {
            smoke_session_run(&session, test, fault_for(test->id), &outcome);
        }
        answer(result_fd, &outcome);
    }
    if (reachable)
        smoke_session_close(&session);
    vulkan_instance_close(&vi);
    _exit(0);
}

static void forget_pid(pid_t pid)
{
    for (size_t i = 0; i < WORKER_MAX; ++i)
        if (__atomic_load_n(&worker_pids[i], __ATOMIC_RELAXED) == pid)
            __atomic_store_n(&worker_pids[i], 0, __ATOMIC_RELAXED);
}

static bool remember_pid(pid_t pid)
{
    for (size_t i = 0; i < WORKER_MAX; ++i) {
        pid_t expected = 0;
        if (__atomic_compare_exchange_n(&worker_pids[i], &expected, pid, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return true;
    }
    return false;
}

bool worker_start(struct worker *w, const struct worker_context *context, char *error, size_t size)
{
    memset(w, 0, sizeof(*w));
    w->command_fd = w->result_fd = -1;
    int commands[2], results[2];
    fflush(NULL);
    if (pipe(commands) != 0) {
        snprintf(error, size, "pipe failed: %s", strerror(errno));
        return false;
    }
    if (pipe(results) != 0) {
        snprintf(error, size, "pipe failed: %s", strerror(errno));
        close(commands[0]);
        close(commands[1]);
        return false;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(error, size, "fork failed: %s", strerror(errno));
        close(commands[0]);
        close(commands[1]);
        close(results[0]);
        close(results[1]);
        return false;
    }
    if (pid == 0) {
        /* its own process group, killed as one; and killed with the probe, however the probe ends */
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(1); /* the probe ended before the line above */
        /* the probe's stop handler kills workers: a worker must not kill its siblings */
        signal(SIGTERM, SIG_DFL);
        signal(SIGINT, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        close(commands[1]);
        close(results[0]);
        /* the other workers' pipe ends, inherited from the runner: held open here, a sibling
         * would never see EOF on its command pipe, so close all but this worker's two */
        for (int fd = 3; fd < 1024; ++fd)
            if (fd != commands[0] && fd != results[1])
                close(fd);
        worker_main(context, commands[0], results[1]);
    }
    setpgid(pid, pid); /* also here: no window in which the group does not exist yet */
    remember_pid(pid);
    close(commands[0]);
    close(results[1]);
    w->pid = pid;
    w->command_fd = commands[1];
    w->result_fd = results[0];
    return true;
}

bool worker_send(struct worker *w, size_t test_index)
{
    uint32_t index = (uint32_t)test_index;
    return write_all(w->command_fd, (const char *)&index, sizeof(index));
}

/* Waits for the worker; one still running after `grace_ms` (a driver hanging in teardown) is killed. */
static void reap(struct worker *w, int *status, int grace_ms)
{
    if (w->command_fd >= 0)
        close(w->command_fd);
    if (w->result_fd >= 0)
        close(w->result_fd);
    w->command_fd = w->result_fd = -1;
    for (int waited = 0;; waited += 10) {
        pid_t done = waitpid(w->pid, status, WNOHANG);
        if (done == w->pid || (done < 0 && errno != EINTR))
            break;
        if (waited >= grace_ms) {
            kill(-w->pid, SIGKILL);
            while (waitpid(w->pid, status, 0) < 0 && errno == EINTR)
                ;
            break;
        }
        usleep(10000);
    }
    kill(-w->pid, SIGKILL); /* anything the tests left behind in the group */
    forget_pid(w->pid);
    w->pid = 0;
    free(w->line);
    w->line = NULL;
    w->length = w->capacity = 0;
}

static void parse_answer(char *text, struct worker_result *r)
{
    cJSON *answer = cJSON_Parse(text);
    enum verdict parsed;
    const char *status_name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answer, "status"));
    r->evidence = NULL;
    if (status_name != NULL && verdict_parse(status_name, &parsed)) {
        r->status = parsed;
        snprintf(r->reason, sizeof(r->reason), "%s",
                 cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(answer, "reason")) ?: "");
        r->evidence = cJSON_DetachItemFromObjectCaseSensitive(answer, "evidence");
    } else {
        r->status = VERDICT_CRASHED;
        snprintf(r->reason, sizeof(r->reason), "the test process sent an answer that is not a result");
    }
    cJSON_Delete(answer);
}

int worker_receive(struct worker *w, struct worker_result *r)
{
    if (w->length + 4096 > w->capacity) {
        size_t capacity = w->capacity ? w->capacity * 2 : 1 << 16;
        char *bigger = realloc(w->line, capacity);
        if (bigger == NULL) {
            worker_kill(w);
            r->status = VERDICT_CRASHED;
            r->evidence = NULL;
            snprintf(r->reason, sizeof(r->reason), "the probe ran out of memory reading the test's answer");
            return -1;
        }
        w->line = bigger;
        w->capacity = capacity;
    }
    ssize_t n = read(w->result_fd, w->line + w->length, w->capacity - w->length - 1);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (n > 0) {
        size_t scanned = w->length;
        w->length += (size_t)n;
        char *end = memchr(w->line + scanned, '\n', w->length - scanned);
        if (end == NULL)
            return 0;
        /* one test is answered at a time, so nothing follows the newline */
        *end = '\0';
        parse_answer(w->line, r);
        w->length = 0;
        return 1;
    }
    /* EOF or an error: the worker ended in the middle of a test */
    int status = 0;
    reap(w, &status, 2000);
    r->evidence = NULL;
    r->status = VERDICT_CRASHED;
    if (WIFSIGNALED(status))
        snprintf(r->reason, sizeof(r->reason), "the test process was killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(r->reason, sizeof(r->reason), "the test process exited with status %d without a result",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return -1;
}

void worker_kill(struct worker *w)
{
    if (w->pid <= 0)
        return;
    kill(-w->pid, SIGKILL); /* the worker's whole process group: nothing it started survives */
    int status;
    reap(w, &status, 0);
}

void worker_stop(struct worker *w)
{
    if (w->pid <= 0)
        return;
    close(w->command_fd); /* the worker reads EOF and exits */
    w->command_fd = -1;
    int status;
    reap(w, &status, 5000);
}
