/* A SHADER's SPIR-V: GLSL compiled with shaderc, SPIR-V assembly assembled with SPIRV-Tools,
 * SPIRV-HEX bytes decoded, SPIRV-BIN taken as it is, PASSTHROUGH the embedded vertex shader; every
 * module then validated by SPIRV-Tools for its Vulkan target. TARGET_ENV picks the SPIR-V version
 * (spv1.0 by default, as Amber). No Vulkan calls. */
#ifndef PREFLIGHT_AMBER_SHADER_H
#define PREFLIGHT_AMBER_SHADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "script.h"

struct amber_spirv {
    uint32_t *words;
    size_t count;
    uint32_t spirv_version;  /* 0x10000 * major + 0x100 * minor, as in the module's header */
    uint32_t vulkan_version; /* the Vulkan version that takes that SPIR-V (VK_API_VERSION_1_x) */
};

enum amber_compile_result {
    AMBER_COMPILE_OK,
    /* glslang or SPIRV-Tools refused the shader (`error` names which, and its version): as likely a
     * limit of the build's tools as a fault of the shader; the device was not asked */
    AMBER_COMPILE_TOOL,
    /* the file's own bytes are not a module (SPIRV-HEX, SPIRV-BIN, no magic number) */
    AMBER_COMPILE_INPUT,
};

/* `spirv_1_4`: the file asks for VK_KHR_spirv_1_4 (DEVICE_EXTENSION): SPIR-V assembly without
 * TARGET_ENV that is not valid SPIR-V 1.0 or 1.3 is tried as SPIR-V 1.4, as the CTS assembles it. */
enum amber_compile_result amber_shader_build(const struct amber_shader *shader, bool spirv_1_4, struct amber_spirv *out,
                                             char *error, size_t size);
/* "glslang X.Y.Z", the GLSL compiler the build links */
const char *amber_glslang_version(void);

/* false with the compiler's or validator's message (file lines, not source lines) in `error`. */
bool amber_shader_compile(const struct amber_shader *shader, struct amber_spirv *out, char *error, size_t size);
void amber_spirv_free(struct amber_spirv *spirv);

enum amber_optimize_result {
    AMBER_OPTIMIZED,
    AMBER_OPTIMIZER_FAILED,  /* spirv-opt refused the flags or the module: `error` has its message */
    AMBER_OPTIMIZER_MISSING, /* no spirv-opt to run: `error` says where it was looked for */
};

/* SHADER_OPTIMIZATION: `in` through SPIRV-Tools' optimizer with `passes` (spirv-opt's flags, one a
 * line) for the shader's target environment, then validated. SPIRV-Tools' optimizer is C++ only,
 * so this runs the spirv-opt program: $PREFLIGHT_SPIRV_OPT, else spirv-opt beside the running
 * program, else on PATH. */
enum amber_optimize_result amber_shader_optimize(const struct amber_shader *shader, const struct amber_spirv *in,
                                                 const char *passes, struct amber_spirv *out, char *error, size_t size);

#endif
