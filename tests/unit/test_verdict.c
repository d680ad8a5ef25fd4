/* Verdict names are a contract of the report: they must round-trip and reject anything else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "verdict.h"

static void names_round_trip(void **state)
{
    (void)state;
    for (int v = 0; v < VERDICT_COUNT; ++v) {
        enum verdict parsed;
        assert_true(verdict_parse(verdict_name((enum verdict)v), &parsed));
        assert_int_equal(parsed, v);
    }
    assert_string_equal(verdict_name(VERDICT_NOT_APPLIED), "not_applied");
    assert_string_equal(verdict_name(VERDICT_DEVICE_LOST), "device_lost");
}

static void unknown_names_are_rejected(void **state)
{
    (void)state;
    enum verdict parsed = VERDICT_PASS;
    assert_false(verdict_parse("passed", &parsed));
    assert_false(verdict_parse("", &parsed));
    assert_false(verdict_parse(NULL, &parsed));
    assert_string_equal(verdict_name((enum verdict)99), "invalid");
}

static void only_pass_is_verified(void **state)
{
    (void)state;
    for (int v = 0; v < VERDICT_COUNT; ++v)
        assert_int_equal(verdict_is_verified((enum verdict)v), v == VERDICT_PASS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_round_trip),
        cmocka_unit_test(unknown_names_are_rejected),
        cmocka_unit_test(only_pass_is_verified),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
