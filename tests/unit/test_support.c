#include "test_support.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

cJSON *load_fixture(const char *name)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s", PREFLIGHT_FIXTURES_DIR, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open fixture %s", path);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    text[size] = '\0';
    fclose(f);
    cJSON *json = cJSON_Parse(text);
    free(text);
    assert_non_null(json);
    return json;
}

const cJSON *fixture_declared(const cJSON *vulkaninfo)
{
    const cJSON *device =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(vulkaninfo, "capabilities"), "device");
    assert_non_null(device);
    return device;
}
