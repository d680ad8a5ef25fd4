#include "spirv_reflect_cooperative.h"

#include <spirv/unified1/spirv.h>

bool cooperative_matrix_access(uint32_t opcode, const uint32_t *w, uint32_t n, uint32_t *pointer, bool *write)
{
    switch (opcode) {
    case SPIRV_OP_COOPERATIVE_MATRIX_LOAD_KHR:
    case SpvOpCooperativeMatrixLoadNV:
        if (n < 3)
            return false;
        *pointer = w[2];
        *write = false;
        return true;
    case SPIRV_OP_COOPERATIVE_MATRIX_STORE_KHR:
    case SpvOpCooperativeMatrixStoreNV:
        if (n < 2)
            return false;
        *pointer = w[0];
        *write = true;
        return true;
    default:
        return false;
    }
}

/* The module word where matrix type `type` is declared (an instruction of `opcode` with at least
 * `words` words), or 0. KHR types are among the instructions SPIRV-Tools did not know; NV ones
 * are found by a walk over the module (the last one found is kept: a shader uses a few). */
static uint32_t type_declaration(struct parse_state *s, uint32_t type, uint32_t opcode, uint32_t words)
{
    if (s->original == NULL || type == 0)
        return 0;
    if (opcode == SPIRV_OP_TYPE_COOPERATIVE_MATRIX_KHR) {
        for (uint32_t i = 0; s->unknown != NULL && i < *s->unknown_count; ++i) {
            const struct unknown_instruction *u = &s->unknown[i];
            if (u->count >= words && (s->original[u->at] & 0xFFFFu) == opcode && s->original[u->at + 1] == type)
                return u->at;
        }
        return 0;
    }
    if (s->cooperative_type == type)
        return s->cooperative_type_at;
    for (size_t at = 5; at < s->module_words;) {
        uint32_t count = s->original[at] >> 16;
        if (count == 0 || count > s->module_words - at)
            return 0;
        if ((s->original[at] & 0xFFFFu) == opcode && count >= words && s->original[at + 1] == type) {
            s->cooperative_type = type;
            s->cooperative_type_at = (uint32_t)at;
            return (uint32_t)at;
        }
        if ((s->original[at] & 0xFFFFu) == SpvOpFunction)
            return 0; /* types come before the functions */
        at += count;
    }
    return 0;
}

/* A constant of the module (specialization applied). */
static bool constant_value(struct parse_state *s, uint32_t value, uint64_t *out)
{
    struct id_info *c = id(s, value);
    if (!c->has_value)
        return false;
    *out = c->value;
    return true;
}

bool cooperative_matrix_extent(struct parse_state *s, const struct body_instruction *b, uint64_t element_bytes,
                               struct cooperative_extent *out)
{
    const uint32_t *w = s->words + b->at;
    uint32_t n = b->count, matrix_type, type_opcode = SPIRV_OP_TYPE_COOPERATIVE_MATRIX_KHR, stride = 0;
    uint64_t layout = 0;
    bool column_major;
    switch (b->opcode) {
    case SPIRV_OP_COOPERATIVE_MATRIX_LOAD_KHR: /* type, result, pointer, layout, stride */
        if (n < 5 || !constant_value(s, w[3], &layout))
            return false;
        matrix_type = w[0], stride = w[4];
        break;
    case SPIRV_OP_COOPERATIVE_MATRIX_STORE_KHR: /* pointer, object, layout, stride */
        if (n < 4 || !constant_value(s, w[2], &layout))
            return false;
        matrix_type = id(s, w[1])->type, stride = w[3];
        break;
    case SpvOpCooperativeMatrixLoadNV: /* type, result, pointer, stride, column major */
        if (n < 5 || !constant_value(s, w[4], &layout))
            return false;
        matrix_type = w[0], stride = w[3], type_opcode = SpvOpTypeCooperativeMatrixNV;
        break;
    case SpvOpCooperativeMatrixStoreNV: /* pointer, object, stride, column major */
        if (n < 4 || !constant_value(s, w[3], &layout))
            return false;
        matrix_type = id(s, w[1])->type, stride = w[2], type_opcode = SpvOpTypeCooperativeMatrixNV;
        break;
    default:
        return false;
    }
    /* KHR: RowMajorKHR 0, ColumnMajorKHR 1 (other layouts are not plain strides); NV: a boolean */
    if (type_opcode == SPIRV_OP_TYPE_COOPERATIVE_MATRIX_KHR && layout > 1)
        return false;
    column_major = layout != 0;
    /* the type: result, component type, scope, rows, columns (and the KHR use) */
    uint32_t at = type_declaration(s, matrix_type, type_opcode, type_opcode == SpvOpTypeCooperativeMatrixNV ? 6 : 7);
    uint64_t rows, columns;
    if (at == 0 || !constant_value(s, s->original[at + 4], &rows) ||
        !constant_value(s, s->original[at + 5], &columns) || rows == 0 || columns == 0 || rows > UINT32_MAX ||
        columns > UINT32_MAX)
        return false;
    struct id_info *component = id(s, s->original[at + 2]);
    if ((component->opcode != SpvOpTypeFloat && component->opcode != SpvOpTypeInt) || component->count % 8 != 0 ||
        component->count / 8 != element_bytes)
        return false;
    out->major = column_major ? columns : rows;
    out->minor = column_major ? rows : columns;
    out->stride = stride;
    return true;
}
