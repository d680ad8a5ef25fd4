/* Shared helpers for the unit tests: reading fixture files. */
#ifndef PREFLIGHT_TEST_SUPPORT_H
#define PREFLIGHT_TEST_SUPPORT_H

#include <cjson/cJSON.h>

/* Parses tests/fixtures/<name>; fails the test when it cannot be read. */
cJSON *load_fixture(const char *name);
/* The Vulkan Profiles block of a vulkaninfo --json fixture, which has the layout of a report's
 * `declared` block. */
const cJSON *fixture_declared(const cJSON *vulkaninfo);

#endif
