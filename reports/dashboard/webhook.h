/* The dashboard's webhook (issue 43 item 6): a JSON POST to one URL per event — a new regression,
 * a new unexpected failure, a machine that lost its GPU — signed with a shared secret, retried
 * until the receiver answers 2xx or the attempts are spent. Events are written to the table
 * `webhook_outbox` inside the transaction that stores the upload (webhook_events.h), so one is
 * sent exactly when its upload is stored, also across a crash; a delivery thread per dashboard
 * process empties the outbox, claiming each row first so that several processes sharing a
 * PostgreSQL database send each event once. docs/dashboard.md "Webhook" has the format. */
#ifndef PREFLIGHT_DASHBOARD_WEBHOOK_H
#define PREFLIGHT_DASHBOARD_WEBHOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "db.h"

#define WEBHOOK_SECRET_MAX 1024
#define WEBHOOK_DEFAULT_ATTEMPTS 8
#define WEBHOOK_DEFAULT_FIRST_RETRY 1.0 /* seconds; doubled after each failed attempt, at most an hour */

struct webhook_options {
    const char *url; /* http:// or https://; NULL: no webhook */
    char secret[WEBHOOK_SECRET_MAX + 1];
    size_t secret_length;
    unsigned attempts;
    double first_retry; /* seconds */
};

/* Reads the secret (the whole file, at most WEBHOOK_SECRET_MAX bytes, a trailing newline dropped)
 * and checks the URL; false with `error` set. */
bool webhook_configure(struct webhook_options *o, const char *url, const char *secret_file, char *error, size_t size);

/* Adds an event to the outbox, in the caller's transaction: the body {"event", "created",
 * ...payload's members}; its delivery id (the outbox row) travels in a header. */
bool webhook_enqueue(struct db *db, const char *event, cJSON *payload);

/* The delivery thread, on its own connection to `database`; NULL with `error` set. */
struct webhook_sender;
struct webhook_sender *webhook_start(const struct webhook_options *o, const char *database, char *error, size_t size);
/* Asks the thread to look at the outbox now (after an upload stored events). */
void webhook_wake(struct webhook_sender *s);
void webhook_stop(struct webhook_sender *s);

#endif
