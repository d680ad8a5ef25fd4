/* preflight-report: many probe reports into a feature matrix, diffs, release gates, fleet
 * limits, Vulkan Profiles, JUnit, and uploads. See docs/report-tool.md. */
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff.h"
#include "fleet_limits.h"
#include "expectations.h"
#include "expectations_import.h"
#include "gate.h"
#include "gate_report.h"
#include "json_file.h"
#include "junit.h"
#include "machine_check.h"
#include "matrix.h"
#include "profile_export.h"
#include "render.h"
#include "report.h"
#include "output_file.h"
#include "report_model.h"
#include "report_artifacts.h"
#include "report_read.h"
#include "sha256.h"
#include "text_file.h"
#include "text_safe.h"
#include "upload.h"

enum report_exit {
    EXIT_OK = 0,
    EXIT_CHECK_FAILED = 1, /* regressions, a failed gate, reports left in the spool */
    EXIT_USAGE = 2,
    EXIT_BAD_INPUT = 3, /* unreadable, malformed or wrong-schema input */
    EXIT_OUTPUT = 4,    /* the output could not be written */
    EXIT_LOST = 5,      /* upload: a report neither delivered nor spooled */
};

static const char usage_text[] =
    "usage: preflight-report COMMAND [options] ...\n"
    "\n"
    "  matrix [--format text|markdown|json|html] [--out FILE] [--only-differences] [--color|--no-color] REPORT...\n"
    "         the feature matrix: a column per device, declared beside verified per capability\n"
    "  diff [--format text|json] [--out FILE] [--force] OLD NEW\n"
    "         what changed between two reports of the same device; exit 1 on a regression\n"
    "  gate [--format text|json] [--out FILE] [--expectations FILE] REQUIREMENTS REPORT...\n"
    "         evaluate a requirements file per device; exit 1 if a device fails what is not expected\n"
    "  expectations check FILE | import [--fails F] [--flakes F] [--skips F] [--device PATTERN]\n"
    "         [--reason TEXT] [--until DATE] [--out FILE]\n"
    "         check an expectations file; turn Mesa CI's fails/flakes/skips lists into one\n"
    "  machine-check [--out FILE] CONFIG [REPORT]\n"
    "         whether the report's devices are the ones the machine is configured to have; exit 1 if not\n"
    "  fleet-limits [--out FILE] REPORT...\n"
    "         the most restrictive limits and features over the devices (the layer's target limits)\n"
    "  profile [--device N] [--out FILE] REPORT\n"
    "         a device's declared capabilities as a Vulkan Profiles JSON document\n"
    "  junit [--out FILE] REPORT...\n"
    "         smoke results as JUnit XML\n"
    "  upload --url URL [--token-file F] [--spool DIR] [--timeout S] [--retries N] [--backoff-ms N]\n"
    "         [--deadline S] [--ca-file F] [--artifacts DIR] [--flush] [--spool-list] [--spool-drop KEY|all]\n"
    "         [REPORT...]\n"
    "         POST reports (and the PNG artifacts they name) to a dashboard; what cannot be delivered is\n"
    "         spooled; --flush resends the spool.\n"
    "         The token comes from --token-file or PREFLIGHT_UPLOAD_TOKEN and is never printed.\n"
    "\n"
    "preflight-report COMMAND --help describes one command. A REPORT is a preflight.report/1 file or a\n"
    "`vulkaninfo --json` file (declared capabilities only); '-' reads one from standard input.\n"
    "Exit codes: 0 success, 1 the check failed (regression, failed gate, reports left in the spool),\n"
    "2 bad usage, 3 invalid input (unreadable, malformed or wrong-schema file), 4 output not written,\n"
    "5 a report could be neither delivered nor spooled (it is lost unless you act).\n";

static int usage_error(const char *format, const char *detail)
{
    fprintf(stderr, "preflight-report: ");
    fprintf(stderr, format, detail);
    fprintf(stderr, "\n(preflight-report --help lists the commands and options)\n");
    return EXIT_USAGE;
}

/* Options common to the commands: the output file, and the positional arguments. */
struct arguments {
    const char *out;
    const char *format;
    const char *url, *token_file, *spool, *ca_file, *spool_drop, *artifacts;
    const char *expectations, *fails, *flakes, *skips, *device_pattern, *reason, *until;
    double timeout, deadline;
    long retries, backoff_ms, device;
    bool only_differences, force, flush, spool_list;
    int color;               /* -1 auto */
    const char **positional; /* into argv: every one, however many (a fleet is any size) */
    int positional_count;
};

static bool parse_number(const char *text, double *out)
{
    char *end = NULL;
    errno = 0;
    *out = strtod(text, &end);
    return errno == 0 && end != text && *end == '\0';
}

/* Each option: its name, whether it takes a value, and the commands it belongs to (bits). */
enum {
    FOR_MATRIX = 1,
    FOR_DIFF = 2,
    FOR_GATE = 4,
    FOR_FLEET = 8,
    FOR_PROFILE = 16,
    FOR_JUNIT = 32,
    FOR_UPLOAD = 64,
    FOR_EXPECTATIONS = 128,
};
static const struct option_spec {
    const char *name;
    bool value;
    unsigned commands;
} option_table[] = {
    {"--out", true, FOR_MATRIX | FOR_DIFF | FOR_GATE | FOR_FLEET | FOR_PROFILE | FOR_JUNIT | FOR_EXPECTATIONS},
    {"--format", true, FOR_MATRIX | FOR_DIFF | FOR_GATE},
    {"--only-differences", false, FOR_MATRIX},
    {"--color", false, FOR_MATRIX},
    {"--no-color", false, FOR_MATRIX},
    {"--force", false, FOR_DIFF},
    {"--device", true, FOR_PROFILE | FOR_EXPECTATIONS},
    {"--expectations", true, FOR_GATE},
    {"--fails", true, FOR_EXPECTATIONS},
    {"--flakes", true, FOR_EXPECTATIONS},
    {"--skips", true, FOR_EXPECTATIONS},
    {"--reason", true, FOR_EXPECTATIONS},
    {"--until", true, FOR_EXPECTATIONS},
    {"--url", true, FOR_UPLOAD},
    {"--token-file", true, FOR_UPLOAD},
    {"--spool", true, FOR_UPLOAD},
    {"--ca-file", true, FOR_UPLOAD},
    {"--artifacts", true, FOR_UPLOAD},
    {"--timeout", true, FOR_UPLOAD},
    {"--retries", true, FOR_UPLOAD},
    {"--backoff-ms", true, FOR_UPLOAD},
    {"--deadline", true, FOR_UPLOAD},
    {"--flush", false, FOR_UPLOAD},
    {"--spool-list", false, FOR_UPLOAD},
    {"--spool-drop", true, FOR_UPLOAD},
};

/* A whole number in [min, max] (no fraction, no exponent tricks past the bound). */
static bool parse_whole(const char *text, long min, long max, long *out)
{
    double number;
    if (!parse_number(text, &number) || number != (double)(long long)number || number < (double)min ||
        number > (double)max)
        return false;
    *out = (long)number;
    return true;
}

static int parse_arguments(int argc, char **argv, struct arguments *a, const char *command, unsigned command_bit)
{
    memset(a, 0, sizeof(*a));
    a->positional = calloc((size_t)argc + 1, sizeof(*a->positional));
    if (a->positional == NULL)
        return usage_error("%s", "out of memory for the arguments");
    a->color = -1;
    a->timeout = 30;
    a->retries = 3;
    a->backoff_ms = 500;
    a->deadline = 600;
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i];
        if (arg[0] != '-' || arg[1] != '-' || strcmp(arg, "-") == 0) {
            a->positional[a->positional_count++] = arg;
            continue;
        }
        const struct option_spec *spec = NULL;
        for (size_t k = 0; k < sizeof(option_table) / sizeof(option_table[0]); ++k)
            if (strcmp(option_table[k].name, arg) == 0)
                spec = &option_table[k];
        if (spec == NULL)
            return usage_error("unknown option '%s'", arg);
        if (!(spec->commands & command_bit)) {
            char detail[160];
            snprintf(detail, sizeof(detail), "'%s' is not an option of %s", arg, command);
            return usage_error("%s", detail);
        }
        const char *value = NULL;
        if (spec->value) {
            if (i + 1 >= argc)
                return usage_error("missing value for %s", arg);
            value = argv[++i];
        }
        double number = 0;
        if (strcmp(arg, "--out") == 0) {
            a->out = value;
        } else if (strcmp(arg, "--format") == 0) {
            a->format = value;
        } else if (strcmp(arg, "--url") == 0) {
            a->url = value;
        } else if (strcmp(arg, "--token-file") == 0) {
            a->token_file = value;
        } else if (strcmp(arg, "--spool") == 0) {
            a->spool = value;
        } else if (strcmp(arg, "--ca-file") == 0) {
            a->ca_file = value;
        } else if (strcmp(arg, "--spool-drop") == 0) {
            a->spool_drop = value;
        } else if (strcmp(arg, "--artifacts") == 0) {
            a->artifacts = value;
        } else if (strcmp(arg, "--timeout") == 0) {
            if (!parse_number(value, &number) || !(number > 0) || !(number <= UPLOAD_MAX_TIMEOUT_SECONDS))
                return usage_error("--timeout needs seconds, more than 0 and at most 3600, not '%s'", value);
            a->timeout = number;
        } else if (strcmp(arg, "--deadline") == 0) {
            if (!parse_number(value, &number) || !(number > 0) || !(number <= UPLOAD_MAX_DEADLINE_SECONDS))
                return usage_error("--deadline needs seconds, more than 0 and at most 86400, not '%s'", value);
            a->deadline = number;
        } else if (strcmp(arg, "--retries") == 0) {
            if (!parse_whole(value, 0, UPLOAD_MAX_RETRIES, &a->retries))
                return usage_error("--retries needs a whole number from 0 to 100, not '%s'", value);
        } else if (strcmp(arg, "--backoff-ms") == 0) {
            if (!parse_whole(value, 0, UPLOAD_MAX_BACKOFF_MS, &a->backoff_ms))
                return usage_error("--backoff-ms needs a whole number of milliseconds from 0 to 30000, not '%s'",
                                   value);
        } else if (strcmp(arg, "--expectations") == 0) {
            a->expectations = value;
        } else if (strcmp(arg, "--fails") == 0) {
            a->fails = value;
        } else if (strcmp(arg, "--flakes") == 0) {
            a->flakes = value;
        } else if (strcmp(arg, "--skips") == 0) {
            a->skips = value;
        } else if (strcmp(arg, "--reason") == 0) {
            a->reason = value;
        } else if (strcmp(arg, "--until") == 0) {
            a->until = value;
        } else if (strcmp(arg, "--device") == 0 && command_bit == FOR_EXPECTATIONS) {
            a->device_pattern = value; /* a device pattern there, an index for profile */
        } else if (strcmp(arg, "--device") == 0) {
            if (!parse_whole(value, 0, 1L << 30, &a->device))
                return usage_error("--device needs a device index (0, 1, ...), not '%s'", value);
        } else if (strcmp(arg, "--only-differences") == 0) {
            a->only_differences = true;
        } else if (strcmp(arg, "--force") == 0) {
            a->force = true;
        } else if (strcmp(arg, "--flush") == 0) {
            a->flush = true;
        } else if (strcmp(arg, "--spool-list") == 0) {
            a->spool_list = true;
        } else if (strcmp(arg, "--color") == 0) {
            a->color = 1;
        } else if (strcmp(arg, "--no-color") == 0) {
            a->color = 0;
        }
    }
    return -1;
}

static bool load_reports_for(const char *const *paths, int count, cJSON **reports, bool drop_formats);

/* Loads every report named; on the first bad one prints why and returns false. */
static bool load_reports(const char *const *paths, int count, cJSON **reports)
{
    return load_reports_for(paths, count, reports, false);
}

/* The same for commands that hold a whole fleet but read no format properties (matrix, gate,
 * fleet-limits, junit): each report's `declared.formats`, three quarters of a report, is dropped
 * once the report is checked, so a fleet of 10,000 reports needs a quarter of the memory. */
static bool load_fleet(const char *const *paths, int count, cJSON **reports)
{
    return load_reports_for(paths, count, reports, true);
}

static bool load_reports_for(const char *const *paths, int count, cJSON **reports, bool drop_formats)
{
    for (int i = 0; i < count; ++i) {
        char error[1024];
        reports[i] = report_load(paths[i], error, sizeof(error));
        if (reports[i] != NULL && drop_formats) {
            const cJSON *device;
            REPORT_FOR_EACH_DEVICE(device, reports[i])
            {
                /* the matrix and the diff do not look at formats: the largest part of a report */
                cJSON_DeleteItemFromObjectCaseSensitive((cJSON *)report_declared(device), "formats");
            }
        }
        if (reports[i] == NULL) {
            fprintf(stderr, "preflight-report: %s\n", error);
            for (int j = 0; j < i; ++j)
                cJSON_Delete(reports[j]);
            return false;
        }
    }
    return true;
}

static void free_reports(cJSON **reports, int count)
{
    for (int i = 0; i < count; ++i)
        cJSON_Delete(reports[i]);
}

/* The same for a list allocated for the command's reports, and the list. */
static void free_report_list(cJSON **reports, int count)
{
    free_reports(reports, count);
    free(reports);
}

/* Output through output_file.h: devices, FIFOs and "-" written directly, files replaced whole. */
struct output {
    struct output_file o;
    FILE *file;
};

static bool open_output(struct output *out, const char *path)
{
    char error[4400];
    if (!output_open(&out->o, path, error, sizeof(error))) {
        fprintf(stderr, "preflight-report: %s\n", error);
        return false;
    }
    out->file = out->o.file;
    return true;
}

static int close_output(struct output *out)
{
    char error[4400];
    if (!output_commit(&out->o, error, sizeof(error))) {
        fprintf(stderr, "preflight-report: %s\n", error);
        return EXIT_OUTPUT;
    }
    return EXIT_OK;
}

static int write_json(const cJSON *json, const char *path)
{
    struct output out;
    if (!open_output(&out, path))
        return EXIT_OUTPUT;
    char *text = cJSON_Print(json);
    if (text != NULL) {
        fputs(text, out.file);
        fputc('\n', out.file);
    }
    free(text);
    return close_output(&out);
}

static int command_matrix(struct arguments *a)
{
    if (a->positional_count == 0)
        return usage_error("%s", "matrix needs at least one REPORT");
    const char *format = a->format ? a->format : "text";
    if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "json") && strcmp(format, "html"))
        return usage_error("unknown format '%s' (text, markdown, json, html)", format);
    cJSON **reports = calloc((size_t)a->positional_count + 1, sizeof(*reports));
    if (reports == NULL)
        return EXIT_OUTPUT;
    if (!load_fleet(a->positional, a->positional_count, reports)) {
        free(reports);
        return EXIT_BAD_INPUT;
    }
    struct matrix *m = matrix_build(reports, (size_t)a->positional_count);
    struct output out;
    int status = EXIT_OUTPUT;
    if (m != NULL && open_output(&out, a->out)) {
        bool color = a->color >= 0 ? a->color == 1 : (out.file == stdout && isatty(STDOUT_FILENO));
        if (strcmp(format, "text") == 0)
            render_text(m, out.file, color, a->only_differences);
        else if (strcmp(format, "markdown") == 0)
            render_markdown(m, out.file, a->only_differences);
        else if (strcmp(format, "json") == 0)
            render_json(m, out.file);
        else
            render_html(m, out.file);
        status = close_output(&out);
    }
    matrix_free(m);
    free_report_list(reports, a->positional_count);
    return status;
}

/* One change as the text output shows it: flag sets by the bits lost and gained, verdicts with
 * the new verdict's reason. */
static void print_change(const struct diff_change *c)
{
    char what[512], before[512], after[512], bits[2200], reason[512];
    text_safe(c->what, what, sizeof(what));
    if (c->flags) {
        char lost[1100], gained[1100];
        snprintf(bits, sizeof(bits), "%s%s%s%s", c->lost[0] ? "lost " : "", text_safe(c->lost, lost, sizeof(lost)),
                 c->lost[0] && c->gained[0] ? "; " : "", c->gained[0] ? "gained " : "");
        size_t at = strlen(bits);
        snprintf(bits + at, sizeof(bits) - at, "%s", c->gained[0] ? text_safe(c->gained, gained, sizeof(gained)) : "");
        printf("  %-10s %-12s %s: %s\n", c->regression ? "REGRESSION" : "changed", c->kind, what,
               bits[0] ? bits : "(the same bits)");
        return;
    }
    printf("  %-10s %-12s %s: %s -> %s%s%s%s\n", c->regression ? "REGRESSION" : "changed", c->kind, what,
           text_safe(c->before, before, sizeof(before)), text_safe(c->after, after, sizeof(after)),
           c->reason[0] ? " (" : "", text_safe(c->reason, reason, sizeof(reason)), c->reason[0] ? ")" : "");
}

static cJSON *bits_array(const char *joined)
{
    cJSON *array = cJSON_CreateArray();
    char copy[1024];
    snprintf(copy, sizeof(copy), "%s", joined);
    char *save = NULL;
    for (char *bit = strtok_r(copy, "|", &save); bit != NULL; bit = strtok_r(NULL, "|", &save))
        cJSON_AddItemToArray(array, cJSON_CreateString(bit));
    return array;
}

static cJSON *change_json(const struct diff_change *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", c->kind);
    cJSON_AddStringToObject(o, "what", c->what);
    cJSON_AddBoolToObject(o, "regression", c->regression);
    if (c->flags) {
        cJSON_AddItemToObject(o, "lost", bits_array(c->lost));
        cJSON_AddItemToObject(o, "gained", bits_array(c->gained));
    } else {
        cJSON_AddStringToObject(o, "before", c->before);
        cJSON_AddStringToObject(o, "after", c->after);
    }
    if (c->reason[0] != '\0')
        cJSON_AddStringToObject(o, "reason", c->reason);
    return o;
}

static int command_diff(struct arguments *a)
{
    if (a->positional_count != 2)
        return usage_error("%s", "diff needs exactly two reports: OLD NEW");
    if (a->format != NULL && strcmp(a->format, "text") != 0 && strcmp(a->format, "json") != 0)
        return usage_error("unknown format '%s' for diff (text, json)", a->format);
    bool json = a->format != NULL && strcmp(a->format, "json") == 0;
    cJSON *reports[2];
    if (!load_reports(a->positional, 2, reports))
        return EXIT_BAD_INPUT;
    cJSON *result = cJSON_CreateObject(), *devices = cJSON_AddArrayToObject(result, "devices");
    cJSON *unpaired = cJSON_AddArrayToObject(result, "not_in_new");
    int status = EXIT_OK, paired = 0;
    char key[2][256];
    const cJSON *before;
    REPORT_FOR_EACH_DEVICE(before, reports[0])
    {
        const cJSON *after = NULL, *candidate;
        REPORT_FOR_EACH_DEVICE(candidate, reports[1])
        {
            if (strcmp(report_device_key(candidate), report_device_key(before)) == 0)
                after = candidate;
        }
        if (after == NULL && a->force && report_device_count(reports[1]) == 1)
            after = report_device_at(reports[1], 0);
        if (after == NULL) {
            if (json)
                cJSON_AddItemToArray(unpaired, cJSON_CreateString(report_device_key(before)));
            else
                printf("device %s: not in %s\n", text_safe(report_device_key(before), key[0], sizeof(key[0])),
                       text_safe(a->positional[1], key[1], sizeof(key[1])));
            continue;
        }
        ++paired;
        struct diff d;
        diff_devices(before, after, &d);
        cJSON *device = NULL, *changes = NULL;
        if (json) {
            device = cJSON_CreateObject();
            cJSON_AddStringToObject(device, "before", report_device_key(before));
            cJSON_AddStringToObject(device, "after", report_device_key(after));
            changes = cJSON_AddArrayToObject(device, "changes");
            cJSON_AddNumberToObject(device, "regressions", (double)d.regressions);
            cJSON_AddNumberToObject(device, "other_changes", (double)(d.count - d.regressions));
            cJSON_AddItemToArray(devices, device);
        } else {
            printf("device %s -> %s\n", text_safe(report_device_key(before), key[0], sizeof(key[0])),
                   text_safe(report_device_key(after), key[1], sizeof(key[1])));
        }
        for (int pass = 0; pass < 2; ++pass) { /* regressions first */
            for (size_t i = 0; i < d.count; ++i) {
                const struct diff_change *c = &d.changes[i];
                if (c->regression != (pass == 0))
                    continue;
                if (json)
                    cJSON_AddItemToArray(changes, change_json(c));
                else
                    print_change(c);
            }
        }
        if (!json)
            printf("  %zu regressions, %zu other changes\n", d.regressions, d.count - d.regressions);
        if (d.regressions > 0)
            status = EXIT_CHECK_FAILED;
        diff_free(&d);
    }
    if (json && paired > 0) {
        int written = write_json(result, a->out);
        if (written != EXIT_OK)
            status = written;
    }
    cJSON_Delete(result);
    if (paired == 0) {
        fprintf(stderr, "preflight-report: the two reports share no device (deviceKey); --force compares the "
                        "first device of OLD with the only device of NEW\n");
        status = EXIT_BAD_INPUT;
    }
    free_reports(reports, 2);
    return status;
}

static struct expectations *load_expectations(const char *path)
{
    char *text = text_file_read(path, "an expectations file"), error[512];
    struct expectations *e = text ? expectations_parse(text, error, sizeof(error)) : NULL;
    if (text != NULL && e == NULL)
        fprintf(stderr, "preflight-report: %s: %s\n", path, error);
    free(text);
    return e;
}

static int command_gate(struct arguments *a)
{
    if (a->positional_count < 2)
        return usage_error("%s", "gate needs a REQUIREMENTS file and at least one REPORT");
    if (a->format != NULL && strcmp(a->format, "text") != 0 && strcmp(a->format, "json") != 0)
        return usage_error("unknown format '%s' for gate (text, json)", a->format);
    char error[512];
    char *text = text_file_read(a->positional[0], "a requirements file");
    if (text == NULL)
        return EXIT_BAD_INPUT;
    struct gate *g = gate_parse(text, error, sizeof(error));
    free(text);
    if (g == NULL) {
        fprintf(stderr, "preflight-report: %s: %s\n", a->positional[0], error);
        return EXIT_BAD_INPUT;
    }
    struct expectations *e = a->expectations ? load_expectations(a->expectations) : NULL;
    cJSON **reports = calloc((size_t)a->positional_count + 1, sizeof(*reports));
    int count = a->positional_count - 1;
    if ((a->expectations && e == NULL) || reports == NULL || !load_fleet(a->positional + 1, count, reports)) {
        gate_free(g);
        expectations_free(e);
        free(reports);
        return reports == NULL ? EXIT_OUTPUT : EXIT_BAD_INPUT;
    }
    /* every device to be gated, for the check that each test-id rule names a test */
    size_t device_count = 0;
    for (int r = 0; r < count; ++r)
        device_count += report_device_count(reports[r]);
    const cJSON **all = calloc(device_count + 1, sizeof(*all));
    size_t at = 0;
    for (int r = 0; all != NULL && r < count; ++r) {
        const cJSON *device;
        REPORT_FOR_EACH_DEVICE(device, reports[r]) all[at++] = device;
    }
    int status = all ? EXIT_BAD_INPUT : EXIT_OUTPUT;
    if (all == NULL || !gate_check_tests(g, all, device_count, error, sizeof(error))) {
        fprintf(stderr, "preflight-report: %s: %s\n", a->positional[0], all ? error : "out of memory");
    } else {
        char today[11];
        expectations_today(today);
        cJSON *result = gate_report_build(g, e, today, all, device_count);
        int passed = (int)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(result, "passed"));
        status = passed < (int)device_count ? EXIT_CHECK_FAILED : EXIT_OK;
        int written = EXIT_OK;
        if (a->format != NULL && strcmp(a->format, "json") == 0) {
            cJSON_AddStringToObject(result, "requirements", a->positional[0]);
            if (a->expectations)
                cJSON_AddStringToObject(result, "expectations", a->expectations);
            cJSON_AddNumberToObject(result, "rules", (double)gate_rule_count(g));
            written = write_json(result, a->out);
        } else {
            struct output out;
            written = EXIT_OUTPUT;
            if (open_output(&out, a->out)) { /* text goes to --out too (standard output without it) */
                char safe[512];
                gate_report_write_text(result, out.file);
                fprintf(out.file, "%d of %zu devices meet the %zu requirements of %s\n", passed, device_count,
                        gate_rule_count(g), text_safe(a->positional[0], safe, sizeof(safe)));
                written = close_output(&out);
            }
        }
        if (written != EXIT_OK)
            status = written;
        cJSON_Delete(result);
    }
    free(all);
    gate_free(g);
    expectations_free(e);
    free_report_list(reports, count);
    return status;
}

/* expectations check FILE: the file parsed (errors with their line); expectations import: Mesa's lists. */
static int command_expectations(struct arguments *a)
{
    if (a->positional_count == 2 && strcmp(a->positional[0], "check") == 0) {
        struct expectations *e = load_expectations(a->positional[1]);
        if (e == NULL)
            return EXIT_BAD_INPUT;
        char today[11];
        expectations_today(today);
        cJSON *expired = cJSON_CreateArray();
        expectations_expired(e, today, expired);
        printf("%zu expectations, %d expired\n", expectations_count(e), cJSON_GetArraySize(expired));
        cJSON_Delete(expired);
        expectations_free(e);
        return EXIT_OK;
    }
    if (a->positional_count != 1 || strcmp(a->positional[0], "import") != 0)
        return usage_error("%s", "expectations needs 'check FILE' or 'import --fails F --flakes F --skips F'");
    if (!a->fails && !a->flakes && !a->skips)
        return usage_error("%s", "expectations import needs --fails, --flakes or --skips");
    char error[512];
    struct expectation pattern = {0};
    const char *conditions = a->device_pattern ? a->device_pattern : "";
    if (!expectation_parse_conditions(conditions, 1, &pattern, error, sizeof(error)))
        return usage_error("--device: %s", strchr(error, ':') ? strchr(error, ':') + 2 : error);
    if (pattern.reason[0] || pattern.until[0])
        return usage_error("%s", "--device holds the device pattern only: give --reason and --until apart");
    struct expectation check = {0};
    char until[64];
    snprintf(until, sizeof(until), "until=%s", a->until ? a->until : "2000-01-01");
    if (!expectation_parse_conditions(until, 1, &check, error, sizeof(error)))
        return usage_error("--until needs a date YYYY-MM-DD, not '%s'", a->until);
    struct output out;
    if (!open_output(&out, a->out))
        return EXIT_OUTPUT;
    const struct {
        const char *path;
        enum expectation_kind kind;
    } lists[] = {{a->fails, EXPECTATION_FAIL}, {a->flakes, EXPECTATION_FLAKE}, {a->skips, EXPECTATION_SKIP}};
    fprintf(out.file, "# imported by preflight-report expectations import (docs/expectations.md)\n");
    int status = EXIT_OK;
    for (size_t i = 0; i < 3 && status == EXIT_OK; ++i) {
        if (lists[i].path == NULL)
            continue;
        char *text = text_file_read(lists[i].path, "a Mesa expectations list");
        size_t written = 0;
        if (text == NULL ||
            !expectations_import_mesa(lists[i].kind, text, lists[i].path, conditions, a->reason ? a->reason : "",
                                      a->until, out.file, &written, error, sizeof(error))) {
            if (text != NULL)
                fprintf(stderr, "preflight-report: %s\n", error);
            status = EXIT_BAD_INPUT;
        }
        free(text);
    }
    if (status != EXIT_OK) {
        output_abandon(&out.o);
        return status;
    }
    return close_output(&out);
}

static int command_fleet_limits(struct arguments *a)
{
    if (a->positional_count == 0)
        return usage_error("%s", "fleet-limits needs at least one REPORT");
    cJSON **reports = calloc((size_t)a->positional_count + 1, sizeof(*reports));
    if (reports == NULL)
        return EXIT_OUTPUT;
    if (!load_fleet(a->positional, a->positional_count, reports)) {
        free(reports);
        return EXIT_BAD_INPUT;
    }
    cJSON *fleet = fleet_limits_build(reports, (size_t)a->positional_count);
    int status = fleet != NULL ? write_json(fleet, a->out) : EXIT_OUTPUT;
    cJSON_Delete(fleet);
    free_report_list(reports, a->positional_count);
    return status;
}

static int command_profile(struct arguments *a)
{
    if (a->positional_count != 1)
        return usage_error("%s", "profile needs exactly one REPORT");
    cJSON *report;
    if (!load_reports(a->positional, 1, &report))
        return EXIT_BAD_INPUT;
    const cJSON *device = a->device >= 0 ? report_device_at(report, (size_t)a->device) : NULL;
    int status;
    if (device == NULL) {
        fprintf(stderr, "preflight-report: %s has no device %ld\n", a->positional[0], a->device);
        status = EXIT_BAD_INPUT;
    } else {
        cJSON *profile = profile_export(device);
        status = write_json(profile, a->out);
        cJSON_Delete(profile);
    }
    cJSON_Delete(report);
    return status;
}

static int command_junit(struct arguments *a)
{
    if (a->positional_count == 0)
        return usage_error("%s", "junit needs at least one REPORT");
    cJSON **reports = calloc((size_t)a->positional_count + 1, sizeof(*reports));
    if (reports == NULL)
        return EXIT_OUTPUT;
    if (!load_fleet(a->positional, a->positional_count, reports)) {
        free(reports);
        return EXIT_BAD_INPUT;
    }
    struct output out;
    int status = EXIT_OUTPUT;
    if (open_output(&out, a->out)) {
        junit_write(reports, (size_t)a->positional_count, out.file);
        status = close_output(&out);
    }
    free_report_list(reports, a->positional_count);
    return status;
}

/* The first line of the token file, or PREFLIGHT_UPLOAD_TOKEN; NULL for none. */
/* The token from --token-file (its trailing whitespace trimmed) or PREFLIGHT_UPLOAD_TOKEN (none:
 * ""). A token with control characters (a CR/LF would end the Authorization header and start
 * another) or an empty one given is refused. The token is never printed. */
static int read_token(const char *path, char *token, size_t size)
{
    token[0] = '\0';
    const char *from = path ? path : "PREFLIGHT_UPLOAD_TOKEN";
    if (path == NULL) {
        const char *env = getenv("PREFLIGHT_UPLOAD_TOKEN");
        if (env == NULL)
            return EXIT_OK;
        if (strlen(env) >= size) {
            fprintf(stderr, "preflight-report: the token in PREFLIGHT_UPLOAD_TOKEN is longer than %zu bytes\n",
                    size - 1);
            return EXIT_USAGE;
        }
        snprintf(token, size, "%s", env);
    } else {
        FILE *f = fopen(path, "r");
        if (f == NULL) {
            fprintf(stderr, "preflight-report: cannot read the token file %s: %s\n", path, strerror(errno));
            return EXIT_BAD_INPUT;
        }
        size_t n = fread(token, 1, size - 1, f);
        bool more = fgetc(f) != EOF;
        fclose(f);
        token[n] = '\0';
        if (more) {
            fprintf(stderr, "preflight-report: the token file %s is longer than %zu bytes\n", path, size - 1);
            return EXIT_BAD_INPUT;
        }
        while (n > 0 && (token[n - 1] == '\n' || token[n - 1] == '\r' || token[n - 1] == ' ' || token[n - 1] == '\t'))
            token[--n] = '\0';
    }
    if (token[0] == '\0') {
        fprintf(stderr, "preflight-report: the token from %s is empty\n", from);
        return path ? EXIT_BAD_INPUT : EXIT_USAGE;
    }
    for (const unsigned char *c = (const unsigned char *)token; *c; ++c)
        if (*c < 0x20 || *c == 0x7F) {
            fprintf(stderr,
                    "preflight-report: the token from %s holds a control character (a line break?); "
                    "refused, not sent\n",
                    from);
            memset(token, 0, size);
            return path ? EXIT_BAD_INPUT : EXIT_USAGE;
        }
    return EXIT_OK;
}

static int command_upload(struct arguments *a)
{
    char spool[4096];
    if (a->spool)
        snprintf(spool, sizeof(spool), "%s", a->spool);
    else
        spool_default_dir(spool, sizeof(spool));
    if (a->spool_list || a->spool_drop != NULL) { /* the spool alone: no server involved */
        if (a->url != NULL || a->flush || a->positional_count > 0 || (a->spool_list && a->spool_drop != NULL))
            return usage_error("%s", "--spool-list and --spool-drop go alone (with --spool)");
        if (a->spool_list) {
            int n = spool_list(spool);
            fprintf(stderr, "spool %s: %d report(s)\n", spool, n);
            return EXIT_OK;
        }
        char error[512];
        int dropped = 0;
        if (!spool_drop(spool, a->spool_drop, &dropped, error, sizeof(error))) {
            fprintf(stderr, "preflight-report: %s\n", error);
            return EXIT_BAD_INPUT;
        }
        fprintf(stderr, "spool %s: %d report(s) dropped\n", spool, dropped);
        return EXIT_OK;
    }
    if (a->url == NULL)
        return usage_error("%s", "upload needs --url URL");
    if (!a->flush && a->positional_count == 0)
        return usage_error("%s", "upload needs REPORT files, or --flush");
    char url_error[256];
    if (!upload_url_valid(a->url, url_error, sizeof(url_error)))
        return usage_error("%s", url_error);
    if (a->ca_file != NULL && access(a->ca_file, R_OK) != 0) {
        char detail[4300];
        snprintf(detail, sizeof(detail), "--ca-file %.4000s: %s", a->ca_file, strerror(errno));
        return usage_error("%s", detail);
    }
    char token[4096];
    int token_status = read_token(a->token_file, token, sizeof(token));
    if (token_status != EXIT_OK)
        return token_status;
    struct upload_options o = {
        .url = a->url,
        .token = token[0] ? token : NULL,
        .spool_dir = spool,
        .ca_file = a->ca_file,
        .timeout_seconds = a->timeout,
        .retries = (int)a->retries,
        .backoff_ms = a->backoff_ms,
        .deadline_ms = upload_now_ms() + a->deadline * 1000.0,
        .progress = true,
    };
    curl_global_init(CURL_GLOBAL_DEFAULT);
    int left = 0, lost = 0, status = EXIT_OK;
    for (int i = 0; i < a->positional_count; ++i) {
        char error[1024];
        size_t length = 0;
        char *body = json_file_read(a->positional[i], JSON_FILE_MAX_BYTES, &length, error, sizeof(error));
        cJSON *report = body ? report_parse(body, length, a->positional[i], error, sizeof(error)) : NULL;
        if (report == NULL) {
            fprintf(stderr, "preflight-report: %s\n", error);
            free(body);
            status = EXIT_BAD_INPUT;
            continue;
        }
        char key[65], message[1024], artifacts[4200];
        sha256_hex(body, length, key);
        report_artifacts_dir(a->artifacts, a->positional[i], artifacts, sizeof(artifacts));
        enum upload_outcome outcome = upload_send(&o, body, length, key, message, sizeof(message));
        fprintf(stderr, "%s: %s\n", a->positional[i], message);
        if (outcome == UPLOAD_DELIVERED || outcome == UPLOAD_ALREADY_THERE) {
            outcome = upload_send_artifacts(&o, report, key, artifacts, message, sizeof(message));
            fprintf(stderr, "%s: %s\n", a->positional[i], message);
        }
        if (outcome == UPLOAD_FAILED || outcome == UPLOAD_REFUSED) {
            if (spool_store(spool, key, body, length, error, sizeof(error)) &&
                spool_store_artifacts(spool, key, report, artifacts, error, sizeof(error)) >= 0) {
                fprintf(stderr, "%s: kept in %s/%s.json for `upload --flush`%s\n", a->positional[i], spool, key,
                        outcome == UPLOAD_REFUSED ? " (refused for good: fix the cause, or `upload --spool-drop KEY`)"
                                                  : "");
                ++left;
            } else {
                fprintf(stderr,
                        "preflight-report: %s\n%s: NOT DELIVERED AND NOT SPOOLED: the report exists only "
                        "in %s now\n",
                        error, a->positional[i], a->positional[i]);
                ++lost;
            }
        }
        cJSON_Delete(report);
        free(body);
    }
    if (a->flush) {
        int delivered = 0, remaining = spool_flush(&o, &delivered);
        left += remaining;
        fprintf(stderr, "spool %s: %d delivered, %d left\n", spool, delivered, remaining);
    }
    memset(token, 0, sizeof(token));
    curl_global_cleanup();
    if (lost > 0)
        return EXIT_LOST;
    if (status != EXIT_OK)
        return status;
    return left ? EXIT_CHECK_FAILED : EXIT_OK;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? EXIT_USAGE : EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("preflight-report %s\n", PREFLIGHT_VERSION);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "machine-check") == 0)
        return machine_check_command(argc - 2, argv + 2);
    static const struct {
        const char *name;
        int (*run)(struct arguments *);
        unsigned bit;
        const char *help;
    } commands[] = {
        {"matrix", command_matrix, FOR_MATRIX,
         "usage: preflight-report matrix [--format text|markdown|json|html] [--out FILE] [--only-differences]\n"
         "                               [--color|--no-color] REPORT...\n"
         "The feature matrix: a column per device of every report, a row per capability, each cell what the\n"
         "device declares beside what a GPU test verified; rows that differ between devices are marked.\n"
         "  --format F          text (default, device names in full above numbered columns), markdown, json, html\n"
         "                      (one self-contained page: filters, sorting, reasons and evidence as tooltips)\n"
         "  --out FILE          write there ('-': standard output, the default)\n"
         "  --only-differences  only the rows that differ\n"
         "  --color, --no-color color the verdicts (default: when standard output is a terminal)\n"},
        {"diff", command_diff, FOR_DIFF,
         "usage: preflight-report diff [--format text|json] [--out FILE] [--force] OLD NEW\n"
         "What changed between two reports of the same devices (by deviceKey): extensions, features, limits\n"
         "(flag sets by the bits lost and gained), formats, smoke verdicts (with the new reason) and\n"
         "spec-minimum violations. Exit 1 when something got worse.\n"
         "  --format F  text (default) or json\n"
         "  --force     compare the first device of OLD with the only device of NEW even if their keys differ\n"},
        {"gate", command_gate, FOR_GATE,
         "usage: preflight-report gate [--format text|json] [--out FILE] [--expectations FILE] REQUIREMENTS\n"
         "                             REPORT...\n"
         "Evaluates a requirements file (docs/report-tool.md) on every device; exit 1 if one fails, exit 3\n"
         "if the requirements or expectations are malformed or name a limit, feature, extension or test that\n"
         "does not exist.\n"
         "  --format F            text (default) or json\n"
         "  --expectations FILE   known failures, flakes and skips per device (docs/expectations.md): what\n"
         "                        they expect does not fail the gate; unexpected passes (stale entries) and\n"
         "                        expired entries are listed\n"},
        {"expectations", command_expectations, FOR_EXPECTATIONS,
         "usage: preflight-report expectations check FILE\n"
         "       preflight-report expectations import [--fails F] [--flakes F] [--skips F] [--device PATTERN]\n"
         "                                            [--reason TEXT] [--until YYYY-MM-DD] [--out FILE]\n"
         "check: parses an expectations file (docs/expectations.md); exit 3 with the line of the first error.\n"
         "import: Mesa CI's fails.txt (TEST,RESULT), flakes.txt and skips.txt (regular expressions) as\n"
         "expectations for the devices PATTERN names (the conditions of an expectations line, e.g.\n"
         "'vendor=amd driver=24.2..'); written to --out or standard output.\n"},
        {"fleet-limits", command_fleet_limits, FOR_FLEET,
         "usage: preflight-report fleet-limits [--out FILE] REPORT...\n"
         "The most restrictive value of each limit and feature over every device (preflight.fleet-limits/1),\n"
         "with the devices that set it: the layer's target_limits setting reads it.\n"},
        {"profile", command_profile, FOR_PROFILE,
         "usage: preflight-report profile [--device N] [--out FILE] REPORT\n"
         "One device's declared capabilities as a Vulkan Profiles JSON document.\n"
         "  --device N  the device's index in the report (default 0)\n"},
        {"junit", command_junit, FOR_JUNIT,
         "usage: preflight-report junit [--out FILE] REPORT...\n"
         "Smoke results as JUnit XML: a test suite per device, a test case per smoke test.\n"},
        {"upload", command_upload, FOR_UPLOAD,
         "usage: preflight-report upload --url URL [--token-file F] [--spool DIR] [--timeout S] [--retries N]\n"
         "                               [--backoff-ms N] [--deadline S] [--ca-file F] [--artifacts DIR]\n"
         "                               [--flush] REPORT...\n"
         "       preflight-report upload [--spool DIR] --spool-list | --spool-drop KEY|all\n"
         "POSTs reports to a dashboard (docs/upload-http.md), then PUTs the PNG artifacts each one names;\n"
         "what is not delivered is kept in the spool.\n"
         "  --url URL         http:// or https:// endpoint\n"
         "  --token-file F    the bearer token (trailing whitespace trimmed); else PREFLIGHT_UPLOAD_TOKEN\n"
         "  --spool DIR       the spool (default $PREFLIGHT_SPOOL, else ~/.cache/preflight/spool)\n"
         "  --timeout S       per request, up to 3600 (default 30)\n"
         "  --retries N       retries of a failed attempt, 0 to 100 (default 3)\n"
         "  --backoff-ms N    the first wait, doubled per retry up to 30000 ms (default 500)\n"
         "  --deadline S      no attempt starts after S seconds; the rest is spooled (default 600)\n"
         "  --ca-file F       the CA certificates to verify the server with (must be readable)\n"
         "  --artifacts DIR   where the reports' PNG artifacts are (preflight-probe --artifacts); default:\n"
         "                    the folder 'artifacts' beside the report, else the report's own folder\n"
         "  --flush           also resend the spooled reports (each checked first)\n"
         "  --spool-list      list the spooled reports (key, size, date, devices)\n"
         "  --spool-drop K    delete the spooled report K (or 'all'): for one the server refuses for good\n"
         "Exit: 0 all delivered, 1 some left in the spool, 2 usage, 3 invalid report, 5 a report lost\n"
         "(neither delivered nor spooled).\n"},
    };
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); ++i) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        for (int k = 2; k < argc; ++k)
            if (strcmp(argv[k], "--help") == 0 || strcmp(argv[k], "-h") == 0) {
                fputs(commands[i].help, stdout);
                return EXIT_OK;
            }
        struct arguments a;
        int status = parse_arguments(argc - 2, argv + 2, &a, commands[i].name, commands[i].bit);
        if (status < 0)
            status = commands[i].run(&a);
        free(a.positional);
        return status;
    }
    return usage_error("unknown command '%s'", argv[1]);
}
