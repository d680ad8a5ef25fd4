/* preflight.report/1 documents: creating, writing and reading them. The layout is written down
 * in docs/report.schema.json; every report the tools write is validated against it in tests. */
#ifndef PREFLIGHT_MATRIX_REPORT_H
#define PREFLIGHT_MATRIX_REPORT_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#define REPORT_SCHEMA_ID "preflight.report/1"
#ifndef PREFLIGHT_VERSION
#error "PREFLIGHT_VERSION comes from the build: CMakeLists.txt's project(VERSION), as -DPREFLIGHT_VERSION"
#endif

/* A new document: schema id, generator, creation time, empty devices[]. */
cJSON *report_new(const char *generator_name);
cJSON *report_devices(cJSON *report);
/* Writes the document to path ("-" = stdout). Returns false and sets errno-style text in
 * `error` on failure. */
bool report_write(const cJSON *report, const char *path, bool pretty, char *error, unsigned long error_size);

#endif
