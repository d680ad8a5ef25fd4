/* diff on real reports with injected changes: each kind of regression is found and marked, and
 * improvements are changes, not regressions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "diff.h"
#include "json_path.h"
#include "test_support.h"

static cJSON *device_of(cJSON *report)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(report, "devices"), 0);
}

static const struct diff_change *find(const struct diff *d, const char *what)
{
    for (size_t i = 0; i < d->count; ++i)
        if (strcmp(d->changes[i].what, what) == 0)
            return &d->changes[i];
    return NULL;
}

static void the_same_report_has_no_changes(void **state)
{
    (void)state;
    cJSON *a = load_fixture("probe-nvidia-h200.report.json");
    struct diff d;
    diff_devices(device_of(a), device_of(a), &d);
    assert_int_equal(d.count, 0);
    diff_free(&d);
    cJSON_Delete(a);
}

static void injected_regressions_are_found(void **state)
{
    (void)state;
    cJSON *before = load_fixture("probe-nvidia-h200.report.json");
    cJSON *after = load_fixture("probe-nvidia-h200.report.json");
    cJSON *declared = cJSON_GetObjectItemCaseSensitive(device_of(after), "declared");
    cJSON *limits = (cJSON *)json_path_get(declared, "properties/VkPhysicalDeviceProperties/limits");
    cJSON_ReplaceItemInObject(limits, "maxComputeSharedMemorySize", cJSON_CreateNumber(32768));    /* max shrank */
    cJSON_ReplaceItemInObject(limits, "minUniformBufferOffsetAlignment", cJSON_CreateNumber(256)); /* min grew */
    cJSON_ReplaceItemInObject(limits, "maxImageDimension2D", cJSON_CreateNumber(65536));           /* improvement */
    cJSON *features = (cJSON *)json_path_get(declared, "features/VkPhysicalDeviceFeatures");
    cJSON_ReplaceItemInObject(features, "shaderInt64", cJSON_CreateFalse());
    cJSON_DeleteItemFromObject(cJSON_GetObjectItemCaseSensitive(declared, "extensions"), "VK_EXT_mesh_shader");
    cJSON *smoke = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(device_of(after), "smoke"), 0);
    cJSON_ReplaceItemInObject(smoke, "status", cJSON_CreateString("fail"));
    cJSON *violation = cJSON_CreateObject();
    cJSON_AddStringToObject(violation, "limit", "limits.maxComputeSharedMemorySize");
    cJSON_AddNumberToObject(violation, "value", 8192);
    cJSON_AddStringToObject(violation, "required", ">= 16384");
    cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(device_of(after), "spec_minimums"), violation);

    struct diff d;
    diff_devices(device_of(before), device_of(after), &d);
    const struct diff_change *c = find(&d, "VkPhysicalDeviceLimits.maxComputeSharedMemorySize");
    assert_non_null(c);
    assert_true(c->regression);
    assert_string_equal(c->before, "49152");
    assert_string_equal(c->after, "32768");
    assert_true(find(&d, "VkPhysicalDeviceLimits.minUniformBufferOffsetAlignment")->regression);
    assert_false(find(&d, "VkPhysicalDeviceLimits.maxImageDimension2D")->regression);
    assert_true(find(&d, "VkPhysicalDeviceFeatures.shaderInt64")->regression);
    assert_true(find(&d, "VK_EXT_mesh_shader")->regression);
    assert_true(find(&d, "compute.1x1")->regression);
    assert_true(find(&d, "limits.maxComputeSharedMemorySize")->regression);
    assert_int_equal(d.regressions, 6);
    diff_free(&d);
    cJSON_Delete(before);
    cJSON_Delete(after);
}

static void a_newly_verified_test_is_no_regression(void **state)
{
    (void)state;
    cJSON *before = load_fixture("probe-nvidia-h200.report.json");
    cJSON *after = load_fixture("probe-nvidia-h200.report.json");
    cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(device_of(before), "smoke"), 0);
    cJSON_ReplaceItemInObject(first, "status", cJSON_CreateString("fail"));
    cJSON *skipped = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(device_of(after), "smoke"), 1);
    cJSON_ReplaceItemInObject(skipped, "status", cJSON_CreateString("skipped"));
    struct diff d;
    diff_devices(device_of(before), device_of(after), &d);
    assert_int_equal(d.count, 2);
    assert_int_equal(d.regressions, 0); /* fail -> pass improves; pass -> skipped is no verdict */
    diff_free(&d);
    cJSON_Delete(before);
    cJSON_Delete(after);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_same_report_has_no_changes),
        cmocka_unit_test(injected_regressions_are_found),
        cmocka_unit_test(a_newly_verified_test_is_no_regression),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
