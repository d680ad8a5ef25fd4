/* Upload and read tokens: 256 random bits shown once when created, stored only as their SHA-256
 * (a leaked database gives no usable token), revocable by name. Tokens are never logged. */
#ifndef PREFLIGHT_DASHBOARD_TOKENS_H
#define PREFLIGHT_DASHBOARD_TOKENS_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"

#define TOKEN_TEXT_SIZE 72 /* "pft_" + 64 hex digits + NUL, with room */
#define TOKEN_NAME_MAX 64

enum token_status { TOKEN_VALID, TOKEN_UNKNOWN, TOKEN_REVOKED, TOKEN_ERROR };

/* Names: 1-64 of [A-Za-z0-9._-]. */
bool token_name_valid(const char *name);
/* Creates token `name`; writes the token text once into `token`. */
bool token_add(struct db *db, const char *name, char token[TOKEN_TEXT_SIZE], char *error, size_t size);
bool token_revoke(struct db *db, const char *name, char *error, size_t size);
/* Prints "NAME CREATED [revoked DATE]" lines to stdout. */
bool token_list(struct db *db, char *error, size_t size);
/* Looks the presented token up; on TOKEN_VALID its name is written to `name`. */
enum token_status token_check(struct db *db, const char *token, char name[TOKEN_NAME_MAX + 1]);

/* Browser sessions: signing in with a token makes a session whose id (256 random bits, "pfs_" and
 * 64 hex digits) is the cookie, never the token; only the id's SHA-256 is stored. A session ends
 * when it is ended (sign out), after SESSION_SECONDS, or when its token is revoked. */
#define SESSION_SECONDS (30L * 24 * 3600)
bool session_create(struct db *db, const char *token_name, char id[TOKEN_TEXT_SIZE]);
enum token_status session_check(struct db *db, const char *id, char name[TOKEN_NAME_MAX + 1]);
bool session_end(struct db *db, const char *id);

/* "2026-12-02T03:04:05Z", now */
void utc_now(char out[32]);

#endif
