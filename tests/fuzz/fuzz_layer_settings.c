/* Fuzzing the layer's settings (layer/settings.c) from all three of its sources at once: the
 * environment (VK_PREFLIGHT_VALIDATION_* variables), a vk_layer_settings.txt file and a
 * VkLayerSettingsCreateInfoEXT chain with hostile names, types, counts and values. The input is
 * split at 0xFF bytes into those three parts. Whatever is given, settings_load must end with
 * valid settings and every problem as text (at most SETTINGS_MAX_PROBLEMS of them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_driver.h"
#include "layer_settings_ext.h"
#include "settings.h"

static const uint8_t *part(const uint8_t *data, size_t size, size_t *at, size_t *length)
{
    const uint8_t *start = data + *at;
    size_t n = 0;
    while (*at + n < size && data[*at + n] != 0xFF)
        ++n;
    *length = n;
    *at += n + (*at + n < size);
    return start;
}

/* A NUL-terminated copy of bytes, for names and values. */
static char *text(const uint8_t *bytes, size_t n)
{
    char *s = malloc(n + 1);
    if (s != NULL) {
        memcpy(s, bytes, n);
        s[n] = '\0';
    }
    return s;
}

static void fuzz_environment(const uint8_t *bytes, size_t n, char ***out)
{
    /* one variable per line; a line without '=' gets the prefix and a known key in front */
    size_t lines = 1;
    for (size_t i = 0; i < n; ++i)
        lines += bytes[i] == '\n';
    char **environment = calloc(lines + 1, sizeof(char *));
    size_t count = 0, start = 0;
    for (size_t i = 0; environment != NULL && i <= n; ++i) {
        if (i < n && bytes[i] != '\n')
            continue;
        char *line = text(bytes + start, i - start);
        if (line != NULL && strchr(line, '=') == NULL) {
            const struct setting_info *info = settings_info((size_t)(i - start) % settings_count());
            size_t size = strlen(line) + strlen(info->key) + 64;
            char *named = malloc(size);
            if (named != NULL)
                snprintf(named, size, "VK_PREFLIGHT_VALIDATION_%s=%s", info->key, line);
            free(line);
            line = named;
        }
        if (line != NULL)
            environment[count++] = line;
        start = i + 1;
    }
    *out = environment;
}

static void fuzz_api(const uint8_t *bytes, size_t n, VkLayerSettingsCreateInfoEXT *info)
{
    /* each setting: [name selector][type][count] then count values of the type's size */
    VkLayerSettingEXT *settings = calloc(16, sizeof(*settings));
    uint32_t count = 0;
    size_t at = 0;
    while (settings != NULL && count < 16 && at + 3 <= n) {
        uint8_t selector = bytes[at], type = bytes[at + 1], values = bytes[at + 2] % 9;
        at += 3;
        VkLayerSettingEXT *s = &settings[count++];
        s->pLayerName = selector & 0x80 ? "VK_LAYER_KHRONOS_validation" : "VK_LAYER_PREFLIGHT_validation";
        s->pSettingName = selector % 5 == 0 ? "no_such_setting" : settings_info(selector % settings_count())->key;
        s->type = (VkLayerSettingTypeEXT)(type % 10); /* 8 and 9 are no type */
        s->valueCount = values;
        if (s->type == VK_LAYER_SETTING_TYPE_STRING_EXT) {
            const char **strings = calloc(values ? values : 1, sizeof(char *));
            for (uint32_t v = 0; strings != NULL && v < values; ++v) {
                size_t length = at < n ? bytes[at] % 64 : 0;
                at += at < n;
                if (at + length > n)
                    length = n - at;
                strings[v] = v % 4 == 3 ? NULL : text(bytes + at, length);
                at += length;
            }
            s->pValues = strings;
        } else {
            size_t size = (size_t)values * 8; /* the widest type: room for any of them */
            uint8_t *raw = calloc(size ? size : 1, 1);
            if (raw != NULL && at < n)
                memcpy(raw, bytes + at, n - at < size ? n - at : size);
            at += size;
            s->pValues = raw;
        }
    }
    *info = (VkLayerSettingsCreateInfoEXT){VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT, NULL, count, settings};
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t at = 0, env_n, file_n, api_n;
    const uint8_t *env = part(data, size, &at, &env_n);
    const uint8_t *file = part(data, size, &at, &file_n);
    const uint8_t *api = part(data, size, &at, &api_n);

    char **environment = NULL;
    fuzz_environment(env, env_n, &environment);
    char path[64];
    snprintf(path, sizeof(path), "/tmp/preflight-fuzz-settings-%d.txt", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (f != NULL) {
        fwrite(file, 1, file_n, f);
        fclose(f);
    }
    setenv("VK_LAYER_SETTINGS_PATH", path, 1);
    VkLayerSettingsCreateInfoEXT info;
    fuzz_api(api, api_n, &info);
    /* the chain: an unknown structure first, as applications chain others */
    VkBaseInStructure unknown = {(VkStructureType)0x7FFFFFF1, (const VkBaseInStructure *)&info};

    settings_environment = environment;
    struct layer_settings settings;
    struct settings_problems problems = {0};
    settings_load(&settings, &unknown, &problems);
    settings_environment = NULL;
    if (problems.count > SETTINGS_MAX_PROBLEMS || memchr(settings.log_file, '\0', sizeof(settings.log_file)) == NULL ||
        memchr(settings.target_limits, '\0', sizeof(settings.target_limits)) == NULL)
        abort(); /* a result that is not well formed */
    for (unsigned i = 0; i < problems.count; ++i)
        if (memchr(problems.text[i], '\0', sizeof(problems.text[i])) == NULL)
            abort();

    for (uint32_t i = 0; i < info.settingCount; ++i) {
        if (info.pSettings[i].type == VK_LAYER_SETTING_TYPE_STRING_EXT)
            for (uint32_t v = 0; v < info.pSettings[i].valueCount; ++v)
                free((void *)((const char *const *)info.pSettings[i].pValues)[v]);
        free((void *)info.pSettings[i].pValues);
    }
    free((void *)info.pSettings);
    for (char **e = environment; e != NULL && *e != NULL; ++e)
        free(*e);
    free(environment);
    unlink(path);
    unsetenv("VK_LAYER_SETTINGS_PATH");
    return 0;
}

void fuzz_target_mutate(uint8_t *data, size_t *size, size_t capacity)
{
    fuzz_mutate_bytes(data, size, capacity, "=,#\n\xff*?[]-_ 0123456789aefnorstu");
}
