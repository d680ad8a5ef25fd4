#include "html_page.h"

#include <stdio.h>
#include <string.h>

const char *str(const cJSON *o, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
    return s ? s : "";
}

double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* Every page fits its window: long names and values wrap anywhere rather than widen a table. */
static const char style[] =
    "*{box-sizing:border-box}body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#111;overflow-wrap:anywhere}"
    "header{background:#1f2937;color:#fff;padding:8px 16px;display:flex;flex-wrap:wrap;gap:4px 18px;align-items:center}"
    "header a{color:#fff;text-decoration:none}header form{margin:0 0 0 auto}header button{font-size:12px}"
    "main{padding:12px 16px}h1{font-size:22px;margin:6px 0}h2{font-size:18px;margin:18px 0 6px}h3{margin:12px 0 4px}"
    "table{border-collapse:collapse;margin:6px 0;max-width:100%}"
    "th,td{border:1px solid #d1d5db;padding:3px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}"
    "th{background:#f3f4f6;overflow-wrap:normal}table.sortable th{cursor:pointer}td.number{text-align:right}"
    "td.number,td.short{white-space:nowrap}table.compare th{overflow-wrap:anywhere}"
    ".pass{color:#15803d}.fail,.crashed,.timeout,.device_lost,.not_applied{color:#b91c1c;font-weight:bold}"
    ".flaky{color:#b45309;font-weight:bold}.unsupported,.skipped,.muted{color:#6b7280}"
    "tr.regression td,.regression{background:#fee2e2}tr.fix td{background:#dcfce7}"
    "form.filters{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;margin:8px 0}"
    "code,pre{font-size:12px;white-space:pre-wrap;overflow-wrap:anywhere}pre{margin:4px 0}"
    "details{margin:4px 0}summary{cursor:pointer}.error{color:#b91c1c;font-weight:bold}"
    ".stats{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}.stat{border:1px solid #d1d5db;border-radius:6px;"
    "padding:6px 12px}.stat b{font-size:20px;display:block}.stat.bad{border-color:#b91c1c;background:#fef2f2}"
    ".cards{columns:400px;column-gap:10px}"
    ".card{border:1px solid #d1d5db;border-radius:6px;padding:8px 10px;min-width:0;break-inside:avoid;"
    "margin:0 0 10px;display:inline-block;width:100%}"
    ".card.attention{border:2px solid #b91c1c;background:#fffafa}.card h3{margin:0 0 4px;font-size:15px}"
    ".signals span{display:inline-block;padding:0 6px;margin:0 3px 3px 0;border-radius:3px;font-size:12px}"
    ".on{background:#dcfce7;color:#166534}.off{background:#f3f4f6;color:#6b7280}"
    "img.artifact{image-rendering:pixelated;width:192px;max-width:100%;border:1px solid #9ca3af;"
    "background:#fff}figure{display:inline-block;margin:4px 8px 4px 0;max-width:100%}"
    "figcaption{font-size:12px;color:#374151;max-width:320px}svg{max-width:100%}"
    ".bar{display:inline-block;height:10px;background:#3b82f6;vertical-align:middle}.bar.other{background:#9ca3af}"
    "table.bars{margin:2px 0}table.bars th,table.bars td{border:0;background:none;padding:1px 6px 1px 0;"
    "font-weight:normal}tr.requested th{color:#1d4ed8;font-weight:bold}table.counters caption{text-align:left;"
    "font-weight:bold}.flags{font-size:12px}.flags span{display:inline-block;margin-right:10px}"
    ".card .wide{overflow-x:auto}.card .wide td,.card .wide th{overflow-wrap:normal}"
    "td.differs{background:#fef9c3}table.compare{width:100%;table-layout:fixed}"
    "tr.same{display:none}.warning{border:2px solid #b91c1c;background:#fef2f2;padding:8px 12px;border-radius:6px}";

void html_head(struct buf *b, const char *title, const char *feed, const char *logout_token)
{
    buf_add(b, "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
               "content=\"width=device-width\"><title>");
    buf_escape(b, title);
    buf_add(b, " · preflight-dashboard</title>");
    if (feed != NULL) {
        buf_add(b, "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"");
        buf_escape(b, title);
        buf_add(b, " (Atom)\" href=\"");
        buf_escape(b, feed);
        buf_add(b, "\">");
    }
    buf_add(b, "<style>");
    buf_add(b, style);
    buf_add(b,
            "</style></head><body><header><a href=\"/\">Devices</a><a href=\"/regressions\">Regressions</a>"
            "<a href=\"/machines\">Machines</a><a href=\"/capabilities\">Coverage</a><a href=\"/compare\">Compare</a>"
            "<a href=\"/fleet\">Fleet</a>");
    if (logout_token != NULL) {
        buf_add(b, "<form method=\"post\" action=\"/logout\"><input type=\"hidden\" name=\"form_token\" value=\"");
        buf_escape(b, logout_token);
        buf_add(b, "\"><button>sign out</button></form>");
    }
    buf_add(b, "</header><main>");
}

void html_foot(struct buf *b, const char *nonce)
{
    /* sorting by a column header, filtering rows by a text box (opening the closed sections that
     * hold a match, hiding those that hold none), and a picker's limit; the page works without it */
    buf_printf(b, "</main><script nonce=\"%s\">", nonce);
    buf_add(
        b,
        "document.querySelectorAll('table.sortable th').forEach(function(th,i){th.addEventListener('click',function(){"
        "var t=th.closest('table'),rows=[].slice.call(t.tBodies[0].rows),up=th.dataset.up!=='1';th.dataset.up=up?'1':'0';"
        "rows.sort(function(a,b){var x=a.cells[i].textContent,y=b.cells[i].textContent,nx=parseFloat(x),ny=parseFloat(y);"
        "var c=(!isNaN(nx)&&!isNaN(ny))?nx-ny:x.localeCompare(y);return up?c:-c;});"
        "rows.forEach(function(r){t.tBodies[0].appendChild(r);});});});"
        "document.querySelectorAll('input[data-filter]').forEach(function(box){box.addEventListener('input',function(){"
        "var q=box.value.toLowerCase();document.querySelectorAll(box.dataset.filter).forEach(function(el){"
        "var hit=el.textContent.toLowerCase().indexOf(q)>=0;el.style.display=hit?'':'none';"
        "if(hit&&q){for(var d=el.closest('details');d;d=d.parentElement.closest('details'))d.open=true;}});"
        "if(box.dataset.groups)document.querySelectorAll(box.dataset.groups).forEach(function(g){"
        "var any=[].some.call(g.querySelectorAll(box.dataset.filter),function(el){return el.style.display!=='none';});"
        "g.style.display=(!q||any)?'':'none';});});});"
        "document.querySelectorAll('form[data-max]').forEach(function(f){var max=+f.dataset.max;"
        "function limit(){var boxes=[].slice.call(f.querySelectorAll('input[type=checkbox][data-pick]')),"
        "n=boxes.filter(function(c){return c.checked;}).length;boxes.forEach(function(c){c.disabled=!c.checked&&n>=max;});"
        "var s=f.querySelector('.picked');if(s)s.textContent=n+' of '+max+' picked';}"
        "f.addEventListener('change',limit);limit();});"
        "document.body.dataset.ready='1';"
        "</script></body></html>");
}

static void select_of(struct buf *b, const char *name, const char *label, const cJSON *values, const char *chosen,
                      size_t strip)
{
    buf_printf(b, "<label>%s <select name=\"%s\"><option value=\"\">any</option>", label, name);
    const cJSON *v;
    cJSON_ArrayForEach(v, values)
    {
        const char *value = cJSON_GetStringValue(v);
        buf_add(b, "<option value=\"");
        buf_escape(b, value);
        buf_add(b, strcmp(value, chosen) == 0 ? "\" selected>" : "\">");
        buf_escape(b, strlen(value) > strip ? value + strip : value);
        buf_add(b, "</option>");
    }
    buf_add(b, "</select></label>");
}

void html_filter_form(struct buf *b, const cJSON *model, const char *action)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(model, "filters");
    const cJSON *choices = cJSON_GetObjectItemCaseSensitive(model, "choices");
    buf_add(b, "<form class=\"filters\" method=\"get\" action=\"");
    buf_add(b, action);
    buf_add(b, "\"><label>search <input name=\"q\" size=\"18\" placeholder=\"name, driver, machine\" value=\"");
    buf_escape(b, str(f, "q"));
    buf_add(b, "\"></label>");
    select_of(b, "vendor", "vendor", cJSON_GetObjectItemCaseSensitive(choices, "vendors"), str(f, "vendor"), 0);
    select_of(b, "type", "type", cJSON_GetObjectItemCaseSensitive(choices, "types"), str(f, "type"),
              strlen("VK_PHYSICAL_DEVICE_TYPE_"));
    select_of(b, "os", "OS", cJSON_GetObjectItemCaseSensitive(choices, "oses"), str(f, "os"), 0);
    select_of(b, "api", "API ≥", cJSON_GetObjectItemCaseSensitive(choices, "apis"), str(f, "api"), 0);
    buf_add(b, "<label>uploaded since <input type=\"date\" name=\"since\" value=\"");
    buf_escape(b, str(f, "since"));
    buf_printf(b,
               "\"></label><label><input type=\"checkbox\" name=\"exclude_cpu\" value=\"1\"%s> no CPU devices</label>"
               "<label><input type=\"checkbox\" name=\"exclude_virtual\" value=\"1\"%s> no virtual GPUs</label>",
               cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(f, "exclude_cpu")) ? " checked" : "",
               cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(f, "exclude_virtual")) ? " checked" : "");
    const char *kind = str(model, "kind");
    if (*kind && strcmp(action, "/capabilities") == 0) {
        buf_add(b, "<input type=\"hidden\" name=\"kind\" value=\"");
        buf_escape(b, kind);
        buf_add(b, "\">");
    }
    buf_add(b, "<button>apply</button></form>");
}

void html_link_device(struct buf *b, const char *key, const char *text)
{
    buf_add(b, "<a href=\"/devices/");
    buf_url(b, key);
    buf_add(b, "\">");
    buf_escape(b, text);
    buf_add(b, "</a>");
}

void html_link_machine(struct buf *b, const char *host)
{
    buf_add(b, "<a href=\"/machines/");
    buf_url(b, *host ? host : "-");
    buf_add(b, "\">");
    buf_escape(b, *host ? host : "(no host label)");
    buf_add(b, "</a>");
}

void html_link_report(struct buf *b, double id, const char *text)
{
    buf_printf(b, "<a href=\"/reports/%.0f\">", id);
    buf_escape(b, text);
    buf_add(b, "</a>");
}

void html_verdict_cell(struct buf *b, const char *verdict)
{
    buf_add(b, "<td class=\"");
    buf_escape(b, verdict);
    buf_add(b, "\">");
    buf_escape(b, verdict);
    buf_add(b, "</td>");
}

void html_verdict(struct buf *b, const char *verdict)
{
    buf_add(b, "<span class=\"");
    buf_escape(b, verdict);
    buf_add(b, "\">");
    buf_escape(b, verdict);
    buf_add(b, "</span>");
}

void html_count(struct buf *b, double n, const char *singular, const char *plural)
{
    buf_printf(b, "%.0f %s", n, n == 1 ? singular : plural);
}

void html_query_suffix(struct buf *b, const char *query, bool first)
{
    if (query == NULL || *query == '\0')
        return;
    buf_add(b, first ? "?" : "&amp;");
    buf_escape(b, query);
}
