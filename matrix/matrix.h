/* The cross-device feature matrix: one column per device (and driver), one row per capability.
 * A cell keeps what the device declares beside what a smoke test verified; they are never
 * merged. Rows come in groups: the smoke-test capabilities (compute, formats, vrs, ray_query,
 * ray_tracing_pipeline, mesh_shader, ...), then key extensions, key limits and the count of
 * spec-minimum violations. Renderers (reports/render_*.c) turn it into text, Markdown, JSON and
 * HTML. */
#ifndef PREFLIGHT_MATRIX_MATRIX_H
#define PREFLIGHT_MATRIX_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

enum matrix_cell_kind {
    MATRIX_CELL_EMPTY,      /* the device's report does not say (e.g. a vulkaninfo input has no smoke results) */
    MATRIX_CELL_CAPABILITY, /* declared beside verified */
    MATRIX_CELL_VALUE,      /* a limit or a count */
};

struct matrix_cell {
    enum matrix_cell_kind kind;
    bool declared;
    char verified[16]; /* a verdict name, or "" where no test ran */
    char value[48];
    char reason[192];   /* capabilities: the smoke result's reason ("" when none) */
    char evidence[320]; /* capabilities: the smoke result's evidence, compact JSON cut to fit (a summary) */
    /* capabilities: how many of the six signals the test collected and what its power signal says,
     * "6 of 6 signals; energy per pass 0.41x the baseline's (nvml, settled)"; "" where it records none */
    char signals[128];
};

struct matrix_row {
    char group[32];
    char id[96];
    bool differs; /* the cells are not all the same */
    struct matrix_cell *cells;
};

struct matrix_column {
    char device_key[64];
    char device_name[128];
    char driver[96];  /* "NVIDIA 580.159.4.0" */
    char vendor[32];  /* "NVIDIA", "Mesa", ... from the vendor ID */
    char source[32];  /* "probe" or "vulkaninfo" */
    char created[32]; /* the report's date */
    char host[96];    /* identity.host, when the report names it */
    char os[96];
    char kernel[96];
};

struct matrix {
    struct matrix_column *columns;
    size_t column_count;
    struct matrix_row *rows;
    size_t row_count;
};

/* Builds the matrix of every device of every report. */
struct matrix *matrix_build(cJSON *const *reports, size_t report_count);
void matrix_free(struct matrix *m);
/* Human text for a cell: "yes pass", "no unsupported", "yes", "32768", "" */
void matrix_cell_text(const struct matrix_cell *cell, char *out, size_t size);
const char *matrix_vendor_name(unsigned vendor_id);

#endif
