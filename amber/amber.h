/* AmberScript files (google/amber's docs/amber_script.md) and VkScript files (docs/vk_script.md; a
 * file that does not start with #!amber) as preflight smoke tests: a team's own shaders, with
 * their expected results, run on every probed device. `preflight-probe --amber PATH` collects
 * *.amber and *.vkscript files (amber_suite_collect); each becomes the smoke test amber.<relative path>
 * and runs in the probe's worker processes like any other test. A file is parsed once, in the
 * probe (amber_parse: pure, no Vulkan), and run in a worker on the shared device
 * (amber_execute). docs/amber.md says what is supported and how verdicts are decided. */
#ifndef PREFLIGHT_AMBER_H
#define PREFLIGHT_AMBER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smoke.h"

struct amber_script;

enum amber_parse_status {
    AMBER_PARSED,        /* runs */
    AMBER_SYNTAX_ERROR,  /* the verdict is `fail`, with file:line:column and what was expected */
    AMBER_NOT_SUPPORTED, /* `skipped`: a command preflight does not run, or a limit; the message says which */
};

struct amber_diagnostic {
    enum amber_parse_status status;
    uint32_t line, column;
    char message[384];
};

/* Parses a whole file. `directory` is where its FILE paths are read from (NULL: none allowed).
 * Returns the script (also when a command is not supported: the diagnostic says which) or NULL
 * on a syntax error; never more memory than docs/amber.md's limits allow. */
struct amber_script *amber_parse(const char *text, size_t length, const char *directory, struct amber_diagnostic *d);
void amber_script_free(struct amber_script *script);

/* What the file asks of the device (DEVICE_FEATURE, DEVICE_EXTENSION, INSTANCE_EXTENSION,
 * DEVICE_PROPERTY, and the formats it uses), checked against a report's `declared` block; false
 * with the first thing missing named in `missing`. */
bool amber_script_declared(const struct amber_script *script, const cJSON *declared, char *missing, size_t size);
/* What the device must be created with for the file: its features and extensions (only what the
 * device declares, as amber_script_declared checked). */
void amber_script_device_options(const struct amber_script *script, const cJSON *declared, struct gpu_options *options,
                                 struct smoke_device_features *storage);

/* Whether the file enables what changes other files' results on a shared device (an extension
 * such as VK_EXT_depth_range_unrestricted, which leaves floating-point depth unclamped): it then
 * runs on a device of its own (SMOKE_OWN_DEVICE). */
bool amber_script_needs_own_device(const struct amber_script *script);

/* Runs the file on `gpu` and decides its verdict (docs/amber.md "Verdicts"). `file` names it in
 * messages ("dir/test.amber"). */
void amber_execute(struct gpu *gpu, const struct amber_script *script, const char *file, struct smoke_outcome *out);

/* --- the probe's collection of files -------------------------------------------------------- */

/* Finds the files of `paths` (files, or folders searched recursively for *.amber and *.vkscript, in name order),
 * parses each and makes it a smoke test amber.<path relative to the folder, '/' as '.', without
 * .amber or .vkscript>. false with a message for a path that is missing or unreadable, a folder
 * without such files, or two files with one test id. */
bool amber_suite_collect(const char *const *paths, size_t count, char *error, size_t size);
/* The tests collected (valid until amber_suite_free). */
const struct smoke_test *amber_suite_tests(size_t *count);
void amber_suite_free(void);
/* The test id of a relative path: "a/b-c.amber" -> "amber.a.b-c"; false when it cannot make one. */
bool amber_suite_test_id(const char *relative_path, char *id, size_t size);

#endif
