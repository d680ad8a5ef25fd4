/* The values a dispatch fixes, as a compute shader uses them: components of its invocation IDs
 * and 32-bit integers of its push constants - and its work bound, a comparison of one with the
 * other below which the shader does its work (the checks read the bound's push constant to know
 * how many invocations really work). */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_BOUNDS_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_BOUNDS_H

#include "spirv_reflect_module.h"

/* A value that is one component of an invocation built-in: which built-in (REFLECT_BOUND_*) and
 * dimension. Followed through casts, loads of function variables stored once, swizzles and
 * component extraction. */
struct invocation_component {
    int kind; /* -1: not one */
    uint32_t dim;
};

/* invocation_kind's answer for gl_LocalInvocationID (REFLECT_BOUND_* are the others). */
#define INVOCATION_LOCAL 2

/* The invocation built-in component `value` is, or kind -1. After note_stored_values. */
struct invocation_component scalar_component(struct parse_state *s, uint32_t value, int depth);
/* A value that is a 32-bit integer of the push constant block: its offset and signedness. */
bool push_constant_value(struct parse_state *s, uint32_t value, uint32_t *offset, bool *is_signed, int depth);
/* The work bound per dimension (out->bounds, out->has_bounds). */
void find_invocation_bounds(struct parse_state *s, const bool *reachable, struct reflect_result *out);
/* Whether `condition` is the work bound's comparison (after find_invocation_bounds); then
 * *inside_when_true says which branch keeps the invocations inside it. */
bool is_work_bound_check(struct parse_state *s, const struct reflect_result *out, uint32_t condition,
                         bool *inside_when_true);

#endif
