#include "pages.h"

#include <stdio.h>
#include <string.h>

#include "html_page.h"

/* route, view (the model, also /api/v1/<route>), HTML (NULL: downloads), title (NULL: the model's) */
static const struct page pages[] = {
    {"/", view_devices, html_devices, "Devices", false},
    {"/devices", view_devices, html_devices, "Devices", false},
    {"/devices/*", view_device, html_device, NULL, false},
    {"/reports/{}", view_report, html_report, NULL, false},
    {"/reports/{}/{}", view_report_download, NULL, NULL, false},
    {"/artifacts/{}", view_artifact, NULL, NULL, false},
    {"/regressions", view_regressions, html_regressions, "Regressions", false},
    {"/reruns", view_reruns, html_reruns, "Reruns", false},
    {"/machines", view_machines, html_machines, "Machines", false},
    {"/machines/*", view_machine, html_machine, NULL, false},
    {"/compare", view_compare, html_compare, "Compare", false},
    {"/capabilities", view_capabilities, html_capabilities, "Coverage", false},
    {"/capabilities/*", view_capability, html_capability, NULL, false},
    {"/fleet", view_fleet, html_fleet, "Fleet", true},
    {"/fleet/{}", view_fleet_download, NULL, NULL, false},
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

void pages_render(const struct page *page, const cJSON *model, const struct page_context *context, struct buf *out)
{
    char title[200];
    snprintf(title, sizeof(title), "%s", page->title ? page->title : str(model, "title"));
    html_head(out, title, context->signed_in ? context->form_token : NULL);
    page->html(model, context, out);
    html_foot(out, context->nonce);
}

void pages_render_error(int status, const char *message, const cJSON *model, const struct page_context *context,
                        struct buf *out)
{
    char title[32];
    snprintf(title, sizeof(title), "Error %d", status);
    html_head(out, title, context->signed_in ? context->form_token : NULL);
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
    html_head(out, "Sign in", NULL);
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
