/* The SPIR-V reflection's records of one module (spirv_reflect.c reads it into them with
 * spirv_reflect_parse.c): what it keeps per result id and per instruction inside functions, and
 * the walk's bookkeeping - the reason it gave up on a module, the steps its walks have left. The
 * bottom of the reflection's files: every other spirv_reflect_*.c works on these records.
 *
 * Nothing read from a module is trusted: id() answers an empty record for an id outside it, and
 * every walk that follows ids spends a step (spend) of a budget proportional to its size. */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_MODULE_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_reflect_result.h"

/* What the parse keeps per result id. */
struct id_info {
    uint32_t opcode;        /* the defining instruction */
    uint32_t type;          /* result type, or for types: the element / pointee / member list start */
    uint32_t count;         /* vector size, matrix columns, array length id, member count */
    uint32_t storage_class; /* pointers and variables */
    uint32_t image_dim, image_sampled;
    uint64_t value; /* constants, specialization applied */
    bool has_value, is_spec, has_spec_id, builtin_workgroup_size, block, buffer_block;
    uint32_t spec_id;
    uint32_t set, binding;
    bool has_set, has_binding, non_writable, non_readable;
    uint32_t members_at; /* into the member pool (struct types, composite constants) */
    uint32_t root;       /* pointers and image values: the variable or parameter they come from */
    uint32_t function;   /* parameters and instructions: the function they belong to */
    bool read, written, used;
    uint32_t member_non_writable, member_non_readable, member_count_decorated;
    int32_t element;            /* pointers into a descriptor array: the constant element, -1 dynamic, -2 none */
    uint64_t constant_elements; /* variables: elements reached by constant index */
    bool dynamic_index;         /* variables: some access indexes at run time */
    uint32_t stored_constant;   /* Function variables: the one constant every store puts there (0 none,
                                 * UINT32_MAX: something else too) */
    uint32_t stored_value;      /* Function variables: the one value every store puts there (0 none,
                                 * UINT32_MAX: stored more than one) */
    uint32_t builtin;           /* variables: the BuiltIn decoration + 1 (0: none) */
    uint32_t array_stride;      /* array types: the ArrayStride decoration */
    bool is_signed;             /* integer types */
    uint32_t defined_at;        /* instructions in functions: index + 1 of their body instruction */
    uint32_t arguments;         /* function parameters: index + 1 of the first argument edge (0: none) */
    uint32_t argument_count;    /* function parameters: call sites that pass them an argument */
    /* blocks (labels): the structured merge their header names, where their terminator is, and
     * whether they run (live: reachable with specialization constants applied to branches) and
     * run in every invocation within the work bound (not uncertain) */
    uint32_t merge, terminator_at; /* terminator_at: body index + 1 */
    bool loop_header, live_block, uncertain_block;
    uint32_t walk_mark;    /* the walk that last visited this block */
    bool sites_incomplete; /* binding variables: an access whose place is not known */
    uint32_t expr_memo;    /* the expression node of this value + 1 (0: not yet made) */
};

/* One argument a call site passes to a parameter: a list per parameter, newest first. */
struct argument_edge {
    uint32_t argument;
    uint32_t next; /* index + 1 of the next edge of the same parameter, 0: the last */
};

/* An Offset member decoration: where member `member` of struct `type` lies in its block. */
struct member_offset {
    uint32_t type, member, offset;
};

/* Instructions inside functions, replayed after the whole module is known. */
struct body_instruction {
    uint32_t function;
    uint32_t block; /* the label of the block it is in (0 before the first) */
    uint32_t opcode;
    uint32_t at, count; /* operand words in the word pool */
};

/* An instruction of the module SPIRV-Tools could not parse: its words in the module. */
struct unknown_instruction {
    uint32_t at, count;
};

struct loop_counter; /* spirv_reflect_loops.h */

struct parse_state {
    struct id_info *ids;
    uint32_t bound;
    uint32_t *members;
    size_t member_count, member_capacity;
    uint32_t *words;
    size_t word_count, word_capacity;
    struct body_instruction *body;
    size_t body_count, body_capacity;
    uint32_t current_function, current_block;
    uint32_t entry_function;
    uint32_t execution_model;
    const char *entry_name;
    uint32_t local_size[3], local_size_ids[3];
    bool has_local_size, local_size_is_id;
    const struct reflect_specialization *spec;
    size_t spec_count;
    struct id_info none; /* what id() answers for an id outside the module */
    struct member_offset *offsets;
    size_t offset_count, offset_capacity;
    struct argument_edge *edges;
    size_t edge_count, edge_capacity;
    /* Nothing read from the module is trusted: the first thing that makes no sense stops the
     * reflection with a reason and the word it was found at, and the module counts as unknown. */
    size_t module_words;
    size_t position; /* word offset of the instruction being parsed */
    bool gave_up;
    uint32_t gave_up_at;
    char why[96];
    /* Steps left for the walks that follow ids (types, call graphs, parameters): a hostile module
     * can make them branch without end. */
    uint64_t fuel;
    /* the buffer accesses found (each with its variable) and the expressions of their indices */
    struct variable_site *sites;
    size_t site_count, site_capacity;
    struct reflect_expr *exprs;
    size_t expr_count, expr_capacity;
    uint32_t walk; /* the current block walk's mark */
    uint32_t *stack;
    size_t stack_capacity;
    /* The module as given, and its instructions SPIRV-Tools did not know (read as OpNop words in
     * a copy): those the reflection models itself (spirv_reflect_cooperative.h) are put back into
     * the bodies with their own words. */
    const uint32_t *original;
    const struct unknown_instruction *unknown;
    const uint32_t *unknown_count;
    uint32_t cooperative_type, cooperative_type_at; /* the last matrix type's declaration found */
    /* the loop counters found (spirv_reflect_loops.h) */
    struct loop_counter *loop_counters;
    size_t loop_counter_count, loop_counter_capacity;
};

struct variable_site {
    uint32_t variable;
    struct reflect_site site;
};

/* Stops the reflection at the first thing in the module that makes no sense: `why`, at word `at`.
 * Inline (like the helpers below): every walk of every file calls them. */
static inline void give_up(struct parse_state *s, size_t at, const char *why)
{
    if (s->gave_up)
        return;
    s->gave_up = true;
    s->gave_up_at = (uint32_t)at;
    snprintf(s->why, sizeof(s->why), "%s", why);
}

/* One step of a walk; false (and the reflection given up) once the module has used them all. */
static inline bool spend(struct parse_state *s)
{
    if (s->fuel == 0) {
        give_up(s, 0, "its types or call graph branch further than the reflection follows");
        return false;
    }
    --s->fuel;
    return true;
}

/* Room for `needed` elements of `element` bytes in *data (doubling); false when out of memory. */
static inline bool grow(void **data, size_t *capacity, size_t needed, size_t element)
{
    if (needed <= *capacity)
        return true;
    size_t c = *capacity ? *capacity : 256;
    while (c < needed)
        c *= 2;
    void *bigger = realloc(*data, c * element);
    if (bigger == NULL)
        return false;
    *data = bigger;
    *capacity = c;
    return true;
}

/* The record of id `i`, or an empty one for an id outside the module (never NULL). */
static inline struct id_info *id(struct parse_state *s, uint32_t i)
{
    if (i == 0 || i >= s->bound) {
        memset(&s->none, 0, sizeof(s->none));
        return &s->none;
    }
    return &s->ids[i];
}

/* Bytes a value of this type takes, tightly packed (array lengths specialized). */
uint64_t type_size(struct parse_state *s, uint32_t type, int depth);
/* The instruction that defines `value` (its operands after the result type and id), or NULL. */
static inline const uint32_t *definition(struct parse_state *s, uint32_t value, uint32_t *opcode, uint32_t *count)
{
    uint32_t at = id(s, value)->defined_at;
    if (at == 0 || at > s->body_count)
        return NULL;
    const struct body_instruction *b = &s->body[at - 1];
    *opcode = b->opcode;
    *count = b->count;
    return s->words + b->at;
}
/* The Offset decoration of member `member` of struct `type`. */
bool member_offset_of(struct parse_state *s, uint32_t type, uint32_t member, uint32_t *offset);

#endif
