/* identity_from_declared on real device data (the vulkaninfo fixtures share the layout). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "identity.h"
#include "json_path.h"
#include "test_support.h"

static const char *text(const cJSON *o, const char *key)
{
    const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
    assert_non_null(s);
    return s;
}

static void h200_identity(void **state)
{
    (void)state;
    cJSON *fixture = load_fixture("vulkaninfo-nvidia-h200.json");
    cJSON *id = identity_from_declared(fixture_declared(fixture));
    assert_string_equal(text(id, "deviceName"), "NVIDIA H200");
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(id, "vendorID")->valueint, 0x10DE);
    assert_string_equal(text(id, "driverVersion"), "580.159.4.0");
    assert_string_equal(text(id, "driverVersionScheme"), "nvidia");
    assert_string_equal(text(id, "driverID"), "VK_DRIVER_ID_NVIDIA_PROPRIETARY");
    assert_string_equal(text(id, "driverInfo"), "580.159.04");
    assert_string_equal(text(id, "conformanceVersion"), "1.4.1.3");
    assert_string_equal(text(id, "apiVersion"), "1.4.312");
    /* deviceUUID bytes 110,146,208,66,... */
    assert_string_equal(text(id, "deviceUUID"), "6e92d042-f5db-2c0f-70df-fc4595ae00fc");
    assert_string_equal(text(id, "deviceKey"), "10de-2335-nvidia_proprietary");
    cJSON_Delete(id);
    cJSON_Delete(fixture);
}

static void lavapipe_identity(void **state)
{
    (void)state;
    cJSON *fixture = load_fixture("vulkaninfo-lavapipe-mesa-25.0.7.json");
    cJSON *id = identity_from_declared(fixture_declared(fixture));
    assert_string_equal(text(id, "driverVersion"), "0.0.1");
    assert_string_equal(text(id, "driverVersionScheme"), "standard");
    assert_string_equal(text(id, "deviceKey"), "10005-0000-mesa_llvmpipe");
    assert_string_equal(text(id, "deviceUUID"), "6d657361-3235-2e30-2e37-2d327e627000");
    cJSON_Delete(id);
    cJSON_Delete(fixture);
}

static void missing_structs_give_nulls_not_crashes(void **state)
{
    (void)state;
    cJSON *declared = cJSON_Parse("{\"properties\":{\"VkPhysicalDeviceProperties\":{\"vendorID\":4318,"
                                  "\"deviceID\":1,\"apiVersion\":4198400,\"driverVersion\":0}}}");
    cJSON *id = identity_from_declared(declared);
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(id, "deviceUUID")));
    assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(id, "driverID")));
    assert_string_equal(text(id, "apiVersion"), "1.1.0");
    assert_string_equal(text(id, "deviceKey"), "10de-0001-unknown");
    cJSON_Delete(id);
    cJSON_Delete(declared);
}

/* The fuzzer's find: numbers no uint32_t holds were cast from double (undefined behaviour). They
 * read as 0, and the rest of the identity is still made. */
static void out_of_range_numbers_read_as_zero(void **state)
{
    (void)state;
    cJSON *declared =
        cJSON_Parse("{\"properties\":{\"VkPhysicalDeviceProperties\":{\"vendorID\":1e300,\"deviceID\":-7,"
                    "\"apiVersion\":1e999,\"driverVersion\":4294967296,\"deviceName\":\"x\"},"
                    "\"VkPhysicalDeviceDriverProperties\":{\"conformanceVersion\":{\"major\":-1e308,\"minor\":2,"
                    "\"subminor\":1e20,\"patch\":3}}}}");
    assert_non_null(declared);
    cJSON *id = identity_from_declared(declared);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(id, "vendorID")->valuedouble, 0);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(id, "deviceID")->valuedouble, 0);
    assert_string_equal(text(id, "apiVersion"), "0.0.0");
    assert_string_equal(text(id, "conformanceVersion"), "0.2.0.3");
    assert_string_equal(text(id, "deviceKey"), "0000-0000-unknown");
    cJSON_Delete(id);
    cJSON_Delete(declared);
}

static void json_numbers_saturate(void **state)
{
    (void)state;
    cJSON *doc = cJSON_Parse("[4294967295, 4294967296, -0.5, 12.75, 1e999, -1e999, 9.3e18, \"7\"]");
    assert_non_null(doc);
    uint32_t u = 99;
    assert_true(json_number_u32(cJSON_GetArrayItem(doc, 0), &u));
    assert_int_equal(u, 4294967295u);
    assert_false(json_number_u32(cJSON_GetArrayItem(doc, 1), &u));
    assert_false(json_number_u32(cJSON_GetArrayItem(doc, 2), &u));
    assert_true(json_number_u32(cJSON_GetArrayItem(doc, 3), &u));
    assert_int_equal(u, 12);
    assert_false(json_number_u32(cJSON_GetArrayItem(doc, 4), &u));
    assert_false(json_number_u32(cJSON_GetArrayItem(doc, 7), &u));
    assert_true(json_number_i64(cJSON_GetArrayItem(doc, 4), 0) == INT64_MAX);
    assert_true(json_number_i64(cJSON_GetArrayItem(doc, 5), 0) == INT64_MIN);
    assert_true(json_number_i64(cJSON_GetArrayItem(doc, 6), 0) == INT64_MAX);
    assert_true(json_number_i64(cJSON_GetArrayItem(doc, 7), -1) == -1);
    assert_true(json_number_i64(cJSON_GetArrayItem(doc, 3), 0) == 12);
    cJSON_Delete(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h200_identity),
        cmocka_unit_test(lavapipe_identity),
        cmocka_unit_test(missing_structs_give_nulls_not_crashes),
        cmocka_unit_test(out_of_range_numbers_read_as_zero),
        cmocka_unit_test(json_numbers_saturate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
