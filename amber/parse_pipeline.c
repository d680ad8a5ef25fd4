/* PIPELINE compute|graphics|ray_tracing ... END and DERIVE_PIPELINE ... FROM ... END: shaders,
 * bindings, attachments, vertex input and the fixed-function state of a graphics pipeline (the
 * lines only a ray_tracing pipeline has are parse_ray.c's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

static const char *const bind_kind_names[] = {"uniform",
                                              "storage",
                                              "uniform_dynamic",
                                              "storage_dynamic",
                                              "uniform_texel_buffer",
                                              "storage_texel_buffer",
                                              "storage_image",
                                              "sampled_image",
                                              "combined_image_sampler",
                                              NULL};

static bool is_dynamic(enum amber_bind_kind kind)
{
    return kind == AMBER_BIND_UNIFORM_DYNAMIC || kind == AMBER_BIND_STORAGE_DYNAMIC;
}

static bool is_plain_buffer(enum amber_bind_kind kind)
{
    return kind <= AMBER_BIND_STORAGE_DYNAMIC;
}

/* --- ATTACH and SUBGROUP --------------------------------------------------------------------- */

static struct amber_attached_shader *attached(struct amber_pipeline *pl, uint32_t shader)
{
    for (uint32_t i = 0; i < pl->shader_count; ++i)
        if (pl->shaders[i].shader == shader)
            return &pl->shaders[i];
    return NULL;
}

static bool parse_attach(struct parser *p, struct amber_pipeline *pl, const struct amber_token *start)
{
    struct amber_token name, t;
    if (!parse_word(p, &name, "a shader name"))
        return false;
    int64_t found = find_shader(p->script, name.text);
    if (found < 0)
        return parse_error(p, &name, "ATTACH: no SHADER named '%s' before this line", name.text);
    const struct amber_shader *shader = &p->script->shaders[found];
    if (pl->type == AMBER_PIPELINE_RAY_TRACING)
        return parse_error(p, start, "ATTACH: a ray_tracing pipeline takes its shaders in SHADER_GROUP lines");
    if (shader->stage >= AMBER_STAGE_RAY_GENERATION)
        return parse_error(p, &name, "ATTACH %s: a ray-tracing shader goes in a SHADER_GROUP of a ray_tracing pipeline",
                           name.text);
    struct amber_attached_shader a = {.shader = (uint32_t)found, .stage = shader->stage};
    snprintf(a.entry, sizeof(a.entry), "main");
    amber_lexer_next(&p->lexer, &t);
    if (amber_word_is(&t, "TYPE")) {
        static const char *const stages[] = {
            "vertex", "tessellation_control", "tessellation_evaluation", "geometry", "fragment", "compute", NULL};
        static const uint32_t values[] = {0, 1, 2, 3, 4, 5};
        uint32_t stage;
        if (!parse_choice(p, stages, values, &stage, "a shader type"))
            return false;
        a.stage = (enum amber_stage)stage;
        amber_lexer_next(&p->lexer, &t);
        if (!amber_word_is(&t, "ENTRY_POINT"))
            return parse_error(p, &t, "ATTACH ... TYPE needs an ENTRY_POINT, got '%s'", t.text);
    }
    if (a.stage == AMBER_STAGE_MULTI)
        return parse_error(p, &name, "ATTACH %s: a multi shader needs TYPE and ENTRY_POINT", name.text);
    if (amber_word_is(&t, "ENTRY_POINT")) {
        struct amber_token entry;
        if (!parse_word(p, &entry, "the entry point's name"))
            return false;
        if (entry.length >= sizeof(a.entry))
            return parse_error(p, &entry, "an entry point name longer than %zu characters", sizeof(a.entry) - 1);
        memcpy(a.entry, entry.text, entry.length + 1);
        amber_lexer_next(&p->lexer, &t);
    }
    while (amber_word_is(&t, "SPECIALIZE")) {
        if (a.specialization_count == AMBER_MAX_SPECIALIZATIONS)
            return parse_limit(p, &t, "more than %d SPECIALIZE values: beyond preflight's limit",
                               AMBER_MAX_SPECIALIZATIONS);
        struct amber_specialization *s = &a.specializations[a.specialization_count++];
        struct amber_token type, value;
        if (!parse_u32(p, &s->id, "the specialization constant's id") || !parse_keyword(p, "AS", "SPECIALIZE") ||
            !parse_word(p, &type, "uint32, int32 or float"))
            return false;
        amber_lexer_next(&p->lexer, &value);
        struct amber_number n;
        if (!parse_number_token(&value, &n))
            return parse_error(p, &value, "expected the specialization value (a number), got '%s'", value.text);
        struct amber_segment segment = {0, 32, AMBER_MODE_UINT, 0};
        if (amber_word_is(&type, "int32"))
            segment.mode = AMBER_MODE_SINT;
        else if (amber_word_is(&type, "float"))
            segment.mode = AMBER_MODE_SFLOAT;
        else if (!amber_word_is(&type, "uint32"))
            return parse_error(p, &type, "SPECIALIZE values are uint32, int32 or float, not '%s'", type.text);
        uint8_t bytes[4] = {0};
        char error[160];
        if (!amber_encode(&segment, &n, bytes, error, sizeof(error)))
            return parse_error(p, &value, "SPECIALIZE %u: %s", s->id, error);
        s->bits = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 | (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
        amber_lexer_next(&p->lexer, &t);
    }
    if (t.kind != AMBER_TOKEN_END_OF_LINE && t.kind != AMBER_TOKEN_END_OF_FILE)
        return parse_error(p, &t, "expected TYPE, ENTRY_POINT, SPECIALIZE or the end of the line, got '%s'", t.text);
    bool compute = a.stage == AMBER_STAGE_COMPUTE;
    if (compute != (pl->type == AMBER_PIPELINE_COMPUTE))
        return parse_error(p, &name, "ATTACH %s: a %s pipeline cannot hold a %s shader", name.text,
                           pl->type == AMBER_PIPELINE_COMPUTE ? "compute" : "graphics",
                           compute ? "compute" : "graphics-stage");
    for (uint32_t i = 0; i < pl->shader_count; ++i)
        if (pl->shaders[i].stage == a.stage) { /* a derived pipeline swaps the shader of a stage */
            free(pl->shaders[i].passes);
            pl->shaders[i] = a;
            return true;
        }
    if (pl->shader_count == AMBER_MAX_STAGES)
        return parse_error(p, start, "too many shaders in one pipeline");
    pl->shaders[pl->shader_count++] = a;
    return true;
}

static bool requires_feature(const struct amber_script *s, const char *name)
{
    for (uint32_t i = 0; i < s->requirement_count; ++i)
        if (s->requirements[i].kind == AMBER_REQUIRE_FEATURE && strcmp(s->requirements[i].name, name) == 0)
            return true;
    return false;
}

static bool parse_subgroup(struct parser *p, struct amber_pipeline *pl, const struct amber_token *start)
{
    struct amber_token name, t;
    if (!parse_word(p, &name, "a shader name") || !parse_end_of_line(p, "SUBGROUP's shader"))
        return false;
    int64_t found = find_shader(p->script, name.text);
    struct amber_attached_shader *a = found >= 0 ? attached(pl, (uint32_t)found) : NULL;
    if (a == NULL)
        return parse_error(p, &name, "SUBGROUP %s: the shader is not attached to this pipeline", name.text);
    for (;;) {
        if (!parse_block_token(p, start, &t, "SUBGROUP has no END line"))
            return false;
        if (amber_word_is(&t, "END"))
            return parse_end_of_line(p, "END");
        const char *feature = amber_word_is(&t, "FULLY_POPULATED") ? "SubgroupSizeControl.computeFullSubgroups"
                                                                   : "SubgroupSizeControl.subgroupSizeControl";
        if (!requires_feature(p->script, feature))
            return parse_error(p, &t, "SUBGROUP %s needs DEVICE_FEATURE %s before the pipeline", t.text, feature);
        bool ok;
        if (amber_word_is(&t, "FULLY_POPULATED")) {
            ok = parse_on_off(p, &a->fully_populated, "FULLY_POPULATED");
        } else if (amber_word_is(&t, "VARYING_SIZE")) {
            ok = parse_on_off(p, &a->varying_size, "VARYING_SIZE");
        } else if (amber_word_is(&t, "REQUIRED_SIZE")) {
            struct amber_token size;
            amber_lexer_next(&p->lexer, &size);
            struct amber_integer n;
            a->required_min = amber_word_is(&size, "MIN");
            a->required_max = amber_word_is(&size, "MAX");
            ok = a->required_min || a->required_max;
            if (!ok && amber_token_integer(&size, &n) && !n.negative && n.magnitude >= 1 && n.magnitude <= 128 &&
                (n.magnitude & (n.magnitude - 1)) == 0) {
                a->required_size = (uint32_t)n.magnitude;
                ok = true;
            }
            if (!ok)
                return parse_error(p, &size, "expected REQUIRED_SIZE as a power of two, MIN or MAX, got '%s'",
                                   size.text);
        } else {
            return parse_error(p, &t, "expected FULLY_POPULATED, VARYING_SIZE, REQUIRED_SIZE or END, got '%s'", t.text);
        }
        if (!ok || !parse_end_of_line(p, t.text))
            return false;
    }
}

/* SHADER_OPTIMIZATION shader, then SPIRV-Tools optimizer flags (spirv-opt's) up to END. */
static bool parse_optimization(struct parser *p, struct amber_pipeline *pl, const struct amber_token *start)
{
    struct amber_token name, t;
    if (!parse_word(p, &name, "a shader name") || !parse_end_of_line(p, "SHADER_OPTIMIZATION's shader"))
        return false;
    int64_t found = find_shader(p->script, name.text);
    struct amber_attached_shader *a = found >= 0 ? attached(pl, (uint32_t)found) : NULL;
    if (a == NULL)
        return parse_error(p, &name,
                           "SHADER_OPTIMIZATION %s: the shader is not attached to this pipeline (ATTACH it "
                           "first)",
                           name.text);
    size_t length = 0, capacity = 0;
    char *passes = NULL;
    for (;;) {
        if (!parse_block_token(p, start, &t, "SHADER_OPTIMIZATION has no END line")) {
            free(passes);
            return false;
        }
        if (amber_word_is(&t, "END"))
            break;
        if (t.kind != AMBER_TOKEN_WORD || t.text[0] != '-') {
            free(passes);
            return parse_error(p, &t, "expected an optimizer flag (as --merge-return) or END, got '%s'", t.text);
        }
        if (length + t.length + 2 > 65536) {
            free(passes);
            return parse_limit(p, &t, "SHADER_OPTIMIZATION's flags are longer than 64 KiB: beyond preflight's limit");
        }
        if (length + t.length + 2 > capacity) {
            capacity = capacity ? capacity * 2 : 256;
            while (capacity < length + t.length + 2)
                capacity *= 2;
            char *bigger = realloc(passes, capacity);
            if (bigger == NULL) {
                free(passes);
                return parse_limit(p, &t, "out of memory for SHADER_OPTIMIZATION");
            }
            passes = bigger;
        }
        memcpy(passes + length, t.text, t.length);
        length += t.length;
        passes[length++] = '\n';
        passes[length] = '\0';
    }
    free(a->passes);
    a->passes = passes; /* NULL for an empty block: no passes, as without it */
    return parse_end_of_line(p, "END");
}

/* --- BIND ------------------------------------------------------------------------------------ */

static bool needs_format(struct parser *p, const struct amber_buffer *b, const struct amber_token *at, const char *as)
{
    if (b->layout.format == VK_FORMAT_UNDEFINED)
        return parse_error(p, at, "BIND %s AS %s: the buffer needs an image format (BUFFER ... FORMAT or IMAGE)",
                           b->name, as);
    return true;
}

/* Replaces the binding at (set, binding), or adds one: a derived pipeline rebinds. */
struct amber_binding *parse_binding_slot(struct parser *p, struct amber_pipeline *pl, uint32_t set, uint32_t binding,
                                         const struct amber_token *at)
{
    for (uint32_t i = 0; i < pl->binding_count; ++i)
        if (pl->bindings[i].set == set && pl->bindings[i].binding == binding) {
            memset(&pl->bindings[i], 0, sizeof(pl->bindings[i]));
            return &pl->bindings[i];
        }
    return parse_grow(p, (void **)&pl->bindings, &pl->binding_count, sizeof(struct amber_binding), 1024, at,
                      "bindings in one pipeline");
}

static bool parse_set_and_binding(struct parser *p, uint32_t *set, uint32_t *binding)
{
    return parse_keyword(p, "DESCRIPTOR_SET", "BIND") && parse_u32(p, set, "the DESCRIPTOR_SET") &&
           parse_keyword(p, "BINDING", "BIND") && parse_u32(p, binding, "the BINDING");
}

static bool parse_offsets(struct parser *p, uint64_t *values, uint32_t count, const char *what)
{
    for (uint32_t i = 0; i < count; ++i)
        if (!parse_u64(p, &values[i], what))
            return false;
    return true;
}

static bool parse_bind_samplers(struct parser *p, struct amber_pipeline *pl, const struct amber_token *kind)
{
    bool array = amber_word_is(kind, "SAMPLER_ARRAY");
    uint32_t samplers[AMBER_MAX_ARRAY_ELEMENTS], count = 0;
    struct amber_token t;
    for (;;) {
        const struct amber_token *next = amber_lexer_peek(&p->lexer);
        if (amber_word_is(next, "DESCRIPTOR_SET") || amber_word_is(next, "KERNEL") || (count == 1 && !array))
            break;
        if (!parse_word(p, &t, "a sampler name"))
            return false;
        int64_t found = find_sampler(p->script, t.text);
        if (found < 0)
            return parse_error(p, &t, "BIND: no SAMPLER named '%s' before this line", t.text);
        if (count == AMBER_MAX_ARRAY_ELEMENTS)
            return parse_limit(p, &t, "more than %d samplers in one binding", AMBER_MAX_ARRAY_ELEMENTS);
        samplers[count++] = (uint32_t)found;
    }
    if (count == 0 || (array && count < 2))
        return parse_error(p, kind, "%s needs %s", kind->text, array ? "two or more sampler names" : "a sampler name");
    if (amber_word_is(amber_lexer_peek(&p->lexer), "KERNEL")) {
        parse_unsupported(p, kind, "BIND ... KERNEL: OpenCL kernel arguments are not supported");
        amber_lexer_skip_line(&p->lexer);
        return true;
    }
    uint32_t set, binding;
    if (!parse_set_and_binding(p, &set, &binding) || !parse_end_of_line(p, "BIND"))
        return false;
    struct amber_binding *b = parse_binding_slot(p, pl, set, binding, kind);
    if (b == NULL)
        return false;
    b->where = (struct amber_location){kind->line, kind->column};
    b->kind = AMBER_BIND_SAMPLER;
    b->set = set;
    b->binding = binding;
    b->count = count;
    memcpy(b->objects, samplers, count * sizeof(samplers[0]));
    return true;
}

static bool add_attachment(struct parser *p, struct amber_pipeline *pl, uint32_t buffer, const struct amber_token *at)
{
    const struct amber_buffer *b = &p->script->buffers[buffer];
    if (b->layout.format == VK_FORMAT_UNDEFINED || amber_format_is_depth_stencil(b->layout.format))
        return parse_error(p, at,
                           "BIND %s AS color: the buffer needs a colour format (BUFFER ... FORMAT, or a "
                           "DATA_TYPE with one, as vec4<float>)",
                           b->name);
    uint32_t location, mip = 0;
    if (!parse_keyword(p, "LOCATION", "BIND ... AS color") || !parse_u32(p, &location, "the LOCATION"))
        return false;
    if (amber_word_is(amber_lexer_peek(&p->lexer), "BASE_MIP_LEVEL")) {
        struct amber_token t;
        amber_lexer_next(&p->lexer, &t);
        if (!parse_u32(p, &mip, "the BASE_MIP_LEVEL"))
            return false;
        if (mip >= b->mip_levels)
            return parse_error(p, &t, "BASE_MIP_LEVEL %u: %s has %u mip levels", mip, b->name, b->mip_levels);
    }
    if (location >= AMBER_MAX_COLOR_ATTACHMENTS)
        return parse_error(p, at, "color LOCATION %u: preflight takes locations 0 to %d", location,
                           AMBER_MAX_COLOR_ATTACHMENTS - 1);
    for (uint32_t i = 0; i < pl->color_count; ++i)
        if (pl->colors[i].location == location || pl->colors[i].buffer == buffer) {
            pl->colors[i] = (struct amber_attachment){buffer, location, mip};
            return parse_end_of_line(p, "BIND");
        }
    pl->colors[pl->color_count++] = (struct amber_attachment){buffer, location, mip};
    return parse_end_of_line(p, "BIND");
}

static bool parse_bind(struct parser *p, struct amber_pipeline *pl, const struct amber_token *start)
{
    struct amber_token kind, t;
    if (!parse_word(p, &kind, "BUFFER, BUFFER_ARRAY, SAMPLER or SAMPLER_ARRAY"))
        return false;
    if (amber_word_is(&kind, "SAMPLER") || amber_word_is(&kind, "SAMPLER_ARRAY"))
        return parse_bind_samplers(p, pl, &kind);
    if (amber_word_is(&kind, "ACCELERATION_STRUCTURE"))
        return parse_bind_acceleration_structure(p, pl, &kind);
    if (!amber_word_is(&kind, "BUFFER") && !amber_word_is(&kind, "BUFFER_ARRAY"))
        return parse_error(p, &kind, "expected BUFFER, BUFFER_ARRAY, SAMPLER or SAMPLER_ARRAY after BIND, got '%s'",
                           kind.text);
    bool array = amber_word_is(&kind, "BUFFER_ARRAY");
    uint32_t buffers[AMBER_MAX_ARRAY_ELEMENTS], count = 0;
    for (;;) {
        const struct amber_token *next = amber_lexer_peek(&p->lexer);
        if (amber_word_is(next, "AS") || amber_word_is(next, "KERNEL") || amber_word_is(next, "DESCRIPTOR_SET") ||
            (count == 1 && !array) || next->kind == AMBER_TOKEN_END_OF_LINE || next->kind == AMBER_TOKEN_END_OF_FILE)
            break;
        if (count == AMBER_MAX_ARRAY_ELEMENTS)
            return parse_limit(p, next, "more than %d buffers in one binding", AMBER_MAX_ARRAY_ELEMENTS);
        if (!parse_buffer_ref(p, &buffers[count++], "BIND"))
            return false;
    }
    if (count == 0 || (array && count < 2))
        return parse_error(p, &kind, "%s needs %s", kind.text, array ? "two or more buffer names" : "a buffer name");
    const struct amber_buffer *first = &p->script->buffers[buffers[0]];
    amber_lexer_next(&p->lexer, &t);
    if (amber_word_is(&t, "KERNEL") ||
        (amber_word_is(&t, "AS") && amber_word_is(amber_lexer_peek(&p->lexer), "KERNEL"))) {
        parse_unsupported(p, &t, "BIND ... KERNEL: OpenCL kernel arguments are not supported");
        amber_lexer_skip_line(&p->lexer);
        return true;
    }
    if (!amber_word_is(&t, "AS"))
        return parse_error(p, &t, "expected AS after the buffer name, got '%s'", t.text);
    struct amber_token as;
    if (!parse_word(p, &as, "a buffer type"))
        return false;
    if (amber_word_is(&as, "color"))
        return !array ? add_attachment(p, pl, buffers[0], &as) : parse_error(p, &as, "BUFFER_ARRAY cannot be color");
    if (amber_word_is(&as, "depth_stencil")) {
        if (array || !first->layout.is_format || !amber_format_is_depth_stencil(first->layout.format))
            return parse_error(p, &as, "BIND %s AS depth_stencil: the buffer needs a depth/stencil FORMAT",
                               first->name);
        pl->depth_stencil = buffers[0];
        return parse_end_of_line(p, "BIND");
    }
    if (amber_word_is(&as, "resolve")) {
        if (array || first->layout.format == VK_FORMAT_UNDEFINED)
            return parse_error(p, &as, "BIND %s AS resolve: the buffer needs an image FORMAT", first->name);
        if (pl->resolve_count == AMBER_MAX_COLOR_ATTACHMENTS)
            return parse_error(p, &as, "more resolve targets than colour attachments can have");
        pl->resolves[pl->resolve_count++] = buffers[0];
        return parse_end_of_line(p, "BIND");
    }
    if (amber_word_is(&as, "push_constant")) {
        if (array)
            return parse_error(p, &as, "BUFFER_ARRAY cannot be push_constant");
        pl->push_constants = buffers[0];
        return parse_end_of_line(p, "BIND");
    }
    int kind_index = -1;
    for (int i = 0; bind_kind_names[i]; ++i)
        if (amber_word_is(&as, bind_kind_names[i]))
            kind_index = i;
    if (kind_index < 0)
        return parse_error(p, &as,
                           "expected a buffer type (uniform, storage, uniform_dynamic, storage_dynamic, "
                           "uniform_texel_buffer, storage_texel_buffer, storage_image, sampled_image, "
                           "combined_image_sampler, color, depth_stencil, resolve, push_constant), got '%s'",
                           as.text);
    enum amber_bind_kind bind_kind = (enum amber_bind_kind)kind_index;
    uint32_t sampler = 0;
    if (bind_kind == AMBER_BIND_COMBINED_IMAGE_SAMPLER) {
        struct amber_token name;
        if (!parse_keyword(p, "SAMPLER", "BIND ... AS combined_image_sampler") ||
            !parse_word(p, &name, "a sampler name"))
            return false;
        int64_t found = find_sampler(p->script, name.text);
        if (found < 0)
            return parse_error(p, &name, "BIND: no SAMPLER named '%s' before this line", name.text);
        sampler = (uint32_t)found;
    }
    if (!is_plain_buffer(bind_kind))
        for (uint32_t i = 0; i < count; ++i)
            if (!needs_format(p, &p->script->buffers[buffers[i]], &as, as.text))
                return false;
    if (amber_word_is(amber_lexer_peek(&p->lexer), "KERNEL")) {
        parse_unsupported(p, &as, "BIND ... KERNEL: OpenCL kernel arguments are not supported");
        amber_lexer_skip_line(&p->lexer);
        return true;
    }
    uint32_t set, binding;
    if (!parse_set_and_binding(p, &set, &binding))
        return false;
    struct amber_binding *b = parse_binding_slot(p, pl, set, binding, start);
    if (b == NULL)
        return false;
    b->where = (struct amber_location){start->line, start->column};
    b->kind = bind_kind;
    b->set = set;
    b->binding = binding;
    b->count = count;
    b->sampler = sampler;
    memcpy(b->objects, buffers, count * sizeof(buffers[0]));
    for (uint32_t i = 0; i < count; ++i)
        b->descriptor_ranges[i] = UINT64_MAX;
    for (;;) {
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_LINE || t.kind == AMBER_TOKEN_END_OF_FILE)
            break;
        bool ok;
        if (amber_word_is(&t, "BASE_MIP_LEVEL") && !is_plain_buffer(bind_kind)) {
            ok = parse_u32(p, &b->base_mip_level, "the BASE_MIP_LEVEL");
            if (ok && b->base_mip_level >= first->mip_levels)
                return parse_error(p, &t, "BASE_MIP_LEVEL %u: %s has %u mip levels", b->base_mip_level, first->name,
                                   first->mip_levels);
        } else if (amber_word_is(&t, "OFFSET") && is_dynamic(bind_kind)) {
            ok = parse_offsets(p, b->dynamic_offsets, count, "the dynamic OFFSET of each buffer");
        } else if (amber_word_is(&t, "DESCRIPTOR_OFFSET") && is_plain_buffer(bind_kind)) {
            ok = parse_offsets(p, b->descriptor_offsets, count, "the DESCRIPTOR_OFFSET of each buffer");
        } else if (amber_word_is(&t, "DESCRIPTOR_RANGE") && is_plain_buffer(bind_kind)) {
            ok = parse_offsets(p, b->descriptor_ranges, count, "the DESCRIPTOR_RANGE of each buffer");
        } else {
            return parse_error(p, &t, "unexpected '%s' in BIND ... AS %s", t.text, as.text);
        }
        if (!ok)
            return false;
    }
    return true;
}

/* --- the rest of the body -------------------------------------------------------------------- */

static bool parse_vertex_data(struct parser *p, struct amber_pipeline *pl, const struct amber_token *start)
{
    struct amber_vertex_input v = {0};
    struct amber_token t;
    if (!parse_buffer_ref(p, &v.buffer, "VERTEX_DATA") || !parse_keyword(p, "LOCATION", "VERTEX_DATA") ||
        !parse_u32(p, &v.location, "the LOCATION"))
        return false;
    const struct amber_buffer *b = &p->script->buffers[v.buffer];
    uint32_t format_stride = b->layout.stride;
    for (;;) {
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_LINE || t.kind == AMBER_TOKEN_END_OF_FILE)
            break;
        bool ok;
        if (amber_word_is(&t, "RATE")) {
            static const char *const rates[] = {"vertex", "instance", NULL};
            static const uint32_t values[] = {0, 1};
            uint32_t rate;
            ok = parse_choice(p, rates, values, &rate, "a RATE");
            v.per_instance = rate == 1;
        } else if (amber_word_is(&t, "OFFSET")) {
            ok = parse_u32(p, &v.offset, "the OFFSET");
        } else if (amber_word_is(&t, "STRIDE")) {
            ok = parse_u32(p, &v.stride, "the STRIDE");
            if (ok && v.stride == 0)
                return parse_error(p, &t, "STRIDE must not be 0");
        } else if (amber_word_is(&t, "FORMAT")) {
            struct amber_token name;
            struct amber_type type;
            ok = parse_word(p, &name, "a format");
            if (ok && !amber_type_parse(name.text, NULL, 0, &type))
                return parse_error(p, &name, "unknown vertex FORMAT '%s'", name.text);
            if (ok) {
                struct amber_layout layout;
                char error[160];
                if (!amber_layout_build(&type, false, NULL, 0, &layout, error, sizeof(error)))
                    return parse_error(p, &name, "%s", error);
                v.format = layout.format;
                format_stride = layout.stride;
                amber_layout_free(&layout);
            }
        } else {
            return parse_error(p, &t, "expected RATE, FORMAT, OFFSET, STRIDE or the end of the line, got '%s'", t.text);
        }
        if (!ok)
            return false;
    }
    if (v.format == VK_FORMAT_UNDEFINED)
        v.format = b->layout.format;
    if (v.format == VK_FORMAT_UNDEFINED)
        return parse_error(p, start, "VERTEX_DATA %s: its data type has no vertex format (give FORMAT)", b->name);
    if (v.stride == 0)
        v.stride = format_stride;
    v.size = format_stride;
    for (uint32_t i = 0; i < pl->vertex_input_count; ++i)
        if (pl->vertex_inputs[i].location == v.location) {
            pl->vertex_inputs[i] = v;
            return true;
        }
    if (pl->vertex_input_count == AMBER_MAX_VERTEX_INPUTS)
        return parse_limit(p, start, "more than %d VERTEX_DATA", AMBER_MAX_VERTEX_INPUTS);
    pl->vertex_inputs[pl->vertex_input_count++] = v;
    return true;
}

static bool parse_index_data(struct parser *p, struct amber_pipeline *pl)
{
    uint32_t buffer;
    if (!parse_buffer_ref(p, &buffer, "INDEX_DATA") || !parse_end_of_line(p, "INDEX_DATA"))
        return false;
    const struct amber_buffer *b = &p->script->buffers[buffer];
    if (b->layout.count != 1 || amber_mode_is_float(b->layout.segments[0].mode) ||
        (b->layout.segments[0].bits != 8 && b->layout.segments[0].bits != 16 && b->layout.segments[0].bits != 32) ||
        b->layout.stride != b->layout.segments[0].bits / 8u) {
        struct amber_token at = {.line = p->lexer.line - 1, .column = 1};
        return parse_error(p, &at,
                           "INDEX_DATA %s: indices are 8-, 16- or 32-bit integers (uint8 with "
                           "VK_EXT_index_type_uint8, uint16, uint32)",
                           b->name);
    }
    pl->index_buffer = buffer;
    return true;
}

static bool parse_framebuffer_size(struct parser *p, struct amber_pipeline *pl, const struct amber_token *start)
{
    if (!parse_u32(p, &pl->width, "the width") || !parse_u32(p, &pl->height, "the height") ||
        !parse_end_of_line(p, "FRAMEBUFFER_SIZE"))
        return false;
    pl->framebuffer_set = true;
    if (pl->width == 0 || pl->height == 0 || pl->width > AMBER_MAX_IMAGE_SIDE || pl->height > AMBER_MAX_IMAGE_SIDE)
        return parse_error(p, start, "FRAMEBUFFER_SIZE must be 1 to %u on each side", AMBER_MAX_IMAGE_SIDE);
    return true;
}

static bool parse_viewport(struct parser *p, struct amber_pipeline *pl)
{
    float *v = pl->viewport;
    if (!parse_float(p, &v[0], "the viewport's x") || !parse_float(p, &v[1], "the viewport's y") ||
        !parse_keyword(p, "SIZE", "VIEWPORT") || !parse_float(p, &v[2], "the viewport's width") ||
        !parse_float(p, &v[3], "the viewport's height"))
        return false;
    v[4] = 0.0f;
    v[5] = 1.0f;
    struct amber_token t;
    for (;;) {
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_LINE || t.kind == AMBER_TOKEN_END_OF_FILE)
            break;
        if (amber_word_is(&t, "MIN_DEPTH")) {
            if (!parse_float(p, &v[4], "MIN_DEPTH"))
                return false;
        } else if (amber_word_is(&t, "MAX_DEPTH")) {
            if (!parse_float(p, &v[5], "MAX_DEPTH"))
                return false;
        } else {
            return parse_error(p, &t, "expected MIN_DEPTH, MAX_DEPTH or the end of the line, got '%s'", t.text);
        }
    }
    pl->viewport_set = true;
    return true;
}

/* A block of `KEY value` lines up to END; `line` parses one. */
static bool parse_state_block(struct parser *p, struct amber_pipeline *pl, const struct amber_token *start,
                              bool (*line)(struct parser *, struct amber_pipeline *, const struct amber_token *,
                                           void *),
                              void *context)
{
    struct amber_token t;
    for (;;) {
        if (!parse_block_token(p, start, &t, "%s has no END line", start->text))
            return false;
        if (amber_word_is(&t, "END"))
            return parse_end_of_line(p, "END");
        if (!line(p, pl, &t, context) || !parse_end_of_line(p, t.text))
            return false;
    }
}

static bool depth_line(struct parser *p, struct amber_pipeline *pl, const struct amber_token *t, void *context)
{
    (void)context;
    struct amber_depth_state *d = &pl->depth;
    if (amber_word_is(t, "TEST"))
        return parse_on_off(p, &d->test, "TEST");
    if (amber_word_is(t, "WRITE"))
        return parse_on_off(p, &d->write, "WRITE");
    if (amber_word_is(t, "CLAMP"))
        return parse_on_off(p, &d->clamp, "CLAMP");
    if (amber_word_is(t, "COMPARE_OP"))
        return parse_compare_op(p, &d->compare_op);
    if (amber_word_is(t, "BOUNDS")) {
        d->bounds = true;
        return parse_keyword(p, "min", "BOUNDS") && parse_float(p, &d->min_bounds, "the min bound") &&
               parse_keyword(p, "max", "BOUNDS") && parse_float(p, &d->max_bounds, "the max bound");
    }
    if (amber_word_is(t, "BIAS")) {
        d->bias = true;
        return parse_keyword(p, "constant", "BIAS") && parse_float(p, &d->bias_constant, "the constant") &&
               parse_keyword(p, "clamp", "BIAS") && parse_float(p, &d->bias_clamp, "the clamp") &&
               parse_keyword(p, "slope", "BIAS") && parse_float(p, &d->bias_slope, "the slope");
    }
    return parse_error(p, t, "expected TEST, WRITE, COMPARE_OP, CLAMP, BOUNDS, BIAS or END in DEPTH, got '%s'",
                       t->text);
}

static bool stencil_line(struct parser *p, struct amber_pipeline *pl, const struct amber_token *t, void *context)
{
    const uint32_t faces = *(const uint32_t *)context; /* 1 front, 2 back */
    static const char *const ops[] = {"keep",
                                      "zero",
                                      "replace",
                                      "increment_and_clamp",
                                      "decrement_and_clamp",
                                      "invert",
                                      "increment_and_wrap",
                                      "decrement_and_wrap",
                                      NULL};
    static const uint32_t op_values[] = {0, 1, 2, 3, 4, 5, 6, 7}; /* VkStencilOp */
    if (amber_word_is(t, "TEST"))
        return parse_on_off(p, &pl->stencil_test, "TEST");
    uint32_t value;
    size_t field;
    bool ok;
    if (amber_word_is(t, "FAIL_OP") || amber_word_is(t, "PASS_OP") || amber_word_is(t, "DEPTH_FAIL_OP")) {
        ok = parse_choice(p, ops, op_values, &value, "a stencil operation");
        field = amber_word_is(t, "FAIL_OP")   ? offsetof(struct amber_stencil_face, fail_op)
                : amber_word_is(t, "PASS_OP") ? offsetof(struct amber_stencil_face, pass_op)
                                              : offsetof(struct amber_stencil_face, depth_fail_op);
    } else if (amber_word_is(t, "COMPARE_OP")) {
        ok = parse_compare_op(p, &value);
        field = offsetof(struct amber_stencil_face, compare_op);
    } else if (amber_word_is(t, "COMPARE_MASK") || amber_word_is(t, "WRITE_MASK") || amber_word_is(t, "REFERENCE")) {
        ok = parse_u32(p, &value, t->text);
        if (ok && value > 255)
            return parse_error(p, t, "%s must be 0 to 255, not %u", t->text, value);
        field = amber_word_is(t, "COMPARE_MASK") ? offsetof(struct amber_stencil_face, compare_mask)
                : amber_word_is(t, "WRITE_MASK") ? offsetof(struct amber_stencil_face, write_mask)
                                                 : offsetof(struct amber_stencil_face, reference);
    } else {
        return parse_error(p, t,
                           "expected TEST, FAIL_OP, PASS_OP, DEPTH_FAIL_OP, COMPARE_OP, COMPARE_MASK, WRITE_MASK, "
                           "REFERENCE or END in STENCIL, got '%s'",
                           t->text);
    }
    if (!ok)
        return false;
    if (faces & 1)
        *(uint32_t *)((char *)&pl->stencil_front + field) = value;
    if (faces & 2)
        *(uint32_t *)((char *)&pl->stencil_back + field) = value;
    return true;
}

static bool blend_line(struct parser *p, struct amber_pipeline *pl, const struct amber_token *t, void *context)
{
    (void)context;
    static const char *const factors[] = {"zero",
                                          "one",
                                          "src_color",
                                          "one_minus_src_color",
                                          "dst_color",
                                          "one_minus_dst_color",
                                          "src_alpha",
                                          "one_minus_src_alpha",
                                          "dst_alpha",
                                          "one_minus_dst_alpha",
                                          "constant_color",
                                          "one_minus_constant_color",
                                          "constant_alpha",
                                          "one_minus_constant_alpha",
                                          "src_alpha_saturate",
                                          "src1_color",
                                          "one_minus_src1_color",
                                          "src1_alpha",
                                          "one_minus_src1_alpha",
                                          NULL};
    static const uint32_t factor_values[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18};
    /* the basic operations, then VK_EXT_blend_operation_advanced's in its enum order */
    static const char *const ops[] = {"add",
                                      "substract",
                                      "reverse_substract",
                                      "min",
                                      "max",
                                      "zero",
                                      "src",
                                      "dst",
                                      "src_over",
                                      "dst_over",
                                      "src_in",
                                      "dst_in",
                                      "src_out",
                                      "dst_out",
                                      "src_atop",
                                      "dst_atop",
                                      "xor",
                                      "multiply",
                                      "screen",
                                      "overlay",
                                      "darken",
                                      "lighten",
                                      "color_dodge",
                                      "color_burn",
                                      "hard_light",
                                      "soft_light",
                                      "difference",
                                      "exclusion",
                                      "invert",
                                      "invert_rgb",
                                      "linear_dodge",
                                      "linear_burn",
                                      "vivid_light",
                                      "linear_light",
                                      "pin_light",
                                      "hard_mix",
                                      "hsl_hue",
                                      "hsl_saturation",
                                      "hsl_color",
                                      "hsl_luminosity",
                                      "plus",
                                      "plus_clamped",
                                      "plus_clamped_alpha",
                                      "plus_darker",
                                      "minus",
                                      "minus_clamped",
                                      "contrast",
                                      "invert_org",
                                      "red",
                                      "green",
                                      "blue",
                                      NULL};
    uint32_t op_values[sizeof(ops) / sizeof(ops[0])];
    for (uint32_t i = 0; i < sizeof(ops) / sizeof(ops[0]); ++i)
        op_values[i] = i < 5 ? i : (uint32_t)VK_BLEND_OP_ZERO_EXT + (i - 5);
    struct amber_blend_state *b = &pl->blend;
    b->enable = true;
    if (amber_word_is(t, "SRC_COLOR_FACTOR"))
        return parse_choice(p, factors, factor_values, &b->src_color, "a blend factor");
    if (amber_word_is(t, "DST_COLOR_FACTOR"))
        return parse_choice(p, factors, factor_values, &b->dst_color, "a blend factor");
    if (amber_word_is(t, "SRC_ALPHA_FACTOR"))
        return parse_choice(p, factors, factor_values, &b->src_alpha, "a blend factor");
    if (amber_word_is(t, "DST_ALPHA_FACTOR"))
        return parse_choice(p, factors, factor_values, &b->dst_alpha, "a blend factor");
    if (amber_word_is(t, "COLOR_OP"))
        return parse_choice(p, ops, op_values, &b->color_op, "a blend operation");
    if (amber_word_is(t, "ALPHA_OP"))
        return parse_choice(p, ops, op_values, &b->alpha_op, "a blend operation");
    return parse_error(p, t,
                       "expected SRC_COLOR_FACTOR, DST_COLOR_FACTOR, COLOR_OP, SRC_ALPHA_FACTOR, DST_ALPHA_FACTOR, "
                       "ALPHA_OP or END in BLEND, got '%s'",
                       t->text);
}

/* The colour attachment a graphics pipeline without one gets: B8G8R8A8_UNORM, shared by every
 * such pipeline under the name `framebuffer`, as Amber does. */
static bool default_color(struct parser *p, struct amber_pipeline *pl, const struct amber_token *at)
{
    int64_t found = find_buffer(p->script, "framebuffer");
    if (found < 0) {
        struct amber_buffer *b = parse_grow(p, (void **)&p->script->buffers, &p->script->buffer_count, sizeof(*b),
                                            AMBER_MAX_OBJECTS, at, "buffers and images");
        if (b == NULL)
            return false;
        snprintf(b->name, sizeof(b->name), "framebuffer");
        b->where = (struct amber_location){at->line, at->column};
        amber_type_parse("B8G8R8A8_UNORM", NULL, 0, &b->type);
        char error[128];
        if (!amber_layout_build(&b->type, false, NULL, 0, &b->layout, error, sizeof(error)))
            return parse_error(p, at, "%s", error);
        b->sized_by_framebuffer = true;
        b->dimension = AMBER_DIM_2D;
        b->mip_levels = b->samples = 1;
        found = p->script->buffer_count - 1;
    }
    if (!p->script->buffers[found].layout.is_format)
        return parse_error(p, at, "the buffer 'framebuffer' is not an image, so it cannot be the default attachment");
    pl->colors[pl->color_count++] = (struct amber_attachment){(uint32_t)found, 0, 0};
    return true;
}

/* An attachment's size at mip level 0: the framebuffer's, times two per BASE_MIP_LEVEL. */
static void attachment_extent(const struct amber_pipeline *pl, uint32_t mip, uint32_t *width, uint32_t *height)
{
    *width = mip < 16 ? pl->width << mip : 0;
    *height = mip < 16 ? pl->height << mip : 0;
}

/* A buffer sized by the framebuffer is one size for every pipeline that draws into it; an IMAGE
 * holds the framebuffer at its mip level. */
static bool same_framebuffer(struct parser *p, const struct amber_pipeline *pl, uint32_t buffer, uint32_t mip,
                             const struct amber_token *at)
{
    struct amber_buffer *b = &p->script->buffers[buffer];
    uint32_t width, height;
    attachment_extent(pl, mip, &width, &height);
    if (!b->sized_by_framebuffer && b->dimension == AMBER_DIM_NONE && b->layout.format != VK_FORMAT_UNDEFINED &&
        b->layout.count != 3 && b->layout.count <= 4 && mip == 0) {
        /* a DATA_TYPE buffer drawn into is an image of the framebuffer's size, its values the texels
         * row by row, as Amber makes it (SIZE or FILL and SERIES_FROM of fewer elements grow to it) */
        uint64_t texels = (uint64_t)width * height;
        if (b->init == AMBER_INIT_BYTES && b->element_count < texels)
            return parse_error(p, at, "PIPELINE %s: %s has %llu values, fewer than the %ux%u framebuffer's texels",
                               pl->name, b->name, (unsigned long long)b->element_count, width, height);
        if (b->element_count < texels)
            b->element_count = texels;
        b->dimension = AMBER_DIM_2D;
        b->width = width;
        b->height = height;
        b->depth = 1;
        if (b->mip_levels == 0)
            b->mip_levels = 1;
        if (b->samples == 0)
            b->samples = 1;
    }
    if (!b->sized_by_framebuffer) {
        if (b->width >> mip < pl->width || b->height >> mip < pl->height)
            return parse_error(p, at, "PIPELINE %s: %s (%ux%u at mip level %u) is smaller than the %ux%u framebuffer",
                               pl->name, b->name, b->width >> mip, b->height >> mip, mip, pl->width, pl->height);
        return true;
    }
    for (uint32_t i = 0; i < p->script->pipeline_count; ++i) {
        const struct amber_pipeline *other = &p->script->pipelines[i];
        uint32_t other_width = 0, other_height = 0;
        if (other->depth_stencil == (int64_t)buffer)
            attachment_extent(other, 0, &other_width, &other_height);
        for (uint32_t c = 0; c < other->color_count; ++c)
            if (other->colors[c].buffer == buffer)
                attachment_extent(other, other->colors[c].base_mip_level, &other_width, &other_height);
        if (other_width && (other_width != width || other_height != height))
            return parse_error(p, at, "PIPELINE %s: %s is %ux%u as an attachment of PIPELINE %s, not %ux%u", pl->name,
                               b->name, other_width, other_height, other->name, width, height);
    }
    return true;
}

/* Without FRAMEBUFFER_SIZE, a pipeline drawing into an IMAGE draws its size. */
static void framebuffer_from_images(struct parser *p, struct amber_pipeline *pl)
{
    if (pl->framebuffer_set)
        return;
    for (uint32_t i = 0; i < pl->color_count; ++i) {
        const struct amber_buffer *b = &p->script->buffers[pl->colors[i].buffer];
        if (!b->sized_by_framebuffer && b->width) {
            uint32_t mip = pl->colors[i].base_mip_level;
            pl->width = b->width >> mip ? b->width >> mip : 1;
            pl->height = b->height >> mip ? b->height >> mip : 1;
            return;
        }
    }
}

static bool check_pipeline(struct parser *p, struct amber_pipeline *pl, const struct amber_token *at)
{
    if (pl->type == AMBER_PIPELINE_RAY_TRACING)
        return parse_check_ray_tracing(p, pl, at);
    bool stages[AMBER_STAGE_MULTI] = {false};
    for (uint32_t i = 0; i < pl->shader_count; ++i)
        stages[pl->shaders[i].stage] = true;
    if (pl->type == AMBER_PIPELINE_COMPUTE) {
        if (!stages[AMBER_STAGE_COMPUTE])
            return parse_error(p, at, "PIPELINE %s: a compute pipeline needs a compute shader (ATTACH)", pl->name);
        if (pl->color_count || pl->depth_stencil >= 0 || pl->vertex_input_count || pl->index_buffer >= 0)
            return parse_error(p, at, "PIPELINE %s: a compute pipeline has no attachments or vertex data", pl->name);
        return true;
    }
    if (!stages[AMBER_STAGE_VERTEX] || !stages[AMBER_STAGE_FRAGMENT])
        return parse_error(p, at, "PIPELINE %s: a graphics pipeline needs a vertex and a fragment shader", pl->name);
    if (pl->color_count == 0 && !default_color(p, pl, at))
        return false;
    framebuffer_from_images(p, pl);
    for (uint32_t i = 0; i < pl->color_count; ++i)
        if (!same_framebuffer(p, pl, pl->colors[i].buffer, pl->colors[i].base_mip_level, at))
            return false;
    if (pl->depth_stencil >= 0 && !same_framebuffer(p, pl, (uint32_t)pl->depth_stencil, 0, at))
        return false;
    for (uint32_t i = 0; i < pl->resolve_count; ++i)
        if (!same_framebuffer(p, pl, pl->resolves[i], 0, at))
            return false;
    return true;
}

static bool parse_body_line(struct parser *p, uint32_t self, struct amber_pipeline *pl, const struct amber_token *t)
{
    if (parse_is_ray_tracing_line(t))
        return parse_ray_tracing_line(p, self, pl, t);
    if (amber_word_is(t, "ATTACH"))
        return parse_attach(p, pl, t);
    if (amber_word_is(t, "BIND"))
        return parse_bind(p, pl, t);
    if (amber_word_is(t, "VERTEX_DATA"))
        return parse_vertex_data(p, pl, t);
    if (amber_word_is(t, "INDEX_DATA"))
        return parse_index_data(p, pl);
    if (amber_word_is(t, "FRAMEBUFFER_SIZE"))
        return parse_framebuffer_size(p, pl, t);
    if (amber_word_is(t, "VIEWPORT"))
        return parse_viewport(p, pl);
    if (amber_word_is(t, "SUBGROUP"))
        return parse_subgroup(p, pl, t);
    if (amber_word_is(t, "POLYGON_MODE")) {
        static const char *const modes[] = {"fill", "line", "point", NULL};
        static const uint32_t values[] = {VK_POLYGON_MODE_FILL, VK_POLYGON_MODE_LINE, VK_POLYGON_MODE_POINT};
        return parse_choice(p, modes, values, &pl->polygon_mode, "a polygon mode") &&
               parse_end_of_line(p, "POLYGON_MODE");
    }
    if (amber_word_is(t, "PATCH_CONTROL_POINTS")) {
        if (!parse_u32(p, &pl->patch_control_points, "the number of control points") ||
            !parse_end_of_line(p, "PATCH_CONTROL_POINTS"))
            return false;
        if (pl->patch_control_points == 0 || pl->patch_control_points > 32)
            return parse_error(p, t, "PATCH_CONTROL_POINTS must be 1 to 32");
        return true;
    }
    if (amber_word_is(t, "DEPTH"))
        return parse_end_of_line(p, "DEPTH") && parse_state_block(p, pl, t, depth_line, NULL);
    if (amber_word_is(t, "STENCIL")) {
        static const char *const faces[] = {"front", "back", "front_and_back", NULL};
        static const uint32_t values[] = {1, 2, 3};
        uint32_t face;
        return parse_choice(p, faces, values, &face, "a face") && parse_end_of_line(p, "STENCIL's face") &&
               parse_state_block(p, pl, t, stencil_line, &face);
    }
    if (amber_word_is(t, "BLEND"))
        return parse_end_of_line(p, "BLEND") && parse_state_block(p, pl, t, blend_line, NULL);
    if (amber_word_is(t, "SHADER_OPTIMIZATION"))
        return parse_optimization(p, pl, t);
    if (amber_word_is(t, "COMPILE_OPTIONS")) {
        parse_unsupported(p, t, "COMPILE_OPTIONS: compile options are for OpenCL C shaders, which are not supported");
        return parse_skip_block(p, t) && parse_end_of_line(p, "END");
    }
    if (amber_word_is(t, "SET")) {
        parse_unsupported(p, t, "SET KERNEL: OpenCL kernel arguments are not supported");
        amber_lexer_skip_line(&p->lexer);
        return true;
    }
    return parse_error(p, t,
                       "expected a pipeline command (ATTACH, BIND, VERTEX_DATA, INDEX_DATA, FRAMEBUFFER_SIZE, "
                       "VIEWPORT, DEPTH, STENCIL, BLEND, POLYGON_MODE, PATCH_CONTROL_POINTS, SUBGROUP, SHADER_GROUP, "
                       "SHADER_BINDING_TABLE, ...) or END, got '%s'",
                       t->text);
}

void parse_free_pipeline_parts(struct amber_pipeline *pl)
{
    for (uint32_t i = 0; i < pl->shader_count; ++i) {
        free(pl->shaders[i].passes);
        pl->shaders[i].passes = NULL;
    }
    for (uint32_t i = 0; i < pl->sbt_count; ++i)
        free(pl->sbts[i].records);
    free(pl->sbts);
    free(pl->groups);
    pl->sbts = NULL;
    pl->groups = NULL;
    pl->sbt_count = pl->group_count = 0;
}

void parse_pipeline_defaults(struct amber_pipeline *pl)
{
    pl->push_constants = pl->depth_stencil = pl->index_buffer = -1;
    pl->width = pl->height = AMBER_DEFAULT_FRAMEBUFFER;
    pl->polygon_mode = VK_POLYGON_MODE_FILL;
    pl->patch_control_points = 3;
    pl->depth.compare_op = VK_COMPARE_OP_ALWAYS; /* Amber's default (its PipelineData), not Vulkan's habit of LESS */
    pl->depth.max_bounds = 1.0f;
    pl->stencil_front.compare_op = pl->stencil_back.compare_op = VK_COMPARE_OP_ALWAYS;
    pl->stencil_front.compare_mask = pl->stencil_back.compare_mask = 0xFF;
    pl->stencil_front.write_mask = pl->stencil_back.write_mask = 0xFF;
    pl->blend.src_color = pl->blend.src_alpha = VK_BLEND_FACTOR_ONE;
    pl->blend.dst_color = pl->blend.dst_alpha = VK_BLEND_FACTOR_ZERO;
    /* as Amber draws: both faces, counter-clockwise in front */
    pl->raster.cull_mode = VK_CULL_MODE_NONE;
    pl->raster.front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    pl->raster.line_width = 1.0f;
    pl->raster.color_write_mask = 0xF;
    pl->raster.logic_op = VK_LOGIC_OP_COPY;
}

bool parse_pipeline_block(struct parser *p, const struct amber_token *start, bool derive)
{
    struct amber_pipeline pl;
    memset(&pl, 0, sizeof(pl));
    parse_pipeline_defaults(&pl);
    struct amber_token t, name;
    uint32_t self = p->script->pipeline_count; /* where it will be stored */
    if (!derive) {
        if (!parse_word(p, &t, "compute, graphics or ray_tracing"))
            return false;
        /* ray_tracing as documented; raytracing as Amber's parser takes it */
        if (amber_word_is(&t, "ray_tracing") || amber_word_is(&t, "raytracing"))
            pl.type = AMBER_PIPELINE_RAY_TRACING;
        else if (amber_word_is(&t, "compute") || amber_word_is(&t, "graphics"))
            pl.type = amber_word_is(&t, "compute") ? AMBER_PIPELINE_COMPUTE : AMBER_PIPELINE_GRAPHICS;
        else
            return parse_error(p, &t, "expected compute, graphics or ray_tracing, got '%s'", t.text);
    }
    if (!parse_word(p, &name, "a pipeline name"))
        return false;
    if (find_pipeline(p->script, name.text) >= 0)
        return parse_error(p, &name, "a PIPELINE named '%s' exists already", name.text);
    if (name.length >= AMBER_NAME_MAX)
        return parse_error(p, &name, "a name longer than %d characters", AMBER_NAME_MAX - 1);
    if (derive) {
        uint32_t parent;
        if (!parse_keyword(p, "FROM", "DERIVE_PIPELINE") || !parse_pipeline_ref(p, &parent, "DERIVE_PIPELINE"))
            return false;
        pl = p->script->pipelines[parent];
        pl.bindings = NULL;
        bool copied = parse_copy_ray_tracing(&pl, &p->script->pipelines[parent], parent, self);
        for (uint32_t i = 0; i < pl.shader_count; ++i)
            if (pl.shaders[i].passes != NULL && (pl.shaders[i].passes = strdup(pl.shaders[i].passes)) == NULL)
                copied = false;
        if (copied && pl.binding_count) {
            pl.bindings = malloc(pl.binding_count * sizeof(*pl.bindings));
            copied = pl.bindings != NULL;
            if (copied)
                memcpy(pl.bindings, p->script->pipelines[parent].bindings, pl.binding_count * sizeof(*pl.bindings));
        }
        if (!copied) {
            free(pl.bindings);
            parse_free_pipeline_parts(&pl);
            return parse_limit(p, start, "out of memory for a pipeline");
        }
    }
    parse_copy(pl.name, sizeof(pl.name), name.text);
    pl.where = (struct amber_location){start->line, start->column};
    bool ok = parse_end_of_line(p, start->text);
    while (ok && !p->stop) {
        if (!parse_block_token(p, start, &t, "PIPELINE %s has no END line", pl.name)) {
            ok = false;
            break;
        }
        if (amber_word_is(&t, "END")) {
            ok = parse_end_of_line(p, "END") && check_pipeline(p, &pl, start);
            break;
        }
        ok = parse_body_line(p, self, &pl, &t);
    }
    if (!ok || p->stop) {
        free(pl.bindings);
        parse_free_pipeline_parts(&pl);
        return false;
    }
    struct amber_pipeline *slot = parse_grow(p, (void **)&p->script->pipelines, &p->script->pipeline_count,
                                             sizeof(*slot), AMBER_MAX_OBJECTS, start, "pipelines");
    if (slot == NULL) {
        free(pl.bindings);
        parse_free_pipeline_parts(&pl);
        return false;
    }
    *slot = pl;
    return true;
}
