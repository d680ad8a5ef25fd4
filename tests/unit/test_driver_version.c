/* driverVersion decoding per driver: each scheme against a value whose meaning is known. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "driver_version.h"

static void expect_decoded(uint32_t vendor, uint32_t driver_id, uint32_t raw, const char *text, const char *scheme)
{
    char out[64];
    assert_string_equal(driver_version_decode(vendor, driver_id, raw, out, sizeof(out)), scheme);
    assert_string_equal(out, text);
}

static void nvidia_packs_four_fields(void **state)
{
    (void)state;
    /* The H200 fixture: driverInfo "580.159.04", driverVersion 2435301632. */
    expect_decoded(0x10DE, 4, 2435301632u, "580.159.4.0", "nvidia");
    expect_decoded(0x10DE, 4, (535u << 22) | (104u << 14) | (5u << 6) | 3u, "535.104.5.3", "nvidia");
    /* An NVIDIA device that reported no driverID still decodes the NVIDIA way. */
    expect_decoded(0x10DE, 0, 2435301632u, "580.159.4.0", "nvidia");
}

static void intel_windows_uses_18_and_14_bits(void **state)
{
    (void)state;
    expect_decoded(0x8086, 5, (101u << 14) | 4146u, "101.4146", "intel-windows");
    /* Intel's Mesa driver (ANV, driverID 6) uses the standard layout. */
    expect_decoded(0x8086, 6, (24u << 22) | (2u << 12) | 8u, "24.2.8", "standard");
}

static void qualcomm_top_bit_marks_the_new_scheme(void **state)
{
    (void)state;
    expect_decoded(0x5143, 8, 0x80000000u | (530u << 12) | 0u, "512.530.0", "qualcomm");
    expect_decoded(0x5143, 8, 12345u, "12345", "qualcomm-legacy");
}

static void others_follow_the_api_version_layout(void **state)
{
    (void)state;
    /* lavapipe reports 0.0.1; ARM, Imagination and Broadcom use VK_MAKE_API_VERSION too. */
    expect_decoded(0x10005, 13, 1, "0.0.1", "standard");
    expect_decoded(0x13B5, 9, (1u << 22) | (38u << 12) | 1u, "1.38.1", "standard");
    expect_decoded(0x1010, 7, (1u << 22) | (15u << 12) | 3293u, "1.15.3293", "standard");
    expect_decoded(0x14E4, 14, (25u << 22) | (0u << 12) | 7u, "25.0.7", "standard");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nvidia_packs_four_fields),
        cmocka_unit_test(intel_windows_uses_18_and_14_bits),
        cmocka_unit_test(qualcomm_top_bit_marks_the_new_scheme),
        cmocka_unit_test(others_follow_the_api_version_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
