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
#include "gate.h"
#include "junit.h"
#include "matrix.h"
#include "profile_export.h"
#include "render.h"
#include "report.h"
#include "output_file.h"
#include "report_read.h"
#include "sha256.h"
#include "text_safe.h"
#include "upload.h"

enum report_exit {
    EXIT_OK = 0,
    EXIT_CHECK_FAILED = 1, /* regressions, a failed gate, reports left in the spool */
    EXIT_USAGE = 2,
    EXIT_BAD_INPUT = 3,    /* unreadable, malformed or wrong-schema input */
    EXIT_OUTPUT = 4,       /* the output could not be written */
};

static const char usage_text[] =
    "usage: preflight-report COMMAND [options] ...\n"
    "\n"
    "  matrix [--format text|markdown|json|html] [--out FILE] [--only-differences] [--color|--no-color] REPORT...\n"
    "         the feature matrix: a column per device, declared beside verified per capability\n"
    "  diff [--force] OLD NEW\n"
    "         what changed between two reports of the same device; exit 1 on a regression\n"
    "  gate REQUIREMENTS REPORT...\n"
    "         evaluate a requirements file per device; exit 1 if a device fails\n"
    "  fleet-limits [--out FILE] REPORT...\n"
    "         the most restrictive limits and features over the devices (the layer's target limits)\n"
    "  profile [--device N] [--out FILE] REPORT\n"
    "         a device's declared capabilities as a Vulkan Profiles JSON document\n"
    "  junit [--out FILE] REPORT...\n"
    "         smoke results as JUnit XML\n"
    "  upload --url URL [--token-file F] [--spool DIR] [--timeout S] [--retries N] [--backoff-ms N]\n"
    "         [--ca-file F] [--flush] [REPORT...]\n"
    "         POST reports to a dashboard; what cannot be delivered is spooled; --flush resends the spool.\n"
    "         The token comes from --token-file or PREFLIGHT_UPLOAD_TOKEN and is never printed.\n"
    "\n"
    "A REPORT is a preflight.report/1 file or a `vulkaninfo --json` file (declared capabilities only).\n"
    "Exit codes: 0 success, 1 the check failed (regression, failed gate, reports left in the spool),\n"
    "2 bad usage, 3 invalid input (unreadable, malformed or wrong-schema file), 4 output not written.\n";

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
    const char *url, *token_file, *spool, *ca_file;
    double timeout;
    long retries, backoff_ms, device;
    bool only_differences, force, flush;
    int color; /* -1 auto */
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

static int parse_arguments(int argc, char **argv, struct arguments *a)
{
    memset(a, 0, sizeof(*a));
    a->positional = calloc((size_t)argc + 1, sizeof(*a->positional));
    if (a->positional == NULL)
        return usage_error("%s", "out of memory for the arguments");
    a->color = -1;
    a->timeout = 30;
    a->retries = 3;
    a->backoff_ms = 500;
    for (int i = 0; i < argc; ++i) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        double number = 0;
        if (strcmp(arg, "--out") == 0 || strcmp(arg, "--format") == 0 || strcmp(arg, "--url") == 0 ||
            strcmp(arg, "--token-file") == 0 || strcmp(arg, "--spool") == 0 || strcmp(arg, "--ca-file") == 0 ||
            strcmp(arg, "--timeout") == 0 || strcmp(arg, "--retries") == 0 || strcmp(arg, "--backoff-ms") == 0 ||
            strcmp(arg, "--device") == 0) {
            if (value == NULL)
                return usage_error("missing value for %s", arg);
            ++i;
            if (strcmp(arg, "--out") == 0)
                a->out = value;
            else if (strcmp(arg, "--format") == 0)
                a->format = value;
            else if (strcmp(arg, "--url") == 0)
                a->url = value;
            else if (strcmp(arg, "--token-file") == 0)
                a->token_file = value;
            else if (strcmp(arg, "--spool") == 0)
                a->spool = value;
            else if (strcmp(arg, "--ca-file") == 0)
                a->ca_file = value;
            else if (!parse_number(value, &number) || number < 0)
                return usage_error("%s needs a non-negative number", arg);
            else if (strcmp(arg, "--timeout") == 0)
                a->timeout = number;
            else if (strcmp(arg, "--retries") == 0)
                a->retries = (long)number;
            else if (strcmp(arg, "--backoff-ms") == 0)
                a->backoff_ms = (long)number;
            else
                a->device = (long)number;
        } else if (strcmp(arg, "--only-differences") == 0) {
            a->only_differences = true;
        } else if (strcmp(arg, "--force") == 0) {
            a->force = true;
        } else if (strcmp(arg, "--flush") == 0) {
            a->flush = true;
        } else if (strcmp(arg, "--color") == 0) {
            a->color = 1;
        } else if (strcmp(arg, "--no-color") == 0) {
            a->color = 0;
        } else if (arg[0] == '-' && arg[1] == '-') {
            return usage_error("unknown option '%s'", arg);
        } else {
            a->positional[a->positional_count++] = arg;
        }
    }
    return -1;
}

/* Loads every report named; on the first bad one prints why and returns false. */
static bool load_reports(const char *const *paths, int count, cJSON **reports)
{
    for (int i = 0; i < count; ++i) {
        char error[1024];
        reports[i] = report_load(paths[i], error, sizeof(error));
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
    if (!load_reports(a->positional, a->positional_count, reports)) {
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

static const char *device_key(const cJSON *device)
{
    return cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(device, "identity"), "deviceKey"));
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
                 c->lost[0] && c->gained[0] ? "; " : "",
                 c->gained[0] ? "gained " : "");
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
    cJSON_ArrayForEach(before, cJSON_GetObjectItemCaseSensitive(reports[0], "devices"))
    {
        const cJSON *after = NULL, *candidate;
        cJSON_ArrayForEach(candidate, cJSON_GetObjectItemCaseSensitive(reports[1], "devices"))
        {
            if (strcmp(device_key(candidate), device_key(before)) == 0)
                after = candidate;
        }
        if (after == NULL && a->force && cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(reports[1], "devices")) == 1)
            after = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(reports[1], "devices"), 0);
        if (after == NULL) {
            if (json)
                cJSON_AddItemToArray(unpaired, cJSON_CreateString(device_key(before)));
            else
                printf("device %s: not in %s\n", text_safe(device_key(before), key[0], sizeof(key[0])),
                       text_safe(a->positional[1], key[1], sizeof(key[1])));
            continue;
        }
        ++paired;
        struct diff d;
        diff_devices(before, after, &d);
        cJSON *device = NULL, *changes = NULL;
        if (json) {
            device = cJSON_CreateObject();
            cJSON_AddStringToObject(device, "before", device_key(before));
            cJSON_AddStringToObject(device, "after", device_key(after));
            changes = cJSON_AddArrayToObject(device, "changes");
            cJSON_AddNumberToObject(device, "regressions", (double)d.regressions);
            cJSON_AddNumberToObject(device, "other_changes", (double)(d.count - d.regressions));
            cJSON_AddItemToArray(devices, device);
        } else {
            printf("device %s -> %s\n", text_safe(device_key(before), key[0], sizeof(key[0])),
                   text_safe(device_key(after), key[1], sizeof(key[1])));
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

static char *read_text_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    size_t capacity = 4096, length = 0;
    char *text = malloc(capacity);
    while (text != NULL) {
        size_t n = fread(text + length, 1, capacity - length - 1, f);
        length += n;
        if (n == 0)
            break;
        if (length + 1 == capacity) {
            char *bigger = capacity < (64u << 20) ? realloc(text, capacity * 2) : NULL;
            if (bigger == NULL) {
                free(text);
                text = NULL;
                break;
            }
            text = bigger;
            capacity *= 2;
        }
    }
    fclose(f);
    if (text != NULL)
        text[length] = '\0';
    return text;
}

static int command_gate(struct arguments *a)
{
    if (a->positional_count < 2)
        return usage_error("%s", "gate needs a REQUIREMENTS file and at least one REPORT");
    if (a->format != NULL && strcmp(a->format, "text") != 0 && strcmp(a->format, "json") != 0)
        return usage_error("unknown format '%s' for gate (text, json)", a->format);
    char *text = read_text_file(a->positional[0]);
    if (text == NULL) {
        fprintf(stderr, "preflight-report: cannot read %s: %s\n", a->positional[0], strerror(errno));
        return EXIT_BAD_INPUT;
    }
    char error[512];
    struct gate *g = gate_parse(text, error, sizeof(error));
    free(text);
    if (g == NULL) {
        fprintf(stderr, "preflight-report: %s: %s\n", a->positional[0], error);
        return EXIT_BAD_INPUT;
    }
    cJSON **reports = calloc((size_t)a->positional_count + 1, sizeof(*reports));
    if (reports == NULL) {
        gate_free(g);
        return EXIT_OUTPUT;
    }
    int count = a->positional_count - 1;
    if (!load_reports(a->positional + 1, count, reports)) {
        gate_free(g);
        free(reports);
        return EXIT_BAD_INPUT;
    }
    /* every device to be gated, for the check that each test-id rule names a test */
    size_t device_count = 0;
    for (int r = 0; r < count; ++r)
        device_count += (size_t)cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(reports[r], "devices"));
    const cJSON **all = calloc(device_count + 1, sizeof(*all));
    size_t at = 0;
    for (int r = 0; all != NULL && r < count; ++r) {
        const cJSON *device;
        cJSON_ArrayForEach(device, cJSON_GetObjectItemCaseSensitive(reports[r], "devices")) all[at++] = device;
    }
    if (all == NULL || !gate_check_tests(g, all, device_count, error, sizeof(error))) {
        fprintf(stderr, "preflight-report: %s: %s\n", a->positional[0], all ? error : "out of memory");
        free(all);
        gate_free(g);
        free_report_list(reports, count);
        return all ? EXIT_BAD_INPUT : EXIT_OUTPUT;
    }
    const char *format = a->format ? a->format : "text";
    bool json = strcmp(format, "json") == 0;
    cJSON *result = cJSON_CreateObject(), *rows = cJSON_AddArrayToObject(result, "devices");
    int failed = 0, devices = 0;
    char safe[3][512];
    for (size_t d = 0; d < device_count; ++d) {
        const cJSON *identity = cJSON_GetObjectItemCaseSensitive(all[d], "identity");
        cJSON *failures = cJSON_CreateArray();
        bool ok = gate_evaluate(g, all[d], failures);
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(identity, "deviceName"));
        const char *driver = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(identity, "driverName"));
        const char *version = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(identity, "driverVersion"));
        if (json) {
            cJSON *row = cJSON_CreateObject();
            cJSON_AddStringToObject(row, "deviceName", name ? name : "");
            cJSON_AddStringToObject(row, "deviceKey",
                                    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(identity, "deviceKey")) ?: "");
            cJSON_AddStringToObject(row, "driverName", driver ? driver : "");
            cJSON_AddStringToObject(row, "driverVersion", version ? version : "");
            cJSON_AddBoolToObject(row, "pass", ok);
            cJSON_AddItemToObject(row, "failures", failures);
            cJSON_AddItemToArray(rows, row);
        } else {
            printf("%s %s (%s %s)\n", ok ? "PASS" : "FAIL", text_safe(name, safe[0], sizeof(safe[0])),
                   text_safe(driver, safe[1], sizeof(safe[1])), text_safe(version, safe[2], sizeof(safe[2])));
            const cJSON *f;
            cJSON_ArrayForEach(f, failures)
            {
                printf("  %s\n", text_safe(f->valuestring, safe[0], sizeof(safe[0])));
            }
            cJSON_Delete(failures);
        }
        failed += !ok;
        ++devices;
    }
    int status = failed ? EXIT_CHECK_FAILED : EXIT_OK;
    if (json) {
        cJSON_AddStringToObject(result, "requirements", a->positional[0]);
        cJSON_AddNumberToObject(result, "rules", (double)gate_rule_count(g));
        cJSON_AddNumberToObject(result, "passed", devices - failed);
        cJSON_AddNumberToObject(result, "total", devices);
        int written = write_json(result, a->out);
        if (written != EXIT_OK)
            status = written;
    } else {
        printf("%d of %d devices meet the %zu requirements of %s\n", devices - failed, devices, gate_rule_count(g),
               text_safe(a->positional[0], safe[0], sizeof(safe[0])));
    }
    cJSON_Delete(result);
    free(all);
    gate_free(g);
    free_report_list(reports, count);
    return status;
}

static int command_fleet_limits(struct arguments *a)
{
    if (a->positional_count == 0)
        return usage_error("%s", "fleet-limits needs at least one REPORT");
    cJSON **reports = calloc((size_t)a->positional_count + 1, sizeof(*reports));
    if (reports == NULL)
        return EXIT_OUTPUT;
    if (!load_reports(a->positional, a->positional_count, reports)) {
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
    const cJSON *device = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(report, "devices"), (int)a->device);
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
    if (!load_reports(a->positional, a->positional_count, reports)) {
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
static bool read_token(const char *path, char *token, size_t size)
{
    token[0] = '\0';
    if (path == NULL) {
        const char *env = getenv("PREFLIGHT_UPLOAD_TOKEN");
        if (env != NULL)
            snprintf(token, size, "%s", env);
        return true;
    }
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    if (fgets(token, (int)size, f) == NULL)
        token[0] = '\0';
    fclose(f);
    token[strcspn(token, "\r\n")] = '\0';
    return true;
}

static int command_upload(struct arguments *a)
{
    if (a->url == NULL)
        return usage_error("%s", "upload needs --url URL");
    if (!a->flush && a->positional_count == 0)
        return usage_error("%s", "upload needs REPORT files, or --flush");
    char token[4096], spool[4096];
    if (!read_token(a->token_file, token, sizeof(token))) {
        fprintf(stderr, "preflight-report: cannot read the token file %s: %s\n", a->token_file, strerror(errno));
        return EXIT_BAD_INPUT;
    }
    if (a->spool)
        snprintf(spool, sizeof(spool), "%s", a->spool);
    else
        spool_default_dir(spool, sizeof(spool));
    struct upload_options o = {
        .url = a->url,
        .token = token[0] ? token : NULL,
        .spool_dir = spool,
        .ca_file = a->ca_file,
        .timeout_seconds = a->timeout > 0 ? a->timeout : 30,
        .retries = (int)a->retries,
        .backoff_ms = a->backoff_ms,
    };
    curl_global_init(CURL_GLOBAL_DEFAULT);
    int left = 0, status = EXIT_OK;
    for (int i = 0; i < a->positional_count; ++i) {
        char *body = read_text_file(a->positional[i]);
        char error[1024];
        cJSON *report = body ? report_parse(body, strlen(body), a->positional[i], error, sizeof(error)) : NULL;
        if (report == NULL) {
            fprintf(stderr, "preflight-report: %s\n", body ? error : "cannot read the report");
            free(body);
            status = EXIT_BAD_INPUT;
            continue;
        }
        cJSON_Delete(report);
        char key[65], message[256];
        size_t length = strlen(body);
        sha256_hex(body, length, key);
        enum upload_outcome outcome = upload_send(&o, body, length, key, message, sizeof(message));
        fprintf(stderr, "%s: %s\n", a->positional[i], message);
        if (outcome == UPLOAD_FAILED) {
            if (spool_store(spool, key, body, length, error, sizeof(error)))
                fprintf(stderr, "%s: kept in %s/%s.json for `upload --flush`\n", a->positional[i], spool, key);
            else
                fprintf(stderr, "preflight-report: %s\n", error);
            ++left;
        }
        free(body);
    }
    if (a->flush) {
        int delivered = 0;
        left += spool_flush(&o, &delivered);
        fprintf(stderr, "spool %s: %d delivered, %d left\n", spool, delivered, left);
    }
    memset(token, 0, sizeof(token));
    curl_global_cleanup();
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
    static const struct {
        const char *name;
        int (*run)(struct arguments *);
    } commands[] = {
        {"matrix", command_matrix}, {"diff", command_diff}, {"gate", command_gate},
        {"fleet-limits", command_fleet_limits}, {"profile", command_profile}, {"junit", command_junit},
        {"upload", command_upload},
    };
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); ++i) {
        if (strcmp(argv[1], commands[i].name) != 0)
            continue;
        struct arguments a;
        int status = parse_arguments(argc - 2, argv + 2, &a);
        if (status < 0)
            status = commands[i].run(&a);
        free(a.positional);
        return status;
    }
    return usage_error("unknown command '%s'", argv[1]);
}
