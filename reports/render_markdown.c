#include "render.h"

static void escape_cell(FILE *out, const char *text)
{
    for (; *text; ++text) {
        if (*text == '|')
            fputs("\\|", out);
        else
            fputc(*text, out);
    }
}

void render_markdown(const struct matrix *m, FILE *out, bool only_differences)
{
    fputs("| group | capability |", out);
    for (size_t c = 0; c < m->column_count; ++c) {
        fputc(' ', out);
        escape_cell(out, m->columns[c].device_name);
        fputs(" (", out);
        escape_cell(out, m->columns[c].driver);
        fputs(") |", out);
    }
    fputs("\n|---|---|", out);
    for (size_t c = 0; c < m->column_count; ++c)
        fputs("---|", out);
    fputc('\n', out);
    for (size_t r = 0; r < m->row_count; ++r) {
        const struct matrix_row *row = &m->rows[r];
        if (only_differences && !row->differs)
            continue;
        /* rows that differ between devices are bold */
        const char *mark = row->differs ? "**" : "";
        fprintf(out, "| %s | %s%s%s |", row->group, mark, row->id, mark);
        for (size_t c = 0; c < m->column_count; ++c) {
            char text[64];
            matrix_cell_text(&row->cells[c], text, sizeof(text));
            fputc(' ', out);
            escape_cell(out, text);
            fputs(" |", out);
        }
        fputc('\n', out);
    }
}
