/* Render areas as the hazard tracker compares attachment accesses. The spec limits a render pass's
 * load, store and resolve operations to its render area ("The effects of attachment load, store
 * and multisample resolve operations are restricted to the pixels whose x and y coordinates fall
 * within the render area on all attachments", VkRenderPassBeginInfo; the same for
 * VkRenderingInfo), so two passes over disjoint parts of one attachment do not touch the same
 * memory. An access carries the id of its area: 0 for the whole subresource, else an entry of
 * one process-wide table of the distinct rectangles seen (at most RENDER_AREAS_MAX; past that,
 * new rectangles count as the whole subresource, which can only add findings of the stricter
 * reading, never hide one). */
#ifndef PREFLIGHT_LAYER_RENDER_AREA_H
#define PREFLIGHT_LAYER_RENDER_AREA_H

#include <stdbool.h>
#include <stdint.h>

#define RENDER_AREAS_MAX 4096u

struct render_rect {
    uint32_t x0, y0, x1, y1; /* [x0, x1) x [y0, y1) */
};

/* The id of `rect` (interned), or 0 when it covers [0, width) x [0, height) or the table is full. */
uint32_t render_area_id(struct render_rect rect, uint32_t width, uint32_t height);
/* The rectangle of a non-zero id. */
struct render_rect render_area_rect(uint32_t id);

/* Whether accesses of areas `a` and `b` can touch the same pixels (0: the whole subresource). */
static inline bool render_areas_meet(uint32_t a, uint32_t b)
{
    if (a == 0 || b == 0 || a == b)
        return true;
    struct render_rect x = render_area_rect(a), y = render_area_rect(b);
    return x.x0 < y.x1 && y.x0 < x.x1 && x.y0 < y.y1 && y.y0 < x.y1;
}

#endif
