/* The dashboard's escaping, the guard between report strings and the page: HTML entities for
 * the five characters that end text or attributes, control bytes replaced, UTF-8 kept;
 * percent-encoding for links; the SVG bars clamp what they are given. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "html.h"

static void escapes_what_would_become_markup(void **state)
{
    (void)state;
    struct buf b = {0};
    buf_escape(&b, "<script>alert('x')</script> & \"q\"");
    assert_string_equal(b.data, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
    buf_free(&b);
    buf_escape(&b, "tab\tok\x1b[31m\x7f");
    assert_string_equal(b.data, "tab\tok\xef\xbf\xbd[31m\xef\xbf\xbd");
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

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(escapes_what_would_become_markup),
                                       cmocka_unit_test(encodes_links), cmocka_unit_test(grows_and_formats),
                                       cmocka_unit_test(bars_clamp)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
