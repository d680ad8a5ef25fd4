/* Storing one uploaded report: checked by the report reader, then the bytes and everything the
 * pages need from them (entries, the devices' newest state, coverage counts, first driver
 * versions) written in one transaction, so that a process killed at any moment leaves the whole
 * report or nothing. The SHA-256 of the bytes is the report's identity: a second delivery of the
 * same bytes is recognised and not stored again, also when both arrive at once. */
#ifndef PREFLIGHT_DASHBOARD_INGEST_H
#define PREFLIGHT_DASHBOARD_INGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "db.h"
#include "items.h"
#include "report_artifacts.h"

#define INGEST_MAX_BODY (16u * 1024u * 1024u) /* bytes; larger uploads are refused (413) */

enum ingest_status {
    INGEST_STORED,
    INGEST_DUPLICATE, /* a report with these bytes is stored already */
    INGEST_INVALID,   /* the report reader refused it; `message` says why */
    INGEST_FAILED,    /* the database failed; nothing was stored */
};

struct ingest_prepared;

/* Told of an upload inside its transaction (the webhook's events, webhook_events.h): `before`
 * looks at the tables before the report's rows are written (NULL: out of memory, nothing stored),
 * `after` after them (`stored`: whether they were; `after` frees what `before` returned; false:
 * the upload fails). */
struct ingest_observer {
    void *(*before)(struct db *db, const struct ingest_prepared *p, void *context);
    bool (*after)(struct db *db, const struct ingest_prepared *p, int64_t report_id, void *before, bool stored,
                  void *context);
    void *context;
};

struct ingest_source {
    const char *token_name;                 /* who uploaded ("import" for the import command) */
    const char *peer;                       /* the client's address, or the file imported */
    const struct ingest_observer *observer; /* NULL: none */
};

/* `key`: the SHA-256 hex of the body (computed when NULL). `report_id` gets the stored report's id
 * (or the existing one for a duplicate). */
enum ingest_status ingest_report(struct db *db, const char *body, size_t length, const char *key,
                                 const struct ingest_source *source, int64_t *report_id, char *message, size_t size);

/* The same in two steps, for loading many reports on several cores: the checking, extraction
 * and compression (no database; any thread), then the storing (one transaction). */
struct ingest_prepared;
struct ingest_prepared *ingest_prepare(const char *body, size_t length, const char *key, enum ingest_status *status,
                                       char *message, size_t size);
enum ingest_status ingest_store(struct db *db, const struct ingest_prepared *prepared,
                                const struct ingest_source *source, int64_t *report_id, char *message, size_t size);
void ingest_prepared_free(struct ingest_prepared *prepared);
/* The key (SHA-256) of a prepared report and the artifacts it names (for `import`, which stores
 * their files as an upload would). */
const char *ingest_prepared_key(const struct ingest_prepared *prepared);
const struct report_artifact *ingest_prepared_artifacts(const struct ingest_prepared *prepared, size_t *count);
/* What a prepared report holds, for an observer: its machine, each device's key, driver (as the
 * dashboard identifies it: a Mesa driver by its Mesa version), identity (the device without its
 * declared block and results: what an expectation matches) and items (kind "test": its verdict). */
const char *ingest_prepared_host(const struct ingest_prepared *prepared);
int ingest_prepared_device_count(const struct ingest_prepared *prepared);
const char *ingest_prepared_device_key(const struct ingest_prepared *prepared, int index);
int64_t ingest_prepared_driver_raw(const struct ingest_prepared *prepared, int index);
const cJSON *ingest_prepared_device(const struct ingest_prepared *prepared, int index);
const struct item_list *ingest_prepared_items(const struct ingest_prepared *prepared, int index);
/* Whether a report with this key is stored (a retry or a second upload answers at once). */
bool ingest_known(struct db *db, const char *key, int64_t *report_id, char *message, size_t size);

/* The stored bytes of report `id` (malloc'd, `length` set); NULL when there is none. */
char *ingest_load_body(struct db *db, int64_t id, size_t *length);

/* For deriving the tables again from stored reports (rederive.h): the deflated bytes as stored,
 * inflated (NULL when they are not `length` bytes of deflate); a stored report prepared (its
 * bytes are stored already: not compressed again); and what a report adds to the derived tables
 * (entries, devices' state, items, machines, the fleet's verdicts, artifact names), inside the
 * caller's transaction. */
char *ingest_inflate_body(const void *stored, size_t stored_length, size_t length);
struct ingest_prepared *ingest_prepare_stored(const char *body, size_t length, const char *key, char *message,
                                              size_t size);
bool ingest_store_derived(struct db *db, int64_t report_id, const struct ingest_prepared *prepared,
                          const char *uploaded, char *message, size_t size);

#endif
