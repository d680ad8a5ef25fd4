#define _GNU_SOURCE /* FNM_CASEFOLD: device and driver names compare without case */
#include "expectations.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "report_model.h"

struct expectations {
    struct expectation *entries;
    size_t count;
};

static const char *const kind_names[] = {"fail", "flake", "skip"};
/* The keys of a line's conditions, in the order expectation_parse_conditions handles them. */
static const char *const condition_keys[] = {"vendor", "device", "device_id", "device_key", "driver_name",
                                             "driver", "os",     "reason",    "until",      "type"};
#define CONDITION_KEYS (sizeof(condition_keys) / sizeof(condition_keys[0]))

const char *expectation_kind_name(enum expectation_kind kind)
{
    return kind_names[kind];
}

/* Vendors by the name people use (PCI IDs; Mesa's Khronos-assigned ID for lavapipe). */
static bool vendor_by_name(const char *name, uint32_t *id)
{
    static const struct {
        const char *name;
        uint32_t id;
    } table[] = {{"amd", 0x1002},      {"apple", 0x106b},   {"arm", 0x13b5},      {"broadcom", 0x14e4},
                 {"imgtec", 0x1010},   {"intel", 0x8086},   {"mesa", 0x10005},    {"nvidia", 0x10de},
                 {"qualcomm", 0x5143}, {"samsung", 0x144d}, {"microsoft", 0x1414}};
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); ++i)
        if (strcasecmp(table[i].name, name) == 0) {
            *id = table[i].id;
            return true;
        }
    return false;
}

/* A number: decimal or 0x-prefixed hexadecimal, no sign, within uint32_t. */
static bool parse_id(const char *text, uint32_t *out)
{
    if (!isdigit((unsigned char)text[0]))
        return false;
    char *end = NULL;
    unsigned long long value = strtoull(text, &end, 0);
    if (*end != '\0' || value > 0xFFFFFFFFull)
        return false;
    *out = (uint32_t)value;
    return true;
}

/* The device types by the last word of VkPhysicalDeviceType's names, as identity.deviceType has them. */
static const char *const device_types[][2] = {{"discrete", "VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU"},
                                              {"integrated", "VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU"},
                                              {"virtual", "VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU"},
                                              {"cpu", "VK_PHYSICAL_DEVICE_TYPE_CPU"},
                                              {"other", "VK_PHYSICAL_DEVICE_TYPE_OTHER"}};

static bool device_type_known(const char *name)
{
    for (size_t i = 0; i < sizeof(device_types) / sizeof(device_types[0]); ++i)
        if (strcmp(device_types[i][0], name) == 0)
            return true;
    return false;
}

bool expectation_device_type_is(const char *identity_type, const char *name)
{
    for (size_t i = 0; i < sizeof(device_types) / sizeof(device_types[0]); ++i)
        if (strcmp(device_types[i][0], name) == 0)
            return strcmp(device_types[i][1], identity_type) == 0;
    return false;
}

static bool parse_date(const char *text)
{
    int year, month, day, read = 0;
    if (strlen(text) != 10 || sscanf(text, "%4d-%2d-%2d%n", &year, &month, &day, &read) != 3 || read != 10)
        return false;
    for (int i = 0; i < 10; ++i)
        if (i == 4 || i == 7 ? text[i] != '-' : !isdigit((unsigned char)text[i]))
            return false;
    return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

/* "LOW..HIGH", "LOW..", "..HIGH" or "VERSION" (LOW..HIGH with both the same). */
static bool parse_range(const char *text, struct expectation *x)
{
    const char *dots = strstr(text, "..");
    char low[64] = "", high[64] = "";
    if (strlen(text) >= sizeof(low)) /* longer than any version: not cut to one that parses */
        return false;
    if (dots == NULL) {
        snprintf(low, sizeof(low), "%s", text);
        snprintf(high, sizeof(high), "%s", text);
    } else {
        snprintf(low, sizeof(low), "%.*s", (int)(dots - text), text);
        snprintf(high, sizeof(high), "%s", dots + 2);
    }
    x->has_driver_low = low[0] != '\0';
    x->has_driver_high = high[0] != '\0';
    if (!x->has_driver_low && !x->has_driver_high)
        return false;
    if (x->has_driver_low && !driver_version_parse(low, &x->driver_low))
        return false;
    if (x->has_driver_high && !driver_version_parse(high, &x->driver_high))
        return false;
    return true;
}

/* The next word of `*at` into `out`: a run of non-space characters, where "..." (with \" and \\)
 * may hold spaces. Returns 0 at the end, 1 with a word, -1 on an unterminated quote or a word too long. */
static int next_word(const char **at, char *out, size_t size)
{
    const char *p = *at;
    while (*p == ' ' || *p == '\t' || *p == '\r')
        ++p;
    if (*p == '\0')
        return 0;
    size_t n = 0;
    bool quoted = false;
    for (; *p != '\0' && (quoted || (*p != ' ' && *p != '\t' && *p != '\r')); ++p) {
        char c = *p;
        if (c == '"') {
            quoted = !quoted;
            continue;
        }
        if (quoted && c == '\\' && (p[1] == '"' || p[1] == '\\'))
            c = *++p;
        if (n + 1 >= size)
            return -1;
        out[n++] = c;
    }
    out[n] = '\0';
    *at = p;
    return quoted ? -1 : 1;
}

static bool set_glob(char *field, size_t size, const char *value)
{
    if (strlen(value) >= size || value[0] == '\0')
        return false;
    snprintf(field, size, "%s", value);
    return true;
}

bool expectation_parse_conditions(const char *text, int line, struct expectation *x, char *error, size_t size)
{
    char word[512];
    const char *at = text;
    unsigned seen = 0;
    const char *const *keys = condition_keys;
    int got;
    while ((got = next_word(&at, word, sizeof(word))) != 0) {
        if (got < 0) {
            snprintf(error, size, "line %d: an unterminated quote or a value longer than %zu bytes", line,
                     sizeof(word) - 1);
            return false;
        }
        char *equals = strchr(word, '=');
        size_t key = 0;
        while (equals != NULL && key < CONDITION_KEYS &&
               (strlen(keys[key]) != (size_t)(equals - word) || strncmp(word, keys[key], strlen(keys[key])) != 0))
            ++key;
        if (equals == NULL || key == CONDITION_KEYS) {
            snprintf(error, size,
                     "line %d: '%.80s' is not KEY=VALUE with a key of vendor, device, device_id, device_key, "
                     "driver_name, driver, os, type, reason, until",
                     line, word);
            return false;
        }
        if (seen & (1u << key)) {
            snprintf(error, size, "line %d: %s= is given twice", line, keys[key]);
            return false;
        }
        seen |= 1u << key;
        const char *value = equals + 1;
        bool ok = true;
        const char *want = "";
        switch (key) {
        case 0:
            ok = vendor_by_name(value, &x->vendor_id) || parse_id(value, &x->vendor_id);
            x->has_vendor = true;
            want = "a vendor ID (0x10de) or name (nvidia, amd, intel, arm, qualcomm, imgtec, apple, broadcom, "
                   "samsung, microsoft, mesa)";
            break;
        case 1:
            ok = set_glob(x->device, sizeof(x->device), value);
            want = "a glob over device names";
            break;
        case 2:
            ok = parse_id(value, &x->device_id);
            x->has_device_id = true;
            want = "a device ID (0x2335)";
            break;
        case 3:
            ok = set_glob(x->device_key, sizeof(x->device_key), value);
            want = "a glob over device keys";
            break;
        case 4:
            ok = set_glob(x->driver_name, sizeof(x->driver_name), value);
            want = "a glob over driver names";
            break;
        case 5:
            ok = parse_range(value, x);
            want = "a driver range (580.65..580.95.05, r38..r40, Mesa 24.2.., ..101.4146, 25.0.7)";
            break;
        case 6:
            ok = set_glob(x->os, sizeof(x->os), value);
            want = "a glob over OS names";
            break;
        case 7:
            ok = value[0] != '\0' && strlen(value) < sizeof(x->reason);
            if (ok)
                snprintf(x->reason, sizeof(x->reason), "%s", value);
            want = "a reason of 1 to 255 bytes";
            break;
        case 8:
            ok = parse_date(value);
            if (ok)
                snprintf(x->until, sizeof(x->until), "%s", value);
            want = "a date YYYY-MM-DD";
            break;
        case 9:
            ok = device_type_known(value);
            if (ok)
                snprintf(x->device_type, sizeof(x->device_type), "%s", value);
            want = "a device type: discrete, integrated, virtual, cpu or other";
            break;
        }
        if (!ok) {
            snprintf(error, size, "line %d: %s='%.80s' is not %s", line, keys[key], value, want);
            return false;
        }
    }
    return true;
}

/* "reason=x" where the test glob should be: the glob was left out (a test id may hold '=' otherwise). */
static bool names_a_condition(const char *word)
{
    const char *equals = strchr(word, '=');
    for (size_t i = 0; equals != NULL && i < CONDITION_KEYS; ++i)
        if (strlen(condition_keys[i]) == (size_t)(equals - word) &&
            strncmp(word, condition_keys[i], strlen(condition_keys[i])) == 0)
            return true;
    return false;
}

static bool parse_line(const char *text, int line, struct expectation *x, char *error, size_t size)
{
    memset(x, 0, sizeof(*x));
    x->line = line;
    char kind[32], test[sizeof(x->test)];
    const char *at = text;
    if (next_word(&at, kind, sizeof(kind)) != 1 ||
        (strcmp(kind, "fail") && strcmp(kind, "flake") && strcmp(kind, "skip"))) {
        snprintf(error, size, "line %d: an entry starts with its kind: fail, flake or skip", line);
        return false;
    }
    x->kind = kind[1] == 'a' ? EXPECTATION_FAIL : kind[1] == 'l' ? EXPECTATION_FLAKE : EXPECTATION_SKIP;
    while (*at == ' ' || *at == '\t' || *at == '\r')
        ++at;
    bool quoted = *at == '"'; /* a quoted glob is a glob, whatever it holds */
    int got = next_word(&at, test, sizeof(test));
    if (got != 1 || (!quoted && names_a_condition(test))) {
        snprintf(error, size, "line %d: the test glob (after '%s') is missing or longer than %zu bytes", line, kind,
                 sizeof(test) - 1);
        return false;
    }
    snprintf(x->test, sizeof(x->test), "%s", test);
    if (!expectation_parse_conditions(at, line, x, error, size))
        return false;
    if (x->reason[0] == '\0') {
        snprintf(error, size, "line %d: reason= is missing (say why: a ticket, a driver bug)", line);
        return false;
    }
    return true;
}

struct expectations *expectations_parse(const char *text, char *error, size_t size)
{
    struct expectations *e = calloc(1, sizeof(*e));
    char *copy = strdup(text);
    size_t capacity = 0;
    if (e == NULL || copy == NULL) {
        free(e);
        free(copy);
        snprintf(error, size, "out of memory");
        return NULL;
    }
    int number = 0;
    for (char *line = copy, *next = NULL; line != NULL; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        ++number;
        while (isspace((unsigned char)*line))
            ++line;
        if (*line == '\0' || *line == '#')
            continue;
        if (e->count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            struct expectation *entries = realloc(e->entries, capacity * sizeof(*entries));
            if (entries == NULL) {
                snprintf(error, size, "out of memory");
                free(copy);
                expectations_free(e);
                return NULL;
            }
            e->entries = entries;
        }
        if (!parse_line(line, number, &e->entries[e->count], error, size)) {
            free(copy);
            expectations_free(e);
            return NULL;
        }
        e->count++;
    }
    free(copy);
    return e;
}

void expectations_free(struct expectations *e)
{
    if (e != NULL)
        free(e->entries);
    free(e);
}

size_t expectations_count(const struct expectations *e)
{
    return e ? e->count : 0;
}

const struct expectation *expectations_at(const struct expectations *e, size_t index)
{
    return &e->entries[index];
}

/* The device's driver version as fields of its vendor's scheme; a Mesa driver's is its Mesa version. */
static bool device_driver_fields(const struct report_identity *id, struct driver_version_fields *out)
{
    int64_t mesa = 0;
    char text[64];
    if (driver_version_mesa(id->driver_id, id->driver_info, &mesa, text, sizeof(text))) {
        *out = driver_version_fields_of("standard", (uint32_t)mesa);
        return true;
    }
    if (id->driver_version_scheme[0] != '\0') {
        *out = driver_version_fields_of(id->driver_version_scheme, (uint32_t)id->driver_version_raw);
        return true;
    }
    return driver_version_parse(id->driver_version, out); /* an older report: its decoded text */
}

bool expectation_matches_device(const struct expectation *x, const cJSON *device)
{
    struct report_identity id = report_identity_of(device);
    if (x->has_vendor && (!id.has_vendor_id || id.vendor_id != x->vendor_id))
        return false;
    if (x->has_device_id && (!id.has_device_id || id.device_id != x->device_id))
        return false;
    if (x->device[0] && fnmatch(x->device, id.device_name, FNM_CASEFOLD) != 0)
        return false;
    if (x->device_key[0] && fnmatch(x->device_key, id.device_key, FNM_CASEFOLD) != 0)
        return false;
    if (x->driver_name[0] && fnmatch(x->driver_name, id.driver_name, FNM_CASEFOLD) != 0)
        return false;
    if (x->os[0] && fnmatch(x->os, id.os, FNM_CASEFOLD) != 0)
        return false;
    if (x->device_type[0] && !expectation_device_type_is(id.device_type, x->device_type))
        return false;
    if (x->has_driver_low || x->has_driver_high) {
        struct driver_version_fields version;
        if (!device_driver_fields(&id, &version))
            return false;
        if (x->has_driver_low && driver_version_compare_prefix(&version, &x->driver_low) < 0)
            return false;
        if (x->has_driver_high && driver_version_compare_prefix(&version, &x->driver_high) > 0)
            return false;
    }
    return true;
}

bool expectation_expired(const struct expectation *x, const char *today)
{
    return x->until[0] != '\0' && strcmp(today, x->until) > 0;
}

const struct expectation *expectations_find(const struct expectations *e, const cJSON *device, const char *test_id,
                                            const char *today)
{
    for (size_t i = 0; e != NULL && i < e->count; ++i) {
        const struct expectation *x = &e->entries[i];
        if (!expectation_expired(x, today) && fnmatch(x->test, test_id, 0) == 0 &&
            expectation_matches_device(x, device))
            return x;
    }
    return NULL;
}

bool expectation_excuses(const struct expectation *x, const char *status)
{
    if (x->kind == EXPECTATION_SKIP)
        return true;
    return strcmp(status, "pass") != 0 && strcmp(status, "unsupported") != 0 && strcmp(status, "skipped") != 0;
}

void expectations_unexpected_passes(const struct expectations *e, const cJSON *device, const char *today, cJSON *out)
{
    const cJSON *entry;
    REPORT_FOR_EACH_SMOKE(entry, device)
    {
        struct report_smoke smoke = report_smoke_of(entry);
        if (strcmp(smoke.status, "pass") != 0)
            continue;
        const struct expectation *x = expectations_find(e, device, smoke.id, today);
        if (x == NULL || x->kind != EXPECTATION_FAIL)
            continue;
        cJSON *item = cJSON_CreateObject();
        cJSON_AddStringToObject(item, "test", smoke.id);
        cJSON_AddNumberToObject(item, "line", x->line);
        cJSON_AddStringToObject(item, "reason", x->reason);
        cJSON_AddItemToArray(out, item);
    }
}

void expectations_expired(const struct expectations *e, const char *today, cJSON *out)
{
    for (size_t i = 0; e != NULL && i < e->count; ++i) {
        const struct expectation *x = &e->entries[i];
        if (!expectation_expired(x, today))
            continue;
        cJSON *item = cJSON_CreateObject();
        cJSON_AddNumberToObject(item, "line", x->line);
        cJSON_AddStringToObject(item, "kind", expectation_kind_name(x->kind));
        cJSON_AddStringToObject(item, "test", x->test);
        cJSON_AddStringToObject(item, "until", x->until);
        cJSON_AddStringToObject(item, "reason", x->reason);
        cJSON_AddItemToArray(out, item);
    }
}

void expectations_today(char out[11])
{
    time_t now = time(NULL);
    struct tm utc;
    gmtime_r(&now, &utc);
    strftime(out, 11, "%Y-%m-%d", &utc);
}
