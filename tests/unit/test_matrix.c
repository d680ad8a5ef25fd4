/* The matrix model over real reports: a column per device, declared beside verified, rows that
 * differ marked, and vulkaninfo inputs shown as declared-only columns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "matrix.h"
#include "report_read.h"
#include "test_support.h"

static const struct matrix_row *row(const struct matrix *m, const char *id)
{
    for (size_t i = 0; i < m->row_count; ++i)
        if (strcmp(m->rows[i].id, id) == 0)
            return &m->rows[i];
    fail_msg("row %s missing", id);
    return NULL;
}

static void lavapipe_and_h200(void **state)
{
    (void)state;
    cJSON *reports[2] = {load_fixture("probe-lavapipe.report.json"), load_fixture("probe-nvidia-h200.report.json")};
    struct matrix *m = matrix_build(reports, 2);
    assert_int_equal(m->column_count, 2);
    assert_string_equal(m->columns[1].vendor, "NVIDIA");
    assert_string_equal(m->columns[0].vendor, "Mesa");
    const struct matrix_row *rq = row(m, "ray_query.triangle");
    assert_true(rq->differs);
    assert_true(rq->cells[0].declared);
    assert_string_equal(rq->cells[0].verified, "pass");
    assert_false(rq->cells[1].declared);
    assert_string_equal(rq->cells[1].verified, "unsupported");
    assert_false(row(m, "compute.1x1")->differs);
    assert_true(row(m, "vrs.pipeline.2x2")->differs);
    assert_false(row(m, "ray_tracing_pipeline.trace")->differs);
    assert_string_equal(row(m, "maxComputeSharedMemorySize")->cells[1].value, "49152");
    char text[64];
    matrix_cell_text(&rq->cells[1], text, sizeof(text));
    assert_string_equal(text, "no unsupported");
    matrix_free(m);
    cJSON_Delete(reports[0]);
    cJSON_Delete(reports[1]);
}

static void vulkaninfo_columns_have_no_verdicts(void **state)
{
    (void)state;
    char path[4096], error[256];
    snprintf(path, sizeof(path), "%s/vulkaninfo-lavapipe-mesa-25.0.7.json", PREFLIGHT_FIXTURES_DIR);
    cJSON *reports[2] = {load_fixture("probe-lavapipe.report.json"), report_load(path, error, sizeof(error))};
    assert_non_null(reports[1]);
    struct matrix *m = matrix_build(reports, 2);
    const struct matrix_row *r = row(m, "compute.1x1");
    assert_int_equal(r->cells[1].kind, MATRIX_CELL_EMPTY);
    assert_string_equal(m->columns[1].source, "vulkaninfo");
    assert_true(row(m, "VK_KHR_ray_query")->cells[1].declared);
    matrix_free(m);
    cJSON_Delete(reports[0]);
    cJSON_Delete(reports[1]);
}

static cJSON *smoke_entry(cJSON *report, const char *id)
{
    cJSON *entry;
    cJSON_ArrayForEach(entry,
                       cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(report, "devices"), 0), "smoke"))
    {
        if (strcmp(cJSON_GetObjectItem(entry, "id")->valuestring, id) == 0)
            return entry;
    }
    fail_msg("smoke entry %s missing", id);
    return NULL;
}

/* A cell says in a line how many of the six signals its test collected, and what power says. */
static void cells_summarise_the_signals(void **state)
{
    (void)state;
    cJSON *reports[1] = {load_fixture("probe-nvidia-h200.report.json")};
    cJSON *measured = cJSON_GetObjectItem(smoke_entry(reports[0], "vrs.pipeline.2x2"), "evidence");
    cJSON_AddNumberToObject(measured, "signals_collected", 6);
    cJSON_AddItemToObject(measured, "signals", cJSON_Parse("{\"power\": {\"measured\": true, \"source\": \"nvml\"}}"));
    cJSON_AddItemToObject(measured, "power",
                          cJSON_Parse("{\"source\": \"nvml\", \"ratio\": 0.4123, \"settled\": true}"));
    cJSON *not_measured = cJSON_GetObjectItem(smoke_entry(reports[0], "vrs.pipeline.2x1"), "evidence");
    cJSON_AddNumberToObject(not_measured, "signals_collected", 5);
    cJSON_AddItemToObject(not_measured, "signals",
                          cJSON_Parse("{\"power\": {\"measured\": false, \"reason\": \"not sampled: --no-power\"}}"));
    struct matrix *m = matrix_build(reports, 1);
    assert_string_equal(row(m, "vrs.pipeline.2x2")->cells[0].signals,
                        "6 of 6 signals; energy per pass 0.412x the baseline's (nvml, settled)");
    assert_string_equal(row(m, "vrs.pipeline.2x1")->cells[0].signals, "5 of 6 signals; power not measured");
    assert_string_equal(row(m, "compute.1x1")->cells[0].signals, ""); /* no signals recorded */
    matrix_free(m);
    cJSON_Delete(reports[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(lavapipe_and_h200),
        cmocka_unit_test(vulkaninfo_columns_have_no_verdicts),
        cmocka_unit_test(cells_summarise_the_signals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
