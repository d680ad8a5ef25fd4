#include <string.h>

#include "render.h"
#include "text_safe.h"

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

/* `text` in `width` characters (not bytes: a UTF-8 sequence is never cut), padded with spaces. */
static void print_clipped(FILE *out, const char *text, int width)
{
    int shown = 0;
    const unsigned char *p = (const unsigned char *)text;
    while (*p != '\0' && shown < width) {
        size_t n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3 : 4;
        size_t have = 1;
        while (have < n && p[have] != '\0')
            ++have;
        fwrite(p, 1, have, out);
        p += have;
        ++shown;
    }
    for (; shown < width; ++shown)
        fputc(' ', out);
}

/* Columns are numbered in the table and named in full above it: two devices whose names differ
 * only past the cell width ("NVIDIA GeForce RTX 4090" and "...4080") stay apart. */
void render_text(const struct matrix *m, FILE *out, bool color, bool only_differences)
{
    char safe[5][256];
    for (size_t c = 0; c < m->column_count; ++c) {
        const struct matrix_column *col = &m->columns[c];
        fprintf(out, "[%zu] %s, %s (%s%s%s%s%s)\n", c + 1, text_safe(col->device_name, safe[0], sizeof(safe[0])),
                text_safe(col->driver, safe[1], sizeof(safe[1])),
                text_safe(col->created[0] ? col->created : col->source, safe[2], sizeof(safe[2])),
                col->host[0] ? ", " : "", text_safe(col->host, safe[3], sizeof(safe[3])), col->os[0] ? ", " : "",
                text_safe(col->os, safe[4], sizeof(safe[4])));
    }
    fprintf(out, "  %-*s", ID_WIDTH, "capability");
    for (size_t c = 0; c < m->column_count; ++c) {
        char label[300];
        snprintf(label, sizeof(label), "[%zu] %s", c + 1,
                 text_safe(m->columns[c].device_name, safe[0], sizeof(safe[0])));
        fputs(" ", out);
        print_clipped(out, label, CELL_WIDTH);
    }
    fprintf(out, "\n  %-*s", ID_WIDTH, "");
    for (size_t c = 0; c < m->column_count; ++c) {
        fputs(" ", out);
        print_clipped(out, text_safe(m->columns[c].driver, safe[0], sizeof(safe[0])), CELL_WIDTH);
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
            fprintf(out, "%s[%s]%s\n", color ? "\033[1m" : "", text_safe(group, safe[0], sizeof(safe[0])),
                    color ? "\033[0m" : "");
        }
        fputc(row->differs ? '*' : ' ', out);
        fputc(' ', out);
        print_clipped(out, text_safe(row->id, safe[0], sizeof(safe[0])), ID_WIDTH);
        for (size_t c = 0; c < m->column_count; ++c) {
            char raw[64], text[64];
            matrix_cell_text(&row->cells[c], raw, sizeof(raw));
            text_safe(raw, text, sizeof(text));
            const char *start = color ? verdict_color(&row->cells[c]) : "";
            fprintf(out, " %s", start);
            print_clipped(out, text, CELL_WIDTH);
            if (*start)
                fputs("\033[0m", out);
        }
        fputs("\n", out);
    }
    fprintf(out,
            "%zu devices, %zu rows, %zu differ between devices (marked *). Cells: declared, then the "
            "verified verdict.\n",
            m->column_count, m->row_count, differing);
}
