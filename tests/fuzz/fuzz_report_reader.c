/* Fuzzing the report reader and everything that consumes what it accepts (matrix, diff, fleet
 * limits, profile export, gate). Built two ways:
 *  - with libFuzzer (clang -fsanitize=fuzzer, -DPREFLIGHT_LIBFUZZER): coverage-guided, open-ended;
 *  - as a plain program (the default, run by ctest under ASan/UBSan): every corpus file, then a
 *    fixed number of seeded mutations of each (bit flips, truncations, duplicated and deleted
 *    spans, JSON-significant bytes spliced in), so CI replays the same inputs every time.
 * A crash, a sanitizer report or a leak is a failure; a refusal is the expected answer. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "fleet_limits.h"
#include "gate.h"
#include "matrix.h"
#include "profile_export.h"
#include "report_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char error[512];
    cJSON *report = report_parse((const char *)data, size, "fuzz", error, sizeof(error));
    if (report == NULL)
        return 0;
    struct matrix *m = matrix_build(&report, 1);
    matrix_free(m);
    cJSON_Delete(fleet_limits_build(&report, 1));
    const cJSON *device;
    struct gate *g = gate_parse("compute.* pass or unsupported\nmaxComputeSharedMemorySize >= 16384\n"
                                "feature shaderInt64\nextension VK_KHR_ray_query\nspec_minimums none\n",
                                error, sizeof(error));
    cJSON_ArrayForEach(device, cJSON_GetObjectItemCaseSensitive(report, "devices"))
    {
        struct diff d;
        diff_devices(device, device, &d);
        diff_free(&d);
        cJSON_Delete(profile_export(device));
        cJSON *failures = cJSON_CreateArray();
        gate_evaluate(g, device, failures);
        cJSON_Delete(failures);
    }
    gate_free(g);
    cJSON_Delete(report);
    return 0;
}

#ifndef PREFLIGHT_LIBFUZZER
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void mutate(uint8_t *data, size_t *size, size_t capacity)
{
    static const char splice[] = "{}[]\",:0-e.9tfn\\u";
    size_t n = *size;
    switch (next_random() % 5) {
    case 0: /* flip a bit */
        if (n)
            data[next_random() % n] ^= (uint8_t)(1u << (next_random() % 8));
        break;
    case 1: /* truncate */
        if (n)
            *size = next_random() % n;
        break;
    case 2: /* a JSON-significant byte somewhere */
        if (n)
            data[next_random() % n] = (uint8_t)splice[next_random() % (sizeof(splice) - 1)];
        break;
    case 3: { /* delete a span */
        if (n < 2)
            break;
        size_t at = next_random() % n, length = 1 + next_random() % (n - at);
        memmove(data + at, data + at + length, n - at - length);
        *size = n - length;
        break;
    }
    default: { /* duplicate a span */
        if (n < 2)
            break;
        size_t at = next_random() % n, length = 1 + next_random() % (n - at < 256 ? n - at : 256);
        if (n + length > capacity)
            break;
        memmove(data + at + length, data + at, n - at);
        *size = n + length;
        break;
    }
    }
}

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    fseek(f, 0, SEEK_END);
    long length = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *data = malloc((size_t)length + 1);
    if (data != NULL)
        *size = fread(data, 1, (size_t)length, f);
    fclose(f);
    return data;
}

/* A fleet: 1000 reports at once through matrix, fleet limits and gate, each a mutation of the
 * corpus's small report that the reader still accepts (names, limits and verdicts vary). Every
 * accepted report must become a column: nothing may be capped. */
static int fleet_case(const char *corpus)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/small-report.json", corpus);
    size_t size = 0;
    uint8_t *original = read_all(path, &size);
    if (original == NULL) {
        fprintf(stderr, "fleet case: cannot read %s\n", path);
        return 1;
    }
    enum { FLEET = 1000 };
    cJSON **reports = calloc(FLEET, sizeof(*reports));
    size_t capacity = size * 2 + 64, count = 0;
    uint8_t *work = malloc(capacity);
    char error[512];
    for (long attempt = 0; reports != NULL && work != NULL && count < FLEET && attempt < FLEET * 50; ++attempt) {
        size_t n = size;
        memcpy(work, original, size);
        if (attempt % 3 != 0) /* a third unchanged, the rest mutated */
            mutate(work, &n, capacity);
        cJSON *r = report_parse((const char *)work, n, "fleet", error, sizeof(error));
        if (r != NULL)
            reports[count++] = r;
    }
    int failed = 0;
    if (count != FLEET) {
        fprintf(stderr, "fleet case: only %zu reports accepted\n", count);
        failed = 1;
    }
    struct matrix *m = matrix_build(reports, count);
    size_t devices = 0;
    for (size_t i = 0; i < count; ++i)
        devices += (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(reports[i], "devices"));
    if (m == NULL || m->column_count != devices) {
        fprintf(stderr, "fleet case: the matrix has %zu columns for %zu devices\n", m ? m->column_count : 0, devices);
        failed = 1;
    }
    matrix_free(m);
    cJSON *limits = fleet_limits_build(reports, count);
    if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(limits, "devices")) != (int)devices) {
        fprintf(stderr, "fleet case: fleet limits name %d devices of %zu\n",
                cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(limits, "devices")), devices);
        failed = 1;
    }
    cJSON_Delete(limits);
    for (size_t i = 0; i < count; ++i)
        cJSON_Delete(reports[i]);
    free(reports);
    free(work);
    free(original);
    printf("fleet case: %zu reports, %zu devices in one matrix and one fleet-limits document\n", count, devices);
    return failed;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fuzz_report_reader CORPUS_DIR [MUTATIONS_PER_FILE]\n");
        return 2;
    }
    long mutations = argc > 2 ? strtol(argv[2], NULL, 10) : 200;
    DIR *dir = opendir(argv[1]);
    if (dir == NULL) {
        fprintf(stderr, "cannot open %s\n", argv[1]);
        return 2;
    }
    int files = 0;
    long runs = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof(path), "%s/%s", argv[1], entry->d_name);
        size_t size = 0;
        uint8_t *original = read_all(path, &size);
        if (original == NULL)
            continue;
        ++files;
        size_t capacity = size * 2 + 64;
        uint8_t *work = malloc(capacity);
        LLVMFuzzerTestOneInput(original, size);
        ++runs;
        for (long i = 0; work != NULL && i < mutations; ++i) {
            size_t n = size;
            memcpy(work, original, size);
            for (int k = 1 + (int)(next_random() % 4); k > 0; --k)
                mutate(work, &n, capacity);
            LLVMFuzzerTestOneInput(work, n);
            ++runs;
        }
        free(work);
        free(original);
    }
    closedir(dir);
    printf("%d corpus files, %ld inputs, no crash\n", files, runs);
    int fleet = fleet_case(argv[1]);
    return files > 0 && fleet == 0 ? 0 : 1;
}
#endif
