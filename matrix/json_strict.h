/* What RFC 8259 requires of a JSON text and cJSON does not check: one value and nothing after it,
 * object keys unique, strings of valid UTF-8 without control characters or U+0000, numbers that
 * fit a double, and a bounded nesting depth. The report tools check every document with it before
 * parsing, so what they accept, Python's and browsers' parsers accept the same way. */
#ifndef PREFLIGHT_MATRIX_JSON_STRICT_H
#define PREFLIGHT_MATRIX_JSON_STRICT_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_STRICT_MAX_DEPTH 256

/* False with `error` set to "byte N: <problem>" (the problem in words) for the first violation. */
bool json_strict_check(const char *text, size_t length, char *error, size_t size);

/* The parsed document, after the check above; NULL with `error` set to "NAME: malformed JSON: ..."
 * (`name` names the document in messages). */
struct cJSON;
struct cJSON *json_strict_parse(const char *text, size_t length, const char *name, char *error, size_t size);

/* Whether `text` is valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
bool json_valid_utf8(const char *text, size_t length);

#endif
