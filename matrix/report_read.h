/* Reading documents the report tools take: preflight.report/1 reports, and `vulkaninfo --json`
 * Vulkan Profiles documents, which become a report with one declared-only device (no smoke
 * results). Every document is checked for the structure the tools rely on, with a message that
 * names the file, the place and the problem; nothing malformed gets further. */
#ifndef PREFLIGHT_MATRIX_REPORT_READ_H
#define PREFLIGHT_MATRIX_REPORT_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/* Reads and checks the file ("-": standard input); NULL with `error` set on any problem. The text
 * must be strict JSON (json_strict.h) before its structure is looked at. */
cJSON *report_load(const char *path, char *error, size_t size);
/* The same from text already in memory (`name` is used in messages). */
cJSON *report_parse(const char *text, size_t length, const char *name, char *error, size_t size);
/* The same from a document already parsed, which it takes (converted or freed): for readers that
 * looked at the document first (matrix/fleet_limits_read.c). */
cJSON *report_from_json(cJSON *json, const char *name, char *error, size_t size);
/* Structure check of a parsed report: false with `error` set (e.g. "devices[0].smoke[3].status:
 * 'passed' is not a verdict"). */
bool report_check(const cJSON *report, char *error, size_t size);

#endif
