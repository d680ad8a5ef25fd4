/* docs/checks.md and the PREFLIGHT_CHECKS table say the same: every check has a section with its
 * severity, an example and the fix, and the document lists no check the layer does not have. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "checks.h"

static char *read_doc(void)
{
    FILE *f = fopen(PREFLIGHT_CHECKS_DOC, "rb");
    if (f == NULL)
        fail_msg("cannot open %s", PREFLIGHT_CHECKS_DOC);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    text[fread(text, 1, (size_t)size, f)] = '\0';
    fclose(f);
    return text;
}

static void every_check_is_documented(void **state)
{
    (void)state;
    char *doc = read_doc();
    for (int i = 0; i < CHECK_COUNT; ++i) {
        const struct check_info *c = check_info((enum check_id)i);
        char heading[160];
        snprintf(heading, sizeof(heading), "\n## %s\n", c->name);
        char *section = strstr(doc, heading);
        if (section == NULL)
            fail_msg("docs/checks.md has no section '## %s'", c->name);
        size_t heading_length = strlen(heading);
        const char *after = section + heading_length;
        const char *end = strstr(after, "\n## ");
        size_t length = end ? (size_t)(end - section) : strlen(section);
        char *body = strndup(section, length);
        char severity[64];
        snprintf(severity, sizeof(severity), "Severity: %s", c->severity == CHECK_ERROR ? "ERROR" : "WARNING");
        if (strstr(body, severity) == NULL)
            fail_msg("%s: the doc does not say '%s'", c->name, severity);
        if (strstr(body, c->summary) == NULL)
            fail_msg("%s: the doc does not repeat the summary '%s'", c->name, c->summary);
        if (strstr(body, "**Example**") == NULL || strstr(body, "**Fix**") == NULL)
            fail_msg("%s: the doc needs an **Example** and a **Fix**", c->name);
        free(body);
    }
    free(doc);
}

static void the_doc_lists_nothing_else(void **state)
{
    (void)state;
    char *doc = read_doc();
    for (char *at = strstr(doc, "\n## PREFLIGHT-"); at != NULL; at = strstr(at + 1, "\n## PREFLIGHT-")) {
        char name[128];
        sscanf(at + 4, "%127s", name);
        if (check_by_name(name) == CHECK_COUNT)
            fail_msg("docs/checks.md documents %s, which the layer does not have", name);
    }
    free(doc);
}

static void message_ids_are_stable_and_distinct(void **state)
{
    (void)state;
    for (int i = 0; i < CHECK_COUNT; ++i)
        for (int j = i + 1; j < CHECK_COUNT; ++j)
            assert_int_not_equal(check_info((enum check_id)i)->message_id, check_info((enum check_id)j)->message_id);
    /* FNV-1a of the name: the number users may filter on must not change between builds */
    assert_int_equal(check_info(CHECK_DISPATCH_GROUP_COUNT)->message_id, 57436253);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_check_is_documented),
        cmocka_unit_test(the_doc_lists_nothing_else),
        cmocka_unit_test(message_ids_are_stable_and_distinct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
