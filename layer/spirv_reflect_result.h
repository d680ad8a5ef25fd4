/* What the SPIR-V reflection answers (spirv_reflect.h asks): the types of its result - the
 * bindings an entry point touches, the sites of its buffer accesses with the expressions of their
 * indices, and its work bound. A header of its own so that the files of the reflection
 * (spirv_reflect_*.c) can fill them in without including the entry point that calls them. */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_RESULT_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_RESULT_H

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
    /* Where in the binding's memory the shader's accesses land (buffers of compute shaders): its
     * sites, reflect_result.sites[sites_at, sites_at + site_count). `sites_complete`: every live
     * access of the binding is one of them (otherwise some access's place is not known). */
    uint32_t sites_at, site_count;
    bool sites_complete;
};

/* An integer expression of the values a dispatch fixes, in the nodes of reflect_result.exprs:
 * what an index into a buffer is, followed back through arithmetic to constants (specialization
 * applied), push constants and the invocation's built-in IDs. Anything else (memory loads, phis,
 * parameters) is REFLECT_EXPR_UNKNOWN. Operands are indices of earlier nodes; the operators with two
 * come from REFLECT_EXPR_ADD on. */
enum reflect_expr_op {
    REFLECT_EXPR_UNKNOWN,
    REFLECT_EXPR_CONSTANT,          /* value */
    REFLECT_EXPR_PUSH,              /* a 32-bit push constant at byte `value`; `a`: 1 when signed */
    REFLECT_EXPR_GLOBAL_ID,         /* gl_GlobalInvocationID, component `value` */
    REFLECT_EXPR_LOCAL_ID,          /* gl_LocalInvocationID, component `value` */
    REFLECT_EXPR_WORKGROUP_ID,      /* gl_WorkGroupID, component `value` */
    REFLECT_EXPR_LOCAL_INDEX,       /* gl_LocalInvocationIndex */
    REFLECT_EXPR_SUBGROUP_ID,       /* gl_SubgroupID: which subgroup of its workgroup (the device's sizes bound it) */
    REFLECT_EXPR_SUBGROUP_LOCAL_ID, /* gl_SubgroupInvocationID */
    REFLECT_EXPR_RANGE,             /* one of [a, b] (a loop counter inside its loop) */
    REFLECT_EXPR_ADD,
    REFLECT_EXPR_SUB,
    REFLECT_EXPR_MUL,
    REFLECT_EXPR_UDIV,
    REFLECT_EXPR_UMOD,
    REFLECT_EXPR_SHL,
    REFLECT_EXPR_SHR,
    REFLECT_EXPR_AND,
    REFLECT_EXPR_OR,
    REFLECT_EXPR_XOR,
};

struct reflect_expr {
    uint8_t op;    /* enum reflect_expr_op */
    uint8_t width; /* bits of the result: 32 or 64 (arithmetic wraps there) */
    uint32_t a, b;
    uint64_t value;
};

/* One load, store or atomic of a buffer binding: at byte `offset` + index * `stride` of the
 * descriptor's range (`index`: a node of reflect_result.exprs, or REFLECT_NO_INDEX), `width` bytes.
 * `certain`: the access runs in every invocation within the shader's work bound (it is in no
 * construct whose condition is anything but that bound, and in no loop). A cooperative matrix's
 * load or store (`has_span`) reaches elements index to index + `span` (a node) of that stride:
 * its first and last, the subgroup's together, never one invocation's own share. */
#define REFLECT_NO_INDEX UINT32_MAX
struct reflect_site {
    uint64_t offset;
    uint32_t stride, width;
    uint32_t index;
    int32_t element; /* a descriptor array's element reached by a constant, -1 for a run-time one */
    bool write, certain;
    bool has_span;
    uint32_t span;
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
    struct reflect_site *sites;     /* of every binding (reflect_binding.sites_at) */
    size_t site_count;
    struct reflect_expr *exprs;
    size_t expr_count;
    /* Not the module's: set by the pipeline's creation (hooks_pipelines.c) for a compute stage,
     * kept here so that evaluating a dispatch needs nothing but the shader. The sizes its
     * subgroups may have (0: not known) and whether they are launched full (REQUIRE_FULL_SUBGROUPS,
     * or a SPIR-V 1.6 module whose local size X is a multiple of every size): what gl_SubgroupID
     * and gl_SubgroupInvocationID can be (access_footprint.c). */
    uint32_t subgroup_min, subgroup_max;
    bool full_subgroups;
};

#endif
