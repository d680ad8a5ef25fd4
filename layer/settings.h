/* The layer's settings, read once per instance. Following the Vulkan layer-settings conventions,
 * each setting `key` can be given as `preflight_validation.key = value` in vk_layer_settings.txt
 * (found through VK_LAYER_SETTINGS_PATH, a file or a directory, else in the current directory)
 * or as the environment variable VK_PREFLIGHT_VALIDATION_KEY, which wins. See docs/layer.md. */
#ifndef PREFLIGHT_LAYER_SETTINGS_H
#define PREFLIGHT_LAYER_SETTINGS_H

#include <stdbool.h>

#include "checks.h"

enum finding_action { ACTION_LOG, ACTION_ABORT, ACTION_BREAK };
enum stderr_mode { STDERR_AUTO, STDERR_ON, STDERR_OFF };

struct layer_settings {
    enum finding_action action;      /* action: log | abort | break */
    enum stderr_mode log_stderr;     /* stderr: auto (when the app has no messenger) | on | off */
    char log_file[1024];             /* log_file: JSON lines appended here ("" = none) */
    unsigned duplicate_limit;        /* duplicate_limit: reports of one (check, objects, call) */
    bool enabled[CHECK_COUNT];       /* disable / enable: comma-separated IDs or globs */
    char target_limits[1024];        /* target_limits: fleet-limits JSON or a probe report */
    bool write_after_write_visible;  /* write_after_write: available (the memory model, default) | visible (VVL) */
};

void settings_load(struct layer_settings *s);

#endif
