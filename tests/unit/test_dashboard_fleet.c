/* The fleet's rule (fleet_verdict.h): machines' verdicts combined per (device, driver), a change
 * from the previous driver classified; and the names an item may be asked for (item_names.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fleet_verdict.h"
#include "item_names.h"

static void machines_that_agree_give_their_verdict(void **state)
{
    (void)state;
    struct fleet_verdict v;
    const struct machine_verdict all_pass[] = {{"a", "pass"}, {"b", "pass"}, {"c", "pass"}};
    fleet_combine(all_pass, 3, &v);
    assert_string_equal(v.verdict, "pass");
    assert_int_equal(v.machines, 3);
    assert_int_equal(v.passing, 3);
    assert_int_equal(v.failing, 0);
    assert_string_equal(v.detail, "on all 3 machines");
    const struct machine_verdict one[] = {{"farm-01", "not_applied"}};
    fleet_combine(one, 1, &v);
    assert_string_equal(v.verdict, "not_applied");
    assert_int_equal(v.failing, 1);
    assert_string_equal(v.detail, "on 1 machine: farm-01");
}

static void machines_that_disagree_are_flaky(void **state)
{
    (void)state;
    struct fleet_verdict v;
    /* issue 30: two machines fail, the third passes and uploads last */
    const struct machine_verdict h200[] = {
        {"farm-h200-01", "fail"}, {"farm-h200-02", "fail"}, {"farm-h200-03", "pass"}};
    fleet_combine(h200, 3, &v);
    assert_string_equal(v.verdict, "flaky");
    assert_int_equal(v.failing, 2);
    assert_int_equal(v.passing, 1);
    assert_string_equal(v.detail, "fail on 2 of 3 machines: farm-h200-01, farm-h200-02");
    const struct machine_verdict mixed[] = {{"a", "crashed"}, {"", "pass"}, {"c", "timeout"}};
    fleet_combine(mixed, 3, &v);
    assert_string_equal(v.verdict, "flaky");
    assert_string_equal(v.detail, "crashed on 1 of 3 machines: a; timeout on 1 of 3 machines: c");
    /* many machines: six named, the rest counted */
    struct machine_verdict many[10];
    const char *names[] = {"m0", "m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9"};
    for (int i = 0; i < 10; ++i)
        many[i] = (struct machine_verdict){names[i], i < 9 ? "fail" : "pass"};
    fleet_combine(many, 10, &v);
    assert_string_equal(v.detail, "fail on 9 of 10 machines: m0, m1, m2, m3, m4, m5 and 3 more");
}

static void only_machines_that_ran_the_test_count(void **state)
{
    (void)state;
    struct fleet_verdict v;
    /* issue 43: docs/examples/nvidia-h200.amber.report.json ran only amber.*: its built-in tests
     * are "skipped: not selected", which says nothing of them */
    const struct machine_verdict subset[] = {
        {"farm-h200-01", "pass"}, {"farm-h200-02", "pass"}, {"nvidia-h200", "skipped"}};
    fleet_combine(subset, 3, &v);
    assert_string_equal(v.verdict, "pass");
    assert_int_equal(v.machines, 2);
    assert_int_equal(v.failing, 0);
    assert_string_equal(v.detail, "on all 2 machines; not run on 1: nvidia-h200 (skipped)");
    /* ... nor hides a regression on 2 of the 3 machines that ran it */
    const struct machine_verdict regressed[] = {
        {"farm-h200-01", "fail"}, {"nvidia-h200", "skipped"}, {"farm-h200-02", "fail"}, {"farm-h200-03", "pass"}};
    fleet_combine(regressed, 4, &v);
    assert_string_equal(v.verdict, "flaky");
    assert_int_equal(v.machines, 3);
    assert_int_equal(v.failing, 2);
    assert_string_equal(v.detail,
                        "fail on 2 of 3 machines: farm-h200-01, farm-h200-02; not run on 1: nvidia-h200 (skipped)");
    const struct machine_verdict every_one_failed[] = {{"a", "fail"}, {"b", "skipped"}};
    fleet_combine(every_one_failed, 2, &v);
    assert_string_equal(v.verdict, "fail");
    assert_int_equal(v.machines, 1);
    /* no machine ran it: not a run anywhere */
    const struct machine_verdict none[] = {{"a", "skipped"}, {"b", "unsupported"}};
    fleet_combine(none, 2, &v);
    assert_string_equal(v.verdict, "unsupported");
    assert_int_equal(v.failing, 0);
    assert_string_equal(v.detail, "skipped on 1 of 2 machines: a; unsupported on 1 of 2 machines: b");
    const struct machine_verdict unsupported_and_pass[] = {{"a", "unsupported"}, {"b", "pass"}};
    fleet_combine(unsupported_and_pass, 2, &v);
    assert_string_equal(v.verdict, "pass");
}

static void every_failing_kind_is_a_failure(void **state)
{
    (void)state;
    struct fleet_verdict v;
    /* issue 43: crashed on one machine, failed on the other fails on every machine */
    const struct machine_verdict two[] = {{"a", "crashed"}, {"b", "fail"}};
    fleet_combine(two, 2, &v);
    assert_string_equal(v.verdict, "fail");
    assert_int_equal(v.failing, 2);
    assert_int_equal(v.passing, 0);
    assert_string_equal(v.detail, "crashed on 1 of 2 machines: a; fail on 1 of 2 machines: b");
    const struct machine_verdict lost[] = {{"a", "device_lost"}, {"b", "device_lost"}, {"c", "skipped"}};
    fleet_combine(lost, 3, &v);
    assert_string_equal(v.verdict, "device_lost");
    assert_string_equal(v.detail, "on all 2 machines; not run on 1: c (skipped)");
    const struct machine_verdict with_timeout[] = {{"a", "timeout"}, {"b", "not_applied"}, {"c", "crashed"}};
    fleet_combine(with_timeout, 3, &v);
    assert_string_equal(v.verdict, "fail");
    assert_int_equal(v.failing, 3);
}

static void regressions_and_fixes(void **state)
{
    (void)state;
    assert_int_equal(fleet_compare("pass", "pass"), FLEET_SAME);
    assert_int_equal(fleet_compare("pass", "flaky"), FLEET_REGRESSION);
    assert_int_equal(fleet_compare("pass", "fail"), FLEET_REGRESSION);
    assert_int_equal(fleet_compare("pass", "unsupported"), FLEET_REGRESSION); /* the driver stopped declaring it */
    assert_int_equal(fleet_compare("flaky", "fail"), FLEET_REGRESSION);
    assert_int_equal(fleet_compare("flaky", "pass"), FLEET_FIX);
    assert_int_equal(fleet_compare("fail", "pass"), FLEET_FIX);
    assert_int_equal(fleet_compare("fail", "flaky"), FLEET_CHANGED);
    assert_int_equal(fleet_compare("unsupported", "fail"), FLEET_CHANGED);
    assert_int_equal(fleet_compare("unsupported", "pass"), FLEET_CHANGED);
    /* a driver on which no machine ran the test is no change (issue 43: a subset run) */
    assert_int_equal(fleet_compare("pass", "skipped"), FLEET_SAME);
    assert_int_equal(fleet_compare("skipped", "fail"), FLEET_SAME);
    assert_int_equal(fleet_compare("crashed", "fail"), FLEET_CHANGED);
}

static void verdicts_with_a_confidence(void **state)
{
    (void)state;
    struct fleet_measure m;
    fleet_measure(0, 0, &m);
    assert_string_equal(m.verdict, "unknown");
    fleet_measure(3, 0, &m); /* three passes: a test failing one run in two could still pass three times */
    assert_string_equal(m.verdict, "unknown");
    assert_float_equal(m.high, 0.5615, 0.0001);
    fleet_measure(4, 0, &m);
    assert_string_equal(m.verdict, "pass");
    assert_float_equal(m.high, 0.4899, 0.0001);
    fleet_measure(3, 3, &m);
    assert_string_equal(m.verdict, "unknown");
    fleet_measure(4, 4, &m);
    assert_string_equal(m.verdict, "fail");
    assert_float_equal(m.low, 0.5101, 0.0001);
    fleet_measure(3, 2, &m); /* failed on 2 of 3 machines: flaky, and how often */
    assert_string_equal(m.verdict, "flaky");
    assert_float_equal(m.rate, 2.0 / 3.0, 0.0001);
    assert_float_equal(m.low, 0.2077, 0.0001);
    assert_float_equal(m.high, 0.9385, 0.0001);
    char text[128];
    fleet_measure_text(&m, text, sizeof(text));
    assert_string_equal(text, "failure rate 67 % of 3 runs (95 % interval 21-94 %)");
    /* a flake at 5 % that is now at 60 %: a regression; the same flake again: none */
    struct fleet_measure before, after;
    fleet_measure(20, 1, &before);
    fleet_measure(20, 12, &after);
    assert_int_equal(fleet_measured_change(&before, &after), FLEET_REGRESSION);
    assert_int_equal(fleet_measured_change(&after, &before), FLEET_FIX);
    fleet_measure(40, 3, &after);
    assert_int_equal(fleet_measured_change(&before, &after), FLEET_SAME);
    /* pass on 3 machines, fail on 3: the runs cannot tell it from chance yet; 5 and 5 can */
    fleet_measure(3, 0, &before);
    fleet_measure(3, 3, &after);
    assert_int_equal(fleet_measured_change(&before, &after), FLEET_SAME);
    fleet_measure(5, 0, &before);
    fleet_measure(5, 5, &after);
    assert_int_equal(fleet_measured_change(&before, &after), FLEET_REGRESSION);
}

static void names_by_struct_and_their_aliases(void **state)
{
    (void)state;
    assert_true(item_name_defined("limit", "VkPhysicalDeviceLimits.maxComputeSharedMemorySize"));
    assert_false(item_name_defined("limit", "maxComputeSharedMemorySize"));
    assert_true(item_name_defined("extension", "VK_KHR_swapchain"));
    assert_true(item_name_defined("format", "VK_FORMAT_R8G8B8A8_UNORM"));
    assert_false(item_name_defined("test", "compute.1x1")); /* tests: what the database knows */
    char names[4][ITEM_NAME_MAX];
    assert_int_equal(item_name_qualify("limit", "maxComputeSharedMemorySize", names, 4), 1);
    assert_string_equal(names[0], "VkPhysicalDeviceLimits.maxComputeSharedMemorySize");
    assert_int_equal(item_name_qualify("limit", "maxTaskWorkGroupInvocations", names, 4), 2);
    assert_true(item_name_qualify("feature", "bufferDeviceAddress", names, 4) >= 2); /* core and extension structs */
    assert_int_equal(item_name_qualify("limit", "VkPhysicalDeviceLimits.maxComputeSharedMemorySize", names, 4), 0);
    assert_int_equal(item_name_qualify("extension", "VK_KHR_swapchain", names, 4), 0);
}

static void the_closest_names_to_a_misspelling(void **state)
{
    (void)state;
    char names[3][ITEM_NAME_MAX];
    size_t n = item_names_closest("limit", "maxComputeSharedMemorySiz", NULL, 0, names, 3);
    assert_true(n >= 1);
    assert_string_equal(names[0], "VkPhysicalDeviceLimits.maxComputeSharedMemorySize");
    n = item_names_closest("extension", "vk_khr_swapchian", NULL, 0, names, 3);
    assert_true(n >= 1);
    assert_string_equal(names[0], "VK_KHR_swapchain");
    const char *tests[] = {"compute.1x1", "vrs.attachment", "amber.graphics/triangle.amber"};
    n = item_names_closest("test", "vrs.atachment", tests, 3, names, 3);
    assert_int_equal(n, 1);
    assert_string_equal(names[0], "vrs.attachment");
    assert_int_equal(item_names_closest("test", "something else entirely", tests, 3, names, 3), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(machines_that_agree_give_their_verdict),
                                       cmocka_unit_test(machines_that_disagree_are_flaky),
                                       cmocka_unit_test(only_machines_that_ran_the_test_count),
                                       cmocka_unit_test(every_failing_kind_is_a_failure),
                                       cmocka_unit_test(regressions_and_fixes),
                                       cmocka_unit_test(verdicts_with_a_confidence),
                                       cmocka_unit_test(names_by_struct_and_their_aliases),
                                       cmocka_unit_test(the_closest_names_to_a_misspelling)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
