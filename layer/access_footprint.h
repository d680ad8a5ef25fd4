/* The bytes a compute dispatch's shader can reach through one buffer descriptor. A storage buffer
 * bound from a tensor's offset to the end of the buffer, or one buffer whose slices several
 * dispatches write as their push constants select (llama.cpp's ggml does both), is not accessed
 * over the descriptor's whole range: the hazard check judges the bytes the shader's accesses
 * reach, where the layer can prove them, and the descriptor's range where it cannot.
 *
 * From the reflection's sites (spirv_reflect.h: each access's constant offset, index expression,
 * stride and width) and the dispatch's values (its size, the pushed constants, the work bound),
 * each index is evaluated as an interval over every invocation of the dispatch (interval
 * arithmetic over the expression: exact for constants and push constants, the dispatch's ranges
 * for the invocation IDs). The footprint is the smallest byte range holding every site's bytes: a
 * superset of what the shader touches, so it never hides a hazard the descriptor's range would
 * show in those bytes. A loop counter is its loop's range; gl_SubgroupID and
 * gl_SubgroupInvocationID are bounded by the device's subgroup sizes (dispatch_shape); a
 * cooperative matrix's access reaches `span` elements past its index. Not provable (the
 * descriptor's range stays): a binding whose accesses are not all sites (sites_complete), an index
 * the reflection could not follow (a value loaded from memory, a variable stored other than as a
 * loop counter), arithmetic that may wrap, an indirect dispatch, a draw. */
#ifndef PREFLIGHT_LAYER_ACCESS_FOOTPRINT_H
#define PREFLIGHT_LAYER_ACCESS_FOOTPRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "alias_witness.h"
#include "memory_access.h"
#include "spirv_reflect.h"

/* The byte range [*begin, *end) of a descriptor range `length` bytes long (offsets from its start)
 * that `binding`'s accesses to array element `element` reach in this dispatch; *begin == *end when
 * they reach none. False when it cannot be proven. */
bool access_footprint_of(const struct reflect_result *shader, const struct reflect_binding *binding, uint32_t element,
                         uint64_t length, const struct dispatch_shape *dispatch, uint64_t *begin, uint64_t *end);

/* `accesses` with each compute descriptor's buffer access (binding_ref set) narrowed to its
 * footprint in `out` (marked `evaluated`; one that reaches nothing dropped); false when none could
 * be narrowed (`out` is then not written: use `accesses`). */
bool access_footprints_narrow(const struct reflect_result *shader, const struct dispatch_shape *dispatch,
                              const struct hazard_accesses *accesses, struct hazard_accesses *out);

/* The last dispatch's narrowed accesses of a command buffer: engines repeat one dispatch (the
 * same pipeline, bound ranges, size and pushed constants), which is then narrowed once. */
struct footprint_memo;
/* `accesses` narrowed for this dispatch (access_footprints_narrow), or `accesses` itself when none
 * could be; from `*memo` when the dispatch is the one it holds (allocated on first use). The
 * result stays valid until the next call with the same memo. */
const struct hazard_accesses *access_footprints_memoized(struct footprint_memo **memo,
                                                         const struct reflect_result *shader,
                                                         const struct dispatch_shape *dispatch,
                                                         const struct hazard_accesses *accesses);
/* As access_footprints_narrow, with the reached ranges of `*memo` (allocated on first use) for
 * this dispatch's shape, its last accesses not kept: for a caller that keeps the result itself
 * (command_access.c, with each bound state's accesses). */
bool access_footprints_narrow_memo(struct footprint_memo **memo, const struct reflect_result *shader,
                                   const struct dispatch_shape *dispatch, const struct hazard_accesses *accesses,
                                   struct hazard_accesses *out);
/* Forgets what the memo holds (a new recording: pipelines may have been destroyed since). */
void access_footprint_memo_reset(struct footprint_memo *memo);
void access_footprint_memo_free(struct footprint_memo **memo);

#endif
