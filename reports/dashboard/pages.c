#include "pages.h"

#include <stdio.h>
#include <string.h>

#include "csv.h"
#include "html_page.h"

/* route, view (the model, also /api/v1/<route>), HTML (NULL: downloads), title (NULL: the model's),
 * errors shown in place, the model's table (also as CSV), the page's Atom feed */
static const struct page pages[] = {
    {"/", view_devices, html_devices, "Devices", false, "devices", NULL},
    {"/devices", view_devices, html_devices, "Devices", false, "devices", NULL},
    {"/devices/*", view_device, html_device, NULL, false, "drivers", NULL},
    {"/reports/{}", view_report, html_report, NULL, false, "devices", NULL},
    {"/reports/{}/{}", view_report_download, NULL, NULL, false, NULL, NULL},
    {"/artifacts/{}", view_artifact, NULL, NULL, false, NULL, NULL},
    {"/regressions", view_regressions, html_regressions, "Regressions", false, "regressions", "/regressions.atom"},
    {"/regressions.atom", view_regressions_atom, NULL, NULL, false, NULL, NULL},
    {"/reruns", view_reruns, html_reruns, "Reruns", false, "reruns", NULL},
    {"/machines", view_machines, html_machines, "Machines", false, "machines", NULL},
    {"/machines/*", view_machine, html_machine, NULL, false, "devices", NULL},
    {"/compare", view_compare, html_compare, "Compare", false, "rows", NULL},
    {"/capabilities", view_capabilities, html_capabilities, "Coverage", false, "items", NULL},
    {"/capabilities/*", view_capability, html_capability, NULL, false, "declaring", NULL},
    {"/fleet", view_fleet, html_fleet, "Fleet", true, "members", NULL},
    {"/fleet/{}", view_fleet_download, NULL, NULL, false, NULL, NULL},
};

/* Matches `path` against `route`; the captured parts are copied into `storage`. */
static bool match(const char *route, const char *path, struct page_request *request, char *storage, size_t size)
{
    size_t used = 0;
    int part = 0;
    while (*route) {
        if (route[0] == '{' && route[1] == '}') {
            size_t n = strcspn(path, "/");
            if (n == 0 || used + n + 1 > size || part == ROUTE_PARTS)
                return false;
            memcpy(storage + used, path, n);
            storage[used + n] = '\0';
            request->part[part++] = storage + used;
            used += n + 1;
            path += n;
            route += 2;
        } else if (route[0] == '*') {
            size_t n = strlen(path);
            if (n == 0 || used + n + 1 > size || part == ROUTE_PARTS)
                return false;
            memcpy(storage + used, path, n + 1);
            request->part[part++] = storage + used;
            return true;
        } else if (*route++ != *path++) {
            return false;
        }
    }
    return *path == '\0';
}

const struct page *pages_find(const char *path, struct page_request *request, char *storage, size_t size)
{
    for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); ++i) {
        struct page_request r = {.query = request->query, .expectations = request->expectations};
        if (match(pages[i].route, path, &r, storage, size)) {
            *request = r;
            return &pages[i];
        }
    }
    return NULL;
}

bool pages_csv(const struct page *page, const cJSON *model, const char *table, struct buf *out)
{
    const char *name = table && *table ? table : page->table;
    return name != NULL && csv_from_rows(cJSON_GetObjectItemCaseSensitive(model, name), out);
}

/* "This page's data: JSON · CSV", the same path and query under /api/v1. */
static void data_links(const struct page_context *context, struct buf *out)
{
    struct buf href = {0};
    buf_add(&href, "/api/v1");
    for (const char *s = context->path; *s == '/';) { /* each segment encoded again */
        size_t n = strcspn(s + 1, "/");
        char segment[1100];
        snprintf(segment, sizeof(segment), "%.*s", (int)n, s + 1);
        buf_add(&href, "/");
        buf_url(&href, segment);
        s += n + 1;
    }
    buf_add(out, "<p class=\"muted\" id=\"data\">This page's data: <a href=\"");
    buf_escape(out, href.data);
    html_query_suffix(out, context->query, true);
    buf_add(out, "\">JSON</a> · <a href=\"");
    buf_escape(out, href.data);
    html_query_suffix(out, context->query, true);
    buf_add(out, context->query && *context->query ? "&amp;format=csv\">CSV</a></p>" : "?format=csv\">CSV</a></p>");
    if (href.failed)
        out->failed = true;
    buf_free(&href);
}

void pages_render(const struct page *page, const cJSON *model, const struct page_context *context, struct buf *out)
{
    char title[200];
    snprintf(title, sizeof(title), "%s", page->title ? page->title : str(model, "title"));
    html_head(out, title, page->feed, context->signed_in ? context->form_token : NULL);
    page->html(model, context, out);
    if (page->table != NULL && context->path != NULL && context->status < 400)
        data_links(context, out);
    html_foot(out, context->nonce);
}

void pages_render_error(int status, const char *message, const cJSON *model, const struct page_context *context,
                        struct buf *out)
{
    char title[32];
    snprintf(title, sizeof(title), "Error %d", status);
    html_head(out, title, NULL, context->signed_in ? context->form_token : NULL);
    buf_printf(out, "<h1>%d</h1><p class=\"error\">", status);
    buf_escape(out, message);
    buf_add(out, "</p>");
    const cJSON *closest = cJSON_GetObjectItemCaseSensitive(model, "closest");
    if (cJSON_GetArraySize(closest) > 0) {
        buf_add(out, "<p>Did you mean:</p><ul class=\"closest\">");
        const cJSON *name;
        cJSON_ArrayForEach(name, closest)
        {
            buf_add(out, "<li><a href=\"/capabilities/");
            buf_url(out, cJSON_GetStringValue(name));
            buf_add(out, "\">");
            buf_escape(out, cJSON_GetStringValue(name));
            buf_add(out, "</a></li>");
        }
        buf_add(out, "</ul>");
    }
    html_foot(out, context->nonce);
}

void pages_render_login(const char *message, const struct page_context *context, struct buf *out)
{
    html_head(out, "Sign in", NULL, NULL);
    buf_add(out, "<h1>Sign in</h1><p>This dashboard needs a token to read (ask its operator for one: "
                 "<code>preflight-dashboard token add NAME</code>). Signing in keeps a session cookie, not the "
                 "token; it ends when you sign out, after 30 days, or when the token is revoked.</p>");
    if (message && *message) {
        buf_add(out, "<p class=\"error\">");
        buf_escape(out, message);
        buf_add(out, "</p>");
    }
    buf_add(out, "<form method=\"post\" action=\"/login\"><input type=\"hidden\" name=\"form_token\" value=\"");
    buf_escape(out, context->form_token ? context->form_token : "");
    buf_add(out, "\"><input type=\"password\" name=\"token\" size=\"72\" "
                 "autocomplete=\"current-password\"> <button>sign in</button></form>");
    html_foot(out, context->nonce);
}
