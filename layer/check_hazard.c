/* Area `hazard`: the spec's synchronization rules inside one command buffer, for buffer memory.
 *
 * For each memory range a command buffer touches the tracker keeps the last write and the reads
 * since it. A later access B to overlapping memory after an earlier access A needs:
 *   - A wrote, B reads (RAW): an execution dependency from A's stage to B's stage, and A's write
 *     made available (barrier src access) and visible to B's stage and access (dst access);
 *   - A wrote, B writes (WAW): an execution dependency from A's stage to B's stage;
 *   - A read, B writes (WAR): an execution dependency only;
 *   - both read: nothing.
 * Barriers are applied when recorded: each tracked use remembers the stages that are ordered
 * after it (execution dependency, chained through later barriers) and, for a write, the stages and
 * accesses it was made visible to. Stage masks are expanded as the spec says (ALL_COMMANDS,
 * ALL_GRAPHICS, TOP/BOTTOM_OF_PIPE per scope, logically earlier/later stages, the sync2 transfer
 * and vertex-input families).
 *
 * Where the layer does not model the synchronization (render pass boundaries and their subpass
 * dependencies, vkCmdExecuteCommands) it forgets what it tracked, assuming the application right:
 * a missed bug costs less than a false finding. Accesses in other command buffers and submissions
 * are not compared yet. */
#include "check_hazard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "layer_state.h"

#define HANDLE(h) ((uint64_t)(h))
#define MAX_RANGES 4096
#define MAX_READS 4

struct hazard_use {
    uint64_t stages, access;
    uint64_t ordered_stages;  /* stages an execution dependency orders after this use */
    uint64_t visible_stages;  /* a write: stages it was made visible to */
    uint64_t visible_access;
    bool available;           /* a write: a barrier's source access scope held it */
    uint32_t command_index;
    const char *call;
};

struct hazard_range {
    bool image;
    uint64_t key, begin, end, resource;
    uint32_t layer_begin, layer_end;
    bool has_write;
    struct hazard_use write;
    struct hazard_use reads[MAX_READS];
    uint32_t read_count;
};

struct hazard_tracker {
    struct hazard_range *ranges;
    uint32_t count, capacity;
};

/* VkPipelineStageFlagBits2 */
#define S_TOP 0x1ull
#define S_DRAW_INDIRECT 0x2ull
#define S_VERTEX_SHADER 0x8ull
#define S_TESS_CONTROL 0x10ull
#define S_TESS_EVAL 0x20ull
#define S_GEOMETRY 0x40ull
#define S_FRAGMENT 0x80ull
#define S_EARLY_TESTS 0x100ull
#define S_LATE_TESTS 0x200ull
#define S_COLOR_OUTPUT 0x400ull
#define S_COMPUTE 0x800ull
#define S_BOTTOM 0x2000ull
#define S_ALL_GRAPHICS 0x8000ull
#define S_ALL_COMMANDS 0x10000ull
#define S_TASK 0x80000ull
#define S_MESH 0x100000ull
#define S_SHADING_RATE 0x400000ull
#define S_PRE_RASTERIZATION (1ull << 38)

#define TRANSFER_FAMILY HAZARD_STAGES_TRANSFER         /* TRANSFER (= ALL_TRANSFER), COPY, RESOLVE, BLIT, CLEAR */
#define VERTEX_INPUT_FAMILY HAZARD_STAGES_VERTEX_INPUT /* VERTEX_INPUT, INDEX_INPUT, VERTEX_ATTRIBUTE_INPUT */
#define PRE_RASTERIZATION_FAMILY (S_VERTEX_SHADER | S_TESS_CONTROL | S_TESS_EVAL | S_GEOMETRY | S_TASK | S_MESH)

/* The graphics pipeline's stages in logical order (primitive and mesh shading folded into one
 * order: the folding only ever adds stages to a scope, never removes one). */
static const uint64_t graphics_order[] = {
    S_DRAW_INDIRECT, VERTEX_INPUT_FAMILY, S_VERTEX_SHADER, S_TESS_CONTROL, S_TESS_EVAL, S_GEOMETRY, S_TASK, S_MESH,
    S_SHADING_RATE,  S_EARLY_TESTS,       S_FRAGMENT,      S_LATE_TESTS,   S_COLOR_OUTPUT,
};
#define GRAPHICS_ORDER_COUNT (sizeof(graphics_order) / sizeof(graphics_order[0]))

#define ALL_GRAPHICS_STAGES                                                                                            \
    (S_DRAW_INDIRECT | VERTEX_INPUT_FAMILY | S_VERTEX_SHADER | S_TESS_CONTROL | S_TESS_EVAL | S_GEOMETRY | S_TASK |    \
     S_MESH | S_SHADING_RATE | S_EARLY_TESTS | S_FRAGMENT | S_LATE_TESTS | S_COLOR_OUTPUT)

/* A stage mask as a synchronization scope: `first` for a barrier's source, else its destination. */
static uint64_t expand_stages(uint64_t mask, bool first)
{
    if (mask & S_ALL_COMMANDS)
        return ~0ull;
    if (first ? (mask & S_BOTTOM) : (mask & S_TOP))
        return ~0ull;
    if (mask & S_ALL_GRAPHICS)
        mask |= ALL_GRAPHICS_STAGES;
    if (mask & TRANSFER_FAMILY)
        mask |= TRANSFER_FAMILY;
    if (mask & VERTEX_INPUT_FAMILY)
        mask |= VERTEX_INPUT_FAMILY;
    if (mask & S_PRE_RASTERIZATION)
        mask |= PRE_RASTERIZATION_FAMILY;
    /* logically earlier stages belong to a source scope, logically later ones to a destination:
     * everything before the latest graphics stage of a source, after the earliest of a destination */
    uint64_t expanded = mask, before = 0;
    for (size_t i = 0; (mask & ALL_GRAPHICS_STAGES) && i < GRAPHICS_ORDER_COUNT; ++i) {
        if (mask & graphics_order[i]) {
            if (first) {
                expanded |= before;
            } else {
                expanded |= ALL_GRAPHICS_STAGES & ~before & ~graphics_order[i];
                break;
            }
        }
        before |= graphics_order[i];
    }
    if (first && (mask & S_COMPUTE))
        expanded |= S_DRAW_INDIRECT;
    if (!first && (mask & S_DRAW_INDIRECT))
        expanded |= S_COMPUTE;
    return expanded;
}

static struct hazard_tracker *tracker_of(struct command_buffer_state *cb, bool create)
{
    if (cb->hazards == NULL && create)
        cb->hazards = calloc(1, sizeof(struct hazard_tracker));
    return cb->hazards;
}

void hazard_forget(struct command_buffer_state *cb)
{
    struct hazard_tracker *t = tracker_of(cb, false);
    if (t != NULL)
        t->count = 0;
}

/* Keeps the tracker's memory for the next recording (engines reset and re-record the same command
 * buffers every frame), unless one recording grew it large. */
#define KEPT_RANGES 256
void hazard_reset(struct command_buffer_state *cb)
{
    struct hazard_tracker *t = tracker_of(cb, false);
    if (t == NULL)
        return;
    t->count = 0;
    if (t->capacity > KEPT_RANGES)
        hazard_free(cb);
}

void hazard_free(struct command_buffer_state *cb)
{
    struct hazard_tracker *t = tracker_of(cb, false);
    if (t != NULL) {
        free(t->ranges);
        free(t);
        cb->hazards = NULL;
    }
}

bool hazard_buffer_range(struct layer_device *ld, uint64_t buffer, VkDeviceSize offset, VkDeviceSize size,
                         struct hazard_access *out)
{
    struct buffer_state *b = handle_map_get(&ld->buffers, buffer);
    if (b == NULL || offset >= b->size)
        return false;
    VkDeviceSize length = size == VK_WHOLE_SIZE || offset + size > b->size ? b->size - offset : size;
    out->image = false;
    out->layer_begin = 0;
    out->layer_end = 1;
    out->resource = buffer;
    out->key = b->memory ? HANDLE(b->memory) : buffer;
    out->begin = (b->memory ? b->memory_offset : 0) + offset;
    out->end = out->begin + length;
    return length > 0;
}

bool hazard_image_range(struct layer_device *ld, uint64_t image, uint32_t base_mip, uint32_t mip_count,
                        uint32_t base_layer, uint32_t layer_count, struct hazard_access *out)
{
    struct image_state *i = handle_map_get(&ld->images, image);
    if (i == NULL || base_mip >= i->mip_levels || base_layer >= i->array_layers)
        return false;
    uint32_t mips = mip_count == VK_REMAINING_MIP_LEVELS || base_mip + mip_count > i->mip_levels
                        ? i->mip_levels - base_mip : mip_count;
    uint32_t layers = layer_count == VK_REMAINING_ARRAY_LAYERS || base_layer + layer_count > i->array_layers
                          ? i->array_layers - base_layer : layer_count;
    out->image = true;
    out->key = out->resource = image;
    out->begin = base_mip;
    out->end = (uint64_t)base_mip + mips;
    out->layer_begin = base_layer;
    out->layer_end = base_layer + layers;
    return mips > 0 && layers > 0;
}

static bool overlaps(bool image, uint64_t key, uint64_t begin, uint64_t end, uint32_t layer_begin, uint32_t layer_end,
                     const struct hazard_range *r)
{
    return r->image == image && r->key == key && begin < r->end && r->begin < end &&
           (!image || (layer_begin < r->layer_end && r->layer_begin < layer_end));
}

static void order_use(struct hazard_use *u, uint64_t src, uint64_t dst)
{
    if ((u->stages | u->ordered_stages) & src)
        u->ordered_stages |= dst;
}

static bool barrier_covers(const struct hazard_memory_barrier *m, const struct hazard_range *r)
{
    return (m->global && !m->image) ||
           overlaps(m->image, m->key, m->begin, m->end, m->layer_begin, m->layer_end, r);
}

void hazard_barrier(struct command_buffer_state *cb, uint64_t src_stages, uint64_t dst_stages,
                    const struct hazard_memory_barrier *barriers, uint32_t count)
{
    struct hazard_tracker *t = tracker_of(cb, false);
    if (t == NULL)
        return;
    uint64_t src = expand_stages(src_stages, true), dst = expand_stages(dst_stages, false);
    for (uint32_t i = 0; i < t->count; ++i) {
        struct hazard_range *r = &t->ranges[i];
        for (uint32_t k = 0; k < r->read_count; ++k)
            order_use(&r->reads[k], src, dst);
        if (!r->has_write)
            continue;
        struct hazard_use *w = &r->write;
        bool in_first_scope = ((w->stages | w->ordered_stages) & src) != 0;
        /* a write made visible to some stages stays visible where a later dependency extends them */
        if (w->visible_stages & src)
            w->visible_stages |= dst;
        for (uint32_t m = 0; in_first_scope && m < count; ++m) {
            if (!barrier_covers(&barriers[m], r))
                continue;
            /* available once a source access scope held the write; then any memory barrier
             * ordered after that makes it visible to its destination scope */
            w->available = w->available || (barriers[m].src_access & w->access) != 0;
            if (w->available) {
                w->visible_stages |= dst;
                w->visible_access |= barriers[m].dst_access;
            }
        }
        order_use(w, src, dst);
    }
}

static const char *stage_words(uint64_t stages)
{
    if (stages & S_COMPUTE)
        return "COMPUTE_SHADER";
    if (stages & S_DRAW_INDIRECT)
        return "DRAW_INDIRECT";
    if (stages & VERTEX_INPUT_FAMILY)
        return "VERTEX_INPUT";
    if (stages & TRANSFER_FAMILY)
        return "TRANSFER";
    return "the graphics shader stages";
}

static void report(struct layer_device *ld, struct command_buffer_state *cb, enum check_id check, const char *call,
                   const struct hazard_access *now, const struct hazard_range *r, const struct hazard_use *before,
                   bool before_wrote, const char *missing)
{
    struct finding f = {.check = check, .call = call, .command_buffer = cb};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_COMMAND_BUFFER, HANDLE((uintptr_t)cb->handle)};
    f.objects[f.object_count++] =
        (struct finding_object){now->image ? VK_OBJECT_TYPE_IMAGE : VK_OBJECT_TYPE_BUFFER, now->resource};
    const char *name = handle_map_get(&ld->names, now->resource);
    uint64_t begin = now->begin > r->begin ? now->begin : r->begin, end = now->end < r->end ? now->end : r->end;
    char where[96];
    if (now->image)
        snprintf(where, sizeof(where), "mips %llu..%llu, layers %u..%u", (unsigned long long)begin,
                 (unsigned long long)end - 1, now->layer_begin > r->layer_begin ? now->layer_begin : r->layer_begin,
                 (now->layer_end < r->layer_end ? now->layer_end : r->layer_end) - 1);
    else
        snprintf(where, sizeof(where), "memory bytes [%llu, %llu)", (unsigned long long)begin,
                 (unsigned long long)end);
    snprintf(f.message, sizeof(f.message),
             "%s (command %u) %s %s 0x%llx%s%s%s (%s) that %s (command %u) %s in %s; missing between them: %s", call,
             cb->command_index, now->write && check != CHECK_HAZARD_READ_AFTER_WRITE ? "writes" : "reads",
             now->image ? "VkImage" : "VkBuffer", (unsigned long long)now->resource, name ? " \"" : "",
             name ? name : "", name ? "\"" : "", where, before->call, before->command_index,
             before_wrote ? "wrote" : "read", stage_words(before->stages), missing);
    finding_report(ld->instance, ld, &f);
}

static struct hazard_range *find_or_add(struct hazard_tracker *t, const struct hazard_access *a)
{
    for (uint32_t i = 0; i < t->count; ++i)
        if (t->ranges[i].image == a->image && t->ranges[i].key == a->key && t->ranges[i].begin == a->begin &&
            t->ranges[i].end == a->end && t->ranges[i].layer_begin == a->layer_begin &&
            t->ranges[i].layer_end == a->layer_end)
            return &t->ranges[i];
    if (t->count == MAX_RANGES)
        t->count = 0; /* bounded memory: start over rather than grow without end */
    if (t->count == t->capacity) {
        uint32_t capacity = t->capacity ? t->capacity * 2 : 32;
        struct hazard_range *grown = realloc(t->ranges, capacity * sizeof(*grown));
        if (grown == NULL)
            return NULL;
        t->ranges = grown;
        t->capacity = capacity;
    }
    struct hazard_range *r = &t->ranges[t->count++];
    memset(r, 0, sizeof(*r));
    r->image = a->image;
    r->key = a->key;
    r->begin = a->begin;
    r->end = a->end;
    r->layer_begin = a->layer_begin;
    r->layer_end = a->layer_end;
    r->resource = a->resource;
    return r;
}

/* Checks one access against one tracked range; reports at most one finding per pair. */
static void check_against(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_access *a,
                          const struct hazard_range *r, const char *call)
{
    if (!overlaps(a->image, a->key, a->begin, a->end, a->layer_begin, a->layer_end, r))
        return;
    if (r->has_write && r->write.command_index != cb->command_index) {
        const struct hazard_use *w = &r->write;
        if (a->read && !((w->visible_stages & a->stages) && (w->visible_access & a->access))) {
            report(ld, cb, CHECK_HAZARD_READ_AFTER_WRITE, call, a, r, w, true,
                   (w->ordered_stages & a->stages) ? "a memory dependency that makes the write visible to this access"
                                                   : "a barrier ordering the write before this access");
            return;
        }
        if (a->write && !(w->ordered_stages & a->stages)) {
            report(ld, cb, CHECK_HAZARD_WRITE_AFTER_WRITE, call, a, r, w, true,
                   "a barrier ordering the first write before the second");
            return;
        }
    }
    for (uint32_t k = 0; a->write && k < r->read_count; ++k) {
        const struct hazard_use *u = &r->reads[k];
        if (u->command_index != cb->command_index && !(u->ordered_stages & a->stages)) {
            report(ld, cb, CHECK_HAZARD_WRITE_AFTER_READ, call, a, r, u, false,
                   "an execution dependency ordering the read before the write");
            return;
        }
    }
}

static void record(struct hazard_range *r, const struct hazard_access *a, uint32_t command_index, const char *call)
{
    struct hazard_use use = {.stages = a->stages, .access = a->access, .command_index = command_index, .call = call};
    if (a->write) {
        r->has_write = true;
        r->write = use;
        r->read_count = 0;
        return;
    }
    /* a newer read with the same stages replaces the older: a barrier after it covers both */
    for (uint32_t k = 0; k < r->read_count; ++k) {
        if (r->reads[k].stages == a->stages) {
            r->reads[k] = use;
            return;
        }
    }
    if (r->read_count < MAX_READS) {
        r->reads[r->read_count++] = use;
        return;
    }
    struct hazard_use *last = &r->reads[MAX_READS - 1];
    use.stages |= last->stages;
    *last = use;
}

void hazard_command(struct layer_device *ld, struct command_buffer_state *cb, const struct hazard_accesses *accesses,
                    const char *call)
{
    if (accesses->count == 0)
        return;
    struct hazard_tracker *t = tracker_of(cb, true);
    if (t == NULL)
        return;
    for (uint32_t i = 0; i < accesses->count; ++i)
        for (uint32_t k = 0; k < t->count; ++k)
            check_against(ld, cb, &accesses->a[i], &t->ranges[k], call);
    for (uint32_t i = 0; i < accesses->count; ++i) {
        struct hazard_range *r = find_or_add(t, &accesses->a[i]);
        if (r != NULL)
            record(r, &accesses->a[i], cb->command_index, call);
    }
}

void hazard_image_transition(struct layer_device *ld, struct command_buffer_state *cb, uint64_t src_stages,
                             uint64_t dst_stages, const struct hazard_memory_barrier *barrier, const char *call)
{
    struct hazard_tracker *t = tracker_of(cb, true);
    if (t == NULL)
        return;
    uint64_t src = expand_stages(src_stages, true), dst = expand_stages(dst_stages, false);
    struct hazard_access transition = {.image = true, .key = barrier->key, .begin = barrier->begin,
                                       .end = barrier->end, .layer_begin = barrier->layer_begin,
                                       .layer_end = barrier->layer_end, .resource = barrier->key, .write = true,
                                       .stages = src};
    /* earlier accesses must be in the first scope: the transition writes right after it */
    for (uint32_t i = 0; i < t->count; ++i) {
        struct hazard_range *r = &t->ranges[i];
        if (!overlaps(true, barrier->key, barrier->begin, barrier->end, barrier->layer_begin, barrier->layer_end, r))
            continue;
        if (r->has_write && r->write.command_index != cb->command_index &&
            !((r->write.stages | r->write.ordered_stages) & src)) {
            report(ld, cb, CHECK_HAZARD_WRITE_AFTER_WRITE, call, &transition, r, &r->write, true,
                   "the layout transition's source stages do not include the earlier write");
            continue;
        }
        for (uint32_t k = 0; k < r->read_count; ++k) {
            if (!((r->reads[k].stages | r->reads[k].ordered_stages) & src)) {
                report(ld, cb, CHECK_HAZARD_WRITE_AFTER_READ, call, &transition, r, &r->reads[k], false,
                       "the layout transition's source stages do not include the earlier read");
                break;
            }
        }
    }
    /* then the transition is the last write, ordered before and visible to the second scope */
    struct hazard_use use = {.stages = src, .access = ~0ull, .ordered_stages = dst, .visible_stages = dst,
                             .visible_access = barrier->dst_access, .available = true,
                             .command_index = cb->command_index, .call = call};
    bool exact = false;
    for (uint32_t i = 0; i < t->count; ++i) {
        struct hazard_range *r = &t->ranges[i];
        if (!overlaps(true, barrier->key, barrier->begin, barrier->end, barrier->layer_begin, barrier->layer_end, r))
            continue;
        r->has_write = true;
        r->write = use;
        r->read_count = 0;
        exact = exact || (r->begin == barrier->begin && r->end == barrier->end &&
                          r->layer_begin == barrier->layer_begin && r->layer_end == barrier->layer_end);
    }
    if (!exact) {
        struct hazard_range *r = find_or_add(t, &transition);
        if (r != NULL) {
            r->has_write = true;
            r->write = use;
            r->read_count = 0;
        }
    }
}
