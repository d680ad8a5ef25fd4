/* Delivering reports to a dashboard over HTTP(S), without losing or doubling one.
 * The contract (docs/upload-http.md): POST <url> with the report as the body and headers
 * Content-Type: application/json, Idempotency-Key: <sha256 of the body>, Authorization: Bearer
 * <token>. 2xx: stored; 409: already stored (same key); 401/403: token refused; other 4xx:
 * refused; 408, 429, 5xx and network errors: retried with exponential backoff. Whatever is not
 * delivered is written to the spool directory and sent by `upload --flush` later. The token is
 * never printed or logged. TLS certificates are always verified; redirects are not followed. */
#ifndef PREFLIGHT_REPORTS_UPLOAD_H
#define PREFLIGHT_REPORTS_UPLOAD_H

#include <stdbool.h>
#include <stddef.h>

struct upload_options {
    const char *url;
    const char *token;      /* NULL: no Authorization header */
    const char *spool_dir;
    const char *ca_file;    /* NULL: the system's CA store */
    double timeout_seconds; /* per request */
    int retries;            /* attempts after the first, for retryable failures */
    long backoff_ms;        /* the first wait; doubled before each further attempt */
};

enum upload_outcome {
    UPLOAD_DELIVERED,       /* 2xx */
    UPLOAD_ALREADY_THERE,   /* 409: the dashboard has this key */
    UPLOAD_FAILED,          /* retries exhausted, or refused: the caller spools it */
};

/* Sends one body; `message` says what happened (HTTP status, curl error, attempts). */
enum upload_outcome upload_send(const struct upload_options *o, const char *body, size_t length, const char *key,
                                char *message, size_t size);

/* The spool: one file per undelivered report, named <key>.json, written atomically. */
bool spool_store(const char *dir, const char *key, const char *body, size_t length, char *error, size_t size);
/* Sends every spooled report; removes each one delivered. Returns how many remain. */
int spool_flush(const struct upload_options *o, int *delivered);
/* The default spool: $PREFLIGHT_SPOOL, else $XDG_CACHE_HOME/preflight/spool, else ~/.cache/preflight/spool */
void spool_default_dir(char *out, size_t size);

#endif
