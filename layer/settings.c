#include "settings.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define LAYER_SETTINGS_PREFIX "preflight_validation."
#define LAYER_ENV_PREFIX "VK_PREFLIGHT_VALIDATION_"

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        ++s;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return s;
}

/* The value of `key` in vk_layer_settings.txt, copied to `out`; false if absent. */
static bool file_value(const char *key, char *out, size_t size)
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
        return false;
    char line[2048];
    bool found = false;
    while (fgets(line, sizeof(line), f) != NULL) {
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *equals = strchr(line, '=');
        if (equals == NULL)
            continue;
        *equals = '\0';
        char *name = trim(line);
        if (strncmp(name, LAYER_SETTINGS_PREFIX, strlen(LAYER_SETTINGS_PREFIX)) == 0 &&
            strcmp(name + strlen(LAYER_SETTINGS_PREFIX), key) == 0) {
            snprintf(out, size, "%s", trim(equals + 1));
            found = true; /* the last occurrence wins, as in other layers */
        }
    }
    fclose(f);
    return found;
}

static bool setting(const char *key, char *out, size_t size)
{
    char env[128];
    snprintf(env, sizeof(env), "%s", LAYER_ENV_PREFIX);
    for (size_t i = strlen(env), k = 0; key[k] && i + 1 < sizeof(env); ++i, ++k)
        env[i] = (char)toupper((unsigned char)key[k]), env[i + 1] = '\0';
    const char *value = getenv(env);
    if (value != NULL) {
        snprintf(out, size, "%s", value);
        return true;
    }
    return file_value(key, out, size);
}

static void set_checks(bool *enabled, const char *list, bool value)
{
    char buffer[2048];
    snprintf(buffer, sizeof(buffer), "%s", list);
    char *save = NULL;
    for (char *item = strtok_r(buffer, ", ", &save); item != NULL; item = strtok_r(NULL, ", ", &save))
        for (int i = 0; i < CHECK_COUNT; ++i)
            if (fnmatch(item, check_info((enum check_id)i)->name, 0) == 0)
                enabled[i] = value;
}

void settings_load(struct layer_settings *s)
{
    memset(s, 0, sizeof(*s));
    s->duplicate_limit = 10;
    for (int i = 0; i < CHECK_COUNT; ++i)
        s->enabled[i] = check_info((enum check_id)i)->severity != CHECK_ADVICE;
    char value[1024];
    if (setting("action", value, sizeof(value)))
        s->action = strcmp(value, "abort") == 0 ? ACTION_ABORT : strcmp(value, "break") == 0 ? ACTION_BREAK : ACTION_LOG;
    if (setting("stderr", value, sizeof(value)))
        s->log_stderr = strcmp(value, "on") == 0 ? STDERR_ON : strcmp(value, "off") == 0 ? STDERR_OFF : STDERR_AUTO;
    if (setting("log_file", value, sizeof(value)))
        snprintf(s->log_file, sizeof(s->log_file), "%s", value);
    if (setting("duplicate_limit", value, sizeof(value)))
        s->duplicate_limit = (unsigned)strtoul(value, NULL, 10);
    if (setting("disable", value, sizeof(value)))
        set_checks(s->enabled, value, false);
    if (setting("enable", value, sizeof(value)))
        set_checks(s->enabled, value, true);
    if (setting("target_limits", value, sizeof(value)))
        snprintf(s->target_limits, sizeof(s->target_limits), "%s", value);
    if (setting("write_after_write", value, sizeof(value))) {
        if (strcmp(value, "visible") == 0)
            s->write_after_write_visible = true;
        else if (strcmp(value, "available") != 0)
            fprintf(stderr, "VK_LAYER_PREFLIGHT_validation: write_after_write = \"%s\" is not available or "
                            "visible; using available\n", value);
    }
}
