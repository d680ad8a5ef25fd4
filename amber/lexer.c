#include "lexer.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void amber_lexer_init(struct amber_lexer *l, const char *text, size_t length)
{
    memset(l, 0, sizeof(*l));
    l->text = text;
    l->length = length;
    l->line = 1;
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool ends_word(char c)
{
    return is_blank(c) || c == '\n' || c == '"';
}

static void new_line(struct amber_lexer *l)
{
    ++l->at;
    ++l->line;
    l->line_start = l->at;
}

static void skip_comment(struct amber_lexer *l)
{
    while (l->at < l->length && l->text[l->at] != '\n')
        ++l->at;
}

static void read_string(struct amber_lexer *l, struct amber_token *t)
{
    ++l->at; /* the opening quote */
    t->kind = AMBER_TOKEN_STRING;
    while (l->at < l->length && l->text[l->at] != '"' && l->text[l->at] != '\n') {
        char c = l->text[l->at++];
        if (c == '\\' && l->at < l->length && l->text[l->at] != '\n') {
            char e = l->text[l->at++];
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e;
        }
        if (t->length + 1 < sizeof(t->text))
            t->text[t->length++] = c;
        else
            t->too_long = true;
    }
    if (l->at < l->length && l->text[l->at] == '"')
        ++l->at;
    t->text[t->length] = '\0';
}

static void scan(struct amber_lexer *l, struct amber_token *t)
{
    t->kind = AMBER_TOKEN_END_OF_FILE;
    t->text[0] = '\0';
    t->length = 0;
    t->too_long = false;
    for (;;) {
        while (l->at < l->length && is_blank(l->text[l->at]))
            ++l->at;
        if (l->at < l->length && l->text[l->at] == '#')
            skip_comment(l);
        /* a '\' alone before the line end joins the next line to this one */
        if (l->at + 1 < l->length && l->text[l->at] == '\\') {
            size_t after = l->at + 1;
            while (after < l->length && is_blank(l->text[after]))
                ++after;
            if (after < l->length && l->text[after] == '\n') {
                l->at = after;
                new_line(l);
                continue;
            }
        }
        break;
    }
    t->line = l->line;
    t->column = (uint32_t)(l->at - l->line_start) + 1;
    if (l->at >= l->length) {
        t->kind = AMBER_TOKEN_END_OF_FILE;
        return;
    }
    if (l->text[l->at] == '\n') {
        t->kind = AMBER_TOKEN_END_OF_LINE;
        new_line(l);
        return;
    }
    if (l->text[l->at] == '"') {
        read_string(l, t);
        return;
    }
    t->kind = AMBER_TOKEN_WORD;
    while (l->at < l->length && !ends_word(l->text[l->at])) {
        char c = l->text[l->at++];
        if (c == '\0')
            c = '?'; /* a NUL byte cannot hide the rest of a word from messages */
        if (t->length + 1 < sizeof(t->text))
            t->text[t->length++] = c;
        else
            t->too_long = true;
    }
    t->text[t->length] = '\0';
}

void amber_lexer_next(struct amber_lexer *l, struct amber_token *t)
{
    if (l->has_peeked) {
        *t = l->peeked;
        l->has_peeked = false;
        return;
    }
    scan(l, t);
}

const struct amber_token *amber_lexer_peek(struct amber_lexer *l)
{
    if (!l->has_peeked) {
        scan(l, &l->peeked);
        l->has_peeked = true;
    }
    return &l->peeked;
}

void amber_lexer_skip_line(struct amber_lexer *l)
{
    if (l->has_peeked) {
        l->has_peeked = false;
        if (l->peeked.kind == AMBER_TOKEN_END_OF_LINE || l->peeked.kind == AMBER_TOKEN_END_OF_FILE)
            return;
    }
    while (l->at < l->length && l->text[l->at] != '\n')
        ++l->at;
    if (l->at < l->length)
        new_line(l);
}

/* Whether the line starting at `at` has END as its first word. */
static bool line_is_end(const struct amber_lexer *l, size_t at)
{
    while (at < l->length && is_blank(l->text[at]))
        ++at;
    if (l->length - at < 3 || memcmp(l->text + at, "END", 3) != 0)
        return false;
    at += 3;
    return at == l->length || ends_word(l->text[at]) || l->text[at] == '#';
}

bool amber_lexer_raw_block(struct amber_lexer *l, const char **start, size_t *length, uint32_t *start_line)
{
    amber_lexer_skip_line(l);
    *start = l->text + l->at;
    *start_line = l->line;
    size_t begin = l->at;
    for (;;) {
        if (l->at >= l->length) {
            *length = l->at - begin;
            return false;
        }
        if (line_is_end(l, l->at)) {
            *length = l->at - begin;
            while (l->at < l->length && is_blank(l->text[l->at]))
                ++l->at;
            l->at += 3; /* END */
            return true;
        }
        while (l->at < l->length && l->text[l->at] != '\n')
            ++l->at;
        if (l->at < l->length)
            new_line(l);
    }
}

bool amber_word_is(const struct amber_token *t, const char *word)
{
    return t->kind == AMBER_TOKEN_WORD && strcmp(t->text, word) == 0;
}

bool amber_token_is_hex(const struct amber_token *t)
{
    return t->kind == AMBER_TOKEN_WORD && t->length > 2 && t->text[0] == '0' &&
           (t->text[1] == 'x' || t->text[1] == 'X');
}

bool amber_token_integer(const struct amber_token *t, struct amber_integer *value)
{
    if (t->kind != AMBER_TOKEN_WORD || t->length == 0)
        return false;
    const char *s = t->text;
    value->negative = false;
    if (*s == '-' || *s == '+')
        value->negative = *s++ == '-';
    int base = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    }
    if (*s == '\0')
        return false;
    for (const char *c = s; *c; ++c) {
        bool digit = base == 16 ? (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f') || (*c >= 'A' && *c <= 'F')
                                : *c >= '0' && *c <= '9';
        if (!digit)
            return false;
    }
    errno = 0;
    char *end = NULL;
    value->magnitude = strtoull(s, &end, base);
    if (errno == ERANGE || *end != '\0')
        return false;
    if (value->magnitude == 0)
        value->negative = false;
    return true;
}

bool amber_token_double(const struct amber_token *t, double *value)
{
    if (t->kind != AMBER_TOKEN_WORD || t->length == 0)
        return false;
    struct amber_integer integer;
    if (amber_token_integer(t, &integer)) {
        *value = integer.negative ? -(double)integer.magnitude : (double)integer.magnitude;
        return true;
    }
    char *end = NULL;
    errno = 0;
    double parsed = strtod(t->text, &end);
    if (end == t->text || *end != '\0')
        return false;
    /* strtod reads "0x1p3" as hexadecimal floats, and "infinity"/"nan" in any case: AmberScript
     * has hexadecimal only for integers */
    if (strchr(t->text, 'x') != NULL || strchr(t->text, 'X') != NULL)
        return false;
    if (errno == ERANGE && isinf(parsed))
        return false;
    *value = parsed;
    return true;
}
