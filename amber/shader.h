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

/* false with the compiler's or validator's message (file lines, not source lines) in `error`. */
bool amber_shader_compile(const struct amber_shader *shader, struct amber_spirv *out, char *error, size_t size);
void amber_spirv_free(struct amber_spirv *spirv);

#endif
