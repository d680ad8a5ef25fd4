#include "evidence_html.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html_page.h"

#define LIST_ROWS 32    /* rows of a list of results shown; the rest are counted */
#define LIST_COLUMNS 10 /* columns of such a table */

static void scalar_text(struct buf *b, const cJSON *v)
{
    if (cJSON_IsString(v)) {
        buf_escape(b, v->valuestring);
    } else if (cJSON_IsBool(v)) {
        buf_add(b, cJSON_IsTrue(v) ? "yes" : "no");
    } else if (cJSON_IsNumber(v)) {
        buf_printf(b, "%.10g", v->valuedouble);
    } else if (cJSON_IsNull(v)) {
        buf_add(b, "—");
    } else {
        char *text = cJSON_PrintUnformatted(v);
        buf_add(b, "<code>");
        buf_escape(b, text ? text : "");
        buf_add(b, "</code>");
        free(text);
    }
}

static bool scalar(const cJSON *v)
{
    return cJSON_IsString(v) || cJSON_IsNumber(v) || cJSON_IsBool(v) || cJSON_IsNull(v);
}

static bool all_of(const cJSON *object, cJSON_bool (*is)(const cJSON *))
{
    const cJSON *v;
    int n = 0;
    cJSON_ArrayForEach(v, object)
    {
        if (!is(v))
            return false;
        ++n;
    }
    return n > 0;
}

static const char *words(const char *key, char *out, size_t size)
{
    /* gpu_timing -> "gpu timing": keys read as words */
    snprintf(out, size, "%s", key ? key : "");
    for (char *c = out; *c; ++c)
        if (*c == '_')
            *c = ' ';
    return out;
}

static bool is_histogram(const cJSON *v)
{
    const char *key = v->string ? v->string : "";
    size_t n = strlen(key);
    return cJSON_IsObject(v) && all_of(v, cJSON_IsNumber) &&
           (strcmp(key, "histogram") == 0 || (n > 10 && strcmp(key + n - 10, "_histogram") == 0));
}

static void histogram(struct buf *b, const cJSON *h, const char *requested)
{
    double most = 0, total = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, h)
    {
        most = v->valuedouble > most ? v->valuedouble : most;
        total += v->valuedouble;
    }
    char title[64];
    buf_printf(b, "<div class=\"histogram\"><b>%s</b>", words(h->string, title, sizeof(title)));
    if (*requested) {
        buf_add(b, " <span class=\"muted\">(requested ");
        buf_escape(b, requested);
        buf_add(b, ")</span>");
    }
    buf_add(b, "<table class=\"bars\"><tbody>");
    cJSON_ArrayForEach(v, h)
    {
        bool asked = *requested && strcmp(v->string, requested) == 0;
        buf_printf(b, "<tr%s><th>", asked ? " class=\"requested\"" : "");
        buf_escape(b, v->string);
        buf_printf(b,
                   "</th><td><span class=\"bar%s\" style=\"width:%.1fpx\"></span> %.10g "
                   "<span class=\"muted\">(%.1f%%)</span></td></tr>",
                   asked || !*requested ? "" : " other", most > 0 ? 220.0 * v->valuedouble / most : 0, v->valuedouble,
                   total > 0 ? 100.0 * v->valuedouble / total : 0);
    }
    buf_add(b, "</tbody></table></div>");
}

static bool is_timing(const cJSON *v)
{
    return cJSON_IsObject(v) && cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(v, "baseline_ns")) &&
           cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(v, "feature_ns"));
}

static void bar_row(struct buf *b, const char *label, double value, double most, const char *unit)
{
    buf_add(b, "<tr><th>");
    buf_escape(b, label);
    buf_printf(b, "</th><td><span class=\"bar\" style=\"width:%.1fpx\"></span> %.4g %s</td></tr>",
               most > 0 ? 220.0 * value / most : 0, value, unit);
}

static void timing(struct buf *b, const cJSON *t)
{
    double baseline = num(t, "baseline_ns") / 1000.0, feature = num(t, "feature_ns") / 1000.0;
    char title[64];
    buf_printf(b, "<div class=\"timing\"><b>%s</b>", words(t->string, title, sizeof(title)));
    const cJSON *ratio = cJSON_GetObjectItemCaseSensitive(t, "ratio");
    if (cJSON_IsNumber(ratio))
        buf_printf(b, ": feature / baseline = <b>%.3g</b>", ratio->valuedouble);
    buf_add(b, "<table class=\"bars\"><tbody>");
    double most = baseline > feature ? baseline : feature;
    char label[200];
    snprintf(label, sizeof(label), "baseline%s%s", *str(t, "baseline") ? ": " : "", str(t, "baseline"));
    bar_row(b, label, baseline, most, "µs");
    snprintf(label, sizeof(label), "feature%s%s", *str(t, "what") ? ": " : "", str(t, "what"));
    bar_row(b, label, feature, most, "µs");
    buf_add(b, "</tbody></table>");
    const cJSON *v;
    bool any = false;
    cJSON_ArrayForEach(v, t)
    {
        static const char *const shown[] = {"baseline_ns", "feature_ns", "ratio", "what", "baseline"};
        bool skip = false;
        for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); ++i)
            skip = skip || strcmp(v->string, shown[i]) == 0;
        if (skip || !scalar(v))
            continue;
        buf_add(b, any ? " · " : "<p class=\"muted\">");
        any = true;
        buf_escape(b, words(v->string, title, sizeof(title)));
        buf_add(b, " ");
        scalar_text(b, v);
    }
    if (any)
        buf_add(b, "</p>");
    buf_add(b, "</div>");
}

static bool is_power(const cJSON *v)
{
    const cJSON *baseline = cJSON_GetObjectItemCaseSensitive(v, "baseline");
    return cJSON_IsObject(v) && cJSON_IsObject(baseline) &&
           cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(baseline, "joules_per_pass"));
}

static void power(struct buf *b, const cJSON *p)
{
    const cJSON *baseline = cJSON_GetObjectItemCaseSensitive(p, "baseline");
    const cJSON *feature = cJSON_GetObjectItemCaseSensitive(p, "feature");
    buf_add(b, "<div class=\"power\"><b>power</b>");
    if (*str(p, "source")) {
        buf_add(b, " <span class=\"muted\">(");
        buf_escape(b, str(p, "source"));
        if (*str(p, "device_match")) {
            buf_add(b, ", ");
            buf_escape(b, str(p, "device_match"));
        }
        if (*str(p, "quantity")) {
            buf_add(b, ", ");
            buf_escape(b, str(p, "quantity"));
        }
        buf_add(b, ")</span>");
    }
    if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(p, "ratio")))
        buf_printf(b, ": feature / baseline energy = <b>%.3g</b>", num(p, "ratio"));
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "settled")))
        buf_add(b, " <span class=\"flaky\">not settled</span>");
    double jb = num(baseline, "joules_per_pass"), jf = num(feature, "joules_per_pass");
    buf_add(b, "<table class=\"bars\"><tbody>");
    bar_row(b, "baseline", jb, jb > jf ? jb : jf, "J per pass");
    bar_row(b, "feature", jf, jb > jf ? jb : jf, "J per pass");
    buf_add(b, "</tbody></table><p class=\"muted\">");
    const cJSON *side[2] = {baseline, feature};
    for (int i = 0; i < 2; ++i) {
        buf_printf(b, "%s%s %.4g W mean", i ? " · " : "", i ? "feature" : "baseline", num(side[i], "mean_watts"));
        /* the fast source states how far its mean may be off; the counter's readings do not */
        if (cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(side[i], "uncertainty_pct")))
            buf_printf(b, " ± %.2g%%", num(side[i], "uncertainty_pct"));
        buf_printf(b, ", %.0f samples, spread %.2g%%%s", num(side[i], "samples"), num(side[i], "spread_pct"),
                   cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(side[i], "settled")) ? "" : " (not settled)");
    }
    const cJSON *fast = cJSON_GetObjectItemCaseSensitive(p, "fast_source");
    if (cJSON_IsObject(fast)) {
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(fast, "used")))
            buf_printf(b, "<br>the driver's samples, checked against the energy counter: %+.2g%% over %.3g s",
                       num(fast, "error_pct"), num(fast, "check_seconds"));
        else if (*str(fast, "reason")) {
            buf_add(b, "<br>the driver's samples not used: ");
            buf_escape(b, str(fast, "reason"));
        }
    }
    buf_add(b, "</p></div>");
}

static void artifacts(struct buf *b, const cJSON *list, const cJSON *stored)
{
    buf_add(b, "<div class=\"artifacts\">");
    const cJSON *a;
    cJSON_ArrayForEach(a, list)
    {
        const char *sha = str(a, "sha256");
        const cJSON *have = *sha ? cJSON_GetObjectItemCaseSensitive(stored, sha) : NULL;
        buf_add(b, "<figure>");
        if (cJSON_IsTrue(have)) {
            buf_printf(b,
                       "<a href=\"/artifacts/%.64s.png\"><img class=\"artifact\" src=\"/artifacts/%.64s.png\" alt=\"",
                       sha, sha);
            buf_escape(b, str(a, "name"));
            buf_add(b, "\"");
            if (num(a, "width") > 0 && num(a, "height") > 0)
                buf_printf(b, " width=\"192\" height=\"%.0f\"", 192.0 * num(a, "height") / num(a, "width"));
            buf_add(b, "></a>");
        } else {
            buf_add(b, "<p class=\"muted\">[image ");
            buf_add(b, *str(a, "error") ? "not written: " : *sha ? "named but not uploaded" : "not written");
            buf_escape(b, str(a, "error"));
            buf_add(b, "]</p>");
        }
        buf_add(b, "<figcaption><b>");
        buf_escape(b, str(a, "name"));
        buf_add(b, "</b>");
        if (num(a, "width") > 0)
            buf_printf(b, " %.0f×%.0f", num(a, "width"), num(a, "height"));
        buf_add(b, ": ");
        buf_escape(b, str(a, "what"));
        buf_add(b, "</figcaption></figure>");
    }
    buf_add(b, "</div>");
}

static void flags(struct buf *b, const cJSON *object)
{
    char title[64];
    buf_printf(b, "<p class=\"flags\"><b>%s</b>: ", words(object->string, title, sizeof(title)));
    const cJSON *v;
    cJSON_ArrayForEach(v, object)
    {
        buf_printf(b, "<span class=\"%s\">%s ", cJSON_IsTrue(v) ? "pass" : "muted", cJSON_IsTrue(v) ? "✓" : "✗");
        buf_escape(b, v->string);
        buf_add(b, "</span>");
    }
    buf_add(b, "</p>");
}

/* A list of objects (rays, mismatches): a table over the keys they have. */
static void result_list(struct buf *b, const cJSON *list)
{
    const char *columns[LIST_COLUMNS];
    size_t n = 0;
    const cJSON *row, *v;
    cJSON_ArrayForEach(row, list)
    {
        cJSON_ArrayForEach(v, row)
        {
            bool known = false;
            for (size_t i = 0; i < n && !known; ++i)
                known = strcmp(columns[i], v->string) == 0;
            if (!known && n < LIST_COLUMNS)
                columns[n++] = v->string;
        }
    }
    char title[64];
    int total = cJSON_GetArraySize(list);
    buf_printf(b, "<div class=\"list\"><b>%s</b> (%d)<div class=\"wide\"><table><thead><tr>",
               words(list->string, title, sizeof(title)), total);
    for (size_t i = 0; i < n; ++i) {
        buf_add(b, "<th>");
        buf_escape(b, words(columns[i], title, sizeof(title)));
        buf_add(b, "</th>");
    }
    buf_add(b, "</tr></thead><tbody>");
    int shown = 0;
    cJSON_ArrayForEach(row, list)
    {
        if (shown++ == LIST_ROWS)
            break;
        const cJSON *ok = cJSON_GetObjectItemCaseSensitive(row, "ok");
        buf_printf(b, "<tr%s>", cJSON_IsFalse(ok) ? " class=\"regression\"" : "");
        for (size_t i = 0; i < n; ++i) {
            buf_add(b, "<td>");
            v = cJSON_GetObjectItemCaseSensitive(row, columns[i]);
            if (v != NULL)
                scalar_text(b, v);
            buf_add(b, "</td>");
        }
        buf_add(b, "</tr>");
    }
    buf_add(b, "</tbody></table></div>");
    if (total > LIST_ROWS)
        buf_printf(b, "<p class=\"muted\">and %d more (in the raw evidence)</p>", total - LIST_ROWS);
    buf_add(b, "</div>");
}

static bool objects_only(const cJSON *array)
{
    return cJSON_IsArray(array) && all_of(array, cJSON_IsObject);
}

static cJSON_bool scalar_item(const cJSON *v)
{
    return scalar(v);
}

void evidence_signals_html(struct buf *b, const cJSON *evidence)
{
    const cJSON *signals = cJSON_GetObjectItemCaseSensitive(evidence, "signals");
    if (!cJSON_IsObject(signals))
        return;
    static const char *const six[] = {"declared", "readback", "artifacts", "counters", "timing", "power"};
    buf_add(b, "<div class=\"signals\" title=\"the six signals: what this verdict rests on\">");
    for (size_t i = 0; i < 6; ++i) {
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(signals, six[i]);
        bool on = cJSON_IsTrue(s) || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "measured"));
        buf_printf(b, "<span class=\"%s\"", on ? "on" : "off");
        const char *why = cJSON_IsObject(s) ? (on ? str(s, "source") : str(s, "reason")) : "";
        if (*why) {
            buf_add(b, " title=\"");
            buf_escape(b, why);
            buf_add(b, "\"");
        }
        buf_printf(b, ">%s %s</span>", on ? "✓" : "–", six[i]);
    }
    buf_add(b, "</div>");
}

void evidence_html(struct buf *b, const cJSON *evidence, const cJSON *stored)
{
    if (!cJSON_IsObject(evidence)) {
        if (evidence && !cJSON_IsNull(evidence)) {
            buf_add(b, "<p>");
            scalar_text(b, evidence);
            buf_add(b, "</p>");
        }
        return;
    }
    evidence_signals_html(b, evidence);
    const char *requested = str(evidence, "requested");
    const cJSON *v;
    /* the pictures first: histograms, timing, power, images */
    cJSON_ArrayForEach(v, evidence)
    {
        if (is_histogram(v))
            histogram(b, v, requested);
        else if (is_timing(v))
            timing(b, v);
        else if (strcmp(v->string, "power") == 0 && is_power(v))
            power(b, v);
    }
    const cJSON *images = cJSON_GetObjectItemCaseSensitive(evidence, "artifacts");
    if (objects_only(images))
        artifacts(b, images, stored);
    /* then the counters and readbacks: every scalar, and arrays of scalars */
    bool any = false;
    char title[64];
    cJSON_ArrayForEach(v, evidence)
    {
        bool list_of_scalars = cJSON_IsArray(v) && (cJSON_GetArraySize(v) == 0 || all_of(v, scalar_item));
        if ((!scalar(v) && !list_of_scalars) || strcmp(v->string, "signals_collected") == 0)
            continue;
        buf_add(b, any ? "" : "<table class=\"counters\"><tbody>");
        any = true;
        buf_add(b, "<tr><th>");
        buf_escape(b, words(v->string, title, sizeof(title)));
        buf_add(b, "</th><td>");
        if (list_of_scalars) {
            const cJSON *e;
            int i = 0;
            cJSON_ArrayForEach(e, v)
            {
                buf_add(b, i++ ? ", " : "");
                scalar_text(b, e);
            }
            if (i == 0)
                buf_add(b, "none");
        } else {
            scalar_text(b, v);
        }
        buf_add(b, "</td></tr>");
    }
    if (any)
        buf_add(b, "</tbody></table>");
    /* then the rest: flags, lists of results, other objects */
    cJSON_ArrayForEach(v, evidence)
    {
        bool pictured = is_histogram(v) || is_timing(v) || (strcmp(v->string, "power") == 0 && is_power(v)) ||
                        strcmp(v->string, "signals") == 0 || (v == images && objects_only(v));
        if (pictured || scalar(v) || (cJSON_IsArray(v) && (cJSON_GetArraySize(v) == 0 || all_of(v, scalar_item))))
            continue;
        if (cJSON_IsObject(v) && all_of(v, cJSON_IsBool)) {
            flags(b, v);
        } else if (objects_only(v)) {
            result_list(b, v);
        } else {
            buf_printf(b, "<table class=\"counters\"><caption>%s</caption><tbody>",
                       words(v->string, title, sizeof(title)));
            const cJSON *e;
            cJSON_ArrayForEach(e, v)
            {
                buf_add(b, "<tr><th>");
                if (e->string)
                    buf_escape(b, words(e->string, title, sizeof(title)));
                buf_add(b, "</th><td>");
                scalar_text(b, e);
                buf_add(b, "</td></tr>");
            }
            buf_add(b, "</tbody></table>");
        }
    }
    char *raw = cJSON_Print(evidence);
    buf_add(b, "<details class=\"raw\"><summary>raw evidence (JSON)</summary><pre>");
    buf_escape(b, raw ? raw : "");
    buf_add(b, "</pre></details>");
    free(raw);
}
