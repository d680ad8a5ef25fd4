/* The variable-rate-shading smoke tests (vrs_tests.c). */
#ifndef PREFLIGHT_SMOKE_VRS_TESTS_H
#define PREFLIGHT_SMOKE_VRS_TESTS_H

#include "smoke.h"

extern const struct smoke_test vrs_tests[];
extern const size_t vrs_test_count;

#endif
