/* The machine configuration (issue 43 item 5): its format (errors name their line), and the check
 * of a report's devices against it: the configured devices pass, lavapipe standing in for a GPU,
 * a missing GPU, a driver other than pinned and an extra device each fail, saying what differed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "driver_version.h"
#include "expectations.h"
#include "machine_config.h"

static cJSON *make_device(const char *name, const char *type, uint32_t vendor, uint32_t device_id,
                          const char *driver_id, const char *driver_name, const char *driver_info, uint32_t raw,
                          const char *scheme)
{
    cJSON *device = cJSON_CreateObject(), *identity = cJSON_AddObjectToObject(device, "identity");
    char decoded[64];
    driver_version_decode(vendor, strcmp(scheme, "nvidia") == 0 ? 4 : 0, raw, decoded, sizeof(decoded));
    cJSON_AddStringToObject(identity, "deviceName", name);
    cJSON_AddStringToObject(identity, "deviceType", type);
    cJSON_AddNumberToObject(identity, "vendorID", vendor);
    cJSON_AddNumberToObject(identity, "deviceID", device_id);
    cJSON_AddStringToObject(identity, "driverID", driver_id);
    cJSON_AddStringToObject(identity, "driverName", driver_name);
    cJSON_AddStringToObject(identity, "driverInfo", driver_info);
    cJSON_AddNumberToObject(identity, "driverVersionRaw", raw);
    cJSON_AddStringToObject(identity, "driverVersion", decoded);
    cJSON_AddStringToObject(identity, "driverVersionScheme", scheme);
    cJSON_AddArrayToObject(device, "smoke");
    return device;
}

static cJSON *h200(unsigned minor) /* NVIDIA 580.<minor>.04 */
{
    return make_device("NVIDIA H200", "VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU", 0x10de, 0x2335,
                       "VK_DRIVER_ID_NVIDIA_PROPRIETARY", "NVIDIA", "", (580u << 22) | (minor << 14) | (4u << 6),
                       "nvidia");
}

static cJSON *lavapipe(void)
{
    return make_device("llvmpipe (LLVM 15.0.6, 256 bits)", "VK_PHYSICAL_DEVICE_TYPE_CPU", 0x10005, 0,
                       "VK_DRIVER_ID_MESA_LLVMPIPE", "llvmpipe", "Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)", 1, "standard");
}

/* A report of the devices given (taken), NULL-terminated. */
static cJSON *report_of(cJSON *first, ...)
{
    cJSON *report = cJSON_CreateObject(), *devices = cJSON_AddArrayToObject(report, "devices");
    va_list list;
    va_start(list, first);
    for (cJSON *device = first; device != NULL; device = va_arg(list, cJSON *))
        cJSON_AddItemToArray(devices, device);
    va_end(list);
    return report;
}

/* Checks `report` (taken) against `config`; the problems joined by '\n' into `problems`. */
static bool check(const char *config, cJSON *report, char *problems, size_t size)
{
    char error[512] = "";
    struct machine_config *c = machine_config_parse(config, error, sizeof(error));
    if (c == NULL)
        fail_msg("%s: %s", config, error);
    cJSON *matched = cJSON_CreateArray(), *differences = cJSON_CreateArray();
    bool same = machine_config_check(c, report, matched, differences);
    problems[0] = '\0';
    const cJSON *line;
    cJSON_ArrayForEach(line, differences)
    {
        strncat(problems, cJSON_GetStringValue(line), size - strlen(problems) - 2);
        strcat(problems, "\n");
    }
    assert_int_equal(cJSON_GetArraySize(differences) == 0, same);
    cJSON_Delete(matched);
    cJSON_Delete(differences);
    cJSON_Delete(report);
    machine_config_free(c);
    return same;
}

static void malformed_configurations_name_their_line(void **state)
{
    (void)state;
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"# nothing\n\n", "line 3: the configuration names no device"},
        {"optional type=cpu\n", "names no device"},
        {"\ngpu vendor=nvidia\n", "line 2: an entry starts with device or optional, not 'gpu'"},
        {"device vendor=nvidia colour=green\n", "line 1: 'colour=green' is not KEY=VALUE"},
        {"device\ndevice driver=580.x\n", "line 2: driver='580.x' is not a driver range"},
        {"device type=gpu\n", "line 1: type='gpu' is not a device type"},
        {"device vendor=nvidia until=2027-01-01\n", "line 1: until= has no meaning"},
        {"device device=\"NVIDIA H200\n", "line 1: an unterminated quote"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        char error[512] = "";
        struct machine_config *c = machine_config_parse(cases[i].text, error, sizeof(error));
        if (c != NULL || strstr(error, cases[i].error) == NULL)
            fail_msg("%s: got '%s', want '%s'", cases[i].text, error, cases[i].error);
    }
}

static void the_configured_devices_pass(void **state)
{
    (void)state;
    char problems[2048];
    assert_true(check("device vendor=nvidia device=\"NVIDIA H200\" driver=580.159.04\n", report_of(h200(159), NULL),
                      problems, sizeof(problems)));
    assert_true(check("device\n", report_of(h200(95), NULL), problems, sizeof(problems)));
    /* two identical GPUs, two lines; lavapipe allowed beside them */
    assert_true(check("device vendor=nvidia\ndevice device_id=0x2335 reason=\"the second H200\"\noptional type=cpu\n",
                      report_of(h200(159), lavapipe(), h200(159), NULL), problems, sizeof(problems)));
    /* a CI machine that has only lavapipe, said so */
    assert_true(check("device type=cpu driver_name=llvmpipe driver=\"Mesa 25.0..\"\n", report_of(lavapipe(), NULL),
                      problems, sizeof(problems)));
    /* the broad line does not take the device the narrow one needs (a maximum matching) */
    assert_true(check("device\ndevice type=cpu\n", report_of(lavapipe(), h200(159), NULL), problems, sizeof(problems)));
}

static void lavapipe_standing_in_for_a_gpu_fails(void **state)
{
    (void)state;
    char problems[2048];
    assert_false(check("device vendor=nvidia device=\"NVIDIA H200\"\n", report_of(lavapipe(), NULL), problems,
                       sizeof(problems)));
    assert_non_null(strstr(problems, "line 1 (device vendor=nvidia device=\"NVIDIA H200\"): missing"));
    assert_non_null(strstr(problems, "device 0 \"llvmpipe (LLVM 15.0.6, 256 bits)\" (cpu, llvmpipe Mesa 25.0.7, "
                                     "vendor 0x10005 device 0x0000) is not one this machine is configured to have"));
    /* any GPU expected: lavapipe is not of the type */
    assert_false(check("device\n", report_of(lavapipe(), NULL), problems, sizeof(problems)));
    assert_non_null(strstr(problems, "line 1 (device): device 0 \"llvmpipe (LLVM 15.0.6, 256 bits)\" (cpu, "));
    assert_non_null(strstr(problems, "is not of the type expected (a GPU, not cpu)"));
    assert_false(
        check("device type=discrete driver_name=llvmpipe\n", report_of(lavapipe(), NULL), problems, sizeof(problems)));
    assert_non_null(strstr(problems, "is not of the type expected (discrete)"));
}

static void a_missing_gpu_another_driver_and_an_extra_device_fail(void **state)
{
    (void)state;
    char problems[2048];
    /* one of two GPUs lost */
    assert_false(
        check("device vendor=nvidia\ndevice vendor=nvidia\n", report_of(h200(159), NULL), problems, sizeof(problems)));
    assert_non_null(strstr(problems, "line 2 (device vendor=nvidia): missing: no device of the report matches"));
    /* the pinned driver: 580.95.05 pinned, 580.159.04 installed; a range holds it */
    assert_false(
        check("device vendor=nvidia driver=580.95.05\n", report_of(h200(159), NULL), problems, sizeof(problems)));
    assert_non_null(strstr(problems, "line 1 (device vendor=nvidia driver=580.95.05): device 0 \"NVIDIA H200\" "
                                     "(discrete, NVIDIA 580.159.04, vendor 0x10de device 0x2335) has another "
                                     "driver than pinned"));
    assert_true(
        check("device vendor=nvidia driver=580.95..580\n", report_of(h200(159), NULL), problems, sizeof(problems)));
    /* lavapipe beside the GPU, not allowed */
    assert_false(check("device vendor=nvidia\n", report_of(h200(159), lavapipe(), NULL), problems, sizeof(problems)));
    assert_non_null(strstr(problems, "device 1 \"llvmpipe"));
    assert_null(strstr(problems, "line 1"));
    /* no devices at all */
    assert_false(check("device\n", report_of(NULL), problems, sizeof(problems)));
    assert_non_null(strstr(problems, "missing"));
}

static void the_type_condition_in_expectations(void **state)
{
    (void)state;
    struct expectation x = {0};
    char error[256];
    assert_true(expectation_parse_conditions("type=cpu", 1, &x, error, sizeof(error)));
    cJSON *gpu = h200(159), *cpu = lavapipe();
    assert_false(expectation_matches_device(&x, gpu));
    assert_true(expectation_matches_device(&x, cpu));
    cJSON_Delete(gpu);
    cJSON_Delete(cpu);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(malformed_configurations_name_their_line),
        cmocka_unit_test(the_configured_devices_pass),
        cmocka_unit_test(lavapipe_standing_in_for_a_gpu_fails),
        cmocka_unit_test(a_missing_gpu_another_driver_and_an_extra_device_fail),
        cmocka_unit_test(the_type_condition_in_expectations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
