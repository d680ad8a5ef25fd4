/* Area `host` (check_host.c): the host touching memory that submitted GPU work still uses, or
 * reading GPU writes no barrier made visible to it. */
#ifndef PREFLIGHT_LAYER_CHECK_HOST_H
#define PREFLIGHT_LAYER_CHECK_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

struct layer_device;

/* vkInvalidateMappedMemoryRanges: the host is about to read these ranges. */
void host_check_invalidate(struct layer_device *ld, uint32_t count, const VkMappedMemoryRange *ranges);
/* vkMapMemory: the host maps these bytes to read them (or write them). */
void host_check_map(struct layer_device *ld, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize size);
/* vkFlushMappedMemoryRanges: the host wrote these ranges. */
void host_check_flush(struct layer_device *ld, uint32_t count, const VkMappedMemoryRange *ranges);
/* After a wait that completed work (vkWaitForFences, vkQueueWaitIdle, ...), outside every lock:
 * reports the completed writes to persistently mapped readback buffers (usage without any GPU
 * read) that no HOST/HOST_READ barrier made visible, which the host is about to read. */
void host_report_readbacks(struct layer_device *ld, const char *call);

#endif
