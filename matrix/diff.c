#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_model.h"
#include "vk_json.h"

static void add(struct diff *d, const char *kind, const char *what, const char *before, const char *after,
                bool regression)
{
    if (d->count == d->capacity) {
        size_t capacity = d->capacity ? d->capacity * 2 : 64;
        struct diff_change *changes = realloc(d->changes, capacity * sizeof(*changes));
        if (changes == NULL)
            return;
        d->changes = changes;
        d->capacity = capacity;
    }
    struct diff_change *c = &d->changes[d->count++];
    snprintf(c->kind, sizeof(c->kind), "%s", kind);
    snprintf(c->what, sizeof(c->what), "%s", what);
    snprintf(c->before, sizeof(c->before), "%s", before);
    snprintf(c->after, sizeof(c->after), "%s", after);
    c->regression = regression;
    c->flags = false;
    c->lost[0] = c->gained[0] = c->reason[0] = '\0';
    d->regressions += regression;
}

void diff_free(struct diff *d)
{
    free(d->changes);
    memset(d, 0, sizeof(*d));
}

static void value_text(const cJSON *v, char *out, size_t size)
{
    if (v == NULL) {
        snprintf(out, size, "(absent)");
        return;
    }
    if (cJSON_IsString(v)) {
        snprintf(out, size, "%s", v->valuestring);
        return;
    }
    char *printed = cJSON_PrintUnformatted(v);
    snprintf(out, size, "%s", printed ? printed : "?");
    free(printed);
}

static const char *limit_type(const char *structure, const char *member)
{
    for (size_t i = 0; i < vkjson_limit_count; ++i)
        if (strcmp(vkjson_limits[i].structure, structure) == 0 && strcmp(vkjson_limits[i].member, member) == 0)
            return vkjson_limits[i].limittype;
    return "";
}

static bool flags_lost(const cJSON *before, const cJSON *after)
{
    const cJSON *bit;
    cJSON_ArrayForEach(bit, before)
    {
        bool kept = false;
        const cJSON *other;
        cJSON_ArrayForEach(other, after)
        {
            if (cJSON_IsString(bit) && cJSON_IsString(other) && strcmp(bit->valuestring, other->valuestring) == 0)
                kept = true;
        }
        if (!kept)
            return true;
    }
    return false;
}

/* The names in `from` missing from `other`, '|'-joined into `out`. */
static void missing_bits(const cJSON *from, const cJSON *other, char *out, size_t size)
{
    size_t at = 0;
    out[0] = '\0';
    const cJSON *bit;
    cJSON_ArrayForEach(bit, from)
    {
        if (!cJSON_IsString(bit))
            continue;
        bool kept = false;
        const cJSON *o;
        cJSON_ArrayForEach(o, other)
        {
            kept = kept || (cJSON_IsString(o) && strcmp(o->valuestring, bit->valuestring) == 0);
        }
        if (!kept && at < size)
            at += (size_t)snprintf(out + at, size - at, "%s%s", at ? "|" : "", bit->valuestring);
    }
}

/* The last change added, as a flag change: its lost and gained bits. */
static void note_flags(struct diff *d, const cJSON *before, const cJSON *after)
{
    if (d->count == 0)
        return;
    struct diff_change *c = &d->changes[d->count - 1];
    c->flags = true;
    missing_bits(before, after, c->lost, sizeof(c->lost));
    missing_bits(after, before, c->gained, sizeof(c->gained));
}

static bool is_flag_array(const cJSON *v)
{
    return cJSON_IsArray(v) && (cJSON_GetArraySize(v) == 0 || cJSON_IsString(cJSON_GetArrayItem(v, 0)));
}

static double number(const cJSON *v)
{
    if (cJSON_IsRaw(v))
        return strtod(v->valuestring, NULL);
    return v->valuedouble;
}

/* Worse by the registry's limittype: "max" limits shrink, "min" limits grow, bitmask booleans
 * and flags are lost, a "range" narrows. */
static bool got_worse(const char *type, const cJSON *before, const cJSON *after, int index)
{
    if (is_flag_array(before) && is_flag_array(after))
        return strstr(type, "bitmask") != NULL && flags_lost(before, after);
    if (cJSON_IsBool(before) && cJSON_IsBool(after))
        return strstr(type, "bitmask") != NULL && cJSON_IsTrue(before) && !cJSON_IsTrue(after);
    if (!(cJSON_IsNumber(before) || cJSON_IsRaw(before)) || !(cJSON_IsNumber(after) || cJSON_IsRaw(after)))
        return false;
    double b = number(before), a = number(after);
    if (strcmp(type, "range") == 0)
        return index == 0 ? a > b : a < b;
    if (strncmp(type, "max", 3) == 0)
        return a < b;
    if (strncmp(type, "min", 3) == 0)
        return a > b;
    return false;
}

/* Member by member, recursing into nested structs (VkExtent2D, limits) and number arrays. */
static void compare_values(struct diff *d, const char *structure, const char *member, const char *path,
                           const cJSON *before, const cJSON *after, int index)
{
    if (cJSON_IsObject(before) && cJSON_IsObject(after)) {
        const cJSON *item;
        cJSON_ArrayForEach(item, before)
        {
            char sub[192];
            snprintf(sub, sizeof(sub), "%s.%s", path, item->string);
            compare_values(d, structure, member, sub, item, cJSON_GetObjectItemCaseSensitive(after, item->string), -1);
        }
        return;
    }
    if (cJSON_IsArray(before) && cJSON_IsArray(after) && !is_flag_array(before) &&
        cJSON_GetArraySize(before) == cJSON_GetArraySize(after)) {
        for (int i = 0; i < cJSON_GetArraySize(before); ++i) {
            char sub[192];
            snprintf(sub, sizeof(sub), "%s[%d]", path, i);
            compare_values(d, structure, member, sub, cJSON_GetArrayItem(before, i), cJSON_GetArrayItem(after, i), i);
        }
        return;
    }
    if (after != NULL && cJSON_Compare(before, after, 1))
        return;
    if (is_flag_array(before) && is_flag_array(after) && !flags_lost(before, after) && !flags_lost(after, before))
        return; /* the same bits in another order */
    char b[128], a[128];
    value_text(before, b, sizeof(b));
    value_text(after, a, sizeof(a));
    bool worse = after == NULL || got_worse(limit_type(structure, member), before, after, index);
    add(d, "limit", path, b, a, worse);
    if (is_flag_array(before) && (after == NULL || is_flag_array(after)))
        note_flags(d, before, after);
}

static void compare_properties(struct diff *d, const cJSON *before, const cJSON *after)
{
    const cJSON *structure;
    cJSON_ArrayForEach(structure, before)
    {
        if (!cJSON_IsObject(structure))
            continue; /* reports that passed report_check can still hold odd shapes here */
        const cJSON *other = cJSON_GetObjectItemCaseSensitive(after, structure->string);
        const cJSON *member;
        cJSON_ArrayForEach(member, structure)
        {
            const char *struct_name = structure->string;
            const cJSON *a = other ? cJSON_GetObjectItemCaseSensitive(other, member->string) : NULL;
            /* The limits and sparse properties nest inside VkPhysicalDeviceProperties. */
            if (strcmp(struct_name, "VkPhysicalDeviceProperties") == 0 && cJSON_IsObject(member) &&
                (strcmp(member->string, "limits") == 0 || strcmp(member->string, "sparseProperties") == 0)) {
                const char *nested =
                    member->string[0] == 'l' ? "VkPhysicalDeviceLimits" : "VkPhysicalDeviceSparseProperties";
                const cJSON *item;
                cJSON_ArrayForEach(item, member)
                {
                    char path[192];
                    snprintf(path, sizeof(path), "%s.%s", nested, item->string);
                    compare_values(d, nested, item->string, path, item,
                                   a ? cJSON_GetObjectItemCaseSensitive(a, item->string) : NULL, -1);
                }
                continue;
            }
            /* Identity-like members change with every driver and are reported under identity. */
            if (strcmp(member->string, "driverVersion") == 0 || strcmp(member->string, "driverInfo") == 0 ||
                strstr(member->string, "UUID") != NULL || strcmp(member->string, "conformanceVersion") == 0)
                continue;
            char path[192];
            snprintf(path, sizeof(path), "%s.%s", struct_name, member->string);
            compare_values(d, struct_name, member->string, path, member, a, -1);
        }
    }
}

static void compare_features(struct diff *d, const cJSON *before, const cJSON *after)
{
    const cJSON *structure;
    cJSON_ArrayForEach(structure, before)
    {
        if (!cJSON_IsObject(structure))
            continue;
        const cJSON *other = cJSON_GetObjectItemCaseSensitive(after, structure->string);
        const cJSON *member;
        cJSON_ArrayForEach(member, structure)
        {
            const cJSON *a = other ? cJSON_GetObjectItemCaseSensitive(other, member->string) : NULL;
            bool had = cJSON_IsTrue(member), has = cJSON_IsTrue(a);
            if (had == has)
                continue;
            char path[192];
            snprintf(path, sizeof(path), "%s.%s", structure->string, member->string);
            add(d, "feature", path, had ? "true" : "false", has ? "true" : a ? "false" : "(absent)", had && !has);
        }
    }
}

static void compare_extensions(struct diff *d, const cJSON *before, const cJSON *after)
{
    const cJSON *e;
    if (!cJSON_IsObject(before) || !cJSON_IsObject(after))
        return;
    cJSON_ArrayForEach(e, before)
    {
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(after, e->string);
        if (a == NULL) {
            char version[16];
            snprintf(version, sizeof(version), "%d", e->valueint);
            add(d, "extension", e->string, version, "(absent)", true);
        } else if (a->valueint != e->valueint) {
            char b[16], n[16];
            snprintf(b, sizeof(b), "%d", e->valueint);
            snprintf(n, sizeof(n), "%d", a->valueint);
            add(d, "extension", e->string, b, n, a->valueint < e->valueint);
        }
    }
    cJSON_ArrayForEach(e, after)
    {
        if (!cJSON_HasObjectItem(before, e->string)) {
            char version[16];
            snprintf(version, sizeof(version), "%d", e->valueint);
            add(d, "extension", e->string, "(absent)", version, false);
        }
    }
}

static void compare_formats(struct diff *d, const cJSON *before, const cJSON *after)
{
    const cJSON *format;
    cJSON_ArrayForEach(format, before)
    {
        if (!cJSON_IsObject(format))
            continue;
        const cJSON *other = cJSON_GetObjectItemCaseSensitive(after, format->string);
        if (other == NULL) {
            add(d, "format", format->string, "supported", "(absent)", true);
            continue;
        }
        const cJSON *structure;
        cJSON_ArrayForEach(structure, format)
        {
            if (!cJSON_IsObject(structure))
                continue;
            const cJSON *member;
            cJSON_ArrayForEach(member, structure)
            {
                const cJSON *a = cJSON_GetObjectItemCaseSensitive(
                    cJSON_GetObjectItemCaseSensitive(other, structure->string), member->string);
                bool lost = a == NULL || flags_lost(member, a);
                bool gained = a != NULL && flags_lost(a, member);
                if (!lost && !gained)
                    continue;
                char path[192], b[128], n[128];
                snprintf(path, sizeof(path), "%s.%s.%s", format->string, structure->string, member->string);
                value_text(member, b, sizeof(b));
                value_text(a, n, sizeof(n));
                add(d, "format", path, b, n, lost);
                note_flags(d, member, a);
            }
        }
    }
}

static const cJSON *find_by(const cJSON *array, const char *key, const char *value)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, array)
    {
        const char *s = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(item, key));
        if (s != NULL && strcmp(s, value) == 0)
            return item;
    }
    return NULL;
}

static void compare_smoke(struct diff *d, const cJSON *before_device, const cJSON *after_device)
{
    const cJSON *entry;
    REPORT_FOR_EACH_SMOKE(entry, before_device)
    {
        struct report_smoke was = report_smoke_of(entry), now;
        if (was.id[0] == '\0' || was.status[0] == '\0')
            continue;
        bool present = report_smoke_find(after_device, was.id, &now);
        const char *now_status = present ? now.status : "(absent)";
        if (strcmp(was.status, now_status) == 0)
            continue;
        /* Verified, and now not verified: the driver broke it. A test skipped on request is not
         * a verdict on the device, so pass -> skipped is reported but is no regression. */
        bool regression = strcmp(was.status, "pass") == 0 && strcmp(now_status, "skipped") != 0;
        add(d, "smoke", was.id, was.status, now_status, regression);
        if (present && now.reason[0] != '\0' && d->count > 0)
            snprintf(d->changes[d->count - 1].reason, sizeof(d->changes[0].reason), "%s", now.reason);
    }
}

static void compare_spec_minimums(struct diff *d, const cJSON *before_device, const cJSON *after_device)
{
    const cJSON *violation;
    cJSON_ArrayForEach(violation, report_spec_minimums(after_device))
    {
        struct report_spec_minimum now = report_spec_minimum_of(violation);
        if (now.limit[0] == '\0' || find_by(report_spec_minimums(before_device), "limit", now.limit) != NULL)
            continue;
        char value[128];
        value_text(now.value, value, sizeof(value));
        char text[160];
        snprintf(text, sizeof(text), "%s (required %s)", value, now.required[0] ? now.required : "?");
        add(d, "spec_minimum", now.limit, "met", text, true);
    }
}

static void compare_identity(struct diff *d, const cJSON *before, const cJSON *after)
{
    static const char *const keys[] = {"driverVersion",      "driverInfo", "apiVersion",
                                       "conformanceVersion", "os",         "kernel"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); ++i) {
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(before, keys[i]);
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(after, keys[i]);
        if (b != NULL && a != NULL && cJSON_Compare(b, a, 1))
            continue;
        char bt[128], at[128];
        value_text(b, bt, sizeof(bt));
        value_text(a, at, sizeof(at));
        add(d, "identity", keys[i], bt, at, false);
    }
}

void diff_devices(const cJSON *before, const cJSON *after, struct diff *out)
{
    memset(out, 0, sizeof(*out));
    compare_identity(out, report_identity_block(before), report_identity_block(after));
    compare_extensions(out, report_declared_extensions(before), report_declared_extensions(after));
    compare_features(out, report_declared_features(before), report_declared_features(after));
    compare_properties(out, report_declared_properties(before), report_declared_properties(after));
    compare_formats(out, report_declared_formats(before), report_declared_formats(after));
    compare_smoke(out, before, after);
    compare_spec_minimums(out, before, after);
}
