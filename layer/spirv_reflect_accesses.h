/* What the entry point does to each variable: the instructions of its live blocks replayed, each
 * pointer followed back to the variable (or parameter) it comes from, and every load, store,
 * atomic, image and ray-query operation marked as a read or a write of that variable - through
 * parameters, of every argument passed. Descriptor arrays also get the elements reached. */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_ACCESSES_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_ACCESSES_H

#include "spirv_reflect_module.h"

/* Is `variable` an array of descriptors (of resources, or of blocks)? */
bool is_descriptor_array(struct parse_state *s, uint32_t variable);
/* Twice: first only to learn where every pointer comes from (roots_only: a callee may come before
 * its caller in the module), then to mark the accesses. */
void replay_bodies(struct parse_state *s, const bool *reachable, bool roots_only);

#endif
