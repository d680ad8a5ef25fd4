/* Renderings of the feature matrix. Each writes a whole document to `out`. */
#ifndef PREFLIGHT_REPORTS_RENDER_H
#define PREFLIGHT_REPORTS_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "matrix.h"

/* A terminal table; differing rows start with '*'; `color` adds ANSI colors for verdicts. */
void render_text(const struct matrix *m, FILE *out, bool color, bool only_differences);
void render_markdown(const struct matrix *m, FILE *out, bool only_differences);
void render_json(const struct matrix *m, FILE *out);
/* The matrix as the JSON document render_json prints (schema preflight.matrix/1). */
cJSON *render_matrix_json(const struct matrix *m);
/* One self-contained page: data inline, sorting and filtering in a few lines of script, no
 * server and no network needed. */
void render_html(const struct matrix *m, FILE *out);

#endif
