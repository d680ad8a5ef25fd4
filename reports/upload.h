/* Delivering reports to a dashboard over HTTP(S), without losing or doubling one.
 * The contract (docs/upload-http.md): POST <url> with the report as the body and headers
 * Content-Type: application/json, Idempotency-Key: <sha256 of the body>, Authorization: Bearer
 * <token>; then each PNG artifact the report names, PUT <url>/<key>/artifacts/<sha256>. 2xx: stored; 409: already stored (same key); 401/403: token refused; other 4xx:
 * refused; 408, 429, 5xx and network errors: retried with exponential backoff. Whatever is not
 * delivered is written to the spool directory and sent by `upload --flush` later. The token is
 * never printed or logged. TLS certificates are always verified; redirects are not followed. */
#ifndef PREFLIGHT_REPORTS_UPLOAD_H
#define PREFLIGHT_REPORTS_UPLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/* Bounds of the numbers a user gives (report_main.c refuses others as usage errors). */
#define UPLOAD_MAX_RETRIES 100
#define UPLOAD_MAX_BACKOFF_MS 30000L /* no wait between attempts is longer (the doubling stops there) */
#define UPLOAD_MAX_TIMEOUT_SECONDS 3600.0
#define UPLOAD_MAX_DEADLINE_SECONDS 86400.0

struct upload_options {
    const char *url;
    const char *token; /* NULL: no Authorization header */
    const char *spool_dir;
    const char *ca_file;    /* NULL: the system's CA store */
    double timeout_seconds; /* per request */
    int retries;            /* attempts after the first, for retryable failures */
    long backoff_ms;        /* the first wait; doubled before each further attempt, up to UPLOAD_MAX_BACKOFF_MS */
    double deadline_ms;     /* CLOCK_MONOTONIC milliseconds past which no attempt starts (0: none) */
    bool progress;          /* a line on stderr before each retry */
};

enum upload_outcome {
    UPLOAD_DELIVERED,     /* 2xx */
    UPLOAD_ALREADY_THERE, /* 409: the dashboard has this key */
    UPLOAD_FAILED,        /* retries exhausted or the deadline passed: the caller spools it */
    UPLOAD_REFUSED,       /* refused for good (401/403 token, 400/413 and other 4xx): spooled too,
                             * to be fixed and flushed or dropped (--spool-list, --spool-drop) */
};

/* CLOCK_MONOTONIC in milliseconds, for deadlines. */
double upload_now_ms(void);
/* Whether `url` is an absolute http:// or https:// URL libcurl can parse. */
bool upload_url_valid(const char *url, char *error, size_t size);

/* Sends one body; `message` says what happened (HTTP status, curl error, attempts). */
enum upload_outcome upload_send(const struct upload_options *o, const char *body, size_t length, const char *key,
                                char *message, size_t size);

/* The artifacts (PNG files) `report` names, read from `dir` and each PUT to <url>/<key>/artifacts/
 * <sha256> once the report is delivered, with the same retries: a file that is not there, or is
 * not what the report names, is left out (the report stays delivered without it). UPLOAD_FAILED
 * when one could not be delivered now (the caller spools the report with its files). */
enum upload_outcome upload_send_artifacts(const struct upload_options *o, const cJSON *report, const char *key,
                                          const char *dir, char *message, size_t size);

/* The spool: one file per undelivered report, named <key>.json, written atomically, and the
 * artifact files it names in <key>.artifacts/ beside it. */
bool spool_store(const char *dir, const char *key, const char *body, size_t length, char *error, size_t size);
/* Copies the artifact files `report` names from `from` into the spool; returns how many (-1: a
 * write failed, `error` says which). */
int spool_store_artifacts(const char *dir, const char *key, const cJSON *report, const char *from, char *error,
                          size_t size);
/* Sends every spooled report that is still a valid report with its key as its name, then its
 * spooled artifacts; removes each one delivered with them. Returns how many remain. */
int spool_flush(const struct upload_options *o, int *delivered);
/* Prints the spooled reports (key, bytes, date, devices) on stdout; returns how many. */
int spool_list(const char *dir);
/* Removes the spooled report `key` ("all": every one); false with `error` when there is none. */
bool spool_drop(const char *dir, const char *key, int *dropped, char *error, size_t size);
/* The default spool: $PREFLIGHT_SPOOL, else $XDG_CACHE_HOME/preflight/spool, else ~/.cache/preflight/spool */
void spool_default_dir(char *out, size_t size);

#endif
