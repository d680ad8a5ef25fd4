/* What the layer's shader work costs the application, per module: the reflection at pipeline
 * creation (always) and SPIRV-Tools' validator at vkCreateShaderModule (the spirv_validation
 * setting). Usage: spirv_cost [REPEATS] DIR_OR_FILE... (docs/benchmarks.md). Prints per module the
 * median microseconds of each over REPEATS runs, then the totals. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "spirv_reflect.h"
#include "spirv_validate.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double total_reflect, total_validate;
static int modules, rejected;

static void measure(const char *path, int repeats)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *code = malloc(size > 0 ? (size_t)size : 1);
    size_t got = code ? fread(code, 1, (size_t)size, f) : 0;
    fclose(f);
    if (code == NULL || got != (size_t)size) {
        free(code);
        return;
    }
    double *reflect = calloc((size_t)repeats, sizeof(double)), *validate = calloc((size_t)repeats, sizeof(double));
    bool valid = true;
    for (int i = 0; reflect && validate && i < repeats; ++i) {
        double t0 = now_us();
        struct reflect_result r;
        reflect_module(code, got, "main", NULL, 0, &r);
        reflect_free(&r);
        double t1 = now_us();
        char why[256];
        uint32_t at;
        valid = spirv_validate(code, got, (1u << 22) | (3u << 12), why, sizeof(why), &at);
        double t2 = now_us();
        reflect[i] = t1 - t0;
        validate[i] = t2 - t1;
    }
    if (reflect && validate) {
        qsort(reflect, (size_t)repeats, sizeof(double), by_value);
        qsort(validate, (size_t)repeats, sizeof(double), by_value);
        const char *name = strrchr(path, '/');
        printf("%-48s %8ld bytes  reflect %9.1f us  validate %9.1f us%s\n", name ? name + 1 : path, size,
               reflect[repeats / 2], validate[repeats / 2], valid ? "" : "  (rejected)");
        total_reflect += reflect[repeats / 2];
        total_validate += validate[repeats / 2];
        ++modules;
        rejected += !valid;
    }
    free(reflect);
    free(validate);
    free(code);
}

static void walk(const char *path, int repeats)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        measure(path, repeats);
        return;
    }
    struct dirent **entries = NULL;
    int n = scandir(path, &entries, NULL, alphasort);
    for (int i = 0; i < n; ++i) {
        if (entries[i]->d_name[0] != '.') {
            char child[4096];
            snprintf(child, sizeof(child), "%s/%s", path, entries[i]->d_name);
            walk(child, repeats);
        }
        free(entries[i]);
    }
    free(entries);
}

int main(int argc, char **argv)
{
    int first = 1, repeats = 21;
    if (argc > 1 && argv[1][0] >= '0' && argv[1][0] <= '9') {
        repeats = atoi(argv[1]);
        first = 2;
    }
    if (first >= argc || repeats < 1) {
        fprintf(stderr, "usage: spirv_cost [REPEATS] DIR_OR_FILE...\n");
        return 2;
    }
    for (int i = first; i < argc; ++i)
        walk(argv[i], repeats);
    printf("%d modules: reflection %.0f us in all (%.1f us each), validation %.0f us in all (%.1f us each), "
           "%d rejected by the validator (Vulkan 1.3)\n",
           modules, total_reflect, modules ? total_reflect / modules : 0, total_validate,
           modules ? total_validate / modules : 0, rejected);
    return 0;
}
