/* Cooperative matrices (SPV_KHR_cooperative_matrix, SPV_NV_cooperative_matrix): a subgroup loads
 * or stores a whole Rows x Columns matrix through one pointer, element (r, c) at r * Stride + c
 * elements past it (row-major) or r + c * Stride (column-major). ggml's matrix products store
 * their results this way. Debian 12's SPIRV-Tools knows only the NV instructions: the KHR ones
 * are put back into the bodies by the parse (spirv_reflect_parse.c) with their own words. Which
 * invocation of the subgroup writes which element is the implementation's choice: the reflection
 * knows the matrix's first element and its last, never an invocation's share. */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_COOPERATIVE_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_COOPERATIVE_H

#include <spirv/unified1/spirv.h>

#include "spirv_reflect_module.h"

/* The KHR opcodes (newer than Debian 12's SPIR-V headers). */
#define SPIRV_OP_TYPE_COOPERATIVE_MATRIX_KHR 4456u
#define SPIRV_OP_COOPERATIVE_MATRIX_LOAD_KHR 4457u
#define SPIRV_OP_COOPERATIVE_MATRIX_STORE_KHR 4458u
#define SPIRV_OP_COOPERATIVE_MATRIX_MUL_ADD_KHR 4459u

/* The unknown instructions the parse puts back into the bodies. */
static inline bool cooperative_matrix_modelled(uint32_t opcode)
{
    return opcode >= SPIRV_OP_COOPERATIVE_MATRIX_LOAD_KHR && opcode <= SPIRV_OP_COOPERATIVE_MATRIX_MUL_ADD_KHR;
}
/* Of those, the ones with a result type and id. */
static inline bool cooperative_matrix_has_result(uint32_t opcode)
{
    return opcode == SPIRV_OP_COOPERATIVE_MATRIX_LOAD_KHR || opcode == SPIRV_OP_COOPERATIVE_MATRIX_MUL_ADD_KHR;
}

/* Whether `opcode` is a cooperative matrix load or store (KHR or NV). */
static inline bool cooperative_matrix_memory_access(uint32_t opcode)
{
    return opcode == SPIRV_OP_COOPERATIVE_MATRIX_LOAD_KHR || opcode == SPIRV_OP_COOPERATIVE_MATRIX_STORE_KHR ||
           opcode == SpvOpCooperativeMatrixLoadNV || opcode == SpvOpCooperativeMatrixStoreNV;
}

/* A cooperative matrix load or store of memory (operands `w`, `n` of them, as a body keeps
 * them): the pointer and whether it writes. False for any other instruction. */
bool cooperative_matrix_access(uint32_t opcode, const uint32_t *w, uint32_t n, uint32_t *pointer, bool *write);

/* The elements a cooperative matrix load or store reaches past the one its pointer names: the
 * last is (major - 1) * stride + (minor - 1) further (major: rows when row-major, columns when
 * column-major), `stride` a value id. False when that is not known: a layout other than row- or
 * column-major, no stride, a matrix type or size the module does not fix, or a component of
 * another size than `element_bytes` (the pointer's element: the stride counts those). */
struct cooperative_extent {
    uint64_t major, minor;
    uint32_t stride;
};
bool cooperative_matrix_extent(struct parse_state *s, const struct body_instruction *b, uint64_t element_bytes,
                               struct cooperative_extent *out);

#endif
