/* Release gates: the requirements format (with line numbers in errors) and its evaluation on
 * the real lavapipe and H200 reports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gate.h"
#include "report_model.h"
#include "test_support.h"

static const cJSON *device_of(const cJSON *report)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(report, "devices"), 0);
}

static void malformed_lines_are_named(void **state)
{
    (void)state;
    char error[256];
    assert_null(gate_parse("compute.1x1 must pass\n\nvrs.* pass or sometimes\n", error, sizeof(error)));
    assert_non_null(strstr(error, "line 3: 'sometimes' is not a verdict"));
    assert_null(gate_parse("maxComputeSharedMemorySize >= lots\n", error, sizeof(error)));
    assert_non_null(strstr(error, "line 1: 'lots' is not a number"));
    assert_null(gate_parse("# only a comment\n\n", error, sizeof(error)));
    assert_non_null(strstr(error, "no requirements"));
    assert_null(gate_parse("compute.1x1 pass or\n", error, sizeof(error)));
    assert_non_null(strstr(error, "line 1: a verdict is missing"));
}

static const char requirements[] = "# what we ship on\n"
                                   "compute.1x1 must pass\n"
                                   "compute.* pass\n"
                                   "vrs.pipeline.2x2 pass or unsupported\n"
                                   "maxComputeSharedMemorySize >= 32768\n"
                                   "VkPhysicalDeviceSubgroupProperties.subgroupSize >= 8\n"
                                   "feature shaderInt64\n"
                                   "extension VK_KHR_dynamic_rendering\n";

static void both_devices_meet_a_shared_gate(void **state)
{
    (void)state;
    char error[256];
    struct gate *g = gate_parse(requirements, error, sizeof(error));
    assert_non_null(g);
    assert_int_equal(gate_rule_count(g), 7);
    const char *names[] = {"probe-lavapipe.report.json", "probe-nvidia-h200.report.json"};
    for (int i = 0; i < 2; ++i) {
        cJSON *report = load_fixture(names[i]);
        cJSON *failures = cJSON_CreateArray();
        bool ok = gate_evaluate(g, device_of(report), failures);
        if (!ok)
            fail_msg("%s: %s", names[i], cJSON_PrintUnformatted(failures));
        cJSON_Delete(failures);
        cJSON_Delete(report);
    }
    gate_free(g);
}

static void a_device_that_misses_requirements_fails_with_reasons(void **state)
{
    (void)state;
    char error[256];
    struct gate *g = gate_parse("ray_query.* must pass\nmaxComputeSharedMemorySize >= 49152\n"
                                "extension VK_KHR_fragment_shading_rate\nspec_minimums none\n",
                                error, sizeof(error));
    assert_non_null(g);
    cJSON *lavapipe = load_fixture("probe-lavapipe.report.json");
    cJSON *failures = cJSON_CreateArray();
    assert_false(gate_evaluate(g, device_of(lavapipe), failures));
    assert_int_equal(cJSON_GetArraySize(failures), 3); /* shared memory, VRS extension, spec minimums */
    assert_non_null(
        strstr(cJSON_GetArrayItem(failures, 0)->valuestring, "line 2: maxComputeSharedMemorySize is 32768"));
    cJSON_Delete(failures);

    cJSON *h200 = load_fixture("probe-nvidia-h200.report.json");
    failures = cJSON_CreateArray();
    assert_false(gate_evaluate(g, device_of(h200), failures));
    assert_int_equal(cJSON_GetArraySize(failures), 3); /* three ray query tests unsupported */
    assert_non_null(strstr(cJSON_GetArrayItem(failures, 0)->valuestring, "ray_query.triangle is unsupported"));
    cJSON_Delete(failures);
    cJSON_Delete(lavapipe);
    cJSON_Delete(h200);
    gate_free(g);
}

static void names_a_report_declares_are_accepted(void **state)
{
    (void)state;
    char error[512];
    /* issue 43: an extension every device declares, newer than the vk.xml this was built with */
    struct gate *g = gate_parse("extension VK_KHR_future_feature\nfeature futureFeature\n", error, sizeof(error));
    assert_non_null(g);
    cJSON *lavapipe = load_fixture("probe-lavapipe.report.json");
    const cJSON *devices[] = {device_of(lavapipe)};
    assert_false(gate_check_tests(g, devices, 1, error, sizeof(error)));
    assert_non_null(strstr(error, "line 1: 'VK_KHR_future_feature' is not an extension Vulkan defines, nor one any "
                                  "report declares (misspelt?)"));
    cJSON *device = (cJSON *)devices[0];
    cJSON_AddNumberToObject((cJSON *)report_declared_extensions(device), "VK_KHR_future_feature", 1);
    assert_false(gate_check_tests(g, devices, 1, error, sizeof(error)));
    assert_non_null(strstr(error, "line 2: 'futureFeature' is not a feature"));
    cJSON *features = cJSON_CreateObject();
    cJSON_AddTrueToObject(features, "futureFeature");
    cJSON_AddItemToObject((cJSON *)report_declared_features(device), "VkPhysicalDeviceFutureFeaturesKHR", features);
    assert_true(gate_check_tests(g, devices, 1, error, sizeof(error)));
    cJSON *failures = cJSON_CreateArray();
    assert_true(gate_evaluate(g, devices[0], failures));
    cJSON_Delete(failures);
    gate_free(g);
    cJSON_Delete(lavapipe);
}

static void bare_limit_names_of_several_structs_are_refused(void **state)
{
    (void)state;
    char error[512];
    assert_null(gate_parse("compute.1x1 must pass\nmaxTaskWorkGroupInvocations >= 128\n", error, sizeof(error)));
    assert_non_null(strstr(error, "line 2: 'maxTaskWorkGroupInvocations' is a member of 2 structs"));
    assert_non_null(strstr(error, "VkPhysicalDeviceMeshShaderPropertiesEXT.maxTaskWorkGroupInvocations"));
    assert_non_null(strstr(error, "VkPhysicalDeviceMeshShaderPropertiesNV.maxTaskWorkGroupInvocations"));
    assert_non_null(strstr(error, "name one as Struct.member"));
    struct gate *g = gate_parse("VkPhysicalDeviceMeshShaderPropertiesEXT.maxTaskWorkGroupInvocations >= 128\n", error,
                                sizeof(error));
    assert_non_null(g);
    gate_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(malformed_lines_are_named),
        cmocka_unit_test(both_devices_meet_a_shared_gate),
        cmocka_unit_test(a_device_that_misses_requirements_fails_with_reasons),
        cmocka_unit_test(names_a_report_declares_are_accepted),
        cmocka_unit_test(bare_limit_names_of_several_structs_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
