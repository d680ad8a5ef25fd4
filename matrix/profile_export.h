/* A device's declared capabilities as a Vulkan Profiles JSON document (profiles schema 0.8):
 * one capabilities block and one profile that uses it, the layout vulkaninfo --json writes, so
 * the Khronos profiles tooling can read it. Bits newer than our registry (kept as "0x..." in
 * reports) and the blocks that are not part of the profiles schema are left out. */
#ifndef PREFLIGHT_MATRIX_PROFILE_EXPORT_H
#define PREFLIGHT_MATRIX_PROFILE_EXPORT_H

#include <cjson/cJSON.h>

#define PROFILES_SCHEMA_URL "https://schema.khronos.org/vulkan/profiles-0.8-latest.json"

cJSON *profile_export(const cJSON *device);

#endif
