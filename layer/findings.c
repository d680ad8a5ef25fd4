#include "findings.h"

#include <cjson/cJSON.h>

#include "fnv1a.h"
#include "vk_object_types.h"
#include "state_command_buffers.h"
#include "state_device.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

bool finding_enabled(const struct layer_instance *instance, enum check_id check)
{
    return instance != NULL && (unsigned)check < CHECK_COUNT && instance->settings.enabled[check];
}

/* The key that limits repeats: the check, the objects and the call. */
static uint64_t finding_key(const struct finding *f)
{
    uint64_t h = FNV1A64_START ^ (uint64_t)f->check;
    for (uint32_t i = 0; i < f->object_count; ++i)
        h = fnv1a64_step(h, f->objects[i].handle);
    h = fnv1a64_string(h, f->call);
    return h ? h : 1;
}

/* true while this finding is under the repeat limit; the last allowed one says so. */
static bool count_repeat(struct layer_instance *instance, const struct finding *f, bool *last)
{
    uint64_t key = finding_key(f);
    pthread_mutex_lock(&instance->findings_lock);
    uintptr_t seen = (uintptr_t)handle_map_get(&instance->finding_counts, key);
    handle_map_put(&instance->finding_counts, key, (void *)(seen + 1));
    pthread_mutex_unlock(&instance->findings_lock);
    unsigned limit = instance->settings.duplicate_limit;
    *last = limit > 0 && seen + 1 == limit;
    return limit == 0 || seen < limit;
}

/* To every messenger whose filters accept the message; returns how many messengers there are.
 * The messengers are copied, then called without the lock: a callback may itself call Vulkan. */
static size_t deliver(struct layer_instance *instance, VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                      VkDebugUtilsMessageTypeFlagsEXT type, const VkDebugUtilsMessengerCallbackDataEXT *data)
{
    struct layer_messenger copy[16];
    size_t count = 0;
    pthread_mutex_lock(&instance->messengers_lock);
    for (size_t i = 0; i < instance->messenger_count && count < 16; ++i)
        copy[count++] = instance->messengers[i];
    pthread_mutex_unlock(&instance->messengers_lock);
    for (size_t i = 0; i < count; ++i)
        if ((copy[i].severities & severity) && (copy[i].types & type))
            copy[i].callback(severity, type, data, copy[i].user_data);
    return count;
}

void layer_warning(struct layer_instance *instance, const char *id_name, const char *message)
{
    fprintf(stderr, "VK_LAYER_PREFLIGHT_validation: %s\n", message);
    VkDebugUtilsMessengerCallbackDataEXT data = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
        .pMessageIdName = id_name,
        .pMessage = message,
    };
    deliver(instance, VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
            &data);
}

const char *finding_object_text(struct layer_device *ld, VkObjectType type, uint64_t handle, char *out, size_t size)
{
    const char *name = ld ? handle_map_get(&ld->names, handle) : NULL;
    snprintf(out, size, "%s 0x%llx%s%s%s", vk_object_type_name(type), (unsigned long long)handle, name ? " \"" : "",
             name ? name : "", name ? "\"" : "");
    return out;
}

/* One JSON line per finding in the log file (docs/layer.md's log format). */
static void log_finding(struct layer_instance *instance, const struct check_info *info, const struct finding *f,
                        const char *const *names, const VkDebugUtilsLabelEXT *labels, uint32_t label_count)
{
    cJSON *line = cJSON_CreateObject();
    cJSON_AddStringToObject(line, "id", info->name);
    cJSON_AddStringToObject(line, "severity", info->severity == CHECK_ERROR ? "error" : "warning");
    cJSON_AddStringToObject(line, "call", f->call);
    cJSON_AddStringToObject(line, "message", f->message);
    cJSON *objects = cJSON_AddArrayToObject(line, "objects");
    for (uint32_t i = 0; objects != NULL && i < f->object_count; ++i) {
        char handle[32];
        snprintf(handle, sizeof(handle), "0x%llx", (unsigned long long)f->objects[i].handle);
        cJSON *object = cJSON_CreateObject();
        cJSON_AddStringToObject(object, "type", vk_object_type_name(f->objects[i].type));
        cJSON_AddStringToObject(object, "handle", handle);
        if (names[i])
            cJSON_AddStringToObject(object, "name", names[i]);
        else
            cJSON_AddNullToObject(object, "name");
        cJSON_AddItemToArray(objects, object);
    }
    cJSON *label_list = cJSON_AddArrayToObject(line, "labels");
    for (uint32_t i = 0; label_list != NULL && i < label_count; ++i)
        cJSON_AddItemToArray(label_list, cJSON_CreateString(labels[i].pLabelName ? labels[i].pLabelName : ""));
    cJSON_AddNumberToObject(line, "time", (double)time(NULL));
    char *text = cJSON_PrintUnformatted(line);
    cJSON_Delete(line);
    if (text == NULL)
        return; /* out of memory: the finding still went to the messengers */
    pthread_mutex_lock(&instance->findings_lock);
    fprintf(instance->log_file, "%s\n", text);
    fflush(instance->log_file);
    pthread_mutex_unlock(&instance->findings_lock);
    free(text);
}

void finding_report(struct layer_instance *instance, struct layer_device *device, struct finding *f)
{
    if (!finding_enabled(instance, f->check))
        return;
    bool last = false;
    if (!count_repeat(instance, f, &last))
        return;
    const struct check_info *info = check_info(f->check);
    if (last) {
        size_t length = strlen(f->message);
        snprintf(f->message + length, sizeof(f->message) - length,
                 " [further repeats of this finding are suppressed: duplicate_limit = %u]",
                 instance->settings.duplicate_limit);
    }

    /* Objects with the names the application gave them. */
    VkDebugUtilsObjectNameInfoEXT objects[4];
    char *names[4] = {0};
    for (uint32_t i = 0; i < f->object_count && i < 4; ++i) {
        names[i] = device ? handle_map_get(&device->names, f->objects[i].handle) : NULL;
        objects[i] = (VkDebugUtilsObjectNameInfoEXT){
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
            .objectType = f->objects[i].type,
            .objectHandle = f->objects[i].handle,
            .pObjectName = names[i],
        };
    }
    /* The label stack, innermost first as debug-utils lists it. */
    VkDebugUtilsLabelEXT labels[MAX_LABEL_DEPTH];
    uint32_t label_count = 0;
    const struct command_buffer_state *cb = f->command_buffer;
    for (uint32_t i = cb ? cb->label_depth : 0; i-- > 0;)
        labels[label_count++] =
            (VkDebugUtilsLabelEXT){.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = cb->labels[i]};
    VkDebugUtilsMessengerCallbackDataEXT data = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
        .pMessageIdName = info->name,
        .messageIdNumber = info->message_id,
        .pMessage = f->message,
        .cmdBufLabelCount = label_count,
        .pCmdBufLabels = label_count ? labels : NULL,
        .objectCount = f->object_count,
        .pObjects = objects,
    };
    VkDebugUtilsMessageSeverityFlagBitsEXT severity = info->severity == CHECK_ERROR
                                                          ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT
                                                          : VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
    VkDebugUtilsMessageTypeFlagsEXT type = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;

    size_t count = deliver(instance, severity, type, &data);

    enum stderr_mode mode = instance->settings.log_stderr;
    char context[512] = "";
    size_t at = 0;
    for (uint32_t i = 0; i < f->object_count && at < sizeof(context); ++i)
        at += (size_t)snprintf(context + at, sizeof(context) - at, "%s%s 0x%llx%s%s%s", i ? ", " : "",
                               vk_object_type_name(f->objects[i].type), (unsigned long long)f->objects[i].handle,
                               names[i] ? " \"" : "", names[i] ? names[i] : "", names[i] ? "\"" : "");
    for (uint32_t i = 0; i < label_count && at < sizeof(context); ++i)
        at += (size_t)snprintf(context + at, sizeof(context) - at, "%s%s",
                               i ? " < " : "; labels: ", labels[i].pLabelName);
    if (mode == STDERR_ON || (mode == STDERR_AUTO && count == 0))
        fprintf(stderr, "%s [%s] %s: %s (%s)\n", info->name, info->severity == CHECK_ERROR ? "ERROR" : "WARNING",
                f->call, f->message, context);

    if (instance->log_file != NULL)
        log_finding(instance, info, f, (const char *const *)names, labels, label_count);

    if (instance->settings.action == ACTION_ABORT)
        abort(); /* for CI: a core dump at the first finding */
    if (instance->settings.action == ACTION_BREAK)
        raise(SIGTRAP);
}
