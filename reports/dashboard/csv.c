#include "csv.h"

#include <stdlib.h>
#include <string.h>

static bool starts_formula(const char *text)
{
    return text[0] != '\0' && strchr("=+-@\t\r", text[0]) != NULL;
}

void csv_field(struct buf *out, const char *text, bool guard_formula)
{
    if (text == NULL)
        return;
    bool guard = guard_formula && starts_formula(text);
    if (text[strcspn(text, ",\"\r\n")] == '\0') {
        if (guard)
            buf_add(out, "'");
        buf_add(out, text);
        return;
    }
    buf_add(out, guard ? "\"'" : "\"");
    for (const char *s = text; *s;) {
        size_t n = strcspn(s, "\"");
        buf_add_bytes(out, s, n);
        s += n;
        if (*s == '"') {
            buf_add(out, "\"\"");
            ++s;
        }
    }
    buf_add(out, "\"");
}

/* A value as its field: strings as they are (guarded), numbers and booleans as JSON writes them,
 * null and absent empty, arrays and objects as their JSON text. */
static void csv_value(struct buf *out, const cJSON *value)
{
    if (value == NULL || cJSON_IsNull(value))
        return;
    if (cJSON_IsString(value)) {
        csv_field(out, value->valuestring, true);
        return;
    }
    char *text = cJSON_PrintUnformatted(value);
    if (text == NULL) {
        out->failed = true;
        return;
    }
    csv_field(out, text, !cJSON_IsNumber(value) && !cJSON_IsBool(value));
    free(text);
}

static bool has_key(const cJSON *keys, const char *name)
{
    const cJSON *k;
    cJSON_ArrayForEach(k, keys)
    {
        if (strcmp(k->valuestring, name) == 0)
            return true;
    }
    return false;
}

bool csv_from_rows(const cJSON *rows, struct buf *out)
{
    if (!cJSON_IsArray(rows))
        return false;
    cJSON *keys = cJSON_CreateArray(); /* the union of the rows' keys, in the order first seen */
    if (keys == NULL)
        return false;
    const cJSON *row, *member;
    cJSON_ArrayForEach(row, rows)
    {
        if (!cJSON_IsObject(row)) {
            if (!has_key(keys, "value"))
                cJSON_AddItemToArray(keys, cJSON_CreateString("value"));
            continue;
        }
        cJSON_ArrayForEach(member, row)
        {
            if (!has_key(keys, member->string))
                cJSON_AddItemToArray(keys, cJSON_CreateString(member->string));
        }
    }
    if (cJSON_GetArraySize(keys) == 0) { /* no rows: an empty file */
        cJSON_Delete(keys);
        return true;
    }
    const cJSON *key;
    bool first = true;
    cJSON_ArrayForEach(key, keys)
    {
        if (!first)
            buf_add(out, ",");
        csv_field(out, key->valuestring, true);
        first = false;
    }
    buf_add(out, "\r\n");
    cJSON_ArrayForEach(row, rows)
    {
        first = true;
        cJSON_ArrayForEach(key, keys)
        {
            if (!first)
                buf_add(out, ",");
            first = false;
            if (cJSON_IsObject(row))
                csv_value(out, cJSON_GetObjectItemCaseSensitive(row, key->valuestring));
            else if (strcmp(key->valuestring, "value") == 0)
                csv_value(out, row);
        }
        buf_add(out, "\r\n");
    }
    cJSON_Delete(keys);
    return !out->failed;
}
