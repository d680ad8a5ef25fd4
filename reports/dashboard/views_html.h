/* The HTML pages: each renders the JSON model its view built (views.h), so the page and the API
 * never disagree. Every string from a report is escaped; the pages work without JavaScript, and
 * a few lines of inline script (with the response's CSP nonce) add sorting and filtering. */
#ifndef PREFLIGHT_DASHBOARD_VIEWS_HTML_H
#define PREFLIGHT_DASHBOARD_VIEWS_HTML_H

#include <cjson/cJSON.h>

#include "html.h"

/* The page for `model` (its "view" names it); `nonce` goes on the inline script. */
void views_html(const cJSON *model, const char *query, const char *nonce, struct buf *out);
/* An error page. */
void views_html_error(int status, const char *message, const char *nonce, struct buf *out);
/* The sign-in form (read access with a token, when the dashboard is not public). */
void views_html_login(const char *message, const char *nonce, struct buf *out);

#endif
