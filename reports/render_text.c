#include <string.h>

#include "render.h"

#define ID_WIDTH 36
#define CELL_WIDTH 22

static const char *verdict_color(const struct matrix_cell *cell)
{
    if (cell->kind != MATRIX_CELL_CAPABILITY)
        return "";
    if (strcmp(cell->verified, "pass") == 0)
        return "\033[32m";
    if (strcmp(cell->verified, "not_applied") == 0)
        return "\033[33m";
    if (strcmp(cell->verified, "unsupported") == 0 || strcmp(cell->verified, "skipped") == 0 ||
        (!cell->verified[0] && !cell->declared))
        return "\033[2m";
    if (cell->verified[0])
        return "\033[31m"; /* fail, crashed, timeout, device_lost */
    return "";
}

static void print_clipped(FILE *out, const char *text, int width)
{
    fprintf(out, "%-*.*s", width, width, text);
}

void render_text(const struct matrix *m, FILE *out, bool color, bool only_differences)
{
    fprintf(out, "  %-*s", ID_WIDTH, "capability");
    for (size_t c = 0; c < m->column_count; ++c) {
        fputs(" ", out);
        print_clipped(out, m->columns[c].device_name, CELL_WIDTH);
    }
    fprintf(out, "\n  %-*s", ID_WIDTH, "");
    for (size_t c = 0; c < m->column_count; ++c) {
        fputs(" ", out);
        print_clipped(out, m->columns[c].driver, CELL_WIDTH);
    }
    fputs("\n", out);
    const char *group = "";
    size_t differing = 0;
    for (size_t r = 0; r < m->row_count; ++r) {
        const struct matrix_row *row = &m->rows[r];
        differing += row->differs;
        if (only_differences && !row->differs)
            continue;
        if (strcmp(group, row->group) != 0) {
            group = row->group;
            fprintf(out, "%s[%s]%s\n", color ? "\033[1m" : "", group, color ? "\033[0m" : "");
        }
        fprintf(out, "%c %-*.*s", row->differs ? '*' : ' ', ID_WIDTH, ID_WIDTH, row->id);
        for (size_t c = 0; c < m->column_count; ++c) {
            char text[64];
            matrix_cell_text(&row->cells[c], text, sizeof(text));
            const char *start = color ? verdict_color(&row->cells[c]) : "";
            fprintf(out, " %s", start);
            print_clipped(out, text, CELL_WIDTH);
            if (*start)
                fputs("\033[0m", out);
        }
        fputs("\n", out);
    }
    fprintf(out, "%zu devices, %zu rows, %zu differ between devices (marked *). Cells: declared, then the "
                 "verified verdict.\n",
            m->column_count, m->row_count, differing);
}
