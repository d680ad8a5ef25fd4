/* Writing a whole document to a path the user named, without destroying what is there or showing
 * a reader half of it. "-" is standard output. A character device, FIFO or socket (`--out
 * /dev/null`, a pipe) is written directly: it cannot be renamed over, and replacing it would
 * destroy it. Anything else is written to a unique temporary file beside its target (a symlink's
 * target: the link stays a link) and renamed into place when complete, so two writers never share
 * a temporary and a reader sees the old file or the new one, never a mix. */
#ifndef PREFLIGHT_MATRIX_OUTPUT_FILE_H
#define PREFLIGHT_MATRIX_OUTPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct output_file {
    FILE *file;
    char path[4096];      /* where the document goes (a symlink resolved); "" for standard output */
    char temporary[4200]; /* "" when written directly */
};

/* False with `error` set ("cannot write PATH: reason"). */
bool output_open(struct output_file *o, const char *path, char *error, size_t size);
/* Flushes, closes and renames into place; false with `error` set (the temporary is removed). */
bool output_commit(struct output_file *o, char *error, size_t size);
/* Gives up: closes and removes the temporary (the target is untouched). */
void output_abandon(struct output_file *o);

#endif
