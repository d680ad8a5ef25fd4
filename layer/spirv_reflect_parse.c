#include "spirv_reflect_parse.h"

#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_reflect_cooperative.h"

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

/* An OpNop at module word `at`: the first word of an instruction SPIRV-Tools did not know, or a
 * later one (false: then it is nothing), or a real OpNop. The first word of an instruction the
 * reflection models itself (a cooperative matrix load, store or multiply-add) gets its own opcode
 * and operands back - and its result id its type - so the walks over the bodies see it. */
static bool put_back_unknown(struct parse_state *s, size_t at, uint32_t *op, const uint32_t **w, uint32_t *n)
{
    for (uint32_t i = 0; i < *s->unknown_count; ++i) {
        const struct unknown_instruction *u = &s->unknown[i];
        if (at <= u->at || at >= (size_t)u->at + u->count)
            continue;
        return false; /* inside one */
    }
    for (uint32_t i = 0; i < *s->unknown_count; ++i) {
        const struct unknown_instruction *u = &s->unknown[i];
        if (u->at != at || u->count == 0)
            continue;
        uint32_t opcode = s->original[at] & 0xFFFFu;
        if (!cooperative_matrix_modelled(opcode))
            return true; /* stays an OpNop: mark_unknown_instructions judges it */
        *op = opcode;
        *w = s->original + at + 1;
        *n = u->count - 1;
        if (cooperative_matrix_has_result(opcode) && *n >= 2 && (*w)[1] != 0 && (*w)[1] < s->bound &&
            s->ids[(*w)[1]].opcode == 0 && s->current_function != 0) {
            struct id_info *r = &s->ids[(*w)[1]];
            r->opcode = opcode;
            r->type = (*w)[0];
            r->function = s->current_function;
            r->defined_at = (uint32_t)s->body_count + 1; /* the body instruction about to be kept */
        }
        return true;
    }
    return true;
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
    if (op == SpvOpNop && s->unknown != NULL && !put_back_unknown(s, at, &op, &w, &n))
        return SPV_SUCCESS; /* a later word of an unknown instruction: nothing of its own */
    if (s->current_function != 0 && op != SpvOpFunction) {
        if (!grow((void **)&s->body, &s->body_capacity, s->body_count + 1, sizeof(*s->body)) ||
            !grow((void **)&s->words, &s->word_capacity, s->word_count + n, sizeof(uint32_t)))
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
        if (n > 0) /* an instruction without operands may come before the pool exists */
            memcpy(s->words + s->word_count, w, n * sizeof(uint32_t));
        s->word_count += n;
    }
    return SPV_SUCCESS;
}

/* --- modules newer than Debian's SPIRV-Tools ------------------------------------------------------ */

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
                                .fuel = s->fuel,
                                .original = s->original,
                                .unknown = s->unknown,
                                .unknown_count = s->unknown_count};
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

bool parse_module(struct parse_state *s, const uint32_t *code, size_t words, struct unknown_instruction *unknown,
                  uint32_t *unknown_count, char *error, size_t error_size, uint32_t *error_at)
{
    spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
    spv_diagnostic diagnostic = NULL;
    s->original = code;
    s->unknown = unknown;
    s->unknown_count = unknown_count;
    uint32_t *copy = NULL;
    spv_result_t result = parse_tolerant(context, s, code, words, &copy, unknown, unknown_count, &diagnostic);
    if (result != SPV_SUCCESS && !s->gave_up) {
        /* SPIRV-Tools counts instructions in its diagnostics: the word is found by walking them */
        struct unknown_instruction where = {0, 0};
        const uint32_t *module = copy ? copy : code;
        if (diagnostic && well_formed(module, words))
            instruction_numbered(module, words, diagnostic->position.index, &where);
        *error_at = where.at;
        snprintf(error, error_size, "SPIRV-Tools cannot parse it: %.150s",
                 diagnostic && diagnostic->error ? diagnostic->error : "no reason given");
    }
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    free(copy);
    return result == SPV_SUCCESS;
}

/* What an instruction the parse could not read may touch: every binding an operand's pointer
 * comes from counts as read and written, with places unknown. */
void mark_unknown_instructions(struct parse_state *s, const uint32_t *code, const struct unknown_instruction *unknown,
                               uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i)
        for (uint32_t k = 1; k < unknown[i].count && !cooperative_matrix_modelled(code[unknown[i].at] & 0xFFFFu); ++k) {
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

bool named_by_unknown_instruction(const struct parse_state *s, uint32_t value)
{
    for (uint32_t i = 0; s->unknown != NULL && s->original != NULL && i < *s->unknown_count; ++i) {
        const struct unknown_instruction *u = &s->unknown[i];
        if (cooperative_matrix_modelled(s->original[u->at] & 0xFFFFu))
            continue; /* read with its own words: the walks see it */
        for (uint32_t k = 1; k < u->count; ++k)
            if (s->original[u->at + k] == value)
                return true;
    }
    return false;
}
