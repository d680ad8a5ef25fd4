/* Fuzzing the expectations reader (reports/expectations.c) and Mesa CI's list import
 * (reports/expectations_import.c): whatever the file holds, the parser answers entries or an error
 * naming a line, never a crash; what it accepts matches a device without fault; what the import
 * writes (from any of the three kinds of list) parses back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expectations.h"
#include "expectations_import.h"
#include "fuzz_driver.h"

static cJSON *device(void)
{
    cJSON *d =
        cJSON_Parse("{\"identity\": {\"deviceName\": \"llvmpipe\", \"vendorID\": 65541, \"deviceID\": 0, "
                    "\"driverID\": \"VK_DRIVER_ID_MESA_LLVMPIPE\", \"driverName\": \"llvmpipe\", \"driverInfo\": "
                    "\"Mesa 25.0.7\", \"driverVersionRaw\": 1, \"driverVersion\": \"0.0.1\", "
                    "\"driverVersionScheme\": \"standard\", \"os\": \"Debian\", \"deviceKey\": \"k\"}, "
                    "\"smoke\": [{\"id\": \"compute.1x1\", \"status\": \"pass\", \"reason\": \"\"}]}");
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text == NULL)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    char error[512] = "";
    cJSON *d = device();
    struct expectations *e = expectations_parse(text, error, sizeof(error));
    if (e == NULL && strncmp(error, "line ", 5) != 0 && strcmp(error, "out of memory") != 0)
        abort(); /* every refusal names its line */
    if (e != NULL) {
        expectations_find(e, d, "compute.1x1", "2026-12-07");
        cJSON *out = cJSON_CreateArray();
        expectations_unexpected_passes(e, d, "2026-12-07", out);
        expectations_expired(e, "2026-12-07", out);
        cJSON_Delete(out);
        expectations_free(e);
    }
    for (int kind = EXPECTATION_FAIL; kind <= EXPECTATION_SKIP; ++kind) {
        char *written = NULL;
        size_t length = 0, count = 0;
        FILE *f = open_memstream(&written, &length);
        if (f == NULL)
            break;
        bool ok = expectations_import_mesa((enum expectation_kind)kind, text, "fuzz.txt", "vendor=mesa", "", NULL, f,
                                           &count, error, sizeof(error));
        fclose(f);
        if (ok) { /* what the import writes is an expectations file */
            struct expectations *back = expectations_parse(written, error, sizeof(error));
            if (back == NULL || expectations_count(back) != count) {
                fprintf(stderr, "import wrote what does not parse back: %s\n%s\n", error, written);
                abort();
            }
            expectations_free(back);
        }
        free(written);
    }
    cJSON_Delete(d);
    free(text);
    return 0;
}

void fuzz_target_mutate(uint8_t *data, size_t *size, size_t capacity)
{
    fuzz_mutate_bytes(data, size, capacity, "\"\\=.*?[]^$,# \n\tr0p9");
}
