#include "spirv_reflect_constants.h"

#include <spirv/unified1/spirv.h>

#include "spirv_reflect_parse.h"

/* A body instruction that writes memory through a pointer: the pointer, and the value written
 * (0 when not one value: a copy). False for other instructions. Function variables' initializers
 * count as writes. */
static bool write_of(const struct parse_state *s, const struct body_instruction *b, uint32_t *target, uint32_t *stored)
{
    const uint32_t *w = s->words + b->at;
    *target = *stored = 0;
    if (b->opcode == SpvOpStore && b->count >= 2) {
        *target = w[0];
        *stored = w[1];
    } else if (b->opcode == SpvOpVariable && b->count >= 4) {
        *target = w[1];
        *stored = w[3];
    } else if ((b->opcode == SpvOpCopyMemory || b->opcode == SpvOpCopyMemorySized) && b->count >= 1) {
        *target = w[0];
    }
    return *target != 0;
}

/* Which constant each function variable is set to, for constant_index: every store and the
 * initializer must put the same constant there. */
void note_stored_constants(struct parse_state *s)
{
    for (size_t i = 0; i < s->body_count; ++i) {
        uint32_t target, stored;
        if (!write_of(s, &s->body[i], &target, &stored))
            continue;
        struct id_info *v = id(s, target);
        if (v == NULL || v->opcode != SpvOpVariable || v->storage_class != SpvStorageClassFunction)
            continue;
        struct id_info *c = id(s, stored);
        bool constant = stored != 0 && c->opcode == SpvOpConstant && !c->is_spec;
        if (!constant)
            v->stored_constant = UINT32_MAX;
        else if (v->stored_constant == 0)
            v->stored_constant = stored;
        else if (v->stored_constant != stored)
            v->stored_constant = UINT32_MAX;
    }
}

/* Which value each function variable holds, for the invocation-bound tracing: every store and
 * the initializer must put the same value there, through the variable itself (a store through an
 * access chain into it, or a copy, makes it unknown). After the roots are known. */
void note_stored_values(struct parse_state *s)
{
    for (size_t i = 0; i < s->body_count; ++i) {
        uint32_t target, stored;
        if (!write_of(s, &s->body[i], &target, &stored))
            continue;
        struct id_info *v = id(s, id(s, target)->root);
        if (v->opcode != SpvOpVariable || v->storage_class != SpvStorageClassFunction)
            continue;
        if (id(s, target)->opcode != SpvOpVariable || stored == 0 ||
            (v->stored_value != 0 && v->stored_value != stored) || named_by_unknown_instruction(s, target))
            v->stored_value = UINT32_MAX;
        else
            v->stored_value = stored;
    }
}

/* The constant an index has whenever it runs, or -1: a constant, a load of a function variable
 * only ever set to one constant, or a function parameter every call passes the same such value
 * (ffmpeg's helpers take the plane number as a parameter) - followed through nested calls. */
int64_t constant_index(struct parse_state *s, uint32_t value, int depth)
{
    struct id_info *c = id(s, value);
    if (depth > 8 || !spend(s))
        return -1;
    if (c->opcode == SpvOpConstant && c->has_value && !c->is_spec)
        return (int64_t)c->value;
    uint32_t from = value;
    if (c->opcode == SpvOpLoad) { /* the value of a variable or of a pointer parameter */
        struct id_info *v = id(s, c->root);
        if (v->opcode == SpvOpVariable)
            return v->storage_class == SpvStorageClassFunction && v->stored_constant != 0 &&
                           v->stored_constant != UINT32_MAX
                       ? constant_index(s, v->stored_constant, depth + 1)
                       : -1;
        from = c->root;
    }
    struct id_info *p = id(s, from);
    if (p->opcode != SpvOpFunctionParameter || p->arguments == 0)
        return -1;
    int64_t same = -2;
    for (uint32_t e = p->arguments; e != 0; e = s->edges[e - 1].next) { /* every call site's argument */
        uint32_t argument = s->edges[e - 1].argument;
        struct id_info *a = id(s, argument);
        int64_t k;
        if (from != value) /* a pointer parameter: the argument is a variable or another parameter */
            k = a->opcode == SpvOpVariable ? (a->storage_class == SpvStorageClassFunction && a->stored_constant != 0 &&
                                                      a->stored_constant != UINT32_MAX
                                                  ? constant_index(s, a->stored_constant, depth + 1)
                                                  : -1)
                : a->opcode == SpvOpFunctionParameter ? constant_index(s, argument, depth + 1)
                                                      : -1;
        else
            k = constant_index(s, argument, depth + 1);
        if (k < 0 || (same != -2 && k != same))
            return -1;
        same = k;
    }
    return same;
}
