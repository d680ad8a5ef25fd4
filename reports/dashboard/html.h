/* Building response bodies: a growing buffer, HTML escaping of every string that comes from a
 * report, URL encoding of query values, and the SVG pictures the pages draw (share bars and
 * value distributions), all server-side, nothing fetched. */
#ifndef PREFLIGHT_DASHBOARD_HTML_H
#define PREFLIGHT_DASHBOARD_HTML_H

#include <stdbool.h>
#include <stddef.h>

struct buf {
    char *data;
    size_t length, capacity;
    bool failed; /* out of memory: the response becomes a 500 */
};

void buf_add(struct buf *b, const char *text);
void buf_add_bytes(struct buf *b, const char *data, size_t length);
void buf_printf(struct buf *b, const char *format, ...) __attribute__((format(printf, 2, 3)));
/* `text` with & < > " ' as entities; control characters (but tab and newline), bidirectional
 * controls and invisible formatting characters shown as a visible marker "<U+202E>", never
 * interpreted; bytes that are not UTF-8 as U+FFFD */
void buf_escape(struct buf *b, const char *text);
/* percent-encoding for a query value or a path segment */
void buf_url(struct buf *b, const char *text);
void buf_free(struct buf *b);

/* A horizontal bar: `share` (0..1) filled, a second `share2` overlaid (verified within declared). */
void svg_share_bar(struct buf *b, double share, double share2, const char *label);
/* A bar chart of value → count, in the given order; the labels are escaped. */
void svg_distribution(struct buf *b, const char *const *labels, const long *counts, size_t n);

#endif
