/* Where a compute shader's buffer accesses land: for every live load, store and atomic of a
 * buffer binding in the entry function, its site - a constant offset, one index with its stride
 * (the index as an expression of the values a dispatch fixes), the width - and whether it is
 * certain to run in every invocation within the work bound. A binding whose access cannot be
 * written down that way has its sites marked incomplete. */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_SITES_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_SITES_H

#include "spirv_reflect_module.h"

/* Every live access of a buffer binding in the entry point, as a site (s->sites, s->exprs).
 * After find_invocation_bounds (`out`'s bounds decide which blocks are certain). */
void find_sites(struct parse_state *s, const bool *reachable, const struct reflect_result *out);

#endif
