#include "server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "db_pool.h"
#include "html.h"
#include "ingest.h"
#include "schema.h"
#include "sha256.h"
#include "tokens.h"
#include "views.h"
#include "views_html.h"

#define DB_CONNECTIONS 8
#define MAX_CONNECTIONS 256
#define IDLE_TIMEOUT_SECONDS 30      /* a connection that sends nothing for this long is closed */
#define REQUEST_DEADLINE_SECONDS 120 /* an upload that takes longer is dropped */
#define LOGIN_BODY_MAX 4096

struct server {
    struct db_pool *pool;
    pthread_mutex_t write_lock; /* one ingest transaction at a time in this process */
    bool public_read, tls, quiet;
};

struct request {
    bool upload;
    struct buf body;
    bool checked; /* the upload's token and key were looked at */
    int refusal;  /* the status an upload gets instead of being stored (0: none) */
    const char *refusal_text;
    double started;
    int answered; /* a response is queued already */
    struct MHD_PostProcessor *post;
    char login_token[TOKEN_TEXT_SIZE + 8];
    char method[8], path[160]; /* for the access log: the path only, never the query or a header */
};

/* The status of the response this connection's thread queued last: for the access log (the
 * completion callback runs on the same thread, a thread per connection). */
static _Thread_local int queued_status;

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void security_headers(struct MHD_Response *response, const char *nonce)
{
    char csp[256];
    snprintf(csp, sizeof(csp),
             "default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-%s'; img-src 'self' data:; "
             "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
             nonce);
    MHD_add_response_header(response, "Content-Security-Policy", csp);
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(response, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(response, "Cache-Control", "no-store");
}

static enum MHD_Result send_bytes(struct MHD_Connection *c, int status, const char *type, const char *data,
                                  size_t length, const char *nonce, const char *filename)
{
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)data, MHD_RESPMEM_MUST_COPY);
    if (response == NULL)
        return MHD_NO;
    MHD_add_response_header(response, "Content-Type", type);
    security_headers(response, nonce ? nonce : "none");
    if (filename && *filename) {
        char disposition[200];
        snprintf(disposition, sizeof(disposition), "attachment; filename=\"%s\"", filename);
        MHD_add_response_header(response, "Content-Disposition", disposition);
    }
    enum MHD_Result r = MHD_queue_response(c, (unsigned)status, response);
    MHD_destroy_response(response);
    queued_status = status;
    return r;
}

static enum MHD_Result send_json(struct MHD_Connection *c, int status, const cJSON *document)
{
    char *text = cJSON_PrintUnformatted(document);
    if (text == NULL)
        return MHD_NO;
    enum MHD_Result r = send_bytes(c, status, "application/json", text, strlen(text), NULL, NULL);
    free(text);
    return r;
}

static enum MHD_Result send_message(struct MHD_Connection *c, int status, const char *message, bool html,
                                    const char *nonce)
{
    if (html) {
        struct buf b = {0};
        views_html_error(status, message, nonce, &b);
        enum MHD_Result r =
            b.failed ? MHD_NO : send_bytes(c, status, "text/html; charset=utf-8", b.data, b.length, nonce, NULL);
        buf_free(&b);
        return r;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "status", status);
    cJSON_AddStringToObject(o, "error", message);
    enum MHD_Result r = send_json(c, status, o);
    cJSON_Delete(o);
    return r;
}

static void make_nonce(char out[33])
{
    unsigned char random[16];
    if (getrandom(random, sizeof(random), 0) != (ssize_t)sizeof(random))
        memset(random, 0x5a, sizeof(random));
    for (size_t i = 0; i < sizeof(random); ++i)
        sprintf(out + 2 * i, "%02x", random[i]);
}

static const char *peer_of(struct MHD_Connection *c, char *out, size_t size)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    snprintf(out, size, "unknown");
    if (info == NULL || info->client_addr == NULL)
        return out;
    if (info->client_addr->sa_family == AF_INET)
        inet_ntop(AF_INET, &((const struct sockaddr_in *)info->client_addr)->sin_addr, out, (socklen_t)size);
    else if (info->client_addr->sa_family == AF_INET6)
        inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)info->client_addr)->sin6_addr, out, (socklen_t)size);
    return out;
}

/* The presented token: "Authorization: Bearer X", or the sign-in cookie. */
static const char *presented_token(struct MHD_Connection *c)
{
    const char *authorization = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    if (authorization && strncmp(authorization, "Bearer ", 7) == 0)
        return authorization + 7;
    return MHD_lookup_connection_value(c, MHD_COOKIE_KIND, "preflight_token");
}

static enum token_status authenticate(struct server *s, struct MHD_Connection *c, char name[TOKEN_NAME_MAX + 1])
{
    const char *token = presented_token(c);
    if (token == NULL || *token == '\0' || strlen(token) > 256)
        return TOKEN_UNKNOWN;
    struct db *db = db_pool_take(s->pool);
    enum token_status status = token_check(db, token, name);
    db_pool_give(s->pool, db);
    return status;
}

static enum MHD_Result collect_arg(void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
    (void)kind;
    struct query_args *q = cls;
    if (q->count == QUERY_MAX_ARGS) {
        q->overflow = true;
        return MHD_NO;
    }
    q->keys[q->count] = key;
    q->values[q->count++] = value ? value : "";
    return MHD_YES;
}

/* The query again, encoded, without the page number: for links that keep the filters. */
static void query_text(const struct query_args *q, struct buf *out)
{
    buf_add(out, "");
    for (size_t i = 0; i < q->count; ++i) {
        if (strcmp(q->keys[i], "page") == 0 || strcmp(q->keys[i], "group") == 0)
            continue;
        if (out->length)
            buf_add(out, "&");
        buf_url(out, q->keys[i]);
        buf_add(out, "=");
        buf_url(out, q->values[i]);
    }
}

static bool suspicious_path(const char *url)
{
    return strstr(url, "/../") != NULL || strstr(url, "/./") != NULL || strstr(url, "//") != NULL ||
           (strlen(url) >= 3 && strcmp(url + strlen(url) - 3, "/..") == 0) || strchr(url, '\\') != NULL;
}

static bool starts(const char *url, const char *prefix, const char **rest)
{
    size_t n = strlen(prefix);
    if (strncmp(url, prefix, n) != 0)
        return false;
    *rest = url + n;
    return true;
}

/* Runs the view for `path` (without the /api/v1 prefix); false when no route matches. */
static bool route(struct db *db, const char *path, const struct query_args *q, struct view_response *out)
{
    const char *rest;
    if (strcmp(path, "/") == 0 || strcmp(path, "/devices") == 0)
        view_devices(db, q, out);
    else if (starts(path, "/reports/", &rest) && *rest) {
        char id[40];
        const char *slash = strchr(rest, '/');
        snprintf(id, sizeof(id), "%.*s", slash ? (int)(slash - rest) : (int)strlen(rest), rest);
        if (slash)
            view_report_download(db, id, slash + 1, q, out);
        else
            view_report(db, id, out);
    } else if (starts(path, "/devices/", &rest) && *rest && !strchr(rest, '/'))
        view_device_history(db, rest, q, out);
    else if (strcmp(path, "/compare") == 0)
        view_compare(db, q, out);
    else if (strcmp(path, "/capabilities") == 0)
        view_capabilities(db, q, out);
    else if (starts(path, "/capabilities/", &rest) && *rest)
        view_capability(db, rest, q, out);
    else if (strcmp(path, "/fleet") == 0)
        view_fleet(db, q, out);
    else if (starts(path, "/fleet/", &rest) && *rest)
        view_fleet_download(db, rest, q, out);
    else
        return false;
    return true;
}

static enum MHD_Result serve_read(struct server *s, struct MHD_Connection *c, const char *url, const char *nonce)
{
    bool api = strncmp(url, "/api/v1/", 8) == 0 || strcmp(url, "/api/v1") == 0;
    const char *path = api ? url + 7 : url;
    if (*path == '\0')
        path = "/";
    if (!s->public_read) {
        char name[TOKEN_NAME_MAX + 1];
        enum token_status status = authenticate(s, c, name);
        if (status != TOKEN_VALID) {
            if (status == TOKEN_ERROR)
                return send_message(c, 503, "the database is not reachable", !api, nonce);
            if (!api) {
                struct buf b = {0};
                views_html_login(status == TOKEN_REVOKED ? "that token was revoked" : "", nonce, &b);
                enum MHD_Result r =
                    send_bytes(c, 401, "text/html; charset=utf-8", b.data ? b.data : "", b.length, nonce, NULL);
                buf_free(&b);
                return r;
            }
            return send_message(c, status == TOKEN_REVOKED ? 403 : 401,
                                status == TOKEN_REVOKED ? "the token was revoked"
                                                        : "reading needs a token (Authorization: Bearer)",
                                false, nonce);
        }
    }
    struct query_args q = {0};
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, collect_arg, &q);
    if (q.overflow) {
        char text[96];
        snprintf(text, sizeof(text), "more than %d query arguments", QUERY_MAX_ARGS);
        return send_message(c, 400, text, !api, nonce);
    }
    struct view_response out = {0};
    struct db *db = db_pool_take(s->pool);
    bool snapshot = db_begin_read(db);
    bool found = route(db, path, &q, &out);
    if (snapshot)
        db_commit(db);
    db_pool_give(s->pool, db);
    enum MHD_Result r;
    if (!found)
        r = send_message(c, 404, "no such page", !api, nonce);
    else if (out.status >= 400)
        r = send_message(c, out.status, out.message, !api, nonce);
    else if (out.body != NULL)
        r = send_bytes(c, 200, out.content_type, out.body, out.length, nonce, out.filename);
    else if (api)
        r = send_json(c, 200, out.model);
    else {
        struct buf page = {0}, query = {0};
        query_text(&q, &query);
        views_html(out.model, query.data, nonce, &page);
        r = page.failed ? send_message(c, 500, "out of memory", false, nonce)
                        : send_bytes(c, 200, "text/html; charset=utf-8", page.data, page.length, nonce, NULL);
        buf_free(&page);
        buf_free(&query);
    }
    view_response_free(&out);
    return r;
}

static bool hex64(const char *text)
{
    if (text == NULL || strlen(text) != 64)
        return false;
    for (const char *s = text; *s; ++s)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return false;
    return true;
}

static enum MHD_Result finish_upload(struct server *s, struct MHD_Connection *c, struct request *r,
                                     const char *token_name)
{
    const char *key = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Idempotency-Key");
    char hash[65];
    sha256_hex(r->body.data ? r->body.data : "", r->body.length, hash);
    if (strcmp(hash, key) != 0)
        return send_message(c, 400, "Idempotency-Key is not the SHA-256 of the body", false, NULL);
    char peer[64], message[768];
    peer_of(c, peer, sizeof(peer));
    const struct ingest_source source = {token_name, peer};
    int64_t id = 0;
    struct db *db = db_pool_take(s->pool);
    enum ingest_status status = INGEST_DUPLICATE;
    if (!ingest_known(db, hash, &id, message, sizeof(message))) {
        /* checked and extracted on this connection's thread, stored one at a time: writers of one
         * process queue on a mutex instead of polling the database's lock */
        struct ingest_prepared *p =
            ingest_prepare(r->body.data ? r->body.data : "", r->body.length, hash, &status, message, sizeof(message));
        if (p != NULL) {
            pthread_mutex_lock(&s->write_lock);
            status = ingest_store(db, p, &source, &id, message, sizeof(message));
            pthread_mutex_unlock(&s->write_lock);
            ingest_prepared_free(p);
        }
    }
    db_pool_give(s->pool, db);
    if (status == INGEST_INVALID)
        return send_message(c, 422, message, false, NULL);
    if (status == INGEST_FAILED)
        return send_message(c, 503, message, false, NULL);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "status", status == INGEST_STORED ? "stored" : "duplicate");
    cJSON_AddNumberToObject(o, "id", (double)id);
    char location[64];
    snprintf(location, sizeof(location), "/reports/%lld", (long long)id);
    cJSON_AddStringToObject(o, "url", location);
    enum MHD_Result result = send_json(c, status == INGEST_STORED ? 201 : 409, o);
    cJSON_Delete(o);
    return result;
}

static enum MHD_Result login_field(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                                   const char *content_type, const char *encoding, const char *data, uint64_t offset,
                                   size_t size)
{
    (void)kind, (void)filename, (void)content_type, (void)encoding;
    struct request *r = cls;
    if (strcmp(key, "token") == 0 && offset + size < sizeof(r->login_token)) {
        memcpy(r->login_token + offset, data, size);
        r->login_token[offset + size] = '\0';
    }
    return MHD_YES;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **context)
{
    (void)version;
    struct server *s = cls;
    struct request *r = *context;
    bool post = strcmp(method, MHD_HTTP_METHOD_POST) == 0;
    if (r == NULL) {
        r = calloc(1, sizeof(*r));
        if (r == NULL)
            return MHD_NO;
        r->started = now_seconds();
        snprintf(r->method, sizeof(r->method), "%s", method);
        snprintf(r->path, sizeof(r->path), "%s", url);
        for (char *p = r->path; *p; ++p) /* no control characters into the log */
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
        *context = r;
        if (post && strcmp(url, "/login") == 0) {
            r->post = MHD_create_post_processor(c, 1024, login_field, r);
            if (r->post != NULL)
                return MHD_YES;
            r->answered = 1;
            return send_message(c, 400, "a sign-in is a form (application/x-www-form-urlencoded)", true, "none");
        }
        if (post && strcmp(url, "/api/v1/reports") == 0) {
            r->upload = true;
            const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
            if (length && strtoull(length, NULL, 10) > INGEST_MAX_BODY) {
                r->answered = 1;
                return send_message(c, 413, "the report is larger than 16 MiB", false, NULL);
            }
            return MHD_YES; /* token and key are checked once the headers are all there, below */
        }
        return MHD_YES;
    }
    if (r->answered) { /* a response went out early: the rest of the body is dropped */
        *upload_data_size = 0;
        return MHD_YES;
    }
    char nonce[33];
    make_nonce(nonce);
    if (r->post != NULL) {
        if (*upload_data_size > 0) {
            if (r->body.length + *upload_data_size > LOGIN_BODY_MAX)
                return MHD_NO;
            r->body.length += *upload_data_size;
            MHD_post_process(r->post, upload_data, *upload_data_size);
            *upload_data_size = 0;
            return MHD_YES;
        }
        char name[TOKEN_NAME_MAX + 1];
        struct db *db = db_pool_take(s->pool);
        enum token_status status = token_check(db, r->login_token, name);
        db_pool_give(s->pool, db);
        if (status != TOKEN_VALID) {
            struct buf b = {0};
            views_html_login(status == TOKEN_REVOKED ? "that token was revoked" : "that token is not known", nonce, &b);
            enum MHD_Result result =
                send_bytes(c, 401, "text/html; charset=utf-8", b.data ? b.data : "", b.length, nonce, NULL);
            buf_free(&b);
            return result;
        }
        struct MHD_Response *response = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
        char cookie[TOKEN_TEXT_SIZE + 96];
        snprintf(cookie, sizeof(cookie), "preflight_token=%s; Path=/; HttpOnly; SameSite=Strict%s", r->login_token,
                 s->tls ? "; Secure" : "");
        MHD_add_response_header(response, "Set-Cookie", cookie);
        MHD_add_response_header(response, "Location", "/");
        security_headers(response, nonce);
        enum MHD_Result result = MHD_queue_response(c, 303, response);
        MHD_destroy_response(response);
        queued_status = 303;
        return result;
    }
    if (r->upload) {
        if (now_seconds() - r->started > REQUEST_DEADLINE_SECONDS)
            return MHD_NO; /* a client that trickles its body does not hold a thread for ever */
        if (!r->checked) {
            /* the headers are all there: who is it, and is the key well formed. A refusal is sent
             * once the body has been read (and dropped): answering in the middle of an upload
             * makes the client's socket reset, and the client would not see the answer. */
            r->checked = true;
            char name[TOKEN_NAME_MAX + 1];
            enum token_status status = authenticate(s, c, name);
            const char *key = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Idempotency-Key");
            r->refusal = status == TOKEN_VALID ? 0 : status == TOKEN_REVOKED ? 403 : status == TOKEN_ERROR ? 503 : 401;
            r->refusal_text = status == TOKEN_REVOKED ? "the token was revoked"
                              : status == TOKEN_ERROR ? "the database is not reachable"
                                                      : "uploading needs a token (Authorization: Bearer)";
            if (r->refusal == 0 && !hex64(key)) {
                r->refusal = 400;
                r->refusal_text = "Idempotency-Key must be the SHA-256 of the body, 64 lowercase hex digits";
            }
            snprintf(r->login_token, sizeof(r->login_token), "%s", status == TOKEN_VALID ? name : "");
        }
        if (*upload_data_size > 0) {
            if (r->refusal == 0 && r->body.length + *upload_data_size > INGEST_MAX_BODY) {
                r->refusal = 413;
                r->refusal_text = "the report is larger than 16 MiB";
                buf_free(&r->body);
            }
            if (r->refusal == 0)
                buf_add_bytes(&r->body, upload_data, *upload_data_size);
            *upload_data_size = 0;
            return r->body.failed ? MHD_NO : MHD_YES;
        }
        r->answered = 1;
        if (r->refusal != 0)
            return send_message(c, r->refusal, r->refusal_text, false, NULL);
        return finish_upload(s, c, r, r->login_token);
    }
    if (*upload_data_size > 0) { /* a body where none belongs */
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (strcmp(url, "/healthz") == 0)
        return send_bytes(c, 200, "text/plain", "ok\n", 3, nonce, NULL);
    if (strcmp(url, "/login") == 0) {
        struct buf b = {0};
        views_html_login("", nonce, &b);
        enum MHD_Result result =
            send_bytes(c, 200, "text/html; charset=utf-8", b.data ? b.data : "", b.length, nonce, NULL);
        buf_free(&b);
        return result;
    }
    bool api = strncmp(url, "/api/", 5) == 0;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return send_message(c, 405, "only GET here (uploads: POST /api/v1/reports)", !api, nonce);
    if (suspicious_path(url) || strlen(url) > 1024)
        return send_message(c, 404, "no such page", !api, nonce);
    return serve_read(s, c, url, nonce);
}

static void completed(void *cls, struct MHD_Connection *c, void **context, enum MHD_RequestTerminationCode code)
{
    struct server *s = cls;
    struct request *r = *context;
    (void)c, (void)code;
    if (r == NULL)
        return;
    if (!s->quiet) {
        /* no query strings and no headers: nothing secret goes to the log */
        fprintf(stderr, "preflight-dashboard: %s %s %d %.1f ms%s\n", r->method, r->path, queued_status,
                (now_seconds() - r->started) * 1000.0,
                code == MHD_REQUEST_TERMINATED_COMPLETED_OK ? "" : " (connection ended early)");
    }
    if (r->post)
        MHD_destroy_post_processor(r->post);
    buf_free(&r->body);
    free(r);
    *context = NULL;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    struct buf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 && b.length < (1u << 20))
        buf_add_bytes(&b, chunk, n);
    fclose(f);
    return b.failed ? NULL : b.data;
}

int server_run(const struct server_options *o)
{
    char error[512];
    struct db *db = db_open(o->database, error, sizeof(error));
    int from = 0;
    if (db == NULL || !schema_prepare(db, &from, error, sizeof(error))) {
        fprintf(stderr, "preflight-dashboard: %s\n", error);
        db_close(db);
        return 1;
    }
    if (from > 0 && from < SCHEMA_VERSION)
        fprintf(stderr, "preflight-dashboard: migrated the database from schema version %d to %d\n", from,
                SCHEMA_VERSION);
    db_close(db);
    struct server s = {.public_read = o->public_read, .quiet = o->quiet, .write_lock = PTHREAD_MUTEX_INITIALIZER};
    s.pool = db_pool_open(o->database, DB_CONNECTIONS, error, sizeof(error));
    if (s.pool == NULL) {
        fprintf(stderr, "preflight-dashboard: %s\n", error);
        return 1;
    }
    char host[64] = "127.0.0.1";
    unsigned port = 8470;
    if (o->listen) {
        const char *colon = strrchr(o->listen, ':');
        char *end = NULL;
        unsigned long p = colon ? strtoul(colon + 1, &end, 10) : 0;
        if (colon == NULL || end == colon + 1 || *end != '\0' || p > 65535 ||
            (size_t)(colon - o->listen) >= sizeof(host)) {
            fprintf(stderr, "preflight-dashboard: --listen %s: use ADDR:PORT, e.g. 127.0.0.1:8470\n", o->listen);
            db_pool_close(s.pool);
            return 2;
        }
        snprintf(host, sizeof(host), "%.*s", (int)(colon - o->listen), o->listen);
        port = (unsigned)p;
    }
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
        fprintf(stderr, "preflight-dashboard: --listen %s: '%s' is not an IPv4 address\n", o->listen, host);
        db_pool_close(s.pool);
        return 2;
    }
    char *cert = NULL, *key = NULL;
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
    if (o->tls_cert || o->tls_key) {
        cert = o->tls_cert ? read_file(o->tls_cert) : NULL;
        key = o->tls_key ? read_file(o->tls_key) : NULL;
        if (cert == NULL || key == NULL) {
            fprintf(stderr, "preflight-dashboard: HTTPS needs both --tls-cert and --tls-key as readable PEM files\n");
            free(cert);
            free(key);
            db_pool_close(s.pool);
            return 2;
        }
        flags |= MHD_USE_TLS;
        s.tls = true;
    }
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL); /* the server's threads inherit it; sigwait below takes them */
    signal(SIGPIPE, SIG_IGN);
    struct MHD_Daemon *daemon;
    if (s.tls)
        daemon = MHD_start_daemon(flags, 0, NULL, NULL, handle, &s, MHD_OPTION_SOCK_ADDR, &address,
                                  MHD_OPTION_CONNECTION_LIMIT, (unsigned)MAX_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT,
                                  (unsigned)IDLE_TIMEOUT_SECONDS, MHD_OPTION_NOTIFY_COMPLETED, completed, &s,
                                  MHD_OPTION_HTTPS_MEM_CERT, cert, MHD_OPTION_HTTPS_MEM_KEY, key, MHD_OPTION_END);
    else
        daemon = MHD_start_daemon(flags, 0, NULL, NULL, handle, &s, MHD_OPTION_SOCK_ADDR, &address,
                                  MHD_OPTION_CONNECTION_LIMIT, (unsigned)MAX_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT,
                                  (unsigned)IDLE_TIMEOUT_SECONDS, MHD_OPTION_NOTIFY_COMPLETED, completed, &s,
                                  MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "preflight-dashboard: cannot listen on %s:%u (%s)\n", host, port, strerror(errno));
        free(cert);
        free(key);
        db_pool_close(s.pool);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf("preflight-dashboard: listening on %s://%s:%u/\n", s.tls ? "https" : "http", host, info ? info->port : port);
    fflush(stdout);
    int signal_number = 0;
    sigwait(&stop, &signal_number);
    MHD_stop_daemon(daemon);
    db_pool_close(s.pool);
    free(cert);
    free(key);
    fprintf(stderr, "preflight-dashboard: stopped (%s)\n", signal_number == SIGINT ? "SIGINT" : "SIGTERM");
    return 0;
}
