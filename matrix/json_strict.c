#include "json_strict.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

struct scan {
    const unsigned char *text;
    size_t length, at;
    char *error;
    size_t size;
    /* decoded object keys of the objects open now, one buffer for the whole check (a malloc per
     * key made the allocator the cost of large fleets) */
    char *pool;
    size_t pool_used, pool_capacity;
};

static bool refuse(struct scan *s, const char *problem)
{
    snprintf(s->error, s->size, "byte %zu: %s", s->at, problem);
    return false;
}

static void skip_space(struct scan *s)
{
    while (s->at < s->length &&
           (s->text[s->at] == ' ' || s->text[s->at] == '\t' || s->text[s->at] == '\n' || s->text[s->at] == '\r'))
        s->at++;
}

/* The length of the UTF-8 sequence at `p` (up to `left` bytes), 0 when invalid; its code point. */
static size_t utf8_sequence(const unsigned char *p, size_t left, uint32_t *code)
{
    unsigned char c = p[0];
    size_t n;
    uint32_t value, min;
    if (c < 0x80) {
        *code = c;
        return 1;
    } else if ((c & 0xE0) == 0xC0) {
        n = 2, value = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3, value = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4, value = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (n > left)
        return 0;
    for (size_t i = 1; i < n; ++i) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        value = value << 6 | (p[i] & 0x3F);
    }
    if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
        return 0;
    *code = value;
    return n;
}

bool json_valid_utf8(const char *text, size_t length)
{
    const unsigned char *p = (const unsigned char *)text;
    for (size_t at = 0; at < length;) {
        uint32_t code;
        size_t n = utf8_sequence(p + at, length - at, &code);
        if (n == 0)
            return false;
        at += n;
    }
    return true;
}

static int hex_value(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool hex4(struct scan *s, uint32_t *out)
{
    if (s->at + 4 > s->length)
        return refuse(s, "\\u escape cut short");
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        int h = hex_value(s->text[s->at + i]);
        if (h < 0)
            return refuse(s, "\\u escape with a non-hex digit");
        v = v << 4 | (uint32_t)h;
    }
    s->at += 4;
    *out = v;
    return true;
}

/* Appends a code point as UTF-8 to `out` (when given, with room for `room` bytes). */
static void put_utf8(uint32_t code, char *out, size_t room, size_t *used)
{
    char b[4];
    size_t n;
    if (code < 0x80)
        b[0] = (char)code, n = 1;
    else if (code < 0x800)
        b[0] = (char)(0xC0 | code >> 6), b[1] = (char)(0x80 | (code & 0x3F)), n = 2;
    else if (code < 0x10000)
        b[0] = (char)(0xE0 | code >> 12), b[1] = (char)(0x80 | ((code >> 6) & 0x3F)),
        b[2] = (char)(0x80 | (code & 0x3F)), n = 3;
    else
        b[0] = (char)(0xF0 | code >> 18), b[1] = (char)(0x80 | ((code >> 12) & 0x3F)),
        b[2] = (char)(0x80 | ((code >> 6) & 0x3F)), b[3] = (char)(0x80 | (code & 0x3F)), n = 4;
    if (out != NULL && *used + n <= room)
        memcpy(out + *used, b, n);
    *used += n;
}

/* A string at s->at (the opening quote); its decoded bytes into `out` (up to `room`; *used says
 * how many it needs). */
static bool string(struct scan *s, char *out, size_t room, size_t *used)
{
    *used = 0;
    s->at++; /* the quote */
    for (;;) {
        /* a run of plain ASCII (most of a report): checked and copied at once */
        size_t run = s->at;
        while (run < s->length && s->text[run] >= 0x20 && s->text[run] < 0x80 && s->text[run] != '"' &&
               s->text[run] != '\\')
            ++run;
        if (run > s->at) {
            size_t n = run - s->at;
            if (out != NULL && *used + n <= room)
                memcpy(out + *used, s->text + s->at, n);
            *used += n;
            s->at = run;
        }
        if (s->at >= s->length)
            return refuse(s, "string not closed");
        unsigned char c = s->text[s->at];
        if (c == '"') {
            s->at++;
            return true;
        }
        if (c < 0x20)
            return refuse(s, c == 0 ? "a NUL byte inside a string" : "a control character inside a string (escape it)");
        if (c == '\\') {
            if (s->at + 1 >= s->length)
                return refuse(s, "escape cut short");
            unsigned char e = s->text[s->at + 1];
            s->at += 2;
            const char *simple = strchr("\"\\/bfnrt", e);
            if (e != 0 && simple != NULL) {
                static const char decoded[] = "\"\\/\b\f\n\r\t";
                put_utf8((uint32_t)(unsigned char)decoded[simple - "\"\\/bfnrt"], out, room, used);
                continue;
            }
            if (e != 'u') {
                s->at -= 2;
                return refuse(s, "an unknown escape");
            }
            uint32_t code;
            if (!hex4(s, &code))
                return false;
            if (code == 0)
                return refuse(s, "\\u0000 (NUL) inside a string");
            if (code >= 0xDC00 && code <= 0xDFFF)
                return refuse(s, "a lone low surrogate escape");
            if (code >= 0xD800 && code <= 0xDBFF) {
                uint32_t low;
                if (s->at + 2 > s->length || s->text[s->at] != '\\' || s->text[s->at + 1] != 'u')
                    return refuse(s, "a high surrogate escape without its low half");
                s->at += 2;
                if (!hex4(s, &low))
                    return false;
                if (low < 0xDC00 || low > 0xDFFF)
                    return refuse(s, "a high surrogate escape without its low half");
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            }
            put_utf8(code, out, room, used);
            continue;
        }
        uint32_t code;
        size_t n = utf8_sequence(s->text + s->at, s->length - s->at, &code);
        if (n == 0)
            return refuse(s, "bytes that are not UTF-8");
        if (out != NULL && *used + n <= room)
            memcpy(out + *used, s->text + s->at, n);
        *used += n;
        s->at += n;
    }
}

static bool number(struct scan *s)
{
    size_t start = s->at;
    if (s->at < s->length && s->text[s->at] == '-')
        s->at++;
    if (s->at >= s->length)
        return refuse(s, "a number cut short");
    if (s->text[s->at] == '0') {
        s->at++;
    } else if (s->text[s->at] >= '1' && s->text[s->at] <= '9') {
        while (s->at < s->length && s->text[s->at] >= '0' && s->text[s->at] <= '9')
            s->at++;
    } else {
        return refuse(s, "not a JSON value");
    }
    if (s->at < s->length && s->text[s->at] == '.') {
        s->at++;
        if (s->at >= s->length || s->text[s->at] < '0' || s->text[s->at] > '9')
            return refuse(s, "a number with no digit after the point");
        while (s->at < s->length && s->text[s->at] >= '0' && s->text[s->at] <= '9')
            s->at++;
    }
    if (s->at < s->length && (s->text[s->at] == 'e' || s->text[s->at] == 'E')) {
        s->at++;
        if (s->at < s->length && (s->text[s->at] == '+' || s->text[s->at] == '-'))
            s->at++;
        if (s->at >= s->length || s->text[s->at] < '0' || s->text[s->at] > '9')
            return refuse(s, "a number with no digit in its exponent");
        while (s->at < s->length && s->text[s->at] >= '0' && s->text[s->at] <= '9')
            s->at++;
    }
    char copy[128];
    size_t n = s->at - start;
    if (n >= sizeof(copy)) {
        s->at = start;
        return refuse(s, "a number of more than 127 characters");
    }
    memcpy(copy, s->text + start, n);
    copy[n] = '\0';
    if (!isfinite(strtod(copy, NULL))) {
        s->at = start;
        return refuse(s, "a number too large for a double (out of range)");
    }
    return true;
}

static bool literal(struct scan *s, const char *word)
{
    size_t n = strlen(word);
    if (s->at + n > s->length || memcmp(s->text + s->at, word, n) != 0)
        return refuse(s, "not a JSON value");
    s->at += n;
    return true;
}

struct key {
    size_t offset, length; /* in the scan's pool */
    size_t at;             /* where it starts in the text, for the message */
};

static _Thread_local const char *sort_pool; /* qsort has no context argument: the pool the keys point into */

static int compare_keys(const void *x, const void *y)
{
    const struct key *a = x, *b = y;
    size_t n = a->length < b->length ? a->length : b->length;
    int c = memcmp(sort_pool + a->offset, sort_pool + b->offset, n);
    if (c != 0)
        return c;
    return a->length < b->length ? -1 : a->length > b->length;
}

static bool value(struct scan *s, int depth);

static bool object(struct scan *s, int depth)
{
    s->at++; /* { */
    struct key small[16], *keys = small;
    size_t count = 0, capacity = 16, pool_mark = s->pool_used;
    bool ok = true;
    skip_space(s);
    if (s->at < s->length && s->text[s->at] == '}') {
        s->at++;
        return true;
    }
    for (;;) {
        skip_space(s);
        if (s->at >= s->length || s->text[s->at] != '"') {
            ok = refuse(s, "an object key that is not a string");
            break;
        }
        size_t key_at = s->at, needed;
        struct scan probe = *s;
        if (!string(&probe, NULL, 0, &needed)) { /* the size first, then the bytes */
            s->at = probe.at;
            ok = false;
            break;
        }
        if (count == capacity) {
            struct key *grown = malloc(capacity * 2 * sizeof(*keys));
            if (grown == NULL) {
                ok = refuse(s, "out of memory");
                break;
            }
            memcpy(grown, keys, count * sizeof(*keys));
            if (keys != small)
                free(keys);
            keys = grown;
            capacity *= 2;
        }
        if (s->pool == NULL || s->pool_used + needed > s->pool_capacity) { /* NULL + 0 is undefined too */
            size_t grown_capacity = s->pool_capacity ? s->pool_capacity : 4096;
            while (grown_capacity < s->pool_used + needed)
                grown_capacity *= 2;
            char *grown = realloc(s->pool, grown_capacity);
            if (grown == NULL) {
                ok = refuse(s, "out of memory");
                break;
            }
            s->pool = grown;
            s->pool_capacity = grown_capacity;
        }
        string(s, s->pool + s->pool_used, needed, &needed);
        keys[count++] = (struct key){s->pool_used, needed, key_at};
        s->pool_used += needed;
        skip_space(s);
        if (s->at >= s->length || s->text[s->at] != ':') {
            ok = refuse(s, "':' expected after an object key");
            break;
        }
        s->at++;
        if (!value(s, depth + 1)) {
            ok = false;
            break;
        }
        skip_space(s);
        if (s->at < s->length && s->text[s->at] == ',') {
            s->at++;
            continue;
        }
        if (s->at < s->length && s->text[s->at] == '}') {
            s->at++;
            break;
        }
        ok = refuse(s, "',' or '}' expected in an object");
        break;
    }
    if (ok && count > 1) {
        sort_pool = s->pool;
        qsort(keys, count, sizeof(*keys), compare_keys);
        for (size_t i = 1; i < count && ok; ++i)
            if (compare_keys(&keys[i - 1], &keys[i]) == 0) {
                size_t later = keys[i].at > keys[i - 1].at ? keys[i].at : keys[i - 1].at;
                char problem[200];
                snprintf(problem, sizeof(problem), "the key \"%.*s\" appears twice in one object",
                         (int)(keys[i].length < 80 ? keys[i].length : 80), s->pool + keys[i].offset);
                s->at = later;
                ok = refuse(s, problem);
            }
    }
    if (keys != small)
        free(keys);
    s->pool_used = pool_mark; /* this object's keys are done with */
    return ok;
}

static bool array(struct scan *s, int depth)
{
    s->at++; /* [ */
    skip_space(s);
    if (s->at < s->length && s->text[s->at] == ']') {
        s->at++;
        return true;
    }
    for (;;) {
        if (!value(s, depth + 1))
            return false;
        skip_space(s);
        if (s->at < s->length && s->text[s->at] == ',') {
            s->at++;
            continue;
        }
        if (s->at < s->length && s->text[s->at] == ']') {
            s->at++;
            return true;
        }
        return refuse(s, "',' or ']' expected in an array");
    }
}

static bool value(struct scan *s, int depth)
{
    if (depth > JSON_STRICT_MAX_DEPTH) {
        char problem[96];
        snprintf(problem, sizeof(problem), "nested deeper than %d levels (too deep)", JSON_STRICT_MAX_DEPTH);
        return refuse(s, problem);
    }
    skip_space(s);
    if (s->at >= s->length)
        return refuse(s, "a value expected, the text ended");
    size_t used;
    switch (s->text[s->at]) {
    case '{':
        return object(s, depth);
    case '[':
        return array(s, depth);
    case '"':
        return string(s, NULL, 0, &used);
    case 't':
        return literal(s, "true");
    case 'f':
        return literal(s, "false");
    case 'n':
        return literal(s, "null");
    default:
        return number(s);
    }
}

bool json_strict_check(const char *text, size_t length, char *error, size_t size)
{
    struct scan s = {(const unsigned char *)text, length, 0, error, size, NULL, 0, 0};
    bool ok = value(&s, 1);
    skip_space(&s);
    if (ok && s.at != s.length)
        ok = refuse(&s, "more after the JSON value (trailing garbage)");
    free(s.pool);
    return ok;
}

cJSON *json_strict_parse(const char *text, size_t length, const char *name, char *error, size_t size)
{
    char strict[256];
    if (!json_strict_check(text, length, strict, sizeof(strict))) {
        snprintf(error, size, "%s: malformed JSON: %s", name, strict);
        return NULL;
    }
    const char *end = NULL;
    cJSON *json = cJSON_ParseWithLengthOpts(text, length, &end, 0);
    if (json == NULL) {
        size_t offset = end != NULL && end >= text ? (size_t)(end - text) : 0;
        snprintf(error, size, "%s: malformed JSON near byte %zu", name, offset);
    }
    return json;
}
