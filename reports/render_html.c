#include <stdlib.h>
#include <string.h>

#include "render.h"

/* The page's style and script. The data goes in as JSON; the script builds the table, sorts by a
 * clicked column (numbers as numbers), filters by text, group and vendor, and can hide rows that
 * do not differ. A row "differs" among the columns shown (a vendor filter hides some). A cell's
 * tooltip holds the smoke result's reason, its signals in a line and its evidence; a column heading the device's driver,
 * the report's date, host, OS and kernel. */
static const char page_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
    "<title>preflight feature matrix</title>\n<style>\n"
    "body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}\n"
    "h1{font-size:1.3em} .controls{margin:0.8em 0;display:flex;gap:1em;flex-wrap:wrap;align-items:center}\n"
    "table{border-collapse:collapse} th,td{border:1px solid #ccc;padding:3px 8px;text-align:left;white-space:nowrap}\n"
    "th{background:#f0f0f0;cursor:pointer;position:sticky;top:0} th small{font-weight:normal;color:#555}\n"
    "tr.differs td.id{font-weight:bold} tr.differs{background:#fff8e0}\n"
    "td.pass{color:#0a7a0a} td.fail,td.crashed,td.timeout,td.device_lost{color:#b00020;font-weight:bold}\n"
    "td.not_applied{color:#b36b00;font-weight:bold} td.unsupported,td.skipped,td.no{color:#888}\n"
    "td.group{color:#555} .legend{color:#555;font-size:12px} td[title]{text-decoration:underline dotted}\n"
    "</style></head><body>\n<h1>preflight feature matrix</h1>\n"
    "<p class=\"legend\">Each capability cell shows what the device <em>declares</em> (yes/no) beside what a GPU "
    "test <em>verified</em> (pass, fail, not_applied, unsupported, crashed, ...). Highlighted rows differ between "
    "devices. Click a column heading to sort.</p>\n"
    "<div class=\"controls\"><label>capability <input id=\"text\" placeholder=\"filter, e.g. vrs\"></label>\n"
    "<label>group <select id=\"group\"><option value=\"\">all</option></select></label>\n"
    "<label>vendor <select id=\"vendor\"><option value=\"\">all</option></select></label>\n"
    "<label><input type=\"checkbox\" id=\"differs\"> only rows that differ</label>\n"
    "<span id=\"count\"></span></div>\n<table id=\"matrix\"><thead></thead><tbody></tbody></table>\n"
    "<script id=\"data\" type=\"application/json\">";

static const char page_tail[] =
    "</script>\n<script>\n"
    "const data=JSON.parse(document.getElementById('data').textContent);\n"
    "const $=id=>document.getElementById(id);\n"
    "let sortKey=null,sortAscending=true;\n"
    "function cellText(c){if('value' in c)return c.value||'-';if(!('declared' in c))return '-';"
    "return (c.declared?'yes':'no')+(c.verified?' '+c.verified:'');}\n"
    "function cellClass(c){return c.verified||(('declared' in c)&&!c.declared?'no':'');}\n"
    "for(const g of [...new Set(data.rows.map(r=>r.group))]){const o=document.createElement('option');"
    "o.value=o.textContent=g;$('group').appendChild(o);}\n"
    "for(const v of [...new Set(data.columns.map(c=>c.vendor))]){const o=document.createElement('option');"
    "o.value=o.textContent=v;$('vendor').appendChild(o);}\n"
    "function rowDiffers(r,cols){const t=cols.map(i=>cellText(r.cells[i]));return t.some(x=>x!==t[0]);}\n"
    "function cellTitle(c){return [c.reason,c.signals,c.evidence].filter(Boolean).join('\\n');}\n"
    "function asNumber(s){return /^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(s)?Number(s):null;}\n"
    "function order(x,y){const a=asNumber(x),b=asNumber(y);if(a!==null&&b!==null)return a-b;return x<y?-1:x>y?1:0;}\n"
    "function draw(){const vendor=$('vendor').value,text=$('text').value.toLowerCase(),group=$('group').value;\n"
    "const cols=data.columns.map((c,i)=>i).filter(i=>!vendor||data.columns[i].vendor===vendor);\n"
    "const head='<th data-key=\"group\">group</th><th data-key=\"id\">capability</th>'+"
    "cols.map(i=>{const c=data.columns[i];return '<th data-key=\"'+i+'\">'+esc(c.deviceName)+'<br><small>'+esc(c.driver)+"
    "' &middot; '+esc(c.vendor)+'<br>'+[c.created,c.host,c.os,c.kernel].filter(Boolean).map(esc).join(' &middot; ')+"
    "'</small></th>';}).join('');\n"
    "document.querySelector('#matrix thead').innerHTML='<tr>'+head+'</tr>';\n"
    "let rows=data.rows.filter(r=>(!group||r.group===group)&&(!text||r.id.toLowerCase().includes(text))&&"
    "(!$('differs').checked||rowDiffers(r,cols)));\n"
    "if(sortKey!==null){const key=r=>sortKey==='group'?r.group:sortKey==='id'?r.id:cellText(r.cells[Number(sortKey)]);"
    "rows=rows.slice().sort((a,b)=>order(key(a),key(b))*(sortAscending?1:-1));}\n"
    "document.querySelector('#matrix tbody').innerHTML=rows.map(r=>{return '<tr'+(rowDiffers(r,cols)?' class=\"differs\"':'')+"
    "'><td class=\"group\">'+"
    "esc(r.group)+'</td><td class=\"id\">'+esc(r.id)+'</td>'+cols.map(i=>{const c=r.cells[i],t=cellTitle(c);"
    "return '<td class=\"'+cellClass(c)+'\"'+(t?' title=\"'+esc(t)+'\"':'')+'>'+esc(cellText(c))+'</td>';}).join('')+'</tr>';}).join('');\n"
    "$('count').textContent=rows.length+' of '+data.rows.length+' rows';\n"
    "document.querySelectorAll('#matrix th').forEach(th=>th.onclick=()=>{const k=th.dataset.key;"
    "sortAscending=sortKey===k?!sortAscending:true;sortKey=k;draw();});}\n"
    "function esc(s){return String(s).replace(/[&<>\"]/g,ch=>({'&':'&amp;','<':'&lt;','>':'&gt;','\"':'&quot;'}[ch]));}\n"
    "['text','group','vendor','differs'].forEach(id=>$(id).addEventListener('input',draw));\n"
    "draw();\n</script>\n</body></html>\n";

void render_html(const struct matrix *m, FILE *out)
{
    fputs(page_head, out);
    cJSON *data = render_matrix_json(m);
    char *json = cJSON_PrintUnformatted(data);
    /* Inside <script>, "</" could close the element early: write it as "<\/". */
    for (const char *c = json ? json : "{}"; *c; ++c) {
        if (c[0] == '<' && c[1] == '/')
            fputs("<\\", out);
        else
            fputc(*c, out);
    }
    free(json);
    cJSON_Delete(data);
    fputs(page_tail, out);
}
