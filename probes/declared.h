/* The `declared` block of a report: everything a device says about itself, laid out as a Vulkan
 * Profiles capabilities block (extensions, features, properties, formats,
 * queueFamiliesProperties) keyed by the struct and member names of the Vulkan headers, plus
 * memoryProperties and fragmentShadingRates. Only structs whose extension or core version the
 * device has are queried. */
#ifndef PREFLIGHT_PROBE_DECLARED_H
#define PREFLIGHT_PROBE_DECLARED_H

#include <cjson/cJSON.h>

#include "vulkan_instance.h"

cJSON *declared_build(const struct vulkan_instance *vi, VkPhysicalDevice device);

#endif
