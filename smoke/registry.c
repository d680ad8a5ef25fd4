/* Every smoke test, in run order: compute first (compute.1x1 decides whether compute works at
 * all), then the rest, then any added at run time. A new test file adds its table here. */
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

/* Tests added at run time (a team's AmberScript files, amber/), after the built-in ones. */
static const struct smoke_test *added;
static size_t added_count;

void smoke_tests_add(const struct smoke_test *tests, size_t count)
{
    added = tests;
    added_count = count;
}

size_t smoke_test_count(void)
{
    size_t total = added_count;
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
    return index < added_count ? &added[index] : NULL;
}
