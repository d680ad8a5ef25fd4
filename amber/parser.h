/* The parser's shared state and helpers, for parse.c (the file, shaders, buffers, samplers,
 * structs, requirements), parse_pipeline.c (PIPELINE and DERIVE_PIPELINE bodies) and
 * parse_commands.c (RUN, CLEAR*, COPY, EXPECT, REPEAT). Internal to amber/. */
#ifndef PREFLIGHT_AMBER_PARSER_H
#define PREFLIGHT_AMBER_PARSER_H

#include <stdbool.h>

#include "amber.h"
#include "lexer.h"
#include "script.h"

struct parser {
    struct amber_lexer lexer;
    struct amber_script *script;
    const char *directory; /* where FILE paths are found; NULL: no files */
    struct amber_diagnostic *diagnostic;
    bool stop; /* a syntax error, or a construct whose end cannot be found */
};

/* Records a syntax error at `at` (unless an earlier line was not supported) and stops; returns false. */
bool parse_error(struct parser *p, const struct amber_token *at, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* Records that the file uses something preflight does not run (the first one wins) and returns
 * true: the caller goes on parsing where it can find the construct's end. */
bool parse_unsupported(struct parser *p, const struct amber_token *at, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* The same for an implementation limit (docs/amber.md "Limits"); returns false: parsing stops. */
bool parse_limit(struct parser *p, const struct amber_token *at, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* A name into a fixed field, cut at its end (names are checked for length where they are read). */
void parse_copy(char *to, size_t size, const char *from);
/* The next token must be the end of the line (or file). */
bool parse_end_of_line(struct parser *p, const char *after);
/* The next token of a block's body that ends with an END line, ends of lines skipped: true with
 * `t` set (END too: the caller ends the block its way); false when the file ends first, reported at
 * `start` with the message the format makes ("... has no END line"). */
bool parse_block_token(struct parser *p, const struct amber_token *start, struct amber_token *t,
                       const char *no_end_format, ...) __attribute__((format(printf, 4, 5)));
/* The next token must be a word (or "string"): `what` names it in the message. */
bool parse_word(struct parser *p, struct amber_token *t, const char *what);
bool parse_keyword(struct parser *p, const char *keyword, const char *context);
bool parse_u32(struct parser *p, uint32_t *value, const char *what);
bool parse_u64(struct parser *p, uint64_t *value, const char *what);
bool parse_float(struct parser *p, float *value, const char *what);
bool parse_on_off(struct parser *p, bool *value, const char *what);
bool parse_number_token(const struct amber_token *t, struct amber_number *n);
bool parse_compare_op(struct parser *p, uint32_t *op);
/* A word from `names` (NULL-ended): its index into `values`. */
bool parse_choice(struct parser *p, const char *const *names, const uint32_t *values, uint32_t *value,
                  const char *what);
/* Skips to the line whose first word is END (for unsupported blocks); false at the end of the file. */
bool parse_skip_block(struct parser *p, const struct amber_token *start);

/* Lookups by name; -1 when unknown. */
int64_t find_shader(const struct amber_script *s, const char *name);
int64_t find_buffer(const struct amber_script *s, const char *name);
int64_t find_sampler(const struct amber_script *s, const char *name);
int64_t find_pipeline(const struct amber_script *s, const char *name);
/* A buffer/pipeline named by the next word, or an error saying which kind was expected. */
bool parse_buffer_ref(struct parser *p, uint32_t *index, const char *context);
bool parse_pipeline_ref(struct parser *p, uint32_t *index, const char *context);

/* Growable arrays of the script: room for one more, within AMBER_MAX_OBJECTS. */
void *parse_grow(struct parser *p, void **array, uint32_t *count, size_t size, uint32_t limit,
                 const struct amber_token *at, const char *what);

bool parse_pipeline_block(struct parser *p, const struct amber_token *start, bool derive);
/* A new pipeline's state before its body: Amber's defaults. */
void parse_pipeline_defaults(struct amber_pipeline *pl);
/* Replaces the binding at (set, binding), or adds one: a derived pipeline rebinds. */
struct amber_binding *parse_binding_slot(struct parser *p, struct amber_pipeline *pl, uint32_t set, uint32_t binding,
                                         const struct amber_token *at);

/* parse_ray.c: acceleration structures, ray_tracing pipelines and RUN ... RAYGEN */
int64_t find_blas(const struct amber_script *s, const char *name);
int64_t find_tlas(const struct amber_script *s, const char *name);
bool parse_acceleration_structure(struct parser *p, const struct amber_token *start);
bool parse_is_ray_tracing_line(const struct amber_token *t);
/* SHADER_GROUP, SHADER_BINDING_TABLE, FLAGS, USE_LIBRARY, MAX_RAY_*: `self` is the index the
 * pipeline will have (records name the pipeline that declares their group). */
bool parse_ray_tracing_line(struct parser *p, uint32_t self, struct amber_pipeline *pl, const struct amber_token *t);
bool parse_bind_acceleration_structure(struct parser *p, struct amber_pipeline *pl, const struct amber_token *kind);
bool parse_check_ray_tracing(struct parser *p, struct amber_pipeline *pl, const struct amber_token *at);
/* RUN pipeline RAYGEN ...: `first` is the token after the pipeline's name; c->pipeline is set. */
bool parse_trace_rays(struct parser *p, struct amber_command *c, const struct amber_token *first);
/* What a pipeline owns besides its bindings: groups, tables, SHADER_OPTIMIZATION flags. */
void parse_free_pipeline_parts(struct amber_pipeline *pl);
/* DERIVE_PIPELINE: deep copies of the groups and tables; false when out of memory. */
bool parse_copy_ray_tracing(struct amber_pipeline *to, const struct amber_pipeline *from, uint32_t from_index,
                            uint32_t to_index);
bool parse_command(struct parser *p, const struct amber_token *command);
bool parse_repeat(struct parser *p, const struct amber_token *start);
/* The commands that may stand inside REPEAT (and anywhere else). */
bool parse_is_command(const struct amber_token *t);

/* Buffer contents: DATA ... END and FILE, encoded into the buffer's layout. */
bool parse_data_block(struct parser *p, struct amber_buffer *b, const struct amber_token *start);
bool parse_file_initializer(struct parser *p, struct amber_buffer *b);
/* Reads `path` beside the script (at most `limit` bytes); NULL with an error recorded. */
char *parse_read_file(struct parser *p, const struct amber_token *at, const char *path, size_t limit, size_t *size);

/* vkscript.c: a file that does not start with #!amber, read as Amber reads VkScript; false on a
 * syntax error (recorded) */
bool parse_vkscript(struct parser *p, const char *text, size_t length);

#endif
