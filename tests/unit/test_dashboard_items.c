/* What the dashboard keeps per device for its coverage pages: one item per (kind, name), sorted,
 * features and limits named by struct (the EXT and NV mesh shader structs' members apart), limits
 * with their numbers, formats with their bits, smoke capabilities and tests with their verdicts. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "items.h"
#include "test_support.h"

static const struct item *find(const struct item_list *list, const char *kind, const char *name)
{
    for (size_t i = 0; i < list->count; ++i)
        if (strcmp(list->items[i].kind, kind) == 0 && strcmp(list->items[i].name, name) == 0)
            return &list->items[i];
    return NULL;
}

static void items_of_the_h200(void **state)
{
    (void)state;
    cJSON *report = load_fixture("probe-nvidia-h200.report.json");
    struct item_list list = {0};
    assert_true(items_from_device(cJSON_GetArrayItem(cJSON_GetObjectItem(report, "devices"), 0), &list));
    for (size_t i = 1; i < list.count; ++i) /* sorted, no two alike */
        assert_true(items_compare(&list.items[i - 1], &list.items[i]) < 0);
    const struct item *shared = find(&list, "limit", "VkPhysicalDeviceLimits.maxComputeSharedMemorySize");
    assert_non_null(shared);
    assert_true(shared->number == 49152.0);
    const struct item *swapchain = find(&list, "extension", "VK_KHR_swapchain");
    assert_non_null(swapchain);
    assert_true(swapchain->declared);
    assert_null(find(&list, "limit", "maxComputeSharedMemorySize")); /* no bare names */
    const struct item *ext =
        find(&list, "limit", "VkPhysicalDeviceMeshShaderPropertiesEXT.maxTaskWorkGroupInvocations");
    const struct item *nv = find(&list, "limit", "VkPhysicalDeviceMeshShaderPropertiesNV.maxTaskWorkGroupInvocations");
    assert_non_null(ext);
    assert_non_null(nv);
    assert_true(ext->number == 128.0 && nv->number == 32.0); /* one member, two values */
    const struct item *int64 = find(&list, "feature", "VkPhysicalDeviceFeatures.shaderInt64");
    assert_non_null(int64);
    assert_true(int64->declared);
    const struct item *compute = find(&list, "test", "compute.1x1");
    assert_non_null(compute);
    assert_string_equal(compute->verdict, "pass");
    const struct item *rq = find(&list, "capability", "ray_query.triangle");
    assert_non_null(rq);
    assert_false(rq->declared); /* the H200's driver has no ray query */
    const struct item *format = find(&list, "format", "VK_FORMAT_R8G8B8A8_UNORM");
    assert_non_null(format);
    assert_non_null(strstr(format->value, "VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT"));
    const struct item *group =
        find(&list, "limit", "VkPhysicalDeviceLimits.maxComputeWorkGroupSize"); /* an array: JSON text */
    assert_non_null(group);
    assert_true(isnan(group->number));
    assert_string_equal(group->value, "[1024,1024,64]");
    items_free(&list);
    cJSON_Delete(report);
}

static void duplicates_merge(void **state)
{
    (void)state;
    struct item_list list = {0};
    assert_true(items_add(&list, "feature", "storageBuffer16BitAccess", false, NULL, "false", NAN));
    assert_true(items_add(&list, "extension", "VK_KHR_a", true, NULL, "1", 1));
    assert_true(items_add(&list, "feature", "storageBuffer16BitAccess", true, NULL, "true", NAN));
    items_sort(&list);
    assert_int_equal(list.count, 2);
    assert_string_equal(list.items[0].kind, "extension");
    assert_true(list.items[1].declared); /* declared by the second struct */
    items_free(&list);
}

static void verdicts_that_fail(void **state)
{
    (void)state;
    assert_true(items_verdict_failing("fail"));
    assert_true(items_verdict_failing("crashed"));
    assert_true(items_verdict_failing("not_applied"));
    assert_false(items_verdict_failing("pass"));
    assert_false(items_verdict_failing("unsupported"));
    assert_false(items_verdict_failing("skipped"));
    assert_false(items_verdict_failing(""));
    assert_true(items_verdict_failing("flaky")); /* fails on some machines */
    assert_true(items_kind_valid("limit"));
    assert_false(items_kind_valid("limits"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(items_of_the_h200), cmocka_unit_test(duplicates_merge),
                                       cmocka_unit_test(verdicts_that_fail)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
