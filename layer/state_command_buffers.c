/* Command buffers: the per-thread lookup, debug labels, resets (the bound states' with
 * bound_state.c), and the buffers a recording may write. */
#include "state_command_buffers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_grow.h"
#include "fnv1a.h"
#include "state_descriptors.h"
#include "state_device.h"
#include "state_pipelines.h"

struct command_buffer_state *command_buffer_state_of(VkCommandBuffer cb)
{
    struct command_buffer_state *state;
    command_buffer_device(cb, &state);
    return state;
}

uint64_t command_buffer_generation;
_Thread_local __attribute__((tls_model("initial-exec"))) struct command_buffer_lookup last_command_buffer_lookup;

void command_buffers_forgotten(void)
{
    __atomic_add_fetch(&command_buffer_generation, 1, __ATOMIC_ACQ_REL);
}

struct layer_device *command_buffer_lookup_slow(VkCommandBuffer cb, struct command_buffer_state **state)
{
    uint64_t generation = __atomic_load_n(&command_buffer_generation, __ATOMIC_ACQUIRE);
    struct layer_device *ld = layer_device_of(cb);
    *state = ld ? command_buffer_state_in(ld, (uint64_t)(uintptr_t)cb) : NULL;
    if (*state != NULL)
        last_command_buffer_lookup = (struct command_buffer_lookup){cb, generation, ld, *state};
    return ld;
}

void command_buffer_labels_changed(struct layer_device *ld, struct command_buffer_state *cb)
{
    char path[256];
    size_t at = 0;
    path[0] = 0;
    for (uint32_t i = 0; i < cb->label_depth && at < sizeof(path); ++i)
        at += (size_t)snprintf(path + at, sizeof(path) - at, "%s%s", i ? "/" : "", cb->labels[i] ? cb->labels[i] : "");
    cb->label_path = NULL;
    if (cb->label_depth == 0)
        return;
    uint64_t hash = fnv1a64_string(FNV1A64_START, path);
    hash = hash ? hash : 1;
    pthread_mutex_lock(&ld->label_lock);
    const char *known = handle_map_get(&ld->label_paths, hash);
    if (known != NULL && strcmp(known, path) == 0) {
        cb->label_path = known;
    } else if (known == NULL && ld->label_path_count < MAX_LABEL_PATHS) {
        char *copy = strdup(path);
        if (copy != NULL && handle_map_put(&ld->label_paths, hash, copy)) {
            ld->label_path_count++;
            cb->label_path = copy;
        } else {
            free(copy);
        }
    } /* a hash collision or a full table: no labels for this command's uses */
    pthread_mutex_unlock(&ld->label_lock);
}

static void unbind(struct bound_state *b)
{
    pipeline_release(b->pipeline);
    b->pipeline = NULL;
    for (int i = 0; i < MAX_BOUND_SETS; ++i) {
        set_state_release(b->sets[i]);
        b->sets[i] = NULL;
        b->dynamic_count[i] = 0;
    }
    b->set_mask = b->dynamic_mask = b->stale_mask = 0;
    bound_state_forget(b); /* a new recording: the written-buffers memo must not be recalled */
}

#define KEPT_LIST_ENTRIES 1024
void command_buffer_reset_state(struct command_buffer_state *cb)
{
    unbind(&cb->compute);
    unbind(&cb->graphics);
    for (uint32_t i = 0; i < cb->label_depth; ++i)
        free(cb->labels[i]);
    cb->label_depth = 0;
    cb->label_path = NULL;
    cb->command_index = 0;
    cb->push_valid = 0;
    cb->push_version = 0;
    /* the lists keep their memory for the next recording (engines re-record the same command
     * buffers every frame: growing them again each time showed in the recording cost), unless
     * one recording made them large */
    cb->indirect_count = 0;
    if (cb->indirect_capacity > KEPT_LIST_ENTRIES) {
        free(cb->indirect);
        cb->indirect = NULL;
        cb->indirect_capacity = 0;
    }
    cb->written_count = 0;
    if (cb->written_capacity > KEPT_LIST_ENTRIES) {
        free(cb->written_buffers);
        free(cb->written_table);
        cb->written_buffers = NULL;
        cb->written_table = NULL;
        cb->written_capacity = cb->written_table_size = 0;
    } else if (cb->written_table != NULL) {
        memset(cb->written_table, 0, cb->written_table_size * sizeof(*cb->written_table));
    }
    static uint64_t recordings;
    cb->recording = __atomic_add_fetch(&recordings, 1, __ATOMIC_RELAXED);
    memset(cb->vertex_buffers, 0, sizeof(cb->vertex_buffers));
    memset(cb->vertex_offsets, 0, sizeof(cb->vertex_offsets));
    cb->index_buffer = VK_NULL_HANDLE;
    cb->index_offset = 0;
    cb->index_size = 0;
    cb->attachment_count = 0;
    cb->render_pass = VK_NULL_HANDLE;
    cb->pass_view_count = cb->subpass = 0;
    cb->depth_write_enable = false;
    cb->dynamic_rendering = false;
    cb->rendering_store_count = 0;
    for (uint32_t i = 0; cb->device != NULL && i < cb->device->command_buffer_part_count; ++i)
        cb->device->command_buffer_parts[i].reset(cb);
}

void command_buffer_free_state(struct command_buffer_state *cb)
{
    command_buffer_reset_state(cb);
    free(cb->indirect);
    free(cb->written_buffers);
    free(cb->written_table);
    for (uint32_t i = 0; cb->device != NULL && i < cb->device->command_buffer_part_count; ++i)
        cb->device->command_buffer_parts[i].free(cb);
    bound_state_free(&cb->compute);
    bound_state_free(&cb->graphics);
    free(cb);
}

/* Buffers a recorded command may write, so an indirect dispatch reading one is not judged at
 * submit from what the host sees (the GPU may change it first). */
static uint32_t written_slot(uint64_t buffer, uint32_t table_size)
{
    uint64_t h = buffer * 0x9E3779B97F4A7C15ull; /* handles are pointers: spread the aligned low bits */
    return (uint32_t)(h >> 32) & (table_size - 1);
}

/* Rebuilds the hash index of the written list at twice the size. */
static bool grow_written_index(struct command_buffer_state *cb)
{
    uint32_t size = cb->written_table_size ? cb->written_table_size * 2 : 32;
    uint64_t *table = calloc(size, sizeof(*table));
    if (table == NULL)
        return false;
    for (uint32_t i = 0; i < cb->written_count; ++i) {
        uint32_t slot = written_slot(cb->written_buffers[i], size);
        while (table[slot] != 0)
            slot = (slot + 1) & (size - 1);
        table[slot] = cb->written_buffers[i];
    }
    free(cb->written_table);
    cb->written_table = table;
    cb->written_table_size = size;
    return true;
}

void command_buffer_note_written(struct command_buffer_state *cb, uint64_t buffer)
{
    /* a set (list + hash index): engines write the same buffers over and over, and the list is
     * walked at every submit */
    if (buffer == 0)
        return;
    if ((cb->written_count + 1) * 2 > cb->written_table_size && !grow_written_index(cb))
        return;
    uint32_t slot = written_slot(buffer, cb->written_table_size);
    for (; cb->written_table[slot] != 0; slot = (slot + 1) & (cb->written_table_size - 1))
        if (cb->written_table[slot] == buffer)
            return;
    uint64_t *grown = array_grow(cb->written_buffers, &cb->written_capacity, cb->written_count + 1, sizeof(*grown), 16);
    if (grown == NULL)
        return;
    cb->written_buffers = grown;
    cb->written_table[slot] = buffer;
    cb->written_buffers[cb->written_count++] = buffer;
}

static bool written_contains(const struct command_buffer_state *cb, uint64_t buffer)
{
    if (cb->written_table_size == 0)
        return false;
    for (uint32_t slot = written_slot(buffer, cb->written_table_size); cb->written_table[slot] != 0;
         slot = (slot + 1) & (cb->written_table_size - 1))
        if (cb->written_table[slot] == buffer)
            return true;
    return false;
}

bool command_buffer_may_write(const struct command_buffer_state *cb, uint64_t buffer)
{
    return written_contains(cb, buffer) || written_contains(cb, UINT64_MAX);
}
