#include "views_html.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str(const cJSON *o, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
    return s ? s : "";
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static void head(struct buf *b, const char *title, const char *nonce)
{
    buf_add(b, "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
               "content=\"width=device-width\"><title>");
    buf_escape(b, title);
    buf_add(
        b,
        " · preflight-dashboard</title><style>"
        "body{font:14px system-ui,sans-serif;margin:0;color:#111}header{background:#1f2937;color:#fff;padding:8px 16px}"
        "header a{color:#fff;margin-right:16px;text-decoration:none}main{padding:12px 16px}"
        "table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #d1d5db;padding:3px 6px;text-align:left;vertical-align:top}"
        "th{background:#f3f4f6;cursor:pointer}tr.regression td,.regression{background:#fee2e2}"
        ".pass{color:#15803d}.fail,.crashed,.timeout,.device_lost,.not_applied{color:#b91c1c;font-weight:bold}"
        ".muted{color:#6b7280}form.filters label{margin-right:10px}details{margin:4px 0}code{font-size:12px}"
        "tr.same{display:none}body.all tr.same{display:table-row}"
        "</style></head><body><header><a href=\"/\">Devices</a><a href=\"/capabilities\">Coverage</a>"
        "<a href=\"/fleet\">Fleet</a><a href=\"/compare\">Compare</a></header><main>");
    (void)nonce;
}

static void foot(struct buf *b, const char *nonce)
{
    /* sorting by a column header and filtering rows by a text box: the page works without it */
    buf_printf(b, "</main><script nonce=\"%s\">", nonce);
    buf_add(
        b,
        "document.querySelectorAll('table.sortable th').forEach(function(th,i){th.addEventListener('click',function(){"
        "var t=th.closest('table'),rows=[].slice.call(t.tBodies[0].rows),up=th.dataset.up!=='1';th.dataset.up=up?'1':'0';"
        "rows.sort(function(a,b){var x=a.cells[i].innerText,y=b.cells[i].innerText,nx=parseFloat(x),ny=parseFloat(y);"
        "var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);return up?c:-c;});rows.forEach(function(r){t.tBodies[0].appendChild(r);});});});"
        "document.querySelectorAll('input[data-filter]').forEach(function(box){box.addEventListener('input',function(){"
        "var q=box.value.toLowerCase();document.querySelectorAll(box.dataset.filter).forEach(function(el){"
        "el.style.display=el.innerText.toLowerCase().indexOf(q)<0?'none':'';});});});"
        "document.body.dataset.ready='1';"
        "</script></body></html>");
}

static void link_device(struct buf *b, const char *key, const char *text)
{
    buf_add(b, "<a href=\"/devices/");
    buf_url(b, key);
    buf_add(b, "\">");
    buf_escape(b, text);
    buf_add(b, "</a>");
}

static void verdict_cell(struct buf *b, const char *verdict)
{
    buf_add(b, "<td class=\"");
    buf_escape(b, verdict);
    buf_add(b, "\">");
    buf_escape(b, verdict);
    buf_add(b, "</td>");
}

static void filter_form(struct buf *b, const cJSON *model, const char *action, bool with_lists)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(model, "filters");
    buf_add(b, "<form class=\"filters\" method=\"get\" action=\"");
    buf_add(b, action);
    buf_add(b, "\"><label>search <input name=\"q\" value=\"");
    buf_escape(b, str(f, "q"));
    buf_add(b, "\"></label>");
    static const char *const lists[][2] = {{"vendor", "vendors"}, {"type", "types"}, {"os", "oses"}};
    for (size_t l = 0; l < 3; ++l) {
        buf_printf(b, "<label>%s ", lists[l][0]);
        const cJSON *values = cJSON_GetObjectItemCaseSensitive(model, lists[l][1]);
        if (with_lists && values) {
            buf_printf(b, "<select name=\"%s\"><option value=\"\">any</option>", lists[l][0]);
            const cJSON *v;
            cJSON_ArrayForEach(v, values)
            {
                buf_add(b, "<option");
                if (strcmp(str(f, lists[l][0]), cJSON_GetStringValue(v)) == 0)
                    buf_add(b, " selected");
                buf_add(b, ">");
                buf_escape(b, cJSON_GetStringValue(v));
                buf_add(b, "</option>");
            }
            buf_add(b, "</select>");
        } else {
            buf_printf(b, "<input name=\"%s\" size=\"12\" value=\"", lists[l][0]);
            buf_escape(b, str(f, lists[l][0]));
            buf_add(b, "\">");
        }
        buf_add(b, "</label>");
    }
    buf_printf(b, "<label><input type=\"checkbox\" name=\"exclude_cpu\" value=\"1\"%s> no CPU devices</label>",
               cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(f, "exclude_cpu")) ? " checked" : "");
    buf_printf(b, "<label><input type=\"checkbox\" name=\"exclude_virtual\" value=\"1\"%s> no virtual GPUs</label>",
               cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(f, "exclude_virtual")) ? " checked" : "");
    buf_add(b, "<label>API ≥ <input name=\"api\" size=\"6\" value=\"");
    buf_escape(b, str(f, "api"));
    buf_add(b,
            "\"></label><label>uploaded since <input name=\"since\" size=\"10\" placeholder=\"2026-01-01\" value=\"");
    buf_escape(b, str(f, "since"));
    buf_add(b, "\"></label><button>apply</button></form>");
}

/* ---- devices ---- */

static void page_devices(const cJSON *m, const char *query, struct buf *b)
{
    const cJSON *devices = cJSON_GetObjectItemCaseSensitive(m, "devices");
    buf_printf(b, "<h1>Devices</h1><p>%.0f devices", num(m, "total"));
    if (num(m, "total") > cJSON_GetArraySize(devices)) {
        buf_printf(b, " (page %.0f shows %d; <a href=\"?page=%.0f&amp;", num(m, "page"), cJSON_GetArraySize(devices),
                   num(m, "page") + 1);
        buf_escape(b, query);
        buf_add(b, "\">next page</a>)");
    }
    buf_add(b, "</p>");
    filter_form(b, m, "/", true);
    bool grouped = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "grouped"));
    buf_printf(b, "<p><a href=\"/?group=%d%s", grouped ? 0 : 1, query && *query ? "&amp;" : "");
    buf_escape(b, query);
    buf_printf(b, "\">%s</a></p>", grouped ? "show as one table" : "group by vendor, then driver, then GPU");
    const cJSON *d;
    if (grouped) {
        char vendor[128] = "\x01", driver[128] = "\x01";
        cJSON_ArrayForEach(d, devices)
        {
            if (strcmp(vendor, str(d, "vendor")) != 0) {
                if (vendor[0] != '\x01')
                    buf_add(b, "</ul></details></details>");
                snprintf(vendor, sizeof(vendor), "%s", str(d, "vendor"));
                driver[0] = '\x01';
                buf_add(b, "<details open class=\"vendor\"><summary>");
                buf_escape(b, vendor);
                buf_add(b, "</summary>");
            }
            if (strcmp(driver, str(d, "driverName")) != 0) {
                if (driver[0] != '\x01')
                    buf_add(b, "</ul></details>");
                snprintf(driver, sizeof(driver), "%s", str(d, "driverName"));
                buf_add(b, "<details open class=\"driver\" style=\"margin-left:16px\"><summary>");
                buf_escape(b, driver);
                buf_add(b, "</summary><ul>");
            }
            buf_add(b, "<li>");
            link_device(b, str(d, "deviceKey"), str(d, "deviceName"));
            buf_add(b, " <span class=\"muted\">");
            buf_escape(b, str(d, "newestDriver"));
            buf_printf(b, " · %.0f reports</span></li>", num(d, "reports"));
        }
        if (vendor[0] != '\x01')
            buf_add(b, "</ul></details></details>");
        return;
    }
    buf_add(
        b,
        "<table class=\"sortable\" id=\"devices\"><thead><tr><th>vendor</th><th>device</th><th>type</th><th>driver stack</th>"
        "<th>newest driver</th><th>API</th><th>OS</th><th>reports</th><th>last upload</th></tr></thead><tbody>");
    cJSON_ArrayForEach(d, devices)
    {
        buf_add(b, "<tr><td>");
        buf_escape(b, str(d, "vendor"));
        buf_add(b, "</td><td>");
        link_device(b, str(d, "deviceKey"), str(d, "deviceName"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "deviceType") +
                          (strncmp(str(d, "deviceType"), "VK_PHYSICAL_DEVICE_TYPE_", 24) == 0 ? 24 : 0));
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "driverName"));
        buf_printf(b, "</td><td><a href=\"/reports/%.0f\">", num(d, "newestReport"));
        buf_escape(b, str(d, "newestDriver"));
        buf_add(b, "</a></td><td>");
        buf_escape(b, str(d, "apiVersion"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "os"));
        buf_printf(b, "</td><td>%.0f</td><td>", num(d, "reports"));
        buf_escape(b, str(d, "lastUpload"));
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table>");
}

/* ---- one report ---- */

static void value_text(struct buf *b, const cJSON *v)
{
    if (cJSON_IsString(v)) {
        buf_escape(b, v->valuestring);
        return;
    }
    char *text = cJSON_PrintUnformatted(v);
    buf_escape(b, text ? text : "");
    free(text);
}

static void page_report(const cJSON *m, struct buf *b)
{
    double id = num(m, "id");
    buf_printf(b, "<h1>Report %.0f</h1><p>uploaded ", id);
    buf_escape(b, str(m, "uploaded"));
    buf_add(b, " with token <b>");
    buf_escape(b, str(m, "token"));
    buf_add(b, "</b> from ");
    buf_escape(b, str(m, "peer"));
    buf_add(b, "; host <b>");
    buf_escape(b, str(m, "host"));
    buf_add(b, "</b>; probed ");
    buf_escape(b, str(m, "created"));
    buf_add(b, " by ");
    buf_escape(b, str(m, "generator"));
    buf_printf(b,
               " · downloads: <a href=\"/reports/%.0f/report.json\">report JSON</a> · "
               "<a href=\"/reports/%.0f/junit.xml\">JUnit</a></p>",
               id, id);
    const cJSON *device;
    cJSON_ArrayForEach(device, cJSON_GetObjectItemCaseSensitive(m, "devices"))
    {
        const cJSON *identity = cJSON_GetObjectItemCaseSensitive(device, "identity");
        buf_add(b, "<h2>");
        buf_escape(b, str(identity, "deviceName"));
        buf_printf(b, "</h2><p><a href=\"/reports/%.0f/profile.json?device=%.0f\">Vulkan Profiles document</a> · ", id,
                   num(device, "index"));
        link_device(b, str(identity, "deviceKey"), "device history");
        buf_add(b, "</p><h3>Identity</h3><table class=\"identity\"><tbody>");
        const cJSON *field;
        cJSON_ArrayForEach(field, identity)
        {
            buf_add(b, "<tr><th>");
            buf_escape(b, field->string);
            buf_add(b, "</th><td>");
            value_text(b, field);
            buf_add(b, "</td></tr>");
        }
        buf_add(
            b,
            "</tbody></table><h3>Smoke tests</h3><table class=\"sortable smoke\"><thead><tr><th>test</th><th>verdict</th>"
            "<th>ms</th><th>reason</th><th>evidence</th></tr></thead><tbody>");
        const cJSON *t;
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(device, "smoke"))
        {
            buf_add(b, "<tr><td>");
            buf_escape(b, str(t, "id"));
            buf_add(b, "</td>");
            verdict_cell(b, str(t, "status"));
            buf_printf(b, "<td>%.1f</td><td>", num(t, "duration_ms"));
            buf_escape(b, str(t, "reason"));
            buf_add(b, "</td><td><code>");
            const cJSON *evidence = cJSON_GetObjectItemCaseSensitive(t, "evidence");
            if (evidence && !cJSON_IsNull(evidence))
                value_text(b, evidence);
            buf_add(b, "</code></td></tr>");
        }
        buf_add(b, "</tbody></table><h3>Spec-minimum violations</h3>");
        const cJSON *violations = cJSON_GetObjectItemCaseSensitive(device, "spec_minimums");
        if (cJSON_GetArraySize(violations) == 0)
            buf_add(b, "<p>none</p>");
        else {
            buf_add(b, "<ul class=\"violations\">");
            const cJSON *v;
            cJSON_ArrayForEach(v, violations)
            {
                buf_add(b, "<li><code>");
                value_text(b, v);
                buf_add(b, "</code></li>");
            }
            buf_add(b, "</ul>");
        }
        buf_printf(
            b,
            "<h3>Declared</h3><p><input placeholder=\"search declared values\" data-filter=\"#declared%.0f tr\"></p>"
            "<div id=\"declared%.0f\">",
            num(device, "index"), num(device, "index"));
        const cJSON *group;
        cJSON_ArrayForEach(group, cJSON_GetObjectItemCaseSensitive(device, "declared"))
        {
            const cJSON *values = cJSON_GetObjectItemCaseSensitive(group, "values");
            buf_add(b, "<details><summary>");
            buf_escape(b, str(group, "group"));
            buf_add(b, " · ");
            buf_escape(b, str(group, "struct"));
            buf_printf(b, " (%d)</summary><table><tbody>", cJSON_GetArraySize(values));
            const cJSON *v;
            cJSON_ArrayForEach(v, values)
            {
                buf_add(b, "<tr><th>");
                buf_escape(b, v->string ? v->string : "");
                buf_add(b, "</th><td><code>");
                value_text(b, v);
                buf_add(b, "</code></td></tr>");
            }
            buf_add(b, "</tbody></table></details>");
        }
        buf_add(b, "</div>");
    }
}

/* ---- device history ---- */

static void page_device(const cJSON *m, struct buf *b)
{
    buf_add(b, "<h1>");
    buf_escape(b, str(m, "deviceName"));
    buf_add(b, "</h1><p><code>");
    buf_escape(b, str(m, "deviceKey"));
    buf_add(b, "</code> · ");
    buf_escape(b, str(m, "vendor"));
    buf_add(b, " · ");
    buf_escape(b, str(m, "driverName"));
    buf_printf(b, " · %.0f reports, newest driver ", num(m, "reports"));
    buf_escape(b, str(m, "newestDriver"));
    buf_add(b, "</p><h2>Driver changes</h2>");
    const cJSON *transitions = cJSON_GetObjectItemCaseSensitive(m, "transitions");
    if (num(m, "driverVersionsDiffed") < num(m, "driverVersions"))
        buf_printf(b,
                   "<p>The newest %.0f of %.0f driver versions are compared; <a href=\"?all=1\">compare all</a>.</p>",
                   num(m, "driverVersionsDiffed"), num(m, "driverVersions"));
    if (cJSON_GetArraySize(transitions) == 0)
        buf_add(b, "<p>Only one driver version has been reported.</p>");
    const cJSON *t;
    for (int pass = 0; pass < 2; ++pass) { /* transitions with regressions first */
        cJSON_ArrayForEach(t, transitions)
        {
            bool regressed = num(t, "regressions") > 0;
            if (regressed != (pass == 0))
                continue;
            buf_printf(b, "<section class=\"transition%s\"><h3>", regressed ? " regression" : "");
            buf_escape(b, str(t, "from"));
            buf_add(b, " → ");
            buf_escape(b, str(t, "to"));
            buf_printf(
                b,
                ": %.0f regressions, %d changes <a href=\"/compare?r=%.0f&amp;r=%.0f&amp;differ=1\">side by side</a></h3>",
                num(t, "regressions"), cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(t, "changes")),
                num(t, "fromReport"), num(t, "toReport"));
            buf_add(
                b,
                "<table><thead><tr><th>kind</th><th>what</th><th>before</th><th>after</th><th>reason</th></tr></thead><tbody>");
            const cJSON *c;
            cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(t, "changes"))
            {
                bool regression = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(c, "regression"));
                buf_printf(b, "<tr%s><td>", regression ? " class=\"regression\"" : "");
                buf_escape(b, str(c, "kind"));
                buf_add(b, "</td><td>");
                buf_escape(b, str(c, "what"));
                buf_add(b, "</td><td>");
                buf_escape(b, *str(c, "lost") ? str(c, "lost") : str(c, "before"));
                buf_add(b, "</td><td>");
                buf_escape(b, *str(c, "gained") ? str(c, "gained") : str(c, "after"));
                buf_add(b, "</td><td>");
                buf_escape(b, str(c, "reason"));
                buf_add(b, "</td></tr>");
            }
            buf_add(b, "</tbody></table></section>");
        }
    }
    buf_add(
        b,
        "<h2>Reports</h2><table class=\"sortable\"><thead><tr><th>report</th><th>driver</th><th>host</th><th>OS</th>"
        "<th>kernel</th><th>uploaded</th><th>token</th><th>passed</th><th>failed</th><th>spec violations</th></tr></thead><tbody>");
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(m, "entries"))
    {
        buf_printf(b, "<tr><td><a href=\"/reports/%.0f\">%.0f</a></td><td>", num(e, "report"), num(e, "report"));
        static const char *const fields[] = {"driverVersion", "host", "os", "kernel", "uploaded", "token"};
        for (size_t f = 0; f < 6; ++f) {
            buf_escape(b, str(e, fields[f]));
            buf_add(b, "</td><td>");
        }
        buf_printf(b, "%.0f</td><td>%.0f</td><td>%.0f</td></tr>", num(e, "testsPassed"), num(e, "testsFailed"),
                   num(e, "specViolations"));
    }
    buf_add(b, "</tbody></table>");
}

/* ---- compare ---- */

static void page_compare(const cJSON *m, struct buf *b)
{
    bool only = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "onlyDifferences"));
    const cJSON *columns = cJSON_GetObjectItemCaseSensitive(m, "columns");
    buf_printf(b, "<h1>Compare %d devices</h1><form method=\"get\" action=\"/compare\">", cJSON_GetArraySize(columns));
    const cJSON *id;
    cJSON_ArrayForEach(id, cJSON_GetObjectItemCaseSensitive(m, "reports"))
        buf_printf(b, "<input type=\"hidden\" name=\"r\" value=\"%.0f\">", id->valuedouble);
    buf_printf(
        b,
        "<label><input type=\"checkbox\" name=\"differ\" value=\"1\"%s> only rows that differ</label> <button>apply</button></form>",
        only ? " checked" : "");
    buf_add(b, "<table class=\"compare\"><thead><tr><th>row</th>");
    const cJSON *c;
    cJSON_ArrayForEach(c, columns)
    {
        buf_add(b, "<th>");
        buf_escape(b, str(c, "deviceName"));
        buf_add(b, "<br><span class=\"muted\">");
        buf_escape(b, str(c, "driver"));
        buf_add(b, " ");
        buf_escape(b, str(c, "host"));
        buf_add(b, "</span></th>");
    }
    buf_add(b, "</tr></thead><tbody>");
    const cJSON *row;
    cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(m, "rows"))
    {
        bool differs = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "differs"));
        if (only && !differs)
            continue;
        buf_printf(b, "<tr%s><td>", differs ? " class=\"differs\"" : "");
        buf_escape(b, str(row, "group"));
        buf_add(b, " · ");
        buf_escape(b, str(row, "id"));
        buf_add(b, "</td>");
        const cJSON *cell;
        cJSON_ArrayForEach(cell, cJSON_GetObjectItemCaseSensitive(row, "cells"))
        {
            const char *verified = str(cell, "verified");
            const cJSON *declared = cJSON_GetObjectItemCaseSensitive(cell, "declared");
            buf_add(b, "<td class=\"");
            buf_escape(b, verified);
            buf_add(b, "\">");
            if (cJSON_IsBool(declared))
                buf_add(b, cJSON_IsTrue(declared) ? "yes " : "no ");
            buf_escape(b, verified);
            buf_escape(b, str(cell, "value"));
            buf_add(b, "</td>");
        }
        buf_add(b, "</tr>");
    }
    buf_add(b, "</tbody></table>");
}

/* ---- coverage ---- */

static void capability_link(struct buf *b, const char *id, const char *query)
{
    buf_add(b, "<a href=\"/capabilities/");
    buf_url(b, id);
    if (query && *query) {
        buf_add(b, "?");
        buf_escape(b, query);
    }
    buf_add(b, "\">");
}

static void page_capabilities(const cJSON *m, const char *query, struct buf *b)
{
    double devices = num(m, "devices");
    buf_printf(
        b,
        "<h1>Coverage</h1><p>Shares of %.0f distinct devices (each device's newest report): the blue bar declares, "
        "the green bar is verified by a smoke test.</p><p>",
        devices);
    static const char *const kinds[] = {"capability", "test", "extension", "feature", "limit", "format"};
    buf_add(b, "<a href=\"/capabilities\">all</a>");
    for (size_t k = 0; k < 6; ++k)
        buf_printf(b, " · <a href=\"/capabilities?kind=%s\">%s</a>", kinds[k], kinds[k]);
    buf_add(b, "</p>");
    filter_form(b, m, "/capabilities", false);
    buf_add(
        b,
        "<p><input placeholder=\"filter rows\" data-filter=\"#coverage tbody tr\"></p><table class=\"sortable\" id=\"coverage\">"
        "<thead><tr><th>kind</th><th>name</th><th>declared</th><th>verified</th><th>declared but failing</th><th>share</th>"
        "</tr></thead><tbody>");
    const cJSON *it;
    cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(m, "items"))
    {
        buf_add(b, "<tr><td>");
        buf_escape(b, str(it, "kind"));
        buf_add(b, "</td><td>");
        capability_link(b, str(it, "id"), query);
        buf_escape(b, str(it, "name"));
        bool smoke = strcmp(str(it, "kind"), "capability") == 0 || strcmp(str(it, "kind"), "test") == 0;
        buf_printf(b, "</a></td><td>%.1f%% (%.0f)</td>", num(it, "declaredShare") * 100, num(it, "devicesDeclaring"));
        if (smoke)
            buf_printf(b, "<td>%.1f%% (%.0f)</td><td%s>%.0f</td><td>", num(it, "verifiedShare") * 100,
                       num(it, "devicesVerified"), num(it, "devicesDeclaredFailing") > 0 ? " class=\"fail\"" : "",
                       num(it, "devicesDeclaredFailing"));
        else
            buf_add(b, "<td class=\"muted\">declared only</td><td class=\"muted\">-</td><td>");
        char label[64];
        snprintf(label, sizeof(label), "%.1f%% declare", num(it, "declaredShare") * 100);
        svg_share_bar(b, num(it, "declaredShare"), num(it, "verifiedShare"), label);
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table>");
}

static void device_list(struct buf *b, const cJSON *list, const char *title, const char *css_class, bool values,
                        bool verdicts)
{
    buf_printf(b, "<h2>%s (%d)</h2>", title, cJSON_GetArraySize(list));
    if (cJSON_GetArraySize(list) == 0)
        return;
    buf_printf(b,
               "<table class=\"sortable %s\"><thead><tr><th>vendor</th><th>device</th><th>newest driver</th>%s"
               "%s<th>first driver with it</th></tr></thead><tbody>",
               css_class, verdicts ? "<th>verdict</th>" : "", values ? "<th>value</th>" : "");
    const cJSON *d;
    cJSON_ArrayForEach(d, list)
    {
        buf_add(b, "<tr><td>");
        buf_escape(b, str(d, "vendor"));
        buf_add(b, "</td><td>");
        link_device(b, str(d, "deviceKey"), str(d, "deviceName"));
        buf_printf(b, "</td><td><a href=\"/reports/%.0f\">", num(d, "newestReport"));
        buf_escape(b, str(d, "newestDriver"));
        buf_add(b, "</a></td>");
        if (verdicts)
            verdict_cell(b, str(d, "verdict"));
        if (values) {
            buf_add(b, "<td><code>");
            buf_escape(b, str(d, "value"));
            buf_add(b, "</code></td>");
        }
        buf_add(b, "<td>");
        buf_escape(b, str(d, "firstDriver"));
        buf_add(b, "</td></tr>");
    }
    buf_add(b, "</tbody></table>");
}

static void page_capability(const cJSON *m, struct buf *b)
{
    buf_add(b, "<h1>");
    buf_escape(b, str(m, "kind"));
    buf_add(b, " ");
    buf_escape(b, str(m, "name"));
    /* only smoke capabilities and tests have a verdict; the rest is what drivers declare */
    bool smoke = strcmp(str(m, "kind"), "capability") == 0 || strcmp(str(m, "kind"), "test") == 0;
    buf_printf(b, "</h1><p>%.0f of %.0f devices declare it (%.1f%%)", num(m, "devicesDeclaring"), num(m, "devices"),
               num(m, "declaredShare") * 100);
    if (smoke)
        buf_printf(b, ", %.0f verified working (%.1f%%)", num(m, "devicesVerified"), num(m, "verifiedShare") * 100);
    buf_add(b, ".</p>");
    svg_share_bar(b, num(m, "declaredShare"), num(m, "verifiedShare"), "share of devices");
    const cJSON *distribution = cJSON_GetObjectItemCaseSensitive(m, "distribution");
    if (distribution) {
        size_t n = (size_t)cJSON_GetArraySize(distribution);
        const char **labels = calloc(n + 1, sizeof(*labels));
        long *counts = calloc(n + 1, sizeof(*counts));
        size_t i = 0;
        const cJSON *bucket;
        cJSON_ArrayForEach(bucket, distribution)
        {
            if (labels && counts) {
                labels[i] = str(bucket, "value");
                counts[i++] = (long)num(bucket, "devices");
            }
        }
        buf_add(b, "<h2>Values</h2>");
        if (labels && counts)
            svg_distribution(b, labels, counts, i);
        free(labels);
        free(counts);
    }
    const cJSON *bits = cJSON_GetObjectItemCaseSensitive(m, "formatFeatures");
    if (bits) {
        buf_add(
            b,
            "<h2>Format features</h2><table class=\"sortable\"><thead><tr><th>tiling</th><th>feature</th><th>devices</th>"
            "<th>share</th></tr></thead><tbody>");
        const cJSON *f;
        cJSON_ArrayForEach(f, bits)
        {
            buf_add(b, "<tr><td>");
            buf_escape(b, str(f, "tiling"));
            buf_add(b, "</td><td>");
            buf_escape(b, str(f, "feature"));
            buf_printf(b, "</td><td>%.0f</td><td>", num(f, "devices"));
            svg_share_bar(b, num(f, "share"), 0, "share");
            buf_add(b, "</td></tr>");
        }
        buf_add(b, "</tbody></table>");
    }
    bool values = strcmp(str(m, "kind"), "limit") == 0 || strcmp(str(m, "kind"), "extension") == 0;
    if (smoke)
        device_list(b, cJSON_GetObjectItemCaseSensitive(m, "declaredButFailing"), "Declare it but fail it", "failing",
                    values, true);
    device_list(b, cJSON_GetObjectItemCaseSensitive(m, "declaring"), "Declare it", "declaring", values, smoke);
    device_list(b, cJSON_GetObjectItemCaseSensitive(m, "lacking"), "Lack it", "lacking", values, smoke);
}

/* ---- fleet ---- */

static void page_fleet(const cJSON *m, const char *query, struct buf *b)
{
    buf_printf(b, "<h1>Fleet</h1><p>%.0f devices (the newest report of each). Downloads: <a href=\"/fleet/limits.json",
               num(m, "devices"));
    if (query && *query) {
        buf_add(b, "?");
        buf_escape(b, query);
    }
    buf_add(b, "\">fleet limits for the layer</a> · <a href=\"/fleet/profiles.json");
    if (query && *query) {
        buf_add(b, "?");
        buf_escape(b, query);
    }
    buf_add(b, "\">Vulkan Profiles of what all support</a></p>");
    filter_form(b, m, "/fleet", false);
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(m, "filters");
    buf_add(b, "<form method=\"get\" action=\"/fleet\">");
    const cJSON *v;
    cJSON_ArrayForEach(v, f)
    {
        buf_add(b, "<input type=\"hidden\" name=\"");
        buf_escape(b, v->string);
        buf_add(b, "\" value=\"");
        if (cJSON_IsString(v))
            buf_escape(b, v->valuestring);
        else
            buf_add(b, "1");
        buf_add(b, "\">");
    }
    buf_add(
        b,
        "<p>Requirements (the gate format of preflight-report gate):</p><textarea name=\"requirements\" rows=\"6\" cols=\"70\">");
    buf_escape(b, str(m, "requirements"));
    buf_add(b, "</textarea><br><button>gate the fleet</button></form>");
    bool gated = cJSON_GetObjectItemCaseSensitive(m, "rules") != NULL;
    if (gated)
        buf_printf(b, "<p class=\"gate\">%.0f of %.0f devices meet the %.0f rules.</p>", num(m, "passing"),
                   num(m, "devices"), num(m, "rules"));
    buf_printf(b,
               "<table class=\"sortable\" id=\"fleet\"><thead><tr><th>device</th><th>driver</th>%s</tr></thead><tbody>",
               gated ? "<th>gate</th><th>why not</th>" : "");
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(m, "members"))
    {
        buf_add(b, "<tr><td>");
        link_device(b, str(d, "deviceKey"), str(d, "deviceName"));
        buf_add(b, "</td><td>");
        buf_escape(b, str(d, "driverVersion"));
        buf_add(b, "</td>");
        if (gated) {
            bool pass = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "pass"));
            buf_printf(b, "<td class=\"%s\">%s</td><td><ul>", pass ? "pass" : "fail", pass ? "pass" : "fail");
            const cJSON *reason;
            cJSON_ArrayForEach(reason, cJSON_GetObjectItemCaseSensitive(d, "failures"))
            {
                buf_add(b, "<li>");
                buf_escape(b, cJSON_GetStringValue(reason));
                buf_add(b, "</li>");
            }
            buf_add(b, "</ul></td>");
        }
        buf_add(b, "</tr>");
    }
    buf_add(b, "</tbody></table>");
}

void views_html(const cJSON *model, const char *query, const char *nonce, struct buf *out)
{
    const char *view = str(model, "view");
    char title[160];
    if (strcmp(view, "report") == 0)
        snprintf(title, sizeof(title), "Report %.0f", num(model, "id"));
    else if (strcmp(view, "device") == 0)
        snprintf(title, sizeof(title), "%.100s", str(model, "deviceName"));
    else if (strcmp(view, "capability") == 0)
        snprintf(title, sizeof(title), "%.120s", str(model, "id"));
    else
        snprintf(title, sizeof(title), "%s", *view ? view : "preflight");
    head(out, title, nonce);
    if (strcmp(view, "devices") == 0)
        page_devices(model, query, out);
    else if (strcmp(view, "report") == 0)
        page_report(model, out);
    else if (strcmp(view, "device") == 0)
        page_device(model, out);
    else if (strcmp(view, "compare") == 0)
        page_compare(model, out);
    else if (strcmp(view, "capabilities") == 0)
        page_capabilities(model, query, out);
    else if (strcmp(view, "capability") == 0)
        page_capability(model, out);
    else if (strcmp(view, "fleet") == 0)
        page_fleet(model, query, out);
    foot(out, nonce);
}

void views_html_error(int status, const char *message, const char *nonce, struct buf *out)
{
    char title[32];
    snprintf(title, sizeof(title), "Error %d", status);
    head(out, title, nonce);
    buf_printf(out, "<h1>%d</h1><p class=\"error\">", status);
    buf_escape(out, message);
    buf_add(out, "</p>");
    if (status == 400 && strstr(message, "compare needs") != NULL)
        buf_add(out, "<form method=\"get\" action=\"/compare\"><label>report ids <input name=\"r\"> <input name=\"r\"> "
                     "<input name=\"r\"></label> <button>compare</button></form>");
    foot(out, nonce);
}

void views_html_login(const char *message, const char *nonce, struct buf *out)
{
    head(out, "Sign in", nonce);
    buf_add(out, "<h1>Sign in</h1><p>This dashboard needs a token to read (ask its operator for one: "
                 "<code>preflight-dashboard token add NAME</code>).</p>");
    if (message && *message) {
        buf_add(out, "<p class=\"error\">");
        buf_escape(out, message);
        buf_add(out, "</p>");
    }
    buf_add(
        out,
        "<form method=\"post\" action=\"/login\"><input type=\"password\" name=\"token\" size=\"72\"> <button>sign in</button></form>");
    foot(out, nonce);
}
