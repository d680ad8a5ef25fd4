#include "spirv_reflect_loops.h"

#include <spirv/unified1/spirv.h>

#include "spirv_reflect_control_flow.h"
#include "spirv_reflect_parse.h"

/* at most so many loops are examined per module: beyond, their counters are not followed */
#define MAX_LOOP_CANDIDATES 256u

/* A block's terminator, or NULL. */
static const struct body_instruction *terminator(struct parse_state *s, uint32_t block)
{
    uint32_t at = id(s, block)->terminator_at;
    return at != 0 && at <= s->body_count ? &s->body[at - 1] : NULL;
}

/* Whether `block` ends in an unconditional branch to `target`. */
static bool branches_to(struct parse_state *s, uint32_t block, uint32_t target)
{
    const struct body_instruction *t = terminator(s, block);
    return t != NULL && t->opcode == SpvOpBranch && t->count >= 1 && s->words[t->at] == target;
}

/* The body instruction that defines `value`, or NULL. */
static const struct body_instruction *defining(struct parse_state *s, uint32_t value)
{
    uint32_t at = id(s, value)->defined_at;
    return at != 0 && at <= s->body_count ? &s->body[at - 1] : NULL;
}

/* A load of the 32-bit integer function variable `*variable` (set when 0) in `block`. */
static bool load_of(struct parse_state *s, uint32_t value, uint32_t block, uint32_t *variable)
{
    const struct body_instruction *d = defining(s, value);
    if (d == NULL || d->opcode != SpvOpLoad || d->count < 3 || d->block != block)
        return false;
    uint32_t pointer = s->words[d->at + 2];
    struct id_info *v = id(s, pointer);
    struct id_info *pointee = id(s, id(s, v->type)->type);
    if (v->opcode != SpvOpVariable || v->storage_class != SpvStorageClassFunction || pointee->opcode != SpvOpTypeInt ||
        pointee->count != 32 || (*variable != 0 && *variable != pointer))
        return false;
    *variable = pointer;
    return true;
}

/* A 32-bit integer constant (specialization applied). */
static bool constant_of(struct parse_state *s, uint32_t value, uint64_t *out)
{
    struct id_info *c = id(s, value);
    if (!c->has_value || id(s, c->type)->opcode != SpvOpTypeInt || id(s, c->type)->count != 32)
        return false;
    *out = c->value & 0xFFFFFFFFu;
    return true;
}

/* The loop of the OpLoopMerge `merge_instruction` as a counter candidate: its blocks, variable and
 * bound, read off the comparison that decides whether the body runs. */
static bool candidate(struct parse_state *s, const struct body_instruction *merge_instruction, struct loop_counter *out,
                      uint64_t *bound, bool *inclusive, bool *is_signed)
{
    uint32_t header = merge_instruction->block;
    const uint32_t *m = s->words + merge_instruction->at;
    if (merge_instruction->count < 2 || header == 0 || !id(s, header)->live_block)
        return false;
    *out = (struct loop_counter){.header = header, .merge = m[0], .continue_block = m[1], .check = header};
    const struct body_instruction *t = terminator(s, header);
    if (t != NULL && t->opcode == SpvOpBranch && t->count >= 1) { /* glslang: the check in a block of its own */
        out->check = s->words[t->at];
        if (out->check == out->merge || out->check == out->continue_block || out->check == header)
            return false;
        t = terminator(s, out->check);
    }
    if (t == NULL || t->opcode != SpvOpBranchConditional || t->count < 3)
        return false;
    const uint32_t *c = s->words + t->at;
    if (c[2] != out->merge || c[1] == out->merge)
        return false; /* the false side must leave the loop */
    out->body = c[1];
    const struct body_instruction *compare = defining(s, c[0]);
    if (compare == NULL || compare->count != 4)
        return false;
    const uint32_t *w = s->words + compare->at;
    switch (compare->opcode) {
    case SpvOpULessThan:
    case SpvOpSLessThan:
    case SpvOpULessThanEqual:
    case SpvOpSLessThanEqual:
        break;
    default:
        return false;
    }
    *inclusive = compare->opcode == SpvOpULessThanEqual || compare->opcode == SpvOpSLessThanEqual;
    *is_signed = compare->opcode == SpvOpSLessThan || compare->opcode == SpvOpSLessThanEqual;
    out->variable = 0;
    return load_of(s, w[2], out->check, &out->variable) && constant_of(s, w[3], bound);
}

/* The variable's stores and other uses: exactly a constant set in the block that enters the loop
 * and a step (its own value, loaded in the continue block, plus a constant) at the end of the
 * continue block; no initializer, no other use than loads. */
static bool counter_uses(struct parse_state *s, struct loop_counter *k, uint64_t *start, uint64_t *step,
                         uint32_t *start_block_out)
{
    uint32_t stores = 0, start_block = 0;
    const struct body_instruction *step_store = NULL, *start_store = NULL;
    for (size_t i = 0; i < s->body_count; ++i) {
        const struct body_instruction *b = &s->body[i];
        const uint32_t *w = s->words + b->at;
        if (b->opcode == SpvOpLoad && b->count >= 3) {
            if (w[0] == k->variable || w[1] == k->variable)
                return false;
            continue;
        }
        if (b->opcode == SpvOpStore && b->count >= 2 && w[0] == k->variable) {
            if (w[1] == k->variable || ++stores > 2)
                return false;
            if (b->block == k->continue_block) {
                step_store = b;
                k->step_at = (uint32_t)i + 1;
            } else {
                start_store = b;
                start_block = b->block;
            }
            continue;
        }
        if (b->opcode == SpvOpVariable && b->count >= 2 && w[1] == k->variable) {
            if (b->count >= 4)
                return false; /* an initializer */
            continue;
        }
        for (uint32_t o = 0; o < b->count; ++o)
            if (w[o] == k->variable)
                return false; /* passed to a function, an access chain, a copy... */
    }
    if (named_by_unknown_instruction(s, k->variable))
        return false; /* an instruction the parse could not read may write it */
    if (step_store == NULL || start_store == NULL || !branches_to(s, k->continue_block, k->header) ||
        !branches_to(s, start_block, k->header) || start_block == k->continue_block ||
        !constant_of(s, s->words[start_store->at + 1], start))
        return false;
    *start_block_out = start_block;
    /* the step: OpIAdd of a load of the variable in the continue block (before the store) and a constant */
    const struct body_instruction *add = defining(s, s->words[step_store->at + 1]);
    if (add == NULL || add->opcode != SpvOpIAdd || add->count != 4)
        return false;
    const uint32_t *a = s->words + add->at;
    for (int side = 0; side < 2; ++side) {
        uint32_t variable = k->variable;
        const struct body_instruction *load = defining(s, a[2 + side]);
        if (load_of(s, a[2 + side], k->continue_block, &variable) && load < step_store &&
            constant_of(s, a[3 - side], step) && *step >= 1)
            return true;
    }
    return false;
}

/* Whether the loop's header is entered only from the block that starts the counter and from the
 * continue block (the back edge). */
static bool entered_only_from(struct parse_state *s, const struct loop_counter *k, uint32_t start_block)
{
    uint32_t next[256];
    for (size_t i = 0; i < s->body_count; ++i) {
        const struct body_instruction *b = &s->body[i];
        if (b->opcode != SpvOpLabel || b->function != s->entry_function || b->count < 1)
            continue;
        uint32_t block = s->words[b->at];
        if (block == start_block || block == k->continue_block)
            continue;
        uint32_t count = successors(s, block, false, next, 256);
        if (count == 256)
            return false; /* a switch too wide to list: may be one */
        for (uint32_t j = 0; j < count; ++j)
            if (next[j] == k->header)
                return false;
    }
    return true;
}

void find_loop_counters(struct parse_state *s)
{
    uint32_t examined = 0;
    for (size_t i = 0; i < s->body_count && examined < MAX_LOOP_CANDIDATES && !s->gave_up; ++i) {
        const struct body_instruction *b = &s->body[i];
        if (b->opcode != SpvOpLoopMerge || b->function != s->entry_function)
            continue;
        ++examined;
        struct loop_counter k;
        uint64_t bound, start, step;
        bool inclusive, is_signed;
        uint32_t start_block;
        if (!candidate(s, b, &k, &bound, &inclusive, &is_signed) || !counter_uses(s, &k, &start, &step, &start_block) ||
            !entered_only_from(s, &k, start_block))
            continue;
        /* the values that pass the check, all reached from `start` by steps that cannot wrap */
        uint64_t limit = is_signed ? INT32_MAX : UINT32_MAX;
        if (is_signed && (start > INT32_MAX || bound > INT32_MAX))
            continue; /* a negative start or bound */
        if (!inclusive && bound == 0)
            continue; /* the body never runs */
        uint64_t last = inclusive ? bound : bound - 1;
        if (start > last || last + step > limit)
            continue;
        k.first = start;
        k.last = start + (last - start) / step * step; /* the last value the steps reach */
        if (!grow((void **)&s->loop_counters, &s->loop_counter_capacity, s->loop_counter_count + 1,
                  sizeof(*s->loop_counters)))
            return;
        s->loop_counters[s->loop_counter_count++] = k;
    }
}

/* Whether `target` is reachable from `from` without passing `stop_a` or `stop_b`. */
static bool reaches(struct parse_state *s, uint32_t from, uint32_t target, uint32_t stop_a, uint32_t stop_b)
{
    uint32_t next[64];
    size_t depth = 0;
    ++s->walk;
    if (from == stop_a || from == stop_b || !grow((void **)&s->stack, &s->stack_capacity, depth + 1, sizeof(uint32_t)))
        return false;
    s->stack[depth++] = from;
    id(s, from)->walk_mark = s->walk;
    while (depth > 0 && spend(s)) {
        uint32_t block = s->stack[--depth];
        if (block == target)
            return true;
        uint32_t count = successors(s, block, true, next, 64);
        for (uint32_t j = 0; j < count; ++j) {
            struct id_info *n = id(s, next[j]);
            if (next[j] == stop_a || next[j] == stop_b || n->opcode != SpvOpLabel || n->walk_mark == s->walk)
                continue;
            n->walk_mark = s->walk;
            if (!grow((void **)&s->stack, &s->stack_capacity, depth + 1, sizeof(uint32_t)))
                return false;
            s->stack[depth++] = next[j];
        }
    }
    return false;
}

bool loop_counter_range(struct parse_state *s, uint32_t value, uint64_t *first, uint64_t *last)
{
    const struct body_instruction *load = defining(s, value);
    if (load == NULL || load->opcode != SpvOpLoad || load->count < 3)
        return false;
    uint32_t variable = s->words[load->at + 2];
    for (size_t i = 0; i < s->loop_counter_count; ++i) {
        const struct loop_counter *k = &s->loop_counters[i];
        if (k->variable != variable)
            continue;
        size_t at = (size_t)(load - s->body) + 1;
        if (load->block == k->continue_block && at > k->step_at)
            return false; /* after the step: may be past the last value */
        if (load->block == k->check || load->block == k->header ||
            !reaches(s, k->body, load->block, k->header, k->merge))
            return false;
        *first = k->first;
        *last = k->last;
        return true;
    }
    return false;
}
