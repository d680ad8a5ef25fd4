/* VkScript (google/amber's docs/vk_script.md, after VkRunner), read into the same script as
 * AmberScript so it runs through the same executor, with the same verdicts and evidence.
 *
 * A file is [sections]: require, shaders (GLSL, `spirv`, `spirv hex`, `passthrough`), vertex
 * data, indices, test. As Amber does, its one pipeline is implicit: graphics when a shader other
 * than compute is present, drawing into a framebuffer of B8G8R8A8_UNORM (or [require]'s
 * `framebuffer FORMAT`) of 250x250 (or `fbsize`), with a depth/stencil attachment when [require]
 * names `depthstencil FORMAT`. Buffers appear where the test binds them; pipeline state the test
 * sets applies to the draws after it, so each state a draw or dispatch uses is a pipeline of its
 * own, all sharing the buffers and bindings. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feature_names.h"
#include "vkscript.h"

enum section_kind {
    SECTION_REQUIRE,
    SECTION_SHADER,
    SECTION_VERTEX_DATA,
    SECTION_INDICES,
    SECTION_TEST,
    SECTION_COMMENT,
};

struct section {
    enum section_kind kind;
    enum amber_stage stage;
    enum amber_shader_format format;
    uint32_t header_line;
    const char *body; /* the lines after the header */
    size_t body_length;
};

#define MAX_SECTIONS 256

static const struct {
    const char *name;
    enum amber_stage stage;
} shader_sections[] = {
    {"vertex shader", AMBER_STAGE_VERTEX},
    {"fragment shader", AMBER_STAGE_FRAGMENT},
    {"geometry shader", AMBER_STAGE_GEOMETRY},
    {"tessellation control shader", AMBER_STAGE_TESSELLATION_CONTROL},
    {"tessellation evaluation shader", AMBER_STAGE_TESSELLATION_EVALUATION},
    {"compute shader", AMBER_STAGE_COMPUTE},
};

static bool error_at_line(struct parser *p, uint32_t line, const char *format, const char *detail)
{
    struct amber_token at = {.line = line, .column = 1};
    return parse_error(p, &at, format, detail);
}

/* "[fragment shader spirv hex]" -> the section's kind, stage and format */
static bool section_of(struct parser *p, const char *name, size_t length, uint32_t line, struct section *s)
{
    char text[96];
    if (length >= sizeof(text))
        return error_at_line(p, line,
                             "unknown section '%s' (require, vertex shader, fragment shader, ..., "
                             "vertex data, indices, test)",
                             "(a long name)");
    memcpy(text, name, length);
    text[length] = '\0';
    s->format = AMBER_SHADER_GLSL;
    char *suffix;
    if (length > 10 && strcmp(text + length - 10, " spirv hex") == 0) {
        s->format = AMBER_SHADER_SPIRV_HEX;
        text[length - 10] = '\0';
    } else if (length > 6 && strcmp(text + length - 6, " spirv") == 0) {
        s->format = AMBER_SHADER_SPIRV_ASM;
        text[length - 6] = '\0';
    } else if ((suffix = strstr(text, " passthrough")) != NULL && suffix[12] == '\0') {
        s->format = AMBER_SHADER_PASSTHROUGH;
        *suffix = '\0';
    }
    static const struct {
        const char *name;
        enum section_kind kind;
    } plain[] = {{"require", SECTION_REQUIRE},
                 {"vertex data", SECTION_VERTEX_DATA},
                 {"indices", SECTION_INDICES},
                 {"test", SECTION_TEST},
                 {"comment", SECTION_COMMENT}};
    for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); ++i)
        if (strcmp(text, plain[i].name) == 0) {
            if (s->format != AMBER_SHADER_GLSL)
                return error_at_line(p, line, "[%s] is not a shader section: it takes no source format", text);
            s->kind = plain[i].kind;
            return true;
        }
    for (size_t i = 0; i < sizeof(shader_sections) / sizeof(shader_sections[0]); ++i)
        if (strcmp(text, shader_sections[i].name) == 0) {
            if (s->format == AMBER_SHADER_PASSTHROUGH && shader_sections[i].stage != AMBER_STAGE_VERTEX)
                return error_at_line(p, line, "[%s passthrough]: only a vertex shader is a passthrough", text);
            s->kind = SECTION_SHADER;
            s->stage = shader_sections[i].stage;
            return true;
        }
    return error_at_line(p, line,
                         "unknown section '[%s]' (require, vertex shader, fragment shader, geometry shader, "
                         "tessellation control shader, tessellation evaluation shader, compute shader, vertex data, "
                         "indices, test, comment)",
                         text);
}

/* The file split at its header lines; text outside a section is blank lines and '#' comments. */
static bool split_sections(struct parser *p, const char *text, size_t length, struct section *sections, uint32_t *count)
{
    *count = 0;
    size_t at = 0;
    uint32_t line = 0;
    struct section *open = NULL;
    while (at < length) {
        size_t end = at;
        while (end < length && text[end] != '\n')
            ++end;
        ++line;
        size_t line_length = end - at;
        if (line_length > 0 && text[at + line_length - 1] == '\r')
            --line_length;
        if (line_length > 0 && text[at] == '[') {
            if (*count == MAX_SECTIONS)
                return parse_limit(p, &(struct amber_token){.line = line, .column = 1},
                                   "more than %d sections: beyond preflight's limit", MAX_SECTIONS);
            const char *close = memchr(text + at, ']', line_length);
            if (close == NULL)
                return error_at_line(p, line, "a section header without ']'%s", "");
            struct section *s = &sections[(*count)++];
            memset(s, 0, sizeof(*s));
            if (!section_of(p, text + at + 1, (size_t)(close - (text + at + 1)), line, s))
                return false;
            s->header_line = line;
            s->body = end < length ? text + end + 1 : text + length;
            open = s;
        } else if (open == NULL) {
            if (line_length > 0 && text[at] != '#') {
                size_t blank = 0;
                while (blank < line_length && isspace((unsigned char)text[at + blank]))
                    ++blank;
                if (blank < line_length)
                    return error_at_line(p, line,
                                         "expected a section header such as [require] or [test]%s (a file that does "
                                         "not start with #!amber is read as VkScript)",
                                         "");
            }
        }
        if (open != NULL)
            open->body_length = (size_t)((end < length ? text + end + 1 : text + length) - open->body);
        at = end < length ? end + 1 : length;
    }
    return true;
}

static void lex_section(struct parser *p, const char *whole, const struct section *s)
{
    amber_lexer_init(&p->lexer, whole, (size_t)(s->body - whole) + s->body_length);
    p->lexer.at = (size_t)(s->body - whole);
    p->lexer.line_start = p->lexer.at;
    p->lexer.line = s->header_line + 1;
}

/* --- buffers --------------------------------------------------------------------------------- */

static struct amber_buffer *add_script_buffer(struct parser *p, const char *name, const struct amber_token *at)
{
    struct amber_buffer *b = parse_grow(p, (void **)&p->script->buffers, &p->script->buffer_count, sizeof(*b),
                                        AMBER_MAX_OBJECTS, at, "buffers");
    if (b == NULL)
        return NULL;
    snprintf(b->name, sizeof(b->name), "%s", name);
    b->where = (struct amber_location){at->line, at->column};
    b->mip_levels = b->samples = 1;
    return b;
}

static bool build_layout(struct parser *p, struct amber_buffer *b, const struct amber_token *at)
{
    char error[256];
    amber_layout_free(&b->layout);
    if (!amber_layout_build(&b->type, b->std140, NULL, 0, &b->layout, error, sizeof(error)))
        return parse_error(p, at, "%s: %s", b->name, error);
    return true;
}

static bool add_format_buffer(struct parser *p, const char *name, const char *format, bool attachment,
                              const struct amber_token *at, uint32_t *index)
{
    struct amber_buffer *b = add_script_buffer(p, name, at);
    if (b == NULL)
        return false;
    if (!amber_type_parse(format, NULL, 0, &b->type) || b->type.kind != AMBER_TYPE_FORMAT)
        return parse_error(p, at, "unknown image format '%s' (R8G8B8A8_UNORM, D32_SFLOAT_S8_UINT, ...)", format);
    if (!build_layout(p, b, at))
        return false;
    if (attachment) {
        b->sized_by_framebuffer = true;
        b->dimension = AMBER_DIM_2D;
    }
    *index = p->script->buffer_count - 1;
    return true;
}

struct vk_buffer *vk_bound_buffer(struct vk_state *st, uint32_t set, uint32_t binding, enum amber_bind_kind kind,
                                  bool create, const struct amber_token *at)
{
    for (uint32_t i = 0; i < st->buffer_count; ++i)
        if (!st->buffers[i].push_constants && st->buffers[i].set == set && st->buffers[i].binding == binding)
            return &st->buffers[i];
    if (!create) {
        char where[48];
        snprintf(where, sizeof(where), "%u:%u", set, binding);
        parse_error(st->p, at, "no buffer is bound at descriptor set and binding %s", where);
        return NULL;
    }
    if (st->buffer_count == VK_MAX_BUFFERS) {
        parse_limit(st->p, at, "more than %d buffers: beyond preflight's limit", VK_MAX_BUFFERS);
        return NULL;
    }
    char name[64];
    snprintf(name, sizeof(name), "%s_%u_%u", kind == AMBER_BIND_UNIFORM ? "ubo" : "ssbo", set, binding);
    struct amber_buffer *b = add_script_buffer(st->p, name, at);
    if (b == NULL)
        return NULL;
    b->type =
        (struct amber_type){.kind = AMBER_TYPE_NUMBER, .mode = AMBER_MODE_SINT, .bits = 8, .rows = 1, .columns = 1};
    b->std140 = kind == AMBER_BIND_UNIFORM;
    if (!build_layout(st->p, b, at))
        return NULL;
    struct vk_buffer *v = &st->buffers[st->buffer_count++];
    *v = (struct vk_buffer){.buffer = st->p->script->buffer_count - 1,
                            .set = set,
                            .binding = binding,
                            .kind = kind,
                            .type_is_default = true};
    return v;
}

struct vk_buffer *vk_push_buffer(struct vk_state *st, const struct amber_token *at)
{
    for (uint32_t i = 0; i < st->buffer_count; ++i)
        if (st->buffers[i].push_constants)
            return &st->buffers[i];
    struct vk_buffer *v = vk_bound_buffer(st, UINT32_MAX, UINT32_MAX, AMBER_BIND_STORAGE, true, at);
    if (v == NULL)
        return NULL;
    v->push_constants = true;
    snprintf(st->p->script->buffers[v->buffer].name, AMBER_NAME_MAX, "push_constants");
    return v;
}

bool vk_buffer_type(struct vk_state *st, struct vk_buffer *v, const struct amber_type *type,
                    const struct amber_token *at)
{
    struct amber_buffer *b = &st->p->script->buffers[v->buffer];
    if (v->type_is_default) {
        b->type = *type;
        v->type_is_default = false;
        return build_layout(st->p, b, at);
    }
    if (b->type.mode == type->mode && b->type.bits == type->bits && b->type.rows == type->rows &&
        b->type.columns == type->columns)
        return true;
    char had[64], got[64];
    amber_type_describe(&b->type, NULL, had, sizeof(had));
    amber_type_describe(type, NULL, got, sizeof(got));
    return parse_error(st->p, at, "%s holds %s; a command cannot read or write it as %s (Amber refuses this too)",
                       b->name, had, got);
}

bool vk_datum_type(const char *word, struct amber_type *type)
{
    static const struct {
        const char *name;
        uint8_t mode, bits;
    } scalars[] = {
        {"int", AMBER_MODE_SINT, 32},      {"uint", AMBER_MODE_UINT, 32},     {"int8_t", AMBER_MODE_SINT, 8},
        {"uint8_t", AMBER_MODE_UINT, 8},   {"int16_t", AMBER_MODE_SINT, 16},  {"uint16_t", AMBER_MODE_UINT, 16},
        {"int64_t", AMBER_MODE_SINT, 64},  {"uint64_t", AMBER_MODE_UINT, 64}, {"float", AMBER_MODE_SFLOAT, 32},
        {"double", AMBER_MODE_SFLOAT, 64},
    };
    *type = (struct amber_type){.kind = AMBER_TYPE_NUMBER, .rows = 1, .columns = 1};
    for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); ++i)
        if (strcmp(word, scalars[i].name) == 0) {
            type->mode = scalars[i].mode;
            type->bits = scalars[i].bits;
            return true;
        }
    /* [d|i|u][8|16|64]vecN and [d]matC[xR] */
    const char *at = word;
    type->mode = AMBER_MODE_SFLOAT;
    type->bits = 32;
    if (*at == 'i' || *at == 'u') {
        type->mode = *at == 'i' ? AMBER_MODE_SINT : AMBER_MODE_UINT;
        ++at;
    } else if (*at == 'd') {
        type->bits = 64;
        ++at;
    }
    bool integer = type->mode != AMBER_MODE_SFLOAT;
    if (integer && strncmp(at, "8", 1) == 0) {
        type->bits = 8;
        at += 1;
    } else if (integer && (strncmp(at, "16", 2) == 0 || strncmp(at, "64", 2) == 0)) {
        type->bits = at[0] == '1' ? 16 : 64;
        at += 2;
    }
    if (strncmp(at, "vec", 3) == 0) {
        at += 3;
        type->rows = 4;
        if (*at >= '2' && *at <= '4' && at[1] == '\0')
            type->rows = (uint8_t)(*at - '0');
        else if (*at != '\0')
            return false;
        return true;
    }
    if (integer || strncmp(at, "mat", 3) != 0)
        return false;
    at += 3;
    type->columns = type->rows = 4;
    if (*at == '\0')
        return true;
    if (*at < '2' || *at > '4')
        return false;
    type->columns = type->rows = (uint8_t)(*at - '0');
    if (at[1] == '\0')
        return true;
    if (at[1] != 'x' || at[2] < '2' || at[2] > '4' || at[3] != '\0')
        return false;
    type->rows = (uint8_t)(at[2] - '0');
    return true;
}

void vk_wrap_integer(const struct amber_segment *s, struct amber_number *value)
{
    if (value->is_float || s->bits >= 64 || (s->mode != AMBER_MODE_UINT && s->mode != AMBER_MODE_SINT))
        return;
    uint64_t raw = value->negative ? (uint64_t)0 - value->magnitude : value->magnitude;
    uint64_t mask = (UINT64_C(1) << s->bits) - 1;
    raw &= mask;
    value->negative = false;
    if (s->mode == AMBER_MODE_SINT && (raw >> (s->bits - 1)) != 0) {
        value->negative = true;
        raw = ((~raw) & mask) + 1;
    }
    value->magnitude = raw;
}

/* --- the pipeline ---------------------------------------------------------------------------- */

bool vk_pipeline_for_command(struct vk_state *st, const struct amber_token *at, uint32_t *index)
{
    struct parser *p = st->p;
    if (st->snapshot >= 0 && !st->dirty) {
        *index = (uint32_t)st->snapshot;
        return true;
    }
    struct amber_pipeline *slot = parse_grow(p, (void **)&p->script->pipelines, &p->script->pipeline_count,
                                             sizeof(*slot), AMBER_MAX_OBJECTS, at, "pipelines");
    if (slot == NULL)
        return false;
    *slot = st->current;
    if (st->pipelines_made == 0)
        snprintf(slot->name, sizeof(slot->name), "vk_pipeline");
    else
        snprintf(slot->name, sizeof(slot->name), "vk_pipeline_%u", st->pipelines_made);
    slot->where = (struct amber_location){at->line, at->column};
    ++st->pipelines_made;
    st->snapshot = p->script->pipeline_count - 1;
    st->dirty = false;
    *index = (uint32_t)st->snapshot;
    return true;
}

static bool add_shader(struct vk_state *st, const struct section *s)
{
    struct parser *p = st->p;
    struct amber_token at = {.line = s->header_line, .column = 1};
    struct amber_pipeline *pl = &st->current;
    for (uint32_t i = 0; i < pl->shader_count; ++i)
        if (pl->shaders[i].stage == s->stage)
            return parse_error(p, &at, "a second %s shader: the file's one pipeline takes one of each stage",
                               shader_sections[s->stage == AMBER_STAGE_COMPUTE ? 5 : 0].name);
    if (pl->shader_count == AMBER_MAX_STAGES)
        return parse_error(p, &at, "more than %d shaders", AMBER_MAX_STAGES);
    struct amber_shader *sh = parse_grow(p, (void **)&p->script->shaders, &p->script->shader_count, sizeof(*sh),
                                         AMBER_MAX_OBJECTS, &at, "shaders");
    if (sh == NULL)
        return false;
    snprintf(sh->name, sizeof(sh->name), "vk_shader_%u", p->script->shader_count - 1);
    sh->where = (struct amber_location){s->header_line, 1};
    sh->stage = s->stage;
    sh->format = s->format;
    sh->source_line = s->header_line + 1;
    if (s->format != AMBER_SHADER_PASSTHROUGH) {
        size_t length = s->body_length;
        while (length > 0 && (s->body[length - 1] == '\n' || s->body[length - 1] == '\r'))
            --length;
        sh->source = malloc(length + 1);
        if (sh->source == NULL)
            return parse_limit(p, &at, "out of memory for a shader");
        memcpy(sh->source, s->body, length);
        sh->source[length] = '\0';
        sh->source_length = length;
    }
    struct amber_attached_shader *a = &pl->shaders[pl->shader_count++];
    memset(a, 0, sizeof(*a));
    a->shader = p->script->shader_count - 1;
    a->stage = s->stage;
    snprintf(a->entry, sizeof(a->entry), "main");
    return true;
}

/* --- [require] ------------------------------------------------------------------------------- */

static bool add_requirement(struct parser *p, const struct amber_token *name, int kind)
{
    if (name->length >= AMBER_NAME_MAX)
        return parse_error(p, name, "a name longer than %d characters", AMBER_NAME_MAX - 1);
    struct amber_requirement *r = parse_grow(p, (void **)&p->script->requirements, &p->script->requirement_count,
                                             sizeof(*r), AMBER_MAX_OBJECTS, name, "requirements");
    if (r == NULL)
        return false;
    r->where = (struct amber_location){name->line, name->column};
    r->kind = kind;
    parse_copy(r->name, sizeof(r->name), name->text);
    return true;
}

static bool is_extension_name(const char *name)
{
    for (const char *c = name; *c; ++c)
        if (!isalnum((unsigned char)*c) && *c != '_')
            return false;
    return *name != '\0';
}

static bool parse_require(struct vk_state *st, uint32_t *fb_width, uint32_t *fb_height, char *fb_format,
                          char *depth_format)
{
    struct parser *p = st->p;
    struct amber_token t;
    for (;;) {
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_FILE)
            return true;
        if (t.kind == AMBER_TOKEN_END_OF_LINE)
            continue;
        if (t.too_long)
            return parse_error(p, &t, "a word longer than %d characters", AMBER_TOKEN_MAX - 1);
        if (amber_word_is(&t, "framebuffer") || amber_word_is(&t, "depthstencil")) {
            struct amber_token format;
            if (!parse_word(p, &format, "an image format"))
                return false;
            if (amber_format_from_name(format.text) == VK_FORMAT_UNDEFINED)
                return parse_error(p, &format, "unknown image format '%s' (R8G8B8A8_UNORM, D32_SFLOAT_S8_UINT, ...)",
                                   format.text);
            if (format.length >= 64)
                return parse_error(p, &format, "'%s' is not an image format", format.text);
            memcpy(amber_word_is(&t, "framebuffer") ? fb_format : depth_format, format.text, format.length + 1);
        } else if (amber_word_is(&t, "fbsize")) {
            if (!parse_u32(p, fb_width, "the framebuffer width") || !parse_u32(p, fb_height, "the framebuffer height"))
                return false;
            if (*fb_width == 0 || *fb_height == 0 || *fb_width > AMBER_MAX_IMAGE_SIDE ||
                *fb_height > AMBER_MAX_IMAGE_SIDE)
                return parse_error(p, &t, "fbsize: width and height must be 1 to %u", AMBER_MAX_IMAGE_SIDE);
        } else if (amber_word_is(&t, "fence_timeout")) {
            uint32_t ignored; /* the probe's own watchdog (--timeout) bounds every file */
            if (!parse_u32(p, &ignored, "the fence timeout in milliseconds"))
                return false;
        } else {
            switch (amber_feature_lookup(t.text, NULL)) {
            case AMBER_FEATURE_KNOWN:
                if (!add_requirement(p, &t, AMBER_REQUIRE_FEATURE))
                    return false;
                break;
            case AMBER_FEATURE_NOT_IN_HEADERS:
                parse_unsupported(p, &t, "feature %s: this build's Vulkan headers do not define it", t.text);
                break;
            case AMBER_FEATURE_UNKNOWN:
                if (!is_extension_name(t.text))
                    return parse_error(p, &t,
                                       "unknown feature or extension '%s' (a feature Amber names, or an extension "
                                       "of letters, digits and '_')",
                                       t.text);
                /* as Amber: this one is the instance's, every other the device's */
                if (!add_requirement(p, &t,
                                     amber_word_is(&t, "VK_KHR_get_physical_device_properties2")
                                         ? AMBER_REQUIRE_INSTANCE_EXTENSION
                                         : AMBER_REQUIRE_EXTENSION))
                    return false;
                break;
            }
        }
        if (!parse_end_of_line(p, "the requirement"))
            return false;
    }
}

/* --- [vertex data] and [indices] ------------------------------------------------------------- */

/* "R32G32_SFLOAT", or "float/vec2" as GL and GLSL types */
static bool vertex_format_name(const char *spec, char *name, size_t size)
{
    const char *slash = strchr(spec, '/');
    if (slash == NULL) {
        snprintf(name, size, "%s", spec);
        return true;
    }
    static const struct {
        const char *gl;
        const char *bits, *mode;
    } gl_types[] = {{"byte", "8", "SINT"},    {"ubyte", "8", "UINT"},    {"short", "16", "SINT"},
                    {"ushort", "16", "UINT"}, {"int", "32", "SINT"},     {"uint", "32", "UINT"},
                    {"half", "16", "SFLOAT"}, {"float", "32", "SFLOAT"}, {"double", "64", "SFLOAT"}};
    size_t gl_length = (size_t)(slash - spec);
    const char *glsl = slash + 1;
    for (size_t i = 0; i < sizeof(gl_types) / sizeof(gl_types[0]); ++i) {
        if (strlen(gl_types[i].gl) != gl_length || strncmp(spec, gl_types[i].gl, gl_length) != 0)
            continue;
        int components = 0;
        if (strcmp(glsl, "float") == 0 || strcmp(glsl, "double") == 0 || strcmp(glsl, "int") == 0 ||
            strcmp(glsl, "uint") == 0)
            components = 1;
        else if (strncmp(glsl, "vec", 3) == 0 && glsl[3] >= '2' && glsl[3] <= '4' && glsl[4] == '\0')
            components = glsl[3] - '0';
        else if ((glsl[0] == 'd' || glsl[0] == 'i' || glsl[0] == 'u') && strncmp(glsl + 1, "vec", 3) == 0 &&
                 glsl[4] >= '2' && glsl[4] <= '4' && glsl[5] == '\0')
            components = glsl[4] - '0';
        if (components == 0)
            return false;
        size_t at = 0;
        for (int c = 0; c < components && at < size; ++c)
            at += (size_t)snprintf(name + at, size - at, "%c%s", "RGBA"[c], gl_types[i].bits);
        if (at < size)
            snprintf(name + at, size - at, "_%s", gl_types[i].mode);
        return true;
    }
    return false;
}

static bool is_packed(const struct amber_buffer *b)
{
    return strstr(amber_format_name(b->layout.format), "_PACK") != NULL;
}

/* One more element of `b` (grown by doubling), zeroed; NULL with an error. */
static uint8_t *next_element(struct parser *p, struct amber_buffer *b, uint64_t *capacity, const struct amber_token *at)
{
    uint64_t stride = b->layout.stride;
    if ((b->element_count + 1) * stride > AMBER_MAX_BUFFER_BYTES) {
        parse_limit(p, at, "%s would hold more than %llu MiB: beyond preflight's limit", b->name,
                    AMBER_MAX_BUFFER_BYTES >> 20);
        return NULL;
    }
    if (b->element_count == *capacity) {
        uint64_t grown = *capacity ? *capacity * 2 : 64;
        uint8_t *bytes = realloc(b->bytes, (size_t)(grown * stride));
        if (bytes == NULL) {
            parse_limit(p, at, "out of memory for %s", b->name);
            return NULL;
        }
        b->bytes = bytes;
        *capacity = grown;
    }
    uint8_t *element = b->bytes + b->element_count++ * stride;
    memset(element, 0, (size_t)stride);
    return element;
}

static bool encode_value(struct parser *p, const struct amber_buffer *b, const struct amber_segment *s,
                         const struct amber_token *t, uint8_t *element)
{
    struct amber_number n;
    if (!parse_number_token(t, &n))
        return parse_error(p, t, "expected a number for %s, got '%s'", b->name, t->text);
    if (!amber_mode_is_float(s->mode) && n.is_float)
        return parse_error(p, t, "%s takes integers, not '%s'", b->name, t->text);
    vk_wrap_integer(s, &n);
    char error[160];
    if (!amber_encode(s, &n, element, error, sizeof(error)))
        return parse_error(p, t, "%s: %s", b->name, error);
    return true;
}

#define MAX_VERTEX_COLUMNS AMBER_MAX_VERTEX_INPUTS

static bool parse_vertex_data(struct vk_state *st)
{
    struct parser *p = st->p;
    struct amber_token t;
    do
        amber_lexer_next(&p->lexer, &t);
    while (t.kind == AMBER_TOKEN_END_OF_LINE);
    if (t.kind == AMBER_TOKEN_END_OF_FILE)
        return true;
    uint32_t buffers[MAX_VERTEX_COLUMNS], columns = 0;
    uint64_t capacity[MAX_VERTEX_COLUMNS] = {0};
    struct amber_pipeline *pl = &st->current;
    for (; t.kind == AMBER_TOKEN_WORD; amber_lexer_next(&p->lexer, &t)) {
        char *slash = strchr(t.text, '/');
        char format[64];
        char *end = NULL;
        unsigned long location = slash ? strtoul(t.text, &end, 10) : 0;
        if (slash == NULL || end != slash || slash == t.text || location >= 32)
            return parse_error(p, &t,
                               "expected a vertex data header location/FORMAT or location/gl_type/glsl_type, "
                               "got '%s'",
                               t.text);
        if (!vertex_format_name(slash + 1, format, sizeof(format)))
            return parse_error(p, &t, "unknown vertex data type '%s'", slash + 1);
        if (columns == MAX_VERTEX_COLUMNS || pl->vertex_input_count == AMBER_MAX_VERTEX_INPUTS)
            return parse_error(p, &t, "more than %d vertex attributes", AMBER_MAX_VERTEX_INPUTS);
        char name[32];
        snprintf(name, sizeof(name), "vertices_%u", columns);
        if (!add_format_buffer(p, name, format, false, &t, &buffers[columns]))
            return false;
        struct amber_buffer *b = &p->script->buffers[buffers[columns]];
        b->init = AMBER_INIT_BYTES;
        pl->vertex_inputs[pl->vertex_input_count++] = (struct amber_vertex_input){
            .buffer = buffers[columns],
            .location = (uint32_t)location,
            .format = b->layout.format,
            .stride = b->layout.stride,
            .size = b->layout.stride,
        };
        ++columns;
    }
    if (t.kind != AMBER_TOKEN_END_OF_LINE && t.kind != AMBER_TOKEN_END_OF_FILE)
        return parse_error(p, &t, "expected a vertex data header, got '%s'", t.text);
    for (;;) {
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_FILE)
            break;
        if (t.kind == AMBER_TOKEN_END_OF_LINE)
            continue;
        for (uint32_t c = 0; c < columns; ++c) {
            struct amber_buffer *b = &p->script->buffers[buffers[c]];
            uint8_t *element = next_element(p, b, &capacity[c], &t);
            if (element == NULL)
                return false;
            if (is_packed(b)) { /* one value: the whole packed word */
                struct amber_integer raw;
                if (t.kind != AMBER_TOKEN_WORD || !amber_token_integer(&t, &raw) || raw.negative)
                    return parse_error(p, &t,
                                       "expected the packed value of %s (an integer such as 0xff00ff00), got "
                                       "'%s'",
                                       amber_format_name(b->layout.format), t.text);
                for (uint32_t k = 0; k < b->layout.stride && k < 8; ++k)
                    element[k] = (uint8_t)(raw.magnitude >> (8 * k));
                amber_lexer_next(&p->lexer, &t);
                continue;
            }
            for (uint32_t k = 0; k < b->layout.count; ++k) {
                if (t.kind != AMBER_TOKEN_WORD)
                    return parse_error(p, &t, "too few values in this vertex data row (%s takes %u)",
                                       amber_format_name(b->layout.format), b->layout.count);
                if (!encode_value(p, b, &b->layout.segments[k], &t, element))
                    return false;
                amber_lexer_next(&p->lexer, &t);
            }
        }
        if (t.kind != AMBER_TOKEN_END_OF_LINE && t.kind != AMBER_TOKEN_END_OF_FILE)
            return parse_error(p, &t, "more values in this vertex data row than its header has columns, at '%s'",
                               t.text);
        if (t.kind == AMBER_TOKEN_END_OF_FILE)
            break;
    }
    for (uint32_t c = 0; c < columns; ++c) {
        struct amber_buffer *b = &p->script->buffers[buffers[c]];
        p->script->total_bytes += b->element_count * b->layout.stride;
    }
    if (p->script->total_bytes > AMBER_MAX_TOTAL_BYTES)
        return parse_limit(p, &t, "the file's buffers would hold more than %llu MiB: beyond preflight's limit",
                           AMBER_MAX_TOTAL_BYTES >> 20);
    return true;
}

static bool parse_indices(struct vk_state *st)
{
    struct parser *p = st->p;
    struct amber_token t = {.line = p->lexer.line, .column = 1};
    uint32_t index;
    if (st->current.index_buffer >= 0)
        return parse_error(p, &t, "a second [indices] section");
    if (!add_format_buffer(p, "indices", "R32_UINT", false, &t, &index))
        return false;
    struct amber_buffer *b = &p->script->buffers[index];
    b->init = AMBER_INIT_BYTES;
    uint64_t capacity = 0;
    for (;;) {
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_FILE)
            break;
        if (t.kind == AMBER_TOKEN_END_OF_LINE)
            continue;
        struct amber_integer value;
        if (!amber_token_integer(&t, &value) || value.negative)
            return parse_error(p, &t, "expected an index (an integer), got '%s'", t.text);
        if (value.magnitude > UINT16_MAX) /* as Amber: indices are 16-bit values */
            return parse_error(p, &t, "the index %s is larger than 65535", t.text);
        uint8_t *element = next_element(p, b, &capacity, &t);
        if (element == NULL)
            return false;
        uint32_t v = (uint32_t)value.magnitude;
        memcpy(element, &v, sizeof(v));
    }
    p->script->total_bytes += b->element_count * 4;
    st->current.index_buffer = index;
    return true;
}

/* --- the file -------------------------------------------------------------------------------- */

/* Every pipeline takes the file's final bindings and push constants; every buffer its size. */
static bool finish(struct vk_state *st)
{
    struct parser *p = st->p;
    struct amber_script *s = p->script;
    struct amber_token at = {.line = 1, .column = 1};
    if (s->pipeline_count == 0) { /* no command: the shaders still compile, as Amber builds the pipeline */
        uint32_t ignored;
        if (!vk_pipeline_for_command(st, &at, &ignored))
            return false;
    }
    /* VkScript has no TARGET_ENV: a file that requires VK_KHR_spirv_1_4 is written in SPIR-V 1.4
     * (the CTS assembles its spirv1p4 files for Vulkan 1.1 with SPIR-V 1.4); others in 1.0, as Amber */
    for (uint32_t i = 0; i < s->requirement_count; ++i)
        if (strcmp(s->requirements[i].name, "VK_KHR_spirv_1_4") == 0)
            for (uint32_t k = 0; k < s->shader_count; ++k)
                snprintf(s->shaders[k].target_env, sizeof(s->shaders[k].target_env), "vulkan1.1spv1.4");
    int64_t push = -1;
    uint32_t bindings = 0;
    for (uint32_t i = 0; i < st->buffer_count; ++i) {
        struct vk_buffer *v = &st->buffers[i];
        struct amber_buffer *b = &s->buffers[v->buffer];
        uint64_t stride = b->layout.stride ? b->layout.stride : 1;
        uint64_t bytes = v->size_elements * stride > v->extent ? v->size_elements * stride : v->extent;
        if (v->size_elements > AMBER_MAX_BUFFER_BYTES || bytes > AMBER_MAX_BUFFER_BYTES)
            return parse_limit(p, &at, "%s would hold %llu bytes: beyond preflight's limit of %llu MiB per buffer",
                               b->name, (unsigned long long)bytes, AMBER_MAX_BUFFER_BYTES >> 20);
        b->element_count = (bytes + stride - 1) / stride;
        s->total_bytes += b->element_count * stride;
        if (v->push_constants)
            push = v->buffer;
        else
            ++bindings;
    }
    if (s->total_bytes > AMBER_MAX_TOTAL_BYTES)
        return parse_limit(p, &at, "the file's buffers would hold more than %llu MiB: beyond preflight's limit",
                           AMBER_MAX_TOTAL_BYTES >> 20);
    for (uint32_t i = 0; i < s->pipeline_count; ++i) {
        struct amber_pipeline *pl = &s->pipelines[i];
        pl->push_constants = push;
        if (bindings == 0)
            continue;
        pl->bindings = calloc(bindings, sizeof(*pl->bindings));
        if (pl->bindings == NULL)
            return parse_limit(p, &at, "out of memory for the pipeline's bindings");
        for (uint32_t k = 0; k < st->buffer_count; ++k) {
            const struct vk_buffer *v = &st->buffers[k];
            if (v->push_constants)
                continue;
            struct amber_binding *b = &pl->bindings[pl->binding_count++];
            b->kind = v->kind;
            b->set = v->set;
            b->binding = v->binding;
            b->count = 1;
            b->objects[0] = v->buffer;
            b->descriptor_ranges[0] = UINT64_MAX;
            b->where = s->buffers[v->buffer].where;
        }
    }
    return true;
}

bool parse_vkscript(struct parser *p, const char *text, size_t length)
{
    struct section *sections = calloc(MAX_SECTIONS, sizeof(*sections));
    struct vk_state *st = calloc(1, sizeof(*st));
    bool ok = sections != NULL && st != NULL;
    uint32_t count = 0;
    if (!ok)
        parse_limit(p, &(struct amber_token){.line = 1, .column = 1}, "out of memory");
    ok = ok && split_sections(p, text, length, sections, &count);
    if (ok) {
        st->p = p;
        st->snapshot = -1;
        st->clear_depth = 1.0f;
        parse_pipeline_defaults(&st->current);
        for (uint32_t i = 0; i < count; ++i)
            if (sections[i].kind == SECTION_SHADER && sections[i].stage != AMBER_STAGE_COMPUTE)
                st->graphics = true;
        st->current.type = st->graphics ? AMBER_PIPELINE_GRAPHICS : AMBER_PIPELINE_COMPUTE;
    }
    /* [require] first: the framebuffer's size and formats hold for the whole file */
    uint32_t width = AMBER_DEFAULT_FRAMEBUFFER, height = AMBER_DEFAULT_FRAMEBUFFER;
    char fb_format[64] = "B8G8R8A8_UNORM", depth_format[64] = "";
    for (uint32_t i = 0; ok && !p->stop && i < count; ++i)
        if (sections[i].kind == SECTION_REQUIRE) {
            lex_section(p, text, &sections[i]);
            ok = parse_require(st, &width, &height, fb_format, depth_format);
        }
    if (ok && !p->stop && st->graphics) {
        struct amber_token at = {.line = 1, .column = 1};
        uint32_t fb;
        ok = add_format_buffer(p, "framebuffer", fb_format, true, &at, &fb);
        if (ok) {
            st->current.colors[0] = (struct amber_attachment){fb, 0, 0};
            st->current.color_count = 1;
            st->current.width = width;
            st->current.height = height;
            st->current.framebuffer_set = true;
        }
        if (ok && depth_format[0] != '\0') {
            uint32_t depth;
            ok = add_format_buffer(p, "depthstencil", depth_format, true, &at, &depth);
            if (ok && !amber_format_is_depth_stencil(p->script->buffers[depth].layout.format))
                ok = parse_error(p, &at, "depthstencil %s is not a depth or stencil format", depth_format);
            if (ok)
                st->current.depth_stencil = depth;
        }
    }
    for (uint32_t i = 0; ok && !p->stop && i < count; ++i) {
        if (sections[i].kind == SECTION_SHADER)
            ok = add_shader(st, &sections[i]);
    }
    if (ok && !p->stop && st->graphics) {
        bool vertex = false, compute = false;
        for (uint32_t i = 0; i < st->current.shader_count; ++i) {
            vertex = vertex || st->current.shaders[i].stage == AMBER_STAGE_VERTEX;
            compute = compute || st->current.shaders[i].stage == AMBER_STAGE_COMPUTE;
        }
        struct amber_token at = {.line = 1, .column = 1};
        if (compute)
            ok = parse_error(p, &at,
                             "a compute shader beside graphics shaders: the file's one pipeline is either "
                             "compute or graphics");
        else if (!vertex) /* as Amber: a fragment shader is not required */
            ok = parse_error(p, &at, "a graphics pipeline needs a vertex shader ([vertex shader passthrough] is one)");
    }
    if (ok && !p->stop && st->current.shader_count == 0)
        ok = parse_error(p, &(struct amber_token){.line = 1, .column = 1},
                         "the file has no shader section (read as VkScript: it does not start with #!amber)");
    for (uint32_t i = 0; ok && !p->stop && i < count; ++i) {
        if (sections[i].kind != SECTION_VERTEX_DATA && sections[i].kind != SECTION_INDICES)
            continue;
        if (!st->graphics) {
            ok = parse_error(p, &(struct amber_token){.line = sections[i].header_line, .column = 1},
                             "vertex data and indices need a graphics pipeline (a vertex and a fragment shader)");
            break;
        }
        lex_section(p, text, &sections[i]);
        ok = sections[i].kind == SECTION_VERTEX_DATA ? parse_vertex_data(st) : parse_indices(st);
    }
    for (uint32_t i = 0; ok && !p->stop && i < count; ++i)
        if (sections[i].kind == SECTION_TEST) {
            lex_section(p, text, &sections[i]);
            ok = vk_parse_test(st);
        }
    if (ok && !p->stop)
        ok = finish(st);
    free(sections);
    free(st);
    return ok && !p->stop;
}
