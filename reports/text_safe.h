/* Strings from reports shown on a terminal or in text output: a device name or a reason may hold
 * escape sequences (ESC, CSI) or other control characters that would move the cursor, recolor or
 * retitle the user's terminal. They are shown as '?' instead; valid UTF-8 text passes as it is. */
#ifndef PREFLIGHT_REPORTS_TEXT_SAFE_H
#define PREFLIGHT_REPORTS_TEXT_SAFE_H

#include <stddef.h>

/* `text` with C0 and C1 control characters and DEL replaced by '?', into `out` (cut to fit);
 * returns `out`. NULL gives "". */
const char *text_safe(const char *text, char *out, size_t size);

#endif
