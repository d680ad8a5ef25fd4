/* The images a report's evidence names (the probe's PNG artifacts: an observed shading-rate map, a
 * mesh shader's target, an AmberScript test's failing image), uploaded beside the report and kept
 * in the database by their SHA-256, the name the evidence already gives them. An artifact is
 * accepted only for a stored report that names it, only as a PNG, only up to ARTIFACT_MAX_BYTES,
 * and only when its bytes hash to its name. */
#ifndef PREFLIGHT_DASHBOARD_ARTIFACT_STORE_H
#define PREFLIGHT_DASHBOARD_ARTIFACT_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"

#include "report_artifacts.h"

#define ARTIFACT_MAX_BYTES REPORT_ARTIFACT_MAX_BYTES /* per image; larger uploads are refused (413) */

enum artifact_status {
    ARTIFACT_STORED,
    ARTIFACT_KNOWN,     /* these bytes are stored already */
    ARTIFACT_MISMATCH,  /* the bytes' SHA-256 is not the name (400) */
    ARTIFACT_NOT_PNG,   /* 422 */
    ARTIFACT_NO_REPORT, /* no stored report has that key (404) */
    ARTIFACT_NOT_NAMED, /* the report does not name this artifact (422) */
    ARTIFACT_FAILED,    /* the database failed (503) */
};

/* Stores the artifact `sha256` of the report whose Idempotency-Key is `report_key`. */
enum artifact_status artifact_store(struct db *db, const char *report_key, const char *sha256, const void *data,
                                    size_t length, char *message, size_t size);

/* The bytes of artifact `sha256` (malloc'd, `length` set); NULL when none is stored. */
void *artifact_load(struct db *db, const char *sha256, size_t *length);

#endif
