/* preflight-probe: what each Vulkan device declares, written as a preflight.report/1 document.
 * See docs/probe.md for the options and exit codes. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "amber.h"
#include "declared.h"
#include "host_info.h"
#include "identity.h"
#include "report.h"
#include "report_model.h"
#include "runner.h"
#include "spec_minimums.h"
#include "vulkan_instance.h"

enum probe_exit {
    EXIT_REPORT_WRITTEN = 0,
    EXIT_OUTPUT_FAILED = 1,
    EXIT_USAGE = 2,
    EXIT_NO_LOADER = 3,
    EXIT_NO_DEVICE = 4,
    EXIT_VULKAN_FAILED = 5,
};

#define NO_DEVICE_HINT                                                                                                 \
    "Install a driver (Debian: mesa-vulkan-drivers for lavapipe) or check VK_DRIVER_FILES / "                          \
    "VK_ICD_FILENAMES.\n"

struct probe_options {
    bool all_devices;
    long device_index;
    const char *out_path; /* NULL: a file named after the devices */
    bool pretty;
    bool list_only;
    bool list_tests;
    bool smoke;
    const char *host_label; /* NULL: the machine's host name */
    struct runner_options runner;
    const char **amber_paths; /* --amber: files and folders of AmberScript tests */
    size_t amber_count;
};

static const char **amber_path_list;

/* At exit: the --amber paths and files (LeakSanitizer checks after atexit handlers have run). */
static void release_amber(void)
{
    amber_suite_free();
    free(amber_path_list);
}

/* A whole-number option from `low` to `high` (--jobs, --repeat); false (and says why) otherwise. */
static bool count_option(const char *option, const char *text, long low, long high, const char *what, unsigned *out)
{
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || value < low || value > high) {
        fprintf(stderr, "preflight-probe: %s needs a number of %s from %ld to %ld, not '%s'\n", option, what, low, high,
                text);
        return false;
    }
    *out = (unsigned)value;
    return true;
}

static void print_usage(FILE *to)
{
    fputs(
        "usage: preflight-probe [--device N | --all] [--out FILE | --out -] [--pretty] [--list]\n"
        "                       [--host-label NAME] [--tests PATTERNS] [--skip PATTERNS] [--timeout S] [--jobs N]\n"
        "                       [--repeat N]\n"
        "                       [--artifacts DIR] [--fresh-device] [--no-power] [--power-counter-only] [--power-budget S]\n"
        "                       [--power-phase-ms MS] [--no-smoke] [--list-tests] [--amber PATH...]\n"
        "\n"
        "Records what each Vulkan device declares (extensions, features, properties, formats,\n"
        "queue families, memory) and runs GPU smoke tests whose results are read back, as a\n"
        "preflight.report/1 JSON document.\n"
        "\n"
        "  --device N   probe only device N (see --list)\n"
        "  --all        probe every device (the default)\n"
        "  --out FILE   write the report to FILE; '-' writes it to standard output.\n"
        "               Default: preflight-report-<device keys>.json in the current directory\n"
        "  --pretty     indent the JSON\n"
        "  --list       list the devices and exit\n"
        "  --host-label NAME  the machine's name in the report (default: its host name), so that\n"
        "               farm machines with the same GPU stay apart on a dashboard\n"
        "  --tests P    run only the smoke tests matching P (comma-separated globs: 'compute.*')\n"
        "  --skip P     do not run the smoke tests matching P (reported as skipped)\n"
        "  --timeout S  watchdog per smoke test, in seconds (default 60)\n"
        "  --jobs N     run smoke tests in up to N worker processes per device at once, 1 to 64\n"
        "               (default 1; devices run side by side); tests that measure GPU time run alone\n"
        "  --repeat N   rerun each smoke test that failed, up to N times, until its verdict over\n"
        "               its runs is known at 95 % confidence (Wilson interval: a fail needs 4 failed\n"
        "               runs, a pass after a failure makes it flaky); each rerun is kept in the\n"
        "               report (reruns, measured) and counts as a run on the dashboard (default 0)\n"
        "  --artifacts DIR  write the images tests read back (PNG) into DIR, named in the\n"
        "               evidence with their SHA-256; DIR is created if missing\n"
        "  --fresh-device  a new VkDevice for every smoke test (default: one per worker, made\n"
        "               with what all of its tests need; slower, the strictest isolation)\n"
        "  --no-power   do not sample power: the tests that time a baseline and a feature pass\n"
        "               otherwise repeat both while reading the GPU's energy (NVML or DRM hwmon)\n"
        "  --power-counter-only  read the energy counter, never the driver's buffered power samples\n"
        "               (default: the samples where they agree with the counter; faster)\n"
        "  --power-budget S  the most time one device's worker spends sampling power, whole run\n"
        "               (default 6; later tests then say the budget is spent)\n"
        "  --power-phase-ms MS  the most one baseline or feature phase may take (default 400;\n"
        "               it ends sooner once the energy per pass has settled)\n"
        "  --amber PATH...  also run AmberScript and VkScript files: each file, and each *.amber and\n"
        "               *.vkscript under each folder (recursively), is the smoke test\n"
        "               amber.<path below the folder, '/' as '.'>\n"
        "               (docs/amber.md); the paths end at the next option\n"
        "  --no-smoke   record the declared capabilities only\n"
        "  --list-tests list the smoke tests and exit\n"
        "  --help       show this text\n"
        "  --version    show the version\n"
        "\n"
        "Environment: PREFLIGHT_VULKAN_LOADER names the Vulkan loader to load (default libvulkan.so.1);\n"
        "PREFLIGHT_NVML_LIBRARY the NVML library (default libnvidia-ml.so.1); PREFLIGHT_HWMON_ROOT where\n"
        "DRM devices are listed for their hwmon sensors (default /sys/class/drm).\n"
        "\n"
        "Exit codes: 0 report written, 1 the report could not be written, 2 bad usage,\n"
        "3 no Vulkan loader, 4 no Vulkan device (or --device out of range),\n"
        "5 a Vulkan call failed while creating the instance or enumerating devices.\n",
        to);
}

/* A number (strtod's syntax, nothing after it) within [low, high]. */
static bool parse_number(const char *text, double low, double high, double *value)
{
    char *end = NULL;
    errno = 0;
    *value = strtod(text, &end);
    return errno == 0 && end != text && *end == '\0' && *value >= low && *value <= high;
}

static int parse_options(int argc, char **argv, struct probe_options *o)
{
    memset(o, 0, sizeof(*o));
    o->all_devices = true;
    o->smoke = true;
    o->runner.timeout_seconds = RUNNER_DEFAULT_TIMEOUT_SECONDS;
    o->runner.progress = true;
    o->runner.jobs = RUNNER_DEFAULT_JOBS;
    o->runner.power.budget_s = POWER_DEFAULT_BUDGET_S;
    o->runner.power.phase_ms = POWER_DEFAULT_PHASE_MS;
    bool saw_all = false, saw_device = false;
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            print_usage(stdout);
            exit(EXIT_REPORT_WRITTEN);
        } else if (strcmp(arg, "--version") == 0) {
            printf("preflight-probe %s\n", PREFLIGHT_VERSION);
            exit(EXIT_REPORT_WRITTEN);
        } else if (strcmp(arg, "--all") == 0) {
            o->all_devices = true;
            saw_all = true;
        } else if (strcmp(arg, "--device") == 0 && i + 1 < argc) {
            char *end = NULL;
            errno = 0;
            o->device_index = strtol(argv[++i], &end, 10);
            if (errno != 0 || end == argv[i] || *end != '\0' || o->device_index < 0) {
                fprintf(stderr, "preflight-probe: --device needs a device index (0, 1, ...), not '%s'\n", argv[i]);
                return EXIT_USAGE;
            }
            o->all_devices = false;
            saw_device = true;
        } else if (strcmp(arg, "--out") == 0 && i + 1 < argc) {
            o->out_path = argv[++i];
        } else if (strcmp(arg, "--host-label") == 0 && i + 1 < argc) {
            o->host_label = argv[++i];
            if (!host_label_valid(o->host_label)) {
                fprintf(stderr, "preflight-probe: --host-label needs 1 to 255 printable characters, not '%s'\n",
                        o->host_label);
                return EXIT_USAGE;
            }
        } else if (strcmp(arg, "--pretty") == 0) {
            o->pretty = true;
        } else if (strcmp(arg, "--list") == 0) {
            o->list_only = true;
        } else if (strcmp(arg, "--list-tests") == 0) {
            o->list_tests = true;
        } else if (strcmp(arg, "--fresh-device") == 0) {
            o->runner.fresh_device = true;
        } else if (strcmp(arg, "--no-power") == 0) {
            o->runner.power.disabled = true;
        } else if (strcmp(arg, "--power-counter-only") == 0) {
            o->runner.power.counter_only = true;
        } else if (strcmp(arg, "--power-budget") == 0 && i + 1 < argc) {
            if (!parse_number(argv[++i], 0, POWER_MAX_BUDGET_S, &o->runner.power.budget_s)) {
                fprintf(stderr, "preflight-probe: --power-budget needs a number of seconds from 0 to %g, not '%s'\n",
                        POWER_MAX_BUDGET_S, argv[i]);
                return EXIT_USAGE;
            }
        } else if (strcmp(arg, "--power-phase-ms") == 0 && i + 1 < argc) {
            if (!parse_number(argv[++i], POWER_MIN_PHASE_MS, POWER_MAX_PHASE_MS, &o->runner.power.phase_ms)) {
                fprintf(stderr,
                        "preflight-probe: --power-phase-ms needs a number of milliseconds from %g to %g, not '%s'\n",
                        POWER_MIN_PHASE_MS, POWER_MAX_PHASE_MS, argv[i]);
                return EXIT_USAGE;
            }
        } else if (strcmp(arg, "--no-smoke") == 0) {
            o->smoke = false;
        } else if (strcmp(arg, "--amber") == 0 && i + 1 < argc) {
            if (o->amber_paths == NULL) { /* kept for the whole run */
                o->amber_paths = amber_path_list = calloc((size_t)argc, sizeof(*o->amber_paths));
                atexit(release_amber);
            }
            if (o->amber_paths == NULL) {
                fprintf(stderr, "preflight-probe: out of memory\n");
                return EXIT_USAGE;
            }
            do
                o->amber_paths[o->amber_count++] = argv[++i];
            while (i + 1 < argc && argv[i + 1][0] != '-');
        } else if (strcmp(arg, "--tests") == 0 && i + 1 < argc) {
            o->runner.include = argv[++i];
        } else if (strcmp(arg, "--skip") == 0 && i + 1 < argc) {
            o->runner.exclude = argv[++i];
        } else if (strcmp(arg, "--jobs") == 0 && i + 1 < argc) {
            if (!count_option(arg, argv[++i], 1, RUNNER_MAX_JOBS, "workers", &o->runner.jobs))
                return EXIT_USAGE;
        } else if (strcmp(arg, "--repeat") == 0 && i + 1 < argc) {
            if (!count_option(arg, argv[++i], 0, RUNNER_MAX_REPEAT, "reruns", &o->runner.repeat))
                return EXIT_USAGE;
        } else if (strcmp(arg, "--artifacts") == 0 && i + 1 < argc) {
            o->runner.artifacts_dir = argv[++i];
            if (o->runner.artifacts_dir[0] == '\0') {
                fprintf(stderr, "preflight-probe: --artifacts needs a directory\n");
                return EXIT_USAGE;
            }
        } else if (strcmp(arg, "--timeout") == 0 && i + 1 < argc) {
            char *end = NULL;
            errno = 0;
            o->runner.timeout_seconds = strtod(argv[++i], &end);
            if (errno != 0 || end == argv[i] || *end != '\0' ||
                !(o->runner.timeout_seconds >= RUNNER_MIN_TIMEOUT_SECONDS) ||
                !(o->runner.timeout_seconds <= RUNNER_MAX_TIMEOUT_SECONDS)) {
                fprintf(stderr, "preflight-probe: --timeout needs a number of seconds from %g to %g, not '%s'\n",
                        RUNNER_MIN_TIMEOUT_SECONDS, RUNNER_MAX_TIMEOUT_SECONDS, argv[i]);
                return EXIT_USAGE;
            }
        } else {
            bool missing_value =
                strcmp(arg, "--device") == 0 || strcmp(arg, "--out") == 0 || strcmp(arg, "--tests") == 0 ||
                strcmp(arg, "--skip") == 0 || strcmp(arg, "--timeout") == 0 || strcmp(arg, "--host-label") == 0 ||
                strcmp(arg, "--jobs") == 0 || strcmp(arg, "--artifacts") == 0 || strcmp(arg, "--power-budget") == 0 ||
                strcmp(arg, "--power-phase-ms") == 0 || strcmp(arg, "--amber") == 0 || strcmp(arg, "--repeat") == 0;
            fprintf(stderr, "preflight-probe: %s '%s'\n", missing_value ? "missing value for" : "unknown option", arg);
            print_usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (saw_all && saw_device) {
        fprintf(stderr, "preflight-probe: --all and --device exclude each other\n");
        return EXIT_USAGE;
    }
    if (o->amber_count > 0 && !o->smoke) {
        fprintf(stderr, "preflight-probe: --amber files are smoke tests: they cannot run with --no-smoke\n");
        return EXIT_USAGE;
    }
    return -1;
}

/* The --amber files as smoke tests, after the built-in ones; then --tests must match something. */
static int add_amber_tests(const struct probe_options *o)
{
    if (o->amber_count > 0) {
        char error[1024];
        if (!amber_suite_collect(o->amber_paths, o->amber_count, error, sizeof(error))) {
            fprintf(stderr, "preflight-probe: %s\n", error);
            return EXIT_USAGE;
        }
        size_t count;
        const struct smoke_test *tests = amber_suite_tests(&count);
        smoke_tests_add(tests, count);
    }
    if (o->runner.include != NULL && runner_count_matching(o->runner.include) == 0) {
        fprintf(stderr, "preflight-probe: --tests '%s' matches no smoke test (--list-tests lists them)\n",
                o->runner.include);
        return EXIT_USAGE;
    }
    return -1;
}

/* --artifacts DIR: created with its parents if missing; it must be a writable directory. */
static bool make_directory(const char *path)
{
    char partial[4096];
    if (snprintf(partial, sizeof(partial), "%s", path) >= (int)sizeof(partial)) {
        fprintf(stderr, "preflight-probe: --artifacts path is too long\n");
        return false;
    }
    for (char *at = partial + 1;; ++at) {
        bool end = *at == '\0';
        if (*at == '/' || end) {
            *at = '\0';
            if (mkdir(partial, 0777) != 0 && errno != EEXIST) {
                fprintf(stderr, "preflight-probe: cannot create %s: %s\n", partial, strerror(errno));
                return false;
            }
            if (end)
                break;
            *at = '/';
        }
    }
    if (access(path, W_OK | X_OK) != 0) {
        fprintf(stderr, "preflight-probe: --artifacts %s: %s\n", path, strerror(errno));
        return false;
    }
    return true;
}

static void list_devices(const struct vulkan_instance *vi)
{
    for (uint32_t i = 0; i < vi->device_count; ++i) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(vi->devices[i], &p);
        char api[32];
        identity_format_api_version(p.apiVersion, api, sizeof(api));
        printf("%u: %s (vendor 0x%04x, device 0x%04x, Vulkan %s)\n", i, p.deviceName, p.vendorID, p.deviceID, api);
    }
}

static cJSON *probe_device(const struct vulkan_instance *vi, uint32_t index)
{
    cJSON *device = cJSON_CreateObject();
    cJSON_AddNumberToObject(device, "index", index);
    cJSON *declared = declared_build(vi, vi->devices[index]);
    cJSON *identity = identity_from_declared(declared);
    host_info_add(identity);
    cJSON_AddItemToObject(device, "identity", identity);
    cJSON_AddItemToObject(device, "declared", declared);
    cJSON_AddItemToObject(device, "spec_minimums", spec_minimums_check(declared));
    cJSON_AddArrayToObject(device, "smoke");
    cJSON_AddArrayToObject(device, "capabilities");
    return device;
}

static void summarize_device(const cJSON *device)
{
    struct report_identity id = report_identity_of(device);
    fprintf(stderr,
            "GPU%d: %s (%s %s, Vulkan %s): %d extensions, %d feature structs, %d property structs, "
            "%d formats, %d spec-minimum violations\n",
            cJSON_GetObjectItemCaseSensitive(device, "index")->valueint, id.device_name,
            id.driver_name[0] ? id.driver_name : "driver", id.driver_version, id.api_version,
            cJSON_GetArraySize(report_declared_extensions(device)),
            cJSON_GetArraySize(report_declared_features(device)),
            cJSON_GetArraySize(report_declared_properties(device)), cJSON_GetArraySize(report_declared_formats(device)),
            (int)report_spec_minimum_count(device));
}

static void default_output_name(const cJSON *devices, char *out, size_t size)
{
    size_t at = (size_t)snprintf(out, size, "preflight-report");
    const cJSON *device;
    cJSON_ArrayForEach(device, devices)
    {
        const char *key = report_device_key(device);
        if (key[0] != '\0' && at < size)
            at += (size_t)snprintf(out + at, size - at, "-%s", key);
    }
    if (at < size)
        snprintf(out + at, size - at, ".json");
}

int main(int argc, char **argv)
{
    struct probe_options options;
    int status = parse_options(argc, argv, &options);
    if (status < 0)
        status = add_amber_tests(&options);
    if (status >= 0)
        return status;
    if (options.list_tests) {
        runner_list_tests();
        return EXIT_REPORT_WRITTEN;
    }
    runner_install_signal_handlers();
    if (options.smoke && options.runner.artifacts_dir != NULL && !make_directory(options.runner.artifacts_dir))
        return EXIT_OUTPUT_FAILED;

    struct vulkan_instance vi;
    switch (vulkan_instance_open(&vi)) {
    case VULKAN_INSTANCE_OK:
        break;
    case VULKAN_INSTANCE_NO_LOADER:
        fprintf(stderr,
                "preflight-probe: no Vulkan loader found (%s could not be loaded).\n"
                "Install the Vulkan loader (Debian: apt-get install libvulkan1) and a driver.\n",
                getenv("PREFLIGHT_VULKAN_LOADER") ? getenv("PREFLIGHT_VULKAN_LOADER") : "libvulkan.so.1");
        return EXIT_NO_LOADER;
    case VULKAN_INSTANCE_NO_DRIVER:
        fprintf(stderr, "preflight-probe: the Vulkan loader found no driver (vkCreateInstance: %s).\n%s",
                vulkan_result_name(vi.last_result), NO_DEVICE_HINT);
        return EXIT_NO_DEVICE;
    case VULKAN_INSTANCE_CREATE_FAILED:
        fprintf(stderr, "preflight-probe: vkCreateInstance failed: %s\n", vulkan_result_name(vi.last_result));
        vulkan_instance_close(&vi);
        return EXIT_VULKAN_FAILED;
    case VULKAN_INSTANCE_ENUMERATE_FAILED:
        fprintf(stderr, "preflight-probe: vkEnumeratePhysicalDevices failed: %s\n", vulkan_result_name(vi.last_result));
        vulkan_instance_close(&vi);
        return EXIT_VULKAN_FAILED;
    }
    if (vi.device_count == 0) {
        fprintf(stderr, "preflight-probe: the Vulkan loader found no device.\n%s", NO_DEVICE_HINT);
        vulkan_instance_close(&vi);
        return EXIT_NO_DEVICE;
    }
    if (options.list_only) {
        list_devices(&vi);
        vulkan_instance_close(&vi);
        return EXIT_REPORT_WRITTEN;
    }
    if (!options.all_devices && options.device_index >= (long)vi.device_count) {
        fprintf(stderr, "preflight-probe: --device %ld is out of range: %u device(s) found (see --list)\n",
                options.device_index, vi.device_count);
        vulkan_instance_close(&vi);
        return EXIT_NO_DEVICE;
    }

    cJSON *report = report_new("preflight-probe");
    char loader[32];
    identity_format_api_version(vi.loader_version, loader, sizeof(loader));
    cJSON_AddStringToObject(report, "loaderVersion", loader);
    char host[256];
    host_name(options.host_label, host, sizeof(host));
    cJSON_AddStringToObject(report, "host", host);
    for (uint32_t i = 0; i < vi.device_count; ++i) {
        if (!options.all_devices && (long)i != options.device_index)
            continue;
        cJSON *device = probe_device(&vi, i);
        summarize_device(device);
        cJSON_AddItemToArray(report_devices(report), device);
    }
    /* The smoke tests run in child processes with instances of their own; this process holds no
     * Vulkan objects while they run. */
    vulkan_instance_close(&vi);
    if (options.smoke)
        runner_run_devices(report_devices(report), &options.runner);

    char default_path[1024];
    const char *path = options.out_path;
    if (path == NULL) {
        default_output_name(report_devices(report), default_path, sizeof(default_path));
        path = default_path;
    }
    char error[512];
    bool written = report_write(report, path, options.pretty, error, sizeof(error));
    cJSON_Delete(report);
    if (!written) {
        fprintf(stderr, "preflight-probe: %s\n", error);
        return EXIT_OUTPUT_FAILED;
    }
    if (strcmp(path, "-") != 0)
        fprintf(stderr, "report written to %s\n", path);
    return EXIT_REPORT_WRITTEN;
}
