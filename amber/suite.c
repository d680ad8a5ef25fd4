/* The probe's AmberScript files: found under the --amber paths, parsed once in the probe, each a
 * smoke test amber.<relative path> whose run (in a worker) reports the parse's verdict or runs it. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "amber.h"
#include "script.h"

#define MAX_FILES 100000
#define MAX_DEPTH 64

struct amber_file {
    char *path;   /* to read, and in messages: as the user gave it, joined with the name found */
    char *folder; /* FILE paths in the script are read from here */
    char id[512];
    struct amber_script *script; /* NULL when it did not parse */
    struct amber_diagnostic diagnostic;
    char read_error[256]; /* the file could not be read */
};

static struct amber_file *files;
static struct smoke_test *tests;
static size_t file_count, file_capacity;

/* The length of `name` without .amber or .vkscript; 0 when it has neither. */
static size_t without_extension(const char *name)
{
    size_t length = strlen(name);
    if (length > 6 && strcmp(name + length - 6, ".amber") == 0)
        return length - 6;
    if (length > 9 && strcmp(name + length - 9, ".vkscript") == 0)
        return length - 9;
    return 0;
}

bool amber_suite_test_id(const char *relative, char *id, size_t size)
{
    size_t length = strlen(relative);
    if (without_extension(relative) != 0)
        length = without_extension(relative);
    size_t at = (size_t)snprintf(id, size, "amber.");
    bool segment_empty = true;
    for (size_t i = 0; i < length; ++i) {
        char c = relative[i];
        if (at + 2 >= size)
            return false;
        if (c == '/' || c == '.') {
            if (segment_empty)
                id[at++] = '_'; /* "a//b", ".hidden": no empty part in the id */
            id[at++] = '.';
            segment_empty = true;
            continue;
        }
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        id[at++] = plain ? c : '_';
        segment_empty = false;
    }
    if (segment_empty) {
        if (at + 2 >= size)
            return false;
        id[at++] = '_';
    }
    id[at] = '\0';
    return true;
}

static char *join(const char *a, const char *b)
{
    size_t n = strlen(a) + strlen(b) + 2;
    char *out = malloc(n);
    if (out != NULL)
        snprintf(out, n, "%s%s%s", a, a[0] && a[strlen(a) - 1] != '/' ? "/" : "", b);
    return out;
}

static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *out = malloc(n + 1);
    if (out != NULL) {
        memcpy(out, path, n);
        out[n] = '\0';
    }
    return out;
}

static bool add_file(const char *path, const char *relative, char *error, size_t size)
{
    if (file_count == MAX_FILES) {
        snprintf(error, size, "more than %d AmberScript files", MAX_FILES);
        return false;
    }
    if (file_count == file_capacity) {
        size_t capacity = file_capacity ? file_capacity * 2 : 64;
        struct amber_file *bigger = realloc(files, capacity * sizeof(*bigger));
        if (bigger == NULL) {
            snprintf(error, size, "out of memory");
            return false;
        }
        files = bigger;
        file_capacity = capacity;
    }
    struct amber_file *f = &files[file_count];
    memset(f, 0, sizeof(*f));
    if (!amber_suite_test_id(relative, f->id, sizeof(f->id))) {
        snprintf(error, size, "%s: the path is too long for a test id", path);
        return false;
    }
    for (size_t i = 0; i < file_count; ++i)
        if (strcmp(files[i].id, f->id) == 0) {
            snprintf(error, size, "%s and %s would both be the test %s: rename one", files[i].path, path, f->id);
            return false;
        }
    f->path = strdup(path);
    f->folder = folder_of(path);
    if (f->path == NULL || f->folder == NULL) {
        free(f->path);
        free(f->folder);
        snprintf(error, size, "out of memory");
        return false;
    }
    ++file_count;
    return true;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.amber files under `folder`, in name order; `relative` is the folder's path below the root. */
static bool walk(const char *folder, const char *relative, int depth, size_t *found, char *error, size_t size)
{
    if (depth > MAX_DEPTH) {
        snprintf(error, size, "%s: folders nest deeper than %d", folder, MAX_DEPTH);
        return false;
    }
    DIR *dir = opendir(folder);
    if (dir == NULL) {
        snprintf(error, size, "%s: %s", folder, strerror(errno));
        return false;
    }
    char **names = NULL;
    size_t count = 0, capacity = 0;
    bool ok = true;
    for (struct dirent *entry; ok && (entry = readdir(dir)) != NULL;) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
            continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 32;
            char **bigger = realloc(names, capacity * sizeof(*bigger));
            ok = bigger != NULL;
            if (ok)
                names = bigger;
        }
        if (ok)
            ok = (names[count++] = strdup(entry->d_name)) != NULL;
    }
    closedir(dir);
    if (!ok)
        snprintf(error, size, "out of memory");
    if (ok && count)
        qsort(names, count, sizeof(*names), by_name);
    for (size_t i = 0; i < count; ++i) {
        char *path = ok ? join(folder, names[i]) : NULL;
        char *below = ok ? (relative[0] ? join(relative, names[i]) : strdup(names[i])) : NULL;
        struct stat st;
        if (ok && (path == NULL || below == NULL)) {
            snprintf(error, size, "out of memory");
            ok = false;
        } else if (ok && lstat(path, &st) == 0) {
            /* folders are searched, links to folders are not (no loops); files are taken as named */
            if (S_ISDIR(st.st_mode))
                ok = walk(path, below, depth + 1, found, error, size);
            else if (without_extension(names[i]) != 0 && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                ok = add_file(path, below, error, size);
                ++*found;
            }
        }
        free(path);
        free(below);
        free(names[i]);
    }
    free(names);
    return ok;
}

static void load(struct amber_file *f)
{
    FILE *in = fopen(f->path, "rb");
    if (in == NULL) {
        snprintf(f->read_error, sizeof(f->read_error), "%s: cannot read it: %s", f->path, strerror(errno));
        return;
    }
    /* one byte past the limit: enough for the parser to say the file is too large */
    size_t capacity = 65536, length = 0;
    char *text = malloc(capacity);
    while (text != NULL) {
        size_t n = fread(text + length, 1, capacity - length, in);
        length += n;
        if (n == 0 || length > AMBER_MAX_FILE_BYTES)
            break;
        if (length == capacity) {
            capacity *= 2;
            char *bigger = realloc(text, capacity);
            if (bigger == NULL) {
                free(text);
                text = NULL;
            } else {
                text = bigger;
            }
        }
    }
    bool failed = ferror(in) != 0;
    fclose(in);
    if (text == NULL || failed) {
        snprintf(f->read_error, sizeof(f->read_error), "%s: cannot read it", f->path);
        free(text);
        return;
    }
    f->script = amber_parse(text, length, f->folder, &f->diagnostic);
    free(text);
}

/* --- the smoke test of a file ---------------------------------------------------------------- */

static bool file_declared(const cJSON *declared, const void *param, char *reason, size_t size)
{
    const struct amber_file *f = param;
    if (f->script == NULL || f->diagnostic.status != AMBER_PARSED)
        return true; /* the worker reports the file's own verdict */
    return amber_script_declared(f->script, declared, reason, size);
}

static void file_options(const cJSON *declared, const void *param, struct gpu_options *options,
                         struct smoke_device_features *storage)
{
    const struct amber_file *f = param;
    if (f->script != NULL && f->diagnostic.status == AMBER_PARSED)
        amber_script_device_options(f->script, declared, options, storage);
}

static void file_run(struct gpu *gpu, const void *param, struct smoke_outcome *out)
{
    const struct amber_file *f = param;
    cJSON_AddStringToObject(out->evidence, "file", f->path);
    if (f->read_error[0]) {
        smoke_set(out, VERDICT_FAIL, "%s", f->read_error);
    } else if (f->diagnostic.status == AMBER_SYNTAX_ERROR) {
        smoke_set(out, VERDICT_FAIL, "%s:%u:%u: %s", f->path, f->diagnostic.line, f->diagnostic.column,
                  f->diagnostic.message);
    } else if (f->diagnostic.status == AMBER_NOT_SUPPORTED) {
        smoke_set(out, VERDICT_SKIPPED, "%s:%u: %s", f->path, f->diagnostic.line, f->diagnostic.message);
    } else {
        cJSON_DeleteItemFromObjectCaseSensitive(out->evidence, "file");
        amber_execute(gpu, f->script, f->path, out);
    }
}

bool amber_suite_collect(const char *const *paths, size_t count, char *error, size_t size)
{
    for (size_t i = 0; i < count; ++i) {
        struct stat st;
        if (stat(paths[i], &st) != 0) {
            snprintf(error, size, "--amber %s: %s", paths[i], strerror(errno));
            return false;
        }
        if (S_ISDIR(st.st_mode)) {
            size_t found = 0;
            if (!walk(paths[i], "", 0, &found, error, size))
                return false;
            if (found == 0) {
                snprintf(error, size, "--amber %s: the folder holds no .amber or .vkscript files", paths[i]);
                return false;
            }
        } else {
            const char *name = strrchr(paths[i], '/');
            if (!add_file(paths[i], name ? name + 1 : paths[i], error, size))
                return false;
        }
    }
    tests = calloc(file_count ? file_count : 1, sizeof(*tests));
    if (tests == NULL) {
        snprintf(error, size, "out of memory");
        return false;
    }
    for (size_t i = 0; i < file_count; ++i) {
        load(&files[i]);
        tests[i] = (struct smoke_test){
            .id = files[i].id,
            .group = "amber",
            .description = files[i].path,
            .declared = file_declared,
            .device_options = file_options,
            .run = file_run,
            .param = &files[i],
            .flags = amber_script_needs_own_device(files[i].script) ? SMOKE_OWN_DEVICE : 0u,
        };
    }
    return true;
}

const struct smoke_test *amber_suite_tests(size_t *count)
{
    *count = file_count;
    return tests;
}

void amber_suite_free(void)
{
    for (size_t i = 0; i < file_count; ++i) {
        amber_script_free(files[i].script);
        free(files[i].path);
        free(files[i].folder);
    }
    free(files);
    free(tests);
    files = NULL;
    tests = NULL;
    file_count = file_capacity = 0;
}
