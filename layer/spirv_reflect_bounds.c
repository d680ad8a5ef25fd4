#include "spirv_reflect_bounds.h"

#include <spirv/unified1/spirv.h>

#include "spirv_reflect_constants.h"
#include "spirv_reflect_control_flow.h"

static int invocation_kind(struct parse_state *s, uint32_t variable)
{
    struct id_info *v = id(s, variable);
    if (v->opcode != SpvOpVariable || v->storage_class != SpvStorageClassInput)
        return -1;
    if (v->builtin == SpvBuiltInGlobalInvocationId + 1)
        return REFLECT_BOUND_GLOBAL_INVOCATION;
    if (v->builtin == SpvBuiltInWorkgroupId + 1)
        return REFLECT_BOUND_WORKGROUP;
    if (v->builtin == SpvBuiltInLocalInvocationId + 1)
        return INVOCATION_LOCAL; /* not a work bound's, but an index's */
    return -1;
}

static struct invocation_component vector_component(struct parse_state *s, uint32_t value, uint32_t k, int depth);

struct invocation_component scalar_component(struct parse_state *s, uint32_t value, int depth)
{
    struct invocation_component none = {-1, 0};
    uint32_t op, n;
    const uint32_t *w = depth < 12 ? definition(s, value, &op, &n) : NULL;
    if (w == NULL)
        return none;
    switch (op) {
    case SpvOpBitcast:
    case SpvOpCopyObject:
    case SpvOpUConvert:
    case SpvOpSConvert:
        return n >= 3 ? scalar_component(s, w[2], depth + 1) : none;
    case SpvOpCompositeExtract:
        return n == 4 ? vector_component(s, w[2], w[3], depth + 1) : none;
    case SpvOpLoad: {
        if (n < 3)
            return none;
        uint32_t pointer = w[2], pop, pn;
        struct id_info *p = id(s, pointer);
        if (p->opcode == SpvOpVariable) { /* a function variable stored once */
            return p->storage_class == SpvStorageClassFunction && p->stored_value != 0 && p->stored_value != UINT32_MAX
                       ? scalar_component(s, p->stored_value, depth + 1)
                       : none;
        }
        const uint32_t *chain = definition(s, pointer, &pop, &pn);
        uint32_t k;
        if (chain == NULL || (pop != SpvOpAccessChain && pop != SpvOpInBoundsAccessChain) || pn != 4 ||
            !constant_operand(s, chain[3], &k))
            return none;
        struct id_info *base = id(s, chain[2]);
        int kind = invocation_kind(s, chain[2]);
        if (kind >= 0)
            return (struct invocation_component){kind, k};
        if (base->opcode == SpvOpVariable && base->storage_class == SpvStorageClassFunction &&
            base->stored_value != 0 && base->stored_value != UINT32_MAX)
            return vector_component(s, base->stored_value, k, depth + 1);
        return none;
    }
    default:
        return none;
    }
}

static struct invocation_component vector_component(struct parse_state *s, uint32_t value, uint32_t k, int depth)
{
    struct invocation_component none = {-1, 0};
    uint32_t op, n;
    const uint32_t *w = depth < 12 ? definition(s, value, &op, &n) : NULL;
    if (w == NULL)
        return none;
    switch (op) {
    case SpvOpBitcast:
    case SpvOpCopyObject:
    case SpvOpUConvert:
    case SpvOpSConvert:
        return n >= 3 ? vector_component(s, w[2], k, depth + 1) : none;
    case SpvOpVectorShuffle: {
        if (n < 5 || k > n - 5) /* the component's selector is operand 4 + k */
            return none;
        uint32_t pick = w[4 + k];
        uint32_t first_size = id(s, id(s, w[2])->type)->count;
        if (pick == 0xFFFFFFFFu)
            return none;
        return pick < first_size ? vector_component(s, w[2], pick, depth + 1)
                                 : vector_component(s, w[3], pick - first_size, depth + 1);
    }
    case SpvOpLoad: {
        if (n < 3)
            return none;
        int kind = invocation_kind(s, w[2]);
        if (kind >= 0)
            return (struct invocation_component){kind, k};
        struct id_info *p = id(s, w[2]);
        if (p->opcode == SpvOpVariable && p->storage_class == SpvStorageClassFunction && p->stored_value != 0 &&
            p->stored_value != UINT32_MAX)
            return vector_component(s, p->stored_value, k, depth + 1);
        return none;
    }
    default:
        return none;
    }
}

/* The byte offset in the push constant block of the element that constant indices reach from
 * `type`; its type in *leaf. */
static bool walk_offset(struct parse_state *s, uint32_t type, const uint32_t *indices, uint32_t count, bool ids,
                        uint32_t *offset, uint32_t *leaf)
{
    uint32_t at = 0;
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t k = indices[i];
        if (ids && !constant_operand(s, indices[i], &k))
            return false;
        struct id_info *t = id(s, type);
        uint32_t step;
        switch (t->opcode) {
        case SpvOpTypeStruct:
            if (k >= t->count || !member_offset_of(s, type, k, &step))
                return false;
            at += step;
            type = s->members[t->members_at + k];
            break;
        case SpvOpTypeArray:
            if (t->array_stride == 0)
                return false;
            at += k * t->array_stride;
            type = t->type;
            break;
        case SpvOpTypeVector:
            at += k * (id(s, t->type)->count / 8);
            type = t->type;
            break;
        default:
            return false;
        }
    }
    *offset = at;
    *leaf = type;
    return true;
}

/* A value that is a 32-bit integer of the push constant block: its offset and signedness. */
bool push_constant_value(struct parse_state *s, uint32_t value, uint32_t *offset, bool *is_signed, int depth)
{
    uint32_t op, n, leaf = 0;
    const uint32_t *w = depth < 8 ? definition(s, value, &op, &n) : NULL;
    if (w == NULL)
        return false;
    switch (op) {
    case SpvOpCopyObject:
        return n >= 3 && push_constant_value(s, w[2], offset, is_signed, depth + 1);
    case SpvOpBitcast: {
        struct id_info *t = id(s, w[0]);
        if (n < 3 || t->opcode != SpvOpTypeInt || t->count != 32 ||
            !push_constant_value(s, w[2], offset, is_signed, depth + 1))
            return false;
        *is_signed = t->is_signed; /* read as the type the comparison sees */
        return true;
    }
    case SpvOpLoad: {
        uint32_t pop, pn;
        const uint32_t *chain = n >= 3 ? definition(s, w[2], &pop, &pn) : NULL;
        if (chain == NULL || (pop != SpvOpAccessChain && pop != SpvOpInBoundsAccessChain) || pn < 4)
            return false;
        struct id_info *v = id(s, chain[2]);
        if (v->opcode != SpvOpVariable || v->storage_class != SpvStorageClassPushConstant ||
            !walk_offset(s, id(s, v->type)->type, chain + 3, pn - 3, true, offset, &leaf))
            return false;
        break;
    }
    case SpvOpCompositeExtract: {
        uint32_t lop, ln;
        const uint32_t *load = n >= 4 ? definition(s, w[2], &lop, &ln) : NULL;
        struct id_info *v = load && lop == SpvOpLoad && ln >= 3 ? id(s, load[2]) : NULL;
        if (v == NULL || v->opcode != SpvOpVariable || v->storage_class != SpvStorageClassPushConstant ||
            !walk_offset(s, id(s, v->type)->type, w + 3, n - 3, false, offset, &leaf))
            return false;
        break;
    }
    default:
        return false;
    }
    struct id_info *t = id(s, leaf);
    if (t->opcode != SpvOpTypeInt || t->count != 32)
        return false;
    *is_signed = t->is_signed;
    return true;
}

/* Comparisons of an invocation's ID (or workgroup ID) in one dimension with a push constant:
 * the bound below which the shader does its work. A dimension with two different bounds has none
 * (no guessing which one limits the work). */
void find_invocation_bounds(struct parse_state *s, const bool *reachable, struct reflect_result *out)
{
    bool conflict[3] = {false, false, false};
    for (size_t i = 0; i < s->body_count; ++i) {
        const struct body_instruction *b = &s->body[i];
        if (!function_reachable(reachable, b->function) || b->count != 4)
            continue;
        /* lhs < rhs: `below` when the work happens for lhs below rhs; `inclusive` when up to rhs */
        bool less, inclusive, is_signed_op;
        switch (b->opcode) {
        case SpvOpULessThan:
            less = true, inclusive = false, is_signed_op = false;
            break;
        case SpvOpSLessThan:
            less = true, inclusive = false, is_signed_op = true;
            break;
        case SpvOpULessThanEqual:
            less = true, inclusive = true, is_signed_op = false;
            break;
        case SpvOpSLessThanEqual:
            less = true, inclusive = true, is_signed_op = true;
            break;
        case SpvOpUGreaterThan:
            less = false, inclusive = false, is_signed_op = false;
            break;
        case SpvOpSGreaterThan:
            less = false, inclusive = false, is_signed_op = true;
            break;
        case SpvOpUGreaterThanEqual:
            less = false, inclusive = true, is_signed_op = false;
            break;
        case SpvOpSGreaterThanEqual:
            less = false, inclusive = true, is_signed_op = true;
            break;
        default:
            continue;
        }
        const uint32_t *w = s->words + b->at;
        if (id(s, id(s, w[2])->type)->opcode != SpvOpTypeInt)
            continue; /* a vector comparison: not traced */
        uint32_t offset;
        bool pc_signed;
        struct invocation_component c = scalar_component(s, w[2], 0);
        bool invocation_left = c.kind >= 0;
        if (invocation_left ? !push_constant_value(s, w[3], &offset, &pc_signed, 0)
                            : ((c = scalar_component(s, w[3], 0)).kind < 0 ||
                               !push_constant_value(s, w[2], &offset, &pc_signed, 0)))
            continue;
        if (c.dim > 2 || c.kind == INVOCATION_LOCAL)
            continue;
        /* with the invocation on the left: x < N and x >= N bound the work at N, x <= N and x > N at
         * N + 1; mirrored with it on the right (N > x as x < N) */
        bool strict_upper = invocation_left ? (less && !inclusive) || (!less && inclusive)
                                            : (!less && !inclusive) || (less && inclusive);
        struct reflect_bound bound = {.kind = (uint8_t)c.kind,
                                      .offset = offset,
                                      .is_signed = is_signed_op || pc_signed,
                                      .plus_one = !strict_upper};
        struct reflect_bound *have = &out->bounds[c.dim];
        if (!have->present) {
            *have = bound;
            have->present = true;
        } else if (have->kind != bound.kind || have->offset != bound.offset || have->plus_one != bound.plus_one ||
                   have->is_signed != bound.is_signed) {
            conflict[c.dim] = true;
        }
    }
    for (int d = 0; d < 3; ++d) {
        if (conflict[d])
            out->bounds[d].present = false;
        out->has_bounds |= out->bounds[d].present;
    }
}

/* Whether `condition` compares an invocation ID with a push constant in the way the work bound
 * `bounds` recorded; then *inside_when_true says which branch keeps the invocations inside it. */
bool is_work_bound_check(struct parse_state *s, const struct reflect_result *out, uint32_t condition,
                         bool *inside_when_true)
{
    uint32_t op, n, offset;
    const uint32_t *w = definition(s, condition, &op, &n);
    if (w == NULL || n != 4)
        return false;
    bool less;
    switch (op) {
    case SpvOpULessThan:
    case SpvOpSLessThan:
    case SpvOpULessThanEqual:
    case SpvOpSLessThanEqual:
        less = true;
        break;
    case SpvOpUGreaterThan:
    case SpvOpSGreaterThan:
    case SpvOpUGreaterThanEqual:
    case SpvOpSGreaterThanEqual:
        less = false;
        break;
    default:
        return false;
    }
    bool is_signed;
    struct invocation_component c = scalar_component(s, w[2], 0);
    bool left = c.kind >= 0;
    if (!left)
        c = scalar_component(s, w[3], 0);
    if (c.kind < 0 || c.kind == INVOCATION_LOCAL || c.dim > 2 ||
        !push_constant_value(s, left ? w[3] : w[2], &offset, &is_signed, 0))
        return false;
    const struct reflect_bound *bound = &out->bounds[c.dim];
    if (!bound->present || bound->offset != offset || bound->kind != c.kind)
        return false;
    *inside_when_true = left ? less : !less;
    return true;
}
