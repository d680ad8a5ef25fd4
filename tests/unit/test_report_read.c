/* The report reader: real reports and vulkaninfo files load; malformed or wrong-schema input is
 * refused with a message that names the place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "json_strict.h"
#include "report.h"
#include "report_read.h"
#include <stdlib.h>
#include <unistd.h>
#include "test_support.h"

static void expect_refused(const char *text, const char *message_part)
{
    char error[512] = "";
    cJSON *r = report_parse(text, strlen(text), "input.json", error, sizeof(error));
    assert_null(r);
    if (strstr(error, message_part) == NULL)
        fail_msg("error '%s' does not mention '%s'", error, message_part);
}

static void probe_reports_load(void **state)
{
    (void)state;
    char path[4096], error[512];
    snprintf(path, sizeof(path), "%s/probe-nvidia-h200.report.json", PREFLIGHT_FIXTURES_DIR);
    cJSON *r = report_load(path, error, sizeof(error));
    assert_non_null(r);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r, "devices")), 1);
    cJSON_Delete(r);
}

static void vulkaninfo_files_become_declared_only_devices(void **state)
{
    (void)state;
    char path[4096], error[512];
    snprintf(path, sizeof(path), "%s/vulkaninfo-nvidia-h200.json", PREFLIGHT_FIXTURES_DIR);
    cJSON *r = report_load(path, error, sizeof(error));
    assert_non_null(r);
    const cJSON *device = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "devices"), 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(device, "source")), "vulkaninfo");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(device, "smoke")), 0);
    const cJSON *identity = cJSON_GetObjectItemCaseSensitive(device, "identity");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(identity, "deviceKey")),
                        "10de-2335-nvidia_proprietary");
    cJSON_Delete(r);
}

static void malformed_and_foreign_input_is_refused(void **state)
{
    (void)state;
    expect_refused("", "malformed JSON");
    expect_refused("{\"schema\": \"preflight.report/1\", \"devices\": [", "malformed JSON");
    expect_refused("[1, 2, 3]", "not a JSON object");
    expect_refused("{\"devices\": []}", "missing: not a preflight report");
    expect_refused("{\"schema\": \"preflight.report/2\", \"devices\": []}", "not preflight.report/1");
    expect_refused("{\"schema\": \"preflight.report/1\"}", "devices");
    expect_refused("{\"schema\": \"preflight.report/1\", \"devices\": [42]}", "devices[0]: not an object");
    expect_refused("{\"schema\": \"preflight.report/1\", \"devices\": [{\"identity\": {}}]}", "devices[0].declared");
    expect_refused("{\"$schema\": \"https://schema.khronos.org/vulkan/profiles-0.8-latest.json\"}",
                   "without capabilities.device.properties");
}

static void a_bad_verdict_is_named_with_its_place(void **state)
{
    (void)state;
    cJSON *r = load_fixture("probe-lavapipe.report.json");
    cJSON *entry =
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
                               cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(r, "devices"), 0), "smoke"),
                           2);
    cJSON_ReplaceItemInObject(entry, "status", cJSON_CreateString("passed"));
    char *text = cJSON_PrintUnformatted(r);
    expect_refused(text, "devices[0].smoke[2].status: 'passed' is not a verdict");
    cJSON_free(text);
    cJSON_Delete(r);
}

static void a_missing_file_says_so(void **state)
{
    (void)state;
    char error[512];
    assert_null(report_load("/nonexistent/report.json", error, sizeof(error)));
    assert_non_null(strstr(error, "cannot open"));
}

/* What cJSON alone accepts and RFC 8259 (and Python's parser, by default or with its strict
 * options) does not: each refused with the byte and the problem. */
static void strict_json_only(void **state)
{
    (void)state;
    expect_refused("{\"schema\": \"preflight.report/1\", \"devices\": []} trailing", "trailing garbage");
    expect_refused("{\"schema\": \"preflight.report/1\", \"schema\": \"x\", \"devices\": []}",
                   "the key \"schema\" appears twice");
    /* the same key written two ways is still the same key */
    expect_refused("{\"a\": 1, \"\\u0061\": 2}", "appears twice");
    expect_refused("{\"schema\": \"pre\\u0000flight\"}", "NUL");
    const char raw_nul[] = "{\"schema\": \"pre\0flight\"}";
    char error[512] = "";
    assert_null(report_parse(raw_nul, sizeof(raw_nul) - 1, "input.json", error, sizeof(error)));
    assert_non_null(strstr(error, "NUL byte"));
    expect_refused("{\"name\": \"GPU \xff\xfe\"}", "not UTF-8");
    expect_refused("{\"name\": \"\xc0\xaf\"}", "not UTF-8");     /* an overlong '/' */
    expect_refused("{\"name\": \"\xed\xa0\x80\"}", "not UTF-8"); /* a surrogate in UTF-8 */
    expect_refused("{\"name\": \"\\ud800\"}", "surrogate");
    expect_refused("{\"limit\": 1e999}", "out of range");
    expect_refused("{\"limit\": -1e999}", "out of range");
    expect_refused("{\"name\": \"tab\there\"}", "control character");
    expect_refused("{\"n\": 01}", "',' or '}' expected");
    expect_refused("[1, 2,]", "not a JSON value");
    /* nesting past the limit names the problem, not a byte deep inside */
    char deep[2 * (JSON_STRICT_MAX_DEPTH + 10) + 1];
    size_t n = 0;
    for (int i = 0; i < JSON_STRICT_MAX_DEPTH + 5; ++i)
        deep[n++] = '[';
    for (int i = 0; i < JSON_STRICT_MAX_DEPTH + 5; ++i)
        deep[n++] = ']';
    deep[n] = '\0';
    expect_refused(deep, "too deep");
    /* and valid text still passes the check: escapes, astral characters through surrogate pairs */
    const char *good = "{\"a\": \"\\ud83d\\ude00 \xc3\xa9\", \"b\": [1.5e3, -0, true, null]}";
    if (!json_strict_check(good, strlen(good), error, sizeof(error)))
        fail_msg("valid JSON refused: %s", error);
}

/* Whatever bytes a driver puts in its strings, the report written is strict JSON (U+FFFD in place). */
static void written_reports_are_valid_utf8(void **state)
{
    (void)state;
    cJSON *r = report_new("test");
    cJSON *device = cJSON_CreateObject();
    cJSON_AddStringToObject(device, "deviceName", "GPU \xff\xfe end \xe2\x82");
    cJSON_AddStringToObject(device, "ok", "caf\xc3\xa9");
    cJSON_AddItemToArray(report_devices(r), device);
    char path[] = "/tmp/preflight-utf8-XXXXXX", error[512];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_true(report_write(r, path, false, error, sizeof(error)));
    cJSON_Delete(r);
    FILE *f = fopen(path, "rb");
    char text[4096];
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    unlink(path);
    text[n] = '\0';
    if (!json_strict_check(text, n, error, sizeof(error)))
        fail_msg("the written report is not strict JSON: %s", error);
    assert_non_null(strstr(text, "GPU \xef\xbf\xbd\xef\xbf\xbd end \xef\xbf\xbd\xef\xbf\xbd"));
    assert_non_null(strstr(text, "caf\xc3\xa9"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(probe_reports_load),
        cmocka_unit_test(vulkaninfo_files_become_declared_only_devices),
        cmocka_unit_test(malformed_and_foreign_input_is_refused),
        cmocka_unit_test(a_bad_verdict_is_named_with_its_place),
        cmocka_unit_test(a_missing_file_says_so),
        cmocka_unit_test(strict_json_only),
        cmocka_unit_test(written_reports_are_valid_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
