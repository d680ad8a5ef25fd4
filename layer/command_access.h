/* What a dispatch or draw touches, computed once per command and consumed by the alias check
 * (pairs inside the command) and the hazard check (against earlier commands): the descriptors the
 * bound pipeline's shaders really reach (reflection and the bound sets, with dynamic offsets), its
 * vertex, index and indirect buffers, and the current rendering's attachments. Transfer commands
 * and render-pass operations are command_access_regions.h's. */
#ifndef PREFLIGHT_LAYER_COMMAND_ACCESS_H
#define PREFLIGHT_LAYER_COMMAND_ACCESS_H

#include "command_access_regions.h"
#include "state_command_buffers.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "state_pipelines.h"
#include "memory_access.h"

/* Buffers a command reads outside descriptors: vertex, index, indirect. */
struct command_fixed_reads {
    uint32_t count;
    VkBuffer buffer[MAX_VERTEX_BINDINGS + 2];
    VkDeviceSize offset[MAX_VERTEX_BINDINGS + 2];
    VkDeviceSize size[MAX_VERTEX_BINDINGS + 2]; /* VK_WHOLE_SIZE: to the end of the buffer */
    const char *what[MAX_VERTEX_BINDINGS + 2];
};
/* Adds one (nothing for VK_NULL_HANDLE, a size of 0 or a full list). */
void command_fixed_read(struct command_fixed_reads *f, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize size,
                        const char *what);
/* The bound vertex-rate buffers over vertices [first, first + count) of the bound graphics pipeline. */
void command_fixed_vertices(const struct command_buffer_state *cb, struct command_fixed_reads *f, uint32_t first,
                            uint32_t count);

/* One access of a dispatch or draw, with what the alias check needs to name and judge a pair. */
struct command_access {
    bool image;
    bool read, write;
    uint64_t resource;   /* VkBuffer or VkImage */
    uint64_t key;        /* VkDeviceMemory for bound buffers (the buffer if unbound), VkImage for images */
    uint64_t begin, end; /* buffers: byte range in `key`; images: mip range */
    uint32_t layer_begin, layer_end;
    uint32_t set, binding, element;
    bool array;           /* an element of a descriptor array */
    bool read_or_write;   /* array elements: reflection knows the binding's accesses, not each element's */
    bool runtime_element; /* an element the shader may reach through a run-time index */
    uint64_t stages;      /* descriptors: the shader stages that use the binding (pipeline stage bits) */
    const char *what;     /* "binding", or "vertex buffer", "index buffer", "indirect buffer", "attachment" */
    VkImageLayout layout;
    VkDescriptorType type;
};

#define COMMAND_MAX_ACCESSES 128

static inline bool command_accesses_overlap(const struct command_access *x, const struct command_access *y)
{
    if (x->image != y->image || x->key != y->key || x->begin >= y->end || y->begin >= x->end)
        return false;
    return !x->image || (x->layer_begin < y->layer_end && y->layer_begin < x->layer_end);
}

/* A dispatch's or draw's accesses: a[0, descriptors) are descriptors, a[descriptors, fixed_end)
 * fixed-function reads, a[fixed_end, count) attachments. `memory` is the same as the hazard
 * tracker takes it (descriptors and fixed reads; attachments go through the rendering's load and
 * store operations). When the bound state is one whose accesses were already judged, `a` may hold
 * fewer than all (see `descriptor_pairs_checked`) or none. */
struct command_accesses {
    const struct command_access *a;
    uint32_t count, descriptors, fixed_end;
    bool descriptor_pairs_checked; /* the descriptors' pairs were judged when the state was first seen */
    const struct hazard_accesses *memory;
    /* `memory` is already narrowed to the bytes the dispatch's shader reaches (access_footprint.h):
     * the bound state's accesses, with their narrowing kept for its next dispatch */
    bool memory_narrowed;
    /* for command_accesses_judged: the lone set whose memo may keep the memory accesses */
    bool lone;
    struct set_memo_key lone_key;
};

/* Room for one command's accesses, on the caller's stack (not zeroed: 13 KB per command). */
struct command_access_scratch {
    struct command_access local[COMMAND_MAX_ACCESSES];
    struct hazard_accesses memory;
};

struct dispatch_shape; /* alias_witness.h */
/* The accesses of a dispatch or draw with bound state `b`, from the bound state's or its set's
 * memos when nothing changed. `dispatch`: a direct dispatch's shape (NULL for the others), for
 * which the memos' accesses come narrowed (memory_narrowed). */
void command_accesses_of(struct layer_device *ld, struct command_buffer_state *cb, struct bound_state *b,
                         const struct command_fixed_reads *fixed, const struct dispatch_shape *dispatch,
                         struct command_access_scratch *scratch, struct command_accesses *out);
/* After the alias check judged `acc`: when it met no pair, a lone set keeps the memory accesses
 * for the next state that binds it with the same pipeline (a pair met is judged again each time). */
void command_accesses_keep(const struct bound_state *b, const struct command_accesses *acc);
static inline void command_accesses_judged(const struct bound_state *b, const struct command_accesses *acc,
                                           bool pair_met)
{
    if (acc->lone && !pair_met)
        command_accesses_keep(b, acc);
}

/* A dispatch: the buffers the bound compute pipeline's shader may write through the bound sets,
 * noted in the command buffer (command_buffer_note_written: indirect arguments they hold are not
 * known at submit); each set once per recording and pipeline (its memo). */
void command_note_shader_writes(struct layer_device *ld, struct command_buffer_state *cb);

#endif
