/* The layer's settings table and its three sources, without a driver: defaults, each type's bad
 * values reported with what is used instead (never a silent default), unknown keys named, the
 * priority VkLayerSettingsCreateInfoEXT < vk_layer_settings.txt < environment, the first of two
 * API references used, and the layer manifest's settings (for vkconfig) equal to the table. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include <cmocka.h>

#include "layer_settings_ext.h"
#include "settings.h"

static char *no_environment[] = {NULL};
static char settings_dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(settings_dir, sizeof(settings_dir), "/tmp/test_settings.XXXXXX");
    if (mkdtemp(settings_dir) == NULL)
        return -1;
    setenv("VK_LAYER_SETTINGS_PATH", settings_dir, 1); /* an empty folder: no file unless a test writes one */
    settings_environment = no_environment;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof(path), "%s/vk_layer_settings.txt", settings_dir);
    unlink(path);
    rmdir(settings_dir);
    return 0;
}

static void write_file(const char *text)
{
    char path[128];
    snprintf(path, sizeof(path), "%s/vk_layer_settings.txt", settings_dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static bool said(const struct settings_problems *p, const char *needle)
{
    for (unsigned i = 0; i < p->count; ++i)
        if (strstr(p->text[i], needle) != NULL)
            return true;
    return false;
}

static void defaults_without_any_source(void **state)
{
    (void)state;
    struct layer_settings s;
    struct settings_problems p;
    settings_load(&s, NULL, &p);
    assert_int_equal(p.count, 0);
    assert_int_equal(s.action, ACTION_LOG);
    assert_int_equal(s.log_stderr, STDERR_AUTO);
    assert_int_equal(s.duplicate_limit, 10);
    assert_false(s.write_after_write_visible);
    assert_string_equal(s.log_file, "");
    assert_true(s.enabled[0]);
}

static void bad_values_are_reported_with_the_default_used(void **state)
{
    (void)state;
    char *environment[] = {"VK_PREFLIGHT_VALIDATION_DUPLICATE_LIMIT=ten",
                           "VK_PREFLIGHT_VALIDATION_ACTION=explode",
                           "VK_PREFLIGHT_VALIDATION_WRITE_AFTER_WRITE=strict",
                           "VK_PREFLIGHT_VALIDATION_DISABLE=PREFLIGHT-nope",
                           "VK_PREFLIGHT_VALIDATION_STDERR=",
                           "VK_PREFLIGHT_VALIDATION_COLOUR=on",
                           "OTHER=1",
                           NULL};
    settings_environment = environment;
    struct layer_settings s;
    struct settings_problems p;
    settings_load(&s, NULL, &p);
    settings_environment = no_environment;
    assert_int_equal(s.duplicate_limit, 10); /* 'ten' once became 0: unlimited */
    assert_true(
        said(&p, "duplicate_limit = 'ten' (from the environment) is not a number from 0 to 4294967295; using 10"));
    assert_int_equal(s.action, ACTION_LOG);
    assert_true(said(&p, "action = 'explode' (from the environment) is not one of log, abort, break; using log"));
    assert_false(s.write_after_write_visible);
    assert_true(said(&p, "write_after_write = 'strict'"));
    assert_true(said(&p, "'PREFLIGHT-nope' names no check"));
    assert_true(said(&p, "stderr = '' (from the environment) is not one of auto, on, off; using auto"));
    assert_true(said(&p, "unknown environment variable VK_PREFLIGHT_VALIDATION_COLOUR ignored"));
    assert_int_equal(p.count, 6);
}

static void numbers_at_their_bounds(void **state)
{
    (void)state;
    const char *cases[][2] = {
        {"0", "0"}, {"4294967295", "4294967295"}, {"4294967296", NULL}, {"-1", NULL}, {"12abc", NULL}, {"", NULL}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
        char variable[96];
        snprintf(variable, sizeof(variable), "VK_PREFLIGHT_VALIDATION_DUPLICATE_LIMIT=%s", cases[i][0]);
        char *environment[] = {variable, NULL};
        settings_environment = environment;
        struct layer_settings s;
        struct settings_problems p;
        settings_load(&s, NULL, &p);
        settings_environment = no_environment;
        if (cases[i][1] != NULL) {
            assert_int_equal(p.count, 0);
            assert_int_equal(s.duplicate_limit, (unsigned)strtoul(cases[i][1], NULL, 10));
        } else {
            assert_int_equal(p.count, 1);
            assert_int_equal(s.duplicate_limit, 10);
        }
    }
}

static void api_file_environment_in_that_order(void **state)
{
    (void)state;
    const char *abort_text = "abort", *break_text = "break", *log_path = "/tmp/from-api.jsonl";
    uint32_t three = 3, four = 4;
    VkLayerSettingEXT values[] = {
        {"VK_LAYER_PREFLIGHT_validation", "action", VK_LAYER_SETTING_TYPE_STRING_EXT, 1, &abort_text},
        {"VK_LAYER_PREFLIGHT_validation", "action", VK_LAYER_SETTING_TYPE_STRING_EXT, 1,
         &break_text}, /* second reference: not used */
        {"VK_LAYER_PREFLIGHT_validation", "duplicate_limit", VK_LAYER_SETTING_TYPE_UINT32_EXT, 1, &three},
        {"VK_LAYER_PREFLIGHT_validation", "log_file", VK_LAYER_SETTING_TYPE_STRING_EXT, 1, &log_path},
        {"VK_LAYER_OTHER_layer", "duplicate_limit", VK_LAYER_SETTING_TYPE_UINT32_EXT, 1, &four}, /* another layer's */
        {"VK_LAYER_PREFLIGHT_validation", "no_such_key", VK_LAYER_SETTING_TYPE_UINT32_EXT, 1, &four},
    };
    VkLayerSettingsCreateInfoEXT api = {VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT, NULL,
                                        sizeof(values) / sizeof(values[0]), values};
    struct layer_settings s;
    struct settings_problems p;
    settings_load(&s, &api, &p);
    assert_int_equal(s.action, ACTION_ABORT);
    assert_int_equal(s.duplicate_limit, 3);
    assert_string_equal(s.log_file, "/tmp/from-api.jsonl");
    assert_int_equal(p.count, 1);
    assert_true(said(&p, "VkLayerSettingsCreateInfoEXT: unknown setting 'no_such_key' ignored"));

    write_file("# a comment\npreflight_validation.duplicate_limit = 5\nkhronos_validation.x = 1\n"
               "preflight_validation.duplicate_limit = 6  # the last occurrence wins\n");
    settings_load(&s, &api, &p);
    assert_int_equal(s.duplicate_limit, 6); /* the file over the API */
    assert_int_equal(s.action, ACTION_ABORT);
    char *environment[] = {"VK_PREFLIGHT_VALIDATION_DUPLICATE_LIMIT=7", NULL};
    settings_environment = environment;
    settings_load(&s, &api, &p);
    settings_environment = no_environment;
    assert_int_equal(s.duplicate_limit, 7); /* the environment over both */
    write_file("preflight_validation.duplicate_limit = 5\npreflight_validation.typo = 1\n");
    settings_load(&s, NULL, &p);
    assert_true(said(&p, "unknown setting 'preflight_validation.typo' ignored"));
    write_file("");
}

static void check_lists(void **state)
{
    (void)state;
    const char *disable = "PREFLIGHT-hazard-*", *enable = "PREFLIGHT-hazard-read-after-write,PREFLIGHT-alias-in-place";
    VkLayerSettingEXT values[] = {
        {"VK_LAYER_PREFLIGHT_validation", "disable", VK_LAYER_SETTING_TYPE_STRING_EXT, 1, &disable},
        {"VK_LAYER_PREFLIGHT_validation", "enable", VK_LAYER_SETTING_TYPE_STRING_EXT, 1, &enable},
    };
    VkLayerSettingsCreateInfoEXT api = {VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT, NULL, 2, values};
    struct layer_settings s;
    struct settings_problems p;
    settings_load(&s, &api, &p);
    assert_int_equal(p.count, 0);
    for (int i = 0; i < CHECK_COUNT; ++i) {
        const char *name = check_info((enum check_id)i)->name;
        if (strcmp(name, "PREFLIGHT-hazard-read-after-write") == 0 || strcmp(name, "PREFLIGHT-alias-in-place") == 0)
            assert_true(s.enabled[i]);
        else if (strncmp(name, "PREFLIGHT-hazard-", 17) == 0)
            assert_false(s.enabled[i]);
    }
}

static const char *manifest_type_for(const struct setting_info *info, const char *key)
{
    switch (info->type) {
    case SETTING_CHOICE:
        return "ENUM";
    case SETTING_UINT:
        return "INT";
    case SETTING_CHECKS:
        return "STRING";
    case SETTING_PATH:
        return strcmp(key, "log_file") == 0 ? "SAVE_FILE" : "LOAD_FILE";
    }
    return "";
}

static void manifest_describes_the_table(void **state)
{
    (void)state;
    FILE *f = fopen(PREFLIGHT_LAYER_MANIFEST, "r");
    assert_non_null(f);
    static char text[65536];
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    cJSON *manifest = cJSON_Parse(text);
    assert_non_null(manifest);
    const cJSON *list =
        cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(manifest, "layer"), "features"), "settings");
    assert_int_equal(cJSON_GetArraySize(list), (int)settings_count());
    for (size_t i = 0; i < settings_count(); ++i) {
        const struct setting_info *info = settings_info(i);
        const cJSON *entry = NULL, *e;
        cJSON_ArrayForEach(e, list) if (strcmp(cJSON_GetObjectItem(e, "key")->valuestring, info->key) == 0) entry = e;
        assert_non_null(entry);
        char env[96];
        int at = snprintf(env, sizeof(env), "VK_PREFLIGHT_VALIDATION_");
        for (size_t k = 0; info->key[k] != '\0'; ++k)
            env[at++] = (char)toupper((unsigned char)info->key[k]);
        env[at] = '\0';
        assert_string_equal(cJSON_GetObjectItem(entry, "env")->valuestring, env);
        assert_string_equal(cJSON_GetObjectItem(entry, "type")->valuestring, manifest_type_for(info, info->key));
        assert_string_equal(cJSON_GetObjectItem(entry, "description")->valuestring, info->doc);
        assert_string_equal(cJSON_GetObjectItem(entry, "label")->valuestring, info->label);
        const cJSON *def = cJSON_GetObjectItem(entry, "default");
        if (info->type == SETTING_UINT)
            assert_int_equal(def->valueint, atoi(info->default_value));
        else
            assert_string_equal(def->valuestring, info->default_value);
        if (info->type == SETTING_CHOICE) {
            const cJSON *flags = cJSON_GetObjectItem(entry, "flags");
            int count = 0;
            while (count < 4 && info->choices[count])
                ++count;
            assert_int_equal(cJSON_GetArraySize(flags), count);
            for (int c = 0; c < count; ++c)
                assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(flags, c), "key")->valuestring,
                                    info->choices[c]);
        }
    }
    cJSON_Delete(manifest);
}

/* docs/layer.md's settings table has a row per key. */
static void docs_list_every_setting(void **state)
{
    (void)state;
    FILE *f = fopen(PREFLIGHT_LAYER_DOC, "r");
    assert_non_null(f);
    static char text[1 << 17];
    size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    for (size_t i = 0; i < settings_count(); ++i) {
        char row[96];
        snprintf(row, sizeof(row), "\n| `%s` |", settings_info(i)->key);
        if (strstr(text, row) == NULL)
            fail_msg("docs/layer.md has no row for the setting %s", settings_info(i)->key);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_without_any_source),
        cmocka_unit_test(bad_values_are_reported_with_the_default_used),
        cmocka_unit_test(numbers_at_their_bounds),
        cmocka_unit_test(api_file_environment_in_that_order),
        cmocka_unit_test(check_lists),
        cmocka_unit_test(manifest_describes_the_table),
        cmocka_unit_test(docs_list_every_setting),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
