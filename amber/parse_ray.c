/* Ray tracing: ACCELERATION_STRUCTURE BOTTOM_LEVEL/TOP_LEVEL ... END, a ray_tracing pipeline's
 * SHADER_GROUP, SHADER_BINDING_TABLE, FLAGS, USE_LIBRARY and MAX_RAY_* lines, BIND
 * ACCELERATION_STRUCTURE, and RUN pipeline RAYGEN sbt [MISS sbt] [HIT sbt] [CALL sbt] x y z. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser.h"

#define MAX_GEOMETRY_FLOATS (16u << 20) /* per GEOMETRY block; the file's own size bounds them first */
#define MAX_INSTANCES 65536

int64_t find_blas(const struct amber_script *s, const char *name)
{
    for (uint32_t i = 0; i < s->blas_count; ++i)
        if (strcmp(s->blases[i].name, name) == 0)
            return (int64_t)i;
    return -1;
}

int64_t find_tlas(const struct amber_script *s, const char *name)
{
    for (uint32_t i = 0; i < s->tlas_count; ++i)
        if (strcmp(s->tlases[i].name, name) == 0)
            return (int64_t)i;
    return -1;
}

static bool end_of_line(const struct amber_token *t)
{
    return t->kind == AMBER_TOKEN_END_OF_LINE || t->kind == AMBER_TOKEN_END_OF_FILE;
}

/* A list of flag words, integers or 0x values: on the rest of the line, or (when the line has none)
 * on the lines up to END. `names`/`bits` NULL-ended. */
static bool parse_flag_list(struct parser *p, const struct amber_token *start, const char *const *names,
                            const uint32_t *bits, bool numbers, uint32_t *flags)
{
    struct amber_token t;
    bool multiline = amber_lexer_peek(&p->lexer)->kind == AMBER_TOKEN_END_OF_LINE;
    uint32_t seen = 0;
    for (;;) {
        amber_lexer_next(&p->lexer, &t);
        if (t.kind == AMBER_TOKEN_END_OF_FILE) {
            if (multiline)
                return parse_error(p, start, "%s has no END line", start->text);
            break;
        }
        if (t.kind == AMBER_TOKEN_END_OF_LINE) {
            if (!multiline)
                break;
            continue;
        }
        if (amber_word_is(&t, "END")) {
            if (!multiline)
                return parse_error(p, &t, "%s on one line has no END", start->text);
            return parse_end_of_line(p, "END");
        }
        struct amber_integer n;
        bool known = false;
        for (int i = 0; names[i] != NULL && !known; ++i)
            if (amber_word_is(&t, names[i])) {
                *flags |= bits[i];
                known = true;
            }
        if (!known && numbers && amber_token_integer(&t, &n) && !n.negative && n.magnitude <= UINT32_MAX) {
            *flags |= (uint32_t)n.magnitude;
            known = true;
        }
        if (!known) {
            char list[256] = "";
            for (size_t i = 0, at = 0; names[i] != NULL && at < sizeof(list); ++i)
                at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", i ? ", " : "", names[i]);
            return parse_error(p, &t, "expected a %s flag (%s%s), got '%s'", start->text, list,
                               numbers ? " or a number" : "", t.text);
        }
        ++seen;
    }
    if (seen == 0)
        return parse_error(p, start, "%s lists no flags", start->text);
    return true;
}

/* --- ACCELERATION_STRUCTURE BOTTOM_LEVEL ----------------------------------------------------- */

static bool parse_geometry(struct parser *p, struct amber_blas *blas, const struct amber_token *start)
{
    struct amber_token kind, t;
    if (!parse_word(p, &kind, "TRIANGLES or AABBS"))
        return false;
    bool aabbs = amber_word_is(&kind, "AABBS");
    if (!aabbs && !amber_word_is(&kind, "TRIANGLES"))
        return parse_error(p, &kind, "expected TRIANGLES or AABBS after GEOMETRY, got '%s'", kind.text);
    if (blas->geometry_count > 0 && blas->aabbs != aabbs)
        return parse_error(p, start, "ACCELERATION_STRUCTURE %s mixes TRIANGLES and AABBS: one kind per structure",
                           blas->name);
    if (!parse_end_of_line(p, "GEOMETRY's kind"))
        return false;
    struct amber_geometry *g = parse_grow(p, (void **)&blas->geometries, &blas->geometry_count, sizeof(*g),
                                          AMBER_MAX_OBJECTS, start, "geometries in one structure");
    if (g == NULL)
        return false;
    blas->aabbs = aabbs;
    static const char *const names[] = {"OPAQUE", "NO_DUPLICATE_ANY_HIT", NULL};
    static const uint32_t bits[] = {VK_GEOMETRY_OPAQUE_BIT_KHR, VK_GEOMETRY_NO_DUPLICATE_ANY_HIT_INVOCATION_BIT_KHR};
    uint32_t count = 0, capacity = 0;
    for (;;) {
        if (!parse_block_token(p, start, &t, "GEOMETRY %s has no END line", kind.text))
            return false;
        if (amber_word_is(&t, "END")) {
            if (!parse_end_of_line(p, "END"))
                return false;
            break;
        }
        if (amber_word_is(&t, "FLAGS")) {
            if (!parse_flag_list(p, &t, names, bits, false, &g->flags))
                return false;
            continue;
        }
        double value;
        if (!amber_token_double(&t, &value))
            return parse_error(p, &t, "expected a coordinate (a number), FLAGS or END in GEOMETRY %s, got '%s'",
                               kind.text, t.text);
        if (count == MAX_GEOMETRY_FLOATS)
            return parse_limit(p, &t, "more than %u coordinates in one GEOMETRY: beyond preflight's limit",
                               MAX_GEOMETRY_FLOATS);
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 64;
            float *bigger = realloc(g->data, capacity * sizeof(float));
            if (bigger == NULL)
                return parse_limit(p, &t, "out of memory for a GEOMETRY");
            g->data = bigger;
        }
        g->data[count++] = (float)value;
    }
    uint32_t per = aabbs ? 6 : 9;
    if (count == 0)
        return parse_error(p, start, "GEOMETRY %s lists no %s", kind.text, aabbs ? "boxes" : "triangles");
    if (count % per != 0)
        return parse_error(p, start,
                           aabbs ? "GEOMETRY AABBS has %u coordinates: each box is 6 (x0 y0 z0 x1 y1 z1)"
                                 : "GEOMETRY TRIANGLES has %u coordinates: each triangle is 9 (three x y z vertices)",
                           count);
    g->primitive_count = count / per;
    p->script->total_bytes += (uint64_t)count * sizeof(float);
    if (p->script->total_bytes > AMBER_MAX_TOTAL_BYTES)
        return parse_limit(p, start, "the file's data would be more than %llu MiB: beyond preflight's limit",
                           AMBER_MAX_TOTAL_BYTES >> 20);
    return true;
}

static bool parse_blas(struct parser *p, const struct amber_token *start, const struct amber_token *name)
{
    struct amber_blas blas;
    memset(&blas, 0, sizeof(blas));
    parse_copy(blas.name, sizeof(blas.name), name->text);
    blas.where = (struct amber_location){start->line, start->column};
    struct amber_token t;
    bool ok = true;
    for (;;) {
        if (!parse_block_token(p, start, &t, "ACCELERATION_STRUCTURE %s has no END line", blas.name)) {
            ok = false;
            break;
        }
        if (amber_word_is(&t, "END")) {
            ok = parse_end_of_line(p, "END");
            break;
        }
        if (!amber_word_is(&t, "GEOMETRY")) {
            ok = parse_error(p, &t, "expected GEOMETRY or END in a BOTTOM_LEVEL structure, got '%s'", t.text);
            break;
        }
        if (!(ok = parse_geometry(p, &blas, &t)))
            break;
    }
    if (ok && blas.geometry_count == 0)
        ok = parse_error(p, start, "ACCELERATION_STRUCTURE %s has no GEOMETRY", blas.name);
    struct amber_blas *slot = ok ? parse_grow(p, (void **)&p->script->blases, &p->script->blas_count, sizeof(*slot),
                                              AMBER_MAX_OBJECTS, start, "bottom-level structures")
                                 : NULL;
    if (slot == NULL) {
        for (uint32_t i = 0; i < blas.geometry_count; ++i)
            free(blas.geometries[i].data);
        free(blas.geometries);
        return false;
    }
    *slot = blas;
    return true;
}

/* --- ACCELERATION_STRUCTURE TOP_LEVEL -------------------------------------------------------- */

static void instance_defaults(struct amber_instance *in, uint32_t blas)
{
    memset(in, 0, sizeof(*in));
    in->blas = blas;
    in->mask = 0xFF;
    in->transform[0] = in->transform[5] = in->transform[10] = 1.0f;
}

static bool parse_blas_name(struct parser *p, uint32_t *blas)
{
    struct amber_token name;
    if (!parse_word(p, &name, "a BOTTOM_LEVEL structure's name"))
        return false;
    int64_t found = find_blas(p->script, name.text);
    if (found < 0)
        return parse_error(p, &name, "no ACCELERATION_STRUCTURE BOTTOM_LEVEL named '%s' before this line", name.text);
    *blas = (uint32_t)found;
    return true;
}

static bool parse_limited(struct parser *p, uint32_t *value, uint32_t max, const char *what)
{
    struct amber_token t;
    amber_lexer_next(&p->lexer, &t);
    struct amber_integer n;
    if (!amber_token_integer(&t, &n) || n.negative || n.magnitude > max)
        return parse_error(p, &t, "expected %s (0 to %u), got '%s'", what, max,
                           t.kind == AMBER_TOKEN_WORD ? t.text : "the end of the line");
    *value = (uint32_t)n.magnitude;
    return true;
}

static bool parse_transform(struct parser *p, struct amber_instance *in, const struct amber_token *start)
{
    struct amber_token t;
    uint32_t count = 0;
    for (;;) {
        if (!parse_block_token(p, start, &t, "TRANSFORM has no END"))
            return false;
        if (amber_word_is(&t, "END"))
            break;
        double value;
        if (!amber_token_double(&t, &value))
            return parse_error(p, &t, "expected a TRANSFORM value (a number) or END, got '%s'", t.text);
        if (count == 12)
            return parse_error(p, &t, "TRANSFORM has more than 12 values (a 3x4 matrix, row by row)");
        in->transform[count++] = (float)value;
    }
    if (count != 12)
        return parse_error(p, start, "TRANSFORM has %u values; it takes 12 (a 3x4 matrix, row by row)", count);
    return true;
}

static bool parse_instance(struct parser *p, struct amber_instance *in, const struct amber_token *start)
{
    static const char *const names[] = {"TRIANGLE_FACING_CULL_DISABLE",
                                        "TRIANGLE_FLIP_FACING",
                                        "FORCE_OPAQUE",
                                        "FORCE_NO_OPAQUE",
                                        "FORCE_OPACITY_MICROMAP_2_STATE",
                                        "DISABLE_OPACITY_MICROMAPS",
                                        NULL};
    static const uint32_t bits[] = {VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR,
                                    VK_GEOMETRY_INSTANCE_TRIANGLE_FLIP_FACING_BIT_KHR,
                                    VK_GEOMETRY_INSTANCE_FORCE_OPAQUE_BIT_KHR,
                                    VK_GEOMETRY_INSTANCE_FORCE_NO_OPAQUE_BIT_KHR,
                                    0x10 /* VK_GEOMETRY_INSTANCE_FORCE_OPACITY_MICROMAP_2_STATE_EXT */,
                                    0x20 /* VK_GEOMETRY_INSTANCE_DISABLE_OPACITY_MICROMAPS_EXT */};
    uint32_t blas;
    if (!parse_blas_name(p, &blas))
        return false;
    instance_defaults(in, blas);
    struct amber_token t;
    for (;;) {
        if (!parse_block_token(p, start, &t, "BOTTOM_LEVEL_INSTANCE has no END line"))
            return false;
        if (amber_word_is(&t, "END"))
            return parse_end_of_line(p, "END");
        bool ok;
        if (amber_word_is(&t, "INDEX"))
            ok = parse_limited(p, &in->custom_index, 0xFFFFFF, "the INDEX");
        else if (amber_word_is(&t, "OFFSET"))
            ok = parse_limited(p, &in->sbt_offset, 0xFFFFFF, "the OFFSET");
        else if (amber_word_is(&t, "MASK"))
            ok = parse_limited(p, &in->mask, 0xFF, "the MASK");
        else if (amber_word_is(&t, "FLAGS"))
            ok = parse_flag_list(p, &t, names, bits, true, &in->flags);
        else if (amber_word_is(&t, "TRANSFORM"))
            ok = parse_transform(p, in, &t);
        else
            return parse_error(p, &t, "expected INDEX, OFFSET, MASK, FLAGS, TRANSFORM or END, got '%s'", t.text);
        if (!ok)
            return false;
    }
}

static bool parse_tlas(struct parser *p, const struct amber_token *start, const struct amber_token *name)
{
    struct amber_tlas tlas;
    memset(&tlas, 0, sizeof(tlas));
    parse_copy(tlas.name, sizeof(tlas.name), name->text);
    tlas.where = (struct amber_location){start->line, start->column};
    struct amber_token t;
    bool ok = true;
    for (;;) {
        if (!parse_block_token(p, start, &t, "ACCELERATION_STRUCTURE %s has no END line", tlas.name)) {
            ok = false;
            break;
        }
        if (amber_word_is(&t, "END")) {
            ok = parse_end_of_line(p, "END");
            break;
        }
        bool one_line = amber_word_is(&t, "BLAS_INSTANCE");
        if (!one_line && !amber_word_is(&t, "BOTTOM_LEVEL_INSTANCE")) {
            ok = parse_error(p, &t,
                             "expected BOTTOM_LEVEL_INSTANCE, BLAS_INSTANCE or END in a TOP_LEVEL structure, "
                             "got '%s'",
                             t.text);
            break;
        }
        struct amber_instance *in = parse_grow(p, (void **)&tlas.instances, &tlas.instance_count, sizeof(*in),
                                               MAX_INSTANCES, &t, "instances in one structure");
        if (in == NULL) {
            ok = false;
            break;
        }
        if (one_line) {
            uint32_t blas;
            ok = parse_keyword(p, "USE", "BLAS_INSTANCE") && parse_blas_name(p, &blas) &&
                 parse_end_of_line(p, "BLAS_INSTANCE");
            if (ok)
                instance_defaults(in, blas);
        } else {
            ok = parse_instance(p, in, &t);
        }
        if (!ok)
            break;
    }
    if (ok && tlas.instance_count == 0)
        ok = parse_error(p, start, "ACCELERATION_STRUCTURE %s has no instance", tlas.name);
    struct amber_tlas *slot = ok ? parse_grow(p, (void **)&p->script->tlases, &p->script->tlas_count, sizeof(*slot),
                                              AMBER_MAX_OBJECTS, start, "top-level structures")
                                 : NULL;
    if (slot == NULL) {
        free(tlas.instances);
        return false;
    }
    *slot = tlas;
    return true;
}

bool parse_acceleration_structure(struct parser *p, const struct amber_token *start)
{
    struct amber_token level, name;
    if (!parse_word(p, &level, "BOTTOM_LEVEL or TOP_LEVEL"))
        return false;
    bool bottom = amber_word_is(&level, "BOTTOM_LEVEL");
    if (!bottom && !amber_word_is(&level, "TOP_LEVEL"))
        return parse_error(p, &level, "expected BOTTOM_LEVEL or TOP_LEVEL, got '%s'", level.text);
    if (!parse_word(p, &name, "the structure's name"))
        return false;
    if (find_blas(p->script, name.text) >= 0 || find_tlas(p->script, name.text) >= 0)
        return parse_error(p, &name, "an ACCELERATION_STRUCTURE named '%s' exists already", name.text);
    if (name.length >= AMBER_NAME_MAX)
        return parse_error(p, &name, "a name longer than %d characters", AMBER_NAME_MAX - 1);
    if (!parse_end_of_line(p, "the structure's name"))
        return false;
    return bottom ? parse_blas(p, start, &name) : parse_tlas(p, start, &name);
}

/* --- the pipeline's lines -------------------------------------------------------------------- */

static bool is_ray_stage(enum amber_stage stage)
{
    return stage >= AMBER_STAGE_RAY_GENERATION;
}

static int64_t find_group(const struct amber_pipeline *pl, const char *name)
{
    for (uint32_t i = 0; i < pl->group_count; ++i)
        if (strcmp(pl->groups[i].name, name) == 0)
            return (int64_t)i;
    return -1;
}

/* The group named `name` in the pipeline or (depth first, in USE_LIBRARY order) its libraries. */
static bool find_group_anywhere(const struct amber_script *s, uint32_t pipeline, const struct amber_pipeline *pl,
                                const char *name, struct amber_sbt_record *found, int depth)
{
    int64_t g = find_group(pl, name);
    if (g >= 0) {
        *found = (struct amber_sbt_record){pipeline, (uint32_t)g};
        return true;
    }
    for (uint32_t i = 0; depth < 8 && i < pl->library_count; ++i)
        if (find_group_anywhere(s, pl->libraries[i], &s->pipelines[pl->libraries[i]], name, found, depth + 1))
            return true;
    return false;
}

static bool parse_shader_group(struct parser *p, struct amber_pipeline *pl, const struct amber_token *start)
{
    struct amber_token name, t;
    if (!parse_word(p, &name, "the group's name"))
        return false;
    if (find_group(pl, name.text) >= 0)
        return parse_error(p, &name, "a SHADER_GROUP named '%s' exists already in this pipeline", name.text);
    if (name.length >= AMBER_NAME_MAX)
        return parse_error(p, &name, "a name longer than %d characters", AMBER_NAME_MAX - 1);
    struct amber_shader_group g;
    memset(&g, 0, sizeof(g));
    parse_copy(g.name, sizeof(g.name), name.text);
    g.general = g.closest_hit = g.any_hit = g.intersection = AMBER_NO_SHADER;
    uint32_t shaders = 0;
    for (;;) {
        amber_lexer_next(&p->lexer, &t);
        if (end_of_line(&t))
            break;
        int64_t found = t.kind == AMBER_TOKEN_WORD ? find_shader(p->script, t.text) : -1;
        if (found < 0)
            return parse_error(p, &t, "SHADER_GROUP %s: no SHADER named '%s' before this line", g.name, t.text);
        enum amber_stage stage = p->script->shaders[found].stage;
        uint32_t *slot = NULL;
        bool general =
            stage == AMBER_STAGE_RAY_GENERATION || stage == AMBER_STAGE_MISS || stage == AMBER_STAGE_CALLABLE;
        if (!is_ray_stage(stage))
            return parse_error(p, &t, "SHADER_GROUP %s: %s is not a ray-tracing shader", g.name, t.text);
        if (general &&
            (g.closest_hit != AMBER_NO_SHADER || g.any_hit != AMBER_NO_SHADER || g.intersection != AMBER_NO_SHADER))
            return parse_error(p, &t,
                               "SHADER_GROUP %s: a hit group cannot hold %s (a ray_generation, miss or "
                               "callable shader)",
                               g.name, t.text);
        if (!general && g.general != AMBER_NO_SHADER)
            return parse_error(p, &t,
                               "SHADER_GROUP %s: a ray_generation, miss or callable group cannot hold the hit "
                               "shader %s",
                               g.name, t.text);
        slot = general                            ? &g.general
               : stage == AMBER_STAGE_CLOSEST_HIT ? &g.closest_hit
               : stage == AMBER_STAGE_ANY_HIT     ? &g.any_hit
                                                  : &g.intersection;
        if (*slot != AMBER_NO_SHADER)
            return parse_error(p, &t, "SHADER_GROUP %s: two shaders of one kind (%s and %s)", g.name,
                               p->script->shaders[*slot].name, t.text);
        *slot = (uint32_t)found;
        ++shaders;
    }
    if (shaders == 0)
        return parse_error(p, start, "SHADER_GROUP %s names no shader", g.name);
    struct amber_shader_group *slot = parse_grow(p, (void **)&pl->groups, &pl->group_count, sizeof(*slot),
                                                 AMBER_MAX_OBJECTS, start, "shader groups in one pipeline");
    if (slot == NULL)
        return false;
    *slot = g;
    return true;
}

static bool parse_sbt(struct parser *p, uint32_t self, struct amber_pipeline *pl, const struct amber_token *start)
{
    struct amber_token name, t;
    if (!parse_word(p, &name, "the table's name") || !parse_end_of_line(p, "the table's name"))
        return false;
    for (uint32_t i = 0; i < pl->sbt_count; ++i)
        if (strcmp(pl->sbts[i].name, name.text) == 0)
            return parse_error(p, &name, "a SHADER_BINDING_TABLE named '%s' exists already in this pipeline",
                               name.text);
    if (name.length >= AMBER_NAME_MAX)
        return parse_error(p, &name, "a name longer than %d characters", AMBER_NAME_MAX - 1);
    struct amber_sbt sbt;
    memset(&sbt, 0, sizeof(sbt));
    parse_copy(sbt.name, sizeof(sbt.name), name.text);
    sbt.where = (struct amber_location){start->line, start->column};
    bool ok = true;
    for (;;) {
        if (!parse_block_token(p, start, &t, "SHADER_BINDING_TABLE %s has no END line", sbt.name)) {
            ok = false;
            break;
        }
        if (amber_word_is(&t, "END")) {
            ok = parse_end_of_line(p, "END");
            break;
        }
        if (amber_word_is(&t, "|")) /* the documented [ | group ] form */
            continue;
        struct amber_sbt_record record;
        if (!find_group_anywhere(p->script, self, pl, t.text, &record, 0)) {
            ok = parse_error(p, &t, "SHADER_BINDING_TABLE %s: no SHADER_GROUP '%s' in this pipeline or its libraries",
                             sbt.name, t.text);
            break;
        }
        struct amber_sbt_record *r = parse_grow(p, (void **)&sbt.records, &sbt.record_count, sizeof(*r),
                                                AMBER_MAX_OBJECTS, &t, "records in one table");
        if (r == NULL) {
            ok = false;
            break;
        }
        *r = record;
    }
    if (ok && sbt.record_count == 0)
        ok = parse_error(p, start, "SHADER_BINDING_TABLE %s names no group", sbt.name);
    struct amber_sbt *slot =
        ok ? parse_grow(p, (void **)&pl->sbts, &pl->sbt_count, sizeof(*slot), AMBER_MAX_OBJECTS, start, "tables")
           : NULL;
    if (slot == NULL) {
        free(sbt.records);
        return false;
    }
    *slot = sbt;
    return true;
}

/* A library's bindings join the pipeline's (the pipeline's own, later BIND lines win): the linked
 * pipeline has one layout for its shaders and those of its libraries. */
static bool use_library(struct parser *p, struct amber_pipeline *pl, uint32_t library, const struct amber_token *at)
{
    const struct amber_pipeline *lib = &p->script->pipelines[library];
    for (uint32_t i = 0; i < lib->binding_count; ++i) {
        bool taken = false;
        for (uint32_t k = 0; k < pl->binding_count && !taken; ++k)
            taken = pl->bindings[k].set == lib->bindings[i].set && pl->bindings[k].binding == lib->bindings[i].binding;
        if (taken)
            continue;
        struct amber_binding *b =
            parse_grow(p, (void **)&pl->bindings, &pl->binding_count, sizeof(*b), 1024, at, "bindings in one pipeline");
        if (b == NULL)
            return false;
        *b = lib->bindings[i];
    }
    if (pl->push_constants < 0)
        pl->push_constants = lib->push_constants;
    pl->libraries[pl->library_count++] = library;
    return true;
}

static bool parse_use_library(struct parser *p, struct amber_pipeline *pl, const struct amber_token *start)
{
    struct amber_token t;
    uint32_t before = pl->library_count;
    for (;;) {
        amber_lexer_next(&p->lexer, &t);
        if (end_of_line(&t))
            break;
        int64_t found = t.kind == AMBER_TOKEN_WORD ? find_pipeline(p->script, t.text) : -1;
        if (found < 0)
            return parse_error(p, &t, "USE_LIBRARY: no PIPELINE named '%s' before this line", t.text);
        if (p->script->pipelines[found].type != AMBER_PIPELINE_RAY_TRACING || !p->script->pipelines[found].library)
            return parse_error(p, &t, "USE_LIBRARY %s: that pipeline is not a ray_tracing pipeline with FLAGS LIBRARY",
                               t.text);
        if (pl->library_count == AMBER_MAX_LIBRARIES)
            return parse_limit(p, &t, "more than %d libraries in one pipeline: beyond preflight's limit",
                               AMBER_MAX_LIBRARIES);
        if (!use_library(p, pl, (uint32_t)found, &t))
            return false;
    }
    if (pl->library_count == before)
        return parse_error(p, start, "USE_LIBRARY names no pipeline");
    if (pl->group_count > 0 || pl->sbt_count > 0)
        return parse_error(p, start,
                           "USE_LIBRARY comes before the pipeline's SHADER_GROUP and SHADER_BINDING_TABLE "
                           "lines");
    return true;
}

bool parse_ray_tracing_line(struct parser *p, uint32_t self, struct amber_pipeline *pl, const struct amber_token *t)
{
    if (pl->type != AMBER_PIPELINE_RAY_TRACING)
        return parse_error(p, t, "%s is for ray_tracing pipelines; %s is a %s pipeline", t->text, pl->name,
                           pl->type == AMBER_PIPELINE_COMPUTE ? "compute" : "graphics");
    if (amber_word_is(t, "SHADER_GROUP"))
        return parse_shader_group(p, pl, t);
    if (amber_word_is(t, "SHADER_BINDING_TABLE"))
        return parse_sbt(p, self, pl, t);
    if (amber_word_is(t, "USE_LIBRARY"))
        return parse_use_library(p, pl, t);
    if (amber_word_is(t, "FLAGS")) {
        static const char *const names[] = {"LIBRARY", NULL};
        static const uint32_t bits[] = {1};
        uint32_t flags = 0;
        if (!parse_flag_list(p, t, names, bits, false, &flags))
            return false;
        pl->library = pl->library || (flags & 1);
        return true;
    }
    uint32_t *value = amber_word_is(t, "MAX_RAY_PAYLOAD_SIZE")         ? &pl->max_ray_payload_size
                      : amber_word_is(t, "MAX_RAY_HIT_ATTRIBUTE_SIZE") ? &pl->max_ray_hit_attribute_size
                                                                       : &pl->max_ray_recursion_depth;
    return parse_u32(p, value, t->text) && parse_end_of_line(p, t->text);
}

bool parse_is_ray_tracing_line(const struct amber_token *t)
{
    static const char *const names[] = {"SHADER_GROUP",
                                        "SHADER_BINDING_TABLE",
                                        "MAX_RAY_PAYLOAD_SIZE",
                                        "MAX_RAY_HIT_ATTRIBUTE_SIZE",
                                        "MAX_RAY_RECURSION_DEPTH",
                                        "FLAGS",
                                        "USE_LIBRARY",
                                        NULL};
    for (int i = 0; names[i]; ++i)
        if (amber_word_is(t, names[i]))
            return true;
    return false;
}

bool parse_bind_acceleration_structure(struct parser *p, struct amber_pipeline *pl, const struct amber_token *kind)
{
    struct amber_token name;
    if (pl->type != AMBER_PIPELINE_RAY_TRACING)
        return parse_error(p, kind, "BIND ACCELERATION_STRUCTURE is for ray_tracing pipelines; %s is a %s pipeline",
                           pl->name, pl->type == AMBER_PIPELINE_COMPUTE ? "compute" : "graphics");
    if (!parse_word(p, &name, "a TOP_LEVEL structure's name"))
        return false;
    int64_t found = find_tlas(p->script, name.text);
    if (found < 0)
        return parse_error(p, &name, "BIND: no ACCELERATION_STRUCTURE TOP_LEVEL named '%s' before this line",
                           name.text);
    uint32_t set, binding;
    if (!parse_keyword(p, "DESCRIPTOR_SET", "BIND") || !parse_u32(p, &set, "the DESCRIPTOR_SET") ||
        !parse_keyword(p, "BINDING", "BIND") || !parse_u32(p, &binding, "the BINDING") || !parse_end_of_line(p, "BIND"))
        return false;
    struct amber_binding *b = parse_binding_slot(p, pl, set, binding, kind);
    if (b == NULL)
        return false;
    b->where = (struct amber_location){kind->line, kind->column};
    b->kind = AMBER_BIND_ACCELERATION_STRUCTURE;
    b->set = set;
    b->binding = binding;
    b->count = 1;
    b->objects[0] = (uint32_t)found;
    return true;
}

/* At END: a library needs groups; a pipeline that runs needs a ray_generation group somewhere. */
bool parse_check_ray_tracing(struct parser *p, struct amber_pipeline *pl, const struct amber_token *at)
{
    if (pl->shader_count || pl->color_count || pl->depth_stencil >= 0 || pl->vertex_input_count ||
        pl->index_buffer >= 0)
        return parse_error(p, at,
                           "PIPELINE %s: a ray_tracing pipeline has SHADER_GROUPs, not ATTACH, attachments "
                           "or vertex data",
                           pl->name);
    if (pl->group_count == 0 && pl->library_count == 0)
        return parse_error(p, at, "PIPELINE %s: a ray_tracing pipeline needs a SHADER_GROUP", pl->name);
    if (pl->max_ray_recursion_depth == 0)
        pl->max_ray_recursion_depth = 1;
    for (uint32_t i = 0; i < pl->library_count; ++i) {
        const struct amber_pipeline *lib = &p->script->pipelines[pl->libraries[i]];
        if (lib->max_ray_payload_size != pl->max_ray_payload_size ||
            lib->max_ray_hit_attribute_size != pl->max_ray_hit_attribute_size)
            return parse_error(p, at,
                               "PIPELINE %s: MAX_RAY_PAYLOAD_SIZE and MAX_RAY_HIT_ATTRIBUTE_SIZE (%u, %u) differ from "
                               "those of its library %s (%u, %u)",
                               pl->name, pl->max_ray_payload_size, pl->max_ray_hit_attribute_size, lib->name,
                               lib->max_ray_payload_size, lib->max_ray_hit_attribute_size);
    }
    return true;
}

/* --- RUN ... RAYGEN -------------------------------------------------------------------------- */

static bool parse_sbt_ref(struct parser *p, const struct amber_pipeline *pl, uint32_t *sbt, const char *which)
{
    struct amber_token name;
    if (!parse_word(p, &name, "a SHADER_BINDING_TABLE name"))
        return false;
    if (*sbt != AMBER_NO_SHADER)
        return parse_error(p, &name, "RUN names the %s table twice", which);
    for (uint32_t i = 0; i < pl->sbt_count; ++i)
        if (strcmp(pl->sbts[i].name, name.text) == 0) {
            *sbt = i;
            return true;
        }
    return parse_error(p, &name, "RUN %s: PIPELINE %s has no SHADER_BINDING_TABLE '%s'", which, pl->name, name.text);
}

bool parse_trace_rays(struct parser *p, struct amber_command *c, const struct amber_token *first)
{
    const struct amber_pipeline *pl = &p->script->pipelines[c->pipeline];
    if (pl->type != AMBER_PIPELINE_RAY_TRACING)
        return parse_error(p, first, "RUN ... RAYGEN needs a ray_tracing pipeline; %s is not one", pl->name);
    if (pl->library)
        return parse_error(p, first, "RUN %s: a pipeline with FLAGS LIBRARY is linked into others, not run", pl->name);
    c->trace.raygen = c->trace.miss = c->trace.hit = c->trace.call = AMBER_NO_SHADER;
    struct amber_token t = *first;
    for (;;) {
        uint32_t *slot = amber_word_is(&t, "RAYGEN") ? &c->trace.raygen
                         : amber_word_is(&t, "MISS") ? &c->trace.miss
                         : amber_word_is(&t, "HIT")  ? &c->trace.hit
                         : amber_word_is(&t, "CALL") ? &c->trace.call
                                                     : NULL;
        if (slot == NULL)
            return parse_error(p, &t, "expected RAYGEN, MISS, HIT, CALL or the ray counts x y z, got '%s'",
                               end_of_line(&t) ? "the end of the line" : t.text);
        if (!parse_sbt_ref(p, pl, slot, t.text))
            return false;
        struct amber_integer n;
        if (amber_token_integer(amber_lexer_peek(&p->lexer), &n))
            break;
        amber_lexer_next(&p->lexer, &t);
    }
    if (c->trace.raygen == AMBER_NO_SHADER)
        return parse_error(p, first, "RUN %s: a ray-tracing RUN needs RAYGEN", pl->name);
    return parse_u32(p, &c->trace.x, "the ray count x") && parse_u32(p, &c->trace.y, "the ray count y") &&
           parse_u32(p, &c->trace.z, "the ray count z") && parse_end_of_line(p, "RUN");
}

bool parse_copy_ray_tracing(struct amber_pipeline *to, const struct amber_pipeline *from, uint32_t from_index,
                            uint32_t to_index)
{
    to->groups = NULL;
    to->sbts = NULL;
    to->group_count = to->sbt_count = 0;
    if (from->group_count) {
        to->groups = malloc(from->group_count * sizeof(*to->groups));
        if (to->groups == NULL)
            return false;
        memcpy(to->groups, from->groups, from->group_count * sizeof(*to->groups));
        to->group_count = from->group_count;
    }
    if (from->sbt_count) {
        to->sbts = calloc(from->sbt_count, sizeof(*to->sbts));
        if (to->sbts == NULL)
            return false;
        to->sbt_count = from->sbt_count;
        for (uint32_t i = 0; i < from->sbt_count; ++i) {
            to->sbts[i] = from->sbts[i];
            to->sbts[i].records = malloc(from->sbts[i].record_count * sizeof(struct amber_sbt_record));
            if (to->sbts[i].records == NULL) {
                to->sbts[i].record_count = 0;
                return false;
            }
            memcpy(to->sbts[i].records, from->sbts[i].records,
                   from->sbts[i].record_count * sizeof(struct amber_sbt_record));
            /* the derived pipeline's own groups are the parent's copies */
            for (uint32_t k = 0; k < to->sbts[i].record_count; ++k)
                if (to->sbts[i].records[k].pipeline == from_index)
                    to->sbts[i].records[k].pipeline = to_index;
        }
    }
    return true;
}
