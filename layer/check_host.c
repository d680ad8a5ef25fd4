/* Area `host`: a submission's GPU writes are complete only once the application has waited for
 * it (a fence, vkQueueWaitIdle, vkDeviceWaitIdle). Mapping or invalidating a range that pending
 * work still writes means the host is about to read it too early: it sees old data or half the
 * new. Pending uses are the submit-time hazard tracker's (check_hazard_submit.c): every buffer
 * access of submitted command buffers not known complete, by memory range. Only a use whose range
 * holds all of the host's range counts: mapping, invalidating or flushing a whole ring buffer
 * while the GPU uses one slot is no proof that the host touches that slot.
 *
 * Complete is not enough for a host read: the writes must also have been made visible to the host
 * by a barrier to the HOST stage with HOST_READ access before the fence signaled. The submit-time
 * hazard tracker tells, as it retires each completed buffer write, whether one did (host_unseen.h
 * keeps those no barrier made visible); a later
 * vkInvalidateMappedMemoryRanges over such a write is reported. And the host must not write
 * memory that pending work still reads or writes: vkFlushMappedMemoryRanges over a range a
 * submission not yet waited for uses is reported (host writes to coherent memory without a flush
 * are invisible to a layer). */
#include "check_host.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_hazard_submit.h"
#include "host_unseen.h"
#include "findings.h"
#include "state_device.h"
#include "state_resources.h"

void host_report_readbacks(struct layer_device *ld, const char *call)
{
    struct unseen_write found[UNSEEN_READBACKS_KEPT];
    uint32_t count = unseen_readbacks_take(ld, found);
    for (uint32_t i = 0; i < count; ++i) {
        const struct unseen_write *w = &found[i];
        struct finding f = {.check = CHECK_HOST_READBACK_WITHOUT_HOST_BARRIER, .call = call};
        f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_DEVICE_MEMORY, w->memory};
        f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_BUFFER, w->buffer};
        f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_COMMAND_BUFFER, w->command_buffer};
        char text[128], buffer[128];
        const struct memory_state *m = memory_state_in(ld, w->memory);
        bool coherent = m != NULL && (m->properties & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        snprintf(f.message, sizeof(f.message),
                 "%s: %s (command %u of %s) wrote %s (VkDeviceMemory 0x%llx bytes [%llu, %llu)), a buffer only the "
                 "host can read (no GPU read usage) that stays mapped; the work is complete, but no barrier made "
                 "the write visible to the host (srcStage including the write, dstStageMask "
                 "VK_PIPELINE_STAGE_HOST_BIT, dstAccessMask VK_ACCESS_HOST_READ_BIT), so the host may read stale "
                 "data%s",
                 call, w->call, w->command_index,
                 finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, w->command_buffer, text, sizeof(text)),
                 finding_object_text(ld, VK_OBJECT_TYPE_BUFFER, w->buffer, buffer, sizeof(buffer)),
                 (unsigned long long)w->memory, (unsigned long long)w->begin, (unsigned long long)w->end,
                 coherent ? ". Wrong by the letter of the memory model, which only a dependency to HOST_READ makes "
                            "available to the host; the memory is HOST_COHERENT, and drivers whose fence and queue "
                            "waits flush the device's caches (every one we know of) hide it"
                          : "");
        finding_report(ld->instance, ld, &f);
    }
}

/* vkInvalidateMappedMemoryRanges after the work completed: was it made visible to the host? */
static void check_host_visibility(struct layer_device *ld, uint64_t memory, uint64_t begin, uint64_t end)
{
    struct unseen_write hit;
    if (!unseen_write_take(ld, memory, begin, end, &hit))
        return;
    struct finding f = {.check = CHECK_HOST_READ_WITHOUT_HOST_BARRIER, .call = "vkInvalidateMappedMemoryRanges"};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_DEVICE_MEMORY, hit.memory};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_BUFFER, hit.buffer};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_COMMAND_BUFFER, hit.command_buffer};
    char text[128];
    snprintf(f.message, sizeof(f.message),
             "vkInvalidateMappedMemoryRanges covers VkDeviceMemory 0x%llx bytes [%llu, %llu), which %s (command %u "
             "of %s) wrote; the work is complete, but no barrier made the write visible to the host (srcStage "
             "including the write, dstStageMask VK_PIPELINE_STAGE_HOST_BIT, dstAccessMask VK_ACCESS_HOST_READ_BIT) "
             "before the fence or wait",
             (unsigned long long)hit.memory, (unsigned long long)hit.begin, (unsigned long long)hit.end, hit.call,
             hit.command_index,
             finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, hit.command_buffer, text, sizeof(text)));
    finding_report(ld->instance, ld, &f);
}

/* The host's range [offset, offset + size) of `memory`, VK_WHOLE_SIZE to the end of the memory;
 * false when the memory is unknown. */
static bool host_range(struct layer_device *ld, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize size,
                       uint64_t *begin, uint64_t *end)
{
    const struct memory_state *m = memory_state_in(ld, HANDLE(memory));
    if (m == NULL)
        return false;
    *begin = offset;
    *end = size == VK_WHOLE_SIZE ? m->size : offset + size;
    return *begin < *end;
}

void host_check_flush(struct layer_device *ld, uint32_t count, const VkMappedMemoryRange *ranges)
{
    uint64_t atom = ld->properties.limits.nonCoherentAtomSize;
    for (uint32_t r = 0; r < count; ++r) {
        uint64_t begin, end;
        struct hazard_pending p;
        if (!host_range(ld, ranges[r].memory, ranges[r].offset, ranges[r].size, &begin, &end) ||
            !hazard_pending_use(ld, HANDLE(ranges[r].memory), begin, end, atom, false, &p))
            continue;
        struct finding f = {.check = CHECK_HOST_WRITE_WHILE_PENDING, .call = "vkFlushMappedMemoryRanges"};
        f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_DEVICE_MEMORY, HANDLE(ranges[r].memory)};
        f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_BUFFER, p.resource};
        f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_QUEUE, HANDLE((uintptr_t)p.queue)};
        char text[128];
        snprintf(f.message, sizeof(f.message),
                 "vkFlushMappedMemoryRanges covers VkDeviceMemory 0x%llx bytes [%llu, %llu), which %s (command %u of "
                 "%s, submitted to VkQueue %p) %s, and the application has not waited for that submission: the host "
                 "wrote memory the GPU may still be using",
                 (unsigned long long)HANDLE(ranges[r].memory), (unsigned long long)p.begin, (unsigned long long)p.end,
                 p.call, p.command_index,
                 finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, p.command_buffer, text, sizeof(text)),
                 (void *)p.queue, p.write ? "writes" : "reads");
        finding_report(ld->instance, ld, &f);
    }
}

static void report_before_wait(struct layer_device *ld, enum check_id check, const char *call, const char *verb,
                               uint64_t memory, const struct hazard_pending *p)
{
    struct finding f = {.check = check, .call = call};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_DEVICE_MEMORY, memory};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_BUFFER, p->resource};
    f.objects[f.object_count++] = (struct finding_object){VK_OBJECT_TYPE_QUEUE, HANDLE((uintptr_t)p->queue)};
    char text[128];
    snprintf(f.message, sizeof(f.message),
             "%s %s VkDeviceMemory 0x%llx bytes [%llu, %llu), which %s (command %u of %s, submitted to VkQueue %p) "
             "writes, but the application has not waited for that submission (vkWaitForFences, vkQueueWaitIdle or "
             "vkDeviceWaitIdle): the host would read the memory before the GPU is done with it",
             call, verb, (unsigned long long)memory, (unsigned long long)p->begin, (unsigned long long)p->end, p->call,
             p->command_index,
             finding_object_text(ld, VK_OBJECT_TYPE_COMMAND_BUFFER, p->command_buffer, text, sizeof(text)),
             (void *)p->queue);
    finding_report(ld->instance, ld, &f);
}

void host_check_invalidate(struct layer_device *ld, uint32_t count, const VkMappedMemoryRange *ranges)
{
    uint64_t atom = ld->properties.limits.nonCoherentAtomSize;
    for (uint32_t r = 0; r < count; ++r) {
        uint64_t begin, end;
        if (!host_range(ld, ranges[r].memory, ranges[r].offset, ranges[r].size, &begin, &end))
            continue;
        check_host_visibility(ld, HANDLE(ranges[r].memory), begin, end);
        struct hazard_pending p;
        if (hazard_pending_use(ld, HANDLE(ranges[r].memory), begin, end, atom, true, &p))
            report_before_wait(ld, CHECK_HOST_INVALIDATE_BEFORE_WAIT, "vkInvalidateMappedMemoryRanges", "covers",
                               HANDLE(ranges[r].memory), &p);
    }
}

void host_check_map(struct layer_device *ld, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize size)
{
    struct hazard_pending p;
    uint64_t begin, end;
    if (host_range(ld, memory, offset, size, &begin, &end) &&
        hazard_pending_use(ld, HANDLE(memory), begin, end, 1, true, &p))
        report_before_wait(ld, CHECK_HOST_MAP_BEFORE_WAIT, "vkMapMemory", "maps", HANDLE(memory), &p);
}
