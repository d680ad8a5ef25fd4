#include "html.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool reserve(struct buf *b, size_t more)
{
    if (b->failed)
        return false;
    if (b->length + more + 1 <= b->capacity)
        return true;
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity < b->length + more + 1)
        capacity *= 2;
    char *data = realloc(b->data, capacity);
    if (data == NULL) {
        b->failed = true;
        return false;
    }
    b->data = data;
    b->capacity = capacity;
    return true;
}

void buf_add_bytes(struct buf *b, const char *data, size_t length)
{
    if (!reserve(b, length))
        return;
    memcpy(b->data + b->length, data, length);
    b->length += length;
    b->data[b->length] = '\0';
}

void buf_add(struct buf *b, const char *text)
{
    buf_add_bytes(b, text, strlen(text));
}

void buf_printf(struct buf *b, const char *format, ...)
{
    va_list list;
    va_start(list, format);
    char small[512];
    int n = vsnprintf(small, sizeof(small), format, list);
    va_end(list);
    if (n < 0)
        return;
    if ((size_t)n < sizeof(small)) {
        buf_add_bytes(b, small, (size_t)n);
        return;
    }
    if (!reserve(b, (size_t)n))
        return;
    va_start(list, format);
    vsnprintf(b->data + b->length, (size_t)n + 1, format, list);
    va_end(list);
    b->length += (size_t)n;
}

/* Code points that change how the text around them is shown without being seen themselves: C0
 * and C1 controls, bidirectional embeddings, overrides and isolates (a device name can display
 * spoofed with them, "Trojan Source"), zero-width and other invisible formatting characters; and
 * the noncharacters U+FFFE and U+FFFF, which XML forbids (the Atom feed is escaped the same way). */
static bool shown_as_marker(uint32_t c)
{
    return (c < 0x20 && c != '\t' && c != '\n') || (c >= 0x7f && c <= 0x9f) || c == 0x061c || c == 0x180e ||
           (c >= 0x200b && c <= 0x200f) || (c >= 0x2028 && c <= 0x202e) || (c >= 0x2060 && c <= 0x206f) ||
           c == 0xfeff || (c >= 0xfff9 && c <= 0xfffb) || c == 0xfffe || c == 0xffff;
}

/* The code point of the UTF-8 sequence at `s` and its length; 0 bytes when it is not valid UTF-8
 * (a stray continuation byte, a truncated or overlong sequence, a surrogate, beyond U+10FFFF). */
static size_t utf8_decode(const unsigned char *s, uint32_t *c)
{
    size_t n = s[0] < 0x80 ? 1 : (s[0] & 0xe0) == 0xc0 ? 2 : (s[0] & 0xf0) == 0xe0 ? 3 : (s[0] & 0xf8) == 0xf0 ? 4 : 0;
    if (n == 0)
        return 0;
    uint32_t value = n == 1 ? s[0] : n == 2 ? s[0] & 0x1fu : n == 3 ? s[0] & 0x0fu : s[0] & 0x07u;
    for (size_t i = 1; i < n; ++i) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        value = value << 6 | (s[i] & 0x3fu);
    }
    static const uint32_t smallest[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (value < smallest[n] || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
        return 0;
    *c = value;
    return n;
}

void buf_escape(struct buf *b, const char *text)
{
    if (text == NULL)
        return;
    for (const unsigned char *s = (const unsigned char *)text; *s;) {
        uint32_t c = 0;
        size_t n = utf8_decode(s, &c);
        if (n == 0) {
            buf_add(b, "\xef\xbf\xbd"); /* U+FFFD for each byte that is not UTF-8 */
            ++s;
            continue;
        }
        switch (c) {
        case '&':
            buf_add(b, "&amp;");
            break;
        case '<':
            buf_add(b, "&lt;");
            break;
        case '>':
            buf_add(b, "&gt;");
            break;
        case '"':
            buf_add(b, "&quot;");
            break;
        case '\'':
            buf_add(b, "&#39;");
            break;
        default:
            if (shown_as_marker(c))
                buf_printf(b, "&lt;U+%04X&gt;", (unsigned)c);
            else
                buf_add_bytes(b, (const char *)s, n);
        }
        s += n;
    }
}

void buf_url(struct buf *b, const char *text)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *s = (const unsigned char *)text; s && *s; ++s) {
        if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' ||
            *s == '_' || *s == '.' || *s == '~') {
            buf_add_bytes(b, (const char *)s, 1);
        } else {
            char e[3] = {'%', hex[*s >> 4], hex[*s & 15]};
            buf_add_bytes(b, e, 3);
        }
    }
}

void buf_free(struct buf *b)
{
    free(b->data);
    memset(b, 0, sizeof(*b));
}

void svg_share_bar(struct buf *b, double share, double share2, const char *label)
{
    share = share < 0 ? 0 : share > 1 ? 1 : share;
    share2 = share2 < 0 ? 0 : share2 > 1 ? 1 : share2;
    buf_printf(b, "<svg class=\"bar\" width=\"120\" height=\"12\" role=\"img\" aria-label=\"");
    buf_escape(b, label);
    buf_printf(
        b,
        "\"><rect width=\"120\" height=\"12\" fill=\"#e5e7eb\"/><rect width=\"%.1f\" height=\"12\" fill=\"#93c5fd\"/>"
        "<rect width=\"%.1f\" height=\"6\" y=\"6\" fill=\"#16a34a\"/></svg>",
        share * 120, share2 * 120);
}

void svg_distribution(struct buf *b, const char *const *labels, const long *counts, size_t n)
{
    long most = 1;
    for (size_t i = 0; i < n; ++i)
        most = counts[i] > most ? counts[i] : most;
    const int row = 18, width = 260;
    buf_printf(
        b, "<svg class=\"distribution\" width=\"%d\" height=\"%zu\" role=\"img\" aria-label=\"value distribution\">",
        width + 240, n * (size_t)row + 4);
    for (size_t i = 0; i < n; ++i) {
        double w = (double)counts[i] / (double)most * width;
        buf_printf(b, "<text x=\"0\" y=\"%zu\" font-size=\"12\">", i * (size_t)row + 13);
        buf_escape(b, labels[i]);
        buf_printf(b,
                   "</text><rect x=\"160\" y=\"%zu\" width=\"%.1f\" height=\"12\" fill=\"#60a5fa\"/>"
                   "<text x=\"%.1f\" y=\"%zu\" font-size=\"12\">%ld</text>",
                   i * (size_t)row + 3, w, 164 + w, i * (size_t)row + 13, counts[i]);
    }
    buf_add(b, "</svg>");
}
