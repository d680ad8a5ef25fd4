/* A table of the JSON API as CSV (RFC 4180): the rows of a model's array, one line each, CRLF
 * line ends, a header row of the union of the rows' keys in the order first seen; a field with a
 * comma, a quote, CR or LF quoted and its quotes doubled; UTF-8 as stored. A nested value (an
 * array or object) is one field holding its JSON text. A string that a spreadsheet would read as
 * a formula (starting with =, +, -, @, tab or CR) gets a leading apostrophe, so opening the file
 * never runs what a report wrote ("formula injection"); numbers are written as numbers. */
#ifndef PREFLIGHT_DASHBOARD_CSV_H
#define PREFLIGHT_DASHBOARD_CSV_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "html.h"

/* One field, guarded and quoted as above (`text` NULL: an empty field). */
void csv_field(struct buf *out, const char *text, bool guard_formula);

/* `rows` (an array; an element that is not an object is a row with the one column "value") as
 * CSV into `out`; false when `rows` is not an array or memory ran out. */
bool csv_from_rows(const cJSON *rows, struct buf *out);

#endif
