/* The ray query and ray-tracing pipeline smoke tests (ray_tests.c). */
#ifndef PREFLIGHT_SMOKE_RAY_TESTS_H
#define PREFLIGHT_SMOKE_RAY_TESTS_H

#include "smoke.h"

extern const struct smoke_test ray_tests[];
extern const size_t ray_test_count;

#endif
