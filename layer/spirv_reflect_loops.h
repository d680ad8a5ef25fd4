/* Loop counters: a function variable set to a constant just before a structured loop, compared
 * with a constant bound at the loop's top (`i < N`, `i <= N`), and stepped by a constant in the
 * loop's continue block, with no other use than those loads and stores. Inside the loop's body it
 * holds one of [start, last]: an index made of it (ggml's tile loops over the rows and columns of
 * a matrix product) is bounded though the variable is stored twice. */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_LOOPS_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_LOOPS_H

#include "spirv_reflect_module.h"

struct loop_counter {
    uint32_t variable;
    uint32_t header, check, body, merge, continue_block; /* labels: `check` ends in the comparison */
    uint32_t step_at;                                    /* body index + 1 of the store that steps it */
    uint64_t first, last;                                /* its values inside the body */
};

/* Finds the entry function's loop counters (s->loop_counters). After note_blocks and
 * find_live_blocks. */
void find_loop_counters(struct parse_state *s);

/* When `value` is a load of a loop counter inside its loop's body (and not after the step in
 * the continue block), the values it reads: [*first, *last]. */
bool loop_counter_range(struct parse_state *s, uint32_t value, uint64_t *first, uint64_t *last);

#endif
