/* Area `hazard`: a conflict the tracker found, as a finding (check_hazard_report.h). The stages
 * named are the application's own where it wrote a mask (barriers and their layout transitions),
 * else the stage family the access belongs to. */
#include "check_hazard_report.h"

#include <stdio.h>

#include "findings.h"
#include "state_command_buffers.h"
#include "state_device.h"
#include "state_resources.h"
#include "vk_formats.h"

static const struct {
    uint64_t bit;
    const char *name;
} stage_name_table[] = {
    {STAGE_TOP_OF_PIPE, "TOP_OF_PIPE"},
    {STAGE_DRAW_INDIRECT, "DRAW_INDIRECT"},
    {STAGE_VERTEX_INPUT, "VERTEX_INPUT"},
    {STAGE_VERTEX_SHADER, "VERTEX_SHADER"},
    {STAGE_TESSELLATION_CONTROL_SHADER, "TESSELLATION_CONTROL_SHADER"},
    {STAGE_TESSELLATION_EVALUATION_SHADER, "TESSELLATION_EVALUATION_SHADER"},
    {STAGE_GEOMETRY_SHADER, "GEOMETRY_SHADER"},
    {STAGE_FRAGMENT_SHADER, "FRAGMENT_SHADER"},
    {STAGE_EARLY_FRAGMENT_TESTS, "EARLY_FRAGMENT_TESTS"},
    {STAGE_LATE_FRAGMENT_TESTS, "LATE_FRAGMENT_TESTS"},
    {STAGE_COLOR_ATTACHMENT_OUTPUT, "COLOR_ATTACHMENT_OUTPUT"},
    {STAGE_COMPUTE_SHADER, "COMPUTE_SHADER"},
    {0x1000ull, "TRANSFER"},
    {STAGE_BOTTOM_OF_PIPE, "BOTTOM_OF_PIPE"},
    {0x4000ull, "HOST"},
    {STAGE_ALL_GRAPHICS, "ALL_GRAPHICS"},
    {STAGE_ALL_COMMANDS, "ALL_COMMANDS"},
    {STAGE_TASK_SHADER, "TASK_SHADER"},
    {STAGE_MESH_SHADER, "MESH_SHADER"},
    {STAGE_FRAGMENT_SHADING_RATE_ATTACHMENT, "FRAGMENT_SHADING_RATE_ATTACHMENT"},
    {STAGE_COPY, "COPY"},
    {STAGE_RESOLVE, "RESOLVE"},
    {STAGE_BLIT, "BLIT"},
    {STAGE_CLEAR, "CLEAR"},
    {STAGE_INDEX_INPUT, "INDEX_INPUT"},
    {STAGE_VERTEX_ATTRIBUTE_INPUT, "VERTEX_ATTRIBUTE_INPUT"},
    {STAGE_PRE_RASTERIZATION_SHADERS, "PRE_RASTERIZATION_SHADERS"},
};

/* The stage names of a mask as the application wrote it ("FRAGMENT_SHADER|COMPUTE_SHADER"). */
static const char *hazard_stage_names(uint64_t mask, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    if (mask == 0) {
        snprintf(out, size, "NONE");
        return out;
    }
    for (size_t i = 0; i < sizeof(stage_name_table) / sizeof(stage_name_table[0]); ++i) {
        if (!(mask & stage_name_table[i].bit))
            continue;
        int n = snprintf(out + used, size - used, "%s%s", used ? "|" : "", stage_name_table[i].name);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
    return out;
}

/* The earlier use's stages in words: the application's own mask where it gave one (barriers and
 * their layout transitions), else the stage family the access belongs to. */
static const char *use_stage_words(const struct hazard_use *u, char *out, size_t size)
{
    uint64_t stages = u->stages;
    if (u->named_stages != 0)
        return hazard_stage_names(u->named_stages, out, size);
    if (stages == ~0ull || stages == ~(STAGE_TOP_OF_PIPE | STAGE_BOTTOM_OF_PIPE))
        return "ALL_COMMANDS";
    if (stages & STAGE_COMPUTE_SHADER)
        return "COMPUTE_SHADER";
    if (stages & STAGE_DRAW_INDIRECT)
        return "DRAW_INDIRECT";
    if (stages & HAZARD_STAGES_VERTEX_INPUT)
        return "VERTEX_INPUT";
    if (stages & HAZARD_STAGES_TRANSFER)
        return "TRANSFER";
    if ((stages & (stages - 1)) == 0) /* one stage: its name */
        return hazard_stage_names(stages, out, size);
    if ((stages & (STAGE_EARLY_FRAGMENT_TESTS | STAGE_LATE_FRAGMENT_TESTS)) &&
        !(stages & (STAGE_VERTEX_SHADER | STAGE_FRAGMENT_SHADER)))
        return "EARLY/LATE_FRAGMENT_TESTS";
    if (stages & STAGE_HOST)
        return "HOST";
    return "the graphics shader stages";
}

static void area_text(uint32_t area, char *out, size_t size)
{
    if ((area & ~IMAGE_AREA_WHOLE_MEMORY) == 0) {
        snprintf(out, size, "every pixel");
        return;
    }
    struct image_rect r = image_area_rect(area);
    snprintf(out, size, "x %u..%u, y %u..%u", r.x0, r.x1 - 1, r.y0, r.y1 - 1);
}

/* Whether a use is a render pass's load, store or resolve operation (not a transfer or a shader). */
static bool attachment_operation(uint64_t stages)
{
    return (stages & (STAGE_COLOR_ATTACHMENT_OUTPUT | HAZARD_STAGES_DEPTH_TESTS)) != 0 &&
           (stages & (HAZARD_STAGES_TRANSFER | HAZARD_STAGES_GRAPHICS_SHADERS | STAGE_COMPUTE_SHADER)) == 0;
}

/* Image accesses limited to areas (image_area.h): both areas, and the rule that made them meet
 * (appended to a message). */
static void areas_text(const struct hazard_access *now, const struct hazard_range *r, const struct hazard_use *before,
                       char *out, size_t size)
{
    char a[64], b[64];
    area_text(now->area, a, sizeof(a));
    area_text(r->area, b, sizeof(b));
    bool passes = attachment_operation(now->stages) || attachment_operation(before->stages);
    if ((now->area | r->area) & IMAGE_AREA_WHOLE_MEMORY) {
        struct image_rect x = image_area_rect(now->area), y = image_area_rect(r->area);
        bool disjoint = (now->area & ~IMAGE_AREA_WHOLE_MEMORY) && (r->area & ~IMAGE_AREA_WHOLE_MEMORY) &&
                        !(x.x0 < y.x1 && y.x0 < x.x1 && x.y0 < y.y1 && y.y0 < x.y1);
        snprintf(out, size,
                 ". Areas: this one %s, the earlier one %s%s. A render pass's load, store and resolve operations may "
                 "access any memory of the attachment's image subresource, not only the render area (render-pass "
                 "chapter: a load operation \"may read and write back any memory locations within the image "
                 "subresource bound for that attachment\", and so may store and resolve operations; "
                 "VkRenderPassBeginInfo::renderArea bounds the values that change, not the memory accessed): order "
                 "the two with an external subpass dependency or a barrier (render_area = pixels is the lenient "
                 "reading)",
                 a, b, disjoint ? " (disjoint)" : "");
    } else if (passes) {
        snprintf(out, size,
                 ". Render areas: this one %s, the earlier one %s; they overlap. With render_area = pixels a render "
                 "pass's load and store operations touch only its render area, so passes over disjoint parts of an "
                 "attachment need no dependency, but overlapping ones do: give the later pass an external subpass "
                 "dependency from the earlier pass's stores, or a barrier between the passes",
                 a, b);
    } else {
        snprintf(out, size, ". Regions: this one %s, the earlier one %s; they overlap", a, b);
    }
}

/* The subresources two image accesses share: mips, layers, and for a multi-planar image the plane
 * of the first (planes are folded into the layers: command_access_regions.h). */
static void image_where(struct layer_device *ld, const struct hazard_access *now, uint64_t begin, uint64_t end,
                        uint32_t layer_begin, uint32_t layer_end, char *out, size_t size)
{
    const struct image_state *i = image_state_in(ld, now->resource);
    if (i != NULL && i->type != VK_IMAGE_TYPE_3D && vk_format_plane_count(i->format) > 1 && i->array_layers > 0) {
        uint32_t plane = layer_begin / i->array_layers, last = layer_end - 1;
        snprintf(out, size, "plane %u, mips %llu..%llu, layers %u..%u", plane, (unsigned long long)begin,
                 (unsigned long long)end - 1, layer_begin % i->array_layers,
                 last / i->array_layers == plane ? last % i->array_layers : i->array_layers - 1);
        return;
    }
    snprintf(out, size, "mips %llu..%llu, layers %u..%u", (unsigned long long)begin, (unsigned long long)end - 1,
             layer_begin, layer_end - 1);
}

void hazard_report(struct layer_device *ld, struct command_buffer_state *cb, uint32_t command_index, const char *call,
                   const struct hazard_access *now, const struct hazard_range *r, const struct hazard_conflict *c,
                   const char *context)
{
    struct finding f = {.check = c->check, .call = call, .command_buffer = cb};
    f.objects[f.object_count++] =
        (struct finding_object){VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)(uintptr_t)cb->handle};
    f.objects[f.object_count++] =
        (struct finding_object){now->image ? VK_OBJECT_TYPE_IMAGE : VK_OBJECT_TYPE_BUFFER, now->resource};
    char resource[128];
    finding_object_text(ld, now->image ? VK_OBJECT_TYPE_IMAGE : VK_OBJECT_TYPE_BUFFER, now->resource, resource,
                        sizeof(resource));
    uint64_t begin = now->begin > r->begin ? now->begin : r->begin, end = now->end < r->end ? now->end : r->end;
    char where[160];
    if (now->image)
        image_where(ld, now, begin, end, now->layer_begin > r->layer_begin ? now->layer_begin : r->layer_begin,
                    now->layer_end < r->layer_end ? now->layer_end : r->layer_end, where, sizeof(where));
    else
        snprintf(where, sizeof(where), "memory bytes [%llu, %llu)%s", (unsigned long long)begin,
                 (unsigned long long)end,
                 now->evaluated ? ", of the bytes its shader reaches, evaluated with the dispatch's size and push "
                                  "constants"
                                : "");
    const char *labels = c->before->labels;
    char names[160];
    const char *stages = use_stage_words(c->before, names, sizeof(names));
    int n = snprintf(f.message, sizeof(f.message),
                     "%s (command %u) %s %s (%s) that %s (command %u%s%s%s) %s in %s%s; missing between them: %s", call,
                     command_index, now->write && c->check != CHECK_HAZARD_READ_AFTER_WRITE ? "writes" : "reads",
                     resource, where, c->before->call, c->before->command_index, context, labels ? ", labels " : "",
                     labels ? labels : "", c->before_wrote ? "wrote" : "read",
                     c->before->transition ? "a layout transition after " : "", stages, c->missing);
    if (now->image && (now->area != 0 || r->area != 0) && n > 0 && (size_t)n < sizeof(f.message))
        areas_text(now, r, c->before, f.message + n, sizeof(f.message) - (size_t)n);
    finding_report(ld->instance, ld, &f);
}

bool hazard_reported_before(struct hazard_reported *last, const struct hazard_conflict *c)
{
    const struct hazard_use *u = c->before;
    if (last->any && last->check == c->check && last->command_buffer == u->command_buffer &&
        last->command_index == u->command_index && last->call == u->call)
        return true;
    *last = (struct hazard_reported){true, c->check, u->command_buffer, u->command_index, u->call};
    return false;
}
