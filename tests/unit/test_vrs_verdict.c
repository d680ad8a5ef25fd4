/* The VRS verdict on synthetic readbacks: applied, silently 1x1, partly applied, miscounted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "vrs_verdict.h"

#define SIDE 64u
#define TEXELS (SIDE * SIDE)

static uint32_t observed[TEXELS];
static uint8_t expected[TEXELS];

static void fill(uint32_t observed_code, uint8_t expected_code)
{
    for (uint32_t i = 0; i < TEXELS; ++i) {
        observed[i] = observed_code;
        expected[i] = expected_code;
    }
}

static enum verdict judge(uint32_t invocations, uint32_t expected_invocations, cJSON **evidence, char *reason)
{
    struct vrs_readback r = {observed, expected, TEXELS, invocations, expected_invocations};
    *evidence = cJSON_CreateObject();
    return vrs_judge(&r, *evidence, reason, 256);
}

static double histogram_count(const cJSON *evidence, const char *rate)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(evidence, "histogram"), rate);
    return n ? n->valuedouble : 0;
}

static void rate_codes_follow_the_spec_encoding(void **state)
{
    (void)state;
    assert_int_equal(vrs_rate_code(1, 1), 0);
    assert_int_equal(vrs_rate_code(1, 2), 1);
    assert_int_equal(vrs_rate_code(2, 1), 4);
    assert_int_equal(vrs_rate_code(2, 2), 5);
    assert_int_equal(vrs_rate_code(4, 4), 10);
    char name[16];
    vrs_rate_name(6, name, sizeof(name));
    assert_string_equal(name, "2x4");
    vrs_rate_name(0xFFFFFFFFu, name, sizeof(name));
    assert_string_equal(name, "unwritten");
    vrs_rate_name(3, name, sizeof(name)); /* log2 height 3 is no rate */
    assert_string_equal(name, "unwritten");
}

static void applied_rate_passes(void **state)
{
    (void)state;
    cJSON *evidence;
    char reason[256] = "";
    fill(5, 5);
    assert_int_equal(judge(TEXELS / 4, TEXELS / 4, &evidence, reason), VERDICT_PASS);
    assert_true(histogram_count(evidence, "2x2") == TEXELS);
    cJSON_Delete(evidence);
}

static void silent_fallback_to_1x1_is_not_applied(void **state)
{
    (void)state;
    cJSON *evidence;
    char reason[256] = "";
    fill(0, 10); /* 4x4 requested, every texel shaded alone */
    assert_int_equal(judge(TEXELS, TEXELS / 16, &evidence, reason), VERDICT_NOT_APPLIED);
    assert_non_null(strstr(reason, "1x1"));
    assert_true(histogram_count(evidence, "1x1") == TEXELS);
    cJSON_Delete(evidence);
}

static void a_clamped_rate_fails_with_the_histogram(void **state)
{
    (void)state;
    cJSON *evidence;
    char reason[256] = "";
    fill(5, 10); /* 4x4 requested, 2x2 applied */
    assert_int_equal(judge(TEXELS / 4, TEXELS / 16, &evidence, reason), VERDICT_FAIL);
    assert_true(histogram_count(evidence, "2x2") == TEXELS);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(evidence, "mismatched_texels")->valueint, TEXELS);
    cJSON_Delete(evidence);
}

static void right_codes_with_a_wrong_count_fail(void **state)
{
    (void)state;
    cJSON *evidence;
    char reason[256] = "";
    fill(5, 5);
    assert_int_equal(judge(TEXELS, TEXELS / 4, &evidence, reason), VERDICT_FAIL);
    assert_non_null(strstr(reason, "ran 4096 times"));
    cJSON_Delete(evidence);
}

static void per_region_rates_are_checked_texel_by_texel(void **state)
{
    (void)state;
    cJSON *evidence;
    char reason[256] = "";
    /* attachment layout: left half 2x2, right half 1x1 */
    for (uint32_t i = 0; i < TEXELS; ++i) {
        expected[i] = (i % SIDE) < SIDE / 2 ? 5 : 0;
        observed[i] = expected[i];
    }
    uint32_t invocations = (SIDE / 2 / 2) * (SIDE / 2) + (SIDE / 2) * SIDE;
    assert_int_equal(judge(invocations, invocations, &evidence, reason), VERDICT_PASS);
    cJSON_Delete(evidence);
    observed[0] = 0; /* one coarse texel shaded at 1x1 */
    assert_int_equal(judge(invocations, invocations, &evidence, reason), VERDICT_FAIL);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(evidence, "mismatched_texels")->valueint, 1);
    cJSON_Delete(evidence);
}

static void unwritten_texels_fail(void **state)
{
    (void)state;
    cJSON *evidence;
    char reason[256] = "";
    fill(0xFFFFFFFFu, 0); /* the clear value: nothing was drawn */
    assert_int_equal(judge(0, TEXELS, &evidence, reason), VERDICT_FAIL);
    assert_true(histogram_count(evidence, "unwritten") == TEXELS);
    cJSON_Delete(evidence);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rate_codes_follow_the_spec_encoding),
        cmocka_unit_test(applied_rate_passes),
        cmocka_unit_test(silent_fallback_to_1x1_is_not_applied),
        cmocka_unit_test(a_clamped_rate_fails_with_the_histogram),
        cmocka_unit_test(right_codes_with_a_wrong_count_fail),
        cmocka_unit_test(per_region_rates_are_checked_texel_by_texel),
        cmocka_unit_test(unwritten_texels_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
