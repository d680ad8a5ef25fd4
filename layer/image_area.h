/* Areas of an image subresource, as the hazard tracker compares image accesses: the rectangle of a
 * copy, blit or resolve region (copies name their texels exactly, so copies into disjoint
 * rectangles of one mip level touch disjoint memory: GTK 4 uploads glyphs into an atlas that way),
 * and the render area of a render pass's load, store and resolve operations.
 *
 * An access carries the id of its area: 0 for the whole subresource, else an entry of one
 * process-wide table of the distinct rectangles seen. For render passes the spec bounds only the
 * values: a load operation "may read and write back any memory locations within the image
 * subresource bound for that attachment", and so may store and resolve operations, while
 * VkRenderPassBeginInfo::renderArea restricts which pixels' values change. By default (setting
 * render_area = attachment) an attachment operation's id therefore names its render area for the
 * messages but carries IMAGE_AREA_WHOLE_MEMORY: it meets every access of the subresource. With
 * render_area = pixels the render area bounds it like a copy region. 3D images: the depth slices
 * are the tracker's layers, so a rectangle and a slice range together are a box. */
#ifndef PREFLIGHT_LAYER_IMAGE_AREA_H
#define PREFLIGHT_LAYER_IMAGE_AREA_H

#include <stdbool.h>
#include <stdint.h>

/* The table grows in pages up to this many rectangles; past it, a new rectangle counts as the
 * whole subresource (which can only add findings, never hide one). */
#define IMAGE_AREAS_MAX (1u << 22)
/* An id with this bit names a rectangle for messages, but the access may touch all of the
 * subresource's memory (attachment operations under render_area = attachment). */
#define IMAGE_AREA_WHOLE_MEMORY (1u << 31)

struct image_rect {
    uint32_t x0, y0, x1, y1; /* [x0, x1) x [y0, y1) */
};

/* The id of `rect` (interned), or 0 when it covers [0, width) x [0, height), is empty, or the
 * table is full. */
uint32_t image_area_id(struct image_rect rect, uint32_t width, uint32_t height);
/* The rectangle of an id (IMAGE_AREA_WHOLE_MEMORY ignored); id 0: every pixel. */
struct image_rect image_area_rect(uint32_t id);

/* Whether accesses of areas `a` and `b` can touch the same memory (0: the whole subresource). */
static inline bool image_areas_meet(uint32_t a, uint32_t b)
{
    if (a == b || ((a | b) & IMAGE_AREA_WHOLE_MEMORY) || a == 0 || b == 0)
        return true;
    struct image_rect x = image_area_rect(a), y = image_area_rect(b);
    return x.x0 < y.x1 && y.x0 < x.x1 && x.y0 < y.y1 && y.y0 < x.y1;
}

#endif
