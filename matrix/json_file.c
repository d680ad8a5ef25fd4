#include "json_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *json_file_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "(standard input)" : path;
}

char *json_file_read(const char *path, size_t limit, size_t *length, char *error, size_t size)
{
    bool standard_input = strcmp(path, "-") == 0;
    const char *name = json_file_name(path);
    FILE *f = standard_input ? stdin : fopen(path, "rb");
    if (f == NULL) {
        snprintf(error, size, "%s: cannot open: %s", name, strerror(errno));
        return NULL;
    }
    size_t capacity = limit < (1u << 16) ? limit : (1u << 16), used = 0;
    char *text = malloc(capacity + 1);
    bool too_large = false;
    while (text != NULL) {
        size_t n = fread(text + used, 1, capacity - used, f);
        used += n;
        if (n == 0)
            break;
        if (used == capacity) {
            if (capacity >= limit) {
                too_large = true;
                break;
            }
            size_t grown = capacity * 2 > limit ? limit : capacity * 2;
            char *bigger = realloc(text, grown + 1);
            if (bigger == NULL) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            capacity = grown;
        }
    }
    /* one byte past the limit tells a file of exactly `limit` bytes from a larger one */
    if (too_large && fgetc(f) == EOF)
        too_large = false;
    int read_errno = ferror(f) ? (errno ? errno : EIO) : 0;
    if (!standard_input)
        fclose(f);
    if (text == NULL) {
        snprintf(error, size, "%s: out of memory while reading it", name);
        return NULL;
    }
    if (too_large) {
        free(text);
        snprintf(error, size, "%s: larger than %zu MiB, not a document these tools read", name, limit >> 20);
        return NULL;
    }
    if (read_errno != 0) {
        free(text);
        snprintf(error, size, "%s: cannot read: %s", name, strerror(read_errno));
        return NULL;
    }
    text[used] = '\0';
    *length = used;
    return text;
}
