#include "machine_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine_config.h"
#include "report_read.h"
#include "text_file.h"

const char machine_check_help[] =
    "usage: preflight-report machine-check [--out FILE] CONFIG [REPORT]\n"
    "Whether the report's devices are the ones the machine configuration CONFIG lists (docs/farm.md): every\n"
    "'device' line has its own device of the right type and pinned driver, every other device is allowed by\n"
    "an 'optional' line. Prints each device found and each difference (missing, another type, another\n"
    "driver, an extra device). Exit 0 when they match, 1 when they differ, 3 for a malformed CONFIG (with\n"
    "its line) or REPORT. Without a REPORT it only checks CONFIG.\n"
    "  --out FILE  write there ('-': standard output, the default)\n";

static int usage(const char *message)
{
    fprintf(stderr, "preflight-report: machine-check: %s\n(preflight-report machine-check --help)\n", message);
    return 2;
}

static void print_lines(FILE *out, const char *prefix, const cJSON *lines)
{
    const cJSON *line;
    cJSON_ArrayForEach(line, lines) fprintf(out, "%s%s\n", prefix, cJSON_GetStringValue(line));
}

int machine_check_command(int argc, char **argv)
{
    const char *out_path = "-", *positional[2];
    int count = 0;
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fputs(machine_check_help, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--out") == 0) {
            if (++i == argc)
                return usage("--out needs a FILE");
            out_path = argv[i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage("unknown option");
        } else if (count == 2) {
            return usage("takes one CONFIG and one REPORT");
        } else {
            positional[count++] = argv[i];
        }
    }
    if (count == 0)
        return usage("needs a CONFIG (and a REPORT)");

    char error[512];
    char *text = text_file_read(positional[0], "a machine configuration");
    if (text == NULL)
        return 3;
    struct machine_config *config = machine_config_parse(text, error, sizeof(error));
    free(text);
    if (config == NULL) {
        fprintf(stderr, "preflight-report: %s: %s\n", positional[0], error);
        return 3;
    }
    if (count == 1) {
        machine_config_free(config);
        return 0;
    }
    cJSON *report = report_load(positional[1], error, sizeof(error));
    if (report == NULL) {
        fprintf(stderr, "preflight-report: %s\n", error);
        machine_config_free(config);
        return 3;
    }
    cJSON *matched = cJSON_CreateArray(), *problems = cJSON_CreateArray();
    bool same = machine_config_check(config, report, matched, problems);
    FILE *out = strcmp(out_path, "-") == 0 ? stdout : fopen(out_path, "w");
    int status = same ? 0 : 1;
    if (out == NULL) {
        perror(out_path);
        status = 4;
    } else {
        fprintf(out, "machine check of %s against %s: %s\n", positional[1], positional[0],
                same ? "the configured devices" : "DIFFERENT DEVICES");
        print_lines(out, "  found:     ", matched);
        print_lines(out, "  DIFFERENT: ", problems);
        if ((out != stdout && fclose(out) != 0) || (out == stdout && fflush(out) != 0))
            status = 4;
    }
    cJSON_Delete(matched);
    cJSON_Delete(problems);
    cJSON_Delete(report);
    machine_config_free(config);
    return status;
}
