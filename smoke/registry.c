/* Every smoke test, in run order: compute first (compute.1x1 decides whether compute works at
 * all), then the rest. A new test file adds its table here. */
#include "compute_tests.h"
#include "mesh_tests.h"
#include "ray_tests.h"
#include "vrs_tests.h"

struct test_table {
    const struct smoke_test *tests;
    const size_t *count;
};

static const struct test_table tables[] = {
    {compute_tests, &compute_test_count},
    {subgroup_tests, &subgroup_test_count},
    {storage_image_tests, &storage_image_test_count},
    {vrs_tests, &vrs_test_count},
    {ray_tests, &ray_test_count},
    {mesh_tests, &mesh_test_count},
};

size_t smoke_test_count(void)
{
    size_t total = 0;
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); ++t)
        total += *tables[t].count;
    return total;
}

const struct smoke_test *smoke_test_get(size_t index)
{
    for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); ++t) {
        if (index < *tables[t].count)
            return &tables[t].tests[index];
        index -= *tables[t].count;
    }
    return NULL;
}
