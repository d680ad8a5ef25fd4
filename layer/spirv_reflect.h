/* SPIR-V reflection for the checks: what a shader's entry point needs from the device and what it
 * does to each descriptor binding. Parsed with SPIRV-Tools (spvBinaryParse); specialization
 * constants are applied, so the local size and the workgroup-memory size are what the pipeline
 * will really use. A binding counts as written only if the shader stores to it (OpStore,
 * OpImageWrite, atomics, OpCopyMemory target) through a pointer rooted at its variable, and as read
 * only if it loads from it; a binding declared but never touched is no access at all. */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct reflect_specialization {
    uint32_t constant_id;
    uint64_t value; /* the bytes given, zero-extended */
    uint32_t size;
};

struct reflect_binding {
    uint32_t set, binding;
    uint32_t array_size; /* 1 for a single descriptor; 0 for a runtime-sized array */
    bool read, written;
    bool non_writable, non_readable; /* the decorations, as declared */
    enum {
        REFLECT_BUFFER,
        REFLECT_IMAGE,
        REFLECT_SAMPLER,
        REFLECT_SAMPLED_IMAGE,
        REFLECT_ACCELERATION_STRUCTURE,
        REFLECT_OTHER
    } kind;
    bool storage;       /* storage buffer or storage image (as opposed to uniform / sampled) */
    uint32_t image_dim; /* SpvDim of an image (SpvDimBuffer: a texel buffer, SpvDimSubpassData: an input attachment) */
    /* For arrays: the elements reached through constant indices (bit i = element i, up to 64), and
     * whether any access uses an index only known at run time. */
    uint64_t constant_elements;
    bool dynamic_index;
    /* The pipeline stages (VkPipelineStageFlagBits2) whose shaders read or write it: a graphics
     * pipeline's merged stages keep each binding's own. */
    uint64_t used_stages;
};

/* A compute shader's work bound in one dimension: it compares its global invocation ID (or its
 * workgroup ID) in that dimension with a 32-bit integer push constant, and works only below it
 * (`plus_one`: up to and including it). */
enum { REFLECT_BOUND_GLOBAL_INVOCATION, REFLECT_BOUND_WORKGROUP };
struct reflect_bound {
    bool present;
    uint8_t kind;   /* REFLECT_BOUND_* */
    bool is_signed; /* compared as a signed integer */
    bool plus_one;
    uint32_t offset; /* of the push constant, in bytes */
};

struct reflect_result {
    bool ok; /* false: the module could not be parsed or has no such entry point */
    /* Not ok because the module itself makes no sense (as opposed to naming no such entry point):
     * `error` says why and `error_at` at which word. Nothing read from a module is trusted: ids,
     * counts and indices are checked against its bound and sizes, and every walk is bounded. */
    bool invalid;
    uint32_t error_at;
    char error[192];
    uint32_t execution_model; /* SpvExecutionModel of the entry point */
    bool has_local_size;
    uint32_t local_size[3];    /* with specialization applied */
    uint64_t workgroup_memory; /* bytes of Workgroup-storage variables the entry point uses */
    struct reflect_binding *bindings;
    size_t binding_count;
    struct reflect_bound bounds[3]; /* per dimension x, y, z (compute shaders) */
    bool has_bounds;                /* any of them present */
};

/* Reflects entry point `entry` of `code`. The caller frees the result with reflect_free. */
void reflect_module(const uint32_t *code, size_t size_bytes, const char *entry,
                    const struct reflect_specialization *spec, size_t spec_count, struct reflect_result *out);
void reflect_free(struct reflect_result *r);
/* Adds `from`'s bindings to `into` (a graphics pipeline's stages together): a binding in both
 * stages reads or writes if either stage does. */
bool reflect_merge(struct reflect_result *into, const struct reflect_result *from);

#endif
