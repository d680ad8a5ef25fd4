/* Expectations per device: the format (errors name their line), device patterns with driver ranges
 * ordered by each vendor's version scheme, globs, expiry, Mesa CI's lists imported, and the gate
 * that fails only on what is not expected and lists unexpected passes and expired entries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "expectations.h"
#include "expectations_import.h"
#include "gate.h"
#include "gate_report.h"

/* A report's device: its identity and smoke results ("id=status" pairs). */
static cJSON *make_device(const char *name, uint32_t vendor, uint32_t device_id, const char *driver_id,
                          const char *driver_name, const char *driver_info, uint32_t raw, const char *scheme,
                          const char *os, const char *const *smoke)
{
    cJSON *device = cJSON_CreateObject(), *identity = cJSON_AddObjectToObject(device, "identity");
    char decoded[64];
    driver_version_decode(vendor, strcmp(scheme, "nvidia") == 0 ? 4 : 0, raw, decoded, sizeof(decoded));
    cJSON_AddStringToObject(identity, "deviceName", name);
    cJSON_AddNumberToObject(identity, "vendorID", vendor);
    cJSON_AddNumberToObject(identity, "deviceID", device_id);
    cJSON_AddStringToObject(identity, "driverID", driver_id);
    cJSON_AddStringToObject(identity, "driverName", driver_name);
    cJSON_AddStringToObject(identity, "driverInfo", driver_info);
    cJSON_AddNumberToObject(identity, "driverVersionRaw", raw);
    cJSON_AddStringToObject(identity, "driverVersion", decoded);
    cJSON_AddStringToObject(identity, "driverVersionScheme", scheme);
    cJSON_AddStringToObject(identity, "os", os);
    cJSON_AddStringToObject(identity, "deviceKey", "test-key");
    cJSON *results = cJSON_AddArrayToObject(device, "smoke");
    for (size_t i = 0; smoke != NULL && smoke[i] != NULL; ++i) {
        char id[128];
        const char *equals = strchr(smoke[i], '=');
        snprintf(id, sizeof(id), "%.*s", (int)(equals - smoke[i]), smoke[i]);
        cJSON *entry = cJSON_CreateObject();
        cJSON_AddStringToObject(entry, "id", id);
        cJSON_AddStringToObject(entry, "status", equals + 1);
        cJSON_AddStringToObject(entry, "reason", strcmp(equals + 1, "pass") ? "wrong result" : "");
        cJSON_AddItemToArray(results, entry);
    }
    return device;
}

static uint32_t nvidia_raw(unsigned major, unsigned minor, unsigned secondary)
{
    return (major << 22) | (minor << 14) | (secondary << 6);
}

static uint32_t standard_raw(unsigned major, unsigned minor, unsigned patch)
{
    return (major << 22) | (minor << 12) | patch;
}

static cJSON *nvidia(uint32_t raw)
{
    return make_device("NVIDIA H200", 0x10de, 0x2335, "VK_DRIVER_ID_NVIDIA_PROPRIETARY", "NVIDIA", "", raw, "nvidia",
                       "Ubuntu 24.04.3 LTS", NULL);
}

static cJSON *mali(uint32_t raw)
{
    return make_device("Mali-G78", 0x13b5, 0x92020010, "VK_DRIVER_ID_ARM_PROPRIETARY", "Mali", "", raw, "standard",
                       "Android 14", NULL);
}

static cJSON *lavapipe(const char *mesa, const char *const *smoke)
{
    return make_device("llvmpipe (LLVM 15.0.6, 256 bits)", 0x10005, 0, "VK_DRIVER_ID_MESA_LLVMPIPE", "llvmpipe", mesa,
                       1, "standard", "Debian GNU/Linux 12 (bookworm)", smoke);
}

static bool matches(const char *conditions, cJSON *device)
{
    struct expectation x = {0};
    char error[256];
    if (!expectation_parse_conditions(conditions, 1, &x, error, sizeof(error)))
        fail_msg("%s: %s", conditions, error);
    bool result = expectation_matches_device(&x, device);
    cJSON_Delete(device);
    return result;
}

static void malformed_lines_name_their_line(void **state)
{
    (void)state;
    static const struct {
        const char *text, *error;
    } cases[] = {
        {"# known\n\nbroken compute.* reason=x\n", "line 3: an entry starts with its kind"},
        {"fail compute.*\n", "line 1: reason= is missing"},
        {"fail\n", "line 1: the test glob"},
        {"\nfail compute.* colour=red reason=x\n", "line 2: 'colour=red' is not KEY=VALUE"},
        {"fail compute.* reason=x until=2027-13-01\n", "line 1: until='2027-13-01' is not a date"},
        {"fail compute.* reason=x until=tomorrow\n", "line 1: until='tomorrow' is not a date"},
        {"fail compute.* driver=580.x reason=x\n", "line 1: driver='580.x' is not a driver range"},
        {"fail compute.* driver=.. reason=x\n", "line 1: driver='..' is not a driver range"},
        {"fail compute.* vendor=matrox reason=x\n", "line 1: vendor='matrox' is not a vendor ID"},
        {"fail compute.* reason=\"no end\n", "line 1: an unterminated quote"},
        {"skip a reason=x reason=y\n", "line 1: reason= is given twice"},
        {"flake a device_id=-1 reason=x\n", "line 1: device_id='-1' is not a device ID"},
        {"flake a reason=x os=\n", "line 1: os='' is not a glob"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        char error[512] = "";
        struct expectations *e = expectations_parse(cases[i].text, error, sizeof(error));
        if (e != NULL || strstr(error, cases[i].error) == NULL)
            fail_msg("%s: got '%s', want '%s'", cases[i].text, error, cases[i].error);
    }
}

static void well_formed_entries_parse(void **state)
{
    (void)state;
    char error[256];
    struct expectations *e = expectations_parse(
        "# the team's file\n"
        "fail  vrs.pipeline.*  vendor=nvidia device=\"NVIDIA H*\" driver=580.65..580.95.05 reason=\"ticket 123: "
        "wrong \\\"rate\\\"\" until=2027-03-31\n"
        "   \n"
        "flake compute.atomics vendor=0x13b5 driver=r38..r40 os=android* reason=PF-7\n"
        "skip  ray_*           driver_name=llvmpipe reason=\"hangs the CI runner\"\n",
        error, sizeof(error));
    assert_non_null(e);
    assert_int_equal(expectations_count(e), 3);
    const struct expectation *x = expectations_at(e, 0);
    assert_int_equal(x->kind, EXPECTATION_FAIL);
    assert_int_equal(x->line, 2);
    assert_string_equal(x->test, "vrs.pipeline.*");
    assert_string_equal(x->reason, "ticket 123: wrong \"rate\"");
    assert_string_equal(x->until, "2027-03-31");
    assert_int_equal(x->vendor_id, 0x10de);
    assert_string_equal(x->device, "NVIDIA H*");
    assert_int_equal(expectations_at(e, 1)->kind, EXPECTATION_FLAKE);
    assert_int_equal(expectations_at(e, 1)->line, 4);
    assert_int_equal(expectations_at(e, 2)->kind, EXPECTATION_SKIP);
    expectations_free(e);
    e = expectations_parse("# nothing expected yet\n", error, sizeof(error));
    assert_non_null(e);
    assert_int_equal(expectations_count(e), 0);
    expectations_free(e);
}

/* NVIDIA packs 10.8.8.6 bits: 580.105.08 comes after 580.95.05, though "580.105" < "580.95" as text. */
static void nvidia_ranges_follow_nvidias_scheme(void **state)
{
    (void)state;
    assert_true(matches("driver=580.65..580.95.05", nvidia(nvidia_raw(580, 95, 5))));
    assert_true(matches("driver=580.65..580.95.05", nvidia(nvidia_raw(580, 65, 6))));
    assert_false(matches("driver=580.65..580.95.05", nvidia(nvidia_raw(580, 105, 8))));
    assert_false(matches("driver=580.65..580.95.05", nvidia(nvidia_raw(580, 9, 0))));
    assert_false(matches("driver=580.65..580.95.05", nvidia(nvidia_raw(580, 95, 6))));
    assert_true(matches("driver=580.105..", nvidia(nvidia_raw(580, 105, 8))));
    assert_true(matches("driver=580", nvidia(nvidia_raw(580, 159, 4))));
    assert_false(matches("driver=..575", nvidia(nvidia_raw(580, 9, 0))));
    assert_true(matches("driver=580.159.04", nvidia(0x9127c100))); /* the H200 fixture's 580.159.4.0 */
}

static void arm_mesa_intel_and_qualcomm_schemes(void **state)
{
    (void)state;
    /* Arm: r38p1 is 38.1.0 in the API layout; r38..r40 holds every r40pN */
    assert_true(matches("vendor=arm driver=r38..r40", mali(standard_raw(38, 1, 0))));
    assert_true(matches("vendor=arm driver=r38..r40", mali(standard_raw(40, 2, 0))));
    assert_false(matches("vendor=arm driver=r38..r40", mali(standard_raw(41, 0, 0))));
    assert_false(matches("vendor=arm driver=r38p2..", mali(standard_raw(38, 1, 0))));
    /* Mesa drivers by their Mesa version: lavapipe's driverVersion is 0.0.1 for every Mesa */
    assert_true(matches("driver=25.0..25.1", lavapipe("Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)", NULL)));
    assert_true(matches("driver=\"Mesa 25.0.7\"", lavapipe("Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)", NULL)));
    assert_false(matches("driver=24.2", lavapipe("Mesa 25.0.7 (LLVM 15.0.6)", NULL)));
    assert_false(matches("driver=25.0.8..", lavapipe("Mesa 25.0.7 (LLVM 15.0.6)", NULL)));
    /* Intel's Windows driver: 18.14 bits, 101.4146 */
    cJSON *intel = make_device("Intel Arc A770", 0x8086, 0x56a0, "VK_DRIVER_ID_INTEL_PROPRIETARY_WINDOWS", "Intel", "",
                               (101u << 14) | 4146u, "intel-windows", "Windows 11", NULL);
    assert_true(matches("driver=101.4000..101.4146", cJSON_Duplicate(intel, 1)));
    assert_false(matches("driver=101.5000..", intel));
    /* Qualcomm's newer layout: 512.744.0 */
    cJSON *adreno = make_device("Adreno (TM) 740", 0x5143, 0x43050a01, "VK_DRIVER_ID_QUALCOMM_PROPRIETARY", "Qualcomm",
                                "", 0x80000000u | (744u << 12), "qualcomm", "Android 14", NULL);
    assert_true(matches("vendor=qualcomm driver=512.700..512.800", cJSON_Duplicate(adreno, 1)));
    assert_false(matches("driver=..512.743", adreno));
}

static void device_globs_ids_and_os(void **state)
{
    (void)state;
    assert_true(matches("device=\"nvidia h*\"", nvidia(1))); /* device names compare without case */
    assert_false(matches("device=\"*RTX*\"", nvidia(1)));
    assert_true(matches("vendor=0x10de device_id=0x2335", nvidia(1)));
    assert_false(matches("vendor=nvidia device_id=0x2330", nvidia(1)));
    assert_false(matches("vendor=amd", nvidia(1)));
    assert_true(matches("os=ubuntu*", nvidia(1)));
    assert_false(matches("os=windows*", nvidia(1)));
    assert_true(matches("driver_name=llvm*", lavapipe("Mesa 25.0.7", NULL)));
    assert_true(matches("vendor=mesa device_key=test-*", lavapipe("Mesa 25.0.7", NULL)));
    assert_true(matches("", nvidia(1))); /* no conditions: every device */
}

static void test_globs_expiry_and_what_an_entry_excuses(void **state)
{
    (void)state;
    char error[256];
    struct expectations *e = expectations_parse("fail compute.atomics* reason=old until=2026-01-01\n"
                                                "flake compute.atomics_int64 reason=PF-1\n"
                                                "skip ray_query.* vendor=nvidia reason=PF-2\n",
                                                error, sizeof(error));
    assert_non_null(e);
    cJSON *device = lavapipe("Mesa 25.0.7", NULL);
    /* until is the last day it holds */
    assert_ptr_equal(expectations_find(e, device, "compute.atomics", "2026-01-01"), expectations_at(e, 0));
    assert_null(expectations_find(e, device, "compute.atomics", "2026-01-02"));
    assert_ptr_equal(expectations_find(e, device, "compute.atomics_int64", "2026-01-02"), expectations_at(e, 1));
    assert_null(expectations_find(e, device, "compute.barrier", "2026-01-01"));
    assert_null(expectations_find(e, device, "ray_query.flow", "2026-01-01")); /* not an NVIDIA */
    assert_true(expectation_excuses(expectations_at(e, 0), "crashed"));
    assert_true(expectation_excuses(expectations_at(e, 0), "flaky"));
    assert_false(expectation_excuses(expectations_at(e, 0), "pass"));
    assert_false(expectation_excuses(expectations_at(e, 1), "skipped"));
    assert_true(expectation_excuses(expectations_at(e, 2), "pass"));
    cJSON *expired = cJSON_CreateArray();
    expectations_expired(e, "2026-06-30", expired);
    assert_int_equal(cJSON_GetArraySize(expired), 1);
    assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItem(cJSON_GetArrayItem(expired, 0), "line")), 1);
    cJSON_Delete(expired);
    cJSON_Delete(device);
    expectations_free(e);
}

static void regexes_become_globs(void **state)
{
    (void)state;
    static const struct {
        const char *regex, *glob;
    } cases[] = {
        {"dEQP-VK.api.copy_and_blit.*", "dEQP-VK.api.copy_and_blit*"}, /* as the regex says */
        {"^dEQP-VK\\.texture\\..*$", "dEQP-VK.texture.*"},
        {"dEQP-VK.ssbo.layout.+std430", "dEQP-VK.ssbo.layout?*std430"},
        {"dEQP-VK.spirv_assembly.[^a].*", "dEQP-VK.spirv_assembly.[!a]*"},
        {"KHR-GL46.shader_\\*", "KHR-GL46.shader_\\*"},
    };
    char glob[160];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        assert_true(expectations_regex_to_glob(cases[i].regex, glob, sizeof(glob)));
        assert_string_equal(glob, cases[i].glob);
    }
    assert_false(expectations_regex_to_glob("dEQP-VK.(a|b).x", glob, sizeof(glob)));
    assert_false(expectations_regex_to_glob("dEQP-VK.a{2}", glob, sizeof(glob)));
    assert_false(expectations_regex_to_glob("dEQP-VK\\d", glob, sizeof(glob)));
}

static char *import(enum expectation_kind kind, const char *text, const char *conditions, bool *ok, char *error)
{
    char *buffer = NULL;
    size_t length = 0, written = 0;
    FILE *out = open_memstream(&buffer, &length);
    *ok = expectations_import_mesa(kind, text, "ci/lvp-fails.txt", conditions, "", NULL, out, &written, error, 256);
    fclose(out);
    return buffer;
}

static void mesa_lists_import(void **state)
{
    (void)state;
    char error[256];
    bool ok;
    struct {
        enum expectation_kind kind;
        const char *text;
    } lists[] = {
        {EXPECTATION_FAIL, "# lavapipe\ncompute.atomics,Fail\n\ncompute.barrier,Crash\n"},
        {EXPECTATION_FLAKE, "compute.storage_image.r.*\n"},
        {EXPECTATION_SKIP, "# too slow\n^ray_query\\..*$\n"},
    };
    char *all = calloc(1, 1);
    for (size_t i = 0; i < 3; ++i) {
        char *text = import(lists[i].kind, lists[i].text, "vendor=mesa driver=25.0..", &ok, error);
        assert_true(ok);
        all = realloc(all, strlen(all) + strlen(text) + 1);
        strcat(all, text);
        free(text);
    }
    struct expectations *e = expectations_parse(all, error, sizeof(error));
    if (e == NULL)
        fail_msg("%s\n%s", error, all);
    assert_int_equal(expectations_count(e), 4);
    assert_string_equal(expectations_at(e, 1)->test, "compute.barrier");
    assert_string_equal(expectations_at(e, 1)->reason, "lvp-fails.txt line 4: Crash");
    assert_int_equal(expectations_at(e, 2)->kind, EXPECTATION_FLAKE);
    assert_string_equal(expectations_at(e, 3)->test, "ray_query.*");
    cJSON *device = lavapipe("Mesa 25.0.7", NULL), *older = lavapipe("Mesa 24.2.8", NULL);
    assert_non_null(expectations_find(e, device, "compute.storage_image.rgba8", "2026-12-07"));
    assert_null(expectations_find(e, older, "compute.atomics", "2026-12-07"));
    assert_non_null(expectations_find(e, device, "ray_query.flow", "2026-12-07"));
    cJSON_Delete(device);
    cJSON_Delete(older);
    expectations_free(e);
    free(all);
    free(import(EXPECTATION_FAIL, "ok,Fail\njust-a-name\n", "", &ok, error));
    assert_false(ok);
    assert_non_null(strstr(error, "ci/lvp-fails.txt line 2: not TEST,RESULT"));
    free(import(EXPECTATION_SKIP, "a.*\n(b|c)\n", "", &ok, error));
    assert_false(ok);
    assert_non_null(strstr(error, "line 2: '(b|c)' cannot be written as a test glob"));
}

static void the_gate_fails_only_on_what_is_not_expected(void **state)
{
    (void)state;
    static const char *const smoke[] = {"compute.1x1=pass",      "compute.atomics=fail",    "compute.barrier=crashed",
                                        "compute.subgroup=fail", "vrs.dynamic=unsupported", NULL};
    cJSON *device = lavapipe("Mesa 25.0.7", smoke);
    char error[256];
    struct gate *g = gate_parse("compute.* must pass\nvrs.* pass or unsupported\n", error, sizeof(error));
    assert_non_null(g);
    struct expectations *e = expectations_parse("fail compute.atomics vendor=mesa reason=PF-1\n"
                                                "flake compute.barrier reason=PF-2\n"
                                                "fail compute.1x1 reason=\"fixed since?\"\n"
                                                "fail compute.subgroup reason=PF-3 until=2026-01-01\n",
                                                error, sizeof(error));
    assert_non_null(e);
    const cJSON *devices[] = {device};
    cJSON *result = gate_report_build(g, e, "2026-12-07", devices, 1);
    const cJSON *row = cJSON_GetArrayItem(cJSON_GetObjectItem(result, "devices"), 0);
    /* compute.subgroup's entry expired: it fails the gate again */
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(row, "pass")));
    const cJSON *failures = cJSON_GetObjectItem(row, "failures");
    assert_int_equal(cJSON_GetArraySize(failures), 1);
    assert_non_null(strstr(cJSON_GetArrayItem(failures, 0)->valuestring, "compute.subgroup is fail"));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(row, "expected")), 2);
    const cJSON *passes = cJSON_GetObjectItem(row, "unexpectedPasses");
    assert_int_equal(cJSON_GetArraySize(passes), 1);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetArrayItem(passes, 0), "test")),
                        "compute.1x1");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(result, "expired")), 1);
    assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItem(result, "passed")), 0);
    cJSON_Delete(result);
    /* before the expiry the device passes */
    result = gate_report_build(g, e, "2025-12-31", devices, 1);
    assert_int_equal(cJSON_GetNumberValue(cJSON_GetObjectItem(result, "passed")), 1);
    char *text = NULL;
    size_t length = 0;
    FILE *out = open_memstream(&text, &length);
    gate_report_write_text(result, out);
    fclose(out);
    assert_non_null(strstr(text, "PASS llvmpipe"));
    assert_non_null(strstr(text, "expected: compute.atomics is fail (expectations line 1, fail: PF-1)"));
    assert_non_null(strstr(text, "unexpected pass: compute.1x1 passed, expectations line 3"));
    free(text);
    cJSON_Delete(result);
    /* without expectations: no expected, unexpectedPasses nor expired members */
    result = gate_report_build(g, NULL, "2026-12-07", devices, 1);
    row = cJSON_GetArrayItem(cJSON_GetObjectItem(result, "devices"), 0);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(row, "failures")), 3);
    assert_null(cJSON_GetObjectItem(row, "expected"));
    assert_null(cJSON_GetObjectItem(result, "expired"));
    cJSON_Delete(result);
    expectations_free(e);
    gate_free(g);
    cJSON_Delete(device);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(malformed_lines_name_their_line),
        cmocka_unit_test(well_formed_entries_parse),
        cmocka_unit_test(nvidia_ranges_follow_nvidias_scheme),
        cmocka_unit_test(arm_mesa_intel_and_qualcomm_schemes),
        cmocka_unit_test(device_globs_ids_and_os),
        cmocka_unit_test(test_globs_expiry_and_what_an_entry_excuses),
        cmocka_unit_test(regexes_become_globs),
        cmocka_unit_test(mesa_lists_import),
        cmocka_unit_test(the_gate_fails_only_on_what_is_not_expected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
