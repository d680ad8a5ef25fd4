/* The layer's settings: one table (settings.c) of key, type, default, allowed values and doc,
 * read once per instance. Sources, the last one that sets a key winning (as Khronos's layer
 * settings library orders them): VkLayerSettingsCreateInfoEXT (VK_EXT_layer_settings) chained
 * into VkInstanceCreateInfo, then `preflight_validation.<key> = value` in vk_layer_settings.txt
 * (found through VK_LAYER_SETTINGS_PATH, a file or a directory, else in the current directory),
 * then the environment variable VK_PREFLIGHT_VALIDATION_<KEY>. A value that is not valid, or a
 * key the layer does not know, becomes a problem the caller reports (stderr and a WARNING to the
 * application's messengers) naming what is used instead: never a silent default. The layer
 * manifest describes the same settings for vkconfig (checked against this table by a test). */
#ifndef PREFLIGHT_LAYER_SETTINGS_H
#define PREFLIGHT_LAYER_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "checks.h"

enum finding_action { ACTION_LOG, ACTION_ABORT, ACTION_BREAK };
enum stderr_mode { STDERR_AUTO, STDERR_ON, STDERR_OFF };

struct layer_settings {
    enum finding_action action;     /* action */
    enum stderr_mode log_stderr;    /* stderr */
    char log_file[1024];            /* log_file: JSON lines appended here ("" = none) */
    unsigned duplicate_limit;       /* duplicate_limit: reports of one (check, objects, call) */
    bool enabled[CHECK_COUNT];      /* disable / enable: comma-separated IDs or globs */
    char target_limits[1024];       /* target_limits: fleet-limits JSON or a probe report */
    bool write_after_write_visible; /* write_after_write: available (the memory model) | visible (VVL) */
    bool spirv_validation;          /* spirv_validation: SPIRV-Tools' validator at vkCreateShaderModule */
    bool
        render_area_whole_attachment; /* render_area: attachment (load/store ops may access the whole subresource) | pixels */
    bool host_readback_possible; /* host_readback: possible (every mapped write) | certain */
};

enum setting_type {
    SETTING_CHOICE, /* one of `choices` */
    SETTING_UINT,   /* a decimal number, 0 to 4294967295 */
    SETTING_PATH,   /* any text */
    SETTING_CHECKS, /* comma-separated check IDs or globs, each matching at least one check */
};

struct setting_info {
    const char *key;
    enum setting_type type;
    const char *default_value;
    const char *choices[4]; /* SETTING_CHOICE: the values, the first being the default */
    const char *label;      /* a few words, for vkconfig */
    const char *doc;        /* one sentence */
};

size_t settings_count(void);
const struct setting_info *settings_info(size_t index);

#define SETTINGS_MAX_PROBLEMS 16
struct settings_problems {
    unsigned count;
    char text[SETTINGS_MAX_PROBLEMS][400];
};

/* `instance_next` is VkInstanceCreateInfo::pNext (NULL for none). */
void settings_load(struct layer_settings *s, const void *instance_next, struct settings_problems *problems);

/* The environment's variables are read through this (tests replace it); NULL: getenv. */
extern char **settings_environment;

#endif
