/* The plain (non-libFuzzer) driver every fuzz target of the project shares: it replays each file
 * of the corpus directories given, then a fixed number of seeded mutations of each, through the
 * target's LLVMFuzzerTestOneInput, so that CI replays the same inputs every run (ctest, under
 * ASan/UBSan). Built with -DPREFLIGHT_LIBFUZZER the target is linked with libFuzzer instead and
 * this driver is left out (scripts/fuzz.sh: coverage-guided, for a bounded time).
 *
 * A target defines LLVMFuzzerTestOneInput and fuzz_target_mutate, which changes one input in the
 * way its format breaks (the helpers below do the common kinds). */
#ifndef PREFLIGHT_TESTS_FUZZ_DRIVER_H
#define PREFLIGHT_TESTS_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One mutation of `data` (`*size` bytes, room for `capacity`). */
void fuzz_target_mutate(uint8_t *data, size_t *size, size_t capacity);

/* The seeded generator (xorshift64) of fuzz_mutate.c: the same seed replays the same mutations. */
void fuzz_seed(uint64_t seed);
uint64_t fuzz_random(void);
/* Byte-level mutations: a flipped bit, a truncation, a deleted or duplicated span, one of
 * `alphabet`'s bytes (NULL: any byte) written somewhere. */
void fuzz_mutate_bytes(uint8_t *data, size_t *size, size_t capacity, const char *alphabet);
/* 32-bit-word-level mutations for binary formats: a random word, a small number, a word's high or
 * low half changed (SPIR-V: the instruction's word count or opcode), a word copied from elsewhere. */
void fuzz_mutate_words(uint8_t *data, size_t *size, size_t capacity);

#endif
