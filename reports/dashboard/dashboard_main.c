/* preflight-dashboard: the command line (serve, token, import). docs/dashboard.md describes it. */
#include <errno.h>
#include <pthread.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifact_store.h"
#include "expectations.h"
#include "html.h"
#include "ingest.h"
#include "json_file.h"
#include "report_artifacts.h"
#include "report.h"
#include "schema.h"
#include "server.h"
#include "tokens.h"

static const char usage_text[] =
    "usage: preflight-dashboard COMMAND --db FILE|postgresql://... [options]\n"
    "  serve [--listen ADDR:PORT] [--public-read] [--tls-cert F --tls-key F] [--quiet]\n"
    "        [--max-connections N] [--max-per-address N] [--header-deadline S] [--request-deadline S]\n"
    "                          serve pages, API and uploads (default listen 127.0.0.1:8470);\n"
    "                          at most N connections (default 256), N of one client address\n"
    "                          (default 64; 0: no limit, e.g. behind a proxy), a request's headers\n"
    "                          within S seconds of the connection's start or previous response\n"
    "                          (default 10), its body within S seconds after them (default 120)\n"
    "        [--behind-tls] [--public-url URL]\n"
    "                          browsers reach it over HTTPS through a proxy: Secure cookies;\n"
    "                          URL (https://dash.example) is where browsers reach it: its origin\n"
    "                          may post the sign-in and sign-out forms (https: as --behind-tls)\n"
    "        [--expectations FILE]\n"
    "                          known failures, flakes and skips per device (docs/expectations.md):\n"
    "                          the fleet gate fails only on what is not expected; read at start\n"
    "        [--webhook URL --webhook-secret FILE] [--webhook-attempts N] [--webhook-retry S]\n"
    "                          POST each new regression, unexpected failure (with --expectations)\n"
    "                          and lost GPU to URL as JSON, signed with FILE's secret (HMAC-SHA-256,\n"
    "                          header X-Preflight-Signature-256); a failed delivery is tried again\n"
    "                          after S seconds (default 1), doubling, N attempts in all (default 8)\n"
    "        [--token-artifact-quota MIB]\n"
    "                          the artifact bytes one token may store in 24 hours (default 1024);\n"
    "                          a report's artifacts: at most 64 files and 16 MiB\n"
    "  token add NAME          create an upload/read token; prints it once\n"
    "  token list              names, creation dates, revocations, artifacts stored\n"
    "  token revoke NAME       the token stops working at once\n"
    "  import [--jobs N] [--artifacts DIR] REPORT...\n"
    "                          store reports without HTTP (each once, like an upload); N threads\n"
    "                          check and compress them (default: the number of CPUs); the PNG\n"
    "                          artifacts they name are read from DIR (default: the folder\n"
    "                          'artifacts' beside each report, else its own folder)\n"
    "  --db may also come from $PREFLIGHT_DASHBOARD_DB.\n"
    "  --help, --version\n";

static int usage_error(const char *message, const char *detail)
{
    fprintf(stderr, "preflight-dashboard: ");
    fprintf(stderr, message, detail);
    fprintf(stderr, "\n%s", usage_text);
    return 2;
}

/* serve --expectations: the file parsed once, before the server starts; NULL after saying why. */
static struct expectations *load_expectations(const char *path)
{
    char error[512];
    size_t length = 0;
    char *text = json_file_read(path, 64u << 20, &length, error, sizeof(error));
    struct expectations *e = NULL;
    if (text == NULL)
        fprintf(stderr, "preflight-dashboard: %s\n", error);
    else if (strlen(text) != length)
        fprintf(stderr, "preflight-dashboard: %s: holds a NUL byte, not an expectations file\n", path);
    else if ((e = expectations_parse(text, error, sizeof(error))) == NULL)
        fprintf(stderr, "preflight-dashboard: %s: %s\n", path, error);
    free(text);
    return e;
}

static struct db *open_database(const char *target)
{
    char error[512];
    struct db *db = db_open(target, error, sizeof(error));
    if (db == NULL || !schema_prepare(db, NULL, error, sizeof(error))) {
        fprintf(stderr, "preflight-dashboard: %s\n", error);
        db_close(db);
        return NULL;
    }
    return db;
}

static char *read_whole(const char *path, size_t *length, char *error, size_t size)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (f == NULL) {
        snprintf(error, size, "%s: %s", path, strerror(errno));
        return NULL;
    }
    struct buf b = {0};
    char chunk[65536];
    size_t n;
    bool too_large = false;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        if (b.length + n > INGEST_MAX_BODY) {
            too_large = true;
            break;
        }
        buf_add_bytes(&b, chunk, n);
    }
    bool read_error = ferror(f);
    if (f != stdin)
        fclose(f);
    if (too_large || read_error || b.failed) {
        snprintf(error, size, "%s: %s", path,
                 too_large    ? "larger than 16 MiB (the upload limit)"
                 : read_error ? "read error"
                              : "out of memory");
        buf_free(&b);
        return NULL;
    }
    if (b.data == NULL)
        buf_add(&b, "");
    *length = b.length;
    return b.data;
}

/* Import on several cores: workers read, check, extract and compress the reports in any order;
 * the main thread stores them in the order given (one writer, as the database wants), never more
 * than a small window ahead of it, so memory stays bounded on any number of files. */
struct import_slot {
    struct ingest_prepared *prepared;
    enum ingest_status status;
    char message[768];
    bool ready;
};

struct import_work {
    char **paths;
    int count, next, stored, window;
    struct import_slot *slots;
    pthread_mutex_t lock;
    pthread_cond_t ready, progressed;
};

static void *import_worker(void *argument)
{
    struct import_work *w = argument;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        while (w->next < w->count && w->next >= w->stored + w->window)
            pthread_cond_wait(&w->progressed, &w->lock);
        if (w->next >= w->count) {
            pthread_mutex_unlock(&w->lock);
            return NULL;
        }
        int i = w->next++;
        pthread_mutex_unlock(&w->lock);
        struct import_slot *slot = &w->slots[i];
        size_t length = 0;
        char *body = read_whole(w->paths[i], &length, slot->message, sizeof(slot->message));
        slot->status = INGEST_INVALID;
        if (body != NULL)
            slot->prepared = ingest_prepare(body, length, NULL, &slot->status, slot->message, sizeof(slot->message));
        free(body);
        pthread_mutex_lock(&w->lock);
        slot->ready = true;
        pthread_cond_broadcast(&w->ready);
        pthread_mutex_unlock(&w->lock);
    }
}

/* The PNG files a stored report names, from its folder, stored as an upload would: returns how many. */
static int import_artifacts(struct db *db, const struct ingest_prepared *p, const char *given, const char *path)
{
    char dir[4200], why[4600], message[512];
    report_artifacts_dir(given, path, dir, sizeof(dir));
    size_t count = 0;
    const struct report_artifact *named = ingest_prepared_artifacts(p, &count);
    int stored = 0;
    for (size_t i = 0; i < count; ++i) {
        size_t length = 0;
        char *data = report_artifact_read(dir, &named[i], &length, why, sizeof(why));
        if (data == NULL) {
            if (why[0])
                fprintf(stderr, "preflight-dashboard: %s: artifact %s\n", path, why);
            continue;
        }
        enum artifact_status status = artifact_store(db, ingest_prepared_key(p), named[i].sha256, data, length, NULL,
                                                     &ARTIFACT_QUOTA_DEFAULT, message, sizeof(message));
        free(data);
        if (status == ARTIFACT_STORED || status == ARTIFACT_KNOWN)
            ++stored;
        else
            fprintf(stderr, "preflight-dashboard: %s: %s\n", path, message);
    }
    return stored;
}

static int command_import(struct db *db, int count, char **paths, long jobs, const char *artifacts)
{
    if (count == 0)
        return usage_error("%s", "import needs at least one REPORT");
    struct import_work w = {.paths = paths, .count = count, .window = (int)jobs * 4};
    w.slots = calloc((size_t)count, sizeof(*w.slots));
    pthread_t *threads = calloc((size_t)jobs, sizeof(*threads));
    if (w.slots == NULL || threads == NULL) {
        fprintf(stderr, "preflight-dashboard: out of memory\n");
        free(w.slots);
        free(threads);
        return 1;
    }
    pthread_mutex_init(&w.lock, NULL);
    pthread_cond_init(&w.ready, NULL);
    pthread_cond_init(&w.progressed, NULL);
    long started = 0;
    for (; started < jobs; ++started)
        if (pthread_create(&threads[started], NULL, import_worker, &w) != 0)
            break;
    if (started == 0)
        import_worker(&w); /* no thread could start: do it here */
    int stored = 0, duplicates = 0, refused = 0, i = 0;
    bool database_failed = false;
    for (; i < count && !database_failed; ++i) {
        struct import_slot *slot = &w.slots[i];
        pthread_mutex_lock(&w.lock);
        while (!slot->ready)
            pthread_cond_wait(&w.ready, &w.lock);
        pthread_mutex_unlock(&w.lock);
        if (slot->prepared != NULL) {
            const struct ingest_source source = {"import", paths[i], NULL}; /* no webhook events: not an upload */
            int64_t id = 0;
            slot->status = ingest_store(db, slot->prepared, &source, &id, slot->message, sizeof(slot->message));
            int images = slot->status == INGEST_STORED || slot->status == INGEST_DUPLICATE
                             ? import_artifacts(db, slot->prepared, artifacts, paths[i])
                             : 0;
            char with[64] = "";
            if (images > 0)
                snprintf(with, sizeof(with), " with %d artifact%s", images, images == 1 ? "" : "s");
            if (slot->status == INGEST_STORED)
                printf("%s: stored as report %lld%s\n", paths[i], (long long)id, with);
            else if (slot->status == INGEST_DUPLICATE)
                printf("%s: already stored (report %lld)%s\n", paths[i], (long long)id, with);
        }
        stored += slot->status == INGEST_STORED;
        duplicates += slot->status == INGEST_DUPLICATE;
        if (slot->status == INGEST_INVALID || slot->status == INGEST_FAILED) {
            fprintf(stderr, "preflight-dashboard: %s: %s\n", paths[i], slot->message);
            ++refused;
            database_failed = slot->status == INGEST_FAILED && slot->prepared != NULL;
        }
        ingest_prepared_free(slot->prepared);
        slot->prepared = NULL;
        pthread_mutex_lock(&w.lock);
        w.stored = i + 1;
        if (database_failed)
            w.next = w.count; /* the workers stop */
        pthread_cond_broadcast(&w.progressed);
        pthread_mutex_unlock(&w.lock);
    }
    for (long t = 0; t < started; ++t)
        pthread_join(threads[t], NULL);
    for (int rest = i; rest < count; ++rest)
        ingest_prepared_free(w.slots[rest].prepared);
    pthread_mutex_destroy(&w.lock);
    pthread_cond_destroy(&w.ready);
    pthread_cond_destroy(&w.progressed);
    free(w.slots);
    free(threads);
    fprintf(stderr, "preflight-dashboard: import: %d stored, %d already there, %d refused%s\n", stored, duplicates,
            refused, database_failed ? " (stopped: the database failed)" : "");
    return refused ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("preflight-dashboard %s (schema %d)\n", PREFLIGHT_VERSION, SCHEMA_VERSION);
        return 0;
    }
    if (argc < 2)
        return usage_error("%s", "a COMMAND is needed");
    const char *command = argv[1];
    bool serve = strcmp(command, "serve") == 0, token = strcmp(command, "token") == 0,
         import = strcmp(command, "import") == 0;
    if (!serve && !token && !import)
        return usage_error("unknown command '%s'", command);
    struct server_options o = {.max_connections = SERVER_DEFAULT_MAX_CONNECTIONS,
                               .max_per_address = SERVER_DEFAULT_MAX_PER_ADDRESS,
                               .header_deadline = SERVER_DEFAULT_HEADER_DEADLINE,
                               .request_deadline = SERVER_DEFAULT_REQUEST_DEADLINE,
                               .token_artifact_bytes = ARTIFACT_TOKEN_DAY_MAX_BYTES};
    o.database = getenv("PREFLIGHT_DASHBOARD_DB");
    char **positional = calloc((size_t)argc, sizeof(*positional));
    int positionals = 0;
    const char *artifacts = NULL, *expectations_path = NULL, *webhook_url = NULL, *webhook_secret = NULL;
    long webhook_attempts = WEBHOOK_DEFAULT_ATTEMPTS;
    double webhook_retry = WEBHOOK_DEFAULT_FIRST_RETRY;
    long jobs = sysconf(_SC_NPROCESSORS_ONLN);
    jobs = jobs < 1 ? 1 : jobs > 16 ? 16 : jobs;
    if (positional == NULL)
        return 1;
    for (int i = 2; i < argc; ++i) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--db") == 0 && has_value)
            o.database = argv[++i];
        else if (serve && strcmp(a, "--listen") == 0 && has_value)
            o.listen = argv[++i];
        else if (serve && strcmp(a, "--tls-cert") == 0 && has_value)
            o.tls_cert = argv[++i];
        else if (serve && strcmp(a, "--tls-key") == 0 && has_value)
            o.tls_key = argv[++i];
        else if (serve && strcmp(a, "--public-read") == 0)
            o.public_read = true;
        else if (serve && strcmp(a, "--behind-tls") == 0)
            o.behind_tls = true;
        else if (serve && strcmp(a, "--public-url") == 0 && has_value) {
            o.public_url = argv[++i];
            const char *host = strstr(o.public_url, "://");
            bool scheme = strncmp(o.public_url, "http://", 7) == 0 || strncmp(o.public_url, "https://", 8) == 0;
            if (!scheme || host[3] == '\0' || host[3] == '/' || strlen(o.public_url) > 200) {
                free(positional);
                return usage_error("--public-url needs http://HOST[:PORT] or https://HOST[:PORT], not '%s'",
                                   o.public_url);
            }
        } else if (serve && has_value && (strcmp(a, "--max-connections") == 0 || strcmp(a, "--max-per-address") == 0)) {
            char *end = NULL;
            long n = strtol(argv[++i], &end, 10);
            bool total = strcmp(a, "--max-connections") == 0;
            if (end == argv[i] || *end != '\0' || n < (total ? 1 : 0) || n > 10000) {
                free(positional);
                return usage_error(total ? "--max-connections needs a number from 1 to 10000, not '%s'"
                                         : "--max-per-address needs a number from 0 to 10000, not '%s'",
                                   argv[i]);
            }
            *(total ? &o.max_connections : &o.max_per_address) = (unsigned)n;
        } else if (serve && has_value && strcmp(a, "--token-artifact-quota") == 0) {
            char *end = NULL;
            long mib = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || mib < 1 || mib > 1024 * 1024) {
                free(positional);
                return usage_error("--token-artifact-quota needs MiB from 1 to 1048576, not '%s'", argv[i]);
            }
            o.token_artifact_bytes = (unsigned long long)mib * 1024 * 1024;
        } else if (serve && has_value &&
                   (strcmp(a, "--header-deadline") == 0 || strcmp(a, "--request-deadline") == 0)) {
            char *end = NULL;
            double seconds = strtod(argv[++i], &end);
            if (end == argv[i] || *end != '\0' || !(seconds >= 0.5 && seconds <= 3600)) {
                free(positional);
                return usage_error("a deadline needs seconds from 0.5 to 3600, not '%s'", argv[i]);
            }
            *(strcmp(a, "--header-deadline") == 0 ? &o.header_deadline : &o.request_deadline) = seconds;
        } else if (import && strcmp(a, "--jobs") == 0 && has_value) {
            char *end = NULL;
            jobs = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || jobs < 1 || jobs > 64) {
                free(positional);
                return usage_error("--jobs needs a number from 1 to 64, not '%s'", argv[i]);
            }
        } else if (import && strcmp(a, "--artifacts") == 0 && has_value)
            artifacts = argv[++i];
        else if (serve && strcmp(a, "--expectations") == 0 && has_value)
            expectations_path = argv[++i];
        else if (serve && strcmp(a, "--webhook") == 0 && has_value)
            webhook_url = argv[++i];
        else if (serve && strcmp(a, "--webhook-secret") == 0 && has_value)
            webhook_secret = argv[++i];
        else if (serve && strcmp(a, "--webhook-attempts") == 0 && has_value) {
            char *end = NULL;
            webhook_attempts = strtol(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0' || webhook_attempts < 1 || webhook_attempts > 100) {
                free(positional);
                return usage_error("--webhook-attempts needs a number from 1 to 100, not '%s'", argv[i]);
            }
        } else if (serve && strcmp(a, "--webhook-retry") == 0 && has_value) {
            char *end = NULL;
            webhook_retry = strtod(argv[++i], &end);
            if (end == argv[i] || *end != '\0' || !(webhook_retry >= 1 && webhook_retry <= 3600)) {
                free(positional);
                return usage_error("--webhook-retry needs seconds from 1 to 3600, not '%s'", argv[i]);
            }
        } else if (serve && strcmp(a, "--quiet") == 0)
            o.quiet = true;
        else if (strcmp(a, "--help") == 0) {
            fputs(usage_text, stdout);
            free(positional);
            return 0;
        } else if (a[0] == '-' && a[1] != '\0') {
            free(positional);
            bool takes_value = strcmp(a, "--db") == 0 || strcmp(a, "--listen") == 0 || strcmp(a, "--tls-cert") == 0 ||
                               strcmp(a, "--tls-key") == 0 || strcmp(a, "--jobs") == 0 ||
                               strcmp(a, "--artifacts") == 0 || strcmp(a, "--max-connections") == 0 ||
                               strcmp(a, "--max-per-address") == 0 || strcmp(a, "--header-deadline") == 0 ||
                               strcmp(a, "--request-deadline") == 0 || strcmp(a, "--token-artifact-quota") == 0 ||
                               strcmp(a, "--public-url") == 0 || strcmp(a, "--expectations") == 0 ||
                               strcmp(a, "--webhook") == 0 || strcmp(a, "--webhook-secret") == 0 ||
                               strcmp(a, "--webhook-attempts") == 0 || strcmp(a, "--webhook-retry") == 0;
            return usage_error(
                takes_value && !has_value ? "option '%s' needs a value" : "unknown option '%s' for this command", a);
        } else
            positional[positionals++] = argv[i];
    }
    int status;
    if (o.database == NULL || *o.database == '\0') {
        status = usage_error("%s", "--db FILE|postgresql://... is needed");
    } else if (serve) {
        struct expectations *e = NULL;
        struct webhook_options webhook;
        char error[512];
        if (positionals)
            status = usage_error("serve takes no argument '%s'", positional[0]);
        else if (webhook_url == NULL && webhook_secret != NULL)
            status = usage_error("%s", "--webhook-secret without --webhook");
        else if (webhook_url != NULL && !webhook_configure(&webhook, webhook_url, webhook_secret, error, sizeof(error)))
            status = usage_error("%s", error);
        else if (expectations_path != NULL && (e = load_expectations(expectations_path)) == NULL)
            status = 2;
        else {
            o.expectations = e;
            if (webhook_url != NULL) {
                webhook.attempts = (unsigned)webhook_attempts;
                webhook.first_retry = webhook_retry;
                o.webhook = &webhook;
            }
            status = server_run(&o);
        }
        expectations_free(e);
        memset(&webhook, 0, sizeof(webhook)); /* the secret */
    } else {
        struct db *db = open_database(o.database);
        if (db == NULL) {
            status = 1;
        } else if (import) {
            status = command_import(db, positionals, positional, jobs, artifacts);
        } else {
            char error[512];
            const char *action = positionals ? positional[0] : "";
            if (strcmp(action, "add") == 0 && positionals == 2) {
                char text[TOKEN_TEXT_SIZE];
                status = token_add(db, positional[1], text, error, sizeof(error)) ? 0 : 1;
                if (status == 0)
                    printf("%s\n", text);
            } else if (strcmp(action, "list") == 0 && positionals == 1) {
                status = token_list(db, error, sizeof(error)) ? 0 : 1;
            } else if (strcmp(action, "revoke") == 0 && positionals == 2) {
                status = token_revoke(db, positional[1], error, sizeof(error)) ? 0 : 1;
                if (status == 0)
                    fprintf(stderr, "preflight-dashboard: token '%s' revoked\n", positional[1]);
            } else {
                error[0] = '\0';
                status = usage_error("%s", "token add NAME | token list | token revoke NAME");
            }
            if (status == 1)
                fprintf(stderr, "preflight-dashboard: %s\n", error);
        }
        db_close(db);
    }
    free(positional);
    return status;
}
