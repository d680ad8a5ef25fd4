/* Mesa CI's expectation lists into expectations (expectations.h, docs/expectations.md):
 *   fails.txt   "dEQP-VK.foo.bar,Fail" (a test name and the result it gives: Fail, Crash, Timeout, ...)
 *   flakes.txt  a regular expression over test names per line
 *   skips.txt   a regular expression over test names per line
 * Each becomes one entry for the device pattern given (the conditions of an expectations line). */
#ifndef PREFLIGHT_REPORTS_EXPECTATIONS_IMPORT_H
#define PREFLIGHT_REPORTS_EXPECTATIONS_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "expectations.h"

/* A deqp-runner regular expression as a glob: ".*" is "*", ".+" is "?*", "\X" is X, a lone "."
 * is the dot it almost always means in a test name, "^" and "$" at the ends go, [...] stays.
 * False for what a glob cannot say (alternatives, groups, counted repeats). */
bool expectations_regex_to_glob(const char *regex, char *out, size_t size);

/* Writes one expectations line per entry of `text` (a Mesa list of `kind`, read from `source`)
 * to `out`: KIND TEST conditions reason="..." [until=...]. `conditions` were checked with
 * expectation_parse_conditions; `reason` ("" for none) is put before where each line came from.
 * False with `error` ("fails.txt line 3: ...") on a line that cannot be imported. Returns the
 * number of entries written through `written`. */
bool expectations_import_mesa(enum expectation_kind kind, const char *text, const char *source, const char *conditions,
                              const char *reason, const char *until, FILE *out, size_t *written, char *error,
                              size_t size);

#endif
