/* The HTTP(S) server (libmicrohttpd, a thread per connection): routes, authentication, limits and
 * the upload endpoint of docs/upload-http.md. Pages and API read through views.h; uploads go to
 * ingest.h. */
#ifndef PREFLIGHT_DASHBOARD_SERVER_H
#define PREFLIGHT_DASHBOARD_SERVER_H

#include <stdbool.h>

struct server_options {
    const char *database;           /* file or postgresql:// URL */
    const char *listen;             /* "ADDR:PORT"; port 0 picks a free one */
    bool public_read;               /* pages and API readable without a token */
    const char *tls_cert, *tls_key; /* PEM files: HTTPS */
    bool quiet;                     /* no access log */
};

/* Serves until SIGINT or SIGTERM; prints the URL it listens on first. Returns an exit code. */
int server_run(const struct server_options *options);

#endif
