/* VkScript's reader, shared by vkscript.c (the file's sections, its implicit pipeline, buffers
 * and finishing the script) and vkscript_test.c (the [test] section's commands). Internal to
 * amber/. */
#ifndef PREFLIGHT_AMBER_VKSCRIPT_H
#define PREFLIGHT_AMBER_VKSCRIPT_H

#include <stdbool.h>
#include <stdint.h>

#include "parser.h"

/* A buffer the test binds (ssbo, uniform ubo) or pushes (uniform): its type is the one the
 * first subdata or probe names (a bare `ssbo N size` leaves int8, as Amber's default), its size
 * the larger of `ssbo N size` elements of that type and the last byte any write reaches. */
struct vk_buffer {
    uint32_t buffer; /* in the script */
    uint32_t set, binding;
    enum amber_bind_kind kind;
    bool push_constants;
    bool type_is_default;
    uint64_t size_elements; /* `ssbo N size`, 0: none */
    uint64_t extent;        /* bytes any write reaches */
};

#define VK_MAX_BUFFERS 256

struct vk_state {
    struct parser *p;
    struct amber_pipeline current; /* what the next draw or dispatch uses */
    bool graphics;
    bool dirty;       /* `current` changed since the last pipeline made from it */
    int64_t snapshot; /* the last pipeline made from `current`; -1: none */
    uint32_t pipelines_made;
    struct vk_buffer buffers[VK_MAX_BUFFERS];
    uint32_t buffer_count;
    struct amber_tolerance tolerances[4];
    uint32_t tolerance_count;
    float clear_color[4]; /* 0..1 */
    float clear_depth;
    uint32_t clear_stencil;
};

/* The pipeline a draw, dispatch or clear uses: the last one made, or a new one of `current`. */
bool vk_pipeline_for_command(struct vk_state *st, const struct amber_token *at, uint32_t *index);
/* The buffer bound at (set, binding), made when `create` (as a `kind` binding); NULL with an error. */
struct vk_buffer *vk_bound_buffer(struct vk_state *st, uint32_t set, uint32_t binding, enum amber_bind_kind kind,
                                  bool create, const struct amber_token *at);
/* The push-constant buffer, made on first use. */
struct vk_buffer *vk_push_buffer(struct vk_state *st, const struct amber_token *at);
/* Gives `b` the type `type` (std140 for uniform buffers), or checks it has it already. */
bool vk_buffer_type(struct vk_state *st, struct vk_buffer *b, const struct amber_type *type,
                    const struct amber_token *at);
/* A data type as VkScript writes it (int, uint, int8_t ... uint64_t, float, double, vecN, ivecN,
 * u8vecN, dvecN, matCxR, dmatCxR, ...). */
bool vk_datum_type(const char *word, struct amber_type *type);
/* `value` made to fit an integer segment as Amber stores it: cut to the segment's bits. */
void vk_wrap_integer(const struct amber_segment *s, struct amber_number *value);

/* vkscript_test.c: the [test] section, lexed from `p->lexer` up to the end of the section */
bool vk_parse_test(struct vk_state *st);

#endif
