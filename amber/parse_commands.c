/* The commands that run in order: RUN (compute, DRAW_RECT, DRAW_GRID, DRAW_ARRAY; RAYGEN is
 * parse_ray.c's), CLEAR_COLOR,
 * CLEAR_DEPTH, CLEAR_STENCIL, CLEAR, COPY, EXPECT and REPEAT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

bool parse_is_command(const struct amber_token *t)
{
    static const char *const names[] = {"RUN",           "CLEAR", "CLEAR_COLOR", "CLEAR_DEPTH",
                                        "CLEAR_STENCIL", "COPY",  "EXPECT",      NULL};
    for (int i = 0; names[i]; ++i)
        if (amber_word_is(t, names[i]))
            return true;
    return false;
}

static struct amber_command *new_command(struct parser *p, const struct amber_token *start,
                                         enum amber_command_kind kind)
{
    struct amber_command *c = parse_grow(p, (void **)&p->script->commands, &p->script->command_count, sizeof(*c),
                                         AMBER_MAX_COMMANDS, start, "commands");
    if (c != NULL) {
        c->kind = kind;
        c->where = (struct amber_location){start->line, start->column};
    }
    return c;
}

static bool graphics_pipeline(struct parser *p, uint32_t pipeline, const struct amber_token *at)
{
    const struct amber_pipeline *pl = &p->script->pipelines[pipeline];
    if (pl->type != AMBER_PIPELINE_GRAPHICS)
        return parse_error(p, at, "%s needs a graphics pipeline; %s is a %s pipeline", at->text, pl->name,
                           pl->type == AMBER_PIPELINE_COMPUTE ? "compute" : "ray_tracing");
    return true;
}

/* --- RUN ------------------------------------------------------------------------------------- */

static bool parse_rect(struct parser *p, struct amber_command *c, const char *what)
{
    return parse_keyword(p, "POS", what) && parse_float(p, &c->rect.x, "the x position") &&
           parse_float(p, &c->rect.y, "the y position") && parse_keyword(p, "SIZE", what) &&
           parse_float(p, &c->rect.width, "the width") && parse_float(p, &c->rect.height, "the height");
}

static bool parse_draw_array(struct parser *p, struct amber_command *c, const struct amber_pipeline *pl,
                             const struct amber_token *start)
{
    static const char *const topologies[] = {"POINT_LIST",
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
                                             "TRIANGLE_fan",
                                             NULL};
    static const uint32_t values[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 5};
    uint32_t topology;
    if (!parse_keyword(p, "AS", "DRAW_ARRAY") || !parse_choice(p, topologies, values, &topology, "a topology"))
        return false;
    c->draw.topology = (enum amber_topology)topology;
    c->draw.count = UINT32_MAX;
    c->draw.instance_count = 1;
    bool start_given = false;
    struct amber_token t;
    for (;;) {
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_LINE || t.kind == AMBER_TOKEN_END_OF_FILE)
            break;
        bool ok;
        if (amber_word_is(&t, "INDEXED")) {
            c->draw.indexed = ok = true;
        } else if (amber_word_is(&t, "START_IDX")) {
            ok = start_given = parse_u32(p, &c->draw.first, "START_IDX");
        } else if (amber_word_is(&t, "COUNT")) {
            if (!start_given)
                return parse_error(p, &t, "DRAW_ARRAY: COUNT needs START_IDX before it");
            ok = parse_u32(p, &c->draw.count, "COUNT");
        } else if (amber_word_is(&t, "START_INSTANCE")) {
            ok = parse_u32(p, &c->draw.first_instance, "START_INSTANCE");
        } else if (amber_word_is(&t, "INSTANCE_COUNT")) {
            ok = parse_u32(p, &c->draw.instance_count, "INSTANCE_COUNT");
        } else {
            return parse_error(
                p, &t,
                "expected INDEXED, START_IDX, COUNT, START_INSTANCE, INSTANCE_COUNT or the end of the line, got '%s'",
                t.text);
        }
        if (!ok)
            return false;
    }
    if (c->draw.indexed && pl->index_buffer < 0)
        return parse_error(p, start, "DRAW_ARRAY ... INDEXED: PIPELINE %s has no INDEX_DATA", pl->name);
    if (!c->draw.indexed && pl->vertex_input_count == 0 && c->draw.count == UINT32_MAX)
        return parse_error(p, start, "DRAW_ARRAY: PIPELINE %s has no VERTEX_DATA, so it needs START_IDX and COUNT",
                           pl->name);
    if (c->draw.topology == AMBER_TOPOLOGY_PATCH_LIST) {
        bool tessellation = false;
        for (uint32_t i = 0; i < pl->shader_count; ++i)
            tessellation = tessellation || pl->shaders[i].stage == AMBER_STAGE_TESSELLATION_CONTROL;
        if (!tessellation)
            return parse_error(p, start, "DRAW_ARRAY AS PATCH_LIST needs a tessellation_control shader");
    }
    return true;
}

static bool parse_run(struct parser *p, const struct amber_token *start)
{
    bool timed = false;
    if (amber_word_is(amber_lexer_peek(&p->lexer), "TIMED_EXECUTION")) {
        struct amber_token skip;
        amber_lexer_next(&p->lexer, &skip);
        timed = true;
    }
    uint32_t pipeline;
    if (!parse_pipeline_ref(p, &pipeline, "RUN"))
        return false;
    const struct amber_pipeline *pl = &p->script->pipelines[pipeline];
    struct amber_token t = *amber_lexer_peek(&p->lexer);
    struct amber_command *c;
    struct amber_integer n;
    if (pl->type == AMBER_PIPELINE_RAY_TRACING) {
        amber_lexer_next(&p->lexer, &t);
        if ((c = new_command(p, start, AMBER_CMD_TRACE_RAYS)) == NULL)
            return false;
        c->pipeline = pipeline;
        c->timed = timed;
        return parse_trace_rays(p, c, &t);
    }
    if (amber_token_integer(&t, &n)) {
        if (pl->type != AMBER_PIPELINE_COMPUTE)
            return parse_error(p, &t, "RUN %s x y z needs a compute pipeline", pl->name);
        if ((c = new_command(p, start, AMBER_CMD_RUN_COMPUTE)) == NULL)
            return false;
        c->pipeline = pipeline;
        c->timed = timed;
        return parse_u32(p, &c->run.x, "the workgroup count x") && parse_u32(p, &c->run.y, "the workgroup count y") &&
               parse_u32(p, &c->run.z, "the workgroup count z") && parse_end_of_line(p, "RUN");
    }
    amber_lexer_next(&p->lexer, &t);
    if (amber_word_is(&t, "DRAW_RECT") || amber_word_is(&t, "DRAW_GRID")) {
        bool grid = amber_word_is(&t, "DRAW_GRID");
        if (!graphics_pipeline(p, pipeline, &t))
            return false;
        if ((c = new_command(p, start, grid ? AMBER_CMD_DRAW_GRID : AMBER_CMD_DRAW_RECT)) == NULL)
            return false;
        c->pipeline = pipeline;
        c->timed = timed;
        if (!parse_rect(p, c, t.text))
            return false;
        if (grid) {
            if (!parse_keyword(p, "CELLS", "DRAW_GRID") || !parse_u32(p, &c->rect.columns, "the columns") ||
                !parse_u32(p, &c->rect.rows, "the rows"))
                return false;
            if (c->rect.columns == 0 || c->rect.rows == 0 || (uint64_t)c->rect.columns * c->rect.rows > (1u << 20))
                return parse_error(p, &t, "DRAW_GRID CELLS must be 1 or more, and at most %u cells", 1u << 20);
        }
        return parse_end_of_line(p, "RUN");
    }
    if (amber_word_is(&t, "DRAW_ARRAY")) {
        if (!graphics_pipeline(p, pipeline, &t))
            return false;
        if ((c = new_command(p, start, AMBER_CMD_DRAW_ARRAY)) == NULL)
            return false;
        c->pipeline = pipeline;
        c->timed = timed;
        return parse_draw_array(p, c, pl, start);
    }
    return parse_error(p, &t, "expected the workgroup counts x y z, DRAW_RECT, DRAW_GRID or DRAW_ARRAY, got '%s'",
                       t.kind == AMBER_TOKEN_WORD ? t.text : "the end of the line");
}

/* --- CLEAR* and COPY ------------------------------------------------------------------------- */

static bool parse_clear(struct parser *p, const struct amber_token *start)
{
    uint32_t pipeline;
    if (!parse_pipeline_ref(p, &pipeline, start->text) || !graphics_pipeline(p, pipeline, start))
        return false;
    enum amber_command_kind kind = amber_word_is(start, "CLEAR")         ? AMBER_CMD_CLEAR
                                   : amber_word_is(start, "CLEAR_COLOR") ? AMBER_CMD_CLEAR_COLOR
                                   : amber_word_is(start, "CLEAR_DEPTH") ? AMBER_CMD_CLEAR_DEPTH
                                                                         : AMBER_CMD_CLEAR_STENCIL;
    struct amber_command *c = new_command(p, start, kind);
    if (c == NULL)
        return false;
    c->pipeline = pipeline;
    struct amber_token t;
    switch (kind) {
    case AMBER_CMD_CLEAR_COLOR:
        for (int i = 0; i < 4; ++i) {
            t = *amber_lexer_peek(&p->lexer);
            uint32_t value;
            if (!parse_u32(p, &value, "a colour value (0 to 255)"))
                return false;
            if (value > 255)
                return parse_error(p, &t, "CLEAR_COLOR values are 0 to 255, not %u", value);
            c->clear_color.rgba[i] = (float)value;
        }
        break;
    case AMBER_CMD_CLEAR_DEPTH:
        if (!parse_float(p, &c->clear_depth, "the depth clear value"))
            return false;
        break;
    case AMBER_CMD_CLEAR_STENCIL:
        t = *amber_lexer_peek(&p->lexer);
        if (!parse_u32(p, &c->clear_stencil, "the stencil clear value (0 to 255)"))
            return false;
        if (c->clear_stencil > 255)
            return parse_error(p, &t, "CLEAR_STENCIL values are 0 to 255, not %u", c->clear_stencil);
        break;
    default:
        break;
    }
    return parse_end_of_line(p, start->text);
}

static bool same_layout(struct parser *p, uint32_t a, uint32_t b, const struct amber_token *at, const char *what)
{
    const struct amber_buffer *x = &p->script->buffers[a], *y = &p->script->buffers[b];
    if (!amber_layout_equal(&x->layout, &y->layout))
        return parse_error(p, at, "%s: %s and %s have different data types", what, x->name, y->name);
    return true;
}

static bool parse_copy_command(struct parser *p, const struct amber_token *start)
{
    struct amber_command *c = new_command(p, start, AMBER_CMD_COPY);
    if (c == NULL || !parse_buffer_ref(p, &c->copy.from, "COPY") || !parse_keyword(p, "TO", "COPY") ||
        !parse_buffer_ref(p, &c->copy.to, "COPY ... TO") || !parse_end_of_line(p, "COPY"))
        return false;
    if (c->copy.from == c->copy.to)
        return parse_error(p, start, "COPY %s TO itself", p->script->buffers[c->copy.from].name);
    return same_layout(p, c->copy.from, c->copy.to, start, "COPY");
}

/* --- EXPECT ---------------------------------------------------------------------------------- */

static bool parse_tolerances(struct parser *p, struct amber_tolerance *tolerances, uint32_t *count, uint32_t max,
                             const struct amber_token *at)
{
    *count = 0;
    for (;;) {
        const struct amber_token *next = amber_lexer_peek(&p->lexer);
        if (next->kind != AMBER_TOKEN_WORD)
            break;
        struct amber_token t = *next;
        bool percent = t.length > 1 && t.text[t.length - 1] == '%';
        if (percent)
            t.text[--t.length] = '\0';
        double value;
        if (!amber_token_double(&t, &value))
            break;
        amber_lexer_next(&p->lexer, &t);
        if (!percent && amber_word_is(amber_lexer_peek(&p->lexer), "%")) {
            amber_lexer_next(&p->lexer, &t);
            percent = true;
        }
        if (*count == max)
            return parse_error(p, &t, "TOLERANCE takes at most %u values here", max);
        if (value < 0)
            return parse_error(p, &t, "a TOLERANCE cannot be negative");
        tolerances[(*count)++] = (struct amber_tolerance){value, percent};
    }
    if (*count == 0)
        return parse_error(p, at, "TOLERANCE needs a value (a number, or a number followed by %%)");
    return true;
}

static bool parse_expect_pixels(struct parser *p, struct amber_command *c, const struct amber_buffer *b, uint64_t x)
{
    struct amber_token t;
    c->kind = AMBER_CMD_EXPECT_PIXELS;
    if (!b->layout.is_format)
        return parse_error(p, &(struct amber_token){.line = c->where.line, .column = c->where.column},
                           "EXPECT %s IDX x y: a pixel probe needs an image buffer (a FORMAT)", b->name);
    if (x > UINT32_MAX || !parse_u32(p, &c->pixels.y, "the y position") || !parse_keyword(p, "SIZE", "EXPECT") ||
        !parse_u32(p, &c->pixels.width, "the width") || !parse_u32(p, &c->pixels.height, "the height"))
        return false;
    c->pixels.x = (uint32_t)x;
    if (c->pixels.width == 0 || c->pixels.height == 0)
        return parse_error(p, &(struct amber_token){.line = c->where.line, .column = c->where.column},
                           "EXPECT ... SIZE must be at least 1x1");
    if (!parse_word(p, &t, "EQ_RGB or EQ_RGBA"))
        return false;
    if (!amber_word_is(&t, "EQ_RGB") && !amber_word_is(&t, "EQ_RGBA"))
        return parse_error(p, &t, "expected EQ_RGB or EQ_RGBA for a pixel probe, got '%s'", t.text);
    c->pixels.rgba = amber_word_is(&t, "EQ_RGBA");
    for (int i = 0; i < (c->pixels.rgba ? 4 : 3); ++i) {
        struct amber_token v = *amber_lexer_peek(&p->lexer);
        uint32_t value;
        if (!parse_u32(p, &value, "a colour value (0 to 255)"))
            return false;
        if (value > 255)
            return parse_error(p, &v, "colour values are 0 to 255, not %u", value);
        c->pixels.expected[i] = (float)value;
    }
    amber_lexer_next(&p->lexer, &t);
    if (amber_word_is(&t, "TOLERANCE")) {
        if (!parse_tolerances(p, c->pixels.tolerances, &c->pixels.tolerance_count, c->pixels.rgba ? 4 : 3, &t))
            return false;
        amber_lexer_next(&p->lexer, &t);
    }
    if (t.kind != AMBER_TOKEN_END_OF_LINE && t.kind != AMBER_TOKEN_END_OF_FILE)
        return parse_error(p, &t, "expected TOLERANCE or the end of the line, got '%s'", t.text);
    return true;
}

static bool parse_expect_values(struct parser *p, struct amber_command *c, const struct amber_buffer *b,
                                struct amber_token *t)
{
    static const char *const comparators[] = {"EQ", "NE", "LT", "LE", "GT", "GE", NULL};
    c->kind = AMBER_CMD_EXPECT_VALUES;
    if (amber_word_is(t, "TOLERANCE")) {
        if (!parse_tolerances(p, c->values.tolerances, &c->values.tolerance_count, 4, t))
            return false;
        amber_lexer_next(&p->lexer, t);
        if (!amber_word_is(t, "EQ"))
            return parse_error(p, t, "TOLERANCE is for EQ comparisons; got '%s'", t->text);
    }
    int comparator = -1;
    for (int i = 0; comparators[i]; ++i)
        if (amber_word_is(t, comparators[i]))
            comparator = i;
    if (comparator < 0)
        return parse_error(p, t,
                           "expected a comparison (EQ, NE, LT, LE, GT, GE, TOLERANCE) or y for a pixel probe, got '%s'",
                           t->kind == AMBER_TOKEN_WORD ? t->text : "the end of the line");
    c->values.comparator = (enum amber_comparator)comparator;
    uint32_t capacity = 0;
    struct amber_segment word;
    const struct amber_segment *inputs;
    uint32_t input_count = amber_layout_inputs(&b->layout, &word, &inputs);
    for (uint32_t segment = 0;; segment = (segment + 1) % input_count) {
        amber_lexer_next(&p->lexer, t);
        if (t->kind == AMBER_TOKEN_END_OF_LINE || t->kind == AMBER_TOKEN_END_OF_FILE)
            break;
        struct amber_number n;
        if (!parse_number_token(t, &n))
            return parse_error(p, t, "expected a value to compare (a number), got '%s'", t->text);
        if (n.is_float && !amber_mode_is_float(inputs[segment].mode))
            return parse_error(p, t, "%s holds integers here: '%s' is not one", b->name, t->text);
        if (c->values.value_count == AMBER_MAX_EXPECT_VALUES)
            return parse_limit(p, t, "more than %d values in one EXPECT", AMBER_MAX_EXPECT_VALUES);
        if (c->values.value_count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            struct amber_number *bigger = realloc(c->values.values, capacity * sizeof(*bigger));
            if (bigger == NULL)
                return parse_limit(p, t, "out of memory for EXPECT values");
            c->values.values = bigger;
        }
        c->values.values[c->values.value_count++] = n;
    }
    if (c->values.value_count == 0)
        return parse_error(p, t, "EXPECT %s needs values to compare", b->name);
    return true;
}

static bool parse_expect(struct parser *p, const struct amber_token *start)
{
    struct amber_command *c = new_command(p, start, AMBER_CMD_EXPECT_VALUES);
    uint32_t buffer;
    if (c == NULL || !parse_buffer_ref(p, &buffer, "EXPECT"))
        return false;
    const struct amber_buffer *b = &p->script->buffers[buffer];
    struct amber_token t;
    if (!parse_word(p, &t, "IDX, EQ_BUFFER, RMSE_BUFFER or EQ_HISTOGRAM_EMD_BUFFER"))
        return false;
    if (amber_word_is(&t, "EQ_BUFFER") || amber_word_is(&t, "RMSE_BUFFER") ||
        amber_word_is(&t, "EQ_HISTOGRAM_EMD_BUFFER")) {
        c->kind = amber_word_is(&t, "EQ_BUFFER")     ? AMBER_CMD_EXPECT_BUFFER
                  : amber_word_is(&t, "RMSE_BUFFER") ? AMBER_CMD_EXPECT_RMSE
                                                     : AMBER_CMD_EXPECT_EMD;
        c->compare.actual = buffer;
        if (!parse_buffer_ref(p, &c->compare.reference, t.text) ||
            !same_layout(p, buffer, c->compare.reference, &t, t.text))
            return false;
        if (c->kind != AMBER_CMD_EXPECT_BUFFER) {
            struct amber_token v;
            if (!parse_keyword(p, "TOLERANCE", t.text))
                return false;
            amber_lexer_next(&p->lexer, &v);
            if (!amber_token_double(&v, &c->compare.tolerance) || c->compare.tolerance < 0)
                return parse_error(p, &v, "expected the TOLERANCE (a number, 0 or more), got '%s'", v.text);
        }
        if (c->kind == AMBER_CMD_EXPECT_EMD) {
            bool rgba8 = b->layout.count == 4;
            for (uint32_t i = 0; i < b->layout.count && rgba8; ++i)
                rgba8 = b->layout.segments[i].bits == 8 && !amber_mode_is_signed(b->layout.segments[i].mode) &&
                        !amber_mode_is_float(b->layout.segments[i].mode);
            if (!rgba8)
                return parse_error(p, &t, "EQ_HISTOGRAM_EMD_BUFFER compares 8-bit unsigned four-channel images only");
        }
        return parse_end_of_line(p, t.text);
    }
    if (!amber_word_is(&t, "IDX"))
        return parse_error(p, &t, "expected IDX, EQ_BUFFER, RMSE_BUFFER or EQ_HISTOGRAM_EMD_BUFFER, got '%s'", t.text);
    uint64_t x;
    if (!parse_u64(p, &x, "the IDX (a byte offset, or the x of a pixel)"))
        return false;
    amber_lexer_next(&p->lexer, &t);
    struct amber_integer y;
    if (amber_token_integer(&t, &y)) {
        p->lexer.peeked = t; /* the pixel probe reads y again */
        p->lexer.has_peeked = true;
        c->pixels.buffer = buffer;
        return parse_expect_pixels(p, c, b, x);
    }
    c->values.buffer = buffer;
    c->values.offset = x;
    return parse_expect_values(p, c, b, &t);
}

/* --- dispatch and REPEAT --------------------------------------------------------------------- */

bool parse_command(struct parser *p, const struct amber_token *command)
{
    if (amber_word_is(command, "RUN"))
        return parse_run(p, command);
    if (amber_word_is(command, "COPY"))
        return parse_copy_command(p, command);
    if (amber_word_is(command, "EXPECT"))
        return parse_expect(p, command);
    return parse_clear(p, command);
}

bool parse_repeat(struct parser *p, const struct amber_token *start)
{
    struct amber_command *c = new_command(p, start, AMBER_CMD_REPEAT);
    if (c == NULL)
        return false;
    uint32_t index = p->script->command_count - 1;
    uint32_t count;
    struct amber_token t = *amber_lexer_peek(&p->lexer);
    if (!parse_u32(p, &count, "the REPEAT count") || !parse_end_of_line(p, "REPEAT's count"))
        return false;
    if (count == 0)
        return parse_error(p, &t, "the REPEAT count must be 1 or more");
    for (;;) {
        if (!parse_block_token(p, start, &t, "REPEAT has no END line"))
            return false;
        if (amber_word_is(&t, "END"))
            break;
        if (!parse_is_command(&t))
            return parse_error(p, &t,
                               "REPEAT holds RUN, CLEAR, CLEAR_COLOR, CLEAR_DEPTH, CLEAR_STENCIL, COPY and "
                               "EXPECT only, not '%s'",
                               t.text);
        if (!parse_command(p, &t) || p->stop)
            return false;
    }
    /* `c` may have moved as commands were added */
    p->script->commands[index].repeat.count = count;
    p->script->commands[index].repeat.body = p->script->command_count - index - 1;
    return parse_end_of_line(p, "END");
}
