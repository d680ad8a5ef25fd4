/* The dashboard's escaping, the guard between report strings and the page: HTML entities for
 * the five characters that end text or attributes, control bytes replaced, UTF-8 kept;
 * percent-encoding for links; the SVG bars clamp what they are given; a smoke test's evidence
 * rendered by kind (histograms, timing, power, signals, artifacts, lists of results). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <cmocka.h>

#include "evidence_html.h"
#include "html.h"

static void escapes_what_would_become_markup(void **state)
{
    (void)state;
    struct buf b = {0};
    buf_escape(&b, "<script>alert('x')</script> & \"q\"");
    assert_string_equal(b.data, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
    buf_free(&b);
    buf_escape(&b, "tab\tok\x1b[31m\x7f");
    assert_string_equal(b.data, "tab\tok&lt;U+001B&gt;[31m&lt;U+007F&gt;");
    buf_free(&b);
    /* a right-to-left override makes "RTX 5090\u202Egnp.exe" display as "RTX 5090exe.png": shown, not obeyed */
    buf_escape(&b, "RTX 5090\xe2\x80\xaegnp.exe");
    assert_string_equal(b.data, "RTX 5090&lt;U+202E&gt;gnp.exe");
    buf_free(&b);
    buf_escape(&b, "a\xe2\x81\xa6"
                   "b\xe2\x81\xa9"
                   "c\xe2\x80\x8b"
                   "d\xef\xbb\xbf"
                   "e\xc2\x85"
                   "f"); /* isolate, ZWSP, BOM, NEL */
    assert_string_equal(b.data, "a&lt;U+2066&gt;b&lt;U+2069&gt;c&lt;U+200B&gt;d&lt;U+FEFF&gt;e&lt;U+0085&gt;f");
    buf_free(&b);
    buf_escape(&b, "x\xef\xbf\xbey\xef\xbf\xbfz"); /* noncharacters XML forbids (the Atom feed) */
    assert_string_equal(b.data, "x&lt;U+FFFE&gt;y&lt;U+FFFF&gt;z");
    buf_free(&b);
    buf_escape(&b, "bad \xc3 \xc0\xaf \xed\xa0\x80 end"); /* truncated, overlong, a surrogate */
    assert_string_equal(b.data, "bad \xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd "
                                "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd end");
    buf_free(&b);
    buf_escape(&b, "NVIDIA GeForce RTX\xe2\x84\xa2 \xc3\xa9");
    assert_string_equal(b.data, "NVIDIA GeForce RTX\xe2\x84\xa2 \xc3\xa9");
    buf_free(&b);
    buf_escape(&b, NULL);
    assert_null(b.data);
}

static void encodes_links(void **state)
{
    (void)state;
    struct buf b = {0};
    buf_url(&b, "extension:VK_KHR_swapchain/../x y&z=1");
    assert_string_equal(b.data, "extension%3AVK_KHR_swapchain%2F..%2Fx%20y%26z%3D1");
    buf_free(&b);
}

static void grows_and_formats(void **state)
{
    (void)state;
    struct buf b = {0};
    for (int i = 0; i < 10000; ++i)
        buf_printf(&b, "%d,", i);
    assert_int_equal(b.length, strlen(b.data));
    assert_non_null(strstr(b.data, "9999,"));
    char big[2000];
    memset(big, 'a', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    size_t before = b.length;
    buf_printf(&b, "%s", big); /* longer than the formatting's first try */
    assert_int_equal(b.length, before + sizeof(big) - 1);
    buf_free(&b);
}

static void bars_clamp(void **state)
{
    (void)state;
    struct buf b = {0};
    svg_share_bar(&b, 1.7, -0.2, "<x>");
    assert_non_null(strstr(b.data, "width=\"120.0\""));
    assert_non_null(strstr(b.data, "width=\"0.0\""));
    assert_non_null(strstr(b.data, "aria-label=\"&lt;x&gt;\""));
    buf_free(&b);
    const char *labels[] = {"<1>", "2"};
    const long counts[] = {1, 4};
    svg_distribution(&b, labels, counts, 2);
    assert_non_null(strstr(b.data, "&lt;1&gt;"));
    assert_null(strstr(b.data, "<1>"));
    buf_free(&b);
}

/* A smoke test's evidence rendered by kind: `json` in, the HTML checked for what a reader sees. */
static char *render(const char *json, const char *stored)
{
    cJSON *evidence = cJSON_Parse(json), *have = cJSON_Parse(stored ? stored : "{}");
    assert_non_null(evidence);
    struct buf b = {0};
    evidence_html(&b, evidence, have);
    cJSON_Delete(evidence);
    cJSON_Delete(have);
    assert_false(b.failed);
    return b.data;
}

static void evidence_by_kind(void **state)
{
    (void)state;
    /* a VRS histogram: bars per rate, the requested one marked */
    char *html = render(
        "{\"requested\": \"2x2\", \"histogram\": {\"1x1\": 3072, \"2x2\": 1024}, \"mismatched_texels\": 3072}", NULL);
    assert_non_null(strstr(html, "<div class=\"histogram\">"));
    assert_non_null(strstr(html, "<tr><th>1x1</th><td><span class=\"bar other\" style=\"width:220.0px\"></span> 3072"));
    assert_non_null(strstr(html, "<tr class=\"requested\"><th>2x2</th>"));
    assert_non_null(strstr(html, "<th>mismatched texels</th><td>3072</td>")); /* a counter */
    assert_non_null(strstr(html, "<details class=\"raw\">"));
    free(html);
    /* GPU timing against its baseline, with the ratio */
    html = render("{\"gpu_timing\": {\"what\": \"at 2x2\", \"baseline\": \"at 1x1\", \"baseline_ns\": 1000000, "
                  "\"feature_ns\": 250000, \"ratio\": 0.25, \"samples\": 5}}",
                  NULL);
    assert_non_null(strstr(html, "feature / baseline = <b>0.25</b>"));
    assert_non_null(
        strstr(html, "<th>baseline: at 1x1</th><td><span class=\"bar\" style=\"width:220.0px\"></span> 1000 µs"));
    assert_non_null(
        strstr(html, "<th>feature: at 2x2</th><td><span class=\"bar\" style=\"width:55.0px\"></span> 250 µs"));
    assert_non_null(strstr(html, "samples 5"));
    free(html);
    /* the six signals, power measured by NVML, and the power itself */
    html = render(
        "{\"signals\": {\"declared\": true, \"readback\": true, \"artifacts\": false, \"counters\": true, "
        "\"timing\": true, \"power\": {\"measured\": true, \"source\": \"nvml\"}}, \"power\": {\"source\": "
        "\"nvml\", \"device_match\": \"pci bus 0000:17:00.0\", \"baseline\": {\"joules_per_pass\": 2.0, "
        "\"mean_watts\": 400, \"samples\": 40, \"spread_pct\": 1.5, \"settled\": true}, \"feature\": "
        "{\"joules_per_pass\": 1.0, \"mean_watts\": 380, \"samples\": 40, \"spread_pct\": 2, \"settled\": true}, "
        "\"ratio\": 0.5, \"settled\": true}}",
        NULL);
    assert_non_null(strstr(html, "<span class=\"off\">– artifacts</span>"));
    assert_non_null(strstr(html, "<span class=\"on\" title=\"nvml\">✓ power</span>"));
    assert_non_null(strstr(html, "<div class=\"power\"><b>power</b>"));
    assert_non_null(strstr(html, "feature / baseline energy = <b>0.5</b>"));
    assert_non_null(strstr(html, "2 J per pass"));
    assert_null(strstr(html, "not settled"));
    assert_null(strstr(html, "driver's samples"));
    free(html);
    /* from the driver's sample buffer: its uncertainty and its check against the counter; a hostile reason escaped */
    html =
        render("{\"power\": {\"source\": \"nvml\", \"quantity\": \"power samples\", \"baseline\": "
               "{\"joules_per_pass\": 2.0, \"mean_watts\": 400, \"samples\": 3, \"spread_pct\": 1.5, \"settled\": "
               "true, \"uncertainty_pct\": 1.7}, \"feature\": {\"joules_per_pass\": 1.0, \"mean_watts\": 380, "
               "\"samples\": 3, \"spread_pct\": 2, \"settled\": true, \"uncertainty_pct\": 2.3}, \"ratio\": 0.5, "
               "\"settled\": true, \"fast_source\": {\"used\": true, \"error_pct\": -1.25, \"check_seconds\": 0.9}}}",
               NULL);
    assert_non_null(strstr(html, "(nvml, power samples)"));
    assert_non_null(strstr(html, "baseline 400 W mean ± 1.7%, 3 samples"));
    assert_non_null(strstr(html, "checked against the energy counter: -1.2% over 0.9 s"));
    free(html);
    html = render("{\"power\": {\"source\": \"nvml\", \"baseline\": {\"joules_per_pass\": 2.0}, \"feature\": "
                  "{\"joules_per_pass\": 1.0}, \"fast_source\": {\"used\": false, \"reason\": \"off by <50%>\"}}}",
                  NULL);
    assert_non_null(strstr(html, "the driver's samples not used: off by &lt;50%&gt;"));
    free(html);
    /* power not measured: the mark off, the reason as its tooltip */
    html = render("{\"signals\": {\"declared\": true, \"power\": {\"measured\": false, \"reason\": \"no <sensor>\"}}}",
                  NULL);
    assert_non_null(strstr(html, "<span class=\"off\" title=\"no &lt;sensor&gt;\">– power</span>"));
    free(html);
    /* artifacts: inline when uploaded, said so when not */
    const char *images =
        "{\"artifacts\": [{\"name\": \"rates\", \"what\": \"the map\", \"file\": \"a.png\", \"sha256\": "
        "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\", \"width\": 64, \"height\": 32}]}";
    html = render(images, "{\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\": true}");
    assert_non_null(strstr(
        html,
        "<img class=\"artifact\" src=\"/artifacts/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.png\""));
    assert_non_null(strstr(html, "width=\"192\" height=\"96\""));
    free(html);
    html = render(images, NULL);
    assert_null(strstr(html, "<img"));
    assert_non_null(strstr(html, "named but not uploaded"));
    free(html);
    /* a test no one knows (an AmberScript test's mismatches): a table over the keys they have */
    html = render("{\"mismatches\": [{\"x\": 3, \"y\": 4, \"expected\": [1, 0, 0, 1], \"observed\": [0, 0, 0, 1]}, "
                  "{\"x\": 5, \"y\": 4, \"expected\": [1, 0, 0, 1], \"observed\": \"<b>\"}]}",
                  NULL);
    assert_non_null(strstr(html, "<b>mismatches</b> (2)"));
    assert_non_null(strstr(html, "<th>x</th><th>y</th><th>expected</th><th>observed</th>"));
    assert_non_null(strstr(html, "<td>&lt;b&gt;</td>"));
    free(html);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(escapes_what_would_become_markup),
                                       cmocka_unit_test(encodes_links), cmocka_unit_test(grows_and_formats),
                                       cmocka_unit_test(bars_clamp), cmocka_unit_test(evidence_by_kind)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
