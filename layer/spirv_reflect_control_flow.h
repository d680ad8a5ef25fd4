/* The control flow of the entry point, with the module's constants applied: which functions it
 * reaches through calls, which arguments each parameter takes, and which blocks run (a branch on a
 * specialization constant runs one side only). Marks blocks for the later walks too: each
 * block's merge and terminator, and the regions a construct spans. */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_CONTROL_FLOW_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_CONTROL_FLOW_H

#include "spirv_reflect_module.h"

/* Which functions the entry point can reach (reachable[function id]). */
bool find_reachable(struct parse_state *s, bool *reachable);
static inline bool function_reachable(const bool *reachable, uint32_t f)
{
    return reachable[f]; /* f < bound: only ids defined in the module name functions */
}

/* Parameters take the roots of the arguments passed to them, from every reachable call site. */
bool bind_parameters(struct parse_state *s, const bool *reachable);
/* Each block's merge (from its OpSelectionMerge/OpLoopMerge) and terminator. */
void note_blocks(struct parse_state *s);
/* Marks the blocks each reachable function runs (id_info.live_block). After note_blocks. */
bool find_live_blocks(struct parse_state *s, const bool *reachable);
/* Whether an instruction runs at all: in a live block (function parameters come before any). */
static inline bool instruction_live(struct parse_state *s, const struct body_instruction *b)
{
    return b->block == 0 || id(s, b->block)->live_block;
}
/* The successors a block's terminator can take: all of them, or (follow_fixed) the one a fixed
 * condition or selector picks. Returns how many were written to `out` (at most `capacity`). */
uint32_t successors(struct parse_state *s, uint32_t block, bool follow_fixed, uint32_t *out, uint32_t capacity);
/* Marks uncertain every block reachable from `start` before `stop`; true when one leaves the function. */
bool mark_region(struct parse_state *s, uint32_t start, uint32_t stop);

#endif
