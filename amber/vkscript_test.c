/* VkScript's [test] section: draws, dispatches, clears, buffer contents set by the host, probes of
 * the framebuffer and of storage buffers, tolerances, entry points and pipeline state, each
 * turned into the script's commands (docs/amber.md "VkScript" says how each maps). */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vkscript.h"

static struct amber_command *add_command(struct vk_state *st, enum amber_command_kind kind,
                                         const struct amber_token *at)
{
    struct parser *p = st->p;
    struct amber_command *c = parse_grow(p, (void **)&p->script->commands, &p->script->command_count, sizeof(*c),
                                         AMBER_MAX_COMMANDS, at, "commands");
    if (c == NULL)
        return NULL;
    memset(c, 0, sizeof(*c));
    c->kind = kind;
    c->where = (struct amber_location){at->line, at->column};
    return c;
}

/* A probe reads memory, not pipeline state: the last pipeline made serves (one is made if none
 * was), so state set between a draw and its probe makes no pipeline of its own. */
static bool pipeline_for_probe(struct vk_state *st, const struct amber_token *at, uint32_t *index)
{
    if (st->snapshot >= 0) {
        *index = (uint32_t)st->snapshot;
        return true;
    }
    return vk_pipeline_for_command(st, at, index);
}

static bool needs_graphics(struct vk_state *st, const struct amber_token *at, const char *what)
{
    if (st->graphics)
        return true;
    return parse_error(st->p, at, "%s needs a graphics pipeline (a vertex and a fragment shader section)", what);
}

/* "3" (set 0) or "1:3" */
static bool parse_binding(struct vk_state *st, uint32_t *set, uint32_t *binding)
{
    struct amber_token t;
    if (!parse_word(st->p, &t, "a binding (N or set:N)"))
        return false;
    struct amber_token number = t;
    char *colon = strchr(number.text, ':');
    *set = 0;
    if (colon != NULL) {
        *colon = '\0';
        number.length = strlen(number.text);
        struct amber_integer v;
        if (!amber_token_integer(&number, &v) || v.negative || v.magnitude > UINT32_MAX)
            return parse_error(st->p, &t, "expected a descriptor set before ':', got '%s'", t.text);
        *set = (uint32_t)v.magnitude;
        memmove(number.text, colon + 1, strlen(colon + 1) + 1);
        number.length = strlen(number.text);
    }
    struct amber_integer v;
    if (!amber_token_integer(&number, &v) || v.negative || v.magnitude > UINT32_MAX)
        return parse_error(st->p, &t, "expected a binding (N or set:N), got '%s'", number.text);
    *binding = (uint32_t)v.magnitude;
    if (*set >= 32)
        return parse_error(st->p, &t, "descriptor set %u: preflight binds sets 0 to 31", *set);
    return true;
}

static bool parse_type(struct vk_state *st, struct amber_type *type)
{
    struct amber_token t;
    if (!parse_word(st->p, &t, "a data type (int, uint, float, vec4, ivec2, mat3, ...)"))
        return false;
    if (!vk_datum_type(t.text, type))
        return parse_error(st->p, &t,
                           "unknown data type '%s' (int, uint, int8_t ... uint64_t, float, double, vecN, ivecN, "
                           "uvecN, dvecN, i8vecN ... u64vecN, matN, matCxR, dmatCxR)",
                           t.text);
    return true;
}

/* The values to the end of the line, a non-zero multiple of the type's rows; integers only for an
 * integer type. */
static bool parse_values(struct vk_state *st, const struct amber_type *type, const struct amber_token *at,
                         struct amber_number **values, uint32_t *count)
{
    struct parser *p = st->p;
    struct amber_number *list = NULL;
    uint32_t capacity = 0, n = 0;
    bool ok = true;
    *values = NULL;
    *count = 0;
    while (ok) {
        struct amber_token t;
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_LINE || t.kind == AMBER_TOKEN_END_OF_FILE)
            break;
        struct amber_number value;
        if (t.kind != AMBER_TOKEN_WORD || !parse_number_token(&t, &value) ||
            (value.is_float && !amber_mode_is_float(type->mode))) {
            ok = parse_error(p, &t, "expected %s, got '%s'",
                             amber_mode_is_float(type->mode) ? "a number" : "an integer", t.text);
        } else if (n == AMBER_MAX_EXPECT_VALUES * 4) {
            ok = parse_limit(p, &t, "more than %d values on one line: beyond preflight's limit",
                             AMBER_MAX_EXPECT_VALUES * 4);
        } else {
            if (n == capacity) {
                capacity = capacity ? capacity * 2 : 16;
                struct amber_number *grown = realloc(list, capacity * sizeof(*grown));
                if (grown == NULL) {
                    ok = parse_limit(p, &t, "out of memory for values");
                    break;
                }
                list = grown;
            }
            list[n++] = value;
        }
    }
    if (ok && (n == 0 || n % type->rows != 0))
        ok = parse_error(p, at, "%u values: the command takes a non-zero multiple of %u", n, type->rows);
    if (!ok) {
        free(list);
        return false;
    }
    *values = list;
    *count = n;
    return true;
}

/* `values` laid out as an array of `layout` from its start; `*length` ends at the last value. */
static uint8_t *encode_values(struct vk_state *st, const struct amber_layout *layout, const struct amber_number *values,
                              uint32_t count, const struct amber_token *at, uint32_t *length)
{
    uint32_t elements = (count + layout->count - 1) / layout->count;
    uint8_t *bytes = calloc((size_t)elements * layout->stride + 8, 1);
    if (bytes == NULL) {
        parse_limit(st->p, at, "out of memory for values");
        return NULL;
    }
    for (uint32_t i = 0; i < count; ++i) {
        const struct amber_segment *s = &layout->segments[i % layout->count];
        struct amber_number n = values[i];
        vk_wrap_integer(s, &n);
        char error[160];
        if (!amber_encode(s, &n, bytes + (size_t)(i / layout->count) * layout->stride, error, sizeof(error))) {
            free(bytes);
            parse_error(st->p, at, "%s", error);
            return NULL;
        }
        *length = (i / layout->count) * layout->stride + (s->bit_offset + s->bits + 7) / 8;
    }
    return bytes;
}

/* ssbo B subdata T offset values; uniform ubo B T offset values; uniform T offset values */
static bool parse_write(struct vk_state *st, struct vk_buffer *v, const struct amber_token *at)
{
    struct parser *p = st->p;
    struct amber_type type;
    uint32_t offset;
    if (!parse_type(st, &type))
        return false;
    struct amber_layout own = {0};
    const struct amber_layout *layout;
    if (v->push_constants) { /* each push is its own type, as Amber keeps a buffer per command */
        char error[160];
        if (!amber_layout_build(&type, false, NULL, 0, &own, error, sizeof(error)))
            return parse_error(p, at, "%s", error);
        layout = &own;
    } else {
        if (!vk_buffer_type(st, v, &type, at))
            return false;
        layout = &p->script->buffers[v->buffer].layout;
    }
    struct amber_token offset_token = *amber_lexer_peek(&p->lexer);
    bool ok = parse_u32(p, &offset, "the byte offset");
    if (ok && offset % layout->stride != 0)
        ok = parse_error(p, &offset_token, "the offset %u is not a multiple of the type's size (%u bytes)", offset,
                         layout->stride);
    struct amber_number *values = NULL;
    uint32_t count = 0, length = 0;
    ok = ok && parse_values(st, &type, at, &values, &count);
    uint8_t *bytes = ok ? encode_values(st, layout, values, count, at, &length) : NULL;
    free(values);
    amber_layout_free(&own);
    if (bytes == NULL)
        return false;
    struct amber_command *c = add_command(st, AMBER_CMD_WRITE_BUFFER, at);
    if (c == NULL) {
        free(bytes);
        return false;
    }
    c->write.buffer = v->buffer;
    c->write.offset = offset;
    c->write.bytes = bytes;
    c->write.length = length;
    if ((uint64_t)offset + length > v->extent)
        v->extent = (uint64_t)offset + length;
    return true;
}

static bool parse_ssbo(struct vk_state *st, const struct amber_token *at)
{
    uint32_t set, binding;
    if (!parse_binding(st, &set, &binding))
        return false;
    struct vk_buffer *v = vk_bound_buffer(st, set, binding, AMBER_BIND_STORAGE, true, at);
    if (v == NULL)
        return false;
    const struct amber_token *next = amber_lexer_peek(&st->p->lexer);
    if (amber_word_is(next, "subdata")) {
        struct amber_token ignored;
        amber_lexer_next(&st->p->lexer, &ignored);
        return parse_write(st, v, at);
    }
    uint64_t size;
    if (!parse_u64(st->p, &size, "the buffer's size in elements") || !parse_end_of_line(st->p, "ssbo's size"))
        return false;
    if (size > AMBER_MAX_BUFFER_BYTES)
        return parse_limit(st->p, at, "ssbo of %llu elements: beyond preflight's limit", (unsigned long long)size);
    v->size_elements = size;
    return true;
}

static bool parse_uniform(struct vk_state *st, const struct amber_token *at)
{
    if (amber_word_is(amber_lexer_peek(&st->p->lexer), "ubo")) {
        struct amber_token ignored;
        amber_lexer_next(&st->p->lexer, &ignored);
        uint32_t set, binding;
        if (!parse_binding(st, &set, &binding))
            return false;
        struct vk_buffer *v = vk_bound_buffer(st, set, binding, AMBER_BIND_UNIFORM, true, at);
        return v != NULL && parse_write(st, v, at);
    }
    struct vk_buffer *v = vk_push_buffer(st, at);
    return v != NULL && parse_write(st, v, at);
}

/* --- probes ---------------------------------------------------------------------------------- */

/* The rest of the line as numbers; '(' ')' ',' are separators (VkRunner's notation). */
static bool line_numbers(struct vk_state *st, double *numbers, uint32_t max, uint32_t *count,
                         const struct amber_token *at)
{
    struct parser *p = st->p;
    *count = 0;
    for (;;) {
        struct amber_token t;
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_LINE || t.kind == AMBER_TOKEN_END_OF_FILE)
            return true;
        char *word = t.text;
        while (*word) {
            while (*word == '(' || *word == ')' || *word == ',')
                ++word;
            if (*word == '\0')
                break;
            size_t n = strcspn(word, "(),");
            struct amber_token part = t;
            memcpy(part.text, word, n);
            part.text[n] = '\0';
            part.length = n;
            double value;
            if (!amber_token_double(&part, &value))
                return parse_error(p, &t, "expected a number, got '%s'", part.text);
            if (*count == max)
                return parse_error(p, at, "more numbers than the command takes (%u)", max);
            numbers[(*count)++] = value;
            word += n;
        }
    }
}

static uint32_t to_pixel(double v)
{
    return v <= 0 ? 0 : v >= 4294967295.0 ? UINT32_MAX : (uint32_t)v;
}

static bool parse_probe(struct vk_state *st, const struct amber_token *at, bool relative)
{
    struct parser *p = st->p;
    struct amber_token t;
    if (!parse_word(p, &t, "ssbo, rect, all, rgb or rgba"))
        return false;
    if (!needs_graphics(st, at, "probe"))
        return false;
    bool rect = false, all = false;
    if (amber_word_is(&t, "rect") || amber_word_is(&t, "all")) {
        rect = true;
        all = amber_word_is(&t, "all");
        if (!parse_word(p, &t, "rgb or rgba"))
            return false;
    }
    if (!amber_word_is(&t, "rgb") && !amber_word_is(&t, "rgba"))
        return parse_error(p, &t, "expected rgb or rgba, got '%s'", t.text);
    bool rgba = amber_word_is(&t, "rgba");
    double n[8];
    uint32_t count;
    if (!line_numbers(st, n, 8, &count, at))
        return false;
    uint32_t place = all ? 0 : rect ? 4 : 2, colours = rgba ? 4 : 3;
    if (count != place + colours)
        return parse_error(p, at, "probe%s%s %s takes %u numbers (%s), not %u", rect && !all ? " rect" : "",
                           all ? " all" : "", rgba ? "rgba" : "rgb", place + colours,
                           all    ? "the colour"
                           : rect ? "x, y, width, height and the colour"
                                  : "x, y and the colour",
                           count);
    uint32_t pipeline;
    if (!pipeline_for_probe(st, at, &pipeline))
        return false;
    const struct amber_pipeline *pl = &p->script->pipelines[pipeline];
    struct amber_command *c = add_command(st, AMBER_CMD_EXPECT_PIXELS, at);
    if (c == NULL)
        return false;
    c->pipeline = pipeline;
    c->pixels.buffer = pl->colors[0].buffer;
    c->pixels.rgba = rgba;
    float w = (float)pl->width, h = (float)pl->height; /* relative: as Amber, in float */
    if (all) {
        c->pixels.width = pl->width;
        c->pixels.height = pl->height;
    } else if (relative) {
        c->pixels.x = to_pixel(w * (float)n[0]);
        c->pixels.y = to_pixel(h * (float)n[1]);
        c->pixels.width = rect ? to_pixel(w * (float)n[2]) : 1;
        c->pixels.height = rect ? to_pixel(h * (float)n[3]) : 1;
    } else {
        c->pixels.x = to_pixel(n[0]);
        c->pixels.y = to_pixel(n[1]);
        c->pixels.width = rect ? to_pixel(n[2]) : 1;
        c->pixels.height = rect ? to_pixel(n[3]) : 1;
    }
    for (uint32_t i = 0; i < colours; ++i) /* written in [0,1] (or as the format holds); the command keeps x255 */
        c->pixels.expected[i] = (float)(n[place + i] * 255.0);
    c->pixels.tolerance_count = st->tolerance_count;
    memcpy(c->pixels.tolerances, st->tolerances, sizeof(c->pixels.tolerances));
    return true;
}

static bool parse_probe_ssbo(struct vk_state *st, const struct amber_token *at)
{
    struct parser *p = st->p;
    struct amber_type type;
    uint32_t set, binding;
    uint64_t offset;
    struct amber_token op;
    if (!parse_type(st, &type) || !parse_binding(st, &set, &binding))
        return false;
    struct vk_buffer *v = vk_bound_buffer(st, set, binding, AMBER_BIND_STORAGE, false, at);
    if (v == NULL || !vk_buffer_type(st, v, &type, at) || !parse_u64(p, &offset, "the byte offset") ||
        !parse_word(p, &op, "a comparison (==, !=, <, <=, >, >=, ~=)"))
        return false;
    static const char *const names[] = {"==", "!=", "<", "<=", ">", ">=", "~="};
    static const enum amber_comparator ops[] = {AMBER_CMP_EQ, AMBER_CMP_NE, AMBER_CMP_LT, AMBER_CMP_LE,
                                                AMBER_CMP_GT, AMBER_CMP_GE, AMBER_CMP_EQ};
    int found = -1;
    for (int i = 0; i < 7; ++i)
        if (amber_word_is(&op, names[i]))
            found = i;
    if (found < 0)
        return parse_error(p, &op, "expected a comparison (==, !=, <, <=, >, >=, ~=), got '%s'", op.text);
    struct amber_number *values;
    uint32_t count;
    if (!parse_values(st, &type, at, &values, &count))
        return false;
    const struct amber_layout *layout = &p->script->buffers[v->buffer].layout;
    for (uint32_t i = 0; i < count; ++i) { /* as Amber compares: the expected value in the probed type first */
        const struct amber_segment *s = &layout->segments[i % layout->count];
        vk_wrap_integer(s, &values[i]);
        if (values[i].is_float && s->mode == AMBER_MODE_SFLOAT && s->bits == 32)
            values[i].value = (double)(float)values[i].value;
        else if (values[i].is_float && s->mode == AMBER_MODE_SFLOAT && s->bits == 16)
            values[i].value = (double)amber_half_to_float(amber_float_to_half((float)values[i].value));
    }
    uint32_t pipeline;
    if (!pipeline_for_probe(st, at, &pipeline)) {
        free(values);
        return false;
    }
    struct amber_command *c = add_command(st, AMBER_CMD_EXPECT_VALUES, at);
    if (c == NULL) {
        free(values);
        return false;
    }
    c->pipeline = pipeline;
    c->values.buffer = v->buffer;
    c->values.offset = offset;
    c->values.comparator = ops[found];
    c->values.values = values;
    c->values.value_count = count;
    if (found == 6) { /* ~=: the tolerances set; without any, Amber's 0.000001 % */
        c->values.tolerance_count = st->tolerance_count ? st->tolerance_count : 1;
        if (st->tolerance_count)
            memcpy(c->values.tolerances, st->tolerances, sizeof(c->values.tolerances));
        else
            c->values.tolerances[0] = (struct amber_tolerance){0.000001, true};
    }
    return true;
}

static bool parse_tolerance(struct vk_state *st, const struct amber_token *at)
{
    struct parser *p = st->p;
    struct amber_tolerance t[4];
    uint32_t count = 0;
    for (;;) {
        struct amber_token w;
        amber_lexer_next(&p->lexer, &w);
        if (w.kind == AMBER_TOKEN_END_OF_LINE || w.kind == AMBER_TOKEN_END_OF_FILE)
            break;
        char *text = w.text;
        while (*text) {
            while (*text == ',')
                ++text;
            if (*text == '\0')
                break;
            if (*text == '%') {
                if (count == 0)
                    return parse_error(p, &w, "'%%' without a tolerance before it");
                t[count - 1].percent = true;
                ++text;
                continue;
            }
            size_t n = strcspn(text, ",%");
            struct amber_token part = w;
            memcpy(part.text, text, n);
            part.text[n] = '\0';
            part.length = n;
            double value;
            if (!amber_token_double(&part, &value) || value < 0)
                return parse_error(p, &w, "expected a tolerance (a number, or a percentage such as 0.1%%), got '%s'",
                                   part.text);
            if (count == 4)
                return parse_error(p, at, "more than four tolerances");
            t[count++] = (struct amber_tolerance){value, false};
            text += n;
        }
    }
    if (count != 1 && count != 4)
        return parse_error(p, at, "tolerance takes one value or four, not %u", count);
    memcpy(st->tolerances, t, sizeof(t));
    st->tolerance_count = count;
    return true;
}

/* --- draws, dispatches, clears --------------------------------------------------------------- */

static bool parse_draw_rect(struct vk_state *st, const struct amber_token *at)
{
    struct parser *p = st->p;
    if (!needs_graphics(st, at, "draw rect"))
        return false;
    if (st->current.vertex_input_count > 1)
        return parse_error(p, at, "draw rect with more than one vertex data column (Amber refuses this too)");
    bool ortho = false;
    for (;;) {
        const struct amber_token *next = amber_lexer_peek(&p->lexer);
        if (amber_word_is(next, "ortho"))
            ortho = true;
        else if (!amber_word_is(next, "patch")) /* patch: the tessellation stages make it a patch list */
            break;
        struct amber_token ignored;
        amber_lexer_next(&p->lexer, &ignored);
    }
    float v[4];
    for (int i = 0; i < 4; ++i)
        if (!parse_float(p, &v[i], i < 2 ? "a coordinate" : "a size"))
            return false;
    uint32_t pipeline;
    if (!parse_end_of_line(p, "draw rect") || !vk_pipeline_for_command(st, at, &pipeline))
        return false;
    struct amber_command *c = add_command(st, AMBER_CMD_DRAW_RECT, at);
    if (c == NULL)
        return false;
    c->pipeline = pipeline;
    c->rect.x = v[0];
    c->rect.y = v[1];
    c->rect.width = v[2];
    c->rect.height = v[3];
    c->rect.ndc = !ortho;
    return true;
}

static const struct {
    const char *name;
    enum amber_topology topology;
} topologies[] = {
    {"PATCH_LIST", AMBER_TOPOLOGY_PATCH_LIST},
    {"POINT_LIST", AMBER_TOPOLOGY_POINT_LIST},
    {"GL_LINE_STRIP_ADJACENCY", AMBER_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY},
    {"GL_LINE_STRIP", AMBER_TOPOLOGY_LINE_STRIP},
    {"GL_LINES", AMBER_TOPOLOGY_LINE_LIST},
    {"GL_LINES_ADJACENCY", AMBER_TOPOLOGY_LINE_LIST_WITH_ADJACENCY},
    {"GL_PATCHES", AMBER_TOPOLOGY_PATCH_LIST},
    {"GL_POINTS", AMBER_TOPOLOGY_POINT_LIST},
    {"GL_TRIANGLE_STRIP", AMBER_TOPOLOGY_TRIANGLE_STRIP},
    {"GL_TRIANGLE_FAN", AMBER_TOPOLOGY_TRIANGLE_FAN},
    {"GL_TRIANGLES", AMBER_TOPOLOGY_TRIANGLE_LIST},
    {"GL_TRIANGLES_ADJACENCY", AMBER_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY},
    {"GL_TRIANGLE_STRIP_ADJACENCY", AMBER_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY},
    {"LINE_LIST", AMBER_TOPOLOGY_LINE_LIST},
    {"LINE_LIST_WITH_ADJACENCY", AMBER_TOPOLOGY_LINE_LIST_WITH_ADJACENCY},
    {"LINE_STRIP", AMBER_TOPOLOGY_LINE_STRIP},
    {"LINE_STRIP_WITH_ADJACENCY", AMBER_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY},
    {"TRIANGLE_FAN", AMBER_TOPOLOGY_TRIANGLE_FAN},
    {"TRIANGLE_LIST", AMBER_TOPOLOGY_TRIANGLE_LIST},
    {"TRIANGLE_LIST_WITH_ADJACENCY", AMBER_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY},
    {"TRIANGLE_STRIP", AMBER_TOPOLOGY_TRIANGLE_STRIP},
    {"TRIANGLE_STRIP_WITH_ADJACENCY", AMBER_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY},
};

static bool parse_draw_arrays(struct vk_state *st, const struct amber_token *at)
{
    struct parser *p = st->p;
    if (!needs_graphics(st, at, "draw arrays"))
        return false;
    bool indexed = false, instanced = false, found = false;
    enum amber_topology topology = AMBER_TOPOLOGY_TRIANGLE_LIST;
    struct amber_token t;
    while (!found) {
        if (!parse_word(p, &t, "indexed, instanced or a topology"))
            return false;
        if (amber_word_is(&t, "indexed")) {
            indexed = true;
            continue;
        }
        if (amber_word_is(&t, "instanced")) {
            instanced = true;
            continue;
        }
        for (size_t i = 0; i < sizeof(topologies) / sizeof(topologies[0]) && !found; ++i)
            if (amber_word_is(&t, topologies[i].name)) {
                topology = topologies[i].topology;
                found = true;
            }
        if (!found)
            return parse_error(p, &t,
                               "expected indexed, instanced or a topology (TRIANGLE_LIST, GL_TRIANGLES, ...), "
                               "got '%s'",
                               t.text);
    }
    uint32_t first, count, instances = 1;
    if (!parse_u32(p, &first, "the first vertex") || !parse_u32(p, &count, "the vertex count"))
        return false;
    const struct amber_token *next = amber_lexer_peek(&p->lexer);
    if (instanced && next->kind == AMBER_TOKEN_WORD && !parse_u32(p, &instances, "the instance count"))
        return false;
    if (!parse_end_of_line(p, "draw arrays"))
        return false;
    if (indexed && first > INT32_MAX)
        return parse_error(p, at, "an indexed draw's first vertex is a vertex offset: at most %d", INT32_MAX);
    if (indexed && st->current.index_buffer < 0)
        return parse_error(p, at, "draw arrays indexed needs an [indices] section");
    if (!indexed && st->current.vertex_input_count == 0)
        return parse_error(p, at, "draw arrays needs a [vertex data] section");
    uint32_t pipeline;
    if (!vk_pipeline_for_command(st, at, &pipeline))
        return false;
    struct amber_command *c = add_command(st, AMBER_CMD_DRAW_ARRAY, at);
    if (c == NULL)
        return false;
    c->pipeline = pipeline;
    c->draw.topology = topology;
    c->draw.indexed = indexed;
    c->draw.first = first;
    c->draw.first_is_vertex_offset = indexed; /* as Amber draws an indexed VkScript draw */
    c->draw.count = count;
    c->draw.instance_count = instances;
    return true;
}

static bool set_entry_point(struct vk_state *st, enum amber_stage stage, const struct amber_token *at)
{
    struct amber_token name;
    if (!parse_word(st->p, &name, "an entry point name") || !parse_end_of_line(st->p, "the entry point"))
        return false;
    if (name.length >= AMBER_NAME_MAX)
        return parse_error(st->p, &name, "a name longer than %d characters", AMBER_NAME_MAX - 1);
    for (uint32_t i = 0; i < st->current.shader_count; ++i)
        if (st->current.shaders[i].stage == stage) {
            memcpy(st->current.shaders[i].entry, name.text, name.length + 1);
            st->dirty = true;
            return true;
        }
    return parse_error(st->p, at, "an entry point for a stage the file has no shader of");
}

static bool parse_compute(struct vk_state *st, const struct amber_token *at)
{
    struct parser *p = st->p;
    if (amber_word_is(amber_lexer_peek(&p->lexer), "entrypoint")) {
        struct amber_token ignored;
        amber_lexer_next(&p->lexer, &ignored);
        return set_entry_point(st, AMBER_STAGE_COMPUTE, at);
    }
    if (st->graphics)
        return parse_error(p, at, "compute needs a compute pipeline: the file has graphics shaders");
    uint32_t xyz[3], pipeline;
    for (int i = 0; i < 3; ++i)
        if (!parse_u32(p, &xyz[i], "a workgroup count"))
            return false;
    if (!parse_end_of_line(p, "compute") || !vk_pipeline_for_command(st, at, &pipeline))
        return false;
    struct amber_command *c = add_command(st, AMBER_CMD_RUN_COMPUTE, at);
    if (c == NULL)
        return false;
    c->pipeline = pipeline;
    c->run.x = xyz[0];
    c->run.y = xyz[1];
    c->run.z = xyz[2];
    return true;
}

static bool parse_clear(struct vk_state *st, const struct amber_token *at)
{
    struct parser *p = st->p;
    if (!needs_graphics(st, at, "clear"))
        return false;
    const struct amber_token *next = amber_lexer_peek(&p->lexer);
    if (amber_word_is(next, "color")) {
        struct amber_token ignored;
        amber_lexer_next(&p->lexer, &ignored);
        for (int i = 0; i < 4; ++i)
            if (!parse_float(p, &st->clear_color[i], "a colour component"))
                return false;
        return parse_end_of_line(p, "clear color");
    }
    if (amber_word_is(next, "depth")) {
        struct amber_token ignored;
        amber_lexer_next(&p->lexer, &ignored);
        return parse_float(p, &st->clear_depth, "the depth") && parse_end_of_line(p, "clear depth");
    }
    if (amber_word_is(next, "stencil")) {
        struct amber_token ignored;
        amber_lexer_next(&p->lexer, &ignored);
        return parse_u32(p, &st->clear_stencil, "the stencil value") && parse_end_of_line(p, "clear stencil");
    }
    uint32_t pipeline;
    if (!parse_end_of_line(p, "clear") || !vk_pipeline_for_command(st, at, &pipeline))
        return false;
    /* the values the clear uses, then the clear: CLEAR_COLOR keeps 0..255 for normalized and float
     * formats, the value itself for integer ones */
    const struct amber_buffer *fb = &p->script->buffers[st->current.colors[0].buffer];
    uint8_t mode = fb->layout.count ? fb->layout.segments[0].mode : AMBER_MODE_UNORM;
    bool integer = mode == AMBER_MODE_UINT || mode == AMBER_MODE_SINT;
    struct amber_command *c = add_command(st, AMBER_CMD_CLEAR_COLOR, at);
    if (c == NULL)
        return false;
    c->pipeline = pipeline;
    for (int i = 0; i < 4; ++i)
        c->clear_color.rgba[i] = integer ? st->clear_color[i] : st->clear_color[i] * 255.0f;
    if ((c = add_command(st, AMBER_CMD_CLEAR_DEPTH, at)) == NULL)
        return false;
    c->pipeline = pipeline;
    c->clear_depth = st->clear_depth;
    if ((c = add_command(st, AMBER_CMD_CLEAR_STENCIL, at)) == NULL)
        return false;
    c->pipeline = pipeline;
    c->clear_stencil = st->clear_stencil;
    if ((c = add_command(st, AMBER_CMD_CLEAR, at)) == NULL)
        return false;
    c->pipeline = pipeline;
    return true;
}

/* --- pipeline state -------------------------------------------------------------------------- */

enum state_kind { STATE_BOOL, STATE_FLOAT, STATE_U32, STATE_ENUM, STATE_MASK };

struct enum_names {
    const char *prefix;
    const char *const *names; /* value = index, NULL-ended */
};

static const char *const compare_ops[] = {
    "NEVER", "LESS", "EQUAL", "LESS_OR_EQUAL", "GREATER", "NOT_EQUAL", "GREATER_OR_EQUAL", "ALWAYS", NULL};
static const char *const stencil_ops[] = {"KEEP",
                                          "ZERO",
                                          "REPLACE",
                                          "INCREMENT_AND_CLAMP",
                                          "DECREMENT_AND_CLAMP",
                                          "INVERT",
                                          "INCREMENT_AND_WRAP",
                                          "DECREMENT_AND_WRAP",
                                          NULL};
static const char *const blend_factors[] = {"ZERO",
                                            "ONE",
                                            "SRC_COLOR",
                                            "ONE_MINUS_SRC_COLOR",
                                            "DST_COLOR",
                                            "ONE_MINUS_DST_COLOR",
                                            "SRC_ALPHA",
                                            "ONE_MINUS_SRC_ALPHA",
                                            "DST_ALPHA",
                                            "ONE_MINUS_DST_ALPHA",
                                            "CONSTANT_COLOR",
                                            "ONE_MINUS_CONSTANT_COLOR",
                                            "CONSTANT_ALPHA",
                                            "ONE_MINUS_CONSTANT_ALPHA",
                                            "SRC_ALPHA_SATURATE",
                                            "SRC1_COLOR",
                                            "ONE_MINUS_SRC1_COLOR",
                                            "SRC1_ALPHA",
                                            "ONE_MINUS_SRC1_ALPHA",
                                            NULL};
static const char *const blend_ops[] = {"ADD", "SUBTRACT", "REVERSE_SUBTRACT", "MIN", "MAX", NULL};
static const char *const logic_ops[] = {
    "CLEAR",      "AND",    "AND_REVERSE", "COPY",          "AND_INVERTED", "NO_OP", "XOR", "OR", "NOR",
    "EQUIVALENT", "INVERT", "OR_REVERSE",  "COPY_INVERTED", "OR_INVERTED",  "NAND",  "SET", NULL};
static const char *const polygon_modes[] = {"FILL", "LINE", "POINT", NULL};
static const char *const front_faces[] = {"COUNTER_CLOCKWISE", "CLOCKWISE", NULL};
static const char *const topology_names[] = {"POINT_LIST",
                                             "LINE_LIST",
                                             "LINE_STRIP",
                                             "TRIANGLE_LIST",
                                             "TRIANGLE_STRIP",
                                             "TRIANGLE_FAN",
                                             "LINE_LIST_WITH_ADJACENCY",
                                             "LINE_STRIP_WITH_ADJACENCY",
                                             "TRIANGLE_LIST_WITH_ADJACENCY",
                                             "TRIANGLE_STRIP_WITH_ADJACENCY",
                                             "PATCH_LIST",
                                             NULL};
static const char *const cull_bits[] = {"NONE", "FRONT_BIT", "BACK_BIT", "FRONT_AND_BACK", NULL};
static const char *const color_bits[] = {"R_BIT", "G_BIT", "B_BIT", "A_BIT", NULL}; /* flags: 1 << index */

static const struct enum_names compare_names = {"VK_COMPARE_OP_", compare_ops};
static const struct enum_names stencil_names = {"VK_STENCIL_OP_", stencil_ops};
static const struct enum_names factor_names = {"VK_BLEND_FACTOR_", blend_factors};
static const struct enum_names blend_op_names = {"VK_BLEND_OP_", blend_ops};
static const struct enum_names logic_names = {"VK_LOGIC_OP_", logic_ops};
static const struct enum_names polygon_names = {"VK_POLYGON_MODE_", polygon_modes};
static const struct enum_names face_names = {"VK_FRONT_FACE_", front_faces};
static const struct enum_names topology_enum = {"VK_PRIMITIVE_TOPOLOGY_", topology_names};
static const struct enum_names cull_names = {"VK_CULL_MODE_", cull_bits};
static const struct enum_names color_names = {"VK_COLOR_COMPONENT_", color_bits};

#define PL(field) offsetof(struct amber_pipeline, field)
#define NO_FIELD SIZE_MAX

static const struct {
    const char *command;
    enum state_kind kind;
    size_t field;
    const struct enum_names *names;
} states[] = {
    {"primitiveRestartEnable", STATE_BOOL, PL(raster.primitive_restart), NULL},
    {"depthClampEnable", STATE_BOOL, PL(depth.clamp), NULL},
    {"rasterizerDiscardEnable", STATE_BOOL, PL(raster.rasterizer_discard), NULL},
    {"depthBiasEnable", STATE_BOOL, PL(depth.bias), NULL},
    {"logicOpEnable", STATE_BOOL, PL(raster.logic_op_enable), NULL},
    {"blendEnable", STATE_BOOL, PL(blend.enable), NULL},
    {"depthTestEnable", STATE_BOOL, PL(depth.test), NULL},
    {"depthWriteEnable", STATE_BOOL, PL(depth.write), NULL},
    {"depthBoundsTestEnable", STATE_BOOL, PL(depth.bounds), NULL},
    {"stencilTestEnable", STATE_BOOL, PL(stencil_test), NULL},
    {"topology", STATE_ENUM, NO_FIELD, &topology_enum}, /* draw arrays names its own; draw rect is a strip */
    {"polygonMode", STATE_ENUM, PL(polygon_mode), &polygon_names},
    {"logicOp", STATE_ENUM, PL(raster.logic_op), &logic_names},
    {"frontFace", STATE_ENUM, PL(raster.front_face), &face_names},
    {"cullMode", STATE_MASK, PL(raster.cull_mode), &cull_names},
    {"depthBiasConstantFactor", STATE_FLOAT, PL(depth.bias_constant), NULL},
    {"depthBiasClamp", STATE_FLOAT, PL(depth.bias_clamp), NULL},
    {"depthBiasSlopeFactor", STATE_FLOAT, PL(depth.bias_slope), NULL},
    {"lineWidth", STATE_FLOAT, PL(raster.line_width), NULL},
    {"minDepthBounds", STATE_FLOAT, PL(depth.min_bounds), NULL},
    {"maxDepthBounds", STATE_FLOAT, PL(depth.max_bounds), NULL},
    {"srcColorBlendFactor", STATE_ENUM, PL(blend.src_color), &factor_names},
    {"dstColorBlendFactor", STATE_ENUM, PL(blend.dst_color), &factor_names},
    {"srcAlphaBlendFactor", STATE_ENUM, PL(blend.src_alpha), &factor_names},
    {"dstAlphaBlendFactor", STATE_ENUM, PL(blend.dst_alpha), &factor_names},
    {"colorBlendOp", STATE_ENUM, PL(blend.color_op), &blend_op_names},
    {"alphaBlendOp", STATE_ENUM, PL(blend.alpha_op), &blend_op_names},
    {"depthCompareOp", STATE_ENUM, PL(depth.compare_op), &compare_names},
    {"front.compareOp", STATE_ENUM, PL(stencil_front.compare_op), &compare_names},
    {"back.compareOp", STATE_ENUM, PL(stencil_back.compare_op), &compare_names},
    {"front.failOp", STATE_ENUM, PL(stencil_front.fail_op), &stencil_names},
    {"front.passOp", STATE_ENUM, PL(stencil_front.pass_op), &stencil_names},
    {"front.depthFailOp", STATE_ENUM, PL(stencil_front.depth_fail_op), &stencil_names},
    {"back.failOp", STATE_ENUM, PL(stencil_back.fail_op), &stencil_names},
    {"back.passOp", STATE_ENUM, PL(stencil_back.pass_op), &stencil_names},
    {"back.depthFailOp", STATE_ENUM, PL(stencil_back.depth_fail_op), &stencil_names},
    {"front.compareMask", STATE_U32, PL(stencil_front.compare_mask), NULL},
    {"front.writeMask", STATE_U32, PL(stencil_front.write_mask), NULL},
    {"back.compareMask", STATE_U32, PL(stencil_back.compare_mask), NULL},
    {"back.writeMask", STATE_U32, PL(stencil_back.write_mask), NULL},
    {"front.reference", STATE_U32, PL(stencil_front.reference), NULL},
    {"back.reference", STATE_U32, PL(stencil_back.reference), NULL},
    {"colorWriteMask", STATE_MASK, PL(raster.color_write_mask), &color_names},
};

static bool enum_value(const struct enum_names *e, const char *word, uint32_t *value)
{
    size_t prefix = strlen(e->prefix);
    if (strncmp(word, e->prefix, prefix) != 0)
        return false;
    for (uint32_t i = 0; e->names[i] != NULL; ++i)
        if (strcmp(word + prefix, e->names[i]) == 0) {
            *value = i;
            return true;
        }
    return false;
}

/* A value of a flags state: names joined by '|' (as words or inside one); colour bits are flags. */
static bool mask_word(const struct enum_names *e, const char *word, uint32_t *mask)
{
    uint32_t v;
    if (!enum_value(e, word, &v))
        return false;
    *mask |= e == &color_names ? 1u << v : v;
    return true;
}

static bool parse_state(struct vk_state *st, size_t index, const struct amber_token *at)
{
    struct parser *p = st->p;
    void *field = states[index].field == NO_FIELD ? NULL : (char *)&st->current + states[index].field;
    struct amber_token t;
    switch (states[index].kind) {
    case STATE_BOOL:
        if (!parse_word(p, &t, "true or false"))
            return false;
        if (strcasecmp(t.text, "true") != 0 && strcasecmp(t.text, "false") != 0)
            return parse_error(p, &t, "expected true or false, got '%s'", t.text);
        *(bool *)field = strcasecmp(t.text, "true") == 0;
        break;
    case STATE_FLOAT:
        if (!parse_float(p, (float *)field, "a number"))
            return false;
        break;
    case STATE_U32:
        if (!parse_u32(p, (uint32_t *)field, "an unsigned integer"))
            return false;
        break;
    case STATE_ENUM: {
        uint32_t v;
        if (!parse_word(p, &t, "a Vulkan enum name"))
            return false;
        if (!enum_value(states[index].names, t.text, &v)) {
            if (states[index].names == &blend_op_names && strncmp(t.text, "VK_BLEND_OP_", 12) == 0) {
                parse_unsupported(p, &t, "%s %s: advanced blend operations are not supported", at->text, t.text);
                amber_lexer_skip_line(&p->lexer);
                return true;
            }
            return parse_error(p, &t, "expected a %s... value, got '%s'", states[index].names->prefix, t.text);
        }
        if (field != NULL)
            *(uint32_t *)field = v;
        break;
    }
    case STATE_MASK: {
        uint32_t mask = 0;
        bool any = false;
        for (;;) {
            const struct amber_token *next = amber_lexer_peek(&p->lexer);
            if (next->kind != AMBER_TOKEN_WORD)
                break;
            amber_lexer_next(&p->lexer, &t);
            char *save = NULL;
            for (char *part = strtok_r(t.text, "|", &save); part != NULL; part = strtok_r(NULL, "|", &save)) {
                if (!mask_word(states[index].names, part, &mask))
                    return parse_error(p, &t, "expected %s... names joined by '|', got '%s'",
                                       states[index].names->prefix, part);
                any = true;
            }
        }
        if (!any)
            return parse_error(p, at, "%s takes %s... names joined by '|'", at->text, states[index].names->prefix);
        *(uint32_t *)field = mask;
        break;
    }
    }
    st->dirty = true;
    return parse_end_of_line(p, at->text);
}

/* --- the section ----------------------------------------------------------------------------- */

static bool parse_stage_entry(struct vk_state *st, const struct amber_token *t)
{
    struct parser *p = st->p;
    enum amber_stage stage = AMBER_STAGE_VERTEX;
    if (amber_word_is(t, "fragment"))
        stage = AMBER_STAGE_FRAGMENT;
    else if (amber_word_is(t, "geometry"))
        stage = AMBER_STAGE_GEOMETRY;
    else if (amber_word_is(t, "tessellation")) {
        struct amber_token which;
        if (!parse_word(p, &which, "control or evaluation"))
            return false;
        if (!amber_word_is(&which, "control") && !amber_word_is(&which, "evaluation"))
            return parse_error(p, &which, "expected tessellation control or tessellation evaluation, got '%s'",
                               which.text);
        stage =
            amber_word_is(&which, "control") ? AMBER_STAGE_TESSELLATION_CONTROL : AMBER_STAGE_TESSELLATION_EVALUATION;
    }
    return parse_keyword(p, "entrypoint", t->text) && set_entry_point(st, stage, t);
}

static bool parse_command_line(struct vk_state *st, const struct amber_token *t)
{
    struct parser *p = st->p;
    if (amber_word_is(t, "draw")) {
        struct amber_token what;
        if (!parse_word(p, &what, "rect or arrays"))
            return false;
        if (amber_word_is(&what, "rect"))
            return parse_draw_rect(st, t);
        if (amber_word_is(&what, "arrays"))
            return parse_draw_arrays(st, t);
        return parse_error(p, &what, "expected draw rect or draw arrays, got 'draw %s'", what.text);
    }
    if (amber_word_is(t, "compute"))
        return parse_compute(st, t);
    if (amber_word_is(t, "clear"))
        return parse_clear(st, t);
    if (amber_word_is(t, "ssbo"))
        return parse_ssbo(st, t);
    if (amber_word_is(t, "uniform"))
        return parse_uniform(st, t);
    if (amber_word_is(t, "tolerance"))
        return parse_tolerance(st, t);
    if (amber_word_is(t, "probe") || amber_word_is(t, "relative")) {
        bool relative = amber_word_is(t, "relative");
        if (relative && !parse_keyword(p, "probe", "relative"))
            return false;
        if (!relative && amber_word_is(amber_lexer_peek(&p->lexer), "ssbo")) {
            struct amber_token ignored;
            amber_lexer_next(&p->lexer, &ignored);
            return parse_probe_ssbo(st, t);
        }
        return parse_probe(st, t, relative);
    }
    if (amber_word_is(t, "patch")) {
        uint32_t points;
        if (!parse_keyword(p, "parameter", "patch") || !parse_keyword(p, "vertices", "patch parameter") ||
            !parse_u32(p, &points, "the number of control points") || !parse_end_of_line(p, "patch parameter vertices"))
            return false;
        if (points == 0 || points > 32)
            return parse_error(p, t, "patch parameter vertices must be 1 to 32, not %u", points);
        st->current.patch_control_points = points;
        st->dirty = true;
        return true;
    }
    if (amber_word_is(t, "vertex") || amber_word_is(t, "fragment") || amber_word_is(t, "geometry") ||
        amber_word_is(t, "tessellation"))
        return parse_stage_entry(st, t);
    for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); ++i)
        if (amber_word_is(t, states[i].command))
            return parse_state(st, i, t);
    return parse_error(p, t,
                       "unknown command '%s' (draw rect, draw arrays, compute, clear, ssbo, uniform, probe, "
                       "relative probe, tolerance, patch parameter vertices, STAGE entrypoint, or a pipeline state "
                       "such as depthTestEnable)",
                       t->text);
}

bool vk_parse_test(struct vk_state *st)
{
    struct parser *p = st->p;
    struct amber_token t;
    while (!p->stop) {
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_FILE)
            return true;
        if (t.kind == AMBER_TOKEN_END_OF_LINE)
            continue;
        if (t.kind != AMBER_TOKEN_WORD || t.too_long)
            return parse_error(p, &t, "expected a command, got '%s'", t.text);
        if (!parse_command_line(st, &t))
            return false;
    }
    return false;
}
