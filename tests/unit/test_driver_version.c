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

static void expect_vendor_text(const char *scheme, uint32_t raw, const char *decoded, const char *text)
{
    char out[64];
    driver_version_vendor_text(scheme, raw, decoded, out, sizeof(out));
    assert_string_equal(out, text);
}

static void vendors_write_their_own(void **state)
{
    (void)state;
    /* NVIDIA's release notes: 580.159.04 (the H200 fixture's driverInfo), 590.44.01, 396.24 */
    expect_vendor_text("nvidia", 2435301632u, "580.159.4.0", "580.159.04");
    expect_vendor_text("nvidia", (590u << 22) | (44u << 14) | (1u << 6), "590.44.1.0", "590.44.01");
    expect_vendor_text("nvidia", (396u << 22) | (24u << 14), "396.24.0.0", "396.24");
    expect_vendor_text("nvidia", (535u << 22) | (104u << 14) | (5u << 6) | 3u, "535.104.5.3", "535.104.05.3");
    /* Mesa, Intel on Windows and Qualcomm decode the vendor's way already */
    expect_vendor_text("standard", (25u << 22) | 7u, "25.0.7", "25.0.7");
    expect_vendor_text("intel-windows", (101u << 14) | 4146u, "101.4146", "101.4146");
    expect_vendor_text(NULL, 1, "0.0.1", "0.0.1");
}

static void mesa_drivers_by_their_mesa_version(void **state)
{
    (void)state;
    int64_t raw = 0;
    char text[64];
    /* lavapipe reports driverVersion 0.0.1 for every Mesa: driverInfo tells them apart */
    assert_true(driver_version_mesa("VK_DRIVER_ID_MESA_LLVMPIPE", "Mesa 25.0.7-2~bpo12+1 (LLVM 15.0.6)", &raw, text,
                                    sizeof(text)));
    assert_int_equal(raw, (25 << 22) | 7);
    assert_string_equal(text, "Mesa 25.0.7");
    assert_true(driver_version_mesa("VK_DRIVER_ID_MESA_LLVMPIPE", "Mesa 24.2.8-1ubuntu1~24.04.1 (LLVM 19.1.1)", &raw,
                                    text, sizeof(text)));
    assert_int_equal(raw, (24 << 22) | (2 << 12) | 8);
    assert_true(
        driver_version_mesa("VK_DRIVER_ID_MESA_RADV", "Mesa 25.1.0-devel (git-7f2ba5d9c7)", &raw, text, sizeof(text)));
    assert_string_equal(text, "Mesa 25.1.0");
    assert_true(driver_version_mesa("VK_DRIVER_ID_INTEL_OPEN_SOURCE_MESA", "Mesa 24.0", &raw, text, sizeof(text)));
    assert_string_equal(text, "Mesa 24.0.0");
    /* others keep driverVersion */
    assert_false(driver_version_mesa("VK_DRIVER_ID_NVIDIA_PROPRIETARY", "580.159.04", &raw, text, sizeof(text)));
    assert_false(driver_version_mesa("VK_DRIVER_ID_MESA_TURNIP", "turnip built from source", &raw, text, sizeof(text)));
    assert_false(driver_version_mesa("VK_DRIVER_ID_MESA_RADV", "Mesa x.y", &raw, text, sizeof(text)));
}

static int compare_fields(const struct driver_version_fields *a, const struct driver_version_fields *b)
{
    return driver_version_compare_prefix(a, b);
}

/* The dashboard orders a device's drivers by driver_raw (first_bad.h): that is the order of the
 * vendor's versions because every scheme packs its fields most significant first. Checked on
 * pseudo-random pairs within each scheme's values (the API layout's variant bits are 0). */
static void raw_order_is_version_order_in_every_scheme(void **state)
{
    (void)state;
    static const struct {
        const char *scheme;
        uint32_t mask, set;
    } schemes[] = {{"nvidia", 0xFFFFFFFFu, 0},
                   {"intel-windows", 0xFFFFFFFFu, 0},
                   {"qualcomm", 0x7FFFFFFFu, 0x80000000u},
                   {"qualcomm-legacy", 0x7FFFFFFFu, 0},
                   {"standard", 0x1FFFFFFFu, 0}};
    uint32_t seed = 12345;
    for (size_t s = 0; s < sizeof(schemes) / sizeof(schemes[0]); ++s)
        for (int i = 0; i < 20000; ++i) {
            seed = seed * 1664525u + 1013904223u;
            uint32_t a = (seed & schemes[s].mask) | schemes[s].set;
            seed = seed * 1664525u + 1013904223u;
            uint32_t b = (i % 4 == 0 ? a ^ (seed & 0x3Fu) : seed & schemes[s].mask) | schemes[s].set;
            struct driver_version_fields fa = driver_version_fields_of(schemes[s].scheme, a),
                                         fb = driver_version_fields_of(schemes[s].scheme, b);
            int by_fields = compare_fields(&fa, &fb), by_raw = (a > b) - (a < b);
            if ((by_fields > 0) - (by_fields < 0) != by_raw)
                fail_msg("%s: 0x%08x vs 0x%08x: fields say %d, raw %d", schemes[s].scheme, a, b, by_fields, by_raw);
        }
    /* and as text the order would be wrong: 580.105.8 after 580.95.5 */
    struct driver_version_fields low, high;
    assert_true(driver_version_parse("580.95.05", &low));
    assert_true(driver_version_parse("580.105.08", &high));
    assert_true(compare_fields(&low, &high) < 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nvidia_packs_four_fields),
        cmocka_unit_test(intel_windows_uses_18_and_14_bits),
        cmocka_unit_test(qualcomm_top_bit_marks_the_new_scheme),
        cmocka_unit_test(others_follow_the_api_version_layout),
        cmocka_unit_test(vendors_write_their_own),
        cmocka_unit_test(mesa_drivers_by_their_mesa_version),
        cmocka_unit_test(raw_order_is_version_order_in_every_scheme),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
