#include "expectations_import.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool expectations_regex_to_glob(const char *regex, char *out, size_t size)
{
    size_t n = 0, length = strlen(regex);
    const char *p = regex, *end = regex + length;
    if (p < end && *p == '^')
        ++p;
    if (end > p && end[-1] == '$' && (end - 1 == p || end[-2] != '\\'))
        --end;
    bool in_class = false;
    for (; p < end; ++p) {
        char piece[3] = {*p, 0, 0};
        if (in_class) {
            in_class = *p != ']';
        } else if (*p == '[') {
            in_class = true;
            if (p + 1 < end && p[1] == '^') /* a negated class: [!...] in a glob */
                piece[1] = '!', ++p;
        } else if (*p == '\\' && p + 1 < end) {
            ++p;
            if (isalnum((unsigned char)*p)) /* \d, \w, \s: classes a glob does not have */
                return false;
            if (*p == '*' || *p == '?' || *p == '[' || *p == ']' || *p == '\\')
                piece[0] = '\\', piece[1] = *p;
            else
                piece[0] = *p;
        } else if (*p == '.' && p + 1 < end && (p[1] == '*' || p[1] == '+')) {
            piece[0] = p[1] == '*' ? '*' : '?';
            piece[1] = p[1] == '*' ? '\0' : '*';
            ++p;
        } else if (strchr("()|{}+?*^$", *p) != NULL) {
            return false;
        }
        size_t piece_length = strlen(piece);
        if (n + piece_length >= size)
            return false;
        memcpy(out + n, piece, piece_length);
        n += piece_length;
    }
    out[n] = '\0';
    return !in_class && n > 0;
}

/* A value as an expectations file quotes it: in "..." with \" and \\. */
static void write_quoted(FILE *out, const char *value)
{
    fputc('"', out);
    for (const char *c = value; *c != '\0'; ++c) {
        if (*c == '"' || *c == '\\')
            fputc('\\', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

/* A fails.txt test name is a name, not a pattern: glob characters in it are escaped. */
static bool name_to_glob(const char *name, char *out, size_t size)
{
    size_t n = 0;
    for (const char *c = name; *c != '\0'; ++c) {
        if (n + 3 >= size)
            return false;
        if (*c == '*' || *c == '?' || *c == '[' || *c == '\\')
            out[n++] = '\\';
        out[n++] = *c;
    }
    out[n] = '\0';
    return n > 0;
}

bool expectations_import_mesa(enum expectation_kind kind, const char *text, const char *source, const char *conditions,
                              const char *reason, const char *until, FILE *out, size_t *written, char *error,
                              size_t size)
{
    char *copy = strdup(text);
    if (copy == NULL) {
        snprintf(error, size, "%s: out of memory", source);
        return false;
    }
    const char *base = strrchr(source, '/') ? strrchr(source, '/') + 1 : source;
    int number = 0;
    bool ok = true;
    *written = 0;
    for (char *line = copy, *next = NULL; ok && line != NULL; line = next) {
        next = strchr(line, '\n');
        if (next != NULL)
            *next++ = '\0';
        ++number;
        while (isspace((unsigned char)*line))
            ++line;
        size_t length = strlen(line);
        while (length > 0 && isspace((unsigned char)line[length - 1]))
            line[--length] = '\0';
        if (*line == '\0' || *line == '#')
            continue;
        char glob[160], why[256];
        const char *result = "";
        if (kind == EXPECTATION_FAIL) {
            char *comma = strrchr(line, ',');
            if (comma == NULL || comma[1] == '\0' || comma == line) {
                snprintf(error, size, "%s line %d: not TEST,RESULT (dEQP-VK.foo.bar,Fail)", source, number);
                ok = false;
                break;
            }
            *comma = '\0';
            result = comma + 1;
            ok = name_to_glob(line, glob, sizeof(glob));
        } else {
            ok = expectations_regex_to_glob(line, glob, sizeof(glob));
        }
        if (!ok) {
            snprintf(error, size,
                     "%s line %d: '%.80s' cannot be written as a test glob (alternatives, groups and counted "
                     "repeats have no glob; split the line) or is longer than %zu bytes",
                     source, number, line, sizeof(glob) - 1);
            break;
        }
        snprintf(why, sizeof(why), "%s%s%s line %d%s%.40s", reason, *reason ? " (" : "", base, number,
                 *result ? ": " : "", result);
        if (*reason && strlen(why) + 1 < sizeof(why))
            strcat(why, ")");
        fprintf(out, "%s ", expectation_kind_name(kind));
        write_quoted(out, glob);
        fprintf(out, "%s%s reason=", *conditions ? " " : "", conditions);
        write_quoted(out, why);
        if (until != NULL && *until)
            fprintf(out, " until=%s", until);
        fputc('\n', out);
        ++*written;
    }
    free(copy);
    return ok;
}
