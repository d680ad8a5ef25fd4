/* The compute smoke-test tables (compute_tests.c, subgroup_test.c, storage_image_tests.c). */
#ifndef PREFLIGHT_SMOKE_COMPUTE_TESTS_H
#define PREFLIGHT_SMOKE_COMPUTE_TESTS_H

#include "smoke.h"

extern const struct smoke_test compute_tests[];
extern const size_t compute_test_count;
extern const struct smoke_test subgroup_tests[];
extern const size_t subgroup_test_count;
extern const struct smoke_test storage_image_tests[];
extern const size_t storage_image_test_count;

bool compute_declares_queue(const cJSON *declared, const void *param, char *reason, size_t size);
bool compute_declares_subgroups(const cJSON *declared, const void *param, char *reason, size_t size);

#endif
