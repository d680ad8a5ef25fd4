/* The probe's evidence logic without a GPU: medians and timing comparisons, PNG export (decoded
 * again with libpng, the SHA-256 the evidence names checked against the file), the six-signal
 * summary, and the union of device options a worker's shared device is created with. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <png.h>

#include "artifacts.h"
#include "session.h"
#include "sha256.h"
#include "signals.h"
#include "timing.h"

static void median_of_odd_even_and_unsorted(void **state)
{
    (void)state;
    assert_true(timing_median((const double[]){5, 1, 3}, 3) == 3);
    assert_true(timing_median((const double[]){4, 1, 3, 2}, 4) == 2.5);
    assert_true(timing_median((const double[]){7}, 1) == 7);
    assert_true(timing_median(NULL, 0) == 0);
}

static void comparison_reports_medians_and_ratio(void **state)
{
    (void)state;
    const double baseline[] = {100, 900, 110, 105, 95}, feature[] = {26, 24, 25, 400, 25};
    cJSON *c = timing_comparison("work", "base", baseline, feature, 5);
    assert_true(cJSON_GetObjectItem(c, "baseline_ns")->valuedouble == 105);
    assert_true(cJSON_GetObjectItem(c, "feature_ns")->valuedouble == 25);
    assert_true(cJSON_GetObjectItem(c, "ratio")->valuedouble == 0.238); /* 25/105, to 3 places */
    assert_int_equal(cJSON_GetObjectItem(c, "samples")->valueint, 5);
    cJSON_Delete(c);
    const double zero[] = {0, 0, 0};
    c = timing_comparison("work", "base", zero, feature, 3);
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(c, "ratio"))); /* no division by a zero baseline */
    cJSON_Delete(c);
}

struct decoded {
    uint32_t width, height;
    uint8_t rgb[64 * 64 * 3];
};

static bool decode(const char *path, struct decoded *d)
{
    png_image image = {.version = PNG_IMAGE_VERSION};
    if (!png_image_begin_read_from_file(&image, path))
        return false;
    image.format = PNG_FORMAT_RGB;
    d->width = image.width;
    d->height = image.height;
    if (PNG_IMAGE_SIZE(image) > sizeof(d->rgb)) {
        png_image_free(&image);
        return false;
    }
    return png_image_finish_read(&image, NULL, d->rgb, 0, NULL) != 0;
}

static char folder[64];

static int make_folder(void **state)
{
    (void)state;
    snprintf(folder, sizeof(folder), "/tmp/test_evidence.XXXXXX");
    return mkdtemp(folder) ? 0 : -1;
}

static void codes_become_a_png_named_by_its_sha256(void **state)
{
    (void)state;
    artifacts_configure(folder, "gpu0-test");
    artifacts_begin_test("unit.codes");
    uint32_t codes[4 * 2] = {0, 1, 2, 7, 1, 1, 0, 2}; /* 7: not in the palette */
    const struct artifact_palette palette[] = {{0, {0, 0, 0}}, {1, {255, 0, 0}}, {2, {0, 0, 255}}};
    cJSON *evidence = cJSON_CreateObject();
    assert_true(artifacts_write_codes(evidence, "map", "a test map", 4, 2, codes, 4, palette, 3));
    const cJSON *entry = cJSON_GetArrayItem(cJSON_GetObjectItem(evidence, "artifacts"), 0);
    assert_string_equal(cJSON_GetObjectItem(entry, "file")->valuestring, "gpu0-test.unit.codes.map.png");
    char path[128];
    snprintf(path, sizeof(path), "%s/gpu0-test.unit.codes.map.png", folder);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint8_t bytes[4096];
    size_t size = fread(bytes, 1, sizeof(bytes), f);
    fclose(f);
    char hex[65];
    sha256_hex(bytes, size, hex);
    assert_string_equal(cJSON_GetObjectItem(entry, "sha256")->valuestring, hex);
    assert_int_equal(cJSON_GetObjectItem(entry, "bytes")->valueint, (int)size);
    struct decoded d;
    assert_true(decode(path, &d));
    assert_int_equal(d.width, 4);
    assert_int_equal(d.height, 2);
    assert_memory_equal(d.rgb + 1 * 3, ((const uint8_t[]){255, 0, 0}), 3);   /* code 1 */
    assert_memory_equal(d.rgb + 2 * 3, ((const uint8_t[]){0, 0, 255}), 3);   /* code 2 */
    assert_memory_equal(d.rgb + 3 * 3, ((const uint8_t[]){255, 0, 255}), 3); /* unknown: magenta */
    assert_memory_equal(d.rgb + 7 * 3, ((const uint8_t[]){0, 0, 255}), 3);   /* second row */
    unlink(path);
    cJSON_Delete(evidence);
}

static void byte_codes_and_no_directory(void **state)
{
    (void)state;
    artifacts_configure(NULL, NULL);
    uint8_t codes[2] = {0, 1};
    const struct artifact_palette palette[] = {{0, {1, 2, 3}}};
    cJSON *evidence = cJSON_CreateObject();
    assert_true(artifacts_write_codes(evidence, "m", "w", 2, 1, codes, 1, palette, 1));
    const cJSON *entry = cJSON_GetArrayItem(cJSON_GetObjectItem(evidence, "artifacts"), 0);
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(entry, "written"))); /* said, not silently dropped */
    assert_null(cJSON_GetObjectItem(entry, "file"));
    cJSON_Delete(evidence);
    artifacts_configure("/nonexistent/folder", "p"); /* an unwritable place: an error in the entry */
    evidence = cJSON_CreateObject();
    assert_false(artifacts_write_codes(evidence, "m", "w", 2, 1, codes, 1, palette, 1));
    entry = cJSON_GetArrayItem(cJSON_GetObjectItem(evidence, "artifacts"), 0);
    assert_non_null(strstr(cJSON_GetObjectItem(entry, "error")->valuestring, "/nonexistent/folder"));
    cJSON_Delete(evidence);
}

static void signals_are_counted(void **state)
{
    (void)state;
    struct smoke_outcome out = {.evidence = cJSON_CreateObject()};
    smoke_signals(&out, &(struct signals){.readback = true, .timing = true, .artifacts = true});
    assert_int_equal(cJSON_GetObjectItem(out.evidence, "signals_collected")->valueint, 4);
    const cJSON *signals = cJSON_GetObjectItem(out.evidence, "signals");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(signals, "counters")));
    const cJSON *power = cJSON_GetObjectItem(signals, "power");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(power, "measured")));
    assert_non_null(cJSON_GetObjectItem(power, "reason")); /* never silently absent */
    cJSON_Delete(out.evidence);

    /* power measured: the sixth signal counts, and names its source */
    out.evidence = cJSON_CreateObject();
    struct power_signal measured = {.measured = true, .source = "hwmon"};
    smoke_signals(&out, &(struct signals){.readback = true, .timing = true, .power = &measured});
    assert_int_equal(cJSON_GetObjectItem(out.evidence, "signals_collected")->valueint, 4);
    power = cJSON_GetObjectItem(cJSON_GetObjectItem(out.evidence, "signals"), "power");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(power, "measured")));
    assert_string_equal(cJSON_GetObjectItem(power, "source")->valuestring, "hwmon");
    assert_null(cJSON_GetObjectItem(power, "reason"));
    cJSON_Delete(out.evidence);

    /* not measured: the test's reason, word for word */
    out.evidence = cJSON_CreateObject();
    struct power_signal not_measured;
    power_not_sampled(&not_measured, "not sampled: %s", "--no-power");
    smoke_signals(&out, &(struct signals){.readback = true, .power = &not_measured});
    assert_int_equal(cJSON_GetObjectItem(out.evidence, "signals_collected")->valueint, 2);
    power = cJSON_GetObjectItem(cJSON_GetObjectItem(out.evidence, "signals"), "power");
    assert_string_equal(cJSON_GetObjectItem(power, "reason")->valuestring, "not sampled: --no-power");
    cJSON_Delete(out.evidence);
}

static void options_union(void **state)
{
    (void)state;
    struct gpu_options into = {0}, a = {0}, b = {0};
    struct smoke_device_features into_f = {0}, af = {0}, bf = {0};
    a.extensions[0] = "VK_EXT_mesh_shader";
    a.extensions[1] = "VK_KHR_dynamic_rendering";
    af.mesh_shader.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT;
    af.mesh_shader.meshShader = VK_TRUE;
    af.dynamic_rendering.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES;
    af.dynamic_rendering.dynamicRendering = VK_TRUE;
    a.core.fragmentStoresAndAtomics = VK_TRUE;
    b.extensions[0] = "VK_KHR_dynamic_rendering"; /* shared: listed once */
    b.extensions[1] = "VK_KHR_fragment_shading_rate";
    bf.mesh_shader.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT;
    bf.mesh_shader.taskShader = VK_TRUE;
    bf.mesh_shader.meshShaderQueries = VK_TRUE; /* the last member: ORed too */
    b.core.pipelineStatisticsQuery = VK_TRUE;
    smoke_options_merge(&into, &into_f, &a, &af);
    smoke_options_merge(&into, &into_f, &b, &bf);
    assert_string_equal(into.extensions[0], "VK_EXT_mesh_shader");
    assert_string_equal(into.extensions[1], "VK_KHR_dynamic_rendering");
    assert_string_equal(into.extensions[2], "VK_KHR_fragment_shading_rate");
    assert_null(into.extensions[3]);
    assert_true(into_f.mesh_shader.meshShader && into_f.mesh_shader.taskShader && into_f.mesh_shader.meshShaderQueries);
    assert_false(into_f.mesh_shader.primitiveFragmentShadingRateMeshShader);
    assert_true(into.core.fragmentStoresAndAtomics && into.core.pipelineStatisticsQuery);
    assert_false(into.core.robustBufferAccess);
    /* the chain holds exactly the structs in use, each once */
    int links = 0;
    bool mesh = false, dynamic = false;
    for (const VkBaseInStructure *s = into.features_chain; s != NULL; s = s->pNext, ++links) {
        mesh |= s == (const void *)&into_f.mesh_shader;
        dynamic |= s == (const void *)&into_f.dynamic_rendering;
    }
    assert_int_equal(links, 2);
    assert_true(mesh && dynamic);
}

static void options_union_keeps_a_terminator(void **state)
{
    (void)state;
    static char names[40][16];
    struct gpu_options into = {0};
    struct smoke_device_features storage = {0}, none = {0};
    for (int round = 0; round < 4; ++round) {
        struct gpu_options from = {0};
        for (int i = 0; i < 10; ++i) {
            snprintf(names[round * 10 + i], sizeof(names[0]), "VK_EXT_x%d", round * 10 + i);
            from.extensions[i] = names[round * 10 + i];
        }
        smoke_options_merge(&into, &storage, &from, &none);
    }
    assert_null(into.extensions[GPU_MAX_EXTENSIONS - 1]); /* never overrun: the list still ends */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(median_of_odd_even_and_unsorted),
        cmocka_unit_test(comparison_reports_medians_and_ratio),
        cmocka_unit_test(codes_become_a_png_named_by_its_sha256),
        cmocka_unit_test(byte_codes_and_no_directory),
        cmocka_unit_test(signals_are_counted),
        cmocka_unit_test(options_union),
        cmocka_unit_test(options_union_keeps_a_terminator),
    };
    int failed = cmocka_run_group_tests(tests, make_folder, NULL);
    rmdir(folder);
    return failed;
}
