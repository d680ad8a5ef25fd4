#include "machine_config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver_version.h"
#include "expectations.h"
#include "report_model.h"

#define MACHINE_DEVICES_MAX 64 /* devices of one report the check compares; more are refused */

struct machine_entry {
    bool required; /* a `device` line; else `optional` */
    struct expectation pattern;
    char conditions[256]; /* as written, for messages */
};

struct machine_config {
    struct machine_entry *entries;
    size_t count;
};

static bool parse_line(char *line, int number, struct machine_entry *entry, char *error, size_t size)
{
    memset(entry, 0, sizeof(*entry));
    char *rest = line;
    while (*rest != '\0' && !isspace((unsigned char)*rest))
        ++rest;
    size_t kind_length = (size_t)(rest - line);
    if (kind_length == 6 && strncmp(line, "device", 6) == 0)
        entry->required = true;
    else if (!(kind_length == 8 && strncmp(line, "optional", 8) == 0)) {
        snprintf(error, size, "line %d: an entry starts with device or optional, not '%.*s'", number,
                 (int)(kind_length > 40 ? 40 : kind_length), line);
        return false;
    }
    while (isspace((unsigned char)*rest))
        ++rest;
    size_t length = strlen(rest);
    while (length > 0 && isspace((unsigned char)rest[length - 1]))
        rest[--length] = '\0';
    if (length >= sizeof(entry->conditions)) {
        snprintf(error, size, "line %d: longer than %zu bytes", number, sizeof(entry->conditions) - 1);
        return false;
    }
    snprintf(entry->conditions, sizeof(entry->conditions), "%s", rest);
    entry->pattern.line = number;
    if (!expectation_parse_conditions(rest, number, &entry->pattern, error, size))
        return false;
    if (entry->pattern.until[0] != '\0') {
        snprintf(error, size, "line %d: until= has no meaning in a machine configuration", number);
        return false;
    }
    return true;
}

struct machine_config *machine_config_parse(const char *text, char *error, size_t size)
{
    struct machine_config *c = calloc(1, sizeof(*c));
    char *copy = strdup(text);
    size_t capacity = 0, required = 0;
    if (c == NULL || copy == NULL) {
        free(c);
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
        if (c->count == capacity) {
            capacity = capacity ? capacity * 2 : 8;
            struct machine_entry *entries = realloc(c->entries, capacity * sizeof(*entries));
            if (entries == NULL) {
                snprintf(error, size, "out of memory");
                goto fail;
            }
            c->entries = entries;
        }
        if (!parse_line(line, number, &c->entries[c->count], error, size))
            goto fail;
        required += c->entries[c->count].required;
        c->count++;
    }
    if (required == 0) {
        snprintf(error, size, "line %d: the configuration names no device (a 'device' line)", number);
        goto fail;
    }
    free(copy);
    return c;
fail:
    free(copy);
    machine_config_free(c);
    return NULL;
}

void machine_config_free(struct machine_config *c)
{
    if (c != NULL)
        free(c->entries);
    free(c);
}

static const char *type_name(const char *identity_type)
{
    static const char *const names[] = {"discrete", "integrated", "virtual", "cpu", "other"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i)
        if (expectation_device_type_is(identity_type, names[i]))
            return names[i];
    return identity_type[0] ? identity_type : "unknown type";
}

/* An entry's pattern, and the type rule: a line without type= takes no CPU device. */
static bool entry_matches(const struct expectation *pattern, const cJSON *device)
{
    if (pattern->device_type[0] == '\0' && expectation_device_type_is(report_identity_of(device).device_type, "cpu"))
        return false;
    return expectation_matches_device(pattern, device);
}

/* '"NVIDIA H200" (discrete, driver 580.159.04)': the name, type and driver as the vendor writes it. */
static void describe(const cJSON *device, char *out, size_t size)
{
    struct report_identity id = report_identity_of(device);
    char driver[96];
    int64_t mesa = 0;
    if (!driver_version_mesa(id.driver_id, id.driver_info, &mesa, driver, sizeof(driver))) {
        if (id.driver_version_scheme[0] != '\0')
            driver_version_vendor_text(id.driver_version_scheme, (uint32_t)id.driver_version_raw, id.driver_version,
                                       driver, sizeof(driver));
        else
            snprintf(driver, sizeof(driver), "%s", id.driver_version);
    }
    snprintf(out, size, "\"%s\" (%s, %s %s, vendor 0x%04x device 0x%04x)", id.device_name, type_name(id.device_type),
             id.driver_name[0] ? id.driver_name : "driver", driver, (unsigned)id.vendor_id, (unsigned)id.device_id);
}

/* Kuhn's augmenting path: gives entry `e` a device, moving others' devices where that frees one. */
static bool assign(const bool matches[][MACHINE_DEVICES_MAX], size_t e, size_t devices, bool *visited, int *owner)
{
    for (size_t d = 0; d < devices; ++d) {
        if (!matches[e][d] || visited[d])
            continue;
        visited[d] = true;
        if (owner[d] < 0 || assign(matches, (size_t)owner[d], devices, visited, owner)) {
            owner[d] = (int)e;
            return true;
        }
    }
    return false;
}

static void add_line(cJSON *array, const char *text)
{
    if (array != NULL)
        cJSON_AddItemToArray(array, cJSON_CreateString(text));
}

/* Why entry `x` found no device, from the closest free device: the pin alone, or the type. */
static void explain_missing(const struct machine_entry *x, const cJSON *report, const int *owner, bool *explained,
                            cJSON *problems)
{
    char text[768], what[384], label[300];
    snprintf(label, sizeof(label), "line %d (device%s%s)", x->pattern.line, x->conditions[0] ? " " : "", x->conditions);
    struct expectation loose = x->pattern;
    loose.has_driver_low = loose.has_driver_high = false;
    size_t count = report_device_count(report);
    for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1)
            snprintf(loose.device_type, sizeof(loose.device_type), "%s", "");
        for (size_t d = 0; d < count; ++d) {
            const cJSON *device = report_device_at(report, d);
            if (owner[d] >= 0 || explained[d] ||
                !(pass == 0 ? entry_matches(&loose, device) : expectation_matches_device(&loose, device)))
                continue;
            explained[d] = true;
            describe(device, what, sizeof(what));
            if (pass == 0)
                snprintf(text, sizeof(text), "%s: device %zu %s has another driver than pinned", label, d, what);
            else
                snprintf(text, sizeof(text), "%s: device %zu %s is not of the type expected (%s)", label, d, what,
                         x->pattern.device_type[0] ? x->pattern.device_type : "a GPU, not cpu");
            add_line(problems, text);
            return;
        }
    }
    snprintf(text, sizeof(text), "%s: missing: no device of the report matches", label);
    add_line(problems, text);
}

bool machine_config_check(const struct machine_config *c, const cJSON *report, cJSON *matched, cJSON *problems)
{
    size_t count = report_device_count(report);
    if (count > MACHINE_DEVICES_MAX) {
        add_line(problems, "the report holds more devices than a machine check compares (64)");
        return false;
    }
    bool(*matches)[MACHINE_DEVICES_MAX] = calloc(c->count + 1, sizeof(*matches));
    size_t *rows = calloc(c->count + 1, sizeof(*rows)), required = 0;
    bool *unassigned = calloc(c->count + 1, sizeof(*unassigned));
    if (matches == NULL || rows == NULL || unassigned == NULL) {
        free(matches);
        free(rows);
        free(unassigned);
        add_line(problems, "out of memory");
        return false;
    }
    for (size_t e = 0; e < c->count; ++e)
        if (c->entries[e].required)
            rows[required++] = e;
    int owner[MACHINE_DEVICES_MAX];
    bool explained[MACHINE_DEVICES_MAX] = {false};
    for (size_t d = 0; d < count; ++d) {
        owner[d] = -1;
        for (size_t r = 0; r < required; ++r)
            matches[r][d] = entry_matches(&c->entries[rows[r]].pattern, report_device_at(report, d));
    }
    for (size_t r = 0; r < required; ++r) {
        bool visited[MACHINE_DEVICES_MAX] = {false};
        unassigned[r] = !assign((const bool(*)[MACHINE_DEVICES_MAX])matches, r, count, visited, owner);
    }
    bool ok = true;
    char text[768], what[384];
    for (size_t d = 0; d < count; ++d)
        if (owner[d] >= 0) {
            describe(report_device_at(report, d), what, sizeof(what));
            snprintf(text, sizeof(text), "line %d: device %zu %s", c->entries[rows[owner[d]]].pattern.line, d, what);
            add_line(matched, text);
        }
    for (size_t r = 0; r < required; ++r)
        if (unassigned[r]) {
            explain_missing(&c->entries[rows[r]], report, owner, explained, problems);
            ok = false;
        }
    for (size_t d = 0; d < count; ++d) {
        if (owner[d] >= 0 || explained[d])
            continue;
        const cJSON *device = report_device_at(report, d);
        bool allowed = false;
        for (size_t e = 0; e < c->count && !allowed; ++e)
            allowed = !c->entries[e].required && expectation_matches_device(&c->entries[e].pattern, device);
        describe(device, what, sizeof(what));
        if (allowed) {
            snprintf(text, sizeof(text), "optional: device %zu %s", d, what);
            add_line(matched, text);
        } else {
            snprintf(text, sizeof(text), "device %zu %s is not one this machine is configured to have", d, what);
            add_line(problems, text);
            ok = false;
        }
    }
    free(matches);
    free(rows);
    free(unassigned);
    return ok;
}
