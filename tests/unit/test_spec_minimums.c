/* The spec-minimum table against real devices and against edited limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "json_path.h"
#include "spec_minimums.h"
#include "test_support.h"

static int count_limit(const cJSON *violations, const char *limit)
{
    int n = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, violations)
    {
        if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(v, "limit")), limit) == 0)
            ++n;
    }
    return n;
}

static void h200_meets_every_requirement(void **state)
{
    (void)state;
    cJSON *fixture = load_fixture("vulkaninfo-nvidia-h200.json");
    cJSON *violations = spec_minimums_check(fixture_declared(fixture));
    char *printed = cJSON_Print(violations);
    assert_int_equal(cJSON_GetArraySize(violations), 0);
    cJSON_free(printed);
    cJSON_Delete(violations);
    cJSON_Delete(fixture);
}

static void lavapipe_falls_short_on_ray_tracing_and_mesh_limits(void **state)
{
    (void)state;
    cJSON *fixture = load_fixture("vulkaninfo-lavapipe-mesa-25.0.7.json");
    cJSON *violations = spec_minimums_check(fixture_declared(fixture));
    assert_int_equal(count_limit(violations, "VkPhysicalDeviceAccelerationStructurePropertiesKHR.maxPrimitiveCount"),
                     1);
    assert_int_equal(
        count_limit(violations, "VkPhysicalDeviceRayTracingPipelinePropertiesKHR.maxRayDispatchInvocationCount"), 1);
    assert_int_equal(count_limit(violations, "VkPhysicalDeviceMeshShaderPropertiesEXT.maxMeshMultiviewViewCount"), 1);
    assert_int_equal(cJSON_GetArraySize(violations), 3);
    const cJSON *first = cJSON_GetArrayItem(violations, 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(first, "required")), ">= 536870911");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(first, "value")->valueint, 16777215);
    cJSON_Delete(violations);
    cJSON_Delete(fixture);
}

static cJSON *limits_of(cJSON *declared)
{
    return (cJSON *)json_path_get(declared, "properties/VkPhysicalDeviceProperties/limits");
}

static void a_shrunk_limit_is_reported(void **state)
{
    (void)state;
    cJSON *fixture = load_fixture("vulkaninfo-nvidia-h200.json");
    cJSON *declared = (cJSON *)fixture_declared(fixture);
    cJSON_ReplaceItemInObject(limits_of(declared), "maxComputeWorkGroupInvocations", cJSON_CreateNumber(64));
    cJSON *size = cJSON_GetObjectItemCaseSensitive(limits_of(declared), "maxComputeWorkGroupSize");
    cJSON_ReplaceItemInArray(size, 2, cJSON_CreateNumber(32));
    cJSON_ReplaceItemInObject(limits_of(declared), "minUniformBufferOffsetAlignment", cJSON_CreateNumber(512));
    cJSON *violations = spec_minimums_check(declared);
    assert_int_equal(count_limit(violations, "limits.maxComputeWorkGroupInvocations"), 1);
    assert_int_equal(count_limit(violations, "limits.maxComputeWorkGroupSize.2"), 1);
    assert_int_equal(count_limit(violations, "limits.minUniformBufferOffsetAlignment"), 1);
    assert_int_equal(cJSON_GetArraySize(violations), 3);
    cJSON_Delete(violations);
    cJSON_Delete(fixture);
}

static void feature_conditions_decide_whether_a_limit_applies(void **state)
{
    (void)state;
    cJSON *fixture = load_fixture("vulkaninfo-nvidia-h200.json");
    cJSON *declared = (cJSON *)fixture_declared(fixture);
    cJSON *range = cJSON_GetObjectItemCaseSensitive(limits_of(declared), "pointSizeRange");
    cJSON_ReplaceItemInArray(range, 1, cJSON_CreateNumber(8));
    cJSON *violations = spec_minimums_check(declared);
    assert_int_equal(count_limit(violations, "limits.pointSizeRange.1"), 1); /* largePoints is true */
    cJSON_Delete(violations);

    cJSON *features = (cJSON *)json_path_get(declared, "features/VkPhysicalDeviceFeatures");
    cJSON_ReplaceItemInObject(features, "largePoints", cJSON_CreateFalse());
    violations = spec_minimums_check(declared);
    assert_int_equal(cJSON_GetArraySize(violations), 0);
    cJSON_Delete(violations);
    cJSON_Delete(fixture);
}

static void sample_count_bits_must_include_the_required_ones(void **state)
{
    (void)state;
    cJSON *fixture = load_fixture("vulkaninfo-nvidia-h200.json");
    cJSON *declared = (cJSON *)fixture_declared(fixture);
    cJSON *only_one = cJSON_CreateArray();
    cJSON_AddItemToArray(only_one, cJSON_CreateString("VK_SAMPLE_COUNT_1_BIT"));
    cJSON_ReplaceItemInObject(limits_of(declared), "framebufferColorSampleCounts", only_one);
    cJSON *violations = spec_minimums_check(declared);
    assert_int_equal(count_limit(violations, "limits.framebufferColorSampleCounts"), 1);
    assert_int_equal(cJSON_GetArraySize(violations), 1);
    cJSON_Delete(violations);
    cJSON_Delete(fixture);
}

static void extension_limits_apply_only_with_the_extension(void **state)
{
    (void)state;
    cJSON *fixture = load_fixture("vulkaninfo-lavapipe-mesa-25.0.7.json");
    cJSON *declared = (cJSON *)fixture_declared(fixture);
    cJSON_DeleteItemFromObject(cJSON_GetObjectItemCaseSensitive(declared, "extensions"),
                               "VK_KHR_acceleration_structure");
    cJSON *violations = spec_minimums_check(declared);
    assert_int_equal(count_limit(violations, "VkPhysicalDeviceAccelerationStructurePropertiesKHR.maxPrimitiveCount"),
                     0);
    assert_int_equal(cJSON_GetArraySize(violations), 2);
    cJSON_Delete(violations);
    cJSON_Delete(fixture);
}

static void every_table_row_points_at_a_real_limit(void **state)
{
    (void)state;
    /* A typo in a path would silently disable a check: every row must resolve on the H200,
     * which reports every struct the table names. */
    cJSON *fixture = load_fixture("vulkaninfo-nvidia-h200.json");
    const cJSON *declared = fixture_declared(fixture);
    for (size_t i = 0; i < spec_minimums_table_size; ++i) {
        const struct spec_minimum *m = &spec_minimums_table[i];
        if (json_path_get(declared, m->path) == NULL)
            fail_msg("spec minimum row %zu: %s is not in the H200 report", i, m->path);
        if (m->feature != NULL && !cJSON_IsBool(json_path_get(declared, m->feature)))
            fail_msg("spec minimum row %zu: feature %s is not a feature", i, m->feature);
    }
    cJSON_Delete(fixture);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h200_meets_every_requirement),
        cmocka_unit_test(lavapipe_falls_short_on_ray_tracing_and_mesh_limits),
        cmocka_unit_test(a_shrunk_limit_is_reported),
        cmocka_unit_test(feature_conditions_decide_whether_a_limit_applies),
        cmocka_unit_test(sample_count_bits_must_include_the_required_ones),
        cmocka_unit_test(extension_limits_apply_only_with_the_extension),
        cmocka_unit_test(every_table_row_points_at_a_real_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
