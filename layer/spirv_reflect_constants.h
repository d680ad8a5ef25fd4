/* Values a module fixes, as the reflection follows them: constants (specialization applied, by
 * spirv_reflect_parse.c), the conditions and selectors of branches, and what function variables
 * hold when every store puts the same constant or value there - so an index or a bound reached
 * through a local variable or a helper's parameter is still known. */
#ifndef PREFLIGHT_LAYER_SPIRV_REFLECT_CONSTANTS_H
#define PREFLIGHT_LAYER_SPIRV_REFLECT_CONSTANTS_H

#include <spirv/unified1/spirv.h>

#include "spirv_reflect_module.h"

/* A plain (not specialization) integer constant. */
static inline bool constant_operand(struct parse_state *s, uint32_t value, uint32_t *out)
{
    struct id_info *c = id(s, value);
    if (c->opcode != SpvOpConstant || !c->has_value || c->is_spec)
        return false;
    *out = (uint32_t)c->value;
    return true;
}
/* A branch's condition or a switch's selector, when the module fixes it. */
static inline bool fixed_value(struct parse_state *s, uint32_t value, uint64_t *out)
{
    struct id_info *c = id(s, value);
    if (!c->has_value)
        return false;
    *out = c->value;
    return true;
}
/* Which constant each function variable is set to (id_info.stored_constant), for constant_index. */
void note_stored_constants(struct parse_state *s);
/* Which value each function variable holds (id_info.stored_value); after the roots are known. */
void note_stored_values(struct parse_state *s);
/* The constant an index has whenever it runs, or -1 (through stored constants and parameters, so
 * after the parameters are bound). */
int64_t constant_index(struct parse_state *s, uint32_t value, int depth);

#endif
