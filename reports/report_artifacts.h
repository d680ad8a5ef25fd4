/* The artifact files a report names: each smoke test's evidence may hold an "artifacts" array of
 * {"name", "file", "sha256", "bytes", ...} (the probe's PNG images; an AmberScript test's failing
 * image), at any depth, for any test. The upload client sends these files beside the report, and
 * the dashboard accepts only the files a stored report names (docs/upload-http.md). */
#ifndef PREFLIGHT_REPORTS_REPORT_ARTIFACTS_H
#define PREFLIGHT_REPORTS_REPORT_ARTIFACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#define REPORT_ARTIFACT_MAX_BYTES (4u * 1024u * 1024u) /* per file; larger ones are neither sent nor stored */
#define REPORT_ARTIFACTS_MAX 512                       /* per report; more are ignored */

struct report_artifact {
    char sha256[65];
    char file[256]; /* the file name the probe wrote ("" when the evidence gives none) */
    int64_t bytes;  /* as the evidence gives it; -1 when it does not */
};

/* Every artifact with a valid "sha256" named in `report`'s evidence, each hash once; returns how
 * many were written (at most `max`). */
size_t report_artifacts_of(const cJSON *report, struct report_artifact *out, size_t max);

/* The bytes of artifact `a` from folder `dir` (malloc'd, `length` set) when the file is there, at
 * most REPORT_ARTIFACT_MAX_BYTES and still what the report names (its SHA-256); NULL otherwise,
 * with `why` saying what is wrong ("" when the file is simply not there). */
char *report_artifact_read(const char *dir, const struct report_artifact *a, size_t *length, char *why, size_t size);

/* Where a report's artifact files are: `given` (--artifacts), else the folder "artifacts" beside
 * the report (as preflight-farm-run lays a run out), else the report's own folder. */
void report_artifacts_dir(const char *given, const char *report, char *out, size_t size);

/* Whether `text` is 64 lowercase hex digits (a SHA-256 as the reports write it). */
bool report_artifact_hash_valid(const char *text);

#endif
