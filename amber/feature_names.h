/* The DEVICE_FEATURE names AmberScript knows: each VkPhysicalDeviceFeatures member, and the
 * Struct.member names of docs/amber_script.md, with where a report's declared block holds each one
 * and how the device is created with it. Used by the parser (is the name known?) and by
 * requirements.c (is it declared, what to enable). */
#ifndef PREFLIGHT_AMBER_FEATURE_NAMES_H
#define PREFLIGHT_AMBER_FEATURE_NAMES_H

#include <stddef.h>
#include <vulkan/vulkan_core.h>

enum amber_feature_status {
    AMBER_FEATURE_UNKNOWN,        /* not a name Amber defines */
    AMBER_FEATURE_NOT_IN_HEADERS, /* Amber defines it, this build's Vulkan headers do not */
    AMBER_FEATURE_KNOWN,
};

enum amber_feature_kind {
    AMBER_FEATURE_KIND_CORE,     /* VkPhysicalDeviceFeatures */
    AMBER_FEATURE_KIND_STRUCT,   /* a feature struct chained at device creation */
    AMBER_FEATURE_KIND_PROPERTY, /* a flag of a property: nothing to enable */
    AMBER_FEATURE_KIND_MISSING,  /* not in this build's headers */
};

struct amber_feature {
    const char *name; /* as AmberScript writes it */
    enum amber_feature_kind kind;
    const char *member;     /* in the Vulkan struct (core, struct), or the flag bit (property) */
    const char *structs[3]; /* where the report's declared block holds it, NULL-ended */
    size_t member_offset;   /* core: in VkPhysicalDeviceFeatures; struct: in the struct */
    size_t storage_offset;  /* struct: in struct smoke_device_features */
    VkStructureType type;
    const char *extension; /* enabled with the struct when the device has it */
};

enum amber_feature_status amber_feature_lookup(const char *name, const struct amber_feature **feature);

#endif
