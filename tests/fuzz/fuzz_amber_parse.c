/* Fuzzing the Amber file reader (amber/parse*.c for AmberScript, amber/vkscript*.c for VkScript):
 * whatever the file holds, the reader answers a script or a diagnostic with a line, never a
 * crash, a leak or an allocation past docs/amber.md's limits. Seeds are files of both formats. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "amber.h"
#include "fuzz_driver.h"
#include "script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct amber_diagnostic d;
    /* no FILE paths: a mutated path must not read the machine's files */
    struct amber_script *s = amber_parse((const char *)data, size, NULL, &d);
    if (s == NULL && d.status != AMBER_SYNTAX_ERROR && d.status != AMBER_NOT_SUPPORTED)
        abort(); /* no script means a diagnostic */
    if (d.status != AMBER_PARSED && (d.message[0] == '\0' || d.line == 0))
        abort(); /* every refusal says why and where */
    if (s != NULL) {
        if (s->total_bytes > AMBER_MAX_TOTAL_BYTES + AMBER_MAX_BUFFER_BYTES)
            abort();
        for (uint32_t i = 0; i < s->command_count; ++i) /* what the executor indexes is in range */
            if (s->pipeline_count && s->commands[i].pipeline >= s->pipeline_count)
                abort();
        amber_script_free(s);
    }
    return 0;
}

void fuzz_target_mutate(uint8_t *data, size_t *size, size_t capacity)
{
    fuzz_mutate_bytes(data, size, capacity, "[]#\\ \n\t:/(),%~=!<>0123456789.-xe");
}
