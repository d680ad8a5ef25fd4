/* Questions about a parsed module's types and instructions (spirv_reflect_module.h). */
#include "spirv_reflect_module.h"

#include <spirv/unified1/spirv.h>

/* Bytes a value of this type takes, tightly packed (array lengths specialized). */
uint64_t type_size(struct parse_state *s, uint32_t type, int depth)
{
    struct id_info *t = id(s, type);
    if (depth > 32 || !spend(s))
        return 0;
    switch (t->opcode) {
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
    case SpvOpTypeBool:
        return t->count / 8;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
        return t->count * type_size(s, t->type, depth + 1);
    case SpvOpTypeArray:
        return id(s, t->count)->value * type_size(s, t->type, depth + 1);
    case SpvOpTypeStruct: {
        uint64_t total = 0;
        for (uint32_t i = 0; i < t->count; ++i)
            total += type_size(s, s->members[t->members_at + i], depth + 1);
        return total;
    }
    default:
        return 0;
    }
}

bool member_offset_of(struct parse_state *s, uint32_t type, uint32_t member, uint32_t *offset)
{
    for (size_t i = 0; i < s->offset_count; ++i)
        if (s->offsets[i].type == type && s->offsets[i].member == member) {
            *offset = s->offsets[i].offset;
            return true;
        }
    return false;
}
