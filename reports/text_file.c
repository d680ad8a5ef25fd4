#include "text_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_file.h"

#define TEXT_FILE_MAX_BYTES (64u << 20) /* as before the one reader: far past any requirements file */

char *text_file_read(const char *path, const char *what)
{
    char error[512];
    size_t length = 0;
    char *text = json_file_read(path, TEXT_FILE_MAX_BYTES, &length, error, sizeof(error));
    if (text == NULL) {
        fprintf(stderr, "preflight-report: %s\n", error);
        return NULL;
    }
    if (strlen(text) != length) {
        fprintf(stderr, "preflight-report: %s: holds a NUL byte, not %s\n", path, what);
        free(text);
        return NULL;
    }
    return text;
}
