/* The plain fuzz driver (fuzz_driver.h): usage
 *   fuzz_TARGET [--mutations N] [--seeds K] CORPUS_DIR_OR_FILE...
 * Each corpus file runs as it is, then N times mutated (one to four mutations each) for each of K
 * seeds. The exit status is 0 when every input ran (a crash or a sanitizer report ends the process
 * before that), 2 for bad usage or an empty corpus. */
#include "fuzz_driver.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    uint8_t *data = NULL;
    if (fseek(f, 0, SEEK_END) == 0) {
        long length = ftell(f);
        if (length >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)length + 1)) != NULL)
            *size = fread(data, 1, (size_t)length, f);
    }
    fclose(f);
    return data;
}

struct run_counts {
    long files, inputs;
};

static void run_file(const char *path, long mutations, long seeds, struct run_counts *counts)
{
    size_t size = 0;
    uint8_t *original = read_all(path, &size);
    if (original == NULL) {
        fprintf(stderr, "fuzz: cannot read %s\n", path);
        return;
    }
    ++counts->files;
    LLVMFuzzerTestOneInput(original, size);
    ++counts->inputs;
    size_t capacity = size * 2 + 64;
    uint8_t *work = malloc(capacity);
    for (long seed = 0; work != NULL && seed < seeds; ++seed) {
        fuzz_seed((uint64_t)seed);
        for (long i = 0; i < mutations; ++i) {
            size_t n = size;
            memcpy(work, original, size);
            for (int k = 1 + (int)(fuzz_random() % 4); k > 0; --k)
                fuzz_target_mutate(work, &n, capacity);
            LLVMFuzzerTestOneInput(work, n);
            ++counts->inputs;
        }
    }
    free(work);
    free(original);
}

static void run_path(const char *path, long mutations, long seeds, struct run_counts *counts)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "fuzz: %s does not exist\n", path);
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        run_file(path, mutations, seeds, counts);
        return;
    }
    struct dirent **entries = NULL;
    int n = scandir(path, &entries, NULL, alphasort); /* sorted: the same order every run */
    for (int i = 0; i < n; ++i) {
        if (entries[i]->d_name[0] != '.') {
            char child[4096];
            snprintf(child, sizeof(child), "%s/%s", path, entries[i]->d_name);
            run_path(child, mutations, seeds, counts);
        }
        free(entries[i]);
    }
    free(entries);
}

int main(int argc, char **argv)
{
    long mutations = 200, seeds = 1;
    struct run_counts counts = {0, 0};
    int paths = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--mutations") == 0 && i + 1 < argc)
            mutations = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--seeds") == 0 && i + 1 < argc)
            seeds = strtol(argv[++i], NULL, 10);
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [--mutations N] [--seeds K] CORPUS_DIR_OR_FILE...\n", argv[0]);
            return 2;
        } else {
            run_path(argv[i], mutations, seeds, &counts);
            ++paths;
        }
    }
    if (paths == 0 || counts.files == 0) {
        fprintf(stderr, "fuzz: no corpus files\n");
        return 2;
    }
    printf("%ld corpus files, %ld inputs (%ld mutations x %ld seeds each), no crash\n", counts.files, counts.inputs,
           mutations, seeds);
    return 0;
}
