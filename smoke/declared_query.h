/* Questions the smoke tests ask of a report's `declared` block before they run. */
#ifndef PREFLIGHT_SMOKE_DECLARED_QUERY_H
#define PREFLIGHT_SMOKE_DECLARED_QUERY_H

#include <stdbool.h>
#include <cjson/cJSON.h>

bool declared_has_extension(const cJSON *declared, const char *name);
/* features/<struct>/<member> is true in any of the given structs (core and promoted ones) */
bool declared_feature(const cJSON *declared, const char *const *structs, const char *member);
/* the flag array at `path` (under declared/) contains `bit` */
bool declared_flag(const cJSON *declared, const char *path, const char *bit);
/* some queue family has `bit` in queueFlags */
bool declared_queue_flag(const cJSON *declared, const char *bit);
/* the number at path, or `fallback` */
double declared_number(const cJSON *declared, const char *path, double fallback);

#endif
