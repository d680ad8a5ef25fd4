/* The mesh-shader smoke tests (mesh_tests.c). */
#ifndef PREFLIGHT_SMOKE_MESH_TESTS_H
#define PREFLIGHT_SMOKE_MESH_TESTS_H

#include "smoke.h"

extern const struct smoke_test mesh_tests[];
extern const size_t mesh_test_count;

#endif
