/* Fleet limits over the lavapipe and H200 reports: the most restrictive value per limit type,
 * with the device that sets it; features true only where every device has them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "fleet_limits.h"
#include "test_support.h"

static const cJSON *entry(const cJSON *fleet, const char *section, const char *key)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(fleet, section), key);
    if (e == NULL)
        fail_msg("%s.%s missing", section, key);
    return e;
}

static const char *first_setter(const cJSON *e)
{
    return cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(e, "set_by"), 0));
}

static void most_restrictive_values_and_who_sets_them(void **state)
{
    (void)state;
    cJSON *reports[2] = {load_fixture("probe-lavapipe.report.json"), load_fixture("probe-nvidia-h200.report.json")};
    cJSON *fleet = fleet_limits_build(reports, 2);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(fleet, "schema")),
                        "preflight.fleet-limits/1");
    const cJSON *shared = entry(fleet, "limits", "VkPhysicalDeviceLimits.maxComputeSharedMemorySize");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(shared, "value")->valueint, 32768);
    assert_string_equal(first_setter(shared), "10005-0000-mesa_llvmpipe");
    const cJSON *size = entry(fleet, "limits", "VkPhysicalDeviceLimits.maxComputeWorkGroupSize");
    assert_int_equal(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(size, "value"), 2)->valueint, 64);
    /* a "min" limit: the largest alignment wins */
    const cJSON *alignment = entry(fleet, "limits", "VkPhysicalDeviceLimits.minUniformBufferOffsetAlignment");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(alignment, "value")->valueint, 64);
    assert_string_equal(first_setter(alignment), "10de-2335-nvidia_proprietary");
    /* a struct only one device has */
    const cJSON *vrs = entry(fleet, "limits", "VkPhysicalDeviceFragmentShadingRatePropertiesKHR.maxFragmentSize");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(vrs, "missing_on")), 1);
    /* bitmask flags: the intersection */
    const cJSON *counts = entry(fleet, "limits", "VkPhysicalDeviceLimits.framebufferColorSampleCounts");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(counts, "value")),
                     2); /* 1 and 4 on lavapipe */
    /* features */
    assert_true(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(
        entry(fleet, "features", "VkPhysicalDeviceRayQueryFeaturesKHR.rayQuery"), "value")));
    assert_true(cJSON_IsTrue(
        cJSON_GetObjectItemCaseSensitive(entry(fleet, "features", "VkPhysicalDeviceFeatures.shaderInt64"), "value")));
    cJSON_Delete(fleet);
    cJSON_Delete(reports[0]);
    cJSON_Delete(reports[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(most_restrictive_values_and_who_sets_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
