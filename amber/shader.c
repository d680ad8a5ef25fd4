#include "shader.h"

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <spirv-tools/libspirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vulkan/vulkan_core.h>

#include "amber_spirv.h"

#if defined(__has_include)
#if __has_include(<glslang/build_info.h>)
#include <glslang/build_info.h>
#endif
#endif
#ifndef GLSLANG_VERSION_MAJOR
#define GLSLANG_VERSION_MAJOR 0
#define GLSLANG_VERSION_MINOR 0
#define GLSLANG_VERSION_PATCH 0
#endif
#define TEXT_OF_(x) #x
#define TEXT_OF(x) TEXT_OF_(x)
#define GLSLANG_NAME                                                                                                   \
    "glslang " TEXT_OF(GLSLANG_VERSION_MAJOR) "." TEXT_OF(GLSLANG_VERSION_MINOR) "." TEXT_OF(GLSLANG_VERSION_PATCH)

const char *amber_glslang_version(void)
{
    return GLSLANG_NAME;
}

/* What a TARGET_ENV names: the SPIR-V version, the Vulkan version that takes it, and the
 * SPIRV-Tools environment Amber assembles and validates in. */
struct target {
    const char *name;
    uint32_t spirv;          /* as the module's header writes it, and glslang's GLSLANG_TARGET_SPV_1_x */
    uint32_t vulkan;         /* VK_API_VERSION_1_x */
    uint32_t glslang_vulkan; /* GLSLANG_TARGET_VULKAN_1_x */
};

static const struct target targets[] = {
    {"spv1.0", 0x10000, VK_API_VERSION_1_0, GLSLANG_TARGET_VULKAN_1_0},
    {"spv1.1", 0x10100, VK_API_VERSION_1_1, GLSLANG_TARGET_VULKAN_1_1},
    {"spv1.2", 0x10200, VK_API_VERSION_1_1, GLSLANG_TARGET_VULKAN_1_1},
    {"spv1.3", 0x10300, VK_API_VERSION_1_1, GLSLANG_TARGET_VULKAN_1_1},
    {"spv1.4", 0x10400, VK_API_VERSION_1_2, GLSLANG_TARGET_VULKAN_1_2},
    {"spv1.5", 0x10500, VK_API_VERSION_1_2, GLSLANG_TARGET_VULKAN_1_2},
    {"spv1.6", 0x10600, VK_API_VERSION_1_3, GLSLANG_TARGET_VULKAN_1_3},
    {"vulkan1.0", 0x10000, VK_API_VERSION_1_0, GLSLANG_TARGET_VULKAN_1_0},
    {"vulkan1.1", 0x10300, VK_API_VERSION_1_1, GLSLANG_TARGET_VULKAN_1_1},
    {"vulkan1.1spv1.4", 0x10400, VK_API_VERSION_1_1, GLSLANG_TARGET_VULKAN_1_1},
    {"vulkan1.2", 0x10500, VK_API_VERSION_1_2, GLSLANG_TARGET_VULKAN_1_2},
    {"vulkan1.3", 0x10600, VK_API_VERSION_1_3, GLSLANG_TARGET_VULKAN_1_3},
};

/* Without TARGET_ENV: spv1.0, as Amber; ray-tracing stages exist from SPIR-V 1.4 on, so theirs is
 * spv1.4 (Amber's ray-tracing files name it). */
static const char *default_target(const struct amber_shader *s)
{
    return s->stage >= AMBER_STAGE_RAY_GENERATION ? "spv1.4" : "spv1.0";
}

static const struct target *target_of(const char *name)
{
    for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); ++i)
        if (strcmp(targets[i].name, name) == 0)
            return &targets[i];
    return NULL;
}

/* glslang's process-wide set-up, once per worker process (it is kept to the process's end). */
static bool glslang_ready(void)
{
    static int ready = -1;
    if (ready < 0)
        ready = glslang_initialize_process() != 0;
    return ready > 0;
}

/* glslang's log on one line: its lines trimmed and joined by "; ", with "ERROR: 0:LINE:" (a line
 * of the source) said as the file's "ERROR: line N:". */
static void log_text(const char *log, uint32_t first_line, char *out, size_t size)
{
    size_t at = strlen(out);
    for (const char *line = log; line && *line && at + 1 < size;) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        size_t used = length;
        while (used > 0 && (line[used - 1] == ' ' || line[used - 1] == '\r'))
            --used;
        if (used > 0) {
            if (at > 0 && out[at - 1] != ' ' && at + 2 < size) {
                out[at++] = ';';
                out[at++] = ' ';
            }
            size_t i = 0;
            const char *colon = memchr(line, ':', used);
            unsigned source_line = 0;
            int consumed = 0;
            if (colon != NULL && sscanf(colon + 1, " 0:%u:%n", &source_line, &consumed) == 1 && consumed > 0) {
                int n = snprintf(out + at, size - at, "%.*s line %u:", (int)(colon - line + 1), line,
                                 first_line + source_line - 1);
                at = n > 0 && (size_t)n < size - at ? at + (size_t)n : size - 1;
                i = (size_t)(colon + 1 - line) + (size_t)consumed;
            }
            for (; i < used && at + 1 < size; ++i)
                out[at++] = line[i];
        }
        line = end ? end + 1 : NULL;
    }
    out[at] = '\0';
}

static bool compile_glsl(const struct amber_shader *s, const struct target *t, struct amber_spirv *out, char *error,
                         size_t size)
{
    static const glslang_stage_t stages[] = {
        [AMBER_STAGE_VERTEX] = GLSLANG_STAGE_VERTEX,
        [AMBER_STAGE_TESSELLATION_CONTROL] = GLSLANG_STAGE_TESSCONTROL,
        [AMBER_STAGE_TESSELLATION_EVALUATION] = GLSLANG_STAGE_TESSEVALUATION,
        [AMBER_STAGE_GEOMETRY] = GLSLANG_STAGE_GEOMETRY,
        [AMBER_STAGE_FRAGMENT] = GLSLANG_STAGE_FRAGMENT,
        [AMBER_STAGE_COMPUTE] = GLSLANG_STAGE_COMPUTE,
        [AMBER_STAGE_RAY_GENERATION] = GLSLANG_STAGE_RAYGEN,
        [AMBER_STAGE_ANY_HIT] = GLSLANG_STAGE_ANYHIT,
        [AMBER_STAGE_CLOSEST_HIT] = GLSLANG_STAGE_CLOSESTHIT,
        [AMBER_STAGE_MISS] = GLSLANG_STAGE_MISS,
        [AMBER_STAGE_INTERSECTION] = GLSLANG_STAGE_INTERSECT,
        [AMBER_STAGE_CALLABLE] = GLSLANG_STAGE_CALLABLE,
    };
    if (!glslang_ready()) {
        snprintf(error, size, "glslang could not be set up");
        return false;
    }
    const int messages = GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT;
    glslang_input_t input = {
        .language = GLSLANG_SOURCE_GLSL,
        .stage = stages[s->stage],
        .client = GLSLANG_CLIENT_VULKAN,
        .client_version = (glslang_target_client_version_t)t->glslang_vulkan,
        .target_language = GLSLANG_TARGET_SPV,
        .target_language_version = (glslang_target_language_version_t)t->spirv,
        .code = s->source, /* NUL-terminated: the parser keeps every source so */
        .default_version = 100,
        .default_profile = GLSLANG_NO_PROFILE,
        .messages = (glslang_messages_t)messages,
        .resource = glslang_default_resource(),
    };
    glslang_shader_t *shader = glslang_shader_create(&input);
    glslang_program_t *program = NULL;
    bool ok = shader != NULL && glslang_shader_preprocess(shader, &input) && glslang_shader_parse(shader, &input);
    if (ok) {
        program = glslang_program_create();
        glslang_program_add_shader(program, shader);
        ok = glslang_program_link(program, messages);
    }
    if (ok) {
        glslang_program_SPIRV_generate(program, input.stage);
        size_t words = glslang_program_SPIRV_get_size(program);
        out->words = malloc(words ? words * 4 : 4);
        out->count = words;
        if (out->words != NULL)
            glslang_program_SPIRV_get(program, out->words);
        else
            snprintf(error, size, "out of memory");
        ok = out->words != NULL;
    } else {
        snprintf(error, size, "GLSL does not compile (%s): ", GLSLANG_NAME);
        log_text(shader ? glslang_shader_get_info_log(shader) : "glslang failed", s->source_line, error, size);
        if (program != NULL)
            log_text(glslang_program_get_info_log(program), s->source_line, error, size);
    }
    glslang_program_delete(program);
    glslang_shader_delete(shader);
    return ok;
}

/* SPIRV-Tools' message; for assembly text, the position as a line of the file */
static void diagnostic_text(spv_diagnostic d, uint32_t first_line, char *error, size_t size, const char *what)
{
    if (d == NULL) {
        snprintf(error, size, "%s", what);
        return;
    }
    if (d->isTextSource)
        snprintf(error, size, "%s: line %zu column %zu: %s", what, first_line + d->position.line,
                 d->position.column + 1, d->error);
    else
        snprintf(error, size, "%s: %s", what, d->error);
}

static bool assemble(const struct amber_shader *s, spv_target_env env, struct amber_spirv *out, char *error,
                     size_t size)
{
    spv_context context = spvContextCreate(env);
    spv_binary binary = NULL;
    spv_diagnostic diagnostic = NULL;
    spv_result_t result = spvTextToBinary(context, s->source, s->source_length, &binary, &diagnostic);
    bool ok = result == SPV_SUCCESS && binary != NULL;
    if (ok) {
        out->words = malloc(binary->wordCount * 4 + 4);
        out->count = binary->wordCount;
        ok = out->words != NULL;
        if (ok)
            memcpy(out->words, binary->code, binary->wordCount * 4);
    } else {
        char what[96];
        snprintf(what, sizeof(what), "SPIR-V assembly does not assemble (SPIRV-Tools %s)", spvSoftwareVersionString());
        diagnostic_text(diagnostic, s->source_line, error, size, what);
    }
    spvBinaryDestroy(binary);
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    return ok;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* SPIRV-HEX: bytes in hexadecimal (0x optional), four to a word, least significant first. */
static bool decode_hex(const struct amber_shader *s, struct amber_spirv *out, char *error, size_t size)
{
    size_t capacity = s->source_length / 2 + 4, bytes = 0;
    uint8_t *data = malloc(capacity);
    if (data == NULL) {
        snprintf(error, size, "out of memory");
        return false;
    }
    const char *at = s->source, *end = s->source + s->source_length;
    while (at < end) {
        while (at < end && (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r'))
            ++at;
        if (at == end)
            break;
        if (end - at > 2 && at[0] == '0' && (at[1] == 'x' || at[1] == 'X'))
            at += 2;
        int value = 0, digits = 0;
        while (at < end && hex_digit(*at) >= 0 && digits < 3) {
            value = value * 16 + hex_digit(*at++);
            ++digits;
        }
        if (digits == 0 || digits > 2 || (at < end && *at != ' ' && *at != '\t' && *at != '\n' && *at != '\r')) {
            snprintf(error, size, "SPIRV-HEX: '%.*s' is not a hexadecimal byte", (int)(end - at > 8 ? 8 : end - at),
                     at);
            free(data);
            return false;
        }
        data[bytes++] = (uint8_t)value;
    }
    if (bytes == 0 || bytes % 4 != 0) {
        snprintf(error, size, "SPIRV-HEX: %zu bytes is not a whole number of 32-bit words", bytes);
        free(data);
        return false;
    }
    out->words = (uint32_t *)data;
    out->count = bytes / 4;
    for (size_t i = 0; i < out->count; ++i)
        out->words[i] = (uint32_t)data[i * 4] | (uint32_t)data[i * 4 + 1] << 8 | (uint32_t)data[i * 4 + 2] << 16 |
                        (uint32_t)data[i * 4 + 3] << 24;
    return true;
}

static void versions_of(struct amber_spirv *out)
{
    out->spirv_version = out->words[1] & 0x00FFFF00u;
    out->vulkan_version = out->spirv_version <= 0x10000   ? VK_API_VERSION_1_0
                          : out->spirv_version <= 0x10300 ? VK_API_VERSION_1_1
                          : out->spirv_version <= 0x10500 ? VK_API_VERSION_1_2
                                                          : VK_API_VERSION_1_3;
}

/* false (and `out` freed) with SPIRV-Tools' message after `what` */
static bool validate(const struct amber_shader *s, spv_target_env env, struct amber_spirv *out, char *error,
                     size_t size, const char *what)
{
    spv_context context = spvContextCreate(env);
    spv_const_binary_t binary = {out->words, out->count};
    spv_diagnostic diagnostic = NULL;
    spv_validator_options options = spvValidatorOptionsCreate();
    bool ok = spvValidateWithOptions(context, options, &binary, &diagnostic) == SPV_SUCCESS;
    if (!ok) {
        diagnostic_text(diagnostic, s->source_line, error, size, what);
        amber_spirv_free(out);
    }
    spvValidatorOptionsDestroy(options);
    spvDiagnosticDestroy(diagnostic);
    spvContextDestroy(context);
    return ok;
}

/* SPIRV-Tools' validator asks for a later SPIR-V than the module's: the capability or instruction
 * exists only from that version on. */
static bool asks_later_spirv(const char *error)
{
    return strstr(error, "requires SPIR-V version") != NULL;
}

static bool assemble_and_validate_for(const struct amber_shader *s, const char *name, struct amber_spirv *out,
                                      char *error, size_t size)
{
    spv_target_env env;
    if (!spvParseTargetEnv(name, &env) || !assemble(s, env, out, error, size))
        return false;
    versions_of(out);
    char what[96];
    snprintf(what, sizeof(what), "the SPIR-V is not valid (SPIRV-Tools %s, %s)", spvSoftwareVersionString(), name);
    return validate(s, env, out, error, size, what);
}

/* The CTS assembles its SPIR-V assembly itself and hands Amber the binary: for the Vulkan 1.1 it
 * needs at least (SPIR-V 1.3), for SPIR-V 1.4 in its spirv1p4 and workgroup-memory-layout groups
 * (the validator then asks for 1.4), and for SPIR-V 1.4 in the files that ask for VK_KHR_spirv_1_4.
 * Assembly without TARGET_ENV that does not assemble or validate as SPIR-V 1.0 is taken so, as the
 * CTS runs it; the device's Vulkan version and extensions are checked after. `error` keeps the
 * first message when neither works. */
static bool as_the_cts_assembles(const struct amber_shader *s, bool spirv_1_4, struct amber_spirv *out, char *error,
                                 size_t size)
{
    if (s->format != AMBER_SHADER_SPIRV_ASM || s->target_env[0] != '\0')
        return false;
    char first[512];
    snprintf(first, sizeof(first), "%s", error);
    /* each step only while the validator asks for a later SPIR-V: 1.3 (Vulkan 1.1), then 1.4 for
     * Vulkan 1.1 (how the CTS builds its spirv1p4 and workgroup-memory-layout files), 1.5, 1.6 */
    static const char *const ladder[] = {"vulkan1.1", "vulkan1.1spv1.4", "vulkan1.2", "vulkan1.3"};
    for (size_t i = 0; i < sizeof(ladder) / sizeof(ladder[0]) && asks_later_spirv(error); ++i)
        if (assemble_and_validate_for(s, ladder[i], out, error, size))
            return true;
    snprintf(error, size, "%s", first);
    if (spirv_1_4 && assemble_and_validate_for(s, "vulkan1.1spv1.4", out, error, size))
        return true;
    snprintf(error, size, "%s", first);
    return false;
}

enum amber_compile_result amber_shader_build(const struct amber_shader *s, bool spirv_1_4, struct amber_spirv *out,
                                             char *error, size_t size)
{
    memset(out, 0, sizeof(*out));
    const char *target_env = s->target_env[0] ? s->target_env : default_target(s);
    const struct target *t = target_of(target_env);
    spv_target_env env;
    if (t == NULL || !spvParseTargetEnv(target_env, &env)) {
        snprintf(
            error, size,
            "TARGET_ENV %s is not one preflight knows (spv1.0 ... spv1.6, vulkan1.0 ... vulkan1.3; SPIRV-Tools %s)",
            s->target_env, spvSoftwareVersionString());
        return AMBER_COMPILE_TOOL;
    }
    bool ok;
    bool tool = s->format == AMBER_SHADER_GLSL || s->format == AMBER_SHADER_SPIRV_ASM;
    switch (s->format) {
    case AMBER_SHADER_GLSL:
        ok = compile_glsl(s, t, out, error, size);
        break;
    case AMBER_SHADER_SPIRV_ASM:
        ok = assemble(s, env, out, error, size);
        break;
    case AMBER_SHADER_SPIRV_HEX:
        ok = decode_hex(s, out, error, size);
        break;
    case AMBER_SHADER_SPIRV_BIN:
        ok = s->source_length % 4 == 0 && s->source_length > 0;
        if (!ok) {
            snprintf(error, size, "SPIRV-BIN: %zu bytes is not a whole number of 32-bit words", s->source_length);
        } else if ((out->words = malloc(s->source_length)) == NULL) {
            snprintf(error, size, "out of memory");
            ok = false;
        } else {
            memcpy(out->words, s->source, s->source_length);
            out->count = s->source_length / 4;
        }
        break;
    case AMBER_SHADER_PASSTHROUGH:
        out->words = malloc(amber_spirv_passthrough_size);
        ok = out->words != NULL;
        if (ok) {
            memcpy(out->words, amber_spirv_passthrough, amber_spirv_passthrough_size);
            out->count = amber_spirv_passthrough_size / 4;
        }
        break;
    default:
        snprintf(error, size, "a shader format preflight does not compile");
        ok = false;
    }
    if (!ok) {
        amber_spirv_free(out);
        if (as_the_cts_assembles(s, spirv_1_4, out, error, size))
            return AMBER_COMPILE_OK;
        return tool ? AMBER_COMPILE_TOOL : AMBER_COMPILE_INPUT;
    }
    if (out->count < 5 || out->words[0] != 0x07230203u) {
        snprintf(error, size, "the shader is not SPIR-V (no magic number)");
        amber_spirv_free(out);
        return AMBER_COMPILE_INPUT;
    }
    versions_of(out);
    if (s->format == AMBER_SHADER_PASSTHROUGH)
        return AMBER_COMPILE_OK;
    /* validated as Amber does: in the target environment (universal SPIR-V 1.0 by default) */
    char what[96];
    snprintf(what, sizeof(what), "the SPIR-V is not valid (SPIRV-Tools %s, %s)", spvSoftwareVersionString(),
             target_env);
    if (validate(s, env, out, error, size, what))
        return AMBER_COMPILE_OK;
    if (as_the_cts_assembles(s, spirv_1_4, out, error, size))
        return AMBER_COMPILE_OK;
    return AMBER_COMPILE_TOOL;
}

bool amber_shader_compile(const struct amber_shader *s, struct amber_spirv *out, char *error, size_t size)
{
    return amber_shader_build(s, false, out, error, size) == AMBER_COMPILE_OK;
}

void amber_spirv_free(struct amber_spirv *spirv)
{
    free(spirv->words);
    spirv->words = NULL;
    spirv->count = 0;
}

/* --- SHADER_OPTIMIZATION ------------------------------------------------------------------- */

static bool executable(const char *path)
{
    return access(path, X_OK) == 0;
}

static bool find_spirv_opt(char *path, size_t size, char *error, size_t error_size)
{
    const char *named = getenv("PREFLIGHT_SPIRV_OPT");
    if (named != NULL && named[0] != '\0') {
        snprintf(path, size, "%s", named);
        if (executable(path))
            return true;
        snprintf(error, error_size,
                 "SHADER_OPTIMIZATION runs SPIRV-Tools' spirv-opt: PREFLIGHT_SPIRV_OPT=%s is no "
                 "program",
                 named);
        return false;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
    if (n > 0) {
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash != NULL) {
            *slash = '\0';
            if ((size_t)snprintf(path, size, "%s/spirv-opt", self) < size && executable(path))
                return true;
        }
    }
    const char *search = getenv("PATH");
    for (const char *at = search; at != NULL && *at;) {
        const char *end = strchr(at, ':');
        size_t length = end ? (size_t)(end - at) : strlen(at);
        if (length > 0 && (size_t)snprintf(path, size, "%.*s/spirv-opt", (int)length, at) < size && executable(path))
            return true;
        at = end ? end + 1 : NULL;
    }
    snprintf(error, error_size,
             "SHADER_OPTIMIZATION runs SPIRV-Tools' spirv-opt, and there is none (not in "
             "PREFLIGHT_SPIRV_OPT, beside the probe or on PATH)");
    return false;
}

static bool write_all(int fd, const void *data, size_t length)
{
    const char *at = data;
    while (length > 0) {
        ssize_t n = write(fd, at, length);
        if (n <= 0)
            return false;
        at += n;
        length -= (size_t)n;
    }
    return true;
}

/* The file's bytes, at most `limit`; NULL when it cannot be read. */
static char *read_all(const char *path, size_t limit, size_t *length)
{
    FILE *in = fopen(path, "rb");
    if (in == NULL)
        return NULL;
    char *data = malloc(limit + 1);
    *length = data ? fread(data, 1, limit, in) : 0;
    fclose(in);
    if (data != NULL)
        data[*length] = '\0';
    return data;
}

/* spirv-opt's message on one line */
static void tool_message(const char *path, char *error, size_t size)
{
    size_t length = 0;
    char *text = read_all(path, 4096, &length);
    for (size_t i = 0; text != NULL && i < length; ++i)
        if (text[i] == '\n' || text[i] == '\r')
            text[i] = ' ';
    while (text != NULL && length > 0 && text[length - 1] == ' ')
        text[--length] = '\0';
    snprintf(error, size, "SHADER_OPTIMIZATION: spirv-opt failed: %s", text && length ? text : "(no message)");
    free(text);
}

enum amber_optimize_result amber_shader_optimize(const struct amber_shader *s, const struct amber_spirv *in,
                                                 const char *passes, struct amber_spirv *out, char *error, size_t size)
{
    memset(out, 0, sizeof(*out));
    char tool[PATH_MAX];
    if (!find_spirv_opt(tool, sizeof(tool), error, size))
        return AMBER_OPTIMIZER_MISSING;
    const char *target_env = s->target_env[0] ? s->target_env : default_target(s);
    spv_target_env env;
    if (!spvParseTargetEnv(target_env, &env)) {
        snprintf(error, size, "TARGET_ENV %s is not one preflight knows", target_env);
        return AMBER_OPTIMIZER_FAILED;
    }
    const char *tmp = getenv("TMPDIR");
    char input[PATH_MAX], output[PATH_MAX + 8], messages[PATH_MAX + 8];
    snprintf(input, sizeof(input), "%s/preflight-amber-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(input);
    if (fd < 0) {
        snprintf(error, size, "SHADER_OPTIMIZATION: no temporary file in %s", tmp && *tmp ? tmp : "/tmp");
        return AMBER_OPTIMIZER_FAILED;
    }
    bool written = write_all(fd, in->words, in->count * 4);
    close(fd);
    snprintf(output, sizeof(output), "%s.out", input);
    snprintf(messages, sizeof(messages), "%s.log", input);
    /* argv: the tool, the target, each flag, the input, -o output */
    size_t flags = 0;
    for (const char *c = passes; *c; ++c)
        flags += *c == '\n';
    char *copy = strdup(passes);
    char **argv = calloc(flags + 6, sizeof(*argv));
    char env_flag[64];
    snprintf(env_flag, sizeof(env_flag), "--target-env=%s", target_env);
    enum amber_optimize_result result = AMBER_OPTIMIZER_FAILED;
    if (!written || copy == NULL || argv == NULL) {
        snprintf(error, size, "SHADER_OPTIMIZATION: %s", written ? "out of memory" : "the temporary file failed");
        goto done;
    }
    size_t argc = 0;
    argv[argc++] = tool;
    argv[argc++] = env_flag;
    for (char *line = strtok(copy, "\n"); line != NULL; line = strtok(NULL, "\n"))
        argv[argc++] = line;
    argv[argc++] = input;
    argv[argc++] = "-o";
    argv[argc++] = output;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, messages, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    pid_t pid;
    extern char **environ;
    int spawned = posix_spawn(&pid, tool, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    if (spawned != 0) {
        snprintf(error, size, "SHADER_OPTIMIZATION: %s could not be started: %s", tool, strerror(spawned));
        goto done;
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        tool_message(messages, error, size);
        goto done;
    }
    size_t length = 0;
    char *bytes = read_all(output, 64u << 20, &length);
    if (bytes == NULL || length < 20 || length % 4 != 0) {
        snprintf(error, size, "SHADER_OPTIMIZATION: spirv-opt wrote no SPIR-V module");
        free(bytes);
        goto done;
    }
    out->words = (uint32_t *)(void *)bytes;
    out->count = length / 4;
    versions_of(out);
    if (validate(s, env, out, error, size, "SHADER_OPTIMIZATION: the optimized SPIR-V is not valid (SPIRV-Tools)"))
        result = AMBER_OPTIMIZED;
done:
    unlink(input);
    unlink(output);
    unlink(messages);
    free(copy);
    free(argv);
    return result;
}
