/* Completed GPU writes to buffer memory that no barrier made visible to the host (HOST stage,
 * HOST_READ access). The submit-time hazard tracker records them as it retires completed work
 * (check_hazard_submit.c); the host checks take them when the host reads (check_host.c). */
#ifndef PREFLIGHT_LAYER_HOST_UNSEEN_H
#define PREFLIGHT_LAYER_HOST_UNSEEN_H

#include <stdbool.h>
#include <stdint.h>

struct layer_device;

struct unseen_write {
    uint64_t memory, begin, end, buffer;
    const char *call;
    uint32_t command_index;
    uint64_t command_buffer;
};
/* Whether a write's values came from the host itself (vkCmdFillBuffer, vkCmdUpdateBuffer): a GPU
 * progress marker, such as a crash breadcrumb, rather than data the host must read back. */
bool unseen_write_is_marker(const struct unseen_write *w);
#define UNSEEN_READBACKS_KEPT 16

/* A GPU write to [begin, end) of `memory` through `buffer` is complete; `visible_to_host`: a
 * barrier made it visible to host reads (then it only replaces older unseen writes it covers). */
void unseen_write_completed(struct layer_device *ld, const struct unseen_write *w, bool visible_to_host);
/* The latest unseen write overlapping [begin, end) of `memory`, taken (reported once). */
bool unseen_write_take(struct layer_device *ld, uint64_t memory, uint64_t begin, uint64_t end,
                       struct unseen_write *out);
/* The unseen writes to persistently mapped readback buffers (usage without any GPU read) since
 * the last call, into `out` (room for UNSEEN_READBACKS_KEPT); their count. */
uint32_t unseen_readbacks_take(struct layer_device *ld, struct unseen_write *out);
void unseen_writes_free(struct layer_device *ld);

#endif
