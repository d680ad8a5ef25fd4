/* The file level of AmberScript: #!amber, SHADER, BUFFER, IMAGE, SAMPLER, STRUCT, the device
 * requirements, SET, VIRTUAL_FILE, and the dispatch to pipelines and commands. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"
#include "feature_names.h"

/* --- diagnostics ----------------------------------------------------------------------------- */

static void record(struct parser *p, enum amber_parse_status status, const struct amber_token *at, const char *format,
                   va_list args)
{
    struct amber_diagnostic *d = p->diagnostic;
    d->status = status;
    d->line = at ? at->line : p->lexer.line;
    d->column = at ? at->column : 1;
    vsnprintf(d->message, sizeof(d->message), format, args);
}

/* `{name}`: a placeholder of a template that a generator fills in (the CTS's ldexp/template.amber) */
static bool is_placeholder(const struct amber_token *t)
{
    size_t n = t != NULL && t->kind == AMBER_TOKEN_WORD ? strlen(t->text) : 0;
    if (n < 3 || t->text[0] != '{' || t->text[n - 1] != '}')
        return false;
    for (size_t i = 1; i + 1 < n; ++i)
        if (!(isalnum((unsigned char)t->text[i]) || t->text[i] == '_'))
            return false;
    return true;
}

static bool parse_verror(struct parser *p, const struct amber_token *at, const char *format, va_list args)
{
    /* the first problem in the file's order is the one reported: after a command preflight does
     * not run, what follows may only look wrong because of it */
    if (p->diagnostic->status == AMBER_PARSED && is_placeholder(at)) {
        parse_unsupported(p, at, "'%s' is a placeholder: the file is a template for a generator to fill in, not a test",
                          at->text);
        p->stop = true;
        return false;
    }
    if (p->diagnostic->status == AMBER_PARSED)
        record(p, AMBER_SYNTAX_ERROR, at, format, args);
    p->stop = true;
    return false;
}

bool parse_error(struct parser *p, const struct amber_token *at, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    parse_verror(p, at, format, args);
    va_end(args);
    return false;
}

bool parse_unsupported(struct parser *p, const struct amber_token *at, const char *format, ...)
{
    if (p->diagnostic->status == AMBER_PARSED) {
        va_list args;
        va_start(args, format);
        record(p, AMBER_NOT_SUPPORTED, at, format, args);
        va_end(args);
    }
    return true;
}

bool parse_limit(struct parser *p, const struct amber_token *at, const char *format, ...)
{
    if (p->diagnostic->status == AMBER_PARSED) {
        va_list args;
        va_start(args, format);
        record(p, AMBER_NOT_SUPPORTED, at, format, args);
        va_end(args);
    }
    p->stop = true;
    return false;
}

void parse_copy(char *to, size_t size, const char *from)
{
    size_t length = strnlen(from, size - 1);
    memcpy(to, from, length);
    to[length] = '\0';
}

/* --- tokens ---------------------------------------------------------------------------------- */

static const char *shown(const struct amber_token *t)
{
    switch (t->kind) {
    case AMBER_TOKEN_END_OF_FILE:
        return "the end of the file";
    case AMBER_TOKEN_END_OF_LINE:
        return "the end of the line";
    default:
        return t->text;
    }
}

static bool token_ok(struct parser *p, const struct amber_token *t)
{
    if (t->too_long)
        return parse_error(p, t, "a word longer than %d characters", AMBER_TOKEN_MAX - 1);
    return true;
}

bool parse_end_of_line(struct parser *p, const char *after)
{
    struct amber_token t;
    amber_lexer_next(&p->lexer, &t);
    if (t.kind == AMBER_TOKEN_END_OF_LINE || t.kind == AMBER_TOKEN_END_OF_FILE)
        return true;
    return parse_error(p, &t, "expected the end of the line after %s, got '%s'", after, shown(&t));
}

bool parse_block_token(struct parser *p, const struct amber_token *start, struct amber_token *t,
                       const char *no_end_format, ...)
{
    do
        amber_lexer_next(&p->lexer, t);
    while (t->kind == AMBER_TOKEN_END_OF_LINE);
    if (t->kind != AMBER_TOKEN_END_OF_FILE)
        return true;
    va_list args;
    va_start(args, no_end_format);
    parse_verror(p, start, no_end_format, args);
    va_end(args);
    return false;
}

bool parse_word(struct parser *p, struct amber_token *t, const char *what)
{
    amber_lexer_next(&p->lexer, t);
    if (t->kind != AMBER_TOKEN_WORD && t->kind != AMBER_TOKEN_STRING)
        return parse_error(p, t, "expected %s, got %s", what, shown(t));
    return token_ok(p, t);
}

bool parse_keyword(struct parser *p, const char *keyword, const char *context)
{
    struct amber_token t;
    amber_lexer_next(&p->lexer, &t);
    if (amber_word_is(&t, keyword))
        return true;
    return parse_error(p, &t, "expected %s in %s, got '%s'", keyword, context, shown(&t));
}

bool parse_u64(struct parser *p, uint64_t *value, const char *what)
{
    struct amber_token t;
    amber_lexer_next(&p->lexer, &t);
    struct amber_integer n;
    if (!amber_token_integer(&t, &n) || n.negative)
        return parse_error(p, &t, "expected %s (a whole number, 0 or more), got '%s'", what, shown(&t));
    *value = n.magnitude;
    return true;
}

bool parse_u32(struct parser *p, uint32_t *value, const char *what)
{
    struct amber_token t;
    amber_lexer_next(&p->lexer, &t);
    struct amber_integer n;
    if (!amber_token_integer(&t, &n) || n.negative || n.magnitude > UINT32_MAX)
        return parse_error(p, &t, "expected %s (a whole number from 0 to 4294967295), got '%s'", what, shown(&t));
    *value = (uint32_t)n.magnitude;
    return true;
}

bool parse_float(struct parser *p, float *value, const char *what)
{
    struct amber_token t;
    amber_lexer_next(&p->lexer, &t);
    double d;
    if (!amber_token_double(&t, &d))
        return parse_error(p, &t, "expected %s (a number), got '%s'", what, shown(&t));
    *value = (float)d;
    return true;
}

bool parse_on_off(struct parser *p, bool *value, const char *what)
{
    struct amber_token t;
    amber_lexer_next(&p->lexer, &t);
    if (amber_word_is(&t, "on") || amber_word_is(&t, "off")) {
        *value = amber_word_is(&t, "on");
        return true;
    }
    return parse_error(p, &t, "expected on or off for %s, got '%s'", what, shown(&t));
}

bool parse_number_token(const struct amber_token *t, struct amber_number *n)
{
    struct amber_integer integer;
    memset(n, 0, sizeof(*n));
    if (amber_token_integer(t, &integer)) {
        n->magnitude = integer.magnitude;
        n->negative = integer.negative;
        return true;
    }
    n->is_float = true;
    return amber_token_double(t, &n->value);
}

bool parse_choice(struct parser *p, const char *const *names, const uint32_t *values, uint32_t *value, const char *what)
{
    struct amber_token t;
    amber_lexer_next(&p->lexer, &t);
    for (size_t i = 0; names[i] != NULL; ++i)
        if (amber_word_is(&t, names[i])) {
            *value = values[i];
            return true;
        }
    char list[512] = "";
    for (size_t i = 0, at = 0; names[i] != NULL && at < sizeof(list); ++i)
        at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "", names[i]);
    return parse_error(p, &t, "expected %s (%s), got '%s'", what, list, shown(&t));
}

bool parse_skip_block(struct parser *p, const struct amber_token *start)
{
    const char *text;
    size_t length;
    uint32_t first_line;
    if (!amber_lexer_raw_block(&p->lexer, &text, &length, &first_line))
        return parse_error(p, start, "%s has no END line", start->text);
    return true;
}

/* --- lookups --------------------------------------------------------------------------------- */

#define FIND(array, count, name)                                                                                       \
    for (uint32_t i = 0; i < (count); ++i)                                                                             \
        if (strcmp((array)[i].name, (name)) == 0)                                                                      \
            return (int64_t)i;                                                                                         \
    return -1

int64_t find_shader(const struct amber_script *s, const char *name)
{
    FIND(s->shaders, s->shader_count, name);
}

int64_t find_buffer(const struct amber_script *s, const char *name)
{
    FIND(s->buffers, s->buffer_count, name);
}

int64_t find_sampler(const struct amber_script *s, const char *name)
{
    FIND(s->samplers, s->sampler_count, name);
}

int64_t find_pipeline(const struct amber_script *s, const char *name)
{
    FIND(s->pipelines, s->pipeline_count, name);
}

bool parse_buffer_ref(struct parser *p, uint32_t *index, const char *context)
{
    struct amber_token t;
    if (!parse_word(p, &t, "a buffer name"))
        return false;
    int64_t found = find_buffer(p->script, t.text);
    if (found < 0)
        return parse_error(p, &t, "%s: no BUFFER or IMAGE named '%s' before this line", context, t.text);
    *index = (uint32_t)found;
    return true;
}

bool parse_pipeline_ref(struct parser *p, uint32_t *index, const char *context)
{
    struct amber_token t;
    if (!parse_word(p, &t, "a pipeline name"))
        return false;
    int64_t found = find_pipeline(p->script, t.text);
    if (found < 0)
        return parse_error(p, &t, "%s: no PIPELINE named '%s' before this line", context, t.text);
    *index = (uint32_t)found;
    return true;
}

void *parse_grow(struct parser *p, void **array, uint32_t *count, size_t size, uint32_t limit,
                 const struct amber_token *at, const char *what)
{
    if (*count >= limit) {
        parse_limit(p, at, "more than %u %s: beyond preflight's limit", limit, what);
        return NULL;
    }
    /* the capacity doubles from 4: it is full when count is 4, 8, 16, ... */
    if (*count == 0 || (*count >= 4 && (*count & (*count - 1)) == 0)) {
        void *bigger = realloc(*array, (size_t)(*count ? *count * 2 : 4) * size);
        if (bigger == NULL) {
            parse_limit(p, at, "out of memory for %s", what);
            return NULL;
        }
        *array = bigger;
    }
    void *slot = (char *)*array + (size_t)*count * size;
    memset(slot, 0, size);
    ++*count;
    return slot;
}

static bool name_is_new(struct parser *p, const struct amber_token *name, int64_t existing, const char *kind)
{
    if (existing >= 0)
        return parse_error(p, name, "a %s named '%s' exists already", kind, name->text);
    if (name->length >= AMBER_NAME_MAX)
        return parse_error(p, name, "a name longer than %d characters", AMBER_NAME_MAX - 1);
    return true;
}

/* --- SHADER ---------------------------------------------------------------------------------- */

static const char *const stage_names[] = {
    "vertex", "tessellation_control", "tessellation_evaluation", "geometry", "fragment", "compute", "multi", NULL};
static const char *const ray_stage_names[] = {"ray_generation", "any_hit",  "closest_hit", "miss",
                                              "intersection",   "callable", NULL};

static bool stage_of(const struct amber_token *t, enum amber_stage *stage)
{
    for (int i = 0; stage_names[i]; ++i)
        if (amber_word_is(t, stage_names[i])) {
            *stage = (enum amber_stage)i;
            return true;
        }
    for (int i = 0; ray_stage_names[i]; ++i)
        if (amber_word_is(t, ray_stage_names[i])) {
            *stage = (enum amber_stage)(AMBER_STAGE_RAY_GENERATION + i);
            return true;
        }
    return false;
}

static char *copy_text(const char *text, size_t length)
{
    char *copy = malloc(length + 1);
    if (copy != NULL) {
        memcpy(copy, text, length);
        copy[length] = '\0';
    }
    return copy;
}

static bool parse_shader(struct parser *p, const struct amber_token *start)
{
    struct amber_token type, name, format;
    if (!parse_word(p, &type, "a shader type (vertex, fragment, compute, ...)"))
        return false;
    enum amber_stage stage = AMBER_STAGE_COMPUTE;
    if (!stage_of(&type, &stage))
        return parse_error(p, &type,
                           "expected a shader type (vertex, fragment, geometry, tessellation_control, "
                           "tessellation_evaluation, compute, multi or a ray-tracing stage), got '%s'",
                           type.text);
    if (!parse_word(p, &name, "a shader name") || !name_is_new(p, &name, find_shader(p->script, name.text), "SHADER"))
        return false;
    if (!parse_word(p, &format, "a shader format (GLSL, SPIRV-ASM, SPIRV-HEX, SPIRV-BIN, PASSTHROUGH)"))
        return false;
    static const char *const formats[] = {"GLSL", "SPIRV-ASM", "SPIRV-HEX", "SPIRV-BIN", "PASSTHROUGH", NULL};
    int format_index = -1;
    for (int i = 0; formats[i]; ++i)
        if (amber_word_is(&format, formats[i]))
            format_index = i;
    bool foreign = amber_word_is(&format, "HLSL") || amber_word_is(&format, "OPENCL-C");
    if (format_index < 0 && !foreign)
        return parse_error(p, &format,
                           "expected a shader format (GLSL, SPIRV-ASM, SPIRV-HEX, SPIRV-BIN, PASSTHROUGH, HLSL, "
                           "OPENCL-C), got '%s'",
                           format.text);
    if (format_index == AMBER_SHADER_PASSTHROUGH) {
        if (stage != AMBER_STAGE_VERTEX)
            return parse_error(p, &format, "PASSTHROUGH is a vertex shader, not a %s shader", type.text);
        if (!parse_end_of_line(p, "SHADER ... PASSTHROUGH"))
            return false;
    }
    char target_env[32] = "";
    struct amber_token from = {0}, path = {0};
    bool inline_source = format_index != AMBER_SHADER_PASSTHROUGH;
    if (format_index != AMBER_SHADER_PASSTHROUGH) {
        const struct amber_token *next = amber_lexer_peek(&p->lexer);
        if (amber_word_is(next, "TARGET_ENV")) {
            struct amber_token env;
            amber_lexer_next(&p->lexer, &env);
            if (!parse_word(p, &env, "a target environment (spv1.0 ... spv1.6, vulkan1.0 ... vulkan1.3)"))
                return false;
            if (env.length >= sizeof(target_env))
                return parse_error(p, &env, "'%s' is not a target environment", env.text);
            memcpy(target_env, env.text, env.length + 1);
            next = amber_lexer_peek(&p->lexer);
        }
        if (amber_word_is(next, "FILE") || amber_word_is(next, "VIRTUAL_FILE")) {
            inline_source = false;
            amber_lexer_next(&p->lexer, &from);
            if (!parse_word(p, &path, "a file path") || !parse_end_of_line(p, "the shader's file"))
                return false;
        } else if (next->kind != AMBER_TOKEN_END_OF_LINE && next->kind != AMBER_TOKEN_END_OF_FILE) {
            return parse_error(p, next, "expected TARGET_ENV, FILE, VIRTUAL_FILE or the end of the line, got '%s'",
                               shown(next));
        }
    }
    const char *source = NULL;
    size_t source_length = 0;
    uint32_t source_line = 0;
    char *owned = NULL;
    if (inline_source) {
        if (!amber_lexer_raw_block(&p->lexer, &source, &source_length, &source_line))
            return parse_error(p, &name, "SHADER %s: its source has no END line", name.text);
        if (!parse_end_of_line(p, "END"))
            return false;
    } else if (amber_word_is(&from, "VIRTUAL_FILE")) {
        bool found = false;
        for (uint32_t i = 0; i < p->script->virtual_file_count && !found; ++i)
            if (strcmp(p->script->virtual_files[i].path, path.text) == 0) {
                source = p->script->virtual_files[i].text;
                source_length = p->script->virtual_files[i].length;
                found = true;
            }
        if (!found)
            return parse_error(p, &path, "no VIRTUAL_FILE '%s' before this line", path.text);
    } else if (amber_word_is(&from, "FILE")) {
        owned = parse_read_file(p, &path, path.text, AMBER_MAX_FILE_BYTES, &source_length);
        if (owned == NULL)
            return false;
        source = owned;
    }
    if (foreign)
        parse_unsupported(p, &format, "SHADER %s is %s: preflight compiles GLSL and SPIR-V only", name.text,
                          format.text);
    if (format_index == AMBER_SHADER_SPIRV_BIN && owned == NULL) {
        return parse_error(p, &format, "SPIRV-BIN shaders come from a FILE");
    }
    struct amber_shader *s = parse_grow(p, (void **)&p->script->shaders, &p->script->shader_count, sizeof(*s),
                                        AMBER_MAX_OBJECTS, start, "shaders");
    if (s == NULL) {
        free(owned);
        return false;
    }
    parse_copy(s->name, sizeof(s->name), name.text);
    s->where = (struct amber_location){start->line, start->column};
    s->stage = stage;
    s->format = foreign ? AMBER_SHADER_NOT_SUPPORTED : (enum amber_shader_format)format_index;
    memcpy(s->target_env, target_env, sizeof(target_env));
    s->source_line = source_line;
    if (owned != NULL) {
        s->source = owned;
    } else if (source != NULL) {
        s->source = copy_text(source, source_length);
        if (s->source == NULL)
            return parse_limit(p, start, "out of memory for a shader");
    }
    s->source_length = source_length;
    if (stage == AMBER_STAGE_MULTI && s->format != AMBER_SHADER_SPIRV_ASM && s->format != AMBER_SHADER_SPIRV_HEX &&
        s->format != AMBER_SHADER_SPIRV_BIN && !foreign)
        return parse_error(p, &type, "a multi shader is SPIR-V (SPIRV-ASM, SPIRV-HEX or SPIRV-BIN)");
    return true;
}

/* --- BUFFER and IMAGE ------------------------------------------------------------------------ */

static bool layout_of(struct parser *p, struct amber_buffer *b, const struct amber_token *at)
{
    char error[256];
    amber_layout_free(&b->layout);
    if (!amber_layout_build(&b->type, b->std140, p->script->structs, p->script->struct_count, &b->layout, error,
                            sizeof(error)))
        return parse_error(p, at, "BUFFER %s: %s", b->name, error);
    return true;
}

/* Room for the buffer's contents within the limits; counts them in the file's total. */
static bool within_limits(struct parser *p, struct amber_buffer *b, const struct amber_token *at)
{
    uint64_t bytes = b->element_count * (uint64_t)b->layout.stride;
    if (b->element_count > AMBER_MAX_BUFFER_BYTES || bytes > AMBER_MAX_BUFFER_BYTES)
        return parse_limit(
            p, at, "%s %s would hold %llu elements of %u bytes: beyond preflight's limit of %llu MiB per buffer",
            b->dimension ? "IMAGE" : "BUFFER", b->name, (unsigned long long)b->element_count, b->layout.stride,
            AMBER_MAX_BUFFER_BYTES >> 20);
    p->script->total_bytes += bytes;
    if (p->script->total_bytes > AMBER_MAX_TOTAL_BYTES)
        return parse_limit(p, at, "the file's buffers would hold more than %llu MiB: beyond preflight's limit",
                           AMBER_MAX_TOTAL_BYTES >> 20);
    return true;
}

static bool parse_number_for(struct parser *p, struct amber_number *n, const char *what)
{
    struct amber_token t;
    amber_lexer_next(&p->lexer, &t);
    if (!parse_number_token(&t, n))
        return parse_error(p, &t, "expected %s (a number), got '%s'", what, shown(&t));
    return true;
}

/* A value every segment of the element can hold (FILL and SERIES_FROM are checked once). */
static bool value_fits(struct parser *p, const struct amber_buffer *b, const struct amber_number *n,
                       const struct amber_token *at)
{
    uint8_t scratch[AMBER_MAX_SEGMENTS * 8 + 64];
    char error[160];
    struct amber_segment word;
    const struct amber_segment *inputs;
    uint32_t count = amber_layout_inputs(&b->layout, &word, &inputs);
    for (uint32_t i = 0; i < count; ++i) {
        struct amber_segment s = inputs[i];
        s.bit_offset %= 8;
        if (!amber_encode(&s, n, scratch, error, sizeof(error)))
            return parse_error(p, at, "BUFFER %s: %s", b->name, error);
    }
    return true;
}

static bool parse_fill(struct parser *p, struct amber_buffer *b, const struct amber_token *at)
{
    b->init = AMBER_INIT_FILL;
    return parse_number_for(p, &b->fill, "the FILL value") && value_fits(p, b, &b->fill, at) &&
           parse_end_of_line(p, "FILL's value");
}

static bool parse_series(struct parser *p, struct amber_buffer *b, const struct amber_token *at)
{
    struct amber_segment word;
    const struct amber_segment *inputs;
    uint32_t count = amber_layout_inputs(&b->layout, &word, &inputs);
    if (count != 1)
        return parse_error(p, at, "BUFFER %s: SERIES_FROM needs a type of one value (a scalar), not one of %u", b->name,
                           count);
    b->init = AMBER_INIT_SERIES;
    return parse_number_for(p, &b->series_start, "the SERIES_FROM start") && value_fits(p, b, &b->series_start, at) &&
           parse_keyword(p, "INC_BY", "SERIES_FROM") && parse_number_for(p, &b->series_step, "the INC_BY step") &&
           parse_end_of_line(p, "INC_BY's step");
}

static struct amber_buffer *new_buffer(struct parser *p, const struct amber_token *start,
                                       const struct amber_token *name)
{
    if (!name_is_new(p, name, find_buffer(p->script, name->text), "BUFFER or IMAGE"))
        return NULL;
    struct amber_buffer *b = parse_grow(p, (void **)&p->script->buffers, &p->script->buffer_count, sizeof(*b),
                                        AMBER_MAX_OBJECTS, start, "buffers and images");
    if (b == NULL)
        return NULL;
    parse_copy(b->name, sizeof(b->name), name->text);
    b->where = (struct amber_location){start->line, start->column};
    b->mip_levels = b->samples = 1;
    return b;
}

static bool parse_type_word(struct parser *p, struct amber_type *type, struct amber_token *t)
{
    if (!parse_word(p, t, "a data type"))
        return false;
    if (!amber_type_parse(t->text, p->script->structs, p->script->struct_count, type))
        return parse_error(p, t,
                           "unknown data type '%s' (int8 ... uint64, float16, float, double, vecN<T>, matCxR<T>, "
                           "T[], an image format or a STRUCT)",
                           t->text);
    return true;
}

static bool parse_samples(struct parser *p, uint32_t *samples)
{
    struct amber_token t = *amber_lexer_peek(&p->lexer);
    if (!parse_u32(p, samples, "the SAMPLES count"))
        return false;
    if (*samples == 0 || *samples > 64 || (*samples & (*samples - 1)) != 0)
        return parse_error(p, &t, "SAMPLES must be 1, 2, 4, 8, 16, 32 or 64, not %u", *samples);
    return true;
}

static bool parse_mip_levels(struct parser *p, uint32_t *levels)
{
    struct amber_token t = *amber_lexer_peek(&p->lexer);
    if (!parse_u32(p, levels, "the MIP_LEVELS count"))
        return false;
    if (*levels == 0 || *levels > 16)
        return parse_error(p, &t, "MIP_LEVELS must be 1 to 16, not %u", *levels);
    return true;
}

static bool parse_buffer(struct parser *p, const struct amber_token *start)
{
    struct amber_token name, kind, t;
    if (!parse_word(p, &name, "a buffer name"))
        return false;
    struct amber_buffer *b = new_buffer(p, start, &name);
    if (b == NULL || !parse_word(p, &kind, "DATA_TYPE or FORMAT"))
        return false;
    if (amber_word_is(&kind, "FORMAT")) {
        if (!parse_word(p, &t, "an image format"))
            return false;
        VkFormat format = amber_format_from_name(t.text);
        if (format == VK_FORMAT_UNDEFINED || !amber_type_parse(t.text, NULL, 0, &b->type) ||
            b->type.kind != AMBER_TYPE_FORMAT)
            return parse_error(p, &t, "unknown image format '%s' (R8G8B8A8_UNORM, D32_SFLOAT, ...)", t.text);
        if (!layout_of(p, b, &t))
            return false;
        b->sized_by_framebuffer = true;
        b->dimension = AMBER_DIM_2D;
        for (;;) {
            const struct amber_token *next = amber_lexer_peek(&p->lexer);
            if (amber_word_is(next, "MIP_LEVELS")) {
                amber_lexer_next(&p->lexer, &t);
                if (!parse_mip_levels(p, &b->mip_levels))
                    return false;
            } else if (amber_word_is(next, "SAMPLES")) {
                amber_lexer_next(&p->lexer, &t);
                if (!parse_samples(p, &b->samples))
                    return false;
            } else if (amber_word_is(next, "FILE")) {
                amber_lexer_next(&p->lexer, &t);
                b->sized_by_framebuffer = false;
                return parse_file_initializer(p, b) && within_limits(p, b, &t);
            } else {
                return parse_end_of_line(p, "BUFFER ... FORMAT");
            }
        }
    }
    if (!amber_word_is(&kind, "DATA_TYPE"))
        return parse_error(p, &kind, "expected DATA_TYPE or FORMAT after the buffer name, got '%s'", shown(&kind));
    if (!parse_type_word(p, &b->type, &t))
        return false;
    struct amber_token type_token = t;
    if (!parse_word(p, &t, "STD140, STD430, SIZE, DATA or WIDTH"))
        return false;
    if (amber_word_is(&t, "STD140") || amber_word_is(&t, "STD430")) {
        b->std140 = amber_word_is(&t, "STD140");
        if (!parse_word(p, &t, "SIZE, DATA or WIDTH"))
            return false;
    }
    if (!layout_of(p, b, &type_token))
        return false;
    if (amber_word_is(&t, "DATA"))
        return parse_data_block(p, b, &t) && within_limits(p, b, &t);
    if (amber_word_is(&t, "SIZE")) {
        if (!parse_u64(p, &b->element_count, "the SIZE in elements") || !within_limits(p, b, &t))
            return false;
        struct amber_token how;
        if (!parse_word(p, &how, "FILL, SERIES_FROM or FILE"))
            return false;
        if (amber_word_is(&how, "FILL"))
            return parse_fill(p, b, &how);
        if (amber_word_is(&how, "SERIES_FROM"))
            return parse_series(p, b, &how);
        if (amber_word_is(&how, "FILE")) {
            p->script->total_bytes -= b->element_count * b->layout.stride;
            return parse_file_initializer(p, b) && within_limits(p, b, &how);
        }
        return parse_error(p, &how, "expected FILL, SERIES_FROM or FILE after SIZE, got '%s'", shown(&how));
    }
    if (amber_word_is(&t, "WIDTH")) { /* deprecated: a 2D buffer */
        uint32_t width, height;
        if (!parse_u32(p, &width, "the WIDTH") || !parse_keyword(p, "HEIGHT", "BUFFER ... WIDTH") ||
            !parse_u32(p, &height, "the HEIGHT"))
            return false;
        if (width == 0 || height == 0 || width > AMBER_MAX_IMAGE_SIDE || height > AMBER_MAX_IMAGE_SIDE)
            return parse_error(p, &t, "WIDTH and HEIGHT must be 1 to %u", AMBER_MAX_IMAGE_SIDE);
        b->width = width;
        b->height = height;
        b->depth = 1;
        b->dimension = AMBER_DIM_2D;
        b->element_count = (uint64_t)width * height;
        if (!within_limits(p, b, &t))
            return false;
        struct amber_token how;
        amber_lexer_next(&p->lexer, &how);
        if (amber_word_is(&how, "FILL"))
            return parse_fill(p, b, &how);
        if (amber_word_is(&how, "SERIES_FROM"))
            return parse_series(p, b, &how);
        if (how.kind == AMBER_TOKEN_END_OF_LINE || how.kind == AMBER_TOKEN_END_OF_FILE)
            return true;
        return parse_error(p, &how, "expected FILL, SERIES_FROM or the end of the line, got '%s'", shown(&how));
    }
    return parse_error(p, &t, "expected SIZE, DATA or WIDTH, got '%s'", shown(&t));
}

static bool parse_image(struct parser *p, const struct amber_token *start)
{
    struct amber_token name, t;
    if (!parse_word(p, &name, "an image name"))
        return false;
    struct amber_buffer *b = new_buffer(p, start, &name);
    if (b == NULL)
        return false;
    bool typed = false, width_set = false, height_set = false, depth_set = false;
    b->width = b->height = b->depth = 1;
    for (;;) {
        const struct amber_token *next = amber_lexer_peek(&p->lexer);
        if (next->kind != AMBER_TOKEN_WORD || amber_word_is(next, "DATA") || amber_word_is(next, "FILL") ||
            amber_word_is(next, "SERIES_FROM"))
            break;
        amber_lexer_next(&p->lexer, &t);
        if (amber_word_is(&t, "DATA_TYPE") || amber_word_is(&t, "FORMAT")) {
            struct amber_token type_token;
            if (!parse_type_word(p, &b->type, &type_token))
                return false;
            if (amber_word_is(&t, "FORMAT") && b->type.kind != AMBER_TYPE_FORMAT)
                return parse_error(p, &type_token, "IMAGE FORMAT needs an image format, not '%s'", type_token.text);
            if (!layout_of(p, b, &type_token))
                return false;
            typed = true;
        } else if (amber_word_is(&t, "MIP_LEVELS")) {
            if (!parse_mip_levels(p, &b->mip_levels))
                return false;
        } else if (amber_word_is(&t, "SAMPLES")) {
            if (!parse_samples(p, &b->samples))
                return false;
        } else if (amber_word_is(&t, "DIM_1D") || amber_word_is(&t, "DIM_2D") || amber_word_is(&t, "DIM_3D")) {
            b->dimension = (enum amber_dimension)(t.text[4] - '0');
        } else if (amber_word_is(&t, "WIDTH") || amber_word_is(&t, "HEIGHT") || amber_word_is(&t, "DEPTH")) {
            uint32_t value;
            if (!parse_u32(p, &value, t.text))
                return false;
            if (value == 0 || value > AMBER_MAX_IMAGE_SIDE)
                return parse_error(p, &t, "IMAGE %s must be 1 to %u, not %u", t.text, AMBER_MAX_IMAGE_SIDE, value);
            if (t.text[0] == 'W')
                b->width = value, width_set = true;
            else if (t.text[0] == 'H')
                b->height = value, height_set = true;
            else
                b->depth = value, depth_set = true;
        } else {
            return parse_error(p, &t,
                               "expected DATA_TYPE, FORMAT, MIP_LEVELS, SAMPLES, DIM_1D, DIM_2D, DIM_3D, WIDTH, "
                               "HEIGHT, DEPTH, DATA, FILL or SERIES_FROM, got '%s'",
                               t.text);
        }
    }
    if (!typed)
        return parse_error(p, start, "IMAGE %s needs a DATA_TYPE or FORMAT", b->name);
    if (b->dimension == AMBER_DIM_NONE)
        return parse_error(p, start, "IMAGE %s needs DIM_1D, DIM_2D or DIM_3D", b->name);
    if (!width_set || (b->dimension >= AMBER_DIM_2D && !height_set) || (b->dimension == AMBER_DIM_3D && !depth_set))
        return parse_error(p, start, "IMAGE %s: DIM_%uD needs WIDTH%s%s", b->name, (unsigned)b->dimension,
                           b->dimension >= AMBER_DIM_2D ? ", HEIGHT" : "",
                           b->dimension == AMBER_DIM_3D ? ", DEPTH" : "");
    if ((b->dimension == AMBER_DIM_1D && (height_set || depth_set)) || (b->dimension == AMBER_DIM_2D && depth_set))
        return parse_error(p, start, "IMAGE %s: DIM_%uD takes no %s", b->name, (unsigned)b->dimension,
                           depth_set ? "DEPTH" : "HEIGHT");
    b->element_count = (uint64_t)b->width * b->height * b->depth;
    if (!within_limits(p, b, start))
        return false;
    amber_lexer_next(&p->lexer, &t);
    if (amber_word_is(&t, "DATA")) {
        uint64_t expected = b->element_count;
        p->script->total_bytes -= expected * b->layout.stride;
        if (!parse_data_block(p, b, &t))
            return false;
        if (b->element_count != expected)
            return parse_error(p, &t, "IMAGE %s: DATA gives %llu elements, the image has %llu", b->name,
                               (unsigned long long)b->element_count, (unsigned long long)expected);
        return within_limits(p, b, &t);
    }
    if (amber_word_is(&t, "FILL"))
        return parse_fill(p, b, &t);
    if (amber_word_is(&t, "SERIES_FROM"))
        return parse_series(p, b, &t);
    if (t.kind == AMBER_TOKEN_END_OF_LINE || t.kind == AMBER_TOKEN_END_OF_FILE)
        return true;
    return parse_error(p, &t, "expected DATA, FILL, SERIES_FROM or the end of the line, got '%s'", shown(&t));
}

/* --- SAMPLER --------------------------------------------------------------------------------- */

static bool parse_sampler(struct parser *p, const struct amber_token *start)
{
    struct amber_token name, t;
    if (!parse_word(p, &name, "a sampler name") ||
        !name_is_new(p, &name, find_sampler(p->script, name.text), "SAMPLER"))
        return false;
    struct amber_sampler *s = parse_grow(p, (void **)&p->script->samplers, &p->script->sampler_count, sizeof(*s),
                                         AMBER_MAX_OBJECTS, start, "samplers");
    if (s == NULL)
        return false;
    parse_copy(s->name, sizeof(s->name), name.text);
    s->where = (struct amber_location){start->line, start->column};
    s->mag_filter = s->min_filter = VK_FILTER_NEAREST;
    s->address_u = s->address_v = s->address_w = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    s->border_color = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
    s->min_lod = 0.0f;
    s->max_lod = 1.0f;
    s->compare_op = VK_COMPARE_OP_NEVER;
    static const char *const filters[] = {"nearest", "linear", NULL};
    static const uint32_t filter_values[] = {VK_FILTER_NEAREST, VK_FILTER_LINEAR};
    static const char *const modes[] = {"repeat",          "mirrored_repeat",        "clamp_to_edge",
                                        "clamp_to_border", "mirrored_clamp_to_edge", NULL};
    static const uint32_t mode_values[] = {
        VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE};
    static const char *const borders[] = {"float_transparent_black",
                                          "int_transparent_black",
                                          "float_opaque_black",
                                          "int_opaque_black",
                                          "float_opaque_white",
                                          "int_opaque_white",
                                          NULL};
    static const uint32_t border_values[] = {0, 1, 2, 3, 4, 5};
    for (;;) {
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_LINE || t.kind == AMBER_TOKEN_END_OF_FILE)
            break;
        bool ok;
        if (amber_word_is(&t, "MAG_FILTER"))
            ok = parse_choice(p, filters, filter_values, &s->mag_filter, "a filter");
        else if (amber_word_is(&t, "MIN_FILTER"))
            ok = parse_choice(p, filters, filter_values, &s->min_filter, "a filter");
        else if (amber_word_is(&t, "ADDRESS_MODE_U"))
            ok = parse_choice(p, modes, mode_values, &s->address_u, "an address mode");
        else if (amber_word_is(&t, "ADDRESS_MODE_V"))
            ok = parse_choice(p, modes, mode_values, &s->address_v, "an address mode");
        else if (amber_word_is(&t, "ADDRESS_MODE_W"))
            ok = parse_choice(p, modes, mode_values, &s->address_w, "an address mode");
        else if (amber_word_is(&t, "BORDER_COLOR"))
            ok = parse_choice(p, borders, border_values, &s->border_color, "a border color");
        else if (amber_word_is(&t, "MIN_LOD"))
            ok = parse_float(p, &s->min_lod, "MIN_LOD");
        else if (amber_word_is(&t, "MAX_LOD"))
            ok = parse_float(p, &s->max_lod, "MAX_LOD");
        else if (amber_word_is(&t, "NORMALIZED_COORDS") || amber_word_is(&t, "UNNORMALIZED_COORDS"))
            ok = (s->unnormalized = t.text[0] == 'U', true);
        else if (amber_word_is(&t, "COMPARE"))
            ok = parse_on_off(p, &s->compare, "COMPARE");
        else if (amber_word_is(&t, "COMPARE_OP"))
            ok = parse_compare_op(p, &s->compare_op);
        else
            return parse_error(
                p, &t,
                "expected a SAMPLER option (MAG_FILTER, MIN_FILTER, ADDRESS_MODE_U/V/W, BORDER_COLOR, "
                "MIN_LOD, MAX_LOD, NORMALIZED_COORDS, UNNORMALIZED_COORDS, COMPARE, COMPARE_OP), got '%s'",
                shown(&t));
        if (!ok)
            return false;
    }
    if (s->unnormalized)
        s->min_lod = s->max_lod = 0.0f;
    if (s->max_lod < s->min_lod)
        return parse_error(p, start, "SAMPLER %s: MAX_LOD %g is below MIN_LOD %g", s->name, s->max_lod, s->min_lod);
    return true;
}

bool parse_compare_op(struct parser *p, uint32_t *op)
{
    static const char *const names[] = {
        "never", "less", "equal", "less_or_equal", "greater", "not_equal", "greater_or_equal", "always", NULL};
    static const uint32_t values[] = {0, 1, 2, 3, 4, 5, 6, 7}; /* VkCompareOp */
    return parse_choice(p, names, values, op, "a compare operation");
}

/* --- STRUCT ---------------------------------------------------------------------------------- */

static bool parse_struct(struct parser *p, const struct amber_token *start)
{
    struct amber_token name, t;
    if (!parse_word(p, &name, "a STRUCT name"))
        return false;
    for (uint32_t i = 0; i < p->script->struct_count; ++i)
        if (strcmp(p->script->structs[i].name, name.text) == 0)
            return parse_error(p, &name, "a STRUCT named '%s' exists already", name.text);
    struct amber_type probe;
    if (amber_type_parse(name.text, NULL, 0, &probe))
        return parse_error(p, &name, "'%s' is a data type already", name.text);
    if (name.length >= AMBER_NAME_MAX)
        return parse_error(p, &name, "a name longer than %d characters", AMBER_NAME_MAX - 1);
    int64_t stride = -1;
    amber_lexer_next(&p->lexer, &t);
    if (amber_word_is(&t, "STRIDE")) {
        uint32_t value;
        if (!parse_u32(p, &value, "the STRIDE in bytes"))
            return false;
        stride = value;
        amber_lexer_next(&p->lexer, &t);
    }
    if (t.kind != AMBER_TOKEN_END_OF_LINE)
        return parse_error(p, &t, "expected STRIDE or the end of the line after STRUCT %s, got '%s'", name.text,
                           shown(&t));
    struct amber_struct_member *members = NULL;
    uint32_t member_count = 0;
    for (;;) {
        if (!parse_block_token(p, start, &t, "STRUCT %s has no END line", name.text)) {
            free(members);
            return false;
        }
        if (amber_word_is(&t, "END"))
            break;
        struct amber_struct_member *m =
            parse_grow(p, (void **)&members, &member_count, sizeof(*m), AMBER_MAX_OBJECTS, &t, "STRUCT members");
        if (m == NULL || !token_ok(p, &t)) {
            free(members);
            return false;
        }
        m->offset = m->matrix_stride = -1;
        if (!amber_type_parse(t.text, p->script->structs, p->script->struct_count, &m->type)) {
            free(members);
            if (strcmp(t.text, name.text) == 0)
                return parse_error(p, &t, "STRUCT %s cannot hold itself", name.text);
            return parse_error(p, &t, "unknown type '%s' for a STRUCT member", t.text);
        }
        if (m->type.array) {
            free(members);
            parse_unsupported(p, &t, "STRUCT %s: array members (%s) are not supported", name.text, t.text);
            p->stop = true;
            return false;
        }
        struct amber_token member_name;
        if (!parse_word(p, &member_name, "the member's name")) {
            free(members);
            return false;
        }
        parse_copy(m->name, sizeof(m->name), member_name.text);
        for (uint32_t i = 0; i + 1 < member_count; ++i)
            if (strcmp(members[i].name, m->name) == 0) {
                free(members);
                return parse_error(p, &member_name, "STRUCT %s has two members named %s", name.text, m->name);
            }
        for (;;) {
            amber_lexer_next(&p->lexer, &t);
            if (t.kind == AMBER_TOKEN_END_OF_LINE || t.kind == AMBER_TOKEN_END_OF_FILE)
                break;
            uint32_t value = 0;
            bool ok = false;
            if (amber_word_is(&t, "OFFSET") && (ok = parse_u32(p, &value, "the OFFSET in bytes")))
                m->offset = value;
            else if (amber_word_is(&t, "MATRIX_STRIDE") && (ok = parse_u32(p, &value, "the MATRIX_STRIDE")))
                m->matrix_stride = value;
            else if (amber_word_is(&t, "ARRAY_STRIDE"))
                ok = parse_error(p, &t, "ARRAY_STRIDE is for array members");
            else if (!p->stop)
                ok = parse_error(p, &t, "expected OFFSET, MATRIX_STRIDE or the end of the line, got '%s'", shown(&t));
            if (!ok) {
                free(members);
                return false;
            }
            if (amber_word_is(&t, "MATRIX_STRIDE") && m->type.columns < 2) {
                free(members);
                return parse_error(p, &t, "MATRIX_STRIDE is for matrix members");
            }
        }
        if (t.kind == AMBER_TOKEN_END_OF_FILE) {
            free(members);
            return parse_error(p, start, "STRUCT %s has no END line", name.text);
        }
    }
    if (!parse_end_of_line(p, "END")) {
        free(members);
        return false;
    }
    struct amber_struct *s = parse_grow(p, (void **)&p->script->structs, &p->script->struct_count, sizeof(*s),
                                        AMBER_MAX_OBJECTS, start, "STRUCTs");
    if (s == NULL) {
        free(members);
        return false;
    }
    parse_copy(s->name, sizeof(s->name), name.text);
    s->members = members;
    s->member_count = member_count;
    s->stride = stride;
    /* laid out once here, so that a bad OFFSET is found at its STRUCT */
    struct amber_type type = {.kind = AMBER_TYPE_STRUCT, .struct_index = p->script->struct_count - 1};
    struct amber_layout layout;
    char error[256];
    if (!amber_layout_build(&type, false, p->script->structs, p->script->struct_count, &layout, error, sizeof(error)))
        return parse_error(p, start, "%s", error);
    amber_layout_free(&layout);
    return true;
}

/* --- requirements, SET, VIRTUAL_FILE ---------------------------------------------------------- */

static bool parse_requirement(struct parser *p, const struct amber_token *start)
{
    struct amber_token name;
    if (!parse_word(p, &name, "a name"))
        return false;
    int kind = amber_word_is(start, "DEVICE_FEATURE")       ? AMBER_REQUIRE_FEATURE
               : amber_word_is(start, "DEVICE_EXTENSION")   ? AMBER_REQUIRE_EXTENSION
               : amber_word_is(start, "INSTANCE_EXTENSION") ? AMBER_REQUIRE_INSTANCE_EXTENSION
                                                            : AMBER_REQUIRE_PROPERTY;
    if (name.length >= AMBER_NAME_MAX)
        return parse_error(p, &name, "a name longer than %d characters", AMBER_NAME_MAX - 1);
    if (kind == AMBER_REQUIRE_FEATURE) {
        switch (amber_feature_lookup(name.text, NULL)) {
        case AMBER_FEATURE_UNKNOWN:
            return parse_error(p, &name,
                               "unknown DEVICE_FEATURE '%s' (a VkPhysicalDeviceFeatures member or one of the names "
                               "docs/amber.md lists)",
                               name.text);
        case AMBER_FEATURE_NOT_IN_HEADERS:
            parse_unsupported(p, &name, "DEVICE_FEATURE %s: this build's Vulkan headers do not define it", name.text);
            return parse_end_of_line(p, start->text);
        case AMBER_FEATURE_KNOWN:
            break;
        }
    }
    if (kind == AMBER_REQUIRE_PROPERTY && strchr(name.text, '.') == NULL)
        return parse_error(p, &name, "expected DEVICE_PROPERTY Struct.member, got '%s'", name.text);
    struct amber_requirement *r = parse_grow(p, (void **)&p->script->requirements, &p->script->requirement_count,
                                             sizeof(*r), AMBER_MAX_OBJECTS, start, "requirements");
    if (r == NULL)
        return false;
    r->where = (struct amber_location){name.line, name.column};
    r->kind = kind;
    parse_copy(r->name, sizeof(r->name), name.text);
    return parse_end_of_line(p, start->text);
}

static bool parse_set(struct parser *p, const struct amber_token *start)
{
    (void)start;
    struct amber_token t;
    if (!parse_keyword(p, "ENGINE_DATA", "SET") || !parse_word(p, &t, "an engine setting"))
        return false;
    if (!amber_word_is(&t, "fence_timeout_ms"))
        return parse_error(p, &t, "expected the engine setting fence_timeout_ms, got '%s'", t.text);
    /* the probe's own watchdog (--timeout) bounds every file: the value is read and not used */
    uint32_t ignored;
    return parse_u32(p, &ignored, "fence_timeout_ms") && parse_end_of_line(p, "SET ENGINE_DATA");
}

static bool parse_virtual_file(struct parser *p, const struct amber_token *start)
{
    struct amber_token path;
    if (!parse_word(p, &path, "a virtual file path"))
        return false;
    if (path.length >= sizeof(((struct amber_virtual_file *)0)->path))
        return parse_error(p, &path, "a path longer than %zu characters",
                           sizeof(((struct amber_virtual_file *)0)->path) - 1);
    for (uint32_t i = 0; i < p->script->virtual_file_count; ++i)
        if (strcmp(p->script->virtual_files[i].path, path.text) == 0)
            return parse_error(p, &path, "a VIRTUAL_FILE '%s' exists already", path.text);
    const struct amber_token *next = amber_lexer_peek(&p->lexer);
    if (next->kind != AMBER_TOKEN_END_OF_LINE)
        return parse_error(p, next, "expected the end of the line after VIRTUAL_FILE's path, got '%s'", shown(next));
    const char *text;
    size_t length;
    uint32_t first_line;
    if (!amber_lexer_raw_block(&p->lexer, &text, &length, &first_line))
        return parse_error(p, start, "VIRTUAL_FILE %s has no END line", path.text);
    struct amber_virtual_file *v = parse_grow(p, (void **)&p->script->virtual_files, &p->script->virtual_file_count,
                                              sizeof(*v), AMBER_MAX_OBJECTS, start, "virtual files");
    if (v == NULL)
        return false;
    parse_copy(v->path, sizeof(v->path), path.text);
    v->text = copy_text(text, length);
    v->length = length;
    if (v->text == NULL)
        return parse_limit(p, start, "out of memory for a virtual file");
    return parse_end_of_line(p, "END");
}

/* --- the file -------------------------------------------------------------------------------- */

static bool parse_top_level(struct parser *p, const struct amber_token *t)
{
    if (amber_word_is(t, "SHADER"))
        return parse_shader(p, t);
    if (amber_word_is(t, "BUFFER"))
        return parse_buffer(p, t);
    if (amber_word_is(t, "IMAGE"))
        return parse_image(p, t);
    if (amber_word_is(t, "SAMPLER"))
        return parse_sampler(p, t);
    if (amber_word_is(t, "STRUCT"))
        return parse_struct(p, t);
    if (amber_word_is(t, "PIPELINE"))
        return parse_pipeline_block(p, t, false);
    if (amber_word_is(t, "DERIVE_PIPELINE"))
        return parse_pipeline_block(p, t, true);
    if (amber_word_is(t, "DEVICE_FEATURE") || amber_word_is(t, "DEVICE_EXTENSION") ||
        amber_word_is(t, "INSTANCE_EXTENSION") || amber_word_is(t, "DEVICE_PROPERTY"))
        return parse_requirement(p, t);
    if (amber_word_is(t, "SET"))
        return parse_set(p, t);
    if (amber_word_is(t, "VIRTUAL_FILE"))
        return parse_virtual_file(p, t);
    if (amber_word_is(t, "REPEAT"))
        return parse_repeat(p, t);
    if (parse_is_command(t))
        return parse_command(p, t);
    if (amber_word_is(t, "ACCELERATION_STRUCTURE"))
        return parse_acceleration_structure(p, t);
    if (amber_word_is(t, "DEBUG")) {
        parse_unsupported(p, t, "DEBUG: the debugger commands are not supported");
        p->stop = true;
        return false;
    }
    if (t->kind != AMBER_TOKEN_WORD)
        return parse_error(p, t, "expected a command, got \"%s\"", t->text);
    return parse_error(p, t,
                       "expected a command (SHADER, BUFFER, IMAGE, SAMPLER, STRUCT, PIPELINE, DERIVE_PIPELINE, "
                       "DEVICE_FEATURE, DEVICE_EXTENSION, RUN, EXPECT, CLEAR, COPY, REPEAT, ...), got '%s'",
                       t->text);
}

/* After the last line: what only the whole file can tell. */
static bool check_file(struct parser *p)
{
    struct amber_script *s = p->script;
    for (uint32_t i = 0; i < s->command_count; ++i)
        if (s->commands[i].kind >= AMBER_CMD_EXPECT_VALUES && s->commands[i].kind <= AMBER_CMD_EXPECT_EMD)
            ++s->expect_count;
    return true;
}

struct amber_script *amber_parse(const char *text, size_t length, const char *directory, struct amber_diagnostic *d)
{
    memset(d, 0, sizeof(*d));
    d->status = AMBER_PARSED;
    struct amber_script *script = calloc(1, sizeof(*script));
    if (script == NULL) {
        d->status = AMBER_NOT_SUPPORTED;
        snprintf(d->message, sizeof(d->message), "out of memory");
        return NULL;
    }
    struct parser p = {.script = script, .directory = directory, .diagnostic = d};
    struct amber_token first = {.line = 1, .column = 1};
    if (length > AMBER_MAX_FILE_BYTES) {
        parse_limit(&p, &first, "the file has %zu bytes: beyond preflight's limit of %u MiB", length,
                    AMBER_MAX_FILE_BYTES >> 20);
        return script;
    }
    if (length < 7 || memcmp(text, "#!amber", 7) != 0) {
        /* as Amber chooses: a file without the AmberScript line is VkScript */
        script->vkscript = true;
        if (parse_vkscript(&p, text, length) && !p.stop)
            check_file(&p);
        if (d->status == AMBER_SYNTAX_ERROR) {
            amber_script_free(script);
            return NULL;
        }
        return script;
    }
    amber_lexer_init(&p.lexer, text, length);
    struct amber_token t;
    while (!p.stop) {
        amber_lexer_next(&p.lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_FILE)
            break;
        if (t.kind == AMBER_TOKEN_END_OF_LINE)
            continue;
        if (!token_ok(&p, &t))
            break;
        parse_top_level(&p, &t);
    }
    if (!p.stop)
        check_file(&p);
    if (d->status == AMBER_SYNTAX_ERROR) {
        amber_script_free(script);
        return NULL;
    }
    return script;
}

void amber_script_free(struct amber_script *s)
{
    if (s == NULL)
        return;
    for (uint32_t i = 0; i < s->shader_count; ++i)
        free(s->shaders[i].source);
    for (uint32_t i = 0; i < s->buffer_count; ++i) {
        free(s->buffers[i].bytes);
        amber_layout_free(&s->buffers[i].layout);
    }
    for (uint32_t i = 0; i < s->struct_count; ++i)
        free(s->structs[i].members);
    for (uint32_t i = 0; i < s->pipeline_count; ++i) {
        free(s->pipelines[i].bindings);
        parse_free_pipeline_parts(&s->pipelines[i]);
    }
    for (uint32_t i = 0; i < s->blas_count; ++i) {
        for (uint32_t g = 0; g < s->blases[i].geometry_count; ++g)
            free(s->blases[i].geometries[g].data);
        free(s->blases[i].geometries);
    }
    for (uint32_t i = 0; i < s->tlas_count; ++i)
        free(s->tlases[i].instances);
    free(s->blases);
    free(s->tlases);
    for (uint32_t i = 0; i < s->command_count; ++i)
        if (s->commands[i].kind == AMBER_CMD_EXPECT_VALUES)
            free(s->commands[i].values.values);
        else if (s->commands[i].kind == AMBER_CMD_WRITE_BUFFER)
            free(s->commands[i].write.bytes);
    for (uint32_t i = 0; i < s->virtual_file_count; ++i)
        free(s->virtual_files[i].text);
    free(s->shaders);
    free(s->buffers);
    free(s->samplers);
    free(s->structs);
    free(s->pipelines);
    free(s->commands);
    free(s->requirements);
    free(s->virtual_files);
    free(s->text);
    free(s);
}
