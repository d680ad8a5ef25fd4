/* The VkScript reader (amber/vkscript*.c): sections, the implicit pipeline, every test command
 * into the script the executor runs, Amber's data types, and hostile input (text outside
 * sections, unknown sections and commands, bad bindings, wrong counts, huge sizes, NUL bytes,
 * mutated files) answered with a diagnostic naming its line, never a crash (the ASan build runs
 * this too). */
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
#include "vkscript.h"

static struct amber_diagnostic diagnostic;

static struct amber_script *parse_ok(const char *text)
{
    struct amber_script *s = amber_parse(text, strlen(text), NULL, &diagnostic);
    if (s == NULL || diagnostic.status != AMBER_PARSED)
        fail_msg("%u:%u: %s", diagnostic.line, diagnostic.column, diagnostic.message);
    assert_true(s->vkscript);
    return s;
}

static void syntax_error(const char *text, uint32_t line, const char *words)
{
    struct amber_script *s = amber_parse(text, strlen(text), NULL, &diagnostic);
    assert_null(s);
    assert_int_equal(diagnostic.status, AMBER_SYNTAX_ERROR);
    if (strstr(diagnostic.message, words) == NULL || diagnostic.line != line)
        fail_msg("got %u: %s; wanted %u: ...%s...", diagnostic.line, diagnostic.message, line, words);
}

static int64_t buffer_named(const struct amber_script *s, const char *name)
{
    for (uint32_t i = 0; i < s->buffer_count; ++i)
        if (strcmp(s->buffers[i].name, name) == 0)
            return i;
    return -1;
}

#define COMPUTE "[compute shader]\n#version 450\nvoid main() {}\n"
#define GRAPHICS "[vertex shader passthrough]\n[fragment shader]\n#version 450\nvoid main() {}\n"

static void sections_and_the_implicit_pipeline(void **state)
{
    (void)state;
    struct amber_script *s = parse_ok("# a comment before the first section\n\n"
                                      "[require]\n"
                                      "framebuffer R16G16B16A16_SFLOAT\n"
                                      "depthstencil D32_SFLOAT_S8_UINT\n"
                                      "fbsize 64 32\n"
                                      "fence_timeout 1000\n"
                                      "independentBlend\n"
                                      "VariablePointerFeatures.variablePointers\n"
                                      "VK_KHR_storage_buffer_storage_class\n"
                                      "VK_KHR_get_physical_device_properties2\n"
                                      "[vertex shader]\n#version 450\nvoid main() {}\n\n\n"
                                      "[geometry shader spirv]\n; SPIR-V\n"
                                      "[fragment shader spirv hex]\n03 02 23 07\n"
                                      "[comment]\nanything at all [here\n"
                                      "[test]\nclear\n");
    assert_int_equal(s->shader_count, 3);
    assert_int_equal(s->shaders[0].stage, AMBER_STAGE_VERTEX);
    assert_int_equal(s->shaders[0].format, AMBER_SHADER_GLSL);
    assert_string_equal(s->shaders[0].source, "#version 450\nvoid main() {}"); /* trailing newlines cut */
    assert_int_equal(s->shaders[0].source_line, 13);
    assert_int_equal(s->shaders[1].format, AMBER_SHADER_SPIRV_ASM);
    assert_int_equal(s->shaders[2].format, AMBER_SHADER_SPIRV_HEX);
    assert_int_equal(s->requirement_count, 4);
    assert_int_equal(s->requirements[0].kind, AMBER_REQUIRE_FEATURE);
    assert_int_equal(s->requirements[1].kind, AMBER_REQUIRE_FEATURE);
    assert_int_equal(s->requirements[2].kind, AMBER_REQUIRE_EXTENSION);
    assert_int_equal(s->requirements[3].kind, AMBER_REQUIRE_INSTANCE_EXTENSION);
    assert_int_equal(s->pipeline_count, 1);
    const struct amber_pipeline *pl = &s->pipelines[0];
    assert_int_equal(pl->type, AMBER_PIPELINE_GRAPHICS);
    assert_int_equal(pl->shader_count, 3);
    assert_int_equal(pl->width, 64);
    assert_int_equal(pl->height, 32);
    assert_int_equal(pl->color_count, 1);
    assert_int_equal(s->buffers[pl->colors[0].buffer].layout.format, VK_FORMAT_R16G16B16A16_SFLOAT);
    assert_true(pl->depth_stencil >= 0);
    assert_int_equal(s->buffers[pl->depth_stencil].layout.format, VK_FORMAT_D32_SFLOAT_S8_UINT);
    /* clear: the clear values, then the clear */
    assert_int_equal(s->command_count, 4);
    assert_int_equal(s->commands[0].kind, AMBER_CMD_CLEAR_COLOR);
    assert_int_equal(s->commands[3].kind, AMBER_CMD_CLEAR);
    amber_script_free(s);

    /* without [require]: B8G8R8A8_UNORM of 250x250, a passthrough vertex shader */
    s = parse_ok(GRAPHICS "[test]\nprobe all rgb 0 0 0\n");
    assert_int_equal(s->shaders[0].format, AMBER_SHADER_PASSTHROUGH);
    assert_int_equal(s->buffers[s->pipelines[0].colors[0].buffer].layout.format, VK_FORMAT_B8G8R8A8_UNORM);
    assert_int_equal(s->commands[0].kind, AMBER_CMD_EXPECT_PIXELS);
    assert_int_equal(s->commands[0].pixels.width, 250);
    assert_int_equal(s->expect_count, 1);
    amber_script_free(s);

    /* VK_KHR_spirv_1_4: the file's shaders are SPIR-V 1.4 (for Vulkan 1.1), as the CTS builds them */
    s = parse_ok("[require]\nVK_KHR_spirv_1_4\n" COMPUTE);
    assert_string_equal(s->shaders[0].target_env, "vulkan1.1spv1.4");
    assert_int_equal(s->pipelines[0].type, AMBER_PIPELINE_COMPUTE);
    amber_script_free(s);
}

static void buffers_writes_and_probes(void **state)
{
    (void)state;
    struct amber_script *s = parse_ok(COMPUTE "[test]\n"
                                              "ssbo 0 subdata int 4 -1 2\n"
                                              "ssbo 1:3 10\n"
                                              "uniform ubo 2 vec3 16 1 2 3\n"
                                              "uniform float 4 0.5\n"
                                              "uniform int8_t 0 300\n"
                                              "compute 2 3 4\n"
                                              "probe ssbo int 0 4 == -1 2\n"
                                              "probe ssbo float 1:3 0 ~= 0.1\n"
                                              "tolerance 1% 2 3 4%\n"
                                              "probe ssbo float 1:3 0 ~= 0.1\n"
                                              "probe ssbo int 0 0 >= 0\n");
    int64_t ssbo = buffer_named(s, "ssbo_0_0"), sized = buffer_named(s, "ssbo_1_3"), ubo = buffer_named(s, "ubo_0_2"),
            push = buffer_named(s, "push_constants");
    assert_true(ssbo >= 0 && sized >= 0 && ubo >= 0 && push >= 0);
    /* sizes: the larger of `ssbo N size` elements of its final type and the last byte written */
    assert_int_equal(s->buffers[ssbo].element_count * s->buffers[ssbo].layout.stride, 12);
    assert_int_equal(s->buffers[sized].element_count * s->buffers[sized].layout.stride, 40); /* 10 floats */
    assert_true(s->buffers[ubo].std140);
    /* bindings and push constants on the pipeline */
    const struct amber_pipeline *pl = &s->pipelines[0];
    assert_int_equal(pl->binding_count, 3);
    assert_int_equal(pl->push_constants, push);
    for (uint32_t i = 0; i < pl->binding_count; ++i)
        if (pl->bindings[i].objects[0] == (uint32_t)sized)
            assert_true(pl->bindings[i].set == 1 && pl->bindings[i].binding == 3 &&
                        pl->bindings[i].kind == AMBER_BIND_STORAGE);
        else if (pl->bindings[i].objects[0] == (uint32_t)ubo)
            assert_int_equal(pl->bindings[i].kind, AMBER_BIND_UNIFORM);
    /* the writes, in order, with their bytes */
    const struct amber_command *c = s->commands;
    assert_int_equal(c[0].kind, AMBER_CMD_WRITE_BUFFER);
    assert_int_equal(c[0].write.offset, 4);
    assert_int_equal(c[0].write.length, 8);
    int32_t ints[2];
    memcpy(ints, c[0].write.bytes, 8);
    assert_int_equal(ints[0], -1);
    assert_int_equal(ints[1], 2);
    assert_int_equal(c[1].write.buffer, ubo);
    assert_int_equal(c[1].write.length, 12); /* a vec3: its last value ends the write */
    assert_int_equal(c[2].write.buffer, push);
    assert_int_equal(c[2].write.offset, 4);
    assert_int_equal(c[3].write.buffer, push);
    assert_int_equal((int8_t)c[3].write.bytes[0], 44); /* 300 cut to 8 bits, as Amber stores it */
    assert_int_equal(c[4].kind, AMBER_CMD_RUN_COMPUTE);
    assert_int_equal(c[4].run.z, 4);
    /* probes: comparisons, ~= with Amber's default tolerance, then with the tolerances set */
    assert_int_equal(c[5].kind, AMBER_CMD_EXPECT_VALUES);
    assert_int_equal(c[5].values.offset, 4);
    assert_int_equal(c[5].values.value_count, 2);
    assert_true(c[5].values.values[0].negative);
    assert_int_equal(c[6].values.tolerance_count, 1);
    assert_true(c[6].values.tolerances[0].percent);
    assert_true(c[6].values.values[0].value == (double)0.1f); /* the expected value in the probed type */
    assert_int_equal(c[7].values.tolerance_count, 4);
    assert_true(c[7].values.tolerances[0].percent && !c[7].values.tolerances[1].percent);
    assert_true(c[7].values.tolerances[3].percent);
    assert_int_equal(c[8].values.comparator, AMBER_CMP_GE);
    assert_int_equal(c[8].values.tolerance_count, 0);
    amber_script_free(s);
}

static void draws_state_and_entry_points(void **state)
{
    (void)state;
    struct amber_script *s = parse_ok("[vertex shader]\n#version 450\nvoid main() {}\n"
                                      "[fragment shader]\n#version 450\nvoid main() {}\n"
                                      "[vertex data]\n0/R32G32_SFLOAT 1/ubyte/vec4\n"
                                      "0 0 1 2 3 4\n1 1 5 6 7 8\n"
                                      "[indices]\n0 1\n1 0\n"
                                      "[test]\n"
                                      "draw arrays TRIANGLE_STRIP 0 2\n"
                                      "draw arrays GL_TRIANGLE_FAN 0 2\n"
                                      "depthTestEnable TRUE\n"
                                      "depthCompareOp VK_COMPARE_OP_GREATER\n"
                                      "cullMode VK_CULL_MODE_FRONT_BIT | VK_CULL_MODE_BACK_BIT\n"
                                      "colorWriteMask VK_COLOR_COMPONENT_R_BIT|VK_COLOR_COMPONENT_A_BIT\n"
                                      "fragment entrypoint other\n"
                                      "draw arrays indexed GL_LINES 1 4\n"
                                      "draw arrays instanced POINT_LIST 0 2 7\n"
                                      "patch parameter vertices 4\n"
                                      "relative probe rect rgb (0.5, 0.25, 0.5, 0.5) (1, 0.5, 0)\n");
    assert_int_equal(s->pipeline_count, 2);
    const struct amber_command *c = s->commands;
    assert_int_equal(c[0].kind, AMBER_CMD_DRAW_ARRAY);
    assert_int_equal(c[1].draw.topology, AMBER_TOPOLOGY_TRIANGLE_FAN);
    assert_false(c[0].draw.indexed);
    assert_int_equal(c[0].pipeline, c[1].pipeline); /* no state between them: one pipeline */
    assert_int_equal(c[2].kind, AMBER_CMD_DRAW_ARRAY);
    assert_int_not_equal(c[2].pipeline, c[1].pipeline); /* the state changed: a pipeline of its own */
    assert_true(c[2].draw.indexed && c[2].draw.first_is_vertex_offset);
    assert_int_equal(c[2].draw.topology, AMBER_TOPOLOGY_LINE_LIST);
    assert_int_equal(c[3].draw.instance_count, 7);
    assert_int_equal(c[3].pipeline, c[2].pipeline);
    const struct amber_pipeline *first = &s->pipelines[c[0].pipeline], *second = &s->pipelines[c[2].pipeline];
    assert_false(first->depth.test);
    assert_true(second->depth.test);
    assert_int_equal(second->depth.compare_op, VK_COMPARE_OP_GREATER);
    assert_int_equal(second->raster.cull_mode, VK_CULL_MODE_FRONT_AND_BACK);
    assert_int_equal(second->raster.color_write_mask, VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_A_BIT);
    assert_string_equal(second->shaders[1].entry, "other");
    assert_string_equal(first->shaders[1].entry, "main");
    assert_int_equal(second->vertex_input_count, 2);
    assert_int_equal(second->vertex_inputs[1].format, VK_FORMAT_R8G8B8A8_UINT);
    assert_true(second->index_buffer >= 0);
    assert_int_equal(s->buffers[second->index_buffer].element_count, 4);
    /* a relative probe: fractions of the framebuffer; colours kept x255 */
    const struct amber_command *probe = &c[4];
    assert_int_equal(probe->kind, AMBER_CMD_EXPECT_PIXELS);
    assert_int_equal(probe->pipeline, 1); /* a probe makes no pipeline of the state set before it */
    assert_int_equal(probe->pixels.x, 125);
    assert_int_equal(probe->pixels.y, 62);
    assert_int_equal(probe->pixels.width, 125);
    assert_true(probe->pixels.expected[1] > 127.4f && probe->pixels.expected[1] < 127.6f);
    assert_false(probe->pixels.rgba);
    amber_script_free(s);

    /* draw rect: normalized device coordinates, or pixels with ortho */
    s = parse_ok(GRAPHICS "[test]\ndraw rect -1 -1 2 2\ndraw rect ortho patch 0 0 10 10\n");
    assert_int_equal(s->commands[0].kind, AMBER_CMD_DRAW_RECT);
    assert_true(s->commands[0].rect.ndc);
    assert_false(s->commands[1].rect.ndc);
    assert_true(s->commands[1].rect.width == 10.0f);
    amber_script_free(s);
    syntax_error(GRAPHICS "[vertex data]\n0/R32_SFLOAT 1/R32_SFLOAT\n0 0\n[test]\ndraw rect 0 0 1 1\n", 9,
                 "more than one vertex data column");
}

static void data_types_as_vkscript_writes_them(void **state)
{
    (void)state;
    struct amber_type t;
    assert_true(vk_datum_type("int", &t) && t.mode == AMBER_MODE_SINT && t.bits == 32 && t.rows == 1);
    assert_true(vk_datum_type("uint64_t", &t) && t.mode == AMBER_MODE_UINT && t.bits == 64);
    assert_true(vk_datum_type("vec", &t) && t.rows == 4 && t.mode == AMBER_MODE_SFLOAT);
    assert_true(vk_datum_type("dvec3", &t) && t.rows == 3 && t.bits == 64);
    assert_true(vk_datum_type("i8vec2", &t) && t.rows == 2 && t.bits == 8 && t.mode == AMBER_MODE_SINT);
    assert_true(vk_datum_type("u16vec4", &t) && t.bits == 16 && t.mode == AMBER_MODE_UINT);
    assert_true(vk_datum_type("u64vec2", &t) && t.bits == 64);
    assert_true(vk_datum_type("mat3", &t) && t.columns == 3 && t.rows == 3);
    assert_true(vk_datum_type("mat2x4", &t) && t.columns == 2 && t.rows == 4);
    assert_true(vk_datum_type("dmat4x3", &t) && t.columns == 4 && t.rows == 3 && t.bits == 64);
    assert_true(vk_datum_type("mat", &t) && t.columns == 4 && t.rows == 4);
    static const char *const bad[] = {"",      "vec5",    "vec1",    "imat2", "mat5",   "mat2x", "mat2x9",
                                      "vec3x", "i32vec2", "float16", "half",  "matrix", "int32", "ivec22"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i)
        if (vk_datum_type(bad[i], &t))
            fail_msg("'%s' is not a VkScript type", bad[i]);
    /* integers cut to their bits as Amber stores them */
    struct amber_segment s8 = {0, 8, AMBER_MODE_SINT, 0}, u16 = {0, 16, AMBER_MODE_UINT, 0};
    struct amber_number n = {.magnitude = 200};
    vk_wrap_integer(&s8, &n);
    assert_true(n.negative && n.magnitude == 56);
    n = (struct amber_number){.magnitude = 1, .negative = true};
    vk_wrap_integer(&u16, &n);
    assert_true(!n.negative && n.magnitude == 65535);
}

static void hostile_files_are_diagnosed(void **state)
{
    (void)state;
    syntax_error("BUFFER b DATA_TYPE uint32 DATA 1 END\n", 1, "expected a section header");
    syntax_error("\n\n[vertex shdr]\n", 3, "unknown section '[vertex shdr]'");
    syntax_error("[test\n", 1, "without ']'");
    syntax_error("[require spirv]\n", 1, "not a shader section");
    syntax_error("[fragment shader passthrough]\n", 1, "only a vertex shader");
    syntax_error("", 1, "no shader section");
    syntax_error("# only a comment\n", 1, "no shader section");
    syntax_error("[require]\nnot.a.feature\n" COMPUTE, 2, "unknown feature or extension 'not.a.feature'");
    syntax_error("[require]\nframebuffer R9_NOPE\n" COMPUTE, 2, "unknown image format");
    syntax_error("[require]\nfbsize 0 10\n" COMPUTE, 2, "must be 1 to");
    syntax_error("[require]\nfbsize 10\n" COMPUTE, 2, "the framebuffer height");
    syntax_error("[require]\ndepthstencil R8G8B8A8_UNORM\n" GRAPHICS, 1, "not a depth or stencil format");
    syntax_error(COMPUTE "[compute shader]\n", 4, "a second");
    syntax_error(COMPUTE "[vertex shader passthrough]\n[fragment shader]\n", 1, "compute shader beside graphics");
    syntax_error("[fragment shader]\nvoid main() {}\n", 1, "needs a vertex shader");
    syntax_error(COMPUTE "[vertex data]\n0/R32_SFLOAT\n1\n", 4, "need a graphics pipeline");
    syntax_error(GRAPHICS "[vertex data]\nlocation/R32_SFLOAT\n", 6, "expected a vertex data header");
    syntax_error(GRAPHICS "[vertex data]\n0/NOT_A_FORMAT\n", 6, "unknown image format 'NOT_A_FORMAT'");
    syntax_error(GRAPHICS "[vertex data]\n0/float/vec7\n", 6, "unknown vertex data type");
    syntax_error(GRAPHICS "[vertex data]\n0/R32G32_SFLOAT\n1\n", 7, "too few values");
    syntax_error(GRAPHICS "[vertex data]\n0/R32_SFLOAT\n1 2\n", 7, "more values in this vertex data row");
    syntax_error(GRAPHICS "[vertex data]\n0/R8_UINT\n1.5\n", 7, "takes integers");
    syntax_error(GRAPHICS "[vertex data]\n0/A8B8G8R8_UNORM_PACK32\n-1\n", 7, "packed value");
    syntax_error(GRAPHICS "[indices]\n1 70000\n", 6, "larger than 65535");
    syntax_error(GRAPHICS "[indices]\n1 x\n", 6, "expected an index");
    syntax_error(COMPUTE "[test]\ndispatch 1 1 1\n", 5, "unknown command 'dispatch'");
    syntax_error(COMPUTE "[test]\ncompute 1 1\n", 5, "workgroup count");
    syntax_error(COMPUTE "[test]\ndraw rect 0 0 1 1\n", 5, "needs a graphics pipeline");
    syntax_error(COMPUTE "[test]\nclear\n", 5, "needs a graphics pipeline");
    syntax_error(GRAPHICS "[test]\ncompute 1 1 1\n", 6, "needs a compute pipeline");
    syntax_error(COMPUTE "[test]\nssbo a:b 4\n", 5, "descriptor set");
    syntax_error(COMPUTE "[test]\nssbo 99:0 4\n", 5, "sets 0 to 31");
    syntax_error(COMPUTE "[test]\nssbo 0 subdata vec9 0 1\n", 5, "unknown data type 'vec9'");
    syntax_error(COMPUTE "[test]\nssbo 0 subdata vec2 0 1\n", 5, "non-zero multiple of 2");
    syntax_error(COMPUTE "[test]\nssbo 0 subdata int 2 1\n", 5, "not a multiple of the type's size");
    syntax_error(COMPUTE "[test]\nssbo 0 subdata int 0 1.5\n", 5, "expected an integer");
    syntax_error(COMPUTE "[test]\nssbo 0 subdata int 0 1\nprobe ssbo float 0 0 == 1\n", 6, "holds int32");
    syntax_error(COMPUTE "[test]\nprobe ssbo int 3 0 == 1\n", 5, "no buffer is bound");
    syntax_error(COMPUTE "[test]\nssbo 0 4\nprobe ssbo int 0 0 =~ 1\n", 6, "expected a comparison");
    syntax_error(GRAPHICS "[test]\nprobe rgb (1, 2) (1, 0)\n", 6, "takes 5 numbers");
    syntax_error(GRAPHICS "[test]\nprobe rgba 1 2 a b c d\n", 6, "expected a number");
    syntax_error(GRAPHICS "[test]\nprobe rect rgx (1, 2, 3, 4) (1, 0, 0)\n", 6, "expected rgb or rgba");
    syntax_error(COMPUTE "[test]\ntolerance 1 2\n", 5, "one value or four");
    syntax_error(COMPUTE "[test]\ntolerance 1 2 3 4 5\n", 5, "more than four");
    syntax_error(COMPUTE "[test]\ntolerance %\n", 5, "without a tolerance");
    syntax_error(GRAPHICS "[test]\ndraw arrays TRIANGLES 0 3\n", 6, "expected indexed, instanced or a topology");
    syntax_error(GRAPHICS "[test]\ndraw arrays indexed TRIANGLE_LIST 0 3\n", 6, "needs an [indices] section");
    syntax_error(GRAPHICS "[test]\ndepthTestEnable maybe\n", 6, "expected true or false");
    syntax_error(GRAPHICS "[test]\ndepthCompareOp LESS\n", 6, "VK_COMPARE_OP_");
    syntax_error(GRAPHICS "[test]\ncullMode\n", 6, "takes VK_CULL_MODE_");
    syntax_error(GRAPHICS "[test]\ngeometry entrypoint g\n", 6, "no shader of");
    syntax_error(GRAPHICS "[test]\ntessellation sideways entrypoint x\n", 6,
                 "tessellation control or tessellation evaluation");
    syntax_error(GRAPHICS "[test]\npatch parameter vertices 99\n", 6, "1 to 32");
    /* a limit is a skip, never an allocation */
    struct amber_script *s = amber_parse(COMPUTE "[test]\nssbo 0 4000000000000\n",
                                         strlen(COMPUTE "[test]\nssbo 0 4000000000000\n"), NULL, &diagnostic);
    assert_int_equal(diagnostic.status, AMBER_NOT_SUPPORTED);
    assert_int_equal(diagnostic.line, 5);
    amber_script_free(s);
    /* advanced blend operations: not supported, named */
    const char *advanced = GRAPHICS "[test]\ncolorBlendOp VK_BLEND_OP_MULTIPLY_EXT\n";
    s = amber_parse(advanced, strlen(advanced), NULL, &diagnostic);
    assert_int_equal(diagnostic.status, AMBER_NOT_SUPPORTED);
    assert_non_null(strstr(diagnostic.message, "advanced blend"));
    amber_script_free(s);
    /* 300 sections: past the limit, not an overflow */
    size_t size = 300 * 16 + 64;
    char *many = malloc(size);
    size_t at = (size_t)snprintf(many, size, COMPUTE);
    for (int i = 0; i < 300; ++i)
        at += (size_t)snprintf(many + at, size - at, "[comment]\n");
    s = amber_parse(many, at, NULL, &diagnostic);
    assert_int_equal(diagnostic.status, AMBER_NOT_SUPPORTED);
    amber_script_free(s);
    free(many);
    /* a NUL byte and a long word */
    const char nul[] = COMPUTE "[test]\ncomp\0ute 1 1 1\n";
    s = amber_parse(nul, sizeof(nul) - 1, NULL, &diagnostic);
    assert_null(s);
    assert_int_equal(diagnostic.line, 5);
    char *longword = malloc(8192);
    at = (size_t)snprintf(longword, 8192, COMPUTE "[test]\n");
    memset(longword + at, 'x', 4000);
    longword[at + 4000] = '\0';
    s = amber_parse(longword, strlen(longword), NULL, &diagnostic);
    assert_null(s);
    assert_int_equal(diagnostic.status, AMBER_SYNTAX_ERROR);
    free(longword);
}

static void mutated_files_never_crash(void **state)
{
    (void)state;
    static const char *const files[] = {"vkscript_compute.vkscript", "vkscript_draw.vkscript",
                                        "vkscript_vertex_data.vkscript", "vkscript_state.vkscript",
                                        "vkscript_hex_entry_point.vkscript"};
    const char *alphabet = " \n#[]()0123456789.-x:%~=!<>abcdefgprobessbo";
    unsigned seed = 4242;
    unsigned diagnosed = 0, total = 0;
    for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); ++f) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/../pass/%s", PREFLIGHT_AMBER_DATA_DIR, files[f]);
        FILE *in = fopen(path, "rb");
        assert_non_null(in);
        static char original[1 << 16];
        size_t length = fread(original, 1, sizeof(original) - 1, in);
        fclose(in);
        char *text = malloc(length + 16);
        for (int round = 0; round < 200; ++round, ++total) {
            memcpy(text, original, length);
            size_t n = length;
            for (int k = 0, edits = 1 + (int)(rand_r(&seed) % 8); k < edits && n > 16; ++k) {
                size_t at = rand_r(&seed) % n;
                switch (rand_r(&seed) % 4) {
                case 0:
                    text[at] = alphabet[rand_r(&seed) % strlen(alphabet)];
                    break;
                case 1:
                    n = at > 16 ? at : 16;
                    break;
                case 2:
                    memmove(text + at, text + at + 1, n - at - 1);
                    --n;
                    break;
                default:
                    text[at] = (char)(rand_r(&seed) & 0xFF);
                }
            }
            struct amber_script *s = amber_parse(text, n, NULL, &diagnostic);
            if (s == NULL)
                assert_int_equal(diagnostic.status, AMBER_SYNTAX_ERROR);
            if (diagnostic.status != AMBER_PARSED) {
                assert_true(diagnostic.message[0] != '\0' && diagnostic.line >= 1);
                ++diagnosed;
            }
            amber_script_free(s);
        }
        free(text);
    }
    assert_int_equal(total, 1000);
    assert_true(diagnosed > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sections_and_the_implicit_pipeline), cmocka_unit_test(buffers_writes_and_probes),
        cmocka_unit_test(draws_state_and_entry_points),       cmocka_unit_test(data_types_as_vkscript_writes_them),
        cmocka_unit_test(hostile_files_are_diagnosed),        cmocka_unit_test(mutated_files_never_crash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
