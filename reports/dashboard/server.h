/* The HTTP(S) server (libmicrohttpd, a thread per connection): routes, authentication, limits and
 * the upload endpoint of docs/upload-http.md. Pages and API read through views.h; uploads go to
 * ingest.h. */
#ifndef PREFLIGHT_DASHBOARD_SERVER_H
#define PREFLIGHT_DASHBOARD_SERVER_H

#include <stdbool.h>

#include "artifact_store.h"
#include "webhook.h"

struct server_options {
    const char *database;                    /* file or postgresql:// URL */
    const char *listen;                      /* "ADDR:PORT"; port 0 picks a free one */
    bool public_read;                        /* pages and API readable without a token */
    const char *tls_cert, *tls_key;          /* PEM files: HTTPS */
    bool quiet;                              /* no access log */
    unsigned max_connections;                /* open connections in all (a thread each) */
    unsigned max_per_address;                /* open connections of one client address; 0: no limit */
    double header_deadline;                  /* seconds a request's headers may take, from the connection's start or
                                       the previous response (deadlines.h) */
    double request_deadline;                 /* seconds its body may take after that */
    unsigned long long token_artifact_bytes; /* artifact bytes a token may store in 24 hours */
    bool behind_tls;                         /* browsers reach it over HTTPS through a proxy: Secure cookies */
    const char *public_url; /* "https://dash.example": where browsers reach it (forms' Origin; https: Secure) */
    const struct expectations *expectations; /* --expectations: the fleet gate's known failures, or NULL */
    const struct webhook_options *webhook;   /* --webhook: events POSTed there, or NULL */
};

#define SERVER_DEFAULT_MAX_CONNECTIONS 256
#define SERVER_DEFAULT_MAX_PER_ADDRESS 64
#define SERVER_DEFAULT_HEADER_DEADLINE 10.0
#define SERVER_DEFAULT_REQUEST_DEADLINE 120.0

/* Serves until SIGINT or SIGTERM; prints the URL it listens on first. Returns an exit code. */
int server_run(const struct server_options *options);

#endif
