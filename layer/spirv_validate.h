/* SPIRV-Tools' validator on one shader module (the `spirv_validation` setting), for the Vulkan
 * version the device offers: what the validator rejects, and where. Run once per module at
 * vkCreateShaderModule, never on the recording path. */
#ifndef PREFLIGHT_LAYER_SPIRV_VALIDATE_H
#define PREFLIGHT_LAYER_SPIRV_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when valid. Otherwise `why` holds the validator's message and `*at` its word index.
 * `api_version` is VkPhysicalDeviceProperties::apiVersion. */
bool spirv_validate(const uint32_t *code, size_t size_bytes, uint32_t api_version, char *why, size_t why_size,
                    uint32_t *at);

#endif
