/* Reading a SPIR-V module's words into the reflection's records (spirv_reflect_module.h) with
 * SPIRV-Tools' parser: ids, types, decorations, constants with specialization applied (the
 * OpSpecConstantOp integer operations evaluated as they come), and every instruction inside
 * functions, kept to be replayed once the whole module is known. Modules newer than the
 * SPIRV-Tools the layer was built with are read too (parse_module). */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_PARSE_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_PARSE_H

#include "spirv_reflect_module.h"

/* Instructions SPIRV-Tools could not parse in a module whose structure is sound: a capability,
 * an operand value or an opcode newer than the SPIRV-Tools the layer was built with (Debian 12's
 * 2023.1 knows no SPV_KHR_cooperative_matrix, which ggml's matrix shaders use). They are read as
 * OpNop words in a copy, and what they may touch is marked conservatively afterwards. */
#define REFLECT_MAX_UNKNOWN_INSTRUCTIONS 256u

/* Parses `code` (`words` words) into `s`. Where SPIRV-Tools stops at an instruction of a
 * well-formed module (one newer than it knows), the instruction is read as OpNop, listed in
 * `unknown` (room for REFLECT_MAX_UNKNOWN_INSTRUCTIONS) and the parse starts again. False when the
 * module cannot be parsed: then s->gave_up with the parse's own reason, or else `error` says why
 * SPIRV-Tools refused it and *error_at at which word. */
bool parse_module(struct parse_state *s, const uint32_t *code, size_t words, struct unknown_instruction *unknown,
                  uint32_t *unknown_count, char *error, size_t error_size, uint32_t *error_at);
/* After the pointers' roots are known: every binding an unknown instruction's operand points into
 * counts as read and written (as far as its decorations allow), with places unknown - except for
 * the instructions the reflection models itself (cooperative matrix loads and stores). */
void mark_unknown_instructions(struct parse_state *s, const uint32_t *code, const struct unknown_instruction *unknown,
                               uint32_t count);

/* Whether an instruction the parse could not read (and does not model) names `value` among its
 * operands: what it does to it is not known (a loop counter or a variable stored once may be
 * written there). */
bool named_by_unknown_instruction(const struct parse_state *s, uint32_t value);

#endif
