#include "spirv_validate.h"

/* libspirv.h defines (not declares) a const for C++'s internal linkage; in C a second file
 * including it would define the symbol twice (spirv_reflect_parse.c has it under its own name). */
#define kDefaultMaxIdBound spirv_validate_default_max_id_bound
#include <spirv-tools/libspirv.h>
#include <stdio.h>
#include <vulkan/vulkan.h>

static spv_target_env environment_of(uint32_t api_version)
{
    uint32_t minor = VK_API_VERSION_MINOR(api_version);
    return minor >= 3   ? SPV_ENV_VULKAN_1_3
           : minor == 2 ? SPV_ENV_VULKAN_1_2
           : minor == 1 ? SPV_ENV_VULKAN_1_1
                        : SPV_ENV_VULKAN_1_0;
}

bool spirv_validate(const uint32_t *code, size_t size_bytes, uint32_t api_version, char *why, size_t why_size,
                    uint32_t *at)
{
    *at = 0;
    if (code == NULL || size_bytes < 20 || size_bytes % 4 != 0) {
        snprintf(why, why_size, "not a SPIR-V module (%zu bytes)", code == NULL ? (size_t)0 : size_bytes);
        return false;
    }
    spv_context context = spvContextCreate(environment_of(api_version));
    spv_const_binary_t binary = {code, size_bytes / 4};
    spv_diagnostic diagnostic = NULL;
    spv_result_t result = spvValidate(context, &binary, &diagnostic);
    if (result != SPV_SUCCESS) {
        *at = diagnostic ? (uint32_t)diagnostic->position.index : 0;
        snprintf(why, why_size, "spirv-val: %s", diagnostic && diagnostic->error ? diagnostic->error : "invalid");
    }
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    return result == SPV_SUCCESS;
}
