/* Whether two bindings of one dispatch really meet. Their descriptor ranges overlapping says only
 * that they may: the shader decides which bytes each invocation touches. With the values the
 * dispatch fixes (its size, the pushed constants, specialization already applied in the
 * reflection) the layer evaluates each access's place (spirv_reflect.h: sites and their index
 * expressions) for the dispatch's invocations:
 *  - PROVEN: an access that runs in every invocation within the shader's work bound writes bytes
 *    through one binding that another invocation's certain access reads or writes through the
 *    other: a witness pair of invocations is named;
 *  - DISJOINT: every access of both bindings has a known place, every invocation was evaluated,
 *    and no byte written through one is touched by another invocation through the other;
 *  - UNPROVEN: anything else (a place the layer cannot evaluate, a dispatch too large to walk, a
 *    draw, an indirect dispatch). Never an ERROR. */
#ifndef PREFLIGHT_LAYER_ALIAS_WITNESS_H
#define PREFLIGHT_LAYER_ALIAS_WITNESS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "spirv_reflect.h"

/* The bytes of pushed constants a dispatch shape carries (MAX_PUSH_CONSTANT_BYTES of
 * state_command_buffers.h). */
#define DISPATCH_PUSH_BYTES 256

/* The dispatch's values, as recorded: NULL counts for a draw or an indirect dispatch. */
struct dispatch_shape {
    const uint32_t *base, *count;  /* workgroups */
    const uint8_t *push_constants; /* MAX_PUSH_CONSTANT_BYTES of them */
    uint64_t push_valid;           /* bit i: bytes [4i, 4i + 4) were pushed */
    uint32_t push_version;         /* changes whenever constants are pushed (0: not followed; compare the bytes) */
};

/* One side of the pair: the binding, the descriptor array element, and the memory range the
 * descriptor names (offset 0 of the binding is `begin`). */
struct alias_side {
    const struct reflect_binding *binding;
    uint32_t element;
    uint64_t begin, end;
};

/* The 32-bit push constant at byte `offset` of the dispatch; false when it was not pushed. */
static inline bool dispatch_push_value(const struct dispatch_shape *d, uint64_t offset, uint64_t *out)
{
    if (d->push_constants == NULL || offset % 4 != 0 || offset + 4 > DISPATCH_PUSH_BYTES ||
        !(d->push_valid >> (offset / 4) & 1))
        return false;
    uint32_t raw;
    memcpy(&raw, d->push_constants + offset, 4);
    *out = raw;
    return true;
}

enum alias_proof { ALIAS_UNPROVEN, ALIAS_PROVEN, ALIAS_DISJOINT };

struct alias_witness {
    uint32_t writer[3], other[3]; /* gl_GlobalInvocationID of the two invocations */
    uint64_t byte;                /* a byte both touch (memory offset, as the sides' ranges) */
    bool other_writes;
};

/* At most so many invocations are evaluated (the first ones, x fastest): beyond, a collision can
 * still be found among them, but disjointness is not claimed. */
#define ALIAS_WITNESS_MAX_INVOCATIONS 4096u

/* Whether `writer` (which writes) and `other` meet in this dispatch of `shader`. */
enum alias_proof alias_witness_find(const struct reflect_result *shader, const struct alias_side *writer,
                                    const struct alias_side *other, const struct dispatch_shape *dispatch,
                                    struct alias_witness *out);

#endif
