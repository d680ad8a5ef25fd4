/* The dashboard's CSV (csv.h): RFC 4180 quoting and CRLF line ends, the header as the union of the
 * rows' keys in the order first seen, nested values as JSON text, and the guard against a cell a
 * spreadsheet would run as a formula. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "csv.h"

static char *csv_of(const char *json)
{
    cJSON *rows = cJSON_Parse(json);
    assert_non_null(rows);
    struct buf b = {0};
    assert_true(csv_from_rows(rows, &b));
    cJSON_Delete(rows);
    buf_add(&b, ""); /* a terminated string even when empty */
    return b.data;
}

static void quotes_what_needs_quoting(void **state)
{
    (void)state;
    char *csv =
        csv_of("[{\"name\":\"plain\",\"note\":\"a, b\"},{\"name\":\"say \\\"hi\\\"\",\"note\":\"two\\r\\nlines\"},"
               "{\"name\":\"lf\\nonly\",\"note\":\"\"}]");
    assert_string_equal(csv, "name,note\r\n"
                             "plain,\"a, b\"\r\n"
                             "\"say \"\"hi\"\"\",\"two\r\nlines\"\r\n"
                             "\"lf\nonly\",\r\n");
    free(csv);
}

static void header_is_the_union_of_keys_in_first_seen_order(void **state)
{
    (void)state;
    char *csv = csv_of("[{\"b\":1,\"a\":2},{\"c\":3,\"a\":4},{\"d\":null}]");
    assert_string_equal(csv, "b,a,c,d\r\n"
                             "1,2,,\r\n"
                             ",4,3,\r\n"
                             ",,,\r\n");
    free(csv);
}

static void nested_values_are_json_text(void **state)
{
    (void)state;
    char *csv = csv_of("[{\"tests\":[{\"test\":\"vrs\",\"after\":\"fail\"}],\"ok\":true,\"rate\":0.25,\"n\":-3}]");
    assert_string_equal(csv, "tests,ok,rate,n\r\n"
                             "\"[{\"\"test\"\":\"\"vrs\"\",\"\"after\"\":\"\"fail\"\"}]\",true,0.25,-3\r\n");
    free(csv);
}

static void formulas_are_not_run(void **state)
{
    (void)state;
    char *csv = csv_of("[{\"v\":\"=HYPERLINK(\\\"http://x\\\")\"},{\"v\":\"+1\"},{\"v\":\"-2\"},{\"v\":\"@SUM(A1)\"},"
                       "{\"v\":\"\\tx\"},{\"v\":\"\\rx\"},{\"v\":\"a=b\"},{\"=k\":1}]");
    assert_string_equal(csv, "v,'=k\r\n"
                             "\"'=HYPERLINK(\"\"http://x\"\")\",\r\n"
                             "'+1,\r\n"
                             "'-2,\r\n"
                             "'@SUM(A1),\r\n"
                             "'\tx,\r\n"
                             "\"'\rx\",\r\n"
                             "a=b,\r\n"
                             ",1\r\n");
    free(csv);
}

static void utf8_kept_and_odd_rows(void **state)
{
    (void)state;
    char *csv = csv_of("[{\"name\":\"GeForce \xe2\x84\xa2 <script>\"},\"bare\"]");
    assert_string_equal(csv, "name,value\r\n"
                             "GeForce \xe2\x84\xa2 <script>,\r\n"
                             ",bare\r\n");
    free(csv);
    csv = csv_of("[]");
    assert_string_equal(csv, "");
    free(csv);
    struct buf b = {0};
    cJSON *not_rows = cJSON_CreateObject();
    assert_false(csv_from_rows(not_rows, &b));
    assert_false(csv_from_rows(NULL, &b));
    cJSON_Delete(not_rows);
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(quotes_what_needs_quoting),
        cmocka_unit_test(header_is_the_union_of_keys_in_first_seen_order),
        cmocka_unit_test(nested_values_are_json_text),
        cmocka_unit_test(formulas_are_not_run),
        cmocka_unit_test(utf8_kept_and_odd_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
