#include "spirv_reflect_sites.h"

#include <spirv/unified1/spirv.h>

#include "spirv_reflect_accesses.h"
#include "spirv_reflect_bounds.h"
#include "spirv_reflect_constants.h"
#include "spirv_reflect_control_flow.h"
#include "spirv_reflect_cooperative.h"
#include "spirv_reflect_loops.h"

/* at most so many buffer access sites and index expression nodes per entry point: a shader with
 * more has some accesses whose place is not known (its bindings' sites are incomplete) */
#define REFLECT_MAX_SITES 4096u
#define REFLECT_MAX_EXPRS 16384u

/* The entry function's blocks that do not run in every invocation within the work bound: inside a
 * loop, or inside a selection whose condition is anything but the work bound (and everything after
 * such a selection when one of its branches leaves the function). */
static void find_uncertain_blocks(struct parse_state *s, const struct reflect_result *out)
{
    uint32_t next[64];
    for (size_t i = 0; i < s->body_count && !s->gave_up; ++i) {
        const struct body_instruction *b = &s->body[i];
        if (b->opcode != SpvOpLabel || b->function != s->entry_function || b->count < 1)
            continue;
        uint32_t header = s->words[b->at];
        struct id_info *h = id(s, header);
        if (!h->live_block || h->merge == 0)
            continue;
        uint32_t count = successors(s, header, true, next, 64);
        if (h->loop_header) {
            h->uncertain_block = true;
            for (uint32_t k = 0; k < count; ++k)
                mark_region(s, next[k], h->merge);
            continue;
        }
        if (count < 2)
            continue; /* a fixed branch: no condition */
        bool inside_when_true = false, bound_check = false;
        const struct body_instruction *t = &s->body[h->terminator_at - 1];
        if (t->opcode == SpvOpBranchConditional && t->count >= 3)
            bound_check = is_work_bound_check(s, out, s->words[t->at], &inside_when_true);
        bool exits = false;
        for (uint32_t k = 0; k < count; ++k) {
            if (bound_check && next[k] == s->words[t->at + (inside_when_true ? 1 : 2)])
                continue; /* the work bound's inside: the witness keeps to it */
            bool leaves = mark_region(s, next[k], h->merge);
            exits |= leaves && !bound_check;
        }
        if (exits) /* some invocations left early: what follows is not for all of them */
            mark_region(s, h->merge, 0);
    }
}

static uint32_t expr_node(struct parse_state *s, struct reflect_expr node)
{
    if (s->expr_count >= REFLECT_MAX_EXPRS ||
        !grow((void **)&s->exprs, &s->expr_capacity, s->expr_count + 1, sizeof(*s->exprs)))
        return REFLECT_NO_INDEX;
    s->exprs[s->expr_count] = node;
    return (uint32_t)s->expr_count++;
}

static uint32_t expr_of(struct parse_state *s, uint32_t value, int depth);

static uint32_t expr_binary(struct parse_state *s, uint8_t op, uint32_t width, const uint32_t *w, int depth)
{
    uint32_t a = expr_of(s, w[2], depth + 1), b = expr_of(s, w[3], depth + 1);
    if (a == REFLECT_NO_INDEX || b == REFLECT_NO_INDEX)
        return REFLECT_NO_INDEX;
    return expr_node(s, (struct reflect_expr){op, (uint8_t)width, a, b, 0});
}

/* The expression a value is, made once per value (shared by every index that uses it);
 * REFLECT_NO_INDEX when it cannot be written down (no memory, or the module's walks ran out). */
static uint32_t expr_of(struct parse_state *s, uint32_t value, int depth)
{
    struct id_info *v = id(s, value);
    if (v->expr_memo != 0)
        return v->expr_memo - 1;
    if (depth > 24 || !spend(s))
        return REFLECT_NO_INDEX;
    uint32_t width = id(s, v->type)->opcode == SpvOpTypeInt && id(s, v->type)->count == 64 ? 64 : 32;
    struct reflect_expr unknown = {REFLECT_EXPR_UNKNOWN, (uint8_t)width, 0, 0, 0};
    uint32_t node = REFLECT_NO_INDEX;
    uint32_t op, n, offset;
    uint64_t first, last;
    bool is_signed;
    const uint32_t *w = definition(s, value, &op, &n);
    struct invocation_component c;
    if (v->has_value && id(s, v->type)->opcode == SpvOpTypeInt) {
        node = expr_node(s, (struct reflect_expr){REFLECT_EXPR_CONSTANT, (uint8_t)width, 0, 0, v->value});
    } else if (w == NULL) {
        node = expr_node(s, unknown);
    } else if (push_constant_value(s, value, &offset, &is_signed, 0)) {
        node = expr_node(s, (struct reflect_expr){REFLECT_EXPR_PUSH, 32, is_signed, 0, offset});
    } else if ((c = scalar_component(s, value, 0)).kind >= 0 && c.dim <= 2) {
        uint8_t kind = c.kind == REFLECT_BOUND_GLOBAL_INVOCATION ? REFLECT_EXPR_GLOBAL_ID
                       : c.kind == REFLECT_BOUND_WORKGROUP       ? REFLECT_EXPR_WORKGROUP_ID
                                                                 : REFLECT_EXPR_LOCAL_ID;
        node = expr_node(s, (struct reflect_expr){kind, 32, 0, 0, c.dim});
    } else if (op == SpvOpLoad && n >= 3 && id(s, w[2])->opcode == SpvOpVariable &&
               id(s, w[2])->builtin == SpvBuiltInLocalInvocationIndex + 1) {
        node = expr_node(s, (struct reflect_expr){REFLECT_EXPR_LOCAL_INDEX, 32, 0, 0, 0});
    } else if (op == SpvOpLoad && n >= 3 && id(s, w[2])->opcode == SpvOpVariable &&
               (id(s, w[2])->builtin == SpvBuiltInSubgroupId + 1 ||
                id(s, w[2])->builtin == SpvBuiltInSubgroupLocalInvocationId + 1)) {
        uint8_t kind = id(s, w[2])->builtin == SpvBuiltInSubgroupId + 1 ? REFLECT_EXPR_SUBGROUP_ID
                                                                        : REFLECT_EXPR_SUBGROUP_LOCAL_ID;
        node = expr_node(s, (struct reflect_expr){kind, 32, 0, 0, 0});
    } else if (op == SpvOpLoad && width == 32 && loop_counter_range(s, value, &first, &last)) {
        node = expr_node(s, (struct reflect_expr){REFLECT_EXPR_RANGE, 32, (uint32_t)first, (uint32_t)last, 0});
    } else if (op == SpvOpLoad && n >= 3 && id(s, w[2])->opcode == SpvOpVariable &&
               id(s, w[2])->storage_class == SpvStorageClassFunction && id(s, w[2])->stored_value != 0 &&
               id(s, w[2])->stored_value != UINT32_MAX) {
        node = expr_of(s, id(s, w[2])->stored_value, depth + 1);
    } else if ((op == SpvOpBitcast || op == SpvOpCopyObject || op == SpvOpUConvert || op == SpvOpSConvert) && n >= 3) {
        node = expr_of(s, w[2], depth + 1);
        if (node != REFLECT_NO_INDEX && s->exprs[node].width != width) /* a different width: wrap there */
            node = expr_node(
                s, (struct reflect_expr){REFLECT_EXPR_ADD, (uint8_t)width, node,
                                         expr_node(s, (struct reflect_expr){REFLECT_EXPR_CONSTANT, 64, 0, 0, 0}), 0});
    } else if (n == 4) {
        static const struct {
            uint32_t spirv;
            uint8_t op;
        } binary[] = {{SpvOpIAdd, REFLECT_EXPR_ADD},
                      {SpvOpISub, REFLECT_EXPR_SUB},
                      {SpvOpIMul, REFLECT_EXPR_MUL},
                      {SpvOpUDiv, REFLECT_EXPR_UDIV},
                      {SpvOpUMod, REFLECT_EXPR_UMOD},
                      {SpvOpShiftLeftLogical, REFLECT_EXPR_SHL},
                      {SpvOpShiftRightLogical, REFLECT_EXPR_SHR},
                      {SpvOpBitwiseAnd, REFLECT_EXPR_AND},
                      {SpvOpBitwiseOr, REFLECT_EXPR_OR},
                      {SpvOpBitwiseXor, REFLECT_EXPR_XOR}};
        for (size_t k = 0; k < sizeof(binary) / sizeof(binary[0]); ++k)
            if (binary[k].spirv == op)
                node = expr_binary(s, binary[k].op, width, w, depth);
        if (node == REFLECT_NO_INDEX)
            node = expr_node(s, unknown);
    } else {
        node = expr_node(s, unknown);
    }
    if (node != REFLECT_NO_INDEX)
        v->expr_memo = node + 1;
    return node;
}

/* Where an access through `pointer` lands in its binding: the variable, and in *site the constant
 * offset, the one index with its stride, and the element of a descriptor array. False when the
 * place is not known (a second run-time index, a matrix column, a pointer through a parameter). */
static bool site_of(struct parse_state *s, uint32_t pointer, uint32_t *variable, struct reflect_site *site,
                    uint32_t *type, int depth)
{
    struct id_info *p = id(s, pointer);
    if (depth > 8)
        return false;
    if (p->opcode == SpvOpVariable) {
        *variable = pointer;
        *site = (struct reflect_site){.index = REFLECT_NO_INDEX, .element = -2};
        *type = id(s, p->type)->type;
        if (is_descriptor_array(s, pointer))
            *type = 0; /* the element must be chosen first */
        return p->has_binding;
    }
    uint32_t op, n;
    const uint32_t *w = definition(s, pointer, &op, &n);
    if (w == NULL || (op != SpvOpAccessChain && op != SpvOpInBoundsAccessChain) || n < 3 ||
        !site_of(s, w[2], variable, site, type, depth + 1))
        return false;
    for (uint32_t k = 3; k < n; ++k) {
        uint32_t index = w[k], constant = 0;
        bool fixed = constant_operand(s, index, &constant);
        if (*type == 0) { /* a descriptor array's element */
            struct id_info *array = id(s, id(s, id(s, *variable)->type)->type);
            site->element = fixed ? (int32_t)(constant < INT32_MAX ? constant : INT32_MAX) : -1;
            *type = array->type;
            continue;
        }
        struct id_info *t = id(s, *type);
        uint32_t member_offset;
        switch (t->opcode) {
        case SpvOpTypeStruct:
            if (!fixed || constant >= t->count || !member_offset_of(s, *type, constant, &member_offset))
                return false;
            site->offset += member_offset;
            *type = s->members[t->members_at + constant];
            break;
        case SpvOpTypeArray:
        case SpvOpTypeRuntimeArray:
            if (t->array_stride == 0)
                return false;
            if (fixed) {
                site->offset += (uint64_t)constant * t->array_stride;
            } else {
                if (site->index != REFLECT_NO_INDEX)
                    return false; /* two run-time indices: not followed */
                site->index = expr_of(s, index, 0);
                site->stride = t->array_stride;
                if (site->index == REFLECT_NO_INDEX)
                    return false;
            }
            *type = t->type;
            break;
        case SpvOpTypeVector:
            if (!fixed)
                return false;
            site->offset += (uint64_t)constant * (id(s, t->type)->count / 8);
            *type = t->type;
            break;
        default:
            return false;
        }
    }
    return true;
}

/* The span of a cooperative matrix access at `site` (elements of its stride): (major - 1) *
 * stride + (minor - 1). False when it cannot be written down (then the access's place is not
 * known). */
static bool cooperative_span(struct parse_state *s, const struct body_instruction *b, struct reflect_site *site,
                             uint32_t type)
{
    struct cooperative_extent extent;
    uint32_t stride;
    if (site->index == REFLECT_NO_INDEX || !cooperative_matrix_extent(s, b, type_size(s, type, 0), &extent) ||
        (stride = expr_of(s, extent.stride, 0)) == REFLECT_NO_INDEX)
        return false;
    uint32_t major = expr_node(s, (struct reflect_expr){REFLECT_EXPR_CONSTANT, 64, 0, 0, extent.major - 1});
    uint32_t minor = expr_node(s, (struct reflect_expr){REFLECT_EXPR_CONSTANT, 64, 0, 0, extent.minor - 1});
    if (major == REFLECT_NO_INDEX || minor == REFLECT_NO_INDEX)
        return false;
    uint32_t rows = expr_node(s, (struct reflect_expr){REFLECT_EXPR_MUL, 64, major, stride, 0});
    if (rows == REFLECT_NO_INDEX)
        return false;
    site->span = expr_node(s, (struct reflect_expr){REFLECT_EXPR_ADD, 64, rows, minor, 0});
    site->has_span = site->span != REFLECT_NO_INDEX;
    site->certain = false; /* the subgroup's access: no one invocation's */
    return site->has_span;
}

static void note_site(struct parse_state *s, const struct body_instruction *b, uint32_t pointer, bool write)
{
    uint32_t root = id(s, pointer)->root;
    struct id_info *v = id(s, root);
    if (v->opcode != SpvOpVariable || !v->has_binding)
        return;
    uint32_t variable = 0, type = 0;
    struct reflect_site site;
    if (b->function != s->entry_function || !site_of(s, pointer, &variable, &site, &type, 0) || variable != root ||
        type == 0) {
        v->sites_incomplete = true;
        return;
    }
    uint64_t width = type_size(s, type, 0);
    site.width = width > 0 && width < UINT32_MAX ? (uint32_t)width : 0;
    site.write = write;
    site.certain = b->block != 0 && !id(s, b->block)->uncertain_block;
    bool cooperative = cooperative_matrix_memory_access(b->opcode);
    if (site.width == 0 || (cooperative && !cooperative_span(s, b, &site, type)) ||
        s->site_count >= REFLECT_MAX_SITES ||
        !grow((void **)&s->sites, &s->site_capacity, s->site_count + 1, sizeof(*s->sites))) {
        v->sites_incomplete = true;
        return;
    }
    s->sites[s->site_count++] = (struct variable_site){root, site};
}

/* Every live access of a buffer binding in the entry point, as a site. */
void find_sites(struct parse_state *s, const bool *reachable, const struct reflect_result *out)
{
    find_uncertain_blocks(s, out);
    for (size_t i = 0; i < s->body_count && !s->gave_up; ++i) {
        const struct body_instruction *b = &s->body[i];
        const uint32_t *w = s->words + b->at;
        uint32_t pointer;
        bool write;
        if (!function_reachable(reachable, b->function) || !instruction_live(s, b))
            continue;
        switch (b->opcode) {
        case SpvOpLoad:
            if (b->count >= 3)
                note_site(s, b, w[2], false);
            break;
        case SpvOpStore:
            if (b->count >= 2)
                note_site(s, b, w[0], true);
            break;
        case SpvOpAtomicLoad:
            if (b->count >= 3)
                note_site(s, b, w[2], false);
            break;
        case SpvOpAtomicStore:
            if (b->count >= 1)
                note_site(s, b, w[0], true);
            break;
        case SpvOpCopyMemory:
        case SpvOpCopyMemorySized:
            if (b->count >= 2) {
                id(s, id(s, w[0])->root)->sites_incomplete = true;
                id(s, id(s, w[1])->root)->sites_incomplete = true;
            }
            break;
        default:
            if (cooperative_matrix_access(b->opcode, w, b->count, &pointer, &write))
                note_site(s, b, pointer, write);
            else if (b->opcode >= SpvOpAtomicExchange && b->opcode <= SpvOpAtomicXor && b->count >= 3)
                note_site(s, b, w[2], true);
            else if ((b->opcode == SpvOpAtomicFAddEXT || b->opcode == SpvOpAtomicFMinEXT ||
                      b->opcode == SpvOpAtomicFMaxEXT) &&
                     b->count >= 3)
                note_site(s, b, w[2], true);
            break;
        }
    }
}
