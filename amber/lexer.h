/* The AmberScript tokenizer: words separated by blanks, line ends as tokens (most commands end at
 * the end of their line), '#' comments, "quoted strings", a trailing '\' that joins two lines, and
 * raw blocks (shader sources, virtual files) that end at a line whose first word is END. Every
 * token knows its line and column, for messages in the form file:line:column. */
#ifndef PREFLIGHT_AMBER_LEXER_H
#define PREFLIGHT_AMBER_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum amber_token_kind {
    AMBER_TOKEN_END_OF_FILE,
    AMBER_TOKEN_END_OF_LINE,
    AMBER_TOKEN_WORD,   /* anything else: names, keywords, numbers */
    AMBER_TOKEN_STRING, /* "quoted": text is the unescaped contents */
};

#define AMBER_TOKEN_MAX 1024 /* a longer word or string is an error, not truncated */

struct amber_token {
    enum amber_token_kind kind;
    char text[AMBER_TOKEN_MAX];
    size_t length;
    uint32_t line, column;
    bool too_long;
};

struct amber_lexer {
    const char *text;
    size_t length, at;
    uint32_t line;
    size_t line_start;
    struct amber_token peeked;
    bool has_peeked;
};

void amber_lexer_init(struct amber_lexer *l, const char *text, size_t length);
/* The next token (consumed) or a look at it (not consumed). */
void amber_lexer_next(struct amber_lexer *l, struct amber_token *t);
const struct amber_token *amber_lexer_peek(struct amber_lexer *l);
/* Skips what is left of the current line, its end included. */
void amber_lexer_skip_line(struct amber_lexer *l);
/* The raw lines after the current one up to (not including) a line whose first word is END;
 * `*start`/`*length` point into the text, `*start_line` is the block's first line; false when the file ends
 * first. The lexer continues after the END word. Call with the header line's end consumed or not:
 * the rest of the current line is skipped first. */
bool amber_lexer_raw_block(struct amber_lexer *l, const char **start, size_t *length, uint32_t *start_line);

/* Numbers, as AmberScript writes them: decimal integers with an optional sign, 0x hexadecimal,
 * and decimal fractions/exponents (and nan, inf). Each is true only when the whole word is one. */
bool amber_word_is(const struct amber_token *t, const char *word);
struct amber_integer {
    uint64_t magnitude;
    bool negative;
};
bool amber_token_integer(const struct amber_token *t, struct amber_integer *value);
bool amber_token_double(const struct amber_token *t, double *value);
bool amber_token_is_hex(const struct amber_token *t);

#endif
