/* identity_from_declared on real device data (the vulkaninfo fixtures share the layout). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "identity.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(h200_identity),
        cmocka_unit_test(lavapipe_identity),
        cmocka_unit_test(missing_structs_give_nulls_not_crashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
