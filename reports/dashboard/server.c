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
#include <strings.h>
#include <sys/random.h>
#include <time.h>

#include "artifact_store.h"
#include "db_pool.h"
#include "deadlines.h"
#include "html.h"
#include "ingest.h"
#include "pages.h"
#include "schema.h"
#include "webhook_events.h"
#include "sha256.h"
#include "tokens.h"
#include "view.h"

#define DB_CONNECTIONS 8
#define IDLE_TIMEOUT_SECONDS 30 /* a connection that sends nothing for this long is closed */
#define LOGIN_BODY_MAX 4096
#define SESSION_COOKIE "preflight_session"
#define FORM_COOKIE "preflight_form" /* a random value the sign-in form's token is derived from */

struct server {
    struct db_pool *pool;
    pthread_mutex_t write_lock; /* one ingest transaction at a time in this process */
    bool public_read, tls, quiet;
    bool secure_cookies;     /* the browser reaches us over HTTPS: built in, or behind a TLS proxy */
    char public_origin[256]; /* --public-url's scheme://host[:port], also accepted as a form's Origin */
    struct deadlines *deadlines;
    struct artifact_quota artifact_quota;
    const struct expectations *expectations; /* read once at start, never changed: shared by the threads */
    struct webhook_sender *webhook;          /* NULL: no webhook */
    struct webhook_events_config events;
    struct ingest_observer observer;
};

enum request_kind { REQUEST_READ, REQUEST_LOGIN, REQUEST_LOGOUT, REQUEST_REPORT, REQUEST_ARTIFACT };

struct request {
    enum request_kind kind;
    struct buf body;
    size_t limit; /* the largest body an upload may have */
    bool checked; /* the upload's token and key were looked at */
    int refusal;  /* the status an upload gets instead of being stored (0: none) */
    const char *refusal_text;
    double started;
    int answered; /* a response is queued already */
    struct MHD_PostProcessor *post;
    char login_token[TOKEN_TEXT_SIZE + 8];
    char form_token[72]; /* the hidden field a sign-in or sign-out form posts back */
    char token_name[TOKEN_NAME_MAX + 1];
    char report_key[65], artifact[65]; /* PUT /api/v1/reports/<key>/artifacts/<sha256> */
    char method[8], path[160];         /* for the access log: the path only, never the query or a header */
};

/* The status of the response this connection's thread queued last: for the access log (the
 * completion callback runs on the same thread, a thread per connection). */
static _Thread_local int queued_status;

static struct deadline_entry *deadline_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* Every connection is watched from its start: its headers have a deadline (deadlines.h). */
static void connection_notified(void *cls, struct MHD_Connection *c, void **socket_context,
                                enum MHD_ConnectionNotificationCode code)
{
    struct server *s = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        *socket_context = info ? deadlines_add(s->deadlines, info->connect_fd) : NULL;
    } else {
        deadlines_remove(*socket_context);
        *socket_context = NULL;
    }
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* With the built-in TLS every response says so (HSTS): browsers then never try plain HTTP here.
 * Set once before the server starts. */
static bool strict_transport;

static void security_headers(struct MHD_Response *response, const char *nonce)
{
    if (strict_transport)
        MHD_add_response_header(response, "Strict-Transport-Security", "max-age=31536000");
    char csp[256];
    snprintf(csp, sizeof(csp),
             "default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-%s'; img-src 'self' data:; "
             "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
             nonce);
    MHD_add_response_header(response, "Content-Security-Policy", csp);
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    /* same-origin, not no-referrer: under no-referrer a browser sends "Origin: null" with a form,
     * and the forms' origin check (from_this_site) needs the real one; other sites still get none */
    MHD_add_response_header(response, "Referrer-Policy", "same-origin");
}

struct reply {
    const char *type;
    const char *nonce;
    const char *filename;  /* a download's name: Content-Disposition attachment */
    const char *immutable; /* the ETag of content-addressed bytes: cached for a year */
    bool public_cache;     /* anyone may read it (--public-read): shared caches may keep it */
    const char *cookie;    /* Set-Cookie */
    const char *location;  /* a redirect */
};

static enum MHD_Result send_reply(struct MHD_Connection *c, int status, const char *data, size_t length,
                                  const struct reply *o)
{
    struct MHD_Response *response = MHD_create_response_from_buffer(length, (void *)data, MHD_RESPMEM_MUST_COPY);
    if (response == NULL)
        return MHD_NO;
    if (o->type)
        MHD_add_response_header(response, "Content-Type", o->type);
    security_headers(response, o->nonce ? o->nonce : "none");
    if (o->immutable) {
        char etag[80];
        snprintf(etag, sizeof(etag), "\"%s\"", o->immutable);
        MHD_add_response_header(response, "ETag", etag);
        MHD_add_response_header(response, "Cache-Control",
                                o->public_cache ? "public, max-age=31536000, immutable"
                                                : "private, max-age=31536000, immutable");
    } else {
        MHD_add_response_header(response, "Cache-Control", "no-store");
    }
    if (o->filename && *o->filename) {
        char disposition[200];
        snprintf(disposition, sizeof(disposition), "attachment; filename=\"%s\"", o->filename);
        MHD_add_response_header(response, "Content-Disposition", disposition);
    }
    if (o->cookie)
        MHD_add_response_header(response, "Set-Cookie", o->cookie);
    if (o->location)
        MHD_add_response_header(response, "Location", o->location);
    enum MHD_Result r = MHD_queue_response(c, (unsigned)status, response);
    MHD_destroy_response(response);
    queued_status = status;
    return r;
}

static enum MHD_Result send_bytes(struct MHD_Connection *c, int status, const char *type, const char *data,
                                  size_t length, const char *nonce)
{
    return send_reply(c, status, data, length, &(struct reply){.type = type, .nonce = nonce});
}

static enum MHD_Result send_json(struct MHD_Connection *c, int status, const cJSON *document)
{
    char *text = cJSON_PrintUnformatted(document);
    if (text == NULL)
        return MHD_NO;
    enum MHD_Result r = send_bytes(c, status, "application/json", text, strlen(text), NULL);
    free(text);
    return r;
}

static enum MHD_Result send_html(struct MHD_Connection *c, int status, struct buf *page, const char *nonce)
{
    enum MHD_Result r = page->failed ? send_bytes(c, 500, "text/plain", "out of memory\n", 14, nonce)
                                     : send_bytes(c, status, "text/html; charset=utf-8", page->data ? page->data : "",
                                                  page->length, nonce);
    buf_free(page);
    return r;
}

/* An error: JSON {"status", "error"} with what the view's model adds (the closest names), or a page. */
static enum MHD_Result send_error(struct MHD_Connection *c, int status, const char *message, bool html,
                                  const cJSON *model, const struct page_context *context)
{
    if (html) {
        struct buf b = {0};
        pages_render_error(status, message, model, context, &b);
        return send_html(c, status, &b, context->nonce);
    }
    cJSON *o = model ? cJSON_Duplicate(model, 1) : cJSON_CreateObject();
    cJSON_DeleteItemFromObjectCaseSensitive(o, "status");
    cJSON_DeleteItemFromObjectCaseSensitive(o, "error");
    cJSON_AddNumberToObject(o, "status", status);
    cJSON_AddStringToObject(o, "error", message);
    enum MHD_Result r = send_json(c, status, o);
    cJSON_Delete(o);
    return r;
}

static enum MHD_Result send_message(struct MHD_Connection *c, int status, const char *message, bool html,
                                    const char *nonce)
{
    const struct page_context context = {.nonce = nonce ? nonce : "none"};
    return send_error(c, status, message, html, NULL, &context);
}

static void make_nonce(char out[33])
{
    unsigned char random[16];
    if (getrandom(random, sizeof(random), 0) != (ssize_t)sizeof(random))
        memset(random, 0x5a, sizeof(random));
    for (size_t i = 0; i < sizeof(random); ++i)
        sprintf(out + 2 * i, "%02x", random[i]);
}

/* ---- forms a browser posts (sign in, sign out): from this site only ----
 * Two checks, each enough against another site's page on its own: the request's Origin (or
 * Referer) must be this dashboard's, and the form must carry a token derived from a cookie, which
 * another site can neither read nor send (SameSite=Strict). The token is SHA-256("login:" or
 * "logout:" and the cookie): it says nothing of the cookie, and any dashboard process sharing the
 * database derives the same, without a secret to share. */

static void form_token(const char *purpose, const char *cookie, char out[65])
{
    char text[320];
    snprintf(text, sizeof(text), "%s:%s", purpose, cookie);
    sha256_hex(text, strlen(text), out);
}

static bool same_text(const char *a, const char *b) /* in time independent of where they differ */
{
    size_t length = strlen(a);
    if (length != strlen(b))
        return false;
    unsigned char differ = 0;
    for (size_t i = 0; i < length; ++i)
        differ |= (unsigned char)(a[i] ^ b[i]);
    return differ == 0;
}

static bool form_token_valid(const char *purpose, const char *cookie, const char *posted)
{
    if (cookie == NULL || *cookie == '\0' || strlen(cookie) > 256 || posted == NULL)
        return false;
    char expected[65];
    form_token(purpose, cookie, expected);
    return same_text(expected, posted);
}

/* Whether a browser's POST comes from a page of this dashboard: Sec-Fetch-Site, when the browser
 * sends it, says same-origin; an Origin (else a Referer) names this dashboard as the client reached
 * it (the Host it asked for, https when it reaches us over TLS) or --public-url. A request with
 * neither (not a browser's, or a very old one) is left to the form token. */
static bool from_this_site(const struct server *s, struct MHD_Connection *c)
{
    const char *fetch_site = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Sec-Fetch-Site");
    if (fetch_site != NULL && strcmp(fetch_site, "same-origin") != 0 && strcmp(fetch_site, "none") != 0)
        return false;
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    const char *referer = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_REFERER);
    if (origin == NULL && referer == NULL)
        return true;
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    char own[300] = "";
    if (host != NULL && strlen(host) < 256)
        snprintf(own, sizeof(own), "%s://%s", s->secure_cookies ? "https" : "http", host);
    const char *accepted[2] = {own, s->public_origin};
    for (int i = 0; i < 2; ++i) {
        size_t n = strlen(accepted[i]);
        if (n == 0)
            continue;
        if (origin != NULL && strcasecmp(origin, accepted[i]) == 0)
            return true;
        if (origin == NULL && strncasecmp(referer, accepted[i], n) == 0 && referer[n] == '/')
            return true;
    }
    return false;
}

/* The sign-in page, with its form token; the cookie it comes from is set when the browser has none. */
static enum MHD_Result send_login(struct server *s, struct MHD_Connection *c, int status, const char *message,
                                  const char *nonce)
{
    const char *had = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, FORM_COOKIE);
    char value[80], cookie[200] = "", token[65];
    bool fresh = had == NULL || strlen(had) != 68 || strncmp(had, "pff_", 4) != 0;
    if (fresh) {
        unsigned char random[32];
        if (getrandom(random, sizeof(random), 0) != (ssize_t)sizeof(random))
            return send_message(c, 503, "no random numbers for the sign-in form", true, nonce);
        strcpy(value, "pff_");
        for (size_t i = 0; i < sizeof(random); ++i)
            sprintf(value + 4 + 2 * i, "%02x", random[i]);
        snprintf(cookie, sizeof(cookie), FORM_COOKIE "=%s; Path=/; HttpOnly; SameSite=Strict%s", value,
                 s->secure_cookies ? "; Secure" : "");
    } else {
        snprintf(value, sizeof(value), "%s", had);
    }
    form_token("login", value, token);
    struct buf b = {0};
    pages_render_login(message, &(struct page_context){.nonce = nonce, .form_token = token}, &b);
    if (b.failed) {
        buf_free(&b);
        return send_bytes(c, 500, "text/plain", "out of memory\n", 14, nonce);
    }
    enum MHD_Result r = send_reply(
        c, status, b.data ? b.data : "", b.length,
        &(struct reply){.type = "text/html; charset=utf-8", .nonce = nonce, .cookie = fresh ? cookie : NULL});
    buf_free(&b);
    return r;
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

/* Who is asking: "Authorization: Bearer <token>" (programs), or the session cookie (browsers). */
static enum token_status authenticate(struct server *s, struct MHD_Connection *c, char name[TOKEN_NAME_MAX + 1],
                                      bool *by_session)
{
    const char *authorization = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    const char *session = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, SESSION_COOKIE);
    bool bearer = authorization && strncmp(authorization, "Bearer ", 7) == 0;
    const char *secret = bearer ? authorization + 7 : session;
    *by_session = !bearer && session != NULL;
    if (secret == NULL || *secret == '\0' || strlen(secret) > 256)
        return TOKEN_UNKNOWN;
    struct db *db = db_pool_take(s->pool);
    enum token_status status = bearer ? token_check(db, secret, name) : session_check(db, secret, name);
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

/* ?format=csv: the page's table (?table=NAME: another array of its model) as text/csv. */
static enum MHD_Result send_csv(struct MHD_Connection *c, const struct page *page, const cJSON *model,
                                const char *table, bool html, const struct page_context *context)
{
    struct buf b = {0};
    if (!pages_csv(page, model, table, &b)) {
        bool no_memory = b.failed;
        buf_free(&b);
        return send_error(c, no_memory ? 500 : 404,
                          no_memory ? "out of memory"
                                    : "no such table here (?table= names an array of the page's JSON)",
                          html, NULL, context);
    }
    const char *name = table && *table ? table : page->table;
    char filename[80] = "table.csv";
    if (strlen(name) < 60 && name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")] == '\0')
        snprintf(filename, sizeof(filename), "%s.csv", name);
    enum MHD_Result r = send_reply(c, 200, b.data ? b.data : "", b.length,
                                   &(struct reply){.type = "text/csv; charset=utf-8; header=present",
                                                   .nonce = context->nonce,
                                                   .filename = filename});
    buf_free(&b);
    return r;
}

static enum MHD_Result answer_view(struct server *s, struct MHD_Connection *c, const struct page *page,
                                   struct view_response *out, bool api, struct page_context *context)
{
    if (out->status >= 400) {
        if (!api && page->shows_errors && out->model != NULL) {
            struct buf b = {0};
            context->status = out->status;
            context->error = out->message;
            pages_render(page, out->model, context, &b);
            return send_html(c, out->status, &b, context->nonce);
        }
        return send_error(c, out->status, out->message, !api, out->model, context);
    }
    if (out->body != NULL) {
        const char *etag = out->immutable[0] ? out->immutable : NULL;
        if (etag != NULL) { /* content-addressed: the name is the content, so a cached copy is never stale */
            const char *asked = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);
            char quoted[80];
            snprintf(quoted, sizeof(quoted), "\"%s\"", etag);
            if (asked && strcmp(asked, quoted) == 0)
                return send_reply(c, 304, "", 0, &(struct reply){.immutable = etag, .public_cache = s->public_read});
        }
        return send_reply(c, 200, out->body, out->length,
                          &(struct reply){.type = out->content_type,
                                          .nonce = context->nonce,
                                          .filename = out->filename,
                                          .immutable = etag,
                                          .public_cache = s->public_read});
    }
    if (context->csv_table != NULL)
        return send_csv(c, page, out->model, context->csv_table, !api, context);
    if (api)
        return send_json(c, 200, out->model);
    struct buf b = {0};
    pages_render(page, out->model, context, &b);
    return send_html(c, 200, &b, context->nonce);
}

static enum MHD_Result serve_read(struct server *s, struct MHD_Connection *c, const char *url, const char *nonce)
{
    bool api = strncmp(url, "/api/v1/", 8) == 0 || strcmp(url, "/api/v1") == 0;
    const char *path = api ? url + 7 : url;
    if (*path == '\0')
        path = "/";
    bool signed_in = false;
    struct page_context context = {.nonce = nonce};
    if (!s->public_read) {
        char name[TOKEN_NAME_MAX + 1];
        enum token_status status = authenticate(s, c, name, &signed_in);
        if (status != TOKEN_VALID) {
            if (status == TOKEN_ERROR)
                return send_message(c, 503, "the database is not reachable", !api, nonce);
            if (!api)
                return send_login(s, c, 401, status == TOKEN_REVOKED ? "that token was revoked" : "", nonce);
            return send_message(c, status == TOKEN_REVOKED ? 403 : 401,
                                status == TOKEN_REVOKED ? "the token was revoked"
                                                        : "reading needs a token (Authorization: Bearer)",
                                false, nonce);
        }
    }
    context.signed_in = signed_in;
    char logout_token[65];
    if (signed_in) {
        form_token("logout", MHD_lookup_connection_value(c, MHD_COOKIE_KIND, SESSION_COOKIE), logout_token);
        context.form_token = logout_token;
    }
    struct query_args q = {0};
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, collect_arg, &q);
    if (q.overflow) {
        char text[96];
        snprintf(text, sizeof(text), "more than %d query arguments", QUERY_MAX_ARGS);
        return send_message(c, 400, text, !api, nonce);
    }
    const char *format = query_get(&q, "format");
    if (format && *format && strcmp(format, "json") != 0 && strcmp(format, "csv") != 0)
        return send_message(c, 400, "format: use json or csv", !api, nonce);
    if (format && strcmp(format, "csv") == 0) {
        const char *table = query_get(&q, "table");
        context.csv_table = table ? table : "";
    }
    context.path = path;
    struct page_request request = {.query = &q, .expectations = s->expectations};
    char parts[1100];
    const struct page *page = pages_find(path, &request, parts, sizeof(parts));
    if (page == NULL)
        return send_message(c, 404, "no such page", !api, nonce);
    struct view_response out = {0};
    struct db *db = db_pool_take(s->pool);
    bool snapshot = db_begin_read(db);
    page->view(db, &request, &out);
    if (snapshot)
        db_commit(db);
    db_pool_give(s->pool, db);
    struct buf query = {0};
    query_text(&q, &query);
    context.query = query.data ? query.data : "";
    enum MHD_Result r = answer_view(s, c, page, &out, api, &context);
    buf_free(&query);
    view_response_free(&out);
    return r;
}

static enum MHD_Result finish_report(struct server *s, struct MHD_Connection *c, struct request *r)
{
    const char *key = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Idempotency-Key");
    char hash[65];
    sha256_hex(r->body.data ? r->body.data : "", r->body.length, hash);
    if (strcmp(hash, key) != 0)
        return send_message(c, 400, "Idempotency-Key is not the SHA-256 of the body", false, NULL);
    char peer[64], message[768];
    peer_of(c, peer, sizeof(peer));
    const struct ingest_source source = {r->token_name, peer, s->webhook ? &s->observer : NULL};
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
    if (status == INGEST_STORED)
        webhook_wake(s->webhook); /* its events, if any, are in the outbox */
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

static enum MHD_Result finish_artifact(struct server *s, struct MHD_Connection *c, struct request *r)
{
    char message[512];
    struct db *db = db_pool_take(s->pool);
    pthread_mutex_lock(&s->write_lock);
    enum artifact_status status =
        artifact_store(db, r->report_key, r->artifact, r->body.data ? r->body.data : "", r->body.length, r->token_name,
                       &s->artifact_quota, message, sizeof(message));
    pthread_mutex_unlock(&s->write_lock);
    db_pool_give(s->pool, db);
    static const int statuses[] = {
        [ARTIFACT_STORED] = 201,       [ARTIFACT_KNOWN] = 409,       [ARTIFACT_MISMATCH] = 400,
        [ARTIFACT_NOT_PNG] = 422,      [ARTIFACT_NO_REPORT] = 404,   [ARTIFACT_NOT_NAMED] = 422,
        [ARTIFACT_REPORT_QUOTA] = 413, [ARTIFACT_TOKEN_QUOTA] = 429, [ARTIFACT_FAILED] = 503};
    if (status != ARTIFACT_STORED && status != ARTIFACT_KNOWN)
        return send_message(c, statuses[status], message, false, NULL);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "status", status == ARTIFACT_STORED ? "stored" : "duplicate");
    char location[96];
    snprintf(location, sizeof(location), "/artifacts/%s.png", r->artifact);
    cJSON_AddStringToObject(o, "url", location);
    enum MHD_Result result = send_json(c, statuses[status], o);
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
    if (strcmp(key, "form_token") == 0 && offset + size < sizeof(r->form_token)) {
        memcpy(r->form_token + offset, data, size);
        r->form_token[offset + size] = '\0';
    }
    return MHD_YES;
}

static enum MHD_Result finish_login(struct server *s, struct MHD_Connection *c, struct request *r, const char *nonce)
{
    char name[TOKEN_NAME_MAX + 1], session[TOKEN_TEXT_SIZE];
    /* another site's page must not sign a browser in, with the other site's token */
    if (!from_this_site(s, c) ||
        !form_token_valid("login", MHD_lookup_connection_value(c, MHD_COOKIE_KIND, FORM_COOKIE), r->form_token)) {
        memset(r->login_token, 0, sizeof(r->login_token));
        return send_login(s, c, 403, "that sign-in did not come from this dashboard's form: sign in here", nonce);
    }
    struct db *db = db_pool_take(s->pool);
    enum token_status status = token_check(db, r->login_token, name);
    bool made = status == TOKEN_VALID && session_create(db, name, session);
    db_pool_give(s->pool, db);
    memset(r->login_token, 0, sizeof(r->login_token));
    if (status == TOKEN_ERROR || (status == TOKEN_VALID && !made))
        return send_message(c, 503, "the database is not reachable", true, nonce);
    if (status != TOKEN_VALID)
        return send_login(s, c, 401, status == TOKEN_REVOKED ? "that token was revoked" : "that token is not known",
                          nonce);
    char cookie[TOKEN_TEXT_SIZE + 128];
    snprintf(cookie, sizeof(cookie), SESSION_COOKIE "=%s; Path=/; HttpOnly; SameSite=Strict; Max-Age=%ld%s", session,
             SESSION_SECONDS, s->secure_cookies ? "; Secure" : "");
    memset(session, 0, sizeof(session));
    enum MHD_Result result =
        send_reply(c, 303, "", 0, &(struct reply){.nonce = nonce, .cookie = cookie, .location = "/"});
    memset(cookie, 0, sizeof(cookie));
    return result;
}

static enum MHD_Result logout(struct server *s, struct MHD_Connection *c, struct request *r, const char *nonce)
{
    const char *session = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, SESSION_COOKIE);
    if (session != NULL && *session && strlen(session) <= 256) {
        /* another site's page must not sign a browser out */
        if (!from_this_site(s, c) || !form_token_valid("logout", session, r->form_token))
            return send_message(c, 403, "that sign-out did not come from this dashboard's pages", true, nonce);
        struct db *db = db_pool_take(s->pool);
        bool ended = session_end(db, session);
        db_pool_give(s->pool, db);
        if (!ended)
            return send_message(c, 503, "the database is not reachable", true, nonce);
    }
    char cookie[128];
    snprintf(cookie, sizeof(cookie), SESSION_COOKIE "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0%s",
             s->secure_cookies ? "; Secure" : "");
    return send_reply(c, 303, "", 0, &(struct reply){.nonce = nonce, .cookie = cookie, .location = "/login"});
}

/* PUT /api/v1/reports/<64 hex>/artifacts/<64 hex> */
static bool artifact_url(const char *url, struct request *r)
{
    const char *prefix = "/api/v1/reports/", *middle = "/artifacts/";
    size_t p = strlen(prefix), m = strlen(middle);
    if (strncmp(url, prefix, p) != 0 || strlen(url) != p + 64 + m + 64 || strncmp(url + p + 64, middle, m) != 0)
        return false;
    snprintf(r->report_key, sizeof(r->report_key), "%.64s", url + p);
    snprintf(r->artifact, sizeof(r->artifact), "%.64s", url + p + 64 + m);
    return report_artifact_hash_valid(r->report_key) && report_artifact_hash_valid(r->artifact);
}

/* An upload's headers are all there: who is it, and is its name well formed. A refusal is sent
 * once the body has been read (and dropped): answering in the middle of an upload makes the
 * client's socket reset, and the client would not see the answer. */
static void check_upload(struct server *s, struct MHD_Connection *c, struct request *r)
{
    r->checked = true;
    bool by_session;
    enum token_status status = authenticate(s, c, r->token_name, &by_session);
    if (by_session) /* uploads come from programs with a token, never from a browser's cookie */
        status = TOKEN_UNKNOWN;
    r->refusal = status == TOKEN_VALID ? 0 : status == TOKEN_REVOKED ? 403 : status == TOKEN_ERROR ? 503 : 401;
    r->refusal_text = status == TOKEN_REVOKED ? "the token was revoked"
                      : status == TOKEN_ERROR ? "the database is not reachable"
                                              : "uploading needs a token (Authorization: Bearer)";
    const char *key = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Idempotency-Key");
    if (r->refusal == 0 && r->kind == REQUEST_REPORT && !report_artifact_hash_valid(key)) {
        r->refusal = 400;
        r->refusal_text = "Idempotency-Key must be the SHA-256 of the body, 64 lowercase hex digits";
    }
    if (status != TOKEN_VALID)
        r->token_name[0] = '\0';
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload_data, size_t *upload_data_size, void **context)
{
    (void)version;
    struct server *s = cls;
    struct request *r = *context;
    bool post = strcmp(method, MHD_HTTP_METHOD_POST) == 0, put = strcmp(method, MHD_HTTP_METHOD_PUT) == 0;
    if (r == NULL) {
        r = calloc(1, sizeof(*r));
        if (r == NULL)
            return MHD_NO;
        r->started = now_seconds();
        deadlines_headers_received(deadline_of(c));
        snprintf(r->method, sizeof(r->method), "%s", method);
        snprintf(r->path, sizeof(r->path), "%s", url);
        for (char *p = r->path; *p; ++p) /* no control characters into the log */
            if ((unsigned char)*p < 0x20 || *p == 0x7f)
                *p = '?';
        *context = r;
        if (post && strcmp(url, "/login") == 0) {
            r->kind = REQUEST_LOGIN;
            r->post = MHD_create_post_processor(c, 1024, login_field, r);
            if (r->post != NULL)
                return MHD_YES;
            r->answered = 1;
            return send_message(c, 400, "a sign-in is a form (application/x-www-form-urlencoded)", true, "none");
        }
        if (post && strcmp(url, "/logout") == 0) {
            r->kind = REQUEST_LOGOUT; /* its form's token in the body (none without a form: refused) */
            r->post = MHD_create_post_processor(c, 1024, login_field, r);
            return MHD_YES;
        }
        bool report = post && strcmp(url, "/api/v1/reports") == 0;
        bool artifact = put && artifact_url(url, r);
        if (report || artifact) {
            r->kind = report ? REQUEST_REPORT : REQUEST_ARTIFACT;
            r->limit = report ? INGEST_MAX_BODY : ARTIFACT_MAX_BYTES;
            const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
            if (length && strtoull(length, NULL, 10) > r->limit) {
                r->answered = 1;
                return send_message(c, 413,
                                    report ? "the report is larger than 16 MiB" : "the artifact is larger than 4 MiB",
                                    false, NULL);
            }
            return MHD_YES; /* token and key are checked once the headers are all there, below */
        }
        return MHD_YES;
    }
    if (*upload_data_size == 0) /* the body is all in (or there is none): nothing more is awaited */
        deadlines_request_received(deadline_of(c));
    if (r->answered) { /* a response went out early: the rest of the body is dropped (within its deadline) */
        *upload_data_size = 0;
        return MHD_YES;
    }
    char nonce[33];
    make_nonce(nonce);
    if (r->kind == REQUEST_LOGIN || r->kind == REQUEST_LOGOUT) {
        if (*upload_data_size > 0) {
            if (r->body.length + *upload_data_size > LOGIN_BODY_MAX)
                return MHD_NO;
            r->body.length += *upload_data_size;
            if (r->post != NULL)
                MHD_post_process(r->post, upload_data, *upload_data_size);
            *upload_data_size = 0;
            return MHD_YES;
        }
        r->answered = 1;
        return r->kind == REQUEST_LOGIN ? finish_login(s, c, r, nonce) : logout(s, c, r, nonce);
    }
    if (r->kind == REQUEST_REPORT || r->kind == REQUEST_ARTIFACT) {
        if (!r->checked)
            check_upload(s, c, r);
        if (*upload_data_size > 0) {
            if (r->refusal == 0 && r->body.length + *upload_data_size > r->limit) {
                r->refusal = 413;
                r->refusal_text = r->kind == REQUEST_REPORT ? "the report is larger than 16 MiB"
                                                            : "the artifact is larger than 4 MiB";
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
        return r->kind == REQUEST_REPORT ? finish_report(s, c, r) : finish_artifact(s, c, r);
    }
    if (*upload_data_size > 0) { /* a body where none belongs */
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (strcmp(url, "/healthz") == 0)
        return send_bytes(c, 200, "text/plain", "ok\n", 3, nonce);
    if (strcmp(url, "/login") == 0)
        return send_login(s, c, 200, "", nonce);
    bool api = strncmp(url, "/api/", 5) == 0;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return send_message(
            c, 405, "only GET here (uploads: POST /api/v1/reports, PUT /api/v1/reports/<key>/artifacts/<sha256>)", !api,
            nonce);
    if (suspicious_path(url) || strlen(url) > 1024)
        return send_message(c, 404, "no such page", !api, nonce);
    return serve_read(s, c, url, nonce);
}

static void completed(void *cls, struct MHD_Connection *c, void **context, enum MHD_RequestTerminationCode code)
{
    struct server *s = cls;
    struct request *r = *context;
    (void)code;
    deadlines_request_done(deadline_of(c)); /* a kept-alive connection waits for its next request's headers */
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
    memset(r->login_token, 0, sizeof(r->login_token));
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
    struct server s = {.public_read = o->public_read,
                       .quiet = o->quiet,
                       .write_lock = PTHREAD_MUTEX_INITIALIZER,
                       .artifact_quota = ARTIFACT_QUOTA_DEFAULT,
                       .expectations = o->expectations};
    s.artifact_quota.token_day_bytes = o->token_artifact_bytes;
    s.secure_cookies = o->behind_tls || (o->public_url && strncmp(o->public_url, "https://", 8) == 0);
    if (o->public_url) { /* its origin: the scheme and host, without a path */
        const char *host = strstr(o->public_url, "://") + 3;
        snprintf(s.public_origin, sizeof(s.public_origin), "%.*s", (int)(host - o->public_url + strcspn(host, "/")),
                 o->public_url);
    }
    s.pool = db_pool_open(o->database, DB_CONNECTIONS, error, sizeof(error));
    if (s.pool == NULL) {
        fprintf(stderr, "preflight-dashboard: %s\n", error);
        return 1;
    }
    s.events = (struct webhook_events_config){.expectations = o->expectations, .public_url = o->public_url};
    s.observer = webhook_events_observer(&s.events);
    if (o->webhook != NULL && (s.webhook = webhook_start(o->webhook, o->database, error, sizeof(error))) == NULL) {
        fprintf(stderr, "preflight-dashboard: %s\n", error);
        webhook_stop(s.webhook);
        db_pool_close(s.pool);
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
            webhook_stop(s.webhook);
            db_pool_close(s.pool);
            return 2;
        }
        snprintf(host, sizeof(host), "%.*s", (int)(colon - o->listen), o->listen);
        port = (unsigned)p;
    }
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    if (inet_pton(AF_INET, host, &address.sin_addr) != 1) {
        fprintf(stderr, "preflight-dashboard: --listen %s: '%s' is not an IPv4 address\n", o->listen, host);
        webhook_stop(s.webhook);
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
            webhook_stop(s.webhook);
            db_pool_close(s.pool);
            return 2;
        }
        flags |= MHD_USE_TLS;
        s.tls = true;
        s.secure_cookies = true;
        strict_transport = true;
    }
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL); /* the server's threads inherit it; sigwait below takes them */
    signal(SIGPIPE, SIG_IGN);
    s.deadlines = deadlines_start(o->header_deadline, o->request_deadline, o->max_connections);
    if (s.deadlines == NULL) {
        fprintf(stderr, "preflight-dashboard: cannot start the deadline watchdog\n");
        free(cert);
        free(key);
        webhook_stop(s.webhook);
        db_pool_close(s.pool);
        return 1;
    }
    struct MHD_OptionItem options[] = {
        {MHD_OPTION_SOCK_ADDR, 0, &address},
        {MHD_OPTION_CONNECTION_LIMIT, (intptr_t)o->max_connections, NULL},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)o->max_per_address, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, IDLE_TIMEOUT_SECONDS, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, &s},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)connection_notified, &s},
        {s.tls ? MHD_OPTION_HTTPS_MEM_CERT : MHD_OPTION_END, 0, cert}, /* without TLS the list ends here */
        {MHD_OPTION_HTTPS_MEM_KEY, 0, key},
        {MHD_OPTION_END, 0, NULL},
    };
    struct MHD_Daemon *daemon =
        MHD_start_daemon(flags, 0, NULL, NULL, handle, &s, MHD_OPTION_ARRAY, options, MHD_OPTION_END);
    if (daemon == NULL) {
        fprintf(stderr, "preflight-dashboard: cannot listen on %s:%u (%s)\n", host, port, strerror(errno));
        deadlines_stop(s.deadlines);
        free(cert);
        free(key);
        webhook_stop(s.webhook);
        db_pool_close(s.pool);
        return 1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    printf("preflight-dashboard: listening on %s://%s:%u/\n", s.tls ? "https" : "http", host, info ? info->port : port);
    fflush(stdout);
    int signal_number = 0;
    sigwait(&stop, &signal_number);
    MHD_stop_daemon(daemon);
    deadlines_stop(s.deadlines);
    webhook_stop(s.webhook);
    db_pool_close(s.pool);
    free(cert);
    free(key);
    fprintf(stderr, "preflight-dashboard: stopped (%s)\n", signal_number == SIGINT ? "SIGINT" : "SIGTERM");
    return 0;
}
