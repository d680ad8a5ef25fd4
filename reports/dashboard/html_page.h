/* The pieces every HTML page is made of: the header with the navigation, the footer with the one
 * inline script (sorting by a column, filtering rows and opening the sections that hold a match),
 * the filter form with its dropdowns, links, verdict marks and counted nouns. */
#ifndef PREFLIGHT_DASHBOARD_HTML_PAGE_H
#define PREFLIGHT_DASHBOARD_HTML_PAGE_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "html.h"

/* A model's string ("" when absent) and number (0). */
const char *str(const cJSON *o, const char *key);
double num(const cJSON *o, const char *key);

/* The page's head and navigation; with `feed` the path of its Atom feed (a link rel="alternate");
 * with `logout_token` (signed in by a session) a "sign out" form
 * carrying it (server.c checks it, so another site cannot sign a browser out). */
void html_head(struct buf *b, const char *title, const char *feed, const char *logout_token);
void html_foot(struct buf *b, const char *nonce);

/* The filters of a listing (the model's "filters" and "choices") as a form to `action`. */
void html_filter_form(struct buf *b, const cJSON *model, const char *action);

void html_link_device(struct buf *b, const char *key, const char *text);
void html_link_machine(struct buf *b, const char *host);
void html_link_report(struct buf *b, double id, const char *text);
/* A <td> with the verdict as text and its class (pass green, failing red, flaky amber). */
void html_verdict_cell(struct buf *b, const char *verdict);
/* A verdict as an inline mark. */
void html_verdict(struct buf *b, const char *verdict);
/* "1 regression", "2 regressions" */
void html_count(struct buf *b, double n, const char *singular, const char *plural);
/* ?query appended to a link, escaped for an attribute ("" when the query is empty) */
void html_query_suffix(struct buf *b, const char *query, bool first);

#endif
