/* The parts of running an AmberScript file that need no device: shader compilation (GLSL through
 * glslang, SPIR-V assembly, SPIRV-HEX, validation, TARGET_ENV), what a file asks of a report's
 * declared block (lavapipe's and the H200's fixtures), and the test ids of paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "amber.h"
#include "report_model.h"
#include "script.h"
#include "shader.h"
#include "test_support.h"

static struct amber_diagnostic diagnostic;

static struct amber_script *parse(const char *text)
{
    struct amber_script *s = amber_parse(text, strlen(text), NULL, &diagnostic);
    if (s == NULL || diagnostic.status != AMBER_PARSED)
        fail_msg("%u:%u: %s", diagnostic.line, diagnostic.column, diagnostic.message);
    return s;
}

static bool compile(const char *text, struct amber_spirv *spirv, char *error, size_t size)
{
    struct amber_script *s = parse(text);
    bool ok = amber_shader_compile(&s->shaders[0], spirv, error, size);
    amber_script_free(s);
    return ok;
}

static void glsl_compiles_for_its_target(void **state)
{
    (void)state;
    struct amber_spirv spirv;
    char error[1024];
    assert_true(
        compile("#!amber\nSHADER compute s GLSL\n#version 450\nlayout(local_size_x = 8) in;\nvoid main() {}\nEND\n",
                &spirv, error, sizeof(error)));
    assert_int_equal(spirv.words[0], 0x07230203u);
    assert_int_equal(spirv.spirv_version, 0x10000u); /* spv1.0 by default, as Amber */
    amber_spirv_free(&spirv);
    assert_true(compile("#!amber\nSHADER compute s GLSL TARGET_ENV vulkan1.2\n#version 450\nvoid main() {}\nEND\n",
                        &spirv, error, sizeof(error)));
    assert_int_equal(spirv.spirv_version, 0x10500u);
    assert_int_equal(spirv.vulkan_version, VK_API_VERSION_1_2);
    amber_spirv_free(&spirv);
    /* subgroup operations need SPIR-V 1.3: without TARGET_ENV the file says which line is wrong */
    const char *subgroup =
        "#!amber\nSHADER compute s GLSL\n#version 450\n"
        "#extension GL_KHR_shader_subgroup_basic : require\nvoid main() { subgroupBarrier(); }\nEND\n";
    assert_false(compile(subgroup, &spirv, error, sizeof(error)));
    assert_non_null(strstr(error, "GLSL does not compile (glslang "));
    assert_non_null(strstr(error, "): ERROR: line "));
    assert_null(spirv.words);
    /* ray-tracing stages exist from SPIR-V 1.4: theirs is the default there */
    assert_true(compile("#!amber\nSHADER closest_hit h GLSL\n#version 460\n#extension GL_EXT_ray_tracing : require\n"
                        "layout(location = 0) rayPayloadInEXT uint p;\nvoid main() { p = 1u; }\nEND\n",
                        &spirv, error, sizeof(error)));
    assert_int_equal(spirv.spirv_version, 0x10400u);
    amber_spirv_free(&spirv);
}

/* SHADER_OPTIMIZATION through spirv-opt: the flags work, a bad flag is the tool's message, no tool
 * is said so */
static void optimizer_passes(void **state)
{
    (void)state;
    struct amber_script *s =
        parse("#!amber\nSHADER compute s GLSL\n#version 450\nlayout(constant_id = 0) const uint k = 1u;\n"
              "layout(set = 0, binding = 0) buffer B { uint v; };\nvoid main() { v = k; }\nEND\n");
    struct amber_spirv spirv, optimized;
    char error[1024];
    assert_true(amber_shader_compile(&s->shaders[0], &spirv, error, sizeof(error)));
    assert_int_equal(amber_shader_optimize(&s->shaders[0], &spirv,
                                           "--set-spec-const-default-value=0:7\n--strip-debug\n", &optimized, error,
                                           sizeof(error)),
                     AMBER_OPTIMIZED);
    assert_true(optimized.count > 5 && optimized.count < spirv.count); /* names stripped */
    bool seven = false;
    for (size_t i = 0; i + 3 < optimized.count; ++i) /* OpSpecConstant %uint %id 7 */
        seven = seven ||
                ((optimized.words[i] & 0xFFFF) == 50 && optimized.words[i] >> 16 == 4 && optimized.words[i + 3] == 7);
    assert_true(seven);
    amber_spirv_free(&optimized);
    assert_int_equal(
        amber_shader_optimize(&s->shaders[0], &spirv, "--no-such-pass\n", &optimized, error, sizeof(error)),
        AMBER_OPTIMIZER_FAILED);
    assert_non_null(strstr(error, "Unknown flag '--no-such-pass'"));
    assert_null(optimized.words);
    setenv("PREFLIGHT_SPIRV_OPT", "/nonexistent/spirv-opt", 1);
    assert_int_equal(amber_shader_optimize(&s->shaders[0], &spirv, "--strip-debug\n", &optimized, error, sizeof(error)),
                     AMBER_OPTIMIZER_MISSING);
    assert_non_null(strstr(error, "PREFLIGHT_SPIRV_OPT=/nonexistent/spirv-opt is no program"));
    unsetenv("PREFLIGHT_SPIRV_OPT");
    amber_spirv_free(&spirv);
    amber_script_free(s);
}

static enum amber_compile_result build(const char *text, struct amber_spirv *spirv, char *error, size_t size)
{
    struct amber_script *s = parse(text);
    enum amber_compile_result result =
        amber_shader_build(&s->shaders[0], strstr(text, "VK_KHR_spirv_1_4") != NULL, spirv, error, size);
    amber_script_free(s);
    return result;
}

/* Which refusals are the tools' (the device was not asked: unsupported) and which the file's own
 * bytes (fail); SPIR-V assembly without TARGET_ENV that needs SPIR-V 1.3 is taken as the CTS takes it. */
static void tool_limits_told_from_bad_input(void **state)
{
    (void)state;
    struct amber_spirv spirv;
    char error[1024];
    assert_int_equal(build("#!amber\nSHADER compute s GLSL\n#version 450\n#extension GL_EXT_no_such_thing : require\n"
                           "void main() {}\nEND\n",
                           &spirv, error, sizeof(error)),
                     AMBER_COMPILE_TOOL);
    assert_non_null(strstr(error, amber_glslang_version()));
    assert_int_equal(
        build("#!amber\nSHADER compute s SPIRV-ASM\nOpCapability Shader\nOpBogus\nEND\n", &spirv, error, sizeof(error)),
        AMBER_COMPILE_TOOL);
    assert_non_null(strstr(error, "SPIRV-Tools v"));
    assert_int_equal(build("#!amber\nSHADER compute s SPIRV-HEX\n03 02 23\nEND\n", &spirv, error, sizeof(error)),
                     AMBER_COMPILE_INPUT);
    const char *ballot = "#!amber\nSHADER compute s SPIRV-ASM\n"
                         "OpCapability Shader\nOpCapability GroupNonUniformBallot\n"
                         "OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n"
                         "OpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
                         "%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\nEND\n";
    assert_int_equal(build(ballot, &spirv, error, sizeof(error)), AMBER_COMPILE_OK);
    assert_int_equal(spirv.spirv_version, 0x10300u);
    assert_int_equal(spirv.vulkan_version, VK_API_VERSION_1_1);
    amber_spirv_free(&spirv);
    /* with TARGET_ENV the file's word holds: SPIR-V 1.0 does not have the capability */
    char *with_env = malloc(strlen(ballot) + 32);
    assert_non_null(with_env);
    strcpy(with_env, "#!amber\nSHADER compute s SPIRV-ASM TARGET_ENV spv1.0\n");
    strcat(with_env, strstr(ballot, "OpCapability"));
    assert_int_equal(build(with_env, &spirv, error, sizeof(error)), AMBER_COMPILE_TOOL);
    assert_non_null(strstr(error, "requires SPIR-V version 1.3"));
    free(with_env);
    /* OpCopyLogical is SPIR-V 1.4: taken so where the file asks for VK_KHR_spirv_1_4 */
    const char *semantic = "#!amber\nDEVICE_EXTENSION VK_KHR_spirv_1_4\nSHADER compute s SPIRV-ASM\n"
                           "OpCapability Shader\nOpMemoryModel Logical GLSL450\n"
                           "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n"
                           "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n"
                           "%s1 = OpTypeStruct %float\n%s2 = OpTypeStruct %float\n%one = OpConstant %float 1\n"
                           "%v = OpConstantComposite %s1 %one\n%main = OpFunction %void None %fn\n%entry = OpLabel\n"
                           "%r = OpCopyLogical %s2 %v\nOpReturn\nOpFunctionEnd\nEND\n";
    assert_int_equal(build(semantic, &spirv, error, sizeof(error)), AMBER_COMPILE_OK);
    assert_int_equal(spirv.spirv_version, 0x10400u);
    amber_spirv_free(&spirv);
    char *without = malloc(strlen(semantic) + 1);
    assert_non_null(without);
    strcpy(without, "#!amber\n");
    strcat(without, strstr(semantic, "SHADER"));
    assert_int_equal(build(without, &spirv, error, sizeof(error)), AMBER_COMPILE_TOOL);
    assert_non_null(strstr(error, "Invalid Opcode name 'OpCopyLogical'"));
    free(without);
}

static void shaders_that_do_not_compile(void **state)
{
    (void)state;
    struct amber_spirv spirv;
    char error[1024];
    assert_false(compile("#!amber\n\nSHADER fragment f GLSL\n#version 450\nvoid main() {\n  nope = 1;\n}\nEND\n",
                         &spirv, error, sizeof(error)));
    assert_non_null(strstr(error, "ERROR: line 6: 'nope' : undeclared identifier"));
    assert_false(compile("#!amber\nSHADER compute s SPIRV-ASM\n  OpCapability Shader\n  OpBogus\nEND\n", &spirv, error,
                         sizeof(error)));
    assert_non_null(strstr(error, "does not assemble (SPIRV-Tools v"));
    assert_non_null(strstr(error, "): line 4 column"));
    assert_false(compile("#!amber\nSHADER compute s SPIRV-HEX\n03 02 23 07 zz\nEND\n", &spirv, error, sizeof(error)));
    assert_non_null(strstr(error, "not a hexadecimal byte"));
    assert_false(compile(
        "#!amber\nSHADER compute s SPIRV-HEX\n01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10 11 12 13 14\nEND\n",
        &spirv, error, sizeof(error)));
    assert_non_null(strstr(error, "not SPIR-V"));
    /* a well-formed header with nothing behind it: the validator says no */
    assert_false(compile(
        "#!amber\nSHADER compute s SPIRV-HEX\n03 02 23 07 00 00 01 00 00 00 00 00 01 00 00 00 00 00 00 00\nEND\n",
        &spirv, error, sizeof(error)));
    assert_non_null(strstr(error, "not valid"));
    assert_false(compile("#!amber\nSHADER compute s GLSL TARGET_ENV vulkan9.9\nvoid main() {}\nEND\n", &spirv, error,
                         sizeof(error)));
    assert_non_null(strstr(error, "TARGET_ENV vulkan9.9"));
}

static void assembly_and_passthrough(void **state)
{
    (void)state;
    struct amber_spirv spirv;
    char error[1024];
    assert_true(compile("#!amber\nSHADER compute s SPIRV-ASM TARGET_ENV spv1.3\n"
                        "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n"
                        "OpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n"
                        "%main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\nEND\n",
                        &spirv, error, sizeof(error)));
    assert_int_equal(spirv.spirv_version, 0x10300u);
    amber_spirv_free(&spirv);
    assert_true(compile("#!amber\nSHADER vertex v PASSTHROUGH\n", &spirv, error, sizeof(error)));
    assert_int_equal(spirv.words[0], 0x07230203u);
    amber_spirv_free(&spirv);
}

static const cJSON *declared_of(const char *fixture, cJSON **report)
{
    *report = load_fixture(fixture);
    return report_declared(cJSON_GetArrayItem(cJSON_GetObjectItem(*report, "devices"), 0));
}

static void requirements_against_reports(void **state)
{
    (void)state;
    cJSON *lavapipe_report, *h200_report;
    const cJSON *lavapipe = declared_of("probe-lavapipe.report.json", &lavapipe_report);
    const cJSON *h200 = declared_of("probe-nvidia-h200.report.json", &h200_report);
    char missing[256];
    struct amber_script *s = parse("#!amber\nDEVICE_FEATURE shaderInt64\nDEVICE_FEATURE depthBounds\n");
    assert_false(amber_script_declared(s, lavapipe, missing, sizeof(missing)));
    assert_string_equal(missing, "line 3: DEVICE_FEATURE depthBounds is not declared");
    assert_true(amber_script_declared(s, h200, missing, sizeof(missing)));
    struct gpu_options options;
    struct smoke_device_features storage;
    memset(&options, 0, sizeof(options));
    memset(&storage, 0, sizeof(storage));
    amber_script_device_options(s, h200, &options, &storage);
    assert_true(options.core.shaderInt64 && options.core.depthBounds);
    amber_script_free(s);
    /* a feature struct: enabled with its sType, chained, with its extension where the device has it */
    s = parse("#!amber\nDEVICE_FEATURE Storage8BitFeatures.storageBuffer8BitAccess\n"
              "DEVICE_FEATURE SubgroupSupportedOperations.arithmetic\nDEVICE_EXTENSION VK_KHR_8bit_storage\n");
    assert_true(amber_script_declared(s, lavapipe, missing, sizeof(missing)));
    memset(&options, 0, sizeof(options));
    memset(&storage, 0, sizeof(storage));
    amber_script_device_options(s, lavapipe, &options, &storage);
    assert_int_equal(storage.storage_8bit.sType, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES);
    assert_true(storage.storage_8bit.storageBuffer8BitAccess);
    assert_ptr_equal(options.features_chain, &storage.storage_8bit);
    assert_string_equal(options.extensions[0], "VK_KHR_8bit_storage");
    assert_null(options.extensions[1]);
    amber_script_free(s);
    /* formats: R8G8B8_UNORM is no colour attachment on lavapipe */
    s = parse("#!amber\nSHADER vertex v PASSTHROUGH\nSHADER fragment f GLSL\nvoid main() {}\nEND\n"
              "BUFFER fb FORMAT R64_SFLOAT\nPIPELINE graphics g\n ATTACH v\n ATTACH f\n"
              " BIND BUFFER fb AS color LOCATION 0\nEND\n");
    assert_false(amber_script_declared(s, lavapipe, missing, sizeof(missing)));
    assert_non_null(
        strstr(missing, "fb as color attachment: VK_FORMAT_R64_SFLOAT lacks VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT"));
    amber_script_free(s);
    s = parse("#!amber\nDEVICE_EXTENSION VK_EXT_not_real\n");
    assert_false(amber_script_declared(s, h200, missing, sizeof(missing)));
    assert_string_equal(missing, "line 2: DEVICE_EXTENSION VK_EXT_not_real is not exposed");
    amber_script_free(s);
    /* ray tracing: what a ray_tracing pipeline implies, enabled; unsupported without it */
    s = parse("#!amber\nSHADER ray_generation g GLSL\nvoid main() {}\nEND\n"
              "PIPELINE ray_tracing rt\n  SHADER_GROUP gen g\nEND\n");
    assert_true(amber_script_declared(s, lavapipe, missing, sizeof(missing)));
    assert_true(amber_script_declared(s, h200, missing, sizeof(missing)));
    memset(&options, 0, sizeof(options));
    memset(&storage, 0, sizeof(storage));
    amber_script_device_options(s, h200, &options, &storage);
    assert_true(storage.ray_tracing_pipeline.rayTracingPipeline);
    assert_true(storage.acceleration_structure.accelerationStructure);
    assert_true(storage.buffer_device_address.bufferDeviceAddress);
    bool rt = false, as = false, deferred = false;
    for (int i = 0; options.extensions[i] != NULL; ++i) {
        rt = rt || strcmp(options.extensions[i], "VK_KHR_ray_tracing_pipeline") == 0;
        as = as || strcmp(options.extensions[i], "VK_KHR_acceleration_structure") == 0;
        deferred = deferred || strcmp(options.extensions[i], "VK_KHR_deferred_host_operations") == 0;
    }
    assert_true(rt && as && deferred);
    cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive((cJSON *)lavapipe, "extensions"),
                                            "VK_KHR_ray_tracing_pipeline");
    assert_false(amber_script_declared(s, lavapipe, missing, sizeof(missing)));
    assert_string_equal(missing, "line 5: a ray_tracing PIPELINE needs ray tracing: VK_KHR_ray_tracing_pipeline is not "
                                 "exposed");
    amber_script_free(s);
    cJSON_Delete(lavapipe_report);
    cJSON_Delete(h200_report);
}

/* A file enabling what changes defined behaviour for every pipeline runs on a device of its own. */
static void behaviour_changing_extensions_get_their_own_device(void **state)
{
    (void)state;
    struct amber_script *s = parse("#!amber\nDEVICE_EXTENSION VK_EXT_depth_range_unrestricted\n");
    assert_true(amber_script_needs_own_device(s));
    amber_script_free(s);
    s = parse("#!amber\nDEVICE_EXTENSION VK_KHR_16bit_storage\nDEVICE_FEATURE depthClamp\n");
    assert_false(amber_script_needs_own_device(s));
    amber_script_free(s);
    s = parse("[require]\nVK_EXT_depth_range_unrestricted\n[compute shader]\nvoid main() {}\n");
    assert_true(amber_script_needs_own_device(s));
    amber_script_free(s);
    assert_false(amber_script_needs_own_device(NULL));
}

static void test_ids_of_paths(void **state)
{
    (void)state;
    char id[128];
    assert_true(amber_suite_test_id("compute_1x1.amber", id, sizeof(id)));
    assert_string_equal(id, "amber.compute_1x1");
    assert_true(amber_suite_test_id("graphicsfuzz/cov-fold-shift.amber", id, sizeof(id)));
    assert_string_equal(id, "amber.graphicsfuzz.cov-fold-shift");
    assert_true(amber_suite_test_id("a b/c+d.expect_fail.amber", id, sizeof(id)));
    assert_string_equal(id, "amber.a_b.c_d.expect_fail");
    assert_true(amber_suite_test_id(".hidden/x.amber", id, sizeof(id)));
    assert_string_equal(id, "amber._.hidden.x");
    assert_true(amber_suite_test_id(".amber", id, sizeof(id))); /* a name that is only the extension */
    assert_string_equal(id, "amber._.amber");
    char small[8];
    assert_false(amber_suite_test_id("a_very_long_name.amber", small, sizeof(small)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(glsl_compiles_for_its_target),
        cmocka_unit_test(shaders_that_do_not_compile),
        cmocka_unit_test(tool_limits_told_from_bad_input),
        cmocka_unit_test(optimizer_passes),
        cmocka_unit_test(assembly_and_passthrough),
        cmocka_unit_test(requirements_against_reports),
        cmocka_unit_test(test_ids_of_paths),
        cmocka_unit_test(behaviour_changing_extensions_get_their_own_device),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
