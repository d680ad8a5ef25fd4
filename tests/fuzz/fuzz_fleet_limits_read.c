/* Fuzzing the target-limits reader (matrix/fleet_limits_read.c) that the layer runs on its
 * `target_limits` setting inside the application: fleet-limits files, reports and Vulkan
 * Profiles documents, mutated. Whatever the file holds, the reader answers loaded or an error,
 * and never a value for a limit it did not read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fleet_limits_read.h"
#include "fuzz_driver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    snprintf(path, sizeof(path), "/tmp/preflight-fuzz-limits-%d.json", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (f == NULL)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    struct fleet_compute_limits limits;
    char error[512];
    bool loaded = fleet_compute_limits_read(path, &limits, error, sizeof(error));
    unlink(path);
    if (loaded != limits.loaded || (!loaded && memchr(error, '\0', sizeof(error)) == NULL))
        abort();
    if (!loaded && (limits.invocations.present || limits.shared_memory.present || limits.group_count[0].present))
        abort(); /* a refused file sets nothing */
    return 0;
}

void fuzz_target_mutate(uint8_t *data, size_t *size, size_t capacity)
{
    fuzz_mutate_bytes(data, size, capacity, "{}[]\",:0-e.9tfn\\u");
}
