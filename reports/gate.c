#include "gate.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expectations.h"
#include "report_model.h"
#include "vk_json.h"
#include "verdict.h"

enum rule_kind { RULE_VERDICT, RULE_LIMIT, RULE_FEATURE, RULE_EXTENSION, RULE_SPEC_MINIMUMS };
enum comparison { CMP_GE, CMP_LE, CMP_GT, CMP_LT, CMP_EQ, CMP_NE };

struct rule {
    enum rule_kind kind;
    int line;
    char subject[160];           /* test id glob, limit, feature or extension */
    bool allowed[VERDICT_COUNT]; /* RULE_VERDICT */
    enum comparison comparison;  /* RULE_LIMIT */
    double value;
    bool defined; /* vk.xml defines the subject; else a report to be gated must declare it */
};

struct gate {
    struct rule *rules;
    size_t count;
};

static bool parse_comparison(const char *text, enum comparison *out)
{
    static const struct {
        const char *text;
        enum comparison c;
    } table[] = {{">=", CMP_GE}, {"<=", CMP_LE}, {">", CMP_GT}, {"<", CMP_LT}, {"==", CMP_EQ}, {"!=", CMP_NE}};
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); ++i)
        if (strcmp(text, table[i].text) == 0) {
            *out = table[i].c;
            return true;
        }
    return false;
}

/* Splits a line into at most `max` whitespace-separated words; returns how many. */
static int split(char *line, char **words, int max)
{
    int n = 0;
    for (char *save = NULL, *w = strtok_r(line, " \t\r", &save); w != NULL && n < max;
         w = strtok_r(NULL, " \t\r", &save))
        words[n++] = w;
    return n;
}

/* Whether vk.xml knows the name a rule gives (a misspelt one is an error in the requirements, not
 * a device failing them). "member", "limits.member" or "Struct.member". */
static bool known_member(const char *name, bool feature)
{
    const char *dot = strrchr(name, '.');
    const char *member = dot ? dot + 1 : name;
    size_t structure_length = dot ? (size_t)(dot - name) : 0;
    bool limits = dot != NULL && ((structure_length == 6 && strncmp(name, "limits", 6) == 0));
    if (!feature) {
        static const char *const top_level[] = {"apiVersion", "driverVersion", "vendorID", "deviceID", "deviceType"};
        for (size_t i = 0; dot == NULL && i < sizeof(top_level) / sizeof(top_level[0]); ++i)
            if (strcmp(member, top_level[i]) == 0)
                return true;
        for (size_t i = 0; i < vkjson_limit_count; ++i) {
            const struct vkjson_limit *l = &vkjson_limits[i];
            if (strcmp(l->member, member) != 0)
                continue;
            if (dot == NULL || (limits && strcmp(l->structure, "VkPhysicalDeviceLimits") == 0) ||
                (strlen(l->structure) == structure_length && strncmp(l->structure, name, structure_length) == 0))
                return true;
        }
        return false;
    }
    for (size_t i = 0; i < vkjson_feature_member_count; ++i) {
        const struct vkjson_member *f = &vkjson_feature_members[i];
        if (strcmp(f->member, member) == 0 && (dot == NULL || (strlen(f->structure) == structure_length &&
                                                               strncmp(f->structure, name, structure_length) == 0)))
            return true;
    }
    return false;
}

static bool known_extension(const char *name)
{
    for (size_t i = 0; i < vkjson_extension_name_count; ++i)
        if (strcmp(vkjson_extension_names[i], name) == 0)
            return true;
    return false;
}

/* A bare limit name that several of vk.xml's structs have (the EXT and NV mesh shader properties'
 * maxTaskWorkGroupInvocations: 128 and 32 on one H200) names no one value: refused, as the
 * dashboard's /capabilities refuses it, with the qualified names to choose from. */
static bool limit_unambiguous(const struct rule *r, char *error, size_t size)
{
    if (strchr(r->subject, '.') != NULL)
        return true;
    size_t found = 0, at = 0;
    char names[512] = "";
    for (size_t i = 0; i < vkjson_limit_count; ++i) {
        const struct vkjson_limit *l = &vkjson_limits[i];
        if (strcmp(l->member, r->subject) != 0)
            continue;
        if (found++ > 0 && at < sizeof(names))
            at += (size_t)snprintf(names + at, sizeof(names) - at, ", ");
        if (at < sizeof(names))
            at += (size_t)snprintf(names + at, sizeof(names) - at, "%s.%s", l->structure, l->member);
    }
    if (found < 2)
        return true;
    snprintf(error, size, "line %d: '%s' is a member of %zu structs (%s): name one as Struct.member", r->line,
             r->subject, found, names);
    return false;
}

/* The rule's subject checked against vk.xml (limits, features, extensions): a name vk.xml does not
 * know is left to the reports (a newer extension than the build's vk.xml), see gate_check_tests. */
static bool subject_known(struct rule *r, char *error, size_t size)
{
    r->defined = true;
    if (r->kind == RULE_LIMIT) {
        if (!limit_unambiguous(r, error, size))
            return false;
        r->defined = known_member(r->subject, false);
    } else if (r->kind == RULE_FEATURE) {
        r->defined = known_member(r->subject, true);
    } else if (r->kind == RULE_EXTENSION) {
        r->defined = known_extension(r->subject);
    }
    return true;
}

static const cJSON *find_limit(const cJSON *device, const char *name);

/* Whether a device declares the subject of a limit, feature or extension rule. */
static bool device_declares(const struct rule *r, const cJSON *device)
{
    if (r->kind == RULE_EXTENSION)
        return report_declares_extension(device, r->subject);
    if (r->kind == RULE_LIMIT)
        return find_limit(device, r->subject) != NULL;
    const char *dot = strrchr(r->subject, '.');
    const cJSON *s;
    cJSON_ArrayForEach(s, report_declared_features(device))
    {
        if (dot != NULL && (strlen(s->string) != (size_t)(dot - r->subject) ||
                            strncmp(s->string, r->subject, (size_t)(dot - r->subject)) != 0))
            continue;
        if (cJSON_GetObjectItemCaseSensitive(s, dot ? dot + 1 : r->subject) != NULL)
            return true;
    }
    return false;
}

/* A subject neither vk.xml nor any report to be gated knows: misspelt. */
static bool subject_declared(const struct rule *r, const cJSON *const *devices, size_t count, char *error, size_t size)
{
    if (r->defined || (r->kind != RULE_LIMIT && r->kind != RULE_FEATURE && r->kind != RULE_EXTENSION))
        return true;
    for (size_t d = 0; d < count; ++d)
        if (device_declares(r, devices[d]))
            return true;
    const char *what = r->kind == RULE_LIMIT     ? "a limit or property"
                       : r->kind == RULE_FEATURE ? "a feature"
                                                 : "an extension";
    snprintf(error, size, "line %d: '%s' is not %s Vulkan defines, nor one any report declares (misspelt?)", r->line,
             r->subject, what);
    return false;
}

bool gate_check_tests(const struct gate *g, const cJSON *const *devices, size_t count, char *error, size_t size)
{
    for (size_t i = 0; i < g->count; ++i) {
        const struct rule *r = &g->rules[i];
        if (!subject_declared(r, devices, count, error, size))
            return false;
        if (r->kind != RULE_VERDICT)
            continue;
        bool matched = false;
        for (size_t d = 0; d < count && !matched; ++d) {
            const cJSON *entry;
            REPORT_FOR_EACH_SMOKE(entry, devices[d])
            {
                if (fnmatch(r->subject, report_smoke_of(entry).id, 0) == 0) {
                    matched = true;
                    break;
                }
            }
        }
        /* devices without any smoke results (vulkaninfo input) cannot tell a misspelling */
        bool any_smoke = false;
        for (size_t d = 0; d < count; ++d)
            any_smoke = any_smoke || report_smoke_count(devices[d]) > 0;
        if (!matched && any_smoke) {
            snprintf(error, size, "line %d: '%s' matches no smoke test of any report (misspelt?)", r->line, r->subject);
            return false;
        }
    }
    return true;
}

static bool parse_line(char *line, int number, struct rule *r, char *error, size_t size)
{
    char *words[32];
    int n = split(line, words, 32);
    memset(r, 0, sizeof(*r));
    r->line = number;
    if (n == 2 && strcmp(words[0], "feature") == 0) {
        r->kind = RULE_FEATURE;
    } else if (n == 2 && strcmp(words[0], "extension") == 0) {
        r->kind = RULE_EXTENSION;
    } else if (n == 2 && strcmp(words[0], "spec_minimums") == 0 && strcmp(words[1], "none") == 0) {
        r->kind = RULE_SPEC_MINIMUMS;
        snprintf(r->subject, sizeof(r->subject), "spec_minimums");
        return true;
    } else if (n == 3 && parse_comparison(words[1], &r->comparison)) {
        char *end = NULL;
        r->value = strtod(words[2], &end);
        if (end == words[2] || *end != '\0') {
            snprintf(error, size, "line %d: '%s' is not a number", number, words[2]);
            return false;
        }
        r->kind = RULE_LIMIT;
        snprintf(r->subject, sizeof(r->subject), "%s", words[0]);
        return true;
    } else if (n >= 2) {
        /* <test-id> [must] <verdict> [or <verdict>]... */
        r->kind = RULE_VERDICT;
        int i = 1;
        if (strcmp(words[i], "must") == 0)
            ++i;
        bool expect_verdict = true;
        int verdicts = 0;
        for (; i < n; ++i) {
            if (!expect_verdict) {
                if (strcmp(words[i], "or") != 0) {
                    snprintf(error, size, "line %d: expected 'or' before '%s'", number, words[i]);
                    return false;
                }
                expect_verdict = true;
                continue;
            }
            enum verdict v;
            if (!verdict_parse(words[i], &v)) {
                snprintf(error, size,
                         "line %d: '%s' is not a verdict (pass, fail, not_applied, unsupported, skipped, "
                         "crashed, timeout, device_lost)",
                         number, words[i]);
                return false;
            }
            r->allowed[v] = true;
            ++verdicts;
            expect_verdict = false;
        }
        if (verdicts == 0 || expect_verdict) {
            snprintf(error, size, "line %d: a verdict is missing", number);
            return false;
        }
        snprintf(r->subject, sizeof(r->subject), "%s", words[0]);
        return true;
    } else {
        snprintf(error, size, "line %d: not a requirement (see docs/report-tool.md for the format)", number);
        return false;
    }
    snprintf(r->subject, sizeof(r->subject), "%s", words[1]);
    return true;
}

struct gate *gate_parse(const char *text, char *error, size_t size)
{
    struct gate *g = calloc(1, sizeof(*g));
    size_t capacity = 0;
    char *copy = strdup(text);
    if (g == NULL || copy == NULL) {
        free(g);
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
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *start = line;
        while (isspace((unsigned char)*start))
            ++start;
        if (*start == '\0')
            continue;
        if (g->count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            struct rule *rules = realloc(g->rules, capacity * sizeof(*rules));
            if (rules == NULL)
                break;
            g->rules = rules;
        }
        if (!parse_line(start, number, &g->rules[g->count], error, size) ||
            !subject_known(&g->rules[g->count], error, size)) {
            free(copy);
            gate_free(g);
            return NULL;
        }
        g->count++;
    }
    free(copy);
    if (g->count == 0) {
        snprintf(error, size, "no requirements in the file");
        gate_free(g);
        return NULL;
    }
    return g;
}

void gate_free(struct gate *g)
{
    if (g != NULL)
        free(g->rules);
    free(g);
}

size_t gate_rule_count(const struct gate *g)
{
    return g->count;
}

/* "maxComputeSharedMemorySize" or "limits.maxX" or "VkPhysicalDeviceFooProperties.member":
 * the first property struct that has it. */
static const cJSON *find_limit(const cJSON *device, const char *name)
{
    const cJSON *properties = report_declared_properties(device);
    const char *dot = strrchr(name, '.');
    const char *member = dot ? dot + 1 : name;
    char structure[128] = "";
    if (dot != NULL)
        snprintf(structure, sizeof(structure), "%.*s", (int)(dot - name), name);
    const cJSON *limits = report_declared_limits(device);
    if (dot == NULL || strcmp(structure, "limits") == 0 || strcmp(structure, "VkPhysicalDeviceLimits") == 0) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(limits, member);
        if (v != NULL || dot != NULL)
            return v;
    }
    const cJSON *s;
    cJSON_ArrayForEach(s, properties)
    {
        if (!cJSON_IsObject(s))
            continue;
        if (dot != NULL && strcmp(s->string, structure) != 0)
            continue;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, member);
        if (v != NULL)
            return v;
    }
    return NULL;
}

static bool compare(double a, enum comparison c, double b)
{
    switch (c) {
    case CMP_GE:
        return a >= b;
    case CMP_LE:
        return a <= b;
    case CMP_GT:
        return a > b;
    case CMP_LT:
        return a < b;
    case CMP_EQ:
        return a == b;
    case CMP_NE:
        return a != b;
    }
    return false;
}

static const char *comparison_text(enum comparison c)
{
    static const char *const text[] = {">=", "<=", ">", "<", "==", "!="};
    return text[c];
}

static void failed(cJSON *failures, const struct rule *r, const char *format, const char *a, const char *b)
{
    char detail[384], line[512];
    snprintf(detail, sizeof(detail), format, a, b);
    snprintf(line, sizeof(line), "line %d: %s", r->line, detail);
    cJSON_AddItemToArray(failures, cJSON_CreateString(line));
}

/* A result the rule refuses that an expectation excuses: listed in `expected`, not a failure. */
static bool excused(const struct rule *r, const cJSON *device, const struct report_smoke *result,
                    const struct gate_expectations *ex)
{
    if (ex == NULL || ex->expectations == NULL)
        return false;
    const struct expectation *x = expectations_find(ex->expectations, device, result->id, ex->today);
    if (x == NULL || !expectation_excuses(x, result->status))
        return false;
    cJSON *item = cJSON_CreateObject();
    cJSON_AddStringToObject(item, "test", result->id);
    cJSON_AddStringToObject(item, "status", result->status);
    cJSON_AddNumberToObject(item, "rule", r->line);
    cJSON_AddNumberToObject(item, "line", x->line);
    cJSON_AddStringToObject(item, "kind", expectation_kind_name(x->kind));
    cJSON_AddStringToObject(item, "reason", x->reason);
    cJSON_AddItemToArray(ex->expected, item);
    return true;
}

static bool evaluate(const struct rule *r, const cJSON *device, const struct gate_expectations *ex, cJSON *failures)
{
    char text[64];
    switch (r->kind) {
    case RULE_FEATURE: {
        const char *dot = strrchr(r->subject, '.');
        bool found = false;
        const cJSON *s;
        cJSON_ArrayForEach(s, report_declared_features(device))
        {
            if (!cJSON_IsObject(s))
                continue;
            if (dot != NULL && strncmp(s->string, r->subject, (size_t)(dot - r->subject)) != 0)
                continue;
            found = found || cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, dot ? dot + 1 : r->subject));
        }
        if (!found)
            failed(failures, r, "feature %s is not declared%s", r->subject, "");
        return found;
    }
    case RULE_EXTENSION:
        if (report_declares_extension(device, r->subject))
            return true;
        failed(failures, r, "extension %s is not exposed%s", r->subject, "");
        return false;
    case RULE_SPEC_MINIMUMS: {
        int violations = (int)report_spec_minimum_count(device);
        if (violations == 0)
            return true;
        snprintf(text, sizeof(text), "%d", violations);
        failed(failures, r, "%s limits fall short of the spec's minimums%s", text, "");
        return false;
    }
    case RULE_LIMIT: {
        const cJSON *v = find_limit(device, r->subject);
        if (!cJSON_IsNumber(v)) {
            failed(failures, r, "%s is not reported as a number%s", r->subject, "");
            return false;
        }
        if (compare(v->valuedouble, r->comparison, r->value))
            return true;
        char want[96];
        snprintf(text, sizeof(text), "%.17g", v->valuedouble);
        snprintf(want, sizeof(want), "%s %.17g", comparison_text(r->comparison), r->value);
        char subject_value[256];
        snprintf(subject_value, sizeof(subject_value), "%s is %s", r->subject, text);
        failed(failures, r, "%s, required %s", subject_value, want);
        return false;
    }
    case RULE_VERDICT: {
        bool matched = false, ok = true;
        const cJSON *entry;
        REPORT_FOR_EACH_SMOKE(entry, device)
        {
            struct report_smoke result = report_smoke_of(entry);
            if (fnmatch(r->subject, result.id, 0) != 0)
                continue;
            matched = true;
            enum verdict v;
            if ((verdict_parse(result.status, &v) && r->allowed[v]) || excused(r, device, &result, ex))
                continue;
            char detail[256];
            snprintf(detail, sizeof(detail), "%s%s%s", result.status[0] ? result.status : "?",
                     result.reason[0] ? ": " : "", result.reason);
            failed(failures, r, "%s is %s", result.id, detail);
            ok = false;
        }
        if (!matched)
            failed(failures, r, "no smoke result matches %s%s", r->subject, "");
        return matched && ok;
    }
    }
    return false;
}

bool gate_evaluate(const struct gate *g, const cJSON *device, cJSON *failures)
{
    return gate_evaluate_expected(g, device, NULL, failures);
}

bool gate_evaluate_expected(const struct gate *g, const cJSON *device, const struct gate_expectations *ex,
                            cJSON *failures)
{
    bool all = true;
    for (size_t i = 0; i < g->count; ++i)
        all = evaluate(&g->rules[i], device, ex, failures) && all;
    return all;
}
