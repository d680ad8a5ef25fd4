/* The Vulkan Profiles intersection of lavapipe and the H200: extensions both expose, features
 * both declare, limits at the more restrictive value by limittype, format bits both have. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "profile_intersect.h"
#include "test_support.h"

static const cJSON *at(const cJSON *o, const char *a, const char *b, const char *c)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, a);
    if (b)
        v = cJSON_GetObjectItemCaseSensitive(v, b);
    if (c)
        v = cJSON_GetObjectItemCaseSensitive(v, c);
    return v;
}

static bool has_string(const cJSON *array, const char *s)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, array) if (cJSON_IsString(e) && strcmp(e->valuestring, s) == 0) return true;
    return false;
}

static void what_both_devices_support(void **state)
{
    (void)state;
    cJSON *lavapipe = load_fixture("probe-lavapipe.report.json"),
          *nvidia = load_fixture("probe-nvidia-h200.report.json");
    const cJSON *devices[2] = {cJSON_GetArrayItem(cJSON_GetObjectItem(lavapipe, "devices"), 0),
                               cJSON_GetArrayItem(cJSON_GetObjectItem(nvidia, "devices"), 0)};
    cJSON *profile = profile_intersect(devices, 2, "VP_TEST_fleet");
    assert_non_null(profile);
    const cJSON *block = at(profile, "capabilities", "device", NULL);
    const cJSON *extensions = at(block, "extensions", NULL, NULL);
    assert_non_null(cJSON_GetObjectItem(extensions, "VK_KHR_swapchain"));
    /* the H200 has NVIDIA extensions, lavapipe does not */
    assert_null(cJSON_GetObjectItem(extensions, "VK_NV_mesh_shader"));
    const cJSON *features = at(block, "features", "VkPhysicalDeviceFeatures", NULL);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(features, "robustBufferAccess")));
    /* only true features are kept: nothing false remains */
    const cJSON *f;
    cJSON_ArrayForEach(f, features) assert_true(cJSON_IsTrue(f));
    const cJSON *limits = at(block, "properties", "VkPhysicalDeviceProperties", "limits");
    /* max limit: the smaller value (lavapipe's 32768); min limit: the larger alignment (the H200's 64) */
    assert_int_equal(cJSON_GetObjectItem(limits, "maxComputeSharedMemorySize")->valueint, 32768);
    assert_int_equal(cJSON_GetObjectItem(limits, "minUniformBufferOffsetAlignment")->valueint, 64);
    const cJSON *rgba = at(block, "formats", "VK_FORMAT_R8G8B8A8_UNORM", "VkFormatProperties");
    assert_true(has_string(cJSON_GetObjectItem(rgba, "optimalTilingFeatures"), "VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT"));
    const cJSON *name = at(profile, "profiles", NULL, NULL)->child;
    assert_string_equal(name->string, "VP_TEST_fleet");
    /* the lower API version of the two */
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(name, "api-version")), "1.4.305");
    cJSON_Delete(profile);
    /* one device: its own capabilities */
    profile = profile_intersect(devices + 1, 1, "VP_TEST_one");
    assert_non_null(cJSON_GetObjectItem(at(profile, "capabilities", "device", "extensions"), "VK_NV_mesh_shader"));
    cJSON_Delete(profile);
    assert_null(profile_intersect(devices, 0, "none"));
    cJSON_Delete(lavapipe);
    cJSON_Delete(nvidia);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(what_both_devices_support)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
