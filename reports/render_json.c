#include <stdlib.h>

#include "render.h"

cJSON *render_matrix_json(const struct matrix *m)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "schema", "preflight.matrix/1");
    cJSON *columns = cJSON_AddArrayToObject(root, "columns");
    for (size_t c = 0; c < m->column_count; ++c) {
        cJSON *col = cJSON_CreateObject();
        cJSON_AddStringToObject(col, "deviceKey", m->columns[c].device_key);
        cJSON_AddStringToObject(col, "deviceName", m->columns[c].device_name);
        cJSON_AddStringToObject(col, "driver", m->columns[c].driver);
        cJSON_AddStringToObject(col, "vendor", m->columns[c].vendor);
        cJSON_AddStringToObject(col, "source", m->columns[c].source);
        cJSON_AddStringToObject(col, "created", m->columns[c].created);
        cJSON_AddStringToObject(col, "host", m->columns[c].host);
        cJSON_AddStringToObject(col, "os", m->columns[c].os);
        cJSON_AddStringToObject(col, "kernel", m->columns[c].kernel);
        cJSON_AddItemToArray(columns, col);
    }
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    for (size_t r = 0; r < m->row_count; ++r) {
        const struct matrix_row *row = &m->rows[r];
        cJSON *out = cJSON_CreateObject();
        cJSON_AddStringToObject(out, "group", row->group);
        cJSON_AddStringToObject(out, "id", row->id);
        cJSON_AddBoolToObject(out, "differs", row->differs);
        cJSON *cells = cJSON_AddArrayToObject(out, "cells");
        for (size_t c = 0; c < m->column_count; ++c) {
            const struct matrix_cell *cell = &row->cells[c];
            cJSON *j = cJSON_CreateObject();
            if (cell->kind == MATRIX_CELL_CAPABILITY) {
                cJSON_AddBoolToObject(j, "declared", cell->declared);
                if (cell->verified[0])
                    cJSON_AddStringToObject(j, "verified", cell->verified);
                else
                    cJSON_AddNullToObject(j, "verified");
                if (cell->reason[0])
                    cJSON_AddStringToObject(j, "reason", cell->reason);
                if (cell->signals[0])
                    cJSON_AddStringToObject(j, "signals", cell->signals);
                if (cell->evidence[0])
                    cJSON_AddStringToObject(j, "evidence", cell->evidence);
            } else if (cell->kind == MATRIX_CELL_VALUE) {
                cJSON_AddStringToObject(j, "value", cell->value);
            }
            cJSON_AddItemToArray(cells, j);
        }
        cJSON_AddItemToArray(rows, out);
    }
    return root;
}

void render_json(const struct matrix *m, FILE *out)
{
    cJSON *root = render_matrix_json(m);
    char *text = cJSON_Print(root);
    if (text != NULL) {
        fputs(text, out);
        fputc('\n', out);
    }
    free(text);
    cJSON_Delete(root);
}
