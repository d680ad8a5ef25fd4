/* Reading a whole document into memory: the one file reader of the report tools, the probe and
 * the layer's target limits. "-" reads standard input. The text is NUL-terminated and its length
 * returned (a NUL inside it is the parser's to reject, never a silent end). */
#ifndef PREFLIGHT_MATRIX_JSON_FILE_H
#define PREFLIGHT_MATRIX_JSON_FILE_H

#include <stddef.h>

/* The largest document any reader takes: far larger than any real report or fleet file. */
#define JSON_FILE_MAX_BYTES (256u << 20)

/* How messages name `path`: "(standard input)" for "-". */
const char *json_file_name(const char *path);

/* The file's bytes (malloc'd), at most `limit` of them; NULL with `error` set ("PATH: cannot open:
 * No such file or directory", "PATH: larger than 256 MiB"). */
char *json_file_read(const char *path, size_t limit, size_t *length, char *error, size_t size);

#endif
