/* The report model's typed accessors, the one file reader and the fleet-limits reader that the
 * layer uses: on the probe's H200 report, on a fleet-limits file built from it, and on files that
 * are too large, missing, or hold a NUL byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fleet_limits.h"
#include "fleet_limits_read.h"
#include "json_file.h"
#include "report.h"
#include "report_model.h"
#include "report_read.h"
#include "test_support.h"

static cJSON *h200(void)
{
    char path[4096], error[512];
    snprintf(path, sizeof(path), "%s/probe-nvidia-h200.report.json", PREFLIGHT_FIXTURES_DIR);
    cJSON *r = report_load(path, error, sizeof(error));
    if (r == NULL)
        fail_msg("%s", error);
    return r;
}

static void devices_and_identity(void **state)
{
    (void)state;
    cJSON *r = h200();
    assert_int_equal(report_device_count(r), 1);
    assert_null(report_device_at(r, 1));
    const cJSON *device = report_device_at(r, 0);
    struct report_identity id = report_identity_of(device);
    assert_string_equal(id.device_name, "NVIDIA H200");
    assert_string_equal(id.device_key, "10de-2335-nvidia_proprietary");
    assert_string_equal(report_device_key(device), id.device_key);
    assert_true(id.has_vendor_id);
    assert_int_equal(id.vendor_id, 0x10de);
    assert_string_equal(report_schema(r), REPORT_SCHEMA_ID);
    size_t seen = 0;
    const cJSON *d;
    REPORT_FOR_EACH_DEVICE(d, r) seen++;
    assert_int_equal(seen, 1);
    cJSON_Delete(r);
}

static void declared_smoke_and_capabilities(void **state)
{
    (void)state;
    cJSON *r = h200();
    const cJSON *device = report_device_at(r, 0);
    const cJSON *count = cJSON_GetObjectItemCaseSensitive(report_declared_limits(device), "maxComputeWorkGroupCount");
    assert_int_equal(cJSON_GetArraySize(count), 3);
    assert_int_equal((int)cJSON_GetArrayItem(count, 1)->valuedouble, 65535);
    assert_true(report_declares_extension(device, "VK_KHR_swapchain"));
    assert_false(report_declares_extension(device, "VK_NOT_an_extension"));
    assert_int_equal(report_smoke_count(device), 36);
    struct report_smoke s;
    assert_true(report_smoke_find(device, "compute.1x1", &s));
    assert_string_equal(s.status, "pass");
    assert_non_null(s.evidence);
    assert_int_equal((int)cJSON_GetObjectItemCaseSensitive(s.evidence, "observed")->valuedouble, 1396513046);
    assert_false(report_smoke_find(device, "no.such.test", &s));
    size_t rows = 0;
    const cJSON *row;
    REPORT_FOR_EACH_CAPABILITY(row, device)
    {
        struct report_capability c = report_capability_of(row);
        assert_true(c.id[0] != '\0');
        assert_true(c.verified[0] != '\0');
        rows++;
    }
    assert_int_equal(rows, 36);
    assert_int_equal(report_spec_minimum_count(device), 0);
    cJSON_Delete(r);
}

static void absent_parts_read_as_empty(void **state)
{
    (void)state;
    cJSON *device = cJSON_Parse("{\"identity\":{\"deviceName\":7}}");
    struct report_identity id = report_identity_of(device);
    assert_string_equal(id.device_name, ""); /* not a string: absent */
    assert_string_equal(id.device_key, "");
    assert_false(id.has_vendor_id);
    assert_null(report_declared_limits(device));
    assert_int_equal(report_smoke_count(device), 0);
    assert_int_equal(report_device_count(device), 0);
    struct report_identity none = report_identity_of(NULL);
    assert_string_equal(none.driver_version, "");
    cJSON_Delete(device);
}

static char *write_temp(const char *bytes, size_t length)
{
    static char path[64];
    snprintf(path, sizeof(path), "/tmp/preflight-model-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, bytes, length), (ssize_t)length);
    close(fd);
    return path;
}

static void file_reader_limits_and_errors(void **state)
{
    (void)state;
    char error[256];
    size_t length = 0;
    assert_null(json_file_read("/nonexistent/x.json", JSON_FILE_MAX_BYTES, &length, error, sizeof(error)));
    assert_non_null(strstr(error, "cannot open"));
    const char with_nul[] = "{\"a\":1}\0{}";
    char *path = write_temp(with_nul, sizeof(with_nul) - 1);
    char *text = json_file_read(path, JSON_FILE_MAX_BYTES, &length, error, sizeof(error));
    assert_non_null(text);
    assert_int_equal(length, sizeof(with_nul) - 1); /* the NUL does not end the document early */
    free(text);
    text = json_file_read(path, 10, &length, error, sizeof(error)); /* exactly the limit */
    assert_non_null(text);
    free(text);
    assert_null(json_file_read(path, 9, &length, error, sizeof(error)));
    assert_non_null(strstr(error, "larger than"));
    /* the report reader refuses that NUL instead of reading the object before it */
    assert_null(report_load(path, error, sizeof(error)));
    unlink(path);
}

static void fleet_limits_from_a_report_and_a_fleet_file(void **state)
{
    (void)state;
    char report_path[4096], error[512];
    snprintf(report_path, sizeof(report_path), "%s/probe-nvidia-h200.report.json", PREFLIGHT_FIXTURES_DIR);
    struct fleet_compute_limits from_report;
    assert_true(fleet_compute_limits_read(report_path, &from_report, error, sizeof(error)));
    assert_true(from_report.loaded);
    assert_true(from_report.group_count[1].present);
    assert_int_equal(from_report.group_count[1].value, 65535);
    assert_non_null(strstr(from_report.group_count[1].device, "NVIDIA H200 (10de-2335-nvidia_proprietary)"));

    cJSON *r = h200();
    cJSON *fleet = fleet_limits_build(&r, 1);
    char *printed = cJSON_PrintUnformatted(fleet);
    char *fleet_path = write_temp(printed, strlen(printed));
    struct fleet_compute_limits from_fleet;
    assert_true(fleet_compute_limits_read(fleet_path, &from_fleet, error, sizeof(error)));
    for (int i = 0; i < 3; ++i) {
        assert_int_equal(from_fleet.group_count[i].value, from_report.group_count[i].value);
        assert_int_equal(from_fleet.workgroup_size[i].value, from_report.workgroup_size[i].value);
    }
    assert_int_equal(from_fleet.invocations.value, from_report.invocations.value);
    assert_non_null(strstr(from_fleet.shared_memory.device, "NVIDIA H200"));
    unlink(fleet_path);
    free(printed);
    cJSON_Delete(fleet);
    cJSON_Delete(r);

    const char *bad[][2] = {{"{\"schema\":\"preflight.fleet-limits/1\",", "malformed JSON"},
                            {"{\"schema\":\"other/1\"}", "other/1"},
                            {"[1,2]", "neither"}};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
        char *p = write_temp(bad[i][0], strlen(bad[i][0]));
        struct fleet_compute_limits t;
        assert_false(fleet_compute_limits_read(p, &t, error, sizeof(error)));
        assert_false(t.loaded);
        if (strstr(error, bad[i][1]) == NULL)
            fail_msg("error '%s' does not mention '%s'", error, bad[i][1]);
        unlink(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(devices_and_identity),
        cmocka_unit_test(declared_smoke_and_capabilities),
        cmocka_unit_test(absent_parts_read_as_empty),
        cmocka_unit_test(file_reader_limits_and_errors),
        cmocka_unit_test(fleet_limits_from_a_report_and_a_fleet_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
