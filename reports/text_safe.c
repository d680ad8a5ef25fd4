#include "text_safe.h"

const char *text_safe(const char *text, char *out, size_t size)
{
    size_t n = 0;
    if (size == 0)
        return out;
    for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p != '\0' && n + 1 < size; ++p) {
        if (*p < 0x20 || *p == 0x7F) {
            out[n++] = '?';
        } else if (*p == 0xC2 && p[1] >= 0x80 && p[1] <= 0x9F) { /* C1 controls, U+0080..U+009F */
            out[n++] = '?';
            ++p;
        } else {
            out[n++] = (char)*p;
        }
    }
    out[n] = '\0';
    return out;
}
