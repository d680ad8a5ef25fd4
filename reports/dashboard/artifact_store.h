/* The images a report's evidence names (the probe's PNG artifacts: an observed shading-rate map, a
 * mesh shader's target, an AmberScript test's failing image), uploaded beside the report and kept
 * in the database by their SHA-256, the name the evidence already gives them. An artifact is
 * accepted only for a stored report that names it, only as a whole, well-formed PNG (png_check.h),
 * only up to ARTIFACT_MAX_BYTES, within the quotas below, and only when its bytes hash to its name. */
#ifndef PREFLIGHT_DASHBOARD_ARTIFACT_STORE_H
#define PREFLIGHT_DASHBOARD_ARTIFACT_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "db.h"

#include "report_artifacts.h"

#define ARTIFACT_MAX_BYTES REPORT_ARTIFACT_MAX_BYTES /* per image; larger uploads are refused (413) */

/* Quotas, so that a token cannot fill the database with files: the artifacts a report names that
 * are stored (however many reports share them) at most so many and so many bytes, refused beyond
 * (413); the bytes a token stored in the last 24 hours at most so many, refused beyond (429: the
 * client retries later). The import command has no token and only the report's quota. */
#define ARTIFACT_REPORT_MAX_FILES 64
#define ARTIFACT_REPORT_MAX_BYTES (16u * 1024u * 1024u)
#define ARTIFACT_TOKEN_DAY_MAX_BYTES (1024ull * 1024u * 1024u)

struct artifact_quota {
    unsigned report_files;
    uint64_t report_bytes, token_day_bytes;
};
#define ARTIFACT_QUOTA_DEFAULT                                                                                         \
    ((struct artifact_quota){ARTIFACT_REPORT_MAX_FILES, ARTIFACT_REPORT_MAX_BYTES, ARTIFACT_TOKEN_DAY_MAX_BYTES})

enum artifact_status {
    ARTIFACT_STORED,
    ARTIFACT_KNOWN,        /* these bytes are stored already */
    ARTIFACT_MISMATCH,     /* the bytes' SHA-256 is not the name (400) */
    ARTIFACT_NOT_PNG,      /* 422 */
    ARTIFACT_NO_REPORT,    /* no stored report has that key (404) */
    ARTIFACT_NOT_NAMED,    /* the report does not name this artifact (422) */
    ARTIFACT_REPORT_QUOTA, /* the report's artifacts reached their quota (413) */
    ARTIFACT_TOKEN_QUOTA,  /* the token's artifacts of the last 24 hours reached their quota (429) */
    ARTIFACT_FAILED,       /* the database failed (503) */
};

/* Stores the artifact `sha256` of the report whose Idempotency-Key is `report_key`, for `token`
 * (a token's name; NULL: the import command, no quota per token). */
enum artifact_status artifact_store(struct db *db, const char *report_key, const char *sha256, const void *data,
                                    size_t length, const char *token, const struct artifact_quota *quota, char *message,
                                    size_t size);

/* The bytes of artifact `sha256` (malloc'd, `length` set); NULL when none is stored. */
void *artifact_load(struct db *db, const char *sha256, size_t *length);

#endif
