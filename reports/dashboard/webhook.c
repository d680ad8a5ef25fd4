/* The webhook's outbox and its delivery thread (webhook.h). */
#include "webhook.h"

#include <curl/curl.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sha256.h"
#include "tokens.h"

#define DELIVERY_TIMEOUT_MS 10000L
#define CLAIM_SECONDS 60       /* a row claimed by a sender that died is taken again after this */
#define MAX_RETRY_SECONDS 3600 /* the longest wait between two attempts */
#define BATCH 16               /* rows read at a time */

bool webhook_configure(struct webhook_options *o, const char *url, const char *secret_file, char *error, size_t size)
{
    memset(o, 0, sizeof(*o));
    o->attempts = WEBHOOK_DEFAULT_ATTEMPTS;
    o->first_retry = WEBHOOK_DEFAULT_FIRST_RETRY;
    if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) {
        snprintf(error, size, "--webhook %s: the URL must start with http:// or https://", url);
        return false;
    }
    if (secret_file == NULL) {
        snprintf(error, size, "--webhook needs --webhook-secret FILE (the receiver checks each delivery's signature)");
        return false;
    }
    FILE *f = fopen(secret_file, "rb");
    if (f == NULL) {
        snprintf(error, size, "--webhook-secret %s: %s", secret_file, strerror(errno));
        return false;
    }
    char buffer[WEBHOOK_SECRET_MAX + 2];
    size_t n = fread(buffer, 1, sizeof(buffer), f);
    fclose(f);
    while (n > 0 && (buffer[n - 1] == '\n' || buffer[n - 1] == '\r'))
        --n;
    if (n > WEBHOOK_SECRET_MAX) {
        snprintf(error, size, "--webhook-secret %s: longer than %d bytes", secret_file, WEBHOOK_SECRET_MAX);
        return false;
    }
    if (n < 16) {
        snprintf(error, size, "--webhook-secret %s: shorter than 16 bytes (a signature is only as good as its secret)",
                 secret_file);
        return false;
    }
    memcpy(o->secret, buffer, n);
    o->secret_length = n;
    o->url = url;
    return true;
}

static void iso_time(time_t t, char out[32])
{
    struct tm utc;
    gmtime_r(&t, &utc);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &utc);
}

bool webhook_enqueue(struct db *db, const char *event, cJSON *payload)
{
    char created[32];
    utc_now(created);
    cJSON *body = cJSON_CreateObject();
    cJSON_AddStringToObject(body, "event", event);
    cJSON_AddStringToObject(body, "created", created);
    cJSON *member;
    cJSON_ArrayForEach(member, payload)
    {
        cJSON *copy = cJSON_Duplicate(member, true);
        if (copy != NULL)
            cJSON_AddItemToObject(body, member->string, copy);
    }
    char *text = cJSON_PrintUnformatted(body);
    cJSON_Delete(body);
    if (text == NULL)
        return false;
    const struct db_param p[] = {DB_TEXT(event), DB_TEXT(text), DB_TEXT(created), DB_TEXT(created)};
    bool ok = db_exec(
        db, "INSERT INTO webhook_outbox (event, body, created, attempts, next_attempt) VALUES (?, ?, ?, 0, ?)", p, 4);
    free(text);
    return ok;
}

/* --- delivery -------------------------------------------------------------------------------- */

struct webhook_sender {
    struct webhook_options options;
    char url[2048];
    struct db *db;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool woken, stopping;
};

static size_t discard(char *data, size_t size, size_t count, void *user)
{
    (void)data;
    (void)user;
    return size * count;
}

/* One POST; true for a 2xx answer, else `error` says what came back. */
static bool post(const struct webhook_sender *s, int64_t id, const char *event, const char *body, char *error,
                 size_t size)
{
    char signature[65], header[3][160];
    hmac_sha256_hex(s->options.secret, s->options.secret_length, body, strlen(body), signature);
    snprintf(header[0], sizeof(header[0]), "X-Preflight-Event: %s", event);
    snprintf(header[1], sizeof(header[1]), "X-Preflight-Delivery: %lld", (long long)id);
    snprintf(header[2], sizeof(header[2]), "X-Preflight-Signature-256: sha256=%s", signature);
    struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
    for (int i = 0; i < 3 && headers != NULL; ++i)
        headers = curl_slist_append(headers, header[i]);
    CURL *curl = curl_easy_init();
    if (curl == NULL || headers == NULL) {
        snprintf(error, size, "out of memory");
        curl_slist_free_all(headers);
        if (curl)
            curl_easy_cleanup(curl);
        return false;
    }
    curl_easy_setopt(curl, CURLOPT_URL, s->url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(body));
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "preflight-dashboard/0.1.0");
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, DELIVERY_TIMEOUT_MS);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
    CURLcode code = curl_easy_perform(curl);
    long status = 0;
    if (code == CURLE_OK)
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(curl);
    curl_slist_free_all(headers);
    if (code != CURLE_OK) {
        snprintf(error, size, "%s", curl_easy_strerror(code));
        return false;
    }
    if (status < 200 || status > 299) {
        snprintf(error, size, "HTTP %ld", status);
        return false;
    }
    return true;
}

/* Takes a due row for this sender (false when another sender has it). */
static bool claim(struct db *db, int64_t id, time_t now)
{
    char now_text[32], until[32];
    iso_time(now, now_text);
    iso_time(now + CLAIM_SECONDS, until);
    const struct db_param p[] = {DB_TEXT(until), DB_INT(id), DB_TEXT(now_text)};
    if (!db_begin_write(db))
        return false;
    struct db_result *r = db_query(db,
                                   "UPDATE webhook_outbox SET claimed_until = ? WHERE id = ? AND delivered IS NULL "
                                   "AND failed IS NULL AND (claimed_until IS NULL OR claimed_until < ?) RETURNING id",
                                   p, 3);
    bool taken = r != NULL && db_result_rows(r) == 1;
    db_result_free(r);
    if (r == NULL || !db_commit(db)) {
        db_rollback(db);
        return false;
    }
    return taken;
}

static void record(struct db *db, int64_t id, int attempts, bool delivered, const struct webhook_options *o,
                   const char *error, time_t now)
{
    char now_text[32], next[32];
    iso_time(now, now_text);
    double wait = o->first_retry;
    for (int i = 1; i < attempts && wait < MAX_RETRY_SECONDS; ++i)
        wait *= 2;
    if (wait > MAX_RETRY_SECONDS)
        wait = MAX_RETRY_SECONDS;
    iso_time(now + (time_t)(wait + 0.5), next);
    bool spent = !delivered && (unsigned)attempts >= o->attempts;
    const struct db_param p[] = {
        DB_INT(attempts), delivered ? DB_TEXT(now_text) : DB_NULL, spent ? DB_TEXT(now_text) : DB_NULL,
        DB_TEXT(next),    delivered ? DB_NULL : DB_TEXT(error),    DB_INT(id)};
    if (!db_begin_write(db))
        return;
    if (db_exec(db,
                "UPDATE webhook_outbox SET attempts = ?, delivered = ?, failed = ?, next_attempt = ?, last_error = ?, "
                "claimed_until = NULL WHERE id = ?",
                p, 6))
        db_commit(db);
    else
        db_rollback(db);
    if (spent)
        fprintf(stderr, "preflight-dashboard: webhook: event %lld not delivered after %d attempts (%s)\n",
                (long long)id, attempts, error);
}

/* Sends what is due; true when a whole batch was due (more may be waiting). */
static bool deliver_due(struct webhook_sender *s)
{
    time_t now = time(NULL);
    char now_text[32];
    iso_time(now, now_text);
    const struct db_param p[] = {DB_TEXT(now_text)};
    struct db_result *r =
        db_query(s->db,
                 "SELECT id, event, body, attempts FROM webhook_outbox WHERE delivered IS NULL AND failed IS NULL AND "
                 "next_attempt <= ? ORDER BY id LIMIT 16", /* BATCH */
                 p, 1);
    for (size_t i = 0; r != NULL && i < db_result_rows(r); ++i) {
        int64_t id = db_result_int(r, i, 0);
        if (!claim(s->db, id, now))
            continue;
        char error[256] = "";
        bool ok = post(s, id, db_result_text(r, i, 1), db_result_text(r, i, 2), error, sizeof(error));
        record(s->db, id, (int)db_result_int(r, i, 3) + 1, ok, &s->options, error, time(NULL));
    }
    size_t rows = r ? db_result_rows(r) : 0;
    db_result_free(r);
    return rows == BATCH;
}

static void *sender_main(void *arg)
{
    struct webhook_sender *s = arg;
    pthread_mutex_lock(&s->lock);
    while (!s->stopping) {
        s->woken = false;
        pthread_mutex_unlock(&s->lock);
        bool more = deliver_due(s);
        pthread_mutex_lock(&s->lock);
        if (s->stopping || s->woken || more)
            continue;
        /* a wake-up, or a second: a retry falls due, another process stores events, a claim runs out */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&s->wake, &s->lock, &until);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

struct webhook_sender *webhook_start(const struct webhook_options *o, const char *database, char *error, size_t size)
{
    struct webhook_sender *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        snprintf(error, size, "out of memory");
        return NULL;
    }
    s->options = *o;
    snprintf(s->url, sizeof(s->url), "%s", o->url);
    s->options.url = s->url;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        snprintf(error, size, "webhook: libcurl could not start");
        free(s);
        return NULL;
    }
    s->db = db_open(database, error, size);
    if (s->db == NULL) {
        curl_global_cleanup();
        free(s);
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    if (pthread_create(&s->thread, NULL, sender_main, s) != 0) {
        snprintf(error, size, "webhook: no thread");
        db_close(s->db);
        curl_global_cleanup();
        free(s);
        return NULL;
    }
    return s;
}

void webhook_wake(struct webhook_sender *s)
{
    if (s == NULL)
        return;
    pthread_mutex_lock(&s->lock);
    s->woken = true;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
}

void webhook_stop(struct webhook_sender *s)
{
    if (s == NULL)
        return;
    pthread_mutex_lock(&s->lock);
    s->stopping = true;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    db_close(s->db);
    pthread_cond_destroy(&s->wake);
    pthread_mutex_destroy(&s->lock);
    curl_global_cleanup();
    memset(s->options.secret, 0, sizeof(s->options.secret));
    free(s);
}
