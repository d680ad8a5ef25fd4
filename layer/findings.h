/* Reporting a finding: to every debug-utils messenger of the application (created, or chained
 * into VkInstanceCreateInfo) whose filters accept it, with the check's pMessageIdName and
 * messageIdNumber, the objects and their debug names, and the command buffer's label stack; to
 * stderr and a JSON-lines log as the settings say; then the configured action. Repeats of the
 * same check on the same objects from the same call are limited (setting duplicate_limit). */
#ifndef PREFLIGHT_LAYER_FINDINGS_H
#define PREFLIGHT_LAYER_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan_core.h>

#include "checks.h"

struct layer_instance;
struct layer_device;
struct command_buffer_state;

struct finding_object {
    VkObjectType type;
    uint64_t handle;
};

struct finding {
    enum check_id check;
    const char *call; /* "vkCmdDispatch" */
    struct finding_object objects[4];
    uint32_t object_count;
    const struct command_buffer_state *command_buffer; /* for its labels; may be NULL */
    char message[1100];
};

/* The instance and device of the finding; `device` may be NULL for instance-level calls. */
void finding_report(struct layer_instance *instance, struct layer_device *device, struct finding *f);
bool finding_enabled(const struct layer_instance *instance, enum check_id check);
/* A message about the layer itself (a bad setting, a file it cannot read), not a finding: on
 * stderr always, and as a GENERAL WARNING to the messengers, with `id_name` as pMessageIdName. */
void layer_warning(struct layer_instance *instance, const char *id_name, const char *message);
/* An object as messages name it: `VkBuffer 0x55d0... "name"` (the name when the application gave
 * one). Returns `out`. */
const char *finding_object_text(struct layer_device *ld, VkObjectType type, uint64_t handle, char *out, size_t size);

#endif
