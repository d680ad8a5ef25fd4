#include "settings.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <vulkan/vulkan.h>

#include "layer_settings_ext.h"

#define LAYER_NAME "VK_LAYER_PREFLIGHT_validation"
#define FILE_PREFIX "preflight_validation."
#define ENV_PREFIX "VK_PREFLIGHT_VALIDATION_"

enum setting_key {
    KEY_ACTION,
    KEY_STDERR,
    KEY_LOG_FILE,
    KEY_DUPLICATE_LIMIT,
    KEY_DISABLE,
    KEY_ENABLE,
    KEY_TARGET_LIMITS,
    KEY_WRITE_AFTER_WRITE,
    KEY_SPIRV_VALIDATION,
    KEY_RENDER_AREA,
    KEY_HOST_READBACK,
    KEY_COUNT
};

/* The one table: the code below, docs/layer.md and the manifest's settings follow it. */
static const struct setting_info table[KEY_COUNT] = {
    [KEY_ACTION] = {"action",
                    SETTING_CHOICE,
                    "log",
                    {"log", "abort", "break"},
                    "Action on a finding",
                    "log: report and go on; abort: abort() after reporting (a core dump for CI); break: raise "
                    "SIGTRAP (for a debugger)"},
    [KEY_STDERR] = {"stderr",
                    SETTING_CHOICE,
                    "auto",
                    {"auto", "on", "off"},
                    "Findings on stderr",
                    "auto: only when the application has no debug-utils messenger; on; off"},
    [KEY_LOG_FILE] = {"log_file",
                      SETTING_PATH,
                      "",
                      {0},
                      "Log file",
                      "a path: findings appended as JSON lines (id, severity, call, message, objects, labels, time)"},
    [KEY_DUPLICATE_LIMIT] = {"duplicate_limit",
                             SETTING_UINT,
                             "10",
                             {0},
                             "Repeats reported",
                             "how often one finding (same check, objects and call) is reported; 0: always"},
    [KEY_DISABLE] = {"disable",
                     SETTING_CHECKS,
                     "",
                     {0},
                     "Checks off",
                     "comma-separated check IDs or globs (PREFLIGHT-dispatch-target-*) to turn off"},
    [KEY_ENABLE] = {"enable",
                    SETTING_CHECKS,
                    "",
                    {0},
                    "Checks on",
                    "the same, applied after disable; ADVICE checks (PREFLIGHT-alias-in-place) are on only when "
                    "named here"},
    [KEY_TARGET_LIMITS] = {"target_limits",
                           SETTING_PATH,
                           "",
                           {0},
                           "Target limits",
                           "a fleet-limits file (preflight-report fleet-limits) or a probe report: dispatches are "
                           "checked against those devices too"},
    [KEY_WRITE_AFTER_WRITE] = {"write_after_write",
                               SETTING_CHOICE,
                               "available",
                               {"available", "visible"},
                               "Write-after-write rule",
                               "available: a second write is ordered after the first when the first was made "
                               "available and happens before it (the memory model); visible: it must also be in "
                               "the destination access scope (Vulkan-ValidationLayers' reading)"},
    [KEY_SPIRV_VALIDATION] = {"spirv_validation",
                              SETTING_CHOICE,
                              "off",
                              {"off", "on"},
                              "SPIR-V validation",
                              "on: SPIRV-Tools' validator runs once per shader module at vkCreateShaderModule and "
                              "what it rejects is reported (PREFLIGHT-binding-invalid-spirv); off: only what the "
                              "layer's own reflection cannot make sense of"},
    [KEY_RENDER_AREA] = {"render_area",
                         SETTING_CHOICE,
                         "attachment",
                         {"pixels", "attachment"},
                         "Memory of load and store operations",
                         "attachment: a render pass's load, store and resolve operations may access any memory of "
                         "the attachment's image subresource, as the render-pass chapter says (passes over disjoint "
                         "areas of one attachment meet); pixels: only the memory of the render area's pixels (the "
                         "lenient reading of VkRenderPassBeginInfo::renderArea, which bounds the values that change)"},
    [KEY_HOST_READBACK] = {"host_readback",
                           SETTING_CHOICE,
                           "certain",
                           {"certain", "possible"},
                           "Host reads the layer assumes",
                           "certain: a completed GPU write to persistently mapped memory, with no host barrier, is "
                           "reported when the host will read it: a buffer no GPU usage can read, written with data "
                           "(not a fill or update); possible: every such write (stricter: mapped buffers the GPU "
                           "also reads, and markers, are often never read by the host)"},
};

size_t settings_count(void)
{
    return KEY_COUNT;
}

const struct setting_info *settings_info(size_t index)
{
    return index < KEY_COUNT ? &table[index] : NULL;
}

char **settings_environment;

static void problem(struct settings_problems *p, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct settings_problems *p, const char *format, ...)
{
    if (p->count >= SETTINGS_MAX_PROBLEMS)
        return;
    va_list args;
    va_start(args, format);
    vsnprintf(p->text[p->count++], sizeof(p->text[0]), format, args);
    va_end(args);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        ++s;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

static int key_index(const char *key)
{
    for (int k = 0; k < KEY_COUNT; ++k)
        if (strcmp(table[k].key, key) == 0)
            return k;
    return -1;
}

/* Each key's value as given, and where it came from (for messages). */
struct raw_values {
    char value[KEY_COUNT][2048];
    const char *source[KEY_COUNT]; /* NULL: not given */
};

static void from_api(const void *next, struct raw_values *raw, struct settings_problems *p)
{
    bool taken[KEY_COUNT] = {0};
    for (const VkBaseInStructure *s = next; s != NULL; s = s->pNext) {
        if (s->sType != VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT)
            continue;
        const VkLayerSettingsCreateInfoEXT *info = (const VkLayerSettingsCreateInfoEXT *)s;
        for (uint32_t i = 0; i < info->settingCount && info->pSettings != NULL; ++i) {
            const VkLayerSettingEXT *setting = &info->pSettings[i];
            if (setting->pLayerName == NULL || strcmp(setting->pLayerName, LAYER_NAME) != 0 ||
                setting->pSettingName == NULL)
                continue;
            int k = key_index(setting->pSettingName);
            if (k < 0) {
                /* the extension says unknown names are ignored: ignored, but said */
                problem(p, "VkLayerSettingsCreateInfoEXT: unknown setting '%.80s' ignored", setting->pSettingName);
                continue;
            }
            if (taken[k]) /* the first reference of a setting is the one used */
                continue;
            taken[k] = true;
            char *out = raw->value[k];
            size_t at = 0, size = sizeof(raw->value[k]);
            out[0] = '\0';
            for (uint32_t v = 0; v < setting->valueCount && setting->pValues != NULL && at + 1 < size; ++v) {
                const char *separator = v ? "," : "";
                switch (setting->type) {
                case VK_LAYER_SETTING_TYPE_STRING_EXT: {
                    const char *text = ((const char *const *)setting->pValues)[v];
                    at += (size_t)snprintf(out + at, size - at, "%s%s", separator, text ? text : "");
                    break;
                }
                case VK_LAYER_SETTING_TYPE_BOOL32_EXT:
                    at += (size_t)snprintf(out + at, size - at, "%s%s", separator,
                                           ((const VkBool32 *)setting->pValues)[v] ? "true" : "false");
                    break;
                case VK_LAYER_SETTING_TYPE_INT32_EXT:
                    at += (size_t)snprintf(out + at, size - at, "%s%d", separator,
                                           ((const int32_t *)setting->pValues)[v]);
                    break;
                case VK_LAYER_SETTING_TYPE_UINT32_EXT:
                    at += (size_t)snprintf(out + at, size - at, "%s%u", separator,
                                           ((const uint32_t *)setting->pValues)[v]);
                    break;
                case VK_LAYER_SETTING_TYPE_INT64_EXT:
                    at += (size_t)snprintf(out + at, size - at, "%s%lld", separator,
                                           (long long)((const int64_t *)setting->pValues)[v]);
                    break;
                case VK_LAYER_SETTING_TYPE_UINT64_EXT:
                    at += (size_t)snprintf(out + at, size - at, "%s%llu", separator,
                                           (unsigned long long)((const uint64_t *)setting->pValues)[v]);
                    break;
                default: /* floats: no setting of this layer takes one */
                    at += (size_t)snprintf(out + at, size - at, "%s<a floating-point value>", separator);
                    break;
                }
                if (at >= size)
                    at = size - 1;
            }
            raw->source[k] = "VkLayerSettingsCreateInfoEXT";
        }
    }
}

static void from_file(struct raw_values *raw, struct settings_problems *p)
{
    char path[1024];
    const char *where = getenv("VK_LAYER_SETTINGS_PATH");
    struct stat st;
    if (where != NULL && stat(where, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(path, sizeof(path), "%s/vk_layer_settings.txt", where);
    else
        snprintf(path, sizeof(path), "%s", where ? where : "vk_layer_settings.txt");
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    char line[2048];
    while (fgets(line, sizeof(line), f) != NULL) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *equals = strchr(line, '=');
        if (equals == NULL)
            continue;
        *equals = '\0';
        char *name = trim(line);
        if (strncmp(name, FILE_PREFIX, strlen(FILE_PREFIX)) != 0)
            continue; /* another layer's */
        int k = key_index(name + strlen(FILE_PREFIX));
        if (k < 0) {
            problem(p, "%s: unknown setting '%.80s' ignored", path, name);
            continue;
        }
        snprintf(raw->value[k], sizeof(raw->value[k]), "%s", trim(equals + 1)); /* the last occurrence wins */
        raw->source[k] = "vk_layer_settings.txt";
    }
    fclose(f);
}

static void from_environment(struct raw_values *raw, struct settings_problems *p)
{
    extern char **environ;
    char **variables = settings_environment ? settings_environment : environ;
    for (char **v = variables; v != NULL && *v != NULL; ++v) {
        if (strncmp(*v, ENV_PREFIX, strlen(ENV_PREFIX)) != 0)
            continue;
        const char *equals = strchr(*v, '=');
        if (equals == NULL)
            continue;
        char key[64];
        size_t length = (size_t)(equals - *v) - strlen(ENV_PREFIX);
        if (length >= sizeof(key)) {
            problem(p, "unknown environment variable %.*s ignored", (int)(equals - *v) > 100 ? 100 : (int)(equals - *v),
                    *v);
            continue;
        }
        for (size_t i = 0; i < length; ++i)
            key[i] = (char)tolower((unsigned char)(*v)[strlen(ENV_PREFIX) + i]);
        key[length] = '\0';
        int k = key_index(key);
        if (k < 0) {
            problem(p, "unknown environment variable %.*s ignored", (int)(equals - *v), *v);
            continue;
        }
        snprintf(raw->value[k], sizeof(raw->value[k]), "%s", equals + 1);
        raw->source[k] = "the environment";
    }
}

static bool apply_checks(bool *enabled, const char *list, bool value, const char *key, const char *source,
                         struct settings_problems *p)
{
    char buffer[2048];
    snprintf(buffer, sizeof(buffer), "%s", list);
    char *save = NULL;
    bool all_known = true;
    for (char *item = strtok_r(buffer, ", ", &save); item != NULL; item = strtok_r(NULL, ", ", &save)) {
        bool matched = false;
        for (int i = 0; i < CHECK_COUNT; ++i) {
            if (fnmatch(item, check_info((enum check_id)i)->name, 0) == 0) {
                enabled[i] = value;
                matched = true;
            }
        }
        if (!matched) {
            problem(p, "%s (from %s): '%.80s' names no check (docs/checks.md lists them); the others apply", key,
                    source, item);
            all_known = false;
        }
    }
    return all_known;
}

/* Checks a value against its entry; false (and a problem naming the default) when invalid. */
static bool valid(const struct setting_info *info, const char *value, const char *source, struct settings_problems *p)
{
    switch (info->type) {
    case SETTING_CHOICE:
        for (int c = 0; c < 4 && info->choices[c] != NULL; ++c)
            if (strcmp(value, info->choices[c]) == 0)
                return true;
        problem(p, "%s = '%.80s' (from %s) is not one of %s%s%s%s%s; using %s", info->key, value, source,
                info->choices[0], info->choices[1] ? ", " : "", info->choices[1] ? info->choices[1] : "",
                info->choices[2] ? ", " : "", info->choices[2] ? info->choices[2] : "", info->default_value);
        return false;
    case SETTING_UINT: {
        char *end = NULL;
        errno = 0;
        unsigned long long n = strtoull(value, &end, 10);
        if (value[0] == '\0' || value[0] == '-' || end == value || *end != '\0' || errno != 0 || n > UINT32_MAX) {
            problem(p, "%s = '%.80s' (from %s) is not a number from 0 to 4294967295; using %s", info->key, value,
                    source, info->default_value);
            return false;
        }
        return true;
    }
    case SETTING_PATH:
    case SETTING_CHECKS:
        return true;
    }
    return false;
}

static int choice_index(const struct setting_info *info, const char *value)
{
    for (int c = 0; c < 4 && info->choices[c] != NULL; ++c)
        if (strcmp(value, info->choices[c]) == 0)
            return c;
    return 0;
}

void settings_load(struct layer_settings *s, const void *instance_next, struct settings_problems *problems)
{
    memset(s, 0, sizeof(*s));
    memset(problems, 0, sizeof(*problems));
    struct raw_values raw_storage; /* 17 KB: fine on the stack of vkCreateInstance */
    struct raw_values *raw = &raw_storage;
    memset(raw, 0, sizeof(*raw));
    from_api(instance_next, raw, problems);
    from_file(raw, problems);
    from_environment(raw, problems);

    const char *value[KEY_COUNT];
    for (int k = 0; k < KEY_COUNT; ++k) {
        value[k] = table[k].default_value;
        if (raw->source[k] != NULL && valid(&table[k], raw->value[k], raw->source[k], problems))
            value[k] = raw->value[k];
    }
    s->action = (enum finding_action)choice_index(&table[KEY_ACTION], value[KEY_ACTION]);
    s->log_stderr = (enum stderr_mode)choice_index(&table[KEY_STDERR], value[KEY_STDERR]);
    snprintf(s->log_file, sizeof(s->log_file), "%s", value[KEY_LOG_FILE]);
    s->duplicate_limit = (unsigned)strtoul(value[KEY_DUPLICATE_LIMIT], NULL, 10);
    for (int i = 0; i < CHECK_COUNT; ++i)
        s->enabled[i] = check_info((enum check_id)i)->severity != CHECK_ADVICE;
    apply_checks(s->enabled, value[KEY_DISABLE], false, "disable", raw->source[KEY_DISABLE], problems);
    apply_checks(s->enabled, value[KEY_ENABLE], true, "enable", raw->source[KEY_ENABLE], problems);
    snprintf(s->target_limits, sizeof(s->target_limits), "%s", value[KEY_TARGET_LIMITS]);
    s->write_after_write_visible = choice_index(&table[KEY_WRITE_AFTER_WRITE], value[KEY_WRITE_AFTER_WRITE]) == 1;
    s->spirv_validation = choice_index(&table[KEY_SPIRV_VALIDATION], value[KEY_SPIRV_VALIDATION]) == 1;
    s->render_area_whole_attachment = choice_index(&table[KEY_RENDER_AREA], value[KEY_RENDER_AREA]) == 1;
    s->host_readback_possible = choice_index(&table[KEY_HOST_READBACK], value[KEY_HOST_READBACK]) == 1;
}
