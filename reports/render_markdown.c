#include "render.h"

/* A table cell: '|' escaped, control characters (a line break would end the row; an escape
 * sequence would reach a terminal) as '?'. */
static void escape_cell(FILE *out, const char *text)
{
    for (; *text; ++text) {
        if (*text == '|')
            fputs("\\|", out);
        else if ((unsigned char)*text < 0x20 || *text == 0x7F)
            fputc('?', out);
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
        fputs("| ", out);
        escape_cell(out, row->group);
        fprintf(out, " | %s", mark);
        escape_cell(out, row->id);
        fprintf(out, "%s |", mark);
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
