/* The AmberScript parser (amber/parse*.c): every command parses into the script it says, and
 * hostile input (unterminated blocks, huge sizes, bad numbers, unknown types, long words, NUL
 * bytes, random mutations of real files) gets a clear diagnostic, never a crash or an unbounded
 * allocation (the ASan build runs this too). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "amber.h"
#include "script.h"

static struct amber_diagnostic diagnostic;

static struct amber_script *parse(const char *text)
{
    return amber_parse(text, strlen(text), PREFLIGHT_AMBER_DATA_DIR, &diagnostic);
}

/* Parses and expects a clean parse. */
static struct amber_script *parse_ok(const char *text)
{
    struct amber_script *s = parse(text);
    if (s == NULL || diagnostic.status != AMBER_PARSED)
        fail_msg("%u:%u: %s", diagnostic.line, diagnostic.column, diagnostic.message);
    return s;
}

/* Parses and expects a syntax error at line:column whose message holds `words`. */
static void syntax_error(const char *text, uint32_t line, uint32_t column, const char *words)
{
    struct amber_script *s = parse(text);
    assert_null(s);
    assert_int_equal(diagnostic.status, AMBER_SYNTAX_ERROR);
    if (strstr(diagnostic.message, words) == NULL || diagnostic.line != line || (column && diagnostic.column != column))
        fail_msg("got %u:%u: %s; wanted %u:%u: ...%s...", diagnostic.line, diagnostic.column, diagnostic.message, line,
                 column, words);
}

/* Parses and expects `skipped` (not supported, or a limit) at `line` whose message holds `words`. */
static void not_supported(const char *text, uint32_t line, const char *words)
{
    struct amber_script *s = parse(text);
    assert_int_equal(diagnostic.status, AMBER_NOT_SUPPORTED);
    if (strstr(diagnostic.message, words) == NULL || diagnostic.line != line)
        fail_msg("got %u: %s; wanted %u: ...%s...", diagnostic.line, diagnostic.message, line, words);
    amber_script_free(s);
}

#define COMPUTE_SHADER                                                                                                 \
    "SHADER compute s GLSL\n"                                                                                          \
    "#version 450\n"                                                                                                   \
    "void main() {}\n"                                                                                                 \
    "END\n"

/* --- every command --------------------------------------------------------------------------- */

static void shaders_in_every_format(void **state)
{
    (void)state;
    struct amber_script *s = parse_ok("#!amber\n" COMPUTE_SHADER "SHADER vertex v PASSTHROUGH\n"
                                      "SHADER fragment f SPIRV-ASM TARGET_ENV spv1.3\n  OpCapability Shader\nEND\n"
                                      "SHADER multi m SPIRV-HEX\n03 02 23 07\nEND # trailing comment\n"
                                      "VIRTUAL_FILE dir/v.comp\n#version 450\nvoid main() {}\nEND\n"
                                      "SHADER compute from_virtual GLSL VIRTUAL_FILE dir/v.comp\n"
                                      "SHADER compute from_file GLSL FILE shader.comp\n");
    assert_int_equal(s->shader_count, 6);
    assert_string_equal(s->shaders[0].name, "s");
    assert_int_equal(s->shaders[0].stage, AMBER_STAGE_COMPUTE);
    assert_int_equal(s->shaders[0].format, AMBER_SHADER_GLSL);
    assert_string_equal(s->shaders[0].source, "#version 450\nvoid main() {}\n");
    assert_int_equal(s->shaders[0].source_line, 3);
    assert_int_equal(s->shaders[1].format, AMBER_SHADER_PASSTHROUGH);
    assert_string_equal(s->shaders[2].target_env, "spv1.3");
    assert_int_equal(s->shaders[3].stage, AMBER_STAGE_MULTI);
    assert_int_equal(s->shaders[3].format, AMBER_SHADER_SPIRV_HEX);
    assert_string_equal(s->shaders[4].source, "#version 450\nvoid main() {}\n");
    assert_non_null(strstr(s->shaders[5].source, "from a file"));
    amber_script_free(s);
}

static void buffers_and_initializers(void **state)
{
    (void)state;
    struct amber_script *s = parse_ok("#!amber\n"
                                      "BUFFER a DATA_TYPE int32 DATA -1 0x10\n 3 END\n"
                                      "BUFFER b DATA_TYPE vec2<float> STD140 SIZE 3 FILL 1.5\n"
                                      "BUFFER c DATA_TYPE uint16 SIZE 4 SERIES_FROM 1 INC_BY 2\n"
                                      "BUFFER d DATA_TYPE float[] STD140 DATA 1 2 END\n"
                                      "BUFFER e FORMAT R8G8B8A8_UNORM MIP_LEVELS 2 SAMPLES 4\n"
                                      "BUFFER f DATA_TYPE uint32 WIDTH 2 HEIGHT 3 FILL 7\n"
                                      "BUFFER g DATA_TYPE mat2x3<float> DATA 1 2 3 4 5 6 END\n"
                                      "BUFFER h DATA_TYPE float SIZE 2 FILE TEXT values.txt\n"
                                      "BUFFER i DATA_TYPE uint8 SIZE 4 FILE BINARY values.bin\n");
    assert_int_equal(s->buffer_count, 9);
    const struct amber_buffer *a = &s->buffers[0];
    assert_int_equal(a->init, AMBER_INIT_BYTES);
    assert_int_equal(a->element_count, 3);
    int32_t values[3];
    memcpy(values, a->bytes, sizeof(values));
    assert_int_equal(values[0], -1);
    assert_int_equal(values[1], 16);
    assert_int_equal(values[2], 3);
    assert_int_equal(s->buffers[1].init, AMBER_INIT_FILL);
    assert_int_equal(s->buffers[1].element_count, 3);
    assert_true(s->buffers[1].std140);
    assert_int_equal(s->buffers[1].layout.stride, 8); /* a vec2 on its own is not padded */
    assert_int_equal(s->buffers[2].init, AMBER_INIT_SERIES);
    assert_int_equal(s->buffers[2].series_step.magnitude, 2);
    assert_int_equal(s->buffers[3].layout.stride, 16); /* float[] under STD140 */
    assert_true(s->buffers[4].sized_by_framebuffer);
    assert_int_equal(s->buffers[4].mip_levels, 2);
    assert_int_equal(s->buffers[4].samples, 4);
    assert_int_equal(s->buffers[4].layout.format, VK_FORMAT_R8G8B8A8_UNORM);
    assert_int_equal(s->buffers[5].element_count, 6);
    assert_int_equal(s->buffers[5].width, 2);
    assert_int_equal(s->buffers[6].layout.stride, 32);
    float h[2];
    memcpy(h, s->buffers[7].bytes, sizeof(h));
    assert_true(h[0] == 0.5f && h[1] == -2.25f);
    assert_int_equal(s->buffers[8].element_count, 4);
    assert_int_equal(s->buffers[8].bytes[3], 0xFF);
    amber_script_free(s);
}

static void images_samplers_structs(void **state)
{
    (void)state;
    struct amber_script *s =
        parse_ok("#!amber\n"
                 "IMAGE one DATA_TYPE uint32 DIM_1D WIDTH 4 DATA 1 2 3 4 END\n"
                 "IMAGE two FORMAT R32_SFLOAT DIM_2D WIDTH 2 HEIGHT 2 FILL 0.5\n"
                 "IMAGE three FORMAT R8_UINT DIM_3D WIDTH 2 HEIGHT 2 DEPTH 2 SERIES_FROM 0 INC_BY 1\n"
                 "SAMPLER s MAG_FILTER linear MIN_FILTER linear ADDRESS_MODE_U clamp_to_border ADDRESS_MODE_V "
                 "mirrored_repeat ADDRESS_MODE_W clamp_to_edge BORDER_COLOR int_opaque_white MIN_LOD 0.5 MAX_LOD 3 "
                 "UNNORMALIZED_COORDS COMPARE on COMPARE_OP greater_or_equal\n"
                 "SAMPLER plain\n"
                 "STRUCT inner STRIDE 16\n  int32 a\n  float b OFFSET 8\nEND\n"
                 "STRUCT outer\n  vec3<float> v\n  inner nested\n  mat2x2<float> m MATRIX_STRIDE 16\nEND\n"
                 "BUFFER data DATA_TYPE outer STD430 DATA 1 2 3 4 5.5 1 2 3 4 END\n");
    assert_int_equal(s->buffers[0].dimension, AMBER_DIM_1D);
    assert_int_equal(s->buffers[1].element_count, 4);
    assert_int_equal(s->buffers[2].element_count, 8);
    assert_int_equal(s->buffers[2].dimension, AMBER_DIM_3D);
    const struct amber_sampler *sampler = &s->samplers[0];
    assert_int_equal(sampler->mag_filter, VK_FILTER_LINEAR);
    assert_int_equal(sampler->address_u, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
    assert_int_equal(sampler->border_color, VK_BORDER_COLOR_INT_OPAQUE_WHITE);
    assert_true(sampler->unnormalized && sampler->compare);
    assert_true(sampler->min_lod == 0.0f && sampler->max_lod == 0.0f); /* unnormalized: LOD 0 */
    assert_int_equal(sampler->compare_op, VK_COMPARE_OP_GREATER_OR_EQUAL);
    assert_true(s->samplers[1].max_lod == 1.0f);
    /* outer under STD430: v at 0 (12 bytes), nested (alignment 4, STRIDE 16) at 12, m (a mat2x2's
     * columns align to 8; MATRIX_STRIDE 16) at 32; the struct aligns to its vec3's 16 */
    const struct amber_layout *l = &s->buffers[3].layout;
    assert_int_equal(l->count, 9);
    assert_int_equal(l->segments[3].bit_offset / 8, 12);
    assert_int_equal(l->segments[4].bit_offset / 8, 20);
    assert_int_equal(l->segments[5].bit_offset / 8, 32);
    assert_int_equal(l->segments[7].bit_offset / 8, 48);
    assert_int_equal(l->stride, 64);
    amber_script_free(s);
}

static void requirements_and_settings(void **state)
{
    (void)state;
    struct amber_script *s = parse_ok("#!amber\nDEVICE_FEATURE shaderInt64\n"
                                      "DEVICE_FEATURE Storage16BitFeatures.storageBuffer16BitAccess\n"
                                      "DEVICE_FEATURE SubgroupSupportedOperations.ballot\n"
                                      "DEVICE_EXTENSION VK_KHR_8bit_storage\n"
                                      "INSTANCE_EXTENSION VK_KHR_get_physical_device_properties2\n"
                                      "DEVICE_PROPERTY FloatControlsProperties.shaderDenormPreserveFloat32\n"
                                      "SET ENGINE_DATA fence_timeout_ms 1000\n");
    assert_int_equal(s->requirement_count, 6);
    assert_int_equal(s->requirements[0].kind, AMBER_REQUIRE_FEATURE);
    assert_string_equal(s->requirements[1].name, "Storage16BitFeatures.storageBuffer16BitAccess");
    assert_int_equal(s->requirements[3].kind, AMBER_REQUIRE_EXTENSION);
    assert_int_equal(s->requirements[4].kind, AMBER_REQUIRE_INSTANCE_EXTENSION);
    assert_int_equal(s->requirements[5].kind, AMBER_REQUIRE_PROPERTY);
    assert_int_equal(s->requirements[0].where.line, 2);
    amber_script_free(s);
}

static void pipelines_and_every_bind(void **state)
{
    (void)state;
    struct amber_script *s = parse_ok(
        "#!amber\n" COMPUTE_SHADER "SHADER vertex v PASSTHROUGH\n"
        "SHADER fragment f GLSL\n#version 450\nvoid main() {}\nEND\n"
        "BUFFER u DATA_TYPE uint32 SIZE 64 FILL 0\nBUFFER u2 DATA_TYPE uint32 SIZE 64 FILL 0\n"
        "BUFFER t FORMAT R32_UINT\nBUFFER img FORMAT R8G8B8A8_UNORM\nBUFFER depth FORMAT D32_SFLOAT_S8_UINT\n"
        "BUFFER ms FORMAT R8G8B8A8_UNORM SAMPLES 4\nBUFFER positions DATA_TYPE vec2<float> DATA 0 0 END\n"
        "BUFFER indices DATA_TYPE uint16 DATA 0 END\nSAMPLER smp\nSAMPLER smp2\n"
        "PIPELINE compute c\n  ATTACH s ENTRY_POINT main SPECIALIZE 1 AS uint32 7 SPECIALIZE 2 AS float 0.5\n"
        "  BIND BUFFER u AS uniform DESCRIPTOR_SET 0 BINDING 0 DESCRIPTOR_OFFSET 16 DESCRIPTOR_RANGE 32\n"
        "  BIND BUFFER u AS storage DESCRIPTOR_SET 0 BINDING 1\n"
        "  BIND BUFFER u AS uniform_dynamic DESCRIPTOR_SET 0 BINDING 2 OFFSET 64\n"
        "  BIND BUFFER_ARRAY u u2 AS storage_dynamic DESCRIPTOR_SET 1 BINDING 0 OFFSET 0 128\n"
        "  BIND BUFFER t AS uniform_texel_buffer DESCRIPTOR_SET 1 BINDING 1\n"
        "  BIND BUFFER t AS storage_texel_buffer DESCRIPTOR_SET 1 BINDING 2\n"
        "  BIND BUFFER img AS storage_image DESCRIPTOR_SET 2 BINDING 0\n"
        "  BIND BUFFER img AS sampled_image DESCRIPTOR_SET 2 BINDING 1\n"
        "  BIND BUFFER img AS combined_image_sampler SAMPLER smp DESCRIPTOR_SET 2 BINDING 2\n"
        "  BIND SAMPLER smp DESCRIPTOR_SET 2 BINDING 3\n"
        "  BIND SAMPLER_ARRAY smp smp2 DESCRIPTOR_SET 2 BINDING 4\n"
        "  BIND BUFFER u AS push_constant\nEND\n"
        "PIPELINE graphics g\n  ATTACH v\n  ATTACH f\n  BIND BUFFER ms AS color LOCATION 1\n"
        "  BIND BUFFER img AS resolve\n  BIND BUFFER depth AS depth_stencil\n"
        "  VERTEX_DATA positions LOCATION 0 RATE instance FORMAT R32G32_SFLOAT OFFSET 0 STRIDE 8\n"
        "  INDEX_DATA indices\n  FRAMEBUFFER_SIZE 32 16\n  VIEWPORT 1 2 SIZE 3 4 MIN_DEPTH 0.25 MAX_DEPTH 0.75\n"
        "  POLYGON_MODE line\n  PATCH_CONTROL_POINTS 4\n"
        "  DEPTH\n    TEST on\n    WRITE on\n    COMPARE_OP greater\n    CLAMP on\n    BOUNDS min 0.1 max 0.9\n"
        "    BIAS constant 1 clamp 2 slope 3\n  END\n"
        "  STENCIL front\n    TEST on\n    FAIL_OP invert\n    PASS_OP increment_and_wrap\n    DEPTH_FAIL_OP zero\n"
        "    COMPARE_OP equal\n    COMPARE_MASK 15\n    WRITE_MASK 240\n    REFERENCE 9\n  END\n"
        "  BLEND\n    SRC_COLOR_FACTOR src_alpha\n    DST_COLOR_FACTOR one_minus_src_alpha\n    COLOR_OP max\n"
        "    SRC_ALPHA_FACTOR one\n    DST_ALPHA_FACTOR zero\n    ALPHA_OP multiply\n  END\nEND\n"
        "DERIVE_PIPELINE g2 FROM g\n  FRAMEBUFFER_SIZE 32 16\n  BIND BUFFER img AS color LOCATION 1\nEND\n");
    assert_int_equal(s->pipeline_count, 3);
    const struct amber_pipeline *c = &s->pipelines[0];
    assert_int_equal(c->type, AMBER_PIPELINE_COMPUTE);
    assert_int_equal(c->binding_count, 11);
    assert_int_equal(c->shaders[0].specialization_count, 2);
    assert_int_equal(c->shaders[0].specializations[1].bits, 0x3F000000u);
    assert_int_equal(c->bindings[0].descriptor_offsets[0], 16);
    assert_int_equal(c->bindings[0].descriptor_ranges[0], 32);
    assert_int_equal(c->bindings[1].descriptor_ranges[0], UINT64_MAX);
    assert_int_equal(c->bindings[3].kind, AMBER_BIND_STORAGE_DYNAMIC);
    assert_int_equal(c->bindings[3].count, 2);
    assert_int_equal(c->bindings[3].dynamic_offsets[1], 128);
    assert_int_equal(c->bindings[8].kind, AMBER_BIND_COMBINED_IMAGE_SAMPLER);
    assert_int_equal(c->bindings[10].count, 2);
    assert_int_equal(c->push_constants, 0);
    const struct amber_pipeline *g = &s->pipelines[1];
    assert_int_equal(g->colors[0].location, 1);
    assert_int_equal(g->resolve_count, 1);
    assert_true(g->vertex_inputs[0].per_instance);
    assert_int_equal(g->width, 32);
    assert_true(g->viewport_set && g->viewport[5] == 0.75f);
    assert_int_equal(g->polygon_mode, VK_POLYGON_MODE_LINE);
    assert_true(g->depth.test && g->depth.clamp && g->depth.bounds && g->depth.bias);
    assert_int_equal(g->stencil_front.fail_op, VK_STENCIL_OP_INVERT);
    assert_int_equal(g->stencil_back.fail_op, VK_STENCIL_OP_KEEP);
    assert_int_equal(g->stencil_front.write_mask, 240);
    assert_int_equal(g->blend.color_op, VK_BLEND_OP_MAX);
    assert_int_equal(g->blend.alpha_op, VK_BLEND_OP_MULTIPLY_EXT);
    /* the derived pipeline keeps its parent's state and replaces location 1 */
    const struct amber_pipeline *g2 = &s->pipelines[2];
    assert_int_equal(g2->color_count, 1);
    assert_int_equal(g2->colors[0].buffer, 3);
    assert_int_equal(g2->stencil_front.reference, 9);
    amber_script_free(s);
}

static void commands(void **state)
{
    (void)state;
    struct amber_script *s = parse_ok(
        "#!amber\n" COMPUTE_SHADER "SHADER vertex v PASSTHROUGH\nSHADER fragment f GLSL\nvoid main() {}\nEND\n"
        "BUFFER a DATA_TYPE vec2<float> SIZE 4 FILL 0\nBUFFER b DATA_TYPE vec2<float> SIZE 4 FILL 0\n"
        "BUFFER pixels FORMAT R8G8B8A8_UNORM\nBUFFER rgba DATA_TYPE R8G8B8A8_UNORM DATA 1 2 3 4 END\n"
        "BUFFER rgba2 DATA_TYPE R8G8B8A8_UNORM DATA 1 2 3 4 END\n"
        "BUFFER v DATA_TYPE vec2<float> DATA 0 0 END\nBUFFER i DATA_TYPE uint32 DATA 0 END\n"
        "PIPELINE compute c\n  ATTACH s\nEND\n"
        "PIPELINE graphics g\n  ATTACH v\n  ATTACH f\n  BIND BUFFER pixels AS color LOCATION 0\n"
        "  VERTEX_DATA v LOCATION 0\n  INDEX_DATA i\nEND\n"
        "RUN c 2 3 4\nRUN TIMED_EXECUTION g DRAW_RECT POS 1 2 SIZE 3 4\n"
        "RUN g DRAW_GRID POS 0 0 SIZE 10 10 CELLS 2 5\n"
        "RUN g DRAW_ARRAY AS TRIANGLE_fan INDEXED START_IDX 1 COUNT 2 START_INSTANCE 3 INSTANCE_COUNT 4\n"
        "CLEAR_COLOR g 1 2 3 255\nCLEAR_DEPTH g 0.5\nCLEAR_STENCIL g 7\nCLEAR g\nCOPY a TO b\n"
        "REPEAT 5\n  RUN c 1 1 1\n  EXPECT a IDX 8 TOLERANCE 1% 0.5 EQ 1 2\nEND\n"
        "EXPECT a IDX 0 NE 1.5 2\nEXPECT a IDX 0 LT 1\nEXPECT a IDX 0 LE 1\nEXPECT a IDX 0 GT 1\nEXPECT a IDX 0 GE 1\n"
        "EXPECT pixels IDX 1 2 SIZE 3 4 EQ_RGB 1 2 3\nEXPECT pixels IDX 0 0 SIZE 1 1 EQ_RGBA 1 2 3 4 TOLERANCE 1 2 3 4\n"
        "EXPECT a EQ_BUFFER b\nEXPECT a RMSE_BUFFER b TOLERANCE 0.5\n"
        "EXPECT rgba EQ_HISTOGRAM_EMD_BUFFER rgba2 TOLERANCE 0.1\n");
    assert_int_equal(s->command_count, 22);
    const struct amber_command *c = s->commands;
    assert_int_equal(c[0].kind, AMBER_CMD_RUN_COMPUTE);
    assert_int_equal(c[0].run.z, 4);
    assert_int_equal(c[1].kind, AMBER_CMD_DRAW_RECT);
    assert_true(c[1].timed && c[1].rect.height == 4.0f);
    assert_int_equal(c[2].rect.rows, 5);
    assert_int_equal(c[3].draw.topology, AMBER_TOPOLOGY_TRIANGLE_FAN);
    assert_true(c[3].draw.indexed);
    assert_int_equal(c[3].draw.instance_count, 4);
    assert_true(c[4].clear_color.rgba[3] == 255.0f);
    assert_true(c[5].clear_depth == 0.5f);
    assert_int_equal(c[6].clear_stencil, 7);
    assert_int_equal(c[7].kind, AMBER_CMD_CLEAR);
    assert_int_equal(c[8].copy.to, 1);
    assert_int_equal(c[9].kind, AMBER_CMD_REPEAT);
    assert_int_equal(c[9].repeat.count, 5);
    assert_int_equal(c[9].repeat.body, 2);
    assert_int_equal(c[11].values.offset, 8);
    assert_int_equal(c[11].values.tolerance_count, 2);
    assert_true(c[11].values.tolerances[0].percent && !c[11].values.tolerances[1].percent);
    assert_int_equal(c[12].values.comparator, AMBER_CMP_NE);
    assert_int_equal(c[16].values.comparator, AMBER_CMP_GE);
    assert_int_equal(c[17].kind, AMBER_CMD_EXPECT_PIXELS);
    assert_false(c[17].pixels.rgba);
    assert_int_equal(c[18].pixels.tolerance_count, 4);
    assert_int_equal(c[19].kind, AMBER_CMD_EXPECT_BUFFER);
    assert_true(c[20].compare.tolerance == 0.5);
    assert_int_equal(c[21].kind, AMBER_CMD_EXPECT_EMD);
    assert_int_equal(s->expect_count, 11);
    amber_script_free(s);
}

static void default_framebuffer_and_image_sizes(void **state)
{
    (void)state;
    struct amber_script *s =
        parse_ok("#!amber\nSHADER vertex v PASSTHROUGH\nSHADER fragment f GLSL\nvoid main() {}\nEND\n"
                 "IMAGE big FORMAT R8G8B8A8_UNORM DIM_2D WIDTH 64 HEIGHT 32\n"
                 "PIPELINE graphics default\n  ATTACH v\n  ATTACH f\nEND\n"
                 "PIPELINE graphics sized\n  ATTACH v\n  ATTACH f\n  BIND BUFFER big AS color LOCATION 0\nEND\n"
                 "EXPECT framebuffer IDX 0 0 SIZE 1 1 EQ_RGB 0 0 0\n");
    assert_int_equal(s->pipelines[0].width, AMBER_DEFAULT_FRAMEBUFFER);
    assert_string_equal(s->buffers[s->pipelines[0].colors[0].buffer].name, "framebuffer");
    assert_int_equal(s->pipelines[1].width, 64); /* without FRAMEBUFFER_SIZE: the image's */
    assert_int_equal(s->pipelines[1].height, 32);
    amber_script_free(s);
}

static void shader_optimization(void **state)
{
    (void)state;
    struct amber_script *s = parse_ok("#!amber\n" COMPUTE_SHADER
                                      "PIPELINE compute p\n  ATTACH s\n  SHADER_OPTIMIZATION s\n    --merge-return\n"
                                      "    --set-spec-const-default-value=0:7 --eliminate-dead-code-aggressive\n"
                                      "  END\nEND\nDERIVE_PIPELINE q FROM p\nEND\n"
                                      "PIPELINE compute r\n  ATTACH s\n  SHADER_OPTIMIZATION s\n  END\nEND\n");
    assert_string_equal(s->pipelines[0].shaders[0].passes,
                        "--merge-return\n--set-spec-const-default-value=0:7\n--eliminate-dead-code-aggressive\n");
    /* a derived pipeline has its own copy (freed once each: the ASan build checks) */
    assert_string_equal(s->pipelines[1].shaders[0].passes, s->pipelines[0].shaders[0].passes);
    assert_ptr_not_equal(s->pipelines[1].shaders[0].passes, s->pipelines[0].shaders[0].passes);
    assert_null(s->pipelines[2].shaders[0].passes); /* an empty block: no passes */
    amber_script_free(s);
    syntax_error("#!amber\n" COMPUTE_SHADER
                 "PIPELINE compute p\n  SHADER_OPTIMIZATION s\n    --merge-return\n  END\nEND\n",
                 7, 23, "not attached to this pipeline");
    syntax_error("#!amber\n" COMPUTE_SHADER
                 "PIPELINE compute p\n  ATTACH s\n  SHADER_OPTIMIZATION s\n    merge-return\n",
                 9, 5, "an optimizer flag");
    syntax_error("#!amber\n" COMPUTE_SHADER
                 "PIPELINE compute p\n  ATTACH s\n  SHADER_OPTIMIZATION s\n    --merge-return\n",
                 8, 3, "SHADER_OPTIMIZATION has no END line");
    /* a derived pipeline that swaps the shader drops the old one's passes (no leak) */
    s = parse_ok("#!amber\n" COMPUTE_SHADER "SHADER compute t GLSL\nvoid main() {}\nEND\n"
                 "PIPELINE compute p\n  ATTACH s\n  SHADER_OPTIMIZATION s\n    --merge-return\n  END\nEND\n"
                 "DERIVE_PIPELINE q FROM p\n  ATTACH t\nEND\n");
    assert_null(s->pipelines[1].shaders[0].passes);
    amber_script_free(s);
}

/* --- ray tracing ---------------------------------------------------------------------------- */

#define RAY_SHADERS                                                                                                    \
    "SHADER ray_generation gen GLSL\nvoid main() {}\nEND\n"                                                            \
    "SHADER miss miss GLSL\nvoid main() {}\nEND\n"                                                                     \
    "SHADER closest_hit chit GLSL\nvoid main() {}\nEND\n"                                                              \
    "SHADER any_hit ahit GLSL\nvoid main() {}\nEND\n"                                                                  \
    "SHADER intersection isect GLSL\nvoid main() {}\nEND\n"                                                            \
    "SHADER callable call GLSL\nvoid main() {}\nEND\n"

#define RAY_SCENE                                                                                                      \
    "ACCELERATION_STRUCTURE BOTTOM_LEVEL tri\n  GEOMETRY TRIANGLES\n    FLAGS OPAQUE\n"                                \
    "    0 0 0  1 0 0  0 1 0\n    0 0 1  1 0 1  0 1 1\n  END\nEND\n"                                                   \
    "ACCELERATION_STRUCTURE BOTTOM_LEVEL boxes\n  GEOMETRY AABBS\n    FLAGS\n      OPAQUE\n"                           \
    "      NO_DUPLICATE_ANY_HIT\n    END\n    0 0 0 1 1 1\n  END\n  GEOMETRY AABBS\n    2 2 2 3 3 3\n  END\nEND\n"     \
    "ACCELERATION_STRUCTURE TOP_LEVEL scene\n  BLAS_INSTANCE USE tri\n"                                                \
    "  BOTTOM_LEVEL_INSTANCE boxes INDEX 7 OFFSET 2 MASK 0x0F FLAGS FORCE_OPAQUE 16\n"                                 \
    "    TRANSFORM\n      1 0 0 5\n      0 1 0 0\n      0 0 1 0\n    END\n  END\nEND\n"

static void ray_tracing_commands(void **state)
{
    (void)state;
    struct amber_script *s = parse_ok("#!amber\n" RAY_SHADERS RAY_SCENE "BUFFER out DATA_TYPE uint32 SIZE 4 FILL 0\n"
                                      "PIPELINE ray_tracing lib\n  FLAGS LIBRARY\n  MAX_RAY_PAYLOAD_SIZE 16\n"
                                      "  MAX_RAY_HIT_ATTRIBUTE_SIZE 8\n  SHADER_GROUP m miss\n"
                                      "  BIND BUFFER out AS storage DESCRIPTOR_SET 0 BINDING 1\nEND\n"
                                      "PIPELINE raytracing rt\n  USE_LIBRARY lib\n  MAX_RAY_PAYLOAD_SIZE 16\n"
                                      "  MAX_RAY_HIT_ATTRIBUTE_SIZE 8\n  MAX_RAY_RECURSION_DEPTH 2\n"
                                      "  BIND ACCELERATION_STRUCTURE scene DESCRIPTOR_SET 0 BINDING 0\n"
                                      "  SHADER_GROUP g gen\n  SHADER_GROUP h chit ahit isect\n  SHADER_GROUP c call\n"
                                      "  SHADER_BINDING_TABLE gt\n    g\n  END\n"
                                      "  SHADER_BINDING_TABLE ht\n    h | m\n  END\n"
                                      "  SHADER_BINDING_TABLE ct\n    c\n  END\nEND\n"
                                      "DERIVE_PIPELINE rt2 FROM rt\nEND\n"
                                      "RUN rt RAYGEN gt HIT ht CALL ct MISS ht 4 2 1\n"
                                      "RUN TIMED_EXECUTION rt2 RAYGEN gt 1 1 1\n");
    assert_int_equal(s->shaders[0].stage, AMBER_STAGE_RAY_GENERATION);
    assert_int_equal(s->shaders[5].stage, AMBER_STAGE_CALLABLE);
    assert_int_equal(s->blas_count, 2);
    assert_false(s->blases[0].aabbs);
    assert_int_equal(s->blases[0].geometries[0].primitive_count, 2);
    assert_int_equal(s->blases[0].geometries[0].flags, VK_GEOMETRY_OPAQUE_BIT_KHR);
    assert_true(s->blases[1].aabbs);
    assert_int_equal(s->blases[1].geometry_count, 2);
    assert_int_equal(s->blases[1].geometries[0].flags,
                     VK_GEOMETRY_OPAQUE_BIT_KHR | VK_GEOMETRY_NO_DUPLICATE_ANY_HIT_INVOCATION_BIT_KHR);
    assert_true(s->blases[1].geometries[1].data[5] == 3.0f);
    const struct amber_tlas *t = &s->tlases[0];
    assert_int_equal(t->instance_count, 2);
    assert_int_equal(t->instances[0].mask, 0xFF); /* the defaults */
    assert_true(t->instances[0].transform[0] == 1.0f && t->instances[0].transform[3] == 0.0f);
    assert_int_equal(t->instances[1].blas, 1);
    assert_int_equal(t->instances[1].custom_index, 7);
    assert_int_equal(t->instances[1].sbt_offset, 2);
    assert_int_equal(t->instances[1].mask, 0x0F);
    assert_int_equal(t->instances[1].flags, VK_GEOMETRY_INSTANCE_FORCE_OPAQUE_BIT_KHR | 16);
    assert_true(t->instances[1].transform[3] == 5.0f);
    const struct amber_pipeline *lib = &s->pipelines[0], *rt = &s->pipelines[1];
    assert_true(lib->library);
    assert_int_equal(lib->max_ray_recursion_depth, 1); /* the default */
    assert_int_equal(rt->type, AMBER_PIPELINE_RAY_TRACING);
    assert_int_equal(rt->library_count, 1);
    assert_int_equal(rt->binding_count, 2); /* its own, and the library's */
    assert_int_equal(rt->max_ray_recursion_depth, 2);
    assert_int_equal(rt->group_count, 3);
    assert_int_equal(rt->groups[0].general, 0);
    assert_int_equal(rt->groups[1].closest_hit, 2);
    assert_int_equal(rt->groups[1].any_hit, 3);
    assert_int_equal(rt->groups[1].intersection, 4);
    assert_int_equal(rt->groups[1].general, AMBER_NO_SHADER);
    assert_int_equal(rt->sbt_count, 3);
    assert_int_equal(rt->sbts[1].record_count, 2);
    assert_int_equal(rt->sbts[1].records[1].pipeline, 0);             /* m is the library's */
    assert_int_equal(s->pipelines[2].sbts[0].records[0].pipeline, 2); /* a derived pipeline's own groups */
    const struct amber_command *c = &s->commands[0];
    assert_int_equal(c->kind, AMBER_CMD_TRACE_RAYS);
    assert_int_equal(c->trace.raygen, 0);
    assert_int_equal(c->trace.hit, 1);
    assert_int_equal(c->trace.call, 2);
    assert_int_equal(c->trace.miss, 1);
    assert_int_equal(c->trace.x, 4);
    assert_true(s->commands[1].timed);
    assert_int_equal(s->commands[1].trace.miss, AMBER_NO_SHADER);
    amber_script_free(s);
}

static void ray_tracing_errors(void **state)
{
    (void)state;
    syntax_error("#!amber\nACCELERATION_STRUCTURE BOTTOM_LEVEL b\n  GEOMETRY TRIANGLES\n    0 0 0\n", 3, 0,
                 "has no END");
    syntax_error("#!amber\nACCELERATION_STRUCTURE BOTTOM_LEVEL b\n", 2, 0, "has no END");
    syntax_error("#!amber\nACCELERATION_STRUCTURE MIDDLE_LEVEL b\nEND\n", 2, 24, "BOTTOM_LEVEL or TOP_LEVEL");
    syntax_error("#!amber\nACCELERATION_STRUCTURE BOTTOM_LEVEL b END\n", 2, 39, "end of the line");
    syntax_error("#!amber\nACCELERATION_STRUCTURE BOTTOM_LEVEL b\nEND\n", 2, 0, "no GEOMETRY");
    syntax_error("#!amber\nACCELERATION_STRUCTURE BOTTOM_LEVEL b\n  GEOMETRY TRIANGLES\n  END\nEND\n", 3, 0,
                 "lists no triangles");
    syntax_error("#!amber\nACCELERATION_STRUCTURE BOTTOM_LEVEL b\n  GEOMETRY TRIANGLES\n    0 0 0 1 0 0\n  END\nEND\n",
                 3, 0, "each triangle is 9");
    syntax_error("#!amber\nACCELERATION_STRUCTURE BOTTOM_LEVEL b\n  GEOMETRY AABBS\n    0 0 0 1 1\n  END\nEND\n", 3, 0,
                 "each box is 6");
    syntax_error("#!amber\nACCELERATION_STRUCTURE BOTTOM_LEVEL b\n  GEOMETRY AABBS\n    0 0 zero 1 1 1\n  END\nEND\n",
                 4, 9, "a coordinate");
    syntax_error("#!amber\nACCELERATION_STRUCTURE BOTTOM_LEVEL b\n  GEOMETRY TRIANGLES\n    0 0 0 1 0 0 0 1 0\n"
                 "  END\n  GEOMETRY AABBS\n    0 0 0 1 1 1\n  END\nEND\n",
                 6, 0, "mixes TRIANGLES and AABBS");
    syntax_error("#!amber\nACCELERATION_STRUCTURE BOTTOM_LEVEL b\n  GEOMETRY TRIANGLES\n    FLAGS SHINY\n", 4, 11,
                 "OPAQUE, NO_DUPLICATE_ANY_HIT");
    syntax_error("#!amber\nACCELERATION_STRUCTURE TOP_LEVEL t\n  BLAS_INSTANCE USE nothing\nEND\n", 3, 21,
                 "no ACCELERATION_STRUCTURE BOTTOM_LEVEL named 'nothing'");
    syntax_error("#!amber\n" RAY_SCENE "ACCELERATION_STRUCTURE TOP_LEVEL t\n  BOTTOM_LEVEL_INSTANCE tri MASK 256\n", 32,
                 34, "the MASK (0 to 255)");
    syntax_error("#!amber\n" RAY_SCENE "ACCELERATION_STRUCTURE TOP_LEVEL t\n  BOTTOM_LEVEL_INSTANCE tri INDEX -1\n", 32,
                 35, "the INDEX (0 to 16777215)");
    syntax_error("#!amber\n" RAY_SCENE
                 "ACCELERATION_STRUCTURE TOP_LEVEL t\n  BOTTOM_LEVEL_INSTANCE tri TRANSFORM 1 2 END\n",
                 32, 29, "TRANSFORM has 2 values");
    syntax_error("#!amber\n" RAY_SCENE "ACCELERATION_STRUCTURE TOP_LEVEL t\n  BOTTOM_LEVEL_INSTANCE tri\n", 32, 3,
                 "BOTTOM_LEVEL_INSTANCE has no END");
    syntax_error("#!amber\n" RAY_SCENE "ACCELERATION_STRUCTURE TOP_LEVEL t\nEND\n", 31, 1, "no instance");
    syntax_error("#!amber\n" RAY_SCENE "ACCELERATION_STRUCTURE TOP_LEVEL tri\nEND\n", 31, 34, "exists already");
    /* pipelines */
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  SHADER_GROUP g chit miss\nEND\n", 21, 23,
                 "a hit group cannot hold miss");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  SHADER_GROUP g gen miss\nEND\n", 21, 22,
                 "two shaders of one kind (gen and miss)");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  SHADER_GROUP g gen chit\nEND\n", 21, 22,
                 "cannot hold the hit shader");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  SHADER_GROUP g chit chit\nEND\n", 21, 23,
                 "two shaders of one kind");
    syntax_error("#!amber\n" RAY_SHADERS COMPUTE_SHADER "PIPELINE ray_tracing rt\n  SHADER_GROUP g s\nEND\n", 25, 18,
                 "not a ray-tracing shader");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  SHADER_GROUP g\nEND\n", 21, 3, "names no shader");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  SHADER_GROUP g gen\n  SHADER_GROUP g miss\nEND\n",
                 22, 16, "exists already");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  SHADER_GROUP g gen\n"
                 "  SHADER_BINDING_TABLE t\n    nothing\n  END\nEND\n",
                 23, 5, "no SHADER_GROUP 'nothing'");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  SHADER_GROUP g gen\n  SHADER_BINDING_TABLE t\n",
                 22, 3, "has no END");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\nEND\n", 20, 1, "needs a SHADER_GROUP");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  ATTACH gen\nEND\n", 21, 3, "SHADER_GROUP lines");
    syntax_error("#!amber\n" RAY_SHADERS COMPUTE_SHADER "PIPELINE compute p\n  ATTACH gen\nEND\n", 25, 10,
                 "ray-tracing shader goes in a SHADER_GROUP");
    syntax_error("#!amber\n" COMPUTE_SHADER "PIPELINE compute p\n  ATTACH s\n  SHADER_GROUP g s\nEND\n", 8, 3,
                 "for ray_tracing pipelines");
    syntax_error(
        "#!amber\n" RAY_SHADERS RAY_SCENE COMPUTE_SHADER
        "PIPELINE compute p\n  ATTACH s\n  BIND ACCELERATION_STRUCTURE scene DESCRIPTOR_SET 0 BINDING 0\nEND\n",
        55, 8, "for ray_tracing pipelines");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  SHADER_GROUP g gen\n"
                 "  BIND ACCELERATION_STRUCTURE nothing DESCRIPTOR_SET 0 BINDING 0\nEND\n",
                 22, 31, "no ACCELERATION_STRUCTURE TOP_LEVEL named 'nothing'");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing lib\n  FLAGS LIBRARY\n  SHADER_GROUP m miss\nEND\n"
                 "PIPELINE ray_tracing rt\n  SHADER_GROUP g gen\n  USE_LIBRARY lib\nEND\n",
                 26, 3, "comes before");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing lib\n  SHADER_GROUP m miss\nEND\n"
                 "PIPELINE ray_tracing rt\n  USE_LIBRARY lib\nEND\n",
                 24, 15, "not a ray_tracing pipeline with FLAGS LIBRARY");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing lib\n  FLAGS LIBRARY\n  MAX_RAY_PAYLOAD_SIZE 4\n"
                 "  SHADER_GROUP m miss\nEND\nPIPELINE ray_tracing rt\n  USE_LIBRARY lib\n  SHADER_GROUP g gen\nEND\n",
                 25, 1, "differ from those of its library lib");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  FLAGS FAST\nEND\n", 21, 9,
                 "a FLAGS flag (LIBRARY)");
    syntax_error("#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  FLAGS\n    LIBRARY\n", 21, 3, "FLAGS has no END");
    /* RUN */
    const char *rt = "#!amber\n" RAY_SHADERS "PIPELINE ray_tracing rt\n  SHADER_GROUP g gen\n  SHADER_GROUP m miss\n"
                     "  SHADER_BINDING_TABLE gt\n    g\n  END\n  SHADER_BINDING_TABLE mt\n    m\n  END\nEND\n";
    char text[4096];
    snprintf(text, sizeof(text), "%sRUN rt MISS mt 1 1 1\n", rt);
    syntax_error(text, 30, 8, "needs RAYGEN");
    snprintf(text, sizeof(text), "%sRUN rt RAYGEN nothing 1 1 1\n", rt);
    syntax_error(text, 30, 15, "has no SHADER_BINDING_TABLE 'nothing'");
    snprintf(text, sizeof(text), "%sRUN rt RAYGEN gt RAYGEN gt 1 1 1\n", rt);
    syntax_error(text, 30, 25, "twice");
    snprintf(text, sizeof(text), "%sRUN rt RAYGEN gt SIDEWAYS mt 1 1 1\n", rt);
    syntax_error(text, 30, 18, "expected RAYGEN, MISS, HIT, CALL");
    snprintf(text, sizeof(text), "%sRUN rt RAYGEN gt 1 1\n", rt);
    syntax_error(text, 30, 21, "the ray count z");
    snprintf(text, sizeof(text), "%sRUN rt 1 1 1\n", rt);
    syntax_error(text, 30, 8, "expected RAYGEN");
    snprintf(text, sizeof(text), "%sRUN rt DRAW_RECT POS 0 0 SIZE 1 1\n", rt);
    syntax_error(text, 30, 8, "expected RAYGEN");
    snprintf(text, sizeof(text),
             "#!amber\n" RAY_SHADERS "PIPELINE ray_tracing lib\n  FLAGS LIBRARY\n  SHADER_GROUP g gen\n"
             "  SHADER_BINDING_TABLE gt\n    g\n  END\nEND\nRUN lib RAYGEN gt 1 1 1\n");
    syntax_error(text, 27, 9, "linked into others, not run");
}

/* --- what is not run ------------------------------------------------------------------------- */

static void unsupported_commands_are_named_with_their_line(void **state)
{
    (void)state;
    not_supported("#!amber\nSHADER vertex h HLSL\nfloat4 main() : SV_POSITION { return 0; }\nEND\n", 2, "HLSL");
    not_supported("#!amber\nSHADER compute k OPENCL-C\nkernel void f() {}\nEND\n", 2, "OPENCL-C");
    not_supported("#!amber\nDEBUG p 1 1 1\nEND\n", 2, "debugger");
    not_supported("#!amber\n" COMPUTE_SHADER
                  "PIPELINE compute p\n  ATTACH s\n  COMPILE_OPTIONS s\n    -O\n  END\nEND\n",
                  8, "COMPILE_OPTIONS");
    not_supported("#!amber\nDEVICE_FEATURE CooperativeMatrixFeaturesKHR.cooperativeMatrix\n", 2, "headers");
    not_supported("#!amber\nSTRUCT s\n  float[] a\nEND\n", 3, "array members");
    /* the first problem in file order decides: a syntax error after an unsupported shader is not it */
    not_supported("#!amber\nSHADER vertex h HLSL\nx\nEND\nBUFFERS\n", 2, "HLSL");
}

static void limits_are_skips_not_allocations(void **state)
{
    (void)state;
    /* 1 GiB of floats, 2^64 - 1 elements, a huge image: refused before anything is allocated */
    not_supported("#!amber\nBUFFER huge DATA_TYPE float SIZE 268435456 FILL 1.0\n", 2, "256 MiB");
    not_supported("#!amber\nBUFFER huge DATA_TYPE uint8 SIZE 18446744073709551615 FILL 1\n", 2, "limit");
    not_supported("#!amber\nIMAGE i FORMAT R32G32B32A32_SFLOAT DIM_3D WIDTH 1024 HEIGHT 1024 DEPTH 1024\n", 2, "limit");
    not_supported(
        "#!amber\nBUFFER a DATA_TYPE float SIZE 67108864 FILL 1\nBUFFER b DATA_TYPE float SIZE 67108864 FILL 1\n"
        "BUFFER c DATA_TYPE float SIZE 67108864 FILL 1\nBUFFER d DATA_TYPE float SIZE 67108864 FILL 1\n"
        "BUFFER e DATA_TYPE float SIZE 67108864 FILL 1\n",
        6, "1024 MiB");
    /* a file beyond the limit is not even read */
    struct amber_script *s = amber_parse("#!amber\n", (size_t)AMBER_MAX_FILE_BYTES + 1, NULL, &diagnostic);
    assert_int_equal(diagnostic.status, AMBER_NOT_SUPPORTED);
    assert_non_null(strstr(diagnostic.message, "MiB"));
    amber_script_free(s);
}

/* --- hostile input --------------------------------------------------------------------------- */

static void unterminated_blocks(void **state)
{
    (void)state;
    syntax_error("#!amber\nSHADER compute s GLSL\nvoid main() {}\n", 2, 16, "no END line");
    syntax_error("#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 2\n3\n", 2, 27, "DATA has no END");
    syntax_error("#!amber\n" COMPUTE_SHADER "PIPELINE compute p\n  ATTACH s\n", 6, 1, "PIPELINE p has no END line");
    syntax_error("#!amber\nSTRUCT s\n  float a\n", 2, 1, "STRUCT s has no END line");
    syntax_error("#!amber\n" COMPUTE_SHADER "PIPELINE compute p\n ATTACH s\nEND\nREPEAT 2\n RUN p 1 1 1\n", 9, 1,
                 "REPEAT has no END line");
    syntax_error("#!amber\nVIRTUAL_FILE f\ntext\n", 2, 1, "VIRTUAL_FILE f has no END line");
    syntax_error("#!amber\nSHADER vertex v PASSTHROUGH\nSHADER fragment f GLSL\nEND\nPIPELINE graphics g\n"
                 " ATTACH v\n ATTACH f\n DEPTH\n  TEST on\n",
                 8, 2, "DEPTH has no END line");
}

/* Names of Amber's feature table the document does not list, and data as Amber stores it: wider
 * values keep their low bits, whole numbers with a point are integers, packed formats take one
 * value per element (the word). */
static void amber_names_and_data(void **state)
{
    (void)state;
    struct amber_script *s =
        parse_ok("#!amber\nDEVICE_FEATURE IndexTypeUint8Features.indexTypeUint8\n"
                 "DEVICE_FEATURE ShaderSubgroupExtendedTypesFeatures.shaderSubgroupExtendedTypes\n");
    assert_int_equal(s->requirement_count, 2);
    amber_script_free(s);
    syntax_error("#!amber\nDEVICE_FEATURE IndexTypeUint8FeaturesEXT.indexTypeUint8\n", 2, 16, "unknown DEVICE_FEATURE");
    /* 128 and -129 in int8, 272 in uint8: the low 8 bits, as Amber's conversion keeps them */
    s = parse_ok("#!amber\nBUFFER b DATA_TYPE int8 DATA 128 -129 -1 END\nBUFFER u DATA_TYPE uint8 DATA 272 END\n");
    assert_int_equal(s->buffers[0].element_count, 3);
    assert_int_equal(s->buffers[0].bytes[0], 0x80);
    assert_int_equal(s->buffers[0].bytes[1], 0x7F);
    assert_int_equal(s->buffers[0].bytes[2], 0xFF);
    assert_int_equal(s->buffers[1].bytes[0], 16);
    amber_script_free(s);
    /* FILL 0.0 and SERIES_FROM 2.0 of integer types (the CTS's mul_extended files) */
    s = parse_ok("#!amber\nBUFFER a DATA_TYPE vec2<int16> SIZE 4 FILL 0.0\n"
                 "BUFFER b DATA_TYPE uint8 SIZE 4 SERIES_FROM 2.0 INC_BY 1\nBUFFER c DATA_TYPE int16 DATA -2.0 END\n");
    assert_int_equal(s->buffers[0].init, AMBER_INIT_FILL);
    assert_int_equal(s->buffers[1].init, AMBER_INIT_SERIES);
    assert_int_equal(s->buffers[2].bytes[0], 0xFE);
    assert_int_equal(s->buffers[2].bytes[1], 0xFF);
    amber_script_free(s);
    /* packed formats: one value an element, the whole word */
    s = parse_ok("#!amber\nBUFFER t DATA_TYPE A2B10G10R10_SNORM_PACK32 DATA 2684879360 0x7c1f0000 END\n"
                 "BUFFER f DATA_TYPE B10G11R11_UFLOAT_PACK32 DATA 0x000003e0 END\n"
                 "IMAGE i FORMAT A8B8G8R8_UNORM_PACK32 DIM_1D WIDTH 2 FILL 2155905152\n"
                 "BUFFER s DATA_TYPE R5G6B5_UNORM_PACK16 SIZE 3 SERIES_FROM 65534 INC_BY 1\n");
    assert_int_equal(s->buffers[0].element_count, 2);
    assert_int_equal(s->buffers[0].bytes[0], 0x00);
    assert_int_equal(s->buffers[0].bytes[3], 0xA0);
    assert_int_equal(s->buffers[0].bytes[6], 0x1F);
    assert_int_equal(s->buffers[0].bytes[7], 0x7C);
    assert_int_equal(s->buffers[1].element_count, 1);
    assert_int_equal(s->buffers[1].bytes[0], 0xE0);
    assert_int_equal(s->buffers[1].bytes[1], 0x03);
    amber_script_free(s);
    /* hostile: a fraction, a number past 64 bits, infinity for integers and words */
    syntax_error("#!amber\nBUFFER b DATA_TYPE int16 SIZE 2 FILL 0.5\n", 2, 0, "not an integer");
    syntax_error("#!amber\nBUFFER b DATA_TYPE A8B8G8R8_UINT_PACK32 DATA 1.5 END\n", 2, 46, "not an integer");
    syntax_error("#!amber\nBUFFER b DATA_TYPE R8G8B8A8_UINT_PACK32 DATA 1 END\n", 2, 20, "unknown");
    syntax_error("#!amber\nBUFFER b DATA_TYPE A8B8G8R8_UINT_PACK32 DATA 99999999999999999999999 END\n", 2, 46,
                 "does not fit in 64 bits");
    syntax_error("#!amber\nBUFFER b DATA_TYPE uint8 SIZE 2 SERIES_FROM 1e400 INC_BY 1\n", 2, 0, "");
    /* a template's placeholders: skipped, saying so, wherever the first one stands */
    not_supported("#!amber\n\n{device_features}\nSHADER compute s GLSL\n{source}\nEND\n", 3, "a template");
    not_supported("#!amber\nBUFFER b DATA_TYPE {amber_float_type} DATA\n{values}\nEND\n", 2, "'{amber_float_type}'");
    syntax_error("#!amber\n{}\n", 2, 1, "expected a command");
    syntax_error("#!amber\n{a-b}\n", 2, 1, "expected a command");
}

static void bad_numbers_types_and_words(void **state)
{
    (void)state;
    syntax_error("#!amber\nBUFFER b DATA_TYPE uint32 SIZE 12abc FILL 0\n", 2, 32, "got '12abc'");
    syntax_error("#!amber\nBUFFER b DATA_TYPE uint32 SIZE -3 FILL 0\n", 2, 32, "0 or more");
    syntax_error("#!amber\nBUFFER b DATA_TYPE float DATA 1.0.0 END\n", 2, 31, "expected a number");
    syntax_error("#!amber\nBUFFER b DATA_TYPE float DATA 0x1p3 END\n", 2, 31, "expected a number");
    syntax_error("#!amber\nBUFFER b DATA_TYPE uint64 DATA 18446744073709551616 END\n", 2, 32,
                 "does not fit in 64 bits");
    syntax_error("#!amber\nBUFFER b DATA_TYPE int32 DATA 1.5 END\n", 2, 31, "not an integer");
    syntax_error("#!amber\nBUFFER b DATA_TYPE vec5<float> DATA 1 END\n", 2, 20, "unknown data type 'vec5<float>'");
    syntax_error("#!amber\nBUFFER b DATA_TYPE mat5x2<float> DATA 1 END\n", 2, 20, "unknown data type");
    syntax_error("#!amber\nBUFFER b DATA_TYPE vec2<half> DATA 1 END\n", 2, 20, "unknown data type");
    syntax_error("#!amber\nBUFFER b FORMAT R9G9_UNORM\n", 2, 17, "unknown image format");
    syntax_error("#!amber\nIMAGE i FORMAT R8_UNORM DIM_2D WIDTH 0 HEIGHT 2\n", 2, 32, "1 to 16384");
    syntax_error("#!amber\nSAMPLER s MAG_FILTER cubic\n", 2, 22, "nearest, linear");
    syntax_error("#!amber\nBUFFERS b\n", 2, 1, "expected a command");
    syntax_error("#!amber\n\"quoted\"\n", 2, 1, "expected a command");
    syntax_error("no header\n", 1, 1, "read as VkScript"); /* a file without #!amber is VkScript */
    syntax_error("", 1, 1, "does not start with #!amber");
    /* a word of 2000 characters is an error, not truncated into something else */
    char text[4096] = "#!amber\nBUFFER ";
    memset(text + strlen(text), 'x', 2000);
    strcat(text, " DATA_TYPE uint32 DATA 1 END\n");
    syntax_error(text, 2, 8, "longer than");
    /* a NUL byte inside the file does not end the parse early or hide the rest */
    const char with_nul[] = "#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 \0 2 END\n";
    assert_null(amber_parse(with_nul, sizeof(with_nul) - 1, NULL, &diagnostic));
    assert_int_equal(diagnostic.status, AMBER_SYNTAX_ERROR);
    assert_int_equal(diagnostic.line, 2);
}

static void references_and_semantics(void **state)
{
    (void)state;
    syntax_error("#!amber\nRUN nothing 1 1 1\n", 2, 5, "no PIPELINE named 'nothing'");
    syntax_error("#!amber\nEXPECT nothing IDX 0 EQ 1\n", 2, 8, "no BUFFER or IMAGE named 'nothing'");
    syntax_error("#!amber\nBUFFER b DATA_TYPE uint32 DATA 1 END\nBUFFER b DATA_TYPE uint32 DATA 1 END\n", 3, 8,
                 "exists already");
    syntax_error("#!amber\n" COMPUTE_SHADER "PIPELINE compute p\nEND\n", 6, 1, "needs a compute shader");
    syntax_error("#!amber\nSHADER vertex v PASSTHROUGH\nPIPELINE graphics g\n ATTACH v\nEND\n", 3, 1,
                 "a vertex and a fragment shader");
    syntax_error("#!amber\n" COMPUTE_SHADER "PIPELINE graphics g\n ATTACH s\nEND\n", 7, 9, "cannot hold a compute");
    syntax_error("#!amber\n" COMPUTE_SHADER "PIPELINE compute p\n ATTACH s\nEND\nRUN p DRAW_RECT POS 0 0 SIZE 1 1\n", 9,
                 7, "needs a graphics pipeline");
    syntax_error("#!amber\nBUFFER a DATA_TYPE uint32 DATA 1 END\nBUFFER b DATA_TYPE float DATA 1 END\nCOPY a TO b\n", 4,
                 1, "different data types");
    syntax_error("#!amber\nBUFFER a DATA_TYPE uint32 DATA 1 END\nEXPECT a IDX 0 TOLERANCE 1 LT 1\n", 3, 28,
                 "TOLERANCE is for EQ");
    syntax_error("#!amber\nBUFFER a DATA_TYPE uint32 DATA 1 END\nEXPECT a IDX 0 EQ 1.5\n", 3, 19, "holds integers");
    syntax_error("#!amber\nBUFFER a DATA_TYPE uint32 DATA 1 END\nEXPECT a IDX 0 EQ\n", 3, 18, "needs values");
    syntax_error("#!amber\nBUFFER a DATA_TYPE uint32 DATA 1 END\nEXPECT a IDX 0 0 SIZE 1 1 EQ_RGB 1 2 3\n", 3, 1,
                 "needs an image buffer");
    syntax_error("#!amber\nBUFFER a FORMAT R8_UNORM\nEXPECT a IDX 0 0 SIZE 1 1 EQ_RGB 256 0 0\n", 3, 34, "0 to 255");
    syntax_error("#!amber\nSTRUCT s\n  float a OFFSET 8\n  float b OFFSET 4\nEND\n", 2, 1, "overlaps");
    syntax_error("#!amber\nSTRUCT s\n  s inner\nEND\n", 3, 3, "cannot hold itself");
    syntax_error("#!amber\nDEVICE_FEATURE notAFeature\n", 2, 16, "unknown DEVICE_FEATURE");
    syntax_error("#!amber\nREPEAT 0\nEND\n", 2, 8, "1 or more");
    syntax_error("#!amber\nREPEAT 2\nREPEAT 2\nEND\nEND\n", 3, 1, "REPEAT holds");
}

/* Many deeply nested STRUCTs: the layout refuses the depth rather than recursing without end. */
static void deep_structs_are_refused(void **state)
{
    (void)state;
    char *text = calloc(1, 1 << 16);
    size_t at = (size_t)sprintf(text, "#!amber\nSTRUCT s0\n  float a\nEND\n");
    for (int i = 1; i <= 40; ++i)
        at += (size_t)sprintf(text + at, "STRUCT s%d\n  s%d inner\nEND\n", i, i - 1);
    struct amber_script *s = parse(text);
    assert_null(s);
    assert_int_equal(diagnostic.status, AMBER_SYNTAX_ERROR);
    assert_non_null(strstr(diagnostic.message, "nests deeper"));
    free(text);
}

/* Files of the corpus with random bytes changed, cut short or repeated: every one parses or gets a
 * diagnostic; under ASan any read out of bounds or leak fails the test. */
static void mutated_files_never_crash(void **state)
{
    (void)state;
    static const char *const files[] = {
        "compute_fill.amber",  "data_types.amber",         "descriptor_kinds.amber",      "draw_array.amber",
        "depth_stencil.amber", "shader_formats.amber",     "push_constants_struct.amber", "buffer_comparisons.amber",
        "ray_tracing.amber",   "ray_tracing_library.amber"};
    const char *alphabet = " \n#0123456789.-xEND\"\\abcdefgSIZEFILLDATA_TYPE<>[]%";
    unsigned seed = 12345;
    unsigned parsed = 0, diagnosed = 0;
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); ++f) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/../pass/%s", PREFLIGHT_AMBER_DATA_DIR, files[f]);
        FILE *in = fopen(path, "rb");
        assert_non_null(in);
        static char original[1 << 16];
        size_t length = fread(original, 1, sizeof(original) - 1, in);
        fclose(in);
        char *text = malloc(length * 2 + 16);
        for (int round = 0; round < 150; ++round) {
            memcpy(text, original, length);
            size_t n = length;
            int edits = 1 + (int)(rand_r(&seed) % 8);
            for (int k = 0; k < edits; ++k) {
                size_t at = 8 + rand_r(&seed) % (n - 8);
                switch (rand_r(&seed) % 4) {
                case 0: /* replace a byte */
                    text[at] = alphabet[rand_r(&seed) % strlen(alphabet)];
                    break;
                case 1: /* cut the file short */
                    n = at;
                    break;
                case 2: /* drop a byte */
                    memmove(text + at, text + at + 1, n - at - 1);
                    --n;
                    break;
                default: /* a random byte, NUL and high bytes too */
                    text[at] = (char)(rand_r(&seed) & 0xFF);
                }
                if (n < 16)
                    break;
            }
            struct amber_script *s = amber_parse(text, n, PREFLIGHT_AMBER_DATA_DIR "/../pass", &diagnostic);
            if (s != NULL && diagnostic.status == AMBER_PARSED)
                ++parsed;
            else
                ++diagnosed;
            if (s == NULL)
                assert_int_equal(diagnostic.status, AMBER_SYNTAX_ERROR);
            if (diagnostic.status != AMBER_PARSED)
                assert_true(diagnostic.message[0] != '\0' && diagnostic.line >= 1);
            amber_script_free(s);
        }
        free(text);
    }
    assert_true(parsed + diagnosed == sizeof(files) / sizeof(files[0]) * 150);
    assert_true(diagnosed > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shaders_in_every_format),
        cmocka_unit_test(buffers_and_initializers),
        cmocka_unit_test(images_samplers_structs),
        cmocka_unit_test(requirements_and_settings),
        cmocka_unit_test(pipelines_and_every_bind),
        cmocka_unit_test(commands),
        cmocka_unit_test(default_framebuffer_and_image_sizes),
        cmocka_unit_test(shader_optimization),
        cmocka_unit_test(ray_tracing_commands),
        cmocka_unit_test(ray_tracing_errors),
        cmocka_unit_test(unsupported_commands_are_named_with_their_line),
        cmocka_unit_test(limits_are_skips_not_allocations),
        cmocka_unit_test(unterminated_blocks),
        cmocka_unit_test(bad_numbers_types_and_words),
        cmocka_unit_test(amber_names_and_data),
        cmocka_unit_test(references_and_semantics),
        cmocka_unit_test(deep_structs_are_refused),
        cmocka_unit_test(mutated_files_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
