/* Fuzzing the layer's SPIR-V reflection (layer/spirv_reflect.c), which runs inside the
 * application at pipeline creation on whatever module it passes: the module is reflected as it is
 * and with specialization constants, and the two results merged as a graphics pipeline's stages
 * are. Corpus: the project's shaders (built) and those of real programs (tests/fuzz/corpus/spirv).
 * A crash or a sanitizer report is a failure; a module refused (ok false) is an answer. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_driver.h"
#include "spirv_reflect.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* the reflection reads words: hand it an aligned copy, as an application's pCode is */
    uint32_t *code = malloc(size ? size : 1);
    if (code == NULL)
        return 0;
    memcpy(code, data, size);
    struct reflect_result plain, specialized;
    reflect_module(code, size, "main", NULL, 0, &plain);
    struct reflect_specialization spec[8];
    for (uint32_t i = 0; i < 8; ++i)
        spec[i] = (struct reflect_specialization){.constant_id = i, .value = (size * 2654435761u) >> i, .size = 4};
    reflect_module(code, size, "main", spec, 8, &specialized);
    if (plain.ok && specialized.ok)
        reflect_merge(&plain, &specialized);
    reflect_free(&plain);
    reflect_free(&specialized);
    free(code);
    return 0;
}

void fuzz_target_mutate(uint8_t *data, size_t *size, size_t capacity)
{
    fuzz_mutate_words(data, size, capacity);
}
