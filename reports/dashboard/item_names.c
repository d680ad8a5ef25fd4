#include "item_names.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_json.h"

/* vk.xml's names of one kind, one by one: false past the last. */
static bool defined_at(const char *kind, size_t i, char out[ITEM_NAME_MAX])
{
    if (strcmp(kind, "feature") == 0 && i < vkjson_feature_member_count) {
        snprintf(out, ITEM_NAME_MAX, "%s.%s", vkjson_feature_members[i].structure, vkjson_feature_members[i].member);
        return true;
    }
    if (strcmp(kind, "limit") == 0 && i < vkjson_limit_count) {
        snprintf(out, ITEM_NAME_MAX, "%s.%s", vkjson_limits[i].structure, vkjson_limits[i].member);
        return true;
    }
    if (strcmp(kind, "extension") == 0 && i < vkjson_extension_name_count) {
        snprintf(out, ITEM_NAME_MAX, "%s", vkjson_extension_names[i]);
        return true;
    }
    if (strcmp(kind, "format") == 0 && i < vkjson_format_count) {
        snprintf(out, ITEM_NAME_MAX, "%s", vkjson_formats[i].name);
        return true;
    }
    return false;
}

bool item_name_defined(const char *kind, const char *name)
{
    char candidate[ITEM_NAME_MAX];
    for (size_t i = 0; defined_at(kind, i, candidate); ++i)
        if (strcmp(candidate, name) == 0)
            return true;
    return false;
}

size_t item_name_qualify(const char *kind, const char *member, char (*out)[ITEM_NAME_MAX], size_t max)
{
    if ((strcmp(kind, "feature") != 0 && strcmp(kind, "limit") != 0) || strchr(member, '.') != NULL)
        return 0;
    size_t found = 0;
    char candidate[ITEM_NAME_MAX];
    for (size_t i = 0; defined_at(kind, i, candidate); ++i) {
        const char *dot = strchr(candidate, '.');
        if (dot == NULL || strcmp(dot + 1, member) != 0)
            continue;
        if (found < max)
            snprintf(out[found], ITEM_NAME_MAX, "%s", candidate);
        ++found;
    }
    return found;
}

/* Levenshtein distance, case ignored; stops counting at `limit` + 1. */
static size_t distance(const char *a, const char *b, size_t limit)
{
    size_t n = strlen(a), m = strlen(b);
    if (n >= ITEM_NAME_MAX || m >= ITEM_NAME_MAX)
        return limit + 1;
    if ((n > m ? n - m : m - n) > limit)
        return limit + 1;
    size_t row[ITEM_NAME_MAX + 1];
    for (size_t j = 0; j <= m; ++j)
        row[j] = j;
    for (size_t i = 1; i <= n; ++i) {
        size_t diagonal = row[0], smallest = ++row[0];
        for (size_t j = 1; j <= m; ++j) {
            size_t above = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
            size_t best = diagonal + cost;
            if (above + 1 < best)
                best = above + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
            if (best < smallest)
                smallest = best;
        }
        if (smallest > limit)
            return limit + 1;
    }
    return row[m];
}

static const char *member_part(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot ? dot + 1 : name;
}

struct scored {
    size_t score;
    char name[ITEM_NAME_MAX];
};

static void consider(struct scored *best, size_t max, size_t *count, const char *query, const char *candidate,
                     size_t limit)
{
    size_t score = distance(query, candidate, limit);
    size_t by_member = distance(member_part(query), member_part(candidate), limit);
    if (by_member < score)
        score = by_member;
    if (score > limit)
        return;
    for (size_t i = 0; i < *count; ++i)
        if (strcmp(best[i].name, candidate) == 0)
            return;
    size_t at = *count < max ? (*count)++ : max;
    if (at == max) { /* full: replace the worst when this one is better */
        at = max - 1;
        if (best[at].score < score || (best[at].score == score && strcmp(best[at].name, candidate) <= 0))
            return;
    }
    best[at].score = score;
    snprintf(best[at].name, ITEM_NAME_MAX, "%s", candidate);
    for (; at > 0 && (best[at - 1].score > best[at].score ||
                      (best[at - 1].score == best[at].score && strcmp(best[at - 1].name, best[at].name) > 0));
         --at) {
        struct scored swap = best[at - 1];
        best[at - 1] = best[at];
        best[at] = swap;
    }
}

size_t item_names_closest(const char *kind, const char *name, const char *const *extra, size_t extra_count,
                          char (*out)[ITEM_NAME_MAX], size_t max)
{
    if (max == 0)
        return 0;
    struct scored *best = calloc(max, sizeof(*best));
    if (best == NULL)
        return 0;
    size_t length = strlen(member_part(name));
    size_t limit = length / 3 + 2; /* a misspelling, not a different name */
    size_t count = 0;
    char candidate[ITEM_NAME_MAX];
    for (size_t i = 0; defined_at(kind, i, candidate); ++i)
        consider(best, max, &count, name, candidate, limit);
    for (size_t i = 0; i < extra_count; ++i)
        consider(best, max, &count, name, extra[i], limit);
    for (size_t i = 0; i < count; ++i)
        snprintf(out[i], ITEM_NAME_MAX, "%s", best[i].name);
    free(best);
    return count;
}
