/* The page table: one row per route, with the view that builds its model (served as JSON under
 * /api/v1 with the same path) and the function that renders that model as HTML. A new page is one
 * row here and one file (page_*.c) with its view and its HTML. */
#ifndef PREFLIGHT_DASHBOARD_PAGES_H
#define PREFLIGHT_DASHBOARD_PAGES_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "db.h"
#include "html.h"
#include "view.h"

#define ROUTE_PARTS 2

/* What a route captured ("{}": one path segment; "*": the rest of the path) and the query. */
struct page_request {
    const char *part[ROUTE_PARTS];
    const struct query_args *query;
    const struct expectations *expectations; /* serve --expectations (the fleet gate), or NULL */
};

/* What an HTML page needs besides its model. */
struct page_context {
    const char *path;       /* the page's path (its JSON and CSV are /api/v1 and this path) */
    const char *query;      /* the request's query, encoded, without page= and group= (links keep filters) */
    const char *nonce;      /* for the one inline script */
    bool signed_in;         /* by a session cookie: the header offers to sign out */
    const char *form_token; /* the token the page's form posts back (sign out; sign in on the login page) */
    int status;             /* 200, or the error a page shows in place (the fleet's requirements) */
    const char *error;      /* that error's message */
    const char *csv_table;  /* ?format=csv: the table asked for ("": the page's own); NULL: not CSV */
};

typedef void page_view(struct db *db, const struct page_request *request, struct view_response *out);
typedef void page_html(const cJSON *model, const struct page_context *context, struct buf *out);

struct page {
    const char *route; /* "/reports/{}", "/devices/" and a star (the rest of the path) */
    page_view *view;
    page_html *html;   /* NULL: the view answers downloads only */
    const char *title; /* the page's title; NULL: the model's "title" */
    bool shows_errors; /* its HTML shows an error in place (with the model the view left) */
    const char *table; /* the model's array that is its table, also as CSV (?format=csv); NULL: none */
    const char *feed;  /* an Atom feed of the page (<link rel="alternate">); NULL: none */
};

/* The page for `path` (without /api/v1); NULL when no route matches. `parts` are copies kept in
 * `storage` (the path's segments), valid while it is. */
const struct page *pages_find(const char *path, struct page_request *request, char *storage, size_t size);

/* The table of a page's model as CSV (csv.h): `table` (?table=NAME: any array of the model) or the
 * page's own; false when the model has no such array. */
bool pages_csv(const struct page *page, const cJSON *model, const char *table, struct buf *out);

/* The HTML of a page: header, the page's own HTML, links to its data as JSON and CSV, footer. */
void pages_render(const struct page *page, const cJSON *model, const struct page_context *context, struct buf *out);
/* An error page (with "did you mean" links when the model has "closest"). */
void pages_render_error(int status, const char *message, const cJSON *model, const struct page_context *context,
                        struct buf *out);
/* The sign-in form. */
void pages_render_login(const char *message, const struct page_context *context, struct buf *out);

/* The page files' views and HTML, named by the table in pages.c. */
page_view view_devices, view_device, view_report, view_report_download, view_artifact, view_regressions, view_machines,
    view_machine, view_compare, view_capabilities, view_capability, view_fleet, view_fleet_download, view_reruns,
    view_regressions_atom;
page_html html_devices, html_device, html_report, html_regressions, html_machines, html_machine, html_compare,
    html_capabilities, html_capability, html_fleet, html_reruns;

#endif
