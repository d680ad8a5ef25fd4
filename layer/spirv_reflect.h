/* SPIR-V reflection for the checks: what a shader's entry point needs from the device and what it
 * does to each descriptor binding. Parsed with SPIRV-Tools (spvBinaryParse); specialization
 * constants are applied, so the local size and the workgroup-memory size are what the pipeline
 * will really use. A binding counts as written only if the shader stores to it (OpStore,
 * OpImageWrite, atomics, OpCopyMemory target) through a pointer rooted at its variable, and as read
 * only if it loads from it; a binding declared but never touched is no access at all. */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_H

#include "spirv_reflect_result.h"

/* Reflects entry point `entry` of `code`. The caller frees the result with reflect_free. */
void reflect_module(const uint32_t *code, size_t size_bytes, const char *entry,
                    const struct reflect_specialization *spec, size_t spec_count, struct reflect_result *out);
void reflect_free(struct reflect_result *r);
/* Adds `from`'s bindings to `into` (a graphics pipeline's stages together): a binding in both
 * stages reads or writes if either stage does. */
bool reflect_merge(struct reflect_result *into, const struct reflect_result *from);

#endif
