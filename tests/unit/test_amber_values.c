/* AmberScript's memory layouts (docs/amber.md, after Amber's memory_layout.md), value encoding and
 * decoding, and the EXPECT rules on synthetic data: comparisons, tolerances, pixel probes,
 * EQ_BUFFER, RMSE_BUFFER and EQ_HISTOGRAM_EMD_BUFFER. No Vulkan. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "amber.h"
#include "expect.h"
#include "script.h"

static struct amber_diagnostic diagnostic;

static struct amber_script *parse(const char *text)
{
    struct amber_script *s = amber_parse(text, strlen(text), NULL, &diagnostic);
    if (s == NULL || diagnostic.status != AMBER_PARSED)
        fail_msg("%u:%u: %s", diagnostic.line, diagnostic.column, diagnostic.message);
    return s;
}

static uint32_t stride_of(const char *type, bool std140)
{
    struct amber_type t;
    struct amber_layout l;
    char error[128];
    assert_true(amber_type_parse(type, NULL, 0, &t));
    assert_true(amber_layout_build(&t, std140, NULL, 0, &l, error, sizeof(error)));
    uint32_t stride = l.stride;
    amber_layout_free(&l);
    return stride;
}

static void strides_of_types(void **state)
{
    (void)state;
    /* scalars, vectors (vec3 takes a vec4's room), arrays padded to 16 bytes under STD140 */
    assert_int_equal(stride_of("int8", false), 1);
    assert_int_equal(stride_of("float16", true), 2);
    assert_int_equal(stride_of("double", false), 8);
    assert_int_equal(stride_of("vec2<float>", true), 8);
    assert_int_equal(stride_of("vec3<float>", false), 16);
    assert_int_equal(stride_of("vec3<int8>", false), 4);
    assert_int_equal(stride_of("vec3<int16>", false), 8);
    assert_int_equal(stride_of("int8[]", true), 16);
    assert_int_equal(stride_of("int8[]", false), 1);
    assert_int_equal(stride_of("vec2<float>[]", true), 16);
    assert_int_equal(stride_of("int64[]", true), 16);
    /* matrices: columns of vec R, each column 16 bytes under STD140 */
    assert_int_equal(stride_of("mat2x2<float>", true), 32);
    assert_int_equal(stride_of("mat2x2<float>", false), 16);
    assert_int_equal(stride_of("mat3x2<float>", false), 24);
    assert_int_equal(stride_of("mat4x3<float>", false), 64);
    assert_int_equal(stride_of("mat2x2<int8>", false), 4);
    assert_int_equal(stride_of("mat2x2<int8>", true), 32);
    /* formats: their texel */
    assert_int_equal(stride_of("R8G8B8A8_UNORM", false), 4);
    assert_int_equal(stride_of("R32G32B32_SFLOAT", false), 12);
    assert_int_equal(stride_of("A2B10G10R10_UNORM_PACK32", false), 4);
    assert_int_equal(stride_of("D32_SFLOAT_S8_UINT", false), 8);
    assert_int_equal(stride_of("D24_UNORM_S8_UINT", false), 4);
    struct amber_type t;
    assert_false(amber_type_parse("vec1<float>", NULL, 0, &t));
    assert_false(amber_type_parse("mat2x5<float>", NULL, 0, &t));
    assert_false(amber_type_parse("uint128", NULL, 0, &t));
    assert_false(amber_type_parse("", NULL, 0, &t));
}

/* The structures of Amber's memory_layout.md, STD140 and STD430. */
static void struct_layouts(void **state)
{
    (void)state;
    struct {
        const char *members;
        uint32_t std140, std430;
    } cases[] = {
        {"  int32 w\n  float x\n", 16, 8},
        {"  int32 w\n  vec2<float> x\n  float y\n", 32, 24},
        {"  int32 w\n  vec3<float> x\n  float y\n", 32, 32},
        {"  int32 w\n  vec3<float> x\n  vec2<float> y\n", 48, 48},
        {"  int32 w\n  mat2x2<float> x\n  float y\n", 64, 32},
        {"  int32 w\n  inner x\n  float y\n", 48, 20},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        char text[1024];
        snprintf(text, sizeof(text),
                 "#!amber\nSTRUCT inner\n  int32 a\n  int32 b\n  float c\nEND\nSTRUCT s\n%sEND\n"
                 "BUFFER a DATA_TYPE s STD140 SIZE 1 FILL 0\nBUFFER b DATA_TYPE s STD430 SIZE 1 FILL 0\n",
                 cases[i].members);
        struct amber_script *s = parse(text);
        assert_int_equal(s->buffers[0].layout.stride, cases[i].std140);
        assert_int_equal(s->buffers[1].layout.stride, cases[i].std430);
        amber_script_free(s);
    }
}

static void packed_and_depth_formats(void **state)
{
    (void)state;
    struct amber_type t;
    struct amber_layout l;
    char error[128];
    /* A2B10G10R10: the first channel in the highest bits */
    assert_true(amber_type_parse("A2B10G10R10_UINT_PACK32", NULL, 0, &t));
    assert_true(amber_layout_build(&t, false, NULL, 0, &l, error, sizeof(error)));
    assert_int_equal(l.count, 4);
    assert_int_equal(l.segments[0].channel, AMBER_CHANNEL_A);
    assert_int_equal(l.segments[0].bit_offset, 30);
    assert_int_equal(l.segments[3].channel, AMBER_CHANNEL_R);
    assert_int_equal(l.segments[3].bit_offset, 0);
    uint8_t texel[4] = {0};
    struct amber_number n = {.magnitude = 1023};
    assert_true(amber_encode(&l.segments[3], &n, texel, error, sizeof(error)));
    n.magnitude = 3;
    assert_true(amber_encode(&l.segments[0], &n, texel, error, sizeof(error)));
    assert_int_equal(texel[0], 0xFF);
    assert_int_equal(texel[1], 0x03);
    assert_int_equal(texel[3], 0xC0);
    assert_int_equal(amber_decode(&l.segments[3], texel).bits, 1023);
    n.magnitude = 1025; /* wider than the channel: its low 10 bits, as Amber */
    assert_true(amber_encode(&l.segments[3], &n, texel, error, sizeof(error)));
    assert_int_equal(amber_decode(&l.segments[3], texel).bits, 1);
    /* DATA gives a packed element one value, the whole word */
    struct amber_segment word;
    const struct amber_segment *inputs;
    assert_int_equal(amber_layout_inputs(&l, &word, &inputs), 1);
    assert_int_equal(inputs[0].bits, 32);
    assert_int_equal(inputs[0].mode, AMBER_MODE_UINT);
    n.magnitude = 2684879360u;
    assert_true(amber_encode(&inputs[0], &n, texel, error, sizeof(error)));
    assert_int_equal(amber_decode(&l.segments[0], texel).bits, 2); /* alpha: the top two bits */
    amber_layout_free(&l);
    assert_true(amber_type_parse("X8_D24_UNORM_PACK32", NULL, 0, &t)); /* depth: its value, not the word */
    assert_true(amber_layout_build(&t, false, NULL, 0, &l, error, sizeof(error)));
    assert_int_equal(amber_layout_inputs(&l, &word, &inputs), l.count);
    assert_ptr_equal(inputs, l.segments);
    amber_layout_free(&l);
    assert_true(amber_type_parse("R8G8_SRGB", NULL, 0, &t));
    assert_true(amber_layout_build(&t, false, NULL, 0, &l, error, sizeof(error)));
    assert_int_equal(amber_layout_inputs(&l, &word, &inputs), 2);
    assert_ptr_equal(inputs, l.segments);
    amber_layout_free(&l);
    /* D32_SFLOAT_S8_UINT: the depth from bit 0, the stencil in byte 4 */
    assert_true(amber_type_parse("D32_SFLOAT_S8_UINT", NULL, 0, &t));
    assert_true(amber_layout_build(&t, false, NULL, 0, &l, error, sizeof(error)));
    assert_int_equal(l.segments[0].channel, AMBER_CHANNEL_D);
    assert_int_equal(l.segments[1].channel, AMBER_CHANNEL_S);
    assert_int_equal(l.segments[1].bit_offset, 32);
    amber_layout_free(&l);
    assert_true(amber_format_has_depth(VK_FORMAT_X8_D24_UNORM_PACK32));
    assert_false(amber_format_has_stencil(VK_FORMAT_D32_SFLOAT));
    assert_int_equal(amber_format_from_name("B8G8R8A8_SRGB"), VK_FORMAT_B8G8R8A8_SRGB);
    assert_int_equal(amber_format_from_name("NOT_A_FORMAT"), VK_FORMAT_UNDEFINED);
}

static void values_encode_and_decode(void **state)
{
    (void)state;
    char error[128];
    uint8_t bytes[8] = {0};
    struct amber_segment s8 = {0, 8, AMBER_MODE_SINT, 0}, u32 = {0, 32, AMBER_MODE_UINT, 0};
    struct amber_segment f16 = {0, 16, AMBER_MODE_SFLOAT, 0}, f64 = {0, 64, AMBER_MODE_SFLOAT, 0};
    struct amber_number minus_one = {.magnitude = 1, .negative = true};
    assert_true(amber_encode(&s8, &minus_one, bytes, error, sizeof(error)));
    assert_int_equal(bytes[0], 0xFF);
    assert_true(amber_decode(&s8, bytes).value == -1.0);
    /* -1 for an unsigned type writes all ones, as Amber does */
    assert_true(amber_encode(&u32, &minus_one, bytes, error, sizeof(error)));
    assert_true(amber_decode(&u32, bytes).value == 4294967295.0);
    /* wider than the type: the low bits (Amber's conversion), -129 in 8 bits is 127 */
    struct amber_number too_negative = {.magnitude = 129, .negative = true};
    assert_true(amber_encode(&s8, &too_negative, bytes, error, sizeof(error)));
    assert_int_equal(bytes[0], 0x7F);
    struct amber_number whole = {.is_float = true, .value = -3.0};
    assert_true(amber_encode(&s8, &whole, bytes, error, sizeof(error)));
    assert_true(amber_decode(&s8, bytes).value == -3.0);
    struct amber_number huge = {.is_float = true, .value = 1e30}, inf = {.is_float = true, .value = INFINITY};
    struct amber_number nan_value = {.is_float = true, .value = NAN};
    assert_false(amber_encode(&u32, &huge, bytes, error, sizeof(error)));
    assert_non_null(strstr(error, "does not fit in 64 bits"));
    assert_false(amber_encode(&u32, &inf, bytes, error, sizeof(error)));
    assert_false(amber_encode(&u32, &nan_value, bytes, error, sizeof(error)));
    struct amber_number fraction = {.is_float = true, .value = 0.5};
    assert_false(amber_encode(&u32, &fraction, bytes, error, sizeof(error)));
    assert_non_null(strstr(error, "not an integer"));
    /* a float16 buffer value is stored as Amber stores it: the mantissa cut, not rounded
     * (1.0009765625 + 0.0009 is just below the next half: it stays 0x3C01) */
    struct amber_number near_next = {.is_float = true, .value = 1.0009765625 + 0.0009};
    assert_true(amber_encode(&f16, &near_next, bytes, error, sizeof(error)));
    assert_int_equal(bytes[0] | bytes[1] << 8, 0x3C01);
    struct amber_number tiny = {.is_float = true, .value = 0.000000059604645}, big = {.is_float = true, .value = 1e9};
    assert_true(amber_encode(&f16, &tiny, bytes, error, sizeof(error)));
    assert_int_equal(bytes[0] | bytes[1] << 8, 0x0001); /* below the normal halves: the nearest */
    assert_true(amber_encode(&f16, &big, bytes, error, sizeof(error)));
    assert_int_equal(bytes[0] | bytes[1] << 8, 0x7C00);
    /* halves: exact values, rounding, the largest, infinities */
    assert_int_equal(amber_float_to_half(1.0f), 0x3C00);
    assert_int_equal(amber_float_to_half(-2.0f), 0xC000);
    assert_int_equal(amber_float_to_half(65504.0f), 0x7BFF);
    assert_int_equal(amber_float_to_half(1e10f), 0x7C00);
    assert_int_equal(amber_float_to_half(0.000000059604645f), 0x0001); /* the smallest subnormal */
    assert_true(amber_half_to_float(0x3555) > 0.333f && amber_half_to_float(0x3555) < 0.334f);
    assert_true(amber_half_to_float(0x0001) == 0.000000059604645f);
    assert_true(isnan(amber_half_to_float(0x7E00)));
    assert_true(amber_encode(&f16, &fraction, bytes, error, sizeof(error)));
    assert_true(amber_decode(&f16, bytes).value == 0.5);
    struct amber_number tenth = {.is_float = true, .value = 0.1};
    assert_true(amber_encode(&f64, &tenth, bytes, error, sizeof(error)));
    assert_true(amber_decode(&f64, bytes).value == 0.1);
    /* normalized channels as a shader reads them */
    struct amber_segment unorm = {0, 8, AMBER_MODE_UNORM, AMBER_CHANNEL_R};
    struct amber_segment snorm = {0, 8, AMBER_MODE_SNORM, AMBER_CHANNEL_R};
    struct amber_segment srgb = {0, 8, AMBER_MODE_SRGB, AMBER_CHANNEL_G};
    uint8_t texel[1] = {255};
    assert_true(amber_decode_normalized(&unorm, texel) == 1.0);
    texel[0] = 0x80; /* -128 */
    assert_true(amber_decode_normalized(&snorm, texel) == -1.0);
    texel[0] = 188;
    assert_true(fabs(amber_decode_normalized(&srgb, texel) - 0.5029) < 0.001);
}

/* --- EXPECT on bytes ------------------------------------------------------------------------- */

#define EXPECTING                                                                                                      \
    "#!amber\nBUFFER f DATA_TYPE float SIZE 4 FILL 0\nBUFFER u DATA_TYPE vec2<uint32> SIZE 4 FILL 0\n"                 \
    "BUFFER img FORMAT R8G8B8A8_UNORM\nBUFFER g DATA_TYPE float SIZE 4 FILL 0\n"                                       \
    "BUFFER p DATA_TYPE R8G8B8A8_UNORM SIZE 4 FILL 0\nBUFFER q DATA_TYPE R8G8B8A8_UNORM SIZE 4 FILL 0\n"

static bool check_values(const char *expect, const void *data, uint64_t size, struct amber_expect_result *r)
{
    char text[1024];
    snprintf(text, sizeof(text), EXPECTING "%s\n", expect);
    struct amber_script *s = parse(text);
    const struct amber_command *c = &s->commands[s->command_count - 1];
    amber_expect_values(c, &s->buffers[c->values.buffer], data, size, r);
    amber_script_free(s);
    return r->passed;
}

static void value_comparisons(void **state)
{
    (void)state;
    struct amber_expect_result r;
    const float floats[4] = {1.0f, 0.1f, -3.5f, 1e-30f};
    assert_true(check_values("EXPECT f IDX 0 EQ 1 0.1 -3.5 1e-30", floats, sizeof(floats), &r));
    cJSON_Delete(r.evidence);
    /* 0.1 is compared as the float it is stored as */
    assert_false(check_values("EXPECT f IDX 4 EQ 0.1000001", floats, sizeof(floats), &r));
    assert_non_null(strstr(r.summary, "1 of 1 values differ"));
    cJSON_Delete(r.evidence);
    assert_true(check_values("EXPECT f IDX 8 LT -3.4", floats, sizeof(floats), &r));
    cJSON_Delete(r.evidence);
    assert_false(check_values("EXPECT f IDX 8 GE -3.4 2", floats, sizeof(floats), &r));
    assert_non_null(strstr(r.summary, "2 of 2 values differ; first at element 2 component 0 (byte 8)"));
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItem(r.evidence, "first_mismatches"), 0);
    assert_true(cJSON_GetObjectItem(first, "observed")->valuedouble == -3.5);
    assert_int_equal(cJSON_GetObjectItem(r.evidence, "mismatches")->valueint, 2);
    cJSON_Delete(r.evidence);
    /* tolerances: absolute, percent, one per component */
    assert_true(check_values("EXPECT f IDX 0 TOLERANCE 0.01 EQ 1.005 0.105", floats, sizeof(floats), &r));
    cJSON_Delete(r.evidence);
    assert_false(check_values("EXPECT f IDX 0 TOLERANCE 0.01% EQ 1.001", floats, sizeof(floats), &r));
    assert_non_null(strstr(r.summary, "(tolerance 0.01%)"));
    cJSON_Delete(r.evidence);
    const uint32_t pairs[8] = {1, 2, 3, 4, 0xFFFFFFFFu, 6, 7, 8};
    assert_true(check_values("EXPECT u IDX 0 TOLERANCE 0 1 EQ 1 3 3 5", pairs, sizeof(pairs), &r));
    cJSON_Delete(r.evidence);
    assert_false(check_values("EXPECT u IDX 0 TOLERANCE 1 0 EQ 2 3", pairs, sizeof(pairs), &r));
    assert_non_null(strstr(r.summary, "component 1"));
    cJSON_Delete(r.evidence);
    /* integers exactly, -1 meaning all ones, NE */
    assert_true(check_values("EXPECT u IDX 16 EQ -1 6", pairs, sizeof(pairs), &r));
    cJSON_Delete(r.evidence);
    assert_true(check_values("EXPECT u IDX 16 NE 0 0", pairs, sizeof(pairs), &r));
    cJSON_Delete(r.evidence);
    /* outside the buffer, and an offset inside an element: clear failures, no read past the end */
    assert_false(check_values("EXPECT u IDX 24 EQ 7 8 9 10", pairs, sizeof(pairs), &r));
    assert_non_null(strstr(r.summary, "the buffer holds 32 bytes"));
    cJSON_Delete(r.evidence);
    assert_false(check_values("EXPECT u IDX 4 EQ 2", pairs, sizeof(pairs), &r));
    assert_non_null(strstr(r.summary, "not a multiple of the element size (8 bytes)"));
    cJSON_Delete(r.evidence);
}

static void pixel_probes(void **state)
{
    (void)state;
    /* 4x2 RGBA8: red everywhere but one blue pixel at (2, 1) */
    uint8_t pixels[4 * 2 * 4];
    for (int i = 0; i < 8; ++i) {
        pixels[i * 4 + 0] = 255, pixels[i * 4 + 1] = 0, pixels[i * 4 + 2] = 0, pixels[i * 4 + 3] = 255;
    }
    pixels[(1 * 4 + 2) * 4 + 0] = 0, pixels[(1 * 4 + 2) * 4 + 2] = 254;
    struct amber_script *s =
        parse(EXPECTING "EXPECT img IDX 0 0 SIZE 4 1 EQ_RGB 255 0 0\nEXPECT img IDX 0 0 SIZE 4 2 EQ_RGBA 255 0 0 255\n"
                        "EXPECT img IDX 2 1 SIZE 1 1 EQ_RGB 0 0 255 TOLERANCE 0.005\n"
                        "EXPECT img IDX 2 1 SIZE 1 1 EQ_RGB 0 0 255\nEXPECT img IDX 3 0 SIZE 2 1 EQ_RGB 255 0 0\n");
    const struct amber_buffer *img = &s->buffers[2];
    struct amber_expect_result r;
    amber_expect_pixels(&s->commands[0], img, 4, 2, pixels, &r);
    assert_true(r.passed);
    cJSON_Delete(r.evidence);
    amber_expect_pixels(&s->commands[1], img, 4, 2, pixels, &r);
    assert_false(r.passed);
    assert_non_null(
        strstr(r.summary, "1 of 8 pixels differ; first at pixel (2, 1): expected 255 0 0 255, observed 0 0 254 255"));
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItem(r.evidence, "first_mismatches"), 0);
    assert_int_equal(cJSON_GetObjectItem(first, "x")->valueint, 2);
    cJSON_Delete(r.evidence);
    amber_expect_pixels(&s->commands[2], img, 4, 2, pixels, &r);
    assert_true(r.passed); /* 1/255 within 0.005 */
    cJSON_Delete(r.evidence);
    amber_expect_pixels(&s->commands[3], img, 4, 2, pixels, &r);
    assert_false(r.passed); /* the default tolerance 0.002 is tighter than 1/255 */
    cJSON_Delete(r.evidence);
    amber_expect_pixels(&s->commands[4], img, 4, 2, pixels, &r);
    assert_false(r.passed);
    assert_non_null(strstr(r.summary, "reaches outside the 4x2 image"));
    cJSON_Delete(r.evidence);
    amber_script_free(s);
}

static void buffer_comparisons(void **state)
{
    (void)state;
    struct amber_script *s = parse(EXPECTING "EXPECT f EQ_BUFFER g\nEXPECT f RMSE_BUFFER g TOLERANCE 0.5\n"
                                             "EXPECT p EQ_HISTOGRAM_EMD_BUFFER q TOLERANCE 0.01\n");
    const float a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 5};
    struct amber_expect_result r;
    amber_expect_buffers(&s->commands[0], &s->buffers[0], (const uint8_t *)a, 4, &s->buffers[3], (const uint8_t *)a, 4,
                         &r);
    assert_true(r.passed);
    cJSON_Delete(r.evidence);
    amber_expect_buffers(&s->commands[0], &s->buffers[0], (const uint8_t *)b, 4, &s->buffers[3], (const uint8_t *)a, 4,
                         &r);
    assert_false(r.passed);
    assert_non_null(strstr(r.summary, "1 of 4 values differ; first at element 3 component 0: g has 4, f has 5"));
    cJSON_Delete(r.evidence);
    amber_expect_buffers(&s->commands[0], &s->buffers[0], (const uint8_t *)a, 3, &s->buffers[3], (const uint8_t *)a, 4,
                         &r);
    assert_false(r.passed);
    assert_non_null(strstr(r.summary, "f holds 3 elements, g holds 4"));
    cJSON_Delete(r.evidence);
    /* RMSE of one difference of 1 over 4 values: 0.5, at the tolerance */
    amber_expect_buffers(&s->commands[1], &s->buffers[0], (const uint8_t *)b, 4, &s->buffers[3], (const uint8_t *)a, 4,
                         &r);
    assert_true(r.passed);
    assert_true(cJSON_GetObjectItem(r.evidence, "rmse")->valuedouble == 0.5);
    cJSON_Delete(r.evidence);
    const float c[4] = {1, 2, 3, 6};
    amber_expect_buffers(&s->commands[1], &s->buffers[0], (const uint8_t *)c, 4, &s->buffers[3], (const uint8_t *)a, 4,
                         &r);
    assert_false(r.passed);
    assert_non_null(strstr(r.summary, "root mean square error 1 over 4 values"));
    cJSON_Delete(r.evidence);
    /* histograms: the same values in another order are at distance 0; one value moved is not */
    const uint8_t x[16] = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150};
    const uint8_t y[16] = {80, 90, 100, 110, 0, 10, 20, 30, 120, 130, 140, 150, 40, 50, 60, 70};
    uint8_t z[16];
    memcpy(z, y, sizeof(z));
    z[0] = 255;
    amber_expect_buffers(&s->commands[2], &s->buffers[4], x, 4, &s->buffers[5], y, 4, &r);
    assert_true(r.passed);
    cJSON_Delete(r.evidence);
    amber_expect_buffers(&s->commands[2], &s->buffers[4], x, 4, &s->buffers[5], z, 4, &r);
    assert_false(r.passed);
    assert_non_null(strstr(r.summary, "earth mover's distance"));
    cJSON_Delete(r.evidence);
    amber_script_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(strides_of_types),         cmocka_unit_test(struct_layouts),
        cmocka_unit_test(packed_and_depth_formats), cmocka_unit_test(values_encode_and_decode),
        cmocka_unit_test(value_comparisons),        cmocka_unit_test(pixel_probes),
        cmocka_unit_test(buffer_comparisons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
