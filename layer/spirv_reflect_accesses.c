#include "spirv_reflect_accesses.h"

#include <spirv/unified1/spirv.h>

#include "spirv_reflect_constants.h"
#include "spirv_reflect_control_flow.h"
#include "spirv_reflect_cooperative.h"

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
bool is_descriptor_array(struct parse_state *s, uint32_t variable)
{
    struct id_info *v = id(s, variable);
    if (v->opcode != SpvOpVariable || !v->has_binding)
        return false;
    uint32_t pointee = id(s, v->type)->type;
    uint32_t op = id(s, pointee)->opcode;
    return op == SpvOpTypeArray || op == SpvOpTypeRuntimeArray;
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

/* Twice: first only to learn where every pointer comes from (a callee may come before its caller
 * in the module), then to mark the accesses. */
void replay_bodies(struct parse_state *s, const bool *reachable, bool roots_only)
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
        default: {
            uint32_t pointer;
            bool write;
            if (live && cooperative_matrix_access(b->opcode, w, n, &pointer, &write))
                mark(s, pointer, !write, write, 0);
            break;
        }
        }
    }
}
