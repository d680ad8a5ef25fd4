#include "spirv_reflect_control_flow.h"

#include <spirv/unified1/spirv.h>

#include "spirv_reflect_constants.h"

/* Which functions the entry point can reach through OpFunctionCall: a walk over the call
 * instructions grouped by caller (each caller's calls visited once). */
bool find_reachable(struct parse_state *s, bool *reachable)
{
    size_t calls = 0;
    for (size_t i = 0; i < s->body_count; ++i)
        calls += s->body[i].opcode == SpvOpFunctionCall && s->body[i].count >= 3;
    /* the calls of each function: first_call[f] .. first_call[f + 1] in `by_caller` */
    uint32_t *first_call = calloc((size_t)s->bound + 1, sizeof(uint32_t));
    uint32_t *by_caller = malloc((calls ? calls : 1) * sizeof(uint32_t));
    uint32_t *queue = malloc((size_t)s->bound * sizeof(uint32_t));
    bool ok = first_call != NULL && by_caller != NULL && queue != NULL;
    for (size_t i = 0; ok && i < s->body_count; ++i)
        if (s->body[i].opcode == SpvOpFunctionCall && s->body[i].count >= 3)
            ++first_call[s->body[i].function + 1];
    for (uint32_t f = 0; ok && f < s->bound; ++f)
        first_call[f + 1] += first_call[f];
    for (size_t i = 0; ok && i < s->body_count; ++i)
        if (s->body[i].opcode == SpvOpFunctionCall && s->body[i].count >= 3)
            by_caller[first_call[s->body[i].function]++] = s->words[s->body[i].at + 2];
    /* first_call[f] now ends f's calls: f's start is first_call[f - 1] (0 for f = 0) */
    size_t head = 0, tail = 0;
    if (ok) {
        reachable[s->entry_function] = true;
        queue[tail++] = s->entry_function;
    }
    while (head < tail) {
        uint32_t f = queue[head++];
        for (uint32_t k = f ? first_call[f - 1] : 0; k < first_call[f]; ++k) {
            uint32_t callee = by_caller[k];
            if (callee != 0 && callee < s->bound && !reachable[callee]) {
                reachable[callee] = true;
                queue[tail++] = callee;
            }
        }
    }
    free(first_call);
    free(by_caller);
    free(queue);
    return ok;
}

/* Parameters take the roots of the arguments passed to them, from every reachable call site. */
bool bind_parameters(struct parse_state *s, const bool *reachable)
{
    /* parameters follow their OpFunction directly: remember where each function's list starts */
    size_t *first_parameter = malloc((size_t)s->bound * sizeof(size_t));
    if (first_parameter == NULL)
        return false;
    for (uint32_t i = 0; i < s->bound; ++i)
        first_parameter[i] = SIZE_MAX;
    for (size_t i = 0; i < s->body_count; ++i)
        if (s->body[i].opcode == SpvOpFunctionParameter && first_parameter[s->body[i].function] == SIZE_MAX)
            first_parameter[s->body[i].function] = i;
    bool ok = true;
    for (size_t i = 0; ok && i < s->body_count; ++i) {
        const struct body_instruction *b = &s->body[i];
        if (b->opcode != SpvOpFunctionCall || !function_reachable(reachable, b->function) || b->count < 3)
            continue;
        uint32_t callee = s->words[b->at + 2];
        if (callee >= s->bound || first_parameter[callee] == SIZE_MAX)
            continue;
        for (size_t k = first_parameter[callee], index = 0;
             k < s->body_count && s->body[k].opcode == SpvOpFunctionParameter && s->body[k].count >= 2 &&
             3 + index < b->count;
             ++k, ++index) {
            uint32_t param = s->words[s->body[k].at + 1];
            struct id_info *pi = id(s, param);
            if (pi->opcode != SpvOpFunctionParameter)
                continue;
            if (!grow((void **)&s->edges, &s->edge_capacity, s->edge_count + 1, sizeof(*s->edges)) ||
                s->edge_count >= UINT32_MAX - 1) {
                ok = false;
                break;
            }
            s->edges[s->edge_count] = (struct argument_edge){s->words[b->at + 3 + index], pi->arguments};
            pi->arguments = (uint32_t)++s->edge_count;
            pi->argument_count++;
            pi->root = param;
        }
    }
    free(first_parameter);
    return ok;
}

/* --- blocks: which run, with specialization constants applied to branches ----------------------- */

static bool is_terminator(uint32_t op)
{
    return op == SpvOpBranch || op == SpvOpBranchConditional || op == SpvOpSwitch || op == SpvOpReturn ||
           op == SpvOpReturnValue || op == SpvOpKill || op == SpvOpUnreachable || op == SpvOpTerminateInvocation;
}

/* Each block's merge (from its OpSelectionMerge/OpLoopMerge) and terminator. */
void note_blocks(struct parse_state *s)
{
    for (size_t i = 0; i < s->body_count; ++i) {
        const struct body_instruction *b = &s->body[i];
        struct id_info *block = id(s, b->block);
        if ((b->opcode == SpvOpSelectionMerge || b->opcode == SpvOpLoopMerge) && b->count >= 1) {
            block->merge = s->words[b->at];
            block->loop_header = b->opcode == SpvOpLoopMerge;
        } else if (is_terminator(b->opcode) && block->terminator_at == 0) {
            block->terminator_at = (uint32_t)i + 1;
        }
    }
}

/* The successors a block's terminator can take: all of them, or the one a fixed condition or
 * selector picks. Returns how many were written to `out` (at most `capacity`). */
uint32_t successors(struct parse_state *s, uint32_t block, bool follow_fixed, uint32_t *out, uint32_t capacity)
{
    uint32_t at = id(s, block)->terminator_at;
    if (at == 0 || at > s->body_count)
        return 0;
    const struct body_instruction *t = &s->body[at - 1];
    const uint32_t *w = s->words + t->at;
    uint32_t n = 0;
    uint64_t v = 0;
    switch (t->opcode) {
    case SpvOpBranch:
        if (t->count >= 1 && capacity > 0)
            out[n++] = w[0];
        break;
    case SpvOpBranchConditional:
        if (t->count < 3)
            break;
        if (follow_fixed && fixed_value(s, w[0], &v)) {
            out[n++] = v ? w[1] : w[2];
        } else if (capacity >= 2) {
            out[n++] = w[1];
            out[n++] = w[2];
        }
        break;
    case SpvOpSwitch: {
        if (t->count < 2)
            break;
        uint32_t literal_words = id(s, id(s, w[0])->type)->count == 64 ? 2 : 1;
        bool fixed = follow_fixed && fixed_value(s, w[0], &v);
        uint32_t picked = w[1]; /* the default */
        for (uint32_t k = 2; k + literal_words < t->count; k += literal_words + 1) {
            uint64_t literal = literal_words == 2 ? ((uint64_t)w[k + 1] << 32 | w[k]) : w[k];
            uint32_t target = w[k + literal_words];
            if (fixed) {
                uint64_t mask = literal_words == 2 ? UINT64_MAX : UINT32_MAX;
                if ((v & mask) == literal)
                    picked = target;
            } else if (n < capacity) {
                out[n++] = target;
            }
        }
        if (n < capacity)
            out[n++] = picked;
        break;
    }
    default:
        break;
    }
    return n;
}

static bool push_block(struct parse_state *s, size_t *depth, uint32_t block)
{
    if (!grow((void **)&s->stack, &s->stack_capacity, *depth + 1, sizeof(uint32_t)))
        return false;
    s->stack[(*depth)++] = block;
    return true;
}

/* Marks the blocks each reachable function runs: from its first block, along the branches that
 * the module's constants (specialization applied) leave open. */
bool find_live_blocks(struct parse_state *s, const bool *reachable)
{
    uint32_t next[64];
    for (size_t i = 0; i < s->body_count; ++i) {
        const struct body_instruction *b = &s->body[i];
        if (b->opcode != SpvOpLabel || !reachable[b->function] || b->count < 1)
            continue;
        if (i > 0 && s->body[i - 1].function == b->function && s->body[i - 1].block != 0)
            continue; /* not the function's first block */
        size_t depth = 0;
        if (!push_block(s, &depth, s->words[b->at]))
            return false;
        id(s, s->words[b->at])->live_block = true;
        while (depth > 0) {
            uint32_t block = s->stack[--depth];
            if (!spend(s))
                return false;
            uint32_t count = successors(s, block, true, next, 64);
            for (uint32_t k = 0; k < count; ++k) {
                struct id_info *target = id(s, next[k]);
                if (target->opcode != SpvOpLabel || target->live_block)
                    continue;
                target->live_block = true;
                if (!push_block(s, &depth, next[k]))
                    return false;
            }
        }
    }
    return true;
}

/* Marks uncertain every block reachable from `start` before `stop` (and never `stop` itself);
 * true when one of them leaves the function. */
bool mark_region(struct parse_state *s, uint32_t start, uint32_t stop)
{
    uint32_t next[64];
    bool exits = false;
    size_t depth = 0;
    ++s->walk;
    if (start == stop || !push_block(s, &depth, start))
        return false;
    id(s, start)->walk_mark = s->walk;
    while (depth > 0 && spend(s)) {
        uint32_t block = s->stack[--depth];
        struct id_info *info = id(s, block);
        info->uncertain_block = true;
        uint32_t at = info->terminator_at;
        uint32_t op = at && at <= s->body_count ? s->body[at - 1].opcode : SpvOpUnreachable;
        exits |= op == SpvOpReturn || op == SpvOpReturnValue || op == SpvOpKill || op == SpvOpTerminateInvocation;
        uint32_t count = successors(s, block, true, next, 64);
        for (uint32_t k = 0; k < count; ++k) {
            struct id_info *target = id(s, next[k]);
            if (next[k] == stop || target->opcode != SpvOpLabel || target->walk_mark == s->walk)
                continue;
            target->walk_mark = s->walk;
            if (!push_block(s, &depth, next[k]))
                return exits;
        }
    }
    return exits;
}
