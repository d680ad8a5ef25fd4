#include "spirv_reflect.h"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
};

struct variable_site {
    uint32_t variable;
    struct reflect_site site;
};

static void give_up(struct parse_state *s, size_t at, const char *why)
{
    if (s->gave_up)
        return;
    s->gave_up = true;
    s->gave_up_at = (uint32_t)at;
    snprintf(s->why, sizeof(s->why), "%s", why);
}

/* One step of a walk; false (and the reflection given up) once the module has used them all. */
static bool spend(struct parse_state *s)
{
    if (s->fuel == 0) {
        give_up(s, 0, "its types or call graph branch further than the reflection follows");
        return false;
    }
    --s->fuel;
    return true;
}

static bool grow(void **data, size_t *capacity, size_t needed, size_t element)
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

static struct id_info *id(struct parse_state *s, uint32_t i)
{
    if (i == 0 || i >= s->bound) {
        memset(&s->none, 0, sizeof(s->none));
        return &s->none;
    }
    return &s->ids[i];
}

static uint64_t spec_override(const struct parse_state *s, uint32_t spec_id, uint64_t fallback)
{
    for (size_t i = 0; i < s->spec_count; ++i)
        if (s->spec[i].constant_id == spec_id)
            return s->spec[i].value;
    return fallback;
}

/* Whether every operand is a value the module fixes (a constant, specialization applied). */
static bool operands_known(struct parse_state *s, const uint32_t *operands, uint32_t count)
{
    for (uint32_t i = 0; i < count && i < 3; ++i)
        if (!id(s, operands[i])->has_value)
            return false;
    return count > 0;
}

/* OpSpecConstantOp over integers: the operations array lengths and local sizes are built from. */
static bool evaluate_spec_op(struct parse_state *s, uint32_t op, const uint32_t *operands, uint32_t count,
                             uint64_t *out)
{
    uint64_t a = count > 0 ? id(s, operands[0])->value : 0, b = count > 1 ? id(s, operands[1])->value : 0;
    switch (op) {
    case SpvOpIAdd:
        *out = a + b;
        return true;
    case SpvOpISub:
        *out = a - b;
        return true;
    case SpvOpIMul:
        *out = a * b;
        return true;
    case SpvOpUDiv:
    case SpvOpSDiv:
        *out = b ? a / b : 0;
        return b != 0;
    case SpvOpUMod:
    case SpvOpSRem:
    case SpvOpSMod:
        *out = b ? a % b : 0;
        return b != 0;
    case SpvOpShiftLeftLogical:
        *out = a << (b & 63);
        return true;
    case SpvOpShiftRightLogical:
    case SpvOpShiftRightArithmetic:
        *out = a >> (b & 63);
        return true;
    case SpvOpBitwiseAnd:
        *out = a & b;
        return true;
    case SpvOpBitwiseOr:
        *out = a | b;
        return true;
    case SpvOpBitwiseXor:
        *out = a ^ b;
        return true;
    case SpvOpUConvert:
    case SpvOpSConvert:
        *out = a;
        return true;
    case SpvOpSelect:
        *out = a ? b : (count > 2 ? id(s, operands[2])->value : 0);
        return true;
    /* comparisons and logic: what specialization-driven branches test */
    case SpvOpIEqual:
    case SpvOpLogicalEqual:
        *out = a == b;
        return true;
    case SpvOpINotEqual:
    case SpvOpLogicalNotEqual:
        *out = a != b;
        return true;
    case SpvOpULessThan:
        *out = a < b;
        return true;
    case SpvOpULessThanEqual:
        *out = a <= b;
        return true;
    case SpvOpUGreaterThan:
        *out = a > b;
        return true;
    case SpvOpUGreaterThanEqual:
        *out = a >= b;
        return true;
    case SpvOpSLessThan:
        *out = (int64_t)a < (int64_t)b;
        return true;
    case SpvOpSGreaterThan:
        *out = (int64_t)a > (int64_t)b;
        return true;
    case SpvOpLogicalAnd:
        *out = a && b;
        return true;
    case SpvOpLogicalOr:
        *out = a || b;
        return true;
    case SpvOpLogicalNot:
        *out = !a;
        return true;
    default:
        return false;
    }
}

static void decorate(struct parse_state *s, const uint32_t *w, uint32_t n, bool member)
{
    if (n < 2)
        return;
    struct id_info *t = id(s, w[0]);
    uint32_t decoration = member ? (n > 2 ? w[2] : 0) : w[1];
    const uint32_t *args = member ? w + 3 : w + 2;
    uint32_t argc = member ? (n > 3 ? n - 3 : 0) : n - 2;
    if (member) {
        if (decoration == SpvDecorationOffset && n > 3 &&
            grow((void **)&s->offsets, &s->offset_capacity, s->offset_count + 1, sizeof(*s->offsets)))
            s->offsets[s->offset_count++] = (struct member_offset){w[0], w[1], w[3]};
        if (decoration == SpvDecorationNonWritable)
            t->member_non_writable++;
        if (decoration == SpvDecorationNonReadable)
            t->member_non_readable++;
        t->member_count_decorated = w[1] + 1 > t->member_count_decorated ? w[1] + 1 : t->member_count_decorated;
        return;
    }
    switch (decoration) {
    case SpvDecorationSpecId:
        if (argc) {
            t->has_spec_id = true;
            t->spec_id = args[0];
        }
        break;
    case SpvDecorationDescriptorSet:
        if (argc) {
            t->has_set = true;
            t->set = args[0];
        }
        break;
    case SpvDecorationBinding:
        if (argc) {
            t->has_binding = true;
            t->binding = args[0];
        }
        break;
    case SpvDecorationNonWritable:
        t->non_writable = true;
        break;
    case SpvDecorationNonReadable:
        t->non_readable = true;
        break;
    case SpvDecorationBlock:
        t->block = true;
        break;
    case SpvDecorationBufferBlock:
        t->buffer_block = true;
        break;
    case SpvDecorationBuiltIn:
        if (argc && args[0] == SpvBuiltInWorkgroupSize)
            t->builtin_workgroup_size = true;
        if (argc)
            t->builtin = args[0] + 1;
        break;
    case SpvDecorationArrayStride:
        if (argc)
            t->array_stride = args[0];
        break;
    default:
        break;
    }
}

/* Steps the id-following walks may take: far more than any compiler's module needs (a walk is
 * linear in the module for them), bounded for a hostile one. */
#define REFLECT_FUEL_BASE 1000000u
/* at most so many buffer access sites and index expression nodes per entry point: a shader with
 * more has some accesses whose place is not known (its bindings' sites are incomplete) */
#define REFLECT_MAX_SITES 4096u
#define REFLECT_MAX_EXPRS 16384u
#define REFLECT_FUEL_PER_WORD 64u

/* The spec's universal limit on the id bound (SPIR-V specification, "Universal Limits"). */
#define SPIRV_ID_BOUND_LIMIT 4194303u

static spv_result_t on_header(void *user, spv_endianness_t endian, uint32_t magic, uint32_t version, uint32_t generator,
                              uint32_t id_bound, uint32_t reserved)
{
    (void)endian, (void)magic, (void)version, (void)generator, (void)reserved;
    struct parse_state *s = user;
    s->position = 5;
    /* Every id below the bound gets a record: a bound far beyond what the module's words could
     * define would only cost memory (a compiler's bound stays below its word count; up to 65536
     * records, a few MiB, are taken whatever the size). */
    if (id_bound == 0 || id_bound > SPIRV_ID_BOUND_LIMIT || (id_bound > 65536 && id_bound > 2 * s->module_words + 64)) {
        give_up(s, 3, "its id bound is zero, above the spec's limit or far beyond what its size can define");
        return SPV_ERROR_INVALID_BINARY;
    }
    s->bound = id_bound;
    s->ids = calloc(id_bound, sizeof(*s->ids));
    for (uint32_t i = 0; s->ids != NULL && i < id_bound; ++i)
        s->ids[i].element = -2;
    return s->ids ? SPV_SUCCESS : SPV_ERROR_OUT_OF_MEMORY;
}

/* Whether the literal string starting at operand `at` ends inside the instruction's operands. */
static bool string_fits(const uint32_t *w, uint32_t n, uint32_t at)
{
    return at < n && memchr(w + at, '\0', (size_t)(n - at) * 4) != NULL;
}

static spv_result_t on_instruction(void *user, const spv_parsed_instruction_t *inst)
{
    struct parse_state *s = user;
    const uint32_t *w = inst->words + 1; /* operands after the opcode word */
    uint32_t n = inst->num_words ? inst->num_words - 1u : 0u;
    uint32_t op = inst->opcode;
    size_t at = s->position;
    s->position += inst->num_words;
    struct id_info *r = NULL;
    if (inst->result_id != 0) {
        if (inst->result_id >= s->bound) {
            give_up(s, at, "an instruction defines an id at or above the module's id bound");
            return SPV_ERROR_INVALID_ID;
        }
        r = &s->ids[inst->result_id];
        if (r->opcode != 0) {
            give_up(s, at, "an id is defined twice");
            return SPV_ERROR_INVALID_ID;
        }
        r->opcode = op;
        r->type = inst->type_id;
        r->function = s->current_function;
    }
    switch (op) {
    case SpvOpEntryPoint:
        if (n >= 3 && s->entry_function == 0 && string_fits(w, n, 2) &&
            strcmp((const char *)(w + 2), s->entry_name) == 0) {
            if (w[1] == 0 || w[1] >= s->bound) {
                give_up(s, at, "the entry point names a function id outside the module");
                return SPV_ERROR_INVALID_ID;
            }
            s->entry_function = w[1];
            s->execution_model = w[0];
        }
        break;
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId:
        if (n >= 5 && w[1] == SpvExecutionModeLocalSize && op == SpvOpExecutionMode) {
            /* keep per function; the entry point is known by the time modes are read */
            if (w[0] == s->entry_function) {
                s->has_local_size = true;
                for (int i = 0; i < 3; ++i)
                    s->local_size[i] = w[2 + i];
            }
        } else if (n >= 5 && w[1] == SpvExecutionModeLocalSizeId && w[0] == s->entry_function) {
            s->has_local_size = s->local_size_is_id = true;
            for (int i = 0; i < 3; ++i)
                s->local_size_ids[i] = w[2 + i];
        }
        break;
    case SpvOpDecorate:
        decorate(s, w, n, false);
        break;
    case SpvOpMemberDecorate:
        decorate(s, w, n, true);
        break;
    case SpvOpTypeInt:
        if (r) {
            r->count = w[1];
            r->is_signed = n > 2 && w[2] != 0;
        }
        break; /* width */
    case SpvOpTypeFloat:
        if (r)
            r->count = w[1];
        break;
    case SpvOpTypeBool:
        if (r)
            r->count = 32;
        break;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix:
        if (r) {
            r->type = w[1];
            r->count = w[2];
        }
        break;
    case SpvOpTypeArray:
        if (r) {
            r->type = w[1];
            r->count = w[2];
        }
        break;
    case SpvOpTypeRuntimeArray:
        if (r) {
            r->type = w[1];
            r->count = 0;
        }
        break;
    case SpvOpTypePointer:
        if (r) {
            r->storage_class = w[1];
            r->type = w[2];
        }
        break;
    case SpvOpTypeImage:
        if (r) {
            r->image_dim = w[2];
            r->image_sampled = w[6];
        }
        break;
    case SpvOpTypeSampledImage:
        if (r)
            r->type = w[1];
        break;
    case SpvOpTypeStruct:
    case SpvOpConstantComposite:
    case SpvOpSpecConstantComposite: {
        if (r == NULL)
            break;
        uint32_t first = op == SpvOpTypeStruct ? 1 : 2;
        uint32_t count = n > first ? n - first : 0;
        if (!grow((void **)&s->members, &s->member_capacity, s->member_count + count, sizeof(uint32_t)))
            return SPV_ERROR_OUT_OF_MEMORY;
        r->members_at = (uint32_t)s->member_count;
        r->count = count;
        if (count != 0)
            memcpy(s->members + s->member_count, w + first, count * sizeof(uint32_t));
        s->member_count += count;
        r->is_spec = op == SpvOpSpecConstantComposite;
        break;
    }
    case SpvOpConstant:
    case SpvOpSpecConstant:
        if (r && n >= 3) {
            r->value = n >= 4 ? ((uint64_t)w[3] << 32 | w[2]) : w[2];
            r->has_value = true;
            r->is_spec = op == SpvOpSpecConstant;
            if (r->is_spec && r->has_spec_id)
                r->value = spec_override(s, r->spec_id, r->value);
        }
        break;
    case SpvOpConstantTrue:
    case SpvOpConstantFalse:
    case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse:
        if (r) {
            r->value = op == SpvOpConstantTrue || op == SpvOpSpecConstantTrue;
            r->has_value = true;
            r->is_spec = op == SpvOpSpecConstantTrue || op == SpvOpSpecConstantFalse;
            if (r->is_spec && r->has_spec_id)
                r->value = spec_override(s, r->spec_id, r->value) != 0;
        }
        break;
    case SpvOpSpecConstantOp:
        if (r && n >= 3)
            r->has_value = operands_known(s, w + 3, n - 3) && evaluate_spec_op(s, w[2], w + 3, n - 3, &r->value);
        break;
    case SpvOpVariable:
        if (r && n >= 3) {
            r->storage_class = w[2];
            r->root = inst->result_id;
        }
        break;
    case SpvOpFunction:
        s->current_function = inst->result_id;
        if (r)
            r->function = inst->result_id;
        break;
    case SpvOpFunctionEnd:
        s->current_function = s->current_block = 0;
        break;
    default:
        break;
    }
    if (s->current_function != 0 && op != SpvOpFunction) {
        if (!grow((void **)&s->body, &s->body_capacity, s->body_count + 1, sizeof(*s->body)) ||
            !grow((void **)&s->words, &s->word_capacity, s->word_count + inst->num_words, sizeof(uint32_t)))
            return SPV_ERROR_OUT_OF_MEMORY;
        struct body_instruction *b = &s->body[s->body_count++];
        if (r != NULL)
            r->defined_at = (uint32_t)s->body_count;
        if (op == SpvOpLabel)
            s->current_block = inst->result_id;
        b->function = s->current_function;
        b->block = s->current_block;
        b->opcode = op;
        b->at = (uint32_t)s->word_count;
        b->count = n;
        memcpy(s->words + s->word_count, w, n * sizeof(uint32_t));
        s->word_count += n;
    }
    return SPV_SUCCESS;
}

/* Bytes a value of this type takes, tightly packed (array lengths specialized). */
static uint64_t type_size(struct parse_state *s, uint32_t type, int depth)
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

/* Marks an access on the variable behind `pointer` (through parameters, to every argument). */
static void mark(struct parse_state *s, uint32_t pointer, bool read, bool write, int depth)
{
    uint32_t root = id(s, pointer)->root;
    struct id_info *v = id(s, root);
    if (depth > 16 || root == 0 || !spend(s))
        return;
    if (v->opcode == SpvOpFunctionParameter) { /* every argument a call site passes */
        for (uint32_t e = v->arguments; e != 0 && !s->gave_up; e = s->edges[e - 1].next)
            mark(s, s->edges[e - 1].argument, read, write, depth + 1);
        return;
    }
    v->read |= read;
    v->written |= write;
    int32_t element = id(s, pointer)->element;
    if (element >= 0 && element < 64)
        v->constant_elements |= 1ull << element;
    else if (element == -1)
        v->dynamic_index = true;
}

static void propagate_root(struct parse_state *s, uint32_t result, uint32_t from)
{
    struct id_info *r = id(s, result);
    if (r->root == 0) {
        r->root = id(s, from)->root;
        r->element = id(s, from)->element;
    }
}

/* Is `variable` an array of descriptors (of resources, or of blocks)? */
static bool is_descriptor_array(struct parse_state *s, uint32_t variable)
{
    struct id_info *v = id(s, variable);
    if (v->opcode != SpvOpVariable || !v->has_binding)
        return false;
    uint32_t pointee = id(s, v->type)->type;
    uint32_t op = id(s, pointee)->opcode;
    return op == SpvOpTypeArray || op == SpvOpTypeRuntimeArray;
}

/* The constant an index has whenever it runs, or -1: a constant, a load of a function variable
 * only ever set to one constant, or a function parameter every call passes the same such value
 * (ffmpeg's helpers take the plane number as a parameter) - followed through nested calls. */
static int64_t constant_index(struct parse_state *s, uint32_t value, int depth)
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

/* An access chain straight off a descriptor array: its first index picks the element. */
static void index_element(struct parse_state *s, const uint32_t *w, uint32_t n, bool ptr_chain)
{
    struct id_info *r = id(s, w[1]);
    uint32_t index_at = ptr_chain ? 4 : 3; /* OpPtrAccessChain has an Element operand first */
    if (n <= index_at || !is_descriptor_array(s, w[2]))
        return;
    int64_t element = constant_index(s, w[index_at], 0);
    r->element = element < 0 ? -1 : (int32_t)(element < 64 ? element : 63);
}

/* Which constant each function variable is set to, for constant_index: every store and the
 * initializer must put the same constant there. */
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

static void note_stored_constants(struct parse_state *s)
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

static bool function_reachable(const bool *reachable, uint32_t f)
{
    return reachable[f]; /* f < bound: only ids defined in the module name functions */
}

/* Which functions the entry point can reach through OpFunctionCall: a walk over the call
 * instructions grouped by caller (each caller's calls visited once). */
static bool find_reachable(struct parse_state *s, bool *reachable)
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
static bool bind_parameters(struct parse_state *s, const bool *reachable)
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
static void note_blocks(struct parse_state *s)
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

/* A branch's condition or a switch's selector, when the module fixes it. */
static bool fixed_value(struct parse_state *s, uint32_t value, uint64_t *out)
{
    struct id_info *c = id(s, value);
    if (!c->has_value)
        return false;
    *out = c->value;
    return true;
}

/* The successors a block's terminator can take: all of them, or the one a fixed condition or
 * selector picks. Returns how many were written to `out` (at most `capacity`). */
static uint32_t successors(struct parse_state *s, uint32_t block, bool follow_fixed, uint32_t *out, uint32_t capacity)
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
static bool find_live_blocks(struct parse_state *s, const bool *reachable)
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

/* Whether an instruction runs at all: in a live block (function parameters come before any). */
static bool instruction_live(struct parse_state *s, const struct body_instruction *b)
{
    return b->block == 0 || id(s, b->block)->live_block;
}

/* Twice: first only to learn where every pointer comes from (a callee may come before its caller
 * in the module), then to mark the accesses. */
static void replay_bodies(struct parse_state *s, const bool *reachable, bool roots_only)
{
    for (size_t i = 0; i < s->body_count; ++i) {
        const struct body_instruction *b = &s->body[i];
        const uint32_t *w = s->words + b->at;
        uint32_t n = b->count;
        bool live = !roots_only && function_reachable(reachable, b->function) && instruction_live(s, b);
        /* every operand that names a Workgroup variable makes it used */
        for (uint32_t k = 0; live && k < n; ++k) {
            struct id_info *v = id(s, w[k]);
            if (v->opcode == SpvOpVariable && v->storage_class == SpvStorageClassWorkgroup)
                v->used = true;
        }
        switch (b->opcode) {
        case SpvOpAccessChain:
        case SpvOpInBoundsAccessChain:
        case SpvOpPtrAccessChain:
        case SpvOpInBoundsPtrAccessChain:
            if (n >= 3) {
                propagate_root(s, w[1], w[2]);
                if (id(s, w[1])->element == -2)
                    index_element(s, w, n,
                                  b->opcode == SpvOpPtrAccessChain || b->opcode == SpvOpInBoundsPtrAccessChain);
            }
            break;
        case SpvOpCopyObject:
        case SpvOpImage:
        case SpvOpSampledImage:
        case SpvOpImageTexelPointer:
        case SpvOpBitcast:
            if (n >= 3)
                propagate_root(s, w[1], w[2]);
            break;
        case SpvOpLoad:
            if (n >= 3) {
                propagate_root(s, w[1], w[2]); /* a loaded image or sampler still names its variable */
                struct id_info *loaded_type = id(s, w[0]);
                bool handle = loaded_type->opcode == SpvOpTypeImage || loaded_type->opcode == SpvOpTypeSampledImage ||
                              loaded_type->opcode == SpvOpTypeSampler ||
                              loaded_type->opcode == SpvOpTypeAccelerationStructureKHR;
                if (live && !handle)
                    mark(s, w[2], true, false, 0);
            }
            break;
        case SpvOpStore:
            if (live && n >= 1)
                mark(s, w[0], false, true, 0);
            break;
        case SpvOpCopyMemory:
        case SpvOpCopyMemorySized:
            if (live && n >= 2) {
                mark(s, w[0], false, true, 0);
                mark(s, w[1], true, false, 0);
            }
            break;
        case SpvOpAtomicLoad:
            if (live && n >= 3)
                mark(s, w[2], true, false, 0);
            break;
        case SpvOpAtomicStore:
            if (live && n >= 1)
                mark(s, w[0], false, true, 0);
            break;
        case SpvOpAtomicExchange:
        case SpvOpAtomicCompareExchange:
        case SpvOpAtomicCompareExchangeWeak:
        case SpvOpAtomicIIncrement:
        case SpvOpAtomicIDecrement:
        case SpvOpAtomicIAdd:
        case SpvOpAtomicISub:
        case SpvOpAtomicSMin:
        case SpvOpAtomicUMin:
        case SpvOpAtomicSMax:
        case SpvOpAtomicUMax:
        case SpvOpAtomicAnd:
        case SpvOpAtomicOr:
        case SpvOpAtomicXor:
        case SpvOpAtomicFAddEXT:
        case SpvOpAtomicFMinEXT:
        case SpvOpAtomicFMaxEXT:
            if (live && n >= 3)
                mark(s, w[2], true, true, 0);
            break;
        case SpvOpImageWrite:
            if (live && n >= 1)
                mark(s, w[0], false, true, 0);
            break;
        case SpvOpImageRead:
        case SpvOpImageFetch:
        case SpvOpImageGather:
        case SpvOpImageDrefGather:
        case SpvOpImageSampleImplicitLod:
        case SpvOpImageSampleExplicitLod:
        case SpvOpImageSampleDrefImplicitLod:
        case SpvOpImageSampleDrefExplicitLod:
        case SpvOpImageSampleProjImplicitLod:
        case SpvOpImageSampleProjExplicitLod:
        case SpvOpImageSampleProjDrefImplicitLod:
        case SpvOpImageSampleProjDrefExplicitLod:
        case SpvOpImageSparseSampleImplicitLod:
        case SpvOpImageSparseSampleExplicitLod:
        case SpvOpImageSparseFetch:
        case SpvOpImageSparseRead:
        case SpvOpImageSparseGather:
            if (live && n >= 3)
                mark(s, w[2], true, false, 0);
            break;
        case SpvOpRayQueryInitializeKHR:
            if (live && n >= 2)
                mark(s, w[1], true, false, 0);
            break;
        case SpvOpTraceRayKHR:
            if (live && n >= 1)
                mark(s, w[0], true, false, 0);
            break;
        default:
            break;
        }
    }
}

/* The VkPipelineStageFlagBits2 of an execution model. */
static uint64_t stage_of(uint32_t model)
{
    switch (model) {
    case SpvExecutionModelVertex:
        return 0x8ull;
    case SpvExecutionModelTessellationControl:
        return 0x10ull;
    case SpvExecutionModelTessellationEvaluation:
        return 0x20ull;
    case SpvExecutionModelGeometry:
        return 0x40ull;
    case SpvExecutionModelFragment:
        return 0x80ull;
    case SpvExecutionModelGLCompute:
        return 0x800ull;
    case SpvExecutionModelTaskNV:
    case SpvExecutionModelTaskEXT:
        return 0x80000ull;
    case SpvExecutionModelMeshNV:
    case SpvExecutionModelMeshEXT:
        return 0x100000ull;
    default:
        return 0x200000ull; /* the ray tracing models: RAY_TRACING_SHADER */
    }
}

/* Which value each function variable holds, for the invocation-bound tracing: every store and
 * the initializer must put the same value there, through the variable itself (a store through an
 * access chain into it, or a copy, makes it unknown). After the roots are known. */
static void note_stored_values(struct parse_state *s)
{
    for (size_t i = 0; i < s->body_count; ++i) {
        uint32_t target, stored;
        if (!write_of(s, &s->body[i], &target, &stored))
            continue;
        struct id_info *v = id(s, id(s, target)->root);
        if (v->opcode != SpvOpVariable || v->storage_class != SpvStorageClassFunction)
            continue;
        if (id(s, target)->opcode != SpvOpVariable || stored == 0 ||
            (v->stored_value != 0 && v->stored_value != stored))
            v->stored_value = UINT32_MAX;
        else
            v->stored_value = stored;
    }
}

/* A value that is one component of an invocation built-in: which built-in (REFLECT_BOUND_*) and
 * dimension. Followed through casts, loads of function variables stored once, swizzles and
 * component extraction. */
struct invocation_component {
    int kind; /* -1: not one */
    uint32_t dim;
};

/* invocation_kind's answer for gl_LocalInvocationID (REFLECT_BOUND_* are the others). */
#define INVOCATION_LOCAL 2

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

static bool constant_operand(struct parse_state *s, uint32_t value, uint32_t *out)
{
    struct id_info *c = id(s, value);
    if (c->opcode != SpvOpConstant || !c->has_value || c->is_spec)
        return false;
    *out = (uint32_t)c->value;
    return true;
}

/* The instruction that defines `value` (its operands after the result type and id), or NULL. */
static const uint32_t *definition(struct parse_state *s, uint32_t value, uint32_t *opcode, uint32_t *count)
{
    uint32_t at = id(s, value)->defined_at;
    if (at == 0 || at > s->body_count)
        return NULL;
    const struct body_instruction *b = &s->body[at - 1];
    *opcode = b->opcode;
    *count = b->count;
    return s->words + b->at;
}

static struct invocation_component scalar_component(struct parse_state *s, uint32_t value, int depth)
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

static bool member_offset_of(struct parse_state *s, uint32_t type, uint32_t member, uint32_t *offset)
{
    for (size_t i = 0; i < s->offset_count; ++i)
        if (s->offsets[i].type == type && s->offsets[i].member == member) {
            *offset = s->offsets[i].offset;
            return true;
        }
    return false;
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
static bool push_constant_value(struct parse_state *s, uint32_t value, uint32_t *offset, bool *is_signed, int depth)
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
static void find_invocation_bounds(struct parse_state *s, const bool *reachable, struct reflect_result *out)
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

/* --- where buffer accesses land: sites, their index expressions, and certainty ------------------ */

/* Whether `condition` compares an invocation ID with a push constant in the way the work bound
 * `bounds` recorded; then *inside_when_true says which branch keeps the invocations inside it. */
static bool is_work_bound_check(struct parse_state *s, const struct reflect_result *out, uint32_t condition,
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

/* Marks uncertain every block reachable from `start` before `stop` (and never `stop` itself);
 * true when one of them leaves the function. */
static bool mark_region(struct parse_state *s, uint32_t start, uint32_t stop)
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
    if (site.width == 0 || s->site_count >= REFLECT_MAX_SITES ||
        !grow((void **)&s->sites, &s->site_capacity, s->site_count + 1, sizeof(*s->sites))) {
        v->sites_incomplete = true;
        return;
    }
    s->sites[s->site_count++] = (struct variable_site){root, site};
}

/* Every live access of a buffer binding in the entry point, as a site. */
static void find_sites(struct parse_state *s, const bool *reachable, const struct reflect_result *out)
{
    find_uncertain_blocks(s, out);
    for (size_t i = 0; i < s->body_count && !s->gave_up; ++i) {
        const struct body_instruction *b = &s->body[i];
        const uint32_t *w = s->words + b->at;
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
            if (b->opcode >= SpvOpAtomicExchange && b->opcode <= SpvOpAtomicXor && b->count >= 3)
                note_site(s, b, w[2], true);
            else if ((b->opcode == SpvOpAtomicFAddEXT || b->opcode == SpvOpAtomicFMinEXT ||
                      b->opcode == SpvOpAtomicFMaxEXT) &&
                     b->count >= 3)
                note_site(s, b, w[2], true);
            break;
        }
    }
}

static void collect_bindings(struct parse_state *s, struct reflect_result *out)
{
    size_t count = 0;
    for (uint32_t i = 1; i < s->bound; ++i)
        count += s->ids[i].opcode == SpvOpVariable && s->ids[i].has_binding;
    out->bindings = calloc(count ? count : 1, sizeof(*out->bindings));
    if (out->bindings == NULL)
        return;
    out->sites = calloc(s->site_count ? s->site_count : 1, sizeof(*out->sites));
    for (uint32_t i = 1; i < s->bound; ++i) {
        struct id_info *v = &s->ids[i];
        if (v->opcode != SpvOpVariable || !v->has_binding)
            continue;
        struct reflect_binding *b = &out->bindings[out->binding_count++];
        b->set = v->set;
        b->binding = v->binding;
        b->read = v->read;
        b->written = v->written;
        b->array_size = 1;
        uint32_t type = id(s, v->type)->type; /* the pointee */
        struct id_info *t = id(s, type);
        if (t->opcode == SpvOpTypeArray) {
            b->array_size = (uint32_t)id(s, t->count)->value;
            t = id(s, t->type);
        } else if (t->opcode == SpvOpTypeRuntimeArray) {
            b->array_size = 0;
            t = id(s, t->type);
        }
        b->non_writable =
            v->non_writable || (t->opcode == SpvOpTypeStruct && t->count > 0 && t->member_non_writable >= t->count);
        b->non_readable = v->non_readable;
        b->constant_elements = v->constant_elements;
        b->dynamic_index = v->dynamic_index;
        b->used_stages = (b->read || b->written) ? stage_of(s->execution_model) : 0;
        /* the binding's sites, grouped (a stable pass over all of them per binding) */
        b->sites_at = (uint32_t)out->site_count;
        for (size_t k = 0; out->sites != NULL && k < s->site_count; ++k)
            if (s->sites[k].variable == i)
                out->sites[out->site_count++] = s->sites[k].site;
        b->site_count = (uint32_t)out->site_count - b->sites_at;
        b->sites_complete =
            out->sites != NULL && !v->sites_incomplete && s->execution_model == SpvExecutionModelGLCompute;
        if (b->array_size == 1 && (b->read || b->written))
            b->constant_elements = 1; /* a single descriptor: element 0 */
        switch (t->opcode) {
        case SpvOpTypeStruct:
            b->kind = REFLECT_BUFFER;
            b->storage = v->storage_class == SpvStorageClassStorageBuffer || t->buffer_block;
            break;
        case SpvOpTypeImage:
            b->kind = REFLECT_IMAGE;
            b->storage = t->image_sampled == 2;
            b->image_dim = t->image_dim;
            break;
        case SpvOpTypeSampler:
            b->kind = REFLECT_SAMPLER;
            break;
        case SpvOpTypeSampledImage:
            b->kind = REFLECT_SAMPLED_IMAGE;
            b->image_dim = id(s, t->type)->image_dim;
            break;
        case SpvOpTypeAccelerationStructureKHR:
            b->kind = REFLECT_ACCELERATION_STRUCTURE;
            break;
        default:
            b->kind = REFLECT_OTHER;
            break;
        }
    }
}

/* --- modules newer than Debian's SPIRV-Tools ------------------------------------------------------ */

/* Instructions SPIRV-Tools could not parse in a module whose structure is sound: a capability,
 * an operand value or an opcode newer than the SPIRV-Tools the layer was built with (Debian 12's
 * 2023.1 knows no SPV_KHR_cooperative_matrix, which ggml's matrix shaders use). They are read as
 * OpNop words in a copy, and what they may touch is marked conservatively afterwards. */
#define REFLECT_MAX_UNKNOWN_INSTRUCTIONS 256u

struct unknown_instruction {
    uint32_t at, count; /* its words in the module */
};

/* Whether the instructions' word counts tile the module exactly. */
static bool well_formed(const uint32_t *code, size_t words)
{
    size_t at = 5;
    while (at < words) {
        uint32_t n = code[at] >> 16;
        if (n == 0 || n > words - at)
            return false;
        at += n;
    }
    return at == words;
}

/* Instruction number `number` (from 1, as SPIRV-Tools counts them in its diagnostics) of a
 * well-formed module, or false. */
static bool instruction_numbered(const uint32_t *code, size_t words, size_t number, struct unknown_instruction *out)
{
    size_t counted = 0;
    for (size_t at = 5; at < words;) {
        uint32_t n = code[at] >> 16;
        if (++counted == number) {
            *out = (struct unknown_instruction){(uint32_t)at, n};
            return true;
        }
        at += n;
    }
    return false;
}

/* Whether SPIRV-Tools stopped at a value it does not know ("Invalid opcode: 4457", "Invalid
 * capability operand: 6022"), rather than at something no version accepts (an id defined twice). */
static bool newer_than_known(spv_diagnostic diagnostic)
{
    const char *e = diagnostic->error;
    return e != NULL && strncmp(e, "Invalid ", 8) == 0 &&
           (strstr(e, " opcode") != NULL || strstr(e, " operand") != NULL);
}

static void parse_state_reset(struct parse_state *s)
{
    free(s->ids);
    free(s->members);
    free(s->words);
    free(s->body);
    free(s->offsets);
    free(s->edges);
    struct parse_state fresh = {.entry_name = s->entry_name,
                                .spec = s->spec,
                                .spec_count = s->spec_count,
                                .module_words = s->module_words,
                                .fuel = s->fuel};
    *s = fresh;
}

/* Parses `code`; where SPIRV-Tools stops at an instruction of a well-formed module, that
 * instruction becomes OpNop words in `*copy` (made on the first) and the parse starts again. */
static spv_result_t parse_tolerant(spv_context context, struct parse_state *s, const uint32_t *code, size_t words,
                                   uint32_t **copy, struct unknown_instruction *unknown, uint32_t *unknown_count,
                                   spv_diagnostic *diagnostic)
{
    uint32_t attempts = 0;
    for (;;) {
        const uint32_t *module = *copy ? *copy : code;
        spv_result_t result = spvBinaryParse(context, s, module, words, on_header, on_instruction, diagnostic);
        if (result == SPV_SUCCESS || s->gave_up || *diagnostic == NULL ||
            *unknown_count >= REFLECT_MAX_UNKNOWN_INSTRUCTIONS || (*diagnostic)->error == NULL ||
            !well_formed(module, words) || ++attempts > 2 * REFLECT_MAX_UNKNOWN_INSTRUCTIONS)
            return result;
        struct unknown_instruction at;
        unsigned type_id;
        if (sscanf((*diagnostic)->error, "Type Id %u is not a type", &type_id) == 1 && *copy != NULL) {
            /* a type only the newer SPIR-V has, read as OpNop, is used as a type later: it
             * becomes a 32-bit integer type of the same id (a type's id is its first operand) */
            bool retyped = false;
            for (uint32_t i = 0; i < *unknown_count && !retyped; ++i)
                if (unknown[i].count >= 4 && code[unknown[i].at + 1] == type_id &&
                    (*copy)[unknown[i].at] == (1u << 16 | SpvOpNop)) {
                    uint32_t *w = *copy + unknown[i].at;
                    w[0] = 4u << 16 | SpvOpTypeInt, w[1] = type_id, w[2] = 32, w[3] = 0;
                    retyped = true;
                }
            if (!retyped)
                return result;
            spvDiagnosticDestroy(*diagnostic);
            *diagnostic = NULL;
            parse_state_reset(s);
            continue;
        }
        if (!newer_than_known(*diagnostic) ||
            !instruction_numbered(module, words, (*diagnostic)->position.index, &at) ||
            (module[at.at] & 0xFFFF) == SpvOpNop)
            return result;
        if (*copy == NULL && (*copy = malloc(words * sizeof(uint32_t))) != NULL)
            memcpy(*copy, code, words * sizeof(uint32_t));
        if (*copy == NULL)
            return result;
        for (uint32_t k = 0; k < at.count; ++k)
            (*copy)[at.at + k] = 1u << 16 | SpvOpNop;
        unknown[(*unknown_count)++] = at;
        spvDiagnosticDestroy(*diagnostic);
        *diagnostic = NULL;
        parse_state_reset(s);
    }
}

/* What an instruction the parse could not read may touch: every binding an operand's pointer
 * comes from counts as read and written, with places unknown. */
static void mark_unknown_instructions(struct parse_state *s, const uint32_t *code,
                                      const struct unknown_instruction *unknown, uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t k = 1; k < unknown[i].count; ++k) {
            struct id_info *v = id(s, id(s, code[unknown[i].at + k])->root);
            if (v->opcode != SpvOpVariable || !v->has_binding)
                continue;
            /* what the instruction does is not known, but the decorations say what the variable
             * never is: a NonReadable (writeonly) buffer is not read, a NonWritable one not written
             * (ggml's matrix products store their results with OpCooperativeMatrixStoreKHR, which
             * Debian 12's SPIRV-Tools does not know, into a writeonly binding) */
            const struct id_info *t = id(s, id(s, v->type)->type);
            bool all_members = t->opcode == SpvOpTypeStruct && t->count > 0;
            bool never_read = v->non_readable || (all_members && t->member_non_readable >= t->count);
            bool never_written = v->non_writable || (all_members && t->member_non_writable >= t->count);
            v->read = v->read || !never_read;
            v->written = v->written || !never_written;
            v->sites_incomplete = true;
            v->dynamic_index = true;
        }
}

void reflect_module(const uint32_t *code, size_t size_bytes, const char *entry,
                    const struct reflect_specialization *spec, size_t spec_count, struct reflect_result *out)
{
    memset(out, 0, sizeof(*out));
    struct parse_state s = {.entry_name = entry ? entry : "main",
                            .spec = spec,
                            .spec_count = spec_count,
                            .module_words = size_bytes / 4,
                            .fuel = REFLECT_FUEL_BASE + (uint64_t)REFLECT_FUEL_PER_WORD * (size_bytes / 4)};
    if (code == NULL || size_bytes < 20 || size_bytes % 4 != 0) {
        out->invalid = true;
        snprintf(out->error, sizeof(out->error), "not a SPIR-V module (%zu bytes: at least 20, a multiple of 4)",
                 code == NULL ? (size_t)0 : size_bytes);
        return;
    }
    spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
    spv_diagnostic diagnostic = NULL;
    uint32_t *copy = NULL, unknown_count = 0;
    struct unknown_instruction unknown[REFLECT_MAX_UNKNOWN_INSTRUCTIONS];
    spv_result_t result =
        parse_tolerant(context, &s, code, size_bytes / 4, &copy, unknown, &unknown_count, &diagnostic);
    if (result != SPV_SUCCESS) {
        out->invalid = true;
        if (s.gave_up) {
            out->error_at = s.gave_up_at;
            snprintf(out->error, sizeof(out->error), "%s", s.why);
        } else {
            /* SPIRV-Tools counts instructions in its diagnostics: the word is found by walking them */
            struct unknown_instruction where = {0, 0};
            const uint32_t *module = copy ? copy : code;
            if (diagnostic && well_formed(module, size_bytes / 4))
                instruction_numbered(module, size_bytes / 4, diagnostic->position.index, &where);
            out->error_at = where.at;
            snprintf(out->error, sizeof(out->error), "SPIRV-Tools cannot parse it: %.150s",
                     diagnostic && diagnostic->error ? diagnostic->error : "no reason given");
        }
    } else if (s.entry_function == 0) {
        snprintf(out->error, sizeof(out->error), "no entry point named '%.64s'", s.entry_name);
    } else {
        bool *reachable = calloc(s.bound, sizeof(bool));
        if (reachable != NULL && find_reachable(&s, reachable) && bind_parameters(&s, reachable) &&
            (note_blocks(&s), find_live_blocks(&s, reachable))) {
            note_stored_constants(&s);
            replay_bodies(&s, reachable, true);
            note_stored_values(&s);
            replay_bodies(&s, reachable, false);
            mark_unknown_instructions(&s, code, unknown, unknown_count);
            out->ok = true;
            out->execution_model = s.execution_model;
            /* WorkgroupSize built-in beats LocalSizeId, which beats LocalSize */
            for (uint32_t i = 1; i < s.bound; ++i) {
                struct id_info *c = &s.ids[i];
                if (c->builtin_workgroup_size && c->count == 3 &&
                    (c->opcode == SpvOpConstantComposite || c->opcode == SpvOpSpecConstantComposite)) {
                    out->has_local_size = true;
                    for (int k = 0; k < 3; ++k)
                        out->local_size[k] = (uint32_t)id(&s, s.members[c->members_at + k])->value;
                }
            }
            if (!out->has_local_size && s.has_local_size) {
                out->has_local_size = true;
                for (int k = 0; k < 3; ++k)
                    out->local_size[k] =
                        s.local_size_is_id ? (uint32_t)id(&s, s.local_size_ids[k])->value : s.local_size[k];
            }
            for (uint32_t i = 1; i < s.bound; ++i) {
                struct id_info *v = &s.ids[i];
                if (v->opcode == SpvOpVariable && v->storage_class == SpvStorageClassWorkgroup && v->used)
                    out->workgroup_memory += type_size(&s, id(&s, v->type)->type, 0);
            }
            if (s.execution_model == SpvExecutionModelGLCompute) {
                find_invocation_bounds(&s, reachable, out);
                find_sites(&s, reachable, out);
            }
            collect_bindings(&s, out);
            out->exprs = s.exprs; /* handed over */
            out->expr_count = s.expr_count;
            s.exprs = NULL;
            if (s.gave_up) { /* a walk ran out of steps: what it found is incomplete */
                reflect_free(out);
                out->invalid = true;
                out->error_at = s.gave_up_at;
                snprintf(out->error, sizeof(out->error), "%s", s.why);
            }
        }
        free(reachable);
    }
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    free(copy);
    free(s.ids);
    free(s.members);
    free(s.words);
    free(s.body);
    free(s.offsets);
    free(s.edges);
    free(s.sites);
    free(s.exprs);
    free(s.stack);
}

void reflect_free(struct reflect_result *r)
{
    free(r->bindings);
    free(r->sites);
    free(r->exprs);
    memset(r, 0, sizeof(*r));
}

bool reflect_merge(struct reflect_result *into, const struct reflect_result *from)
{
    for (size_t i = 0; i < from->binding_count; ++i) {
        const struct reflect_binding *b = &from->bindings[i];
        struct reflect_binding *same = NULL;
        for (size_t k = 0; k < into->binding_count && same == NULL; ++k)
            if (into->bindings[k].set == b->set && into->bindings[k].binding == b->binding)
                same = &into->bindings[k];
        if (same != NULL) {
            same->sites_complete = false; /* sites are one stage's: not kept for merged stages */
            same->site_count = 0;
            same->read |= b->read;
            same->written |= b->written;
            same->constant_elements |= b->constant_elements;
            same->dynamic_index |= b->dynamic_index;
            same->used_stages |= b->used_stages;
            continue;
        }
        struct reflect_binding *grown = realloc(into->bindings, (into->binding_count + 1) * sizeof(*grown));
        if (grown == NULL)
            return false;
        into->bindings = grown;
        into->bindings[into->binding_count] = *b;
        into->bindings[into->binding_count].sites_complete = false;
        into->bindings[into->binding_count++].site_count = 0;
    }
    return true;
}
