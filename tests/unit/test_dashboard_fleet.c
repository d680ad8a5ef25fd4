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
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(machines_that_agree_give_their_verdict), cmocka_unit_test(machines_that_disagree_are_flaky),
        cmocka_unit_test(regressions_and_fixes), cmocka_unit_test(names_by_struct_and_their_aliases),
        cmocka_unit_test(the_closest_names_to_a_misspelling)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
