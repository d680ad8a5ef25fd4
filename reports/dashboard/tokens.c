#include "tokens.h"

#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "sha256.h"

void utc_now(char out[32])
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

bool token_name_valid(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > TOKEN_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; ++i)
        if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
              (name[i] >= '0' && name[i] <= '9') || name[i] == '.' || name[i] == '_' || name[i] == '-'))
            return false;
    return true;
}

/* "pft_" or "pfs_" and 64 hex digits of 256 random bits */
static bool random_secret(const char *prefix, char out[TOKEN_TEXT_SIZE])
{
    unsigned char random[32];
    if (getrandom(random, sizeof(random), 0) != (ssize_t)sizeof(random))
        return false;
    int o = sprintf(out, "%s", prefix);
    for (size_t i = 0; i < sizeof(random); ++i)
        o += sprintf(out + o, "%02x", random[i]);
    return true;
}

bool token_add(struct db *db, const char *name, char token[TOKEN_TEXT_SIZE], char *error, size_t size)
{
    if (!token_name_valid(name)) {
        snprintf(error, size, "token name '%.80s': use 1 to %d of the characters A-Z a-z 0-9 . _ -", name,
                 TOKEN_NAME_MAX);
        return false;
    }
    if (!random_secret("pft_", token)) {
        snprintf(error, size, "no random bytes for a token");
        return false;
    }
    char hash[65], created[32];
    sha256_hex(token, strlen(token), hash);
    utc_now(created);
    const struct db_param params[] = {DB_TEXT(name), DB_TEXT(hash), DB_TEXT(created)};
    if (!db_exec(db, "INSERT INTO tokens (name, hash, created) VALUES (?, ?, ?)", params, 3)) {
        if (db_error_is_duplicate(db))
            snprintf(error, size, "a token named '%s' exists already (revoke it, or choose another name)", name);
        else
            snprintf(error, size, "database: %s", db_error(db));
        memset(token, 0, TOKEN_TEXT_SIZE);
        return false;
    }
    return true;
}

bool token_revoke(struct db *db, const char *name, char *error, size_t size)
{
    char now[32];
    utc_now(now);
    const struct db_param params[] = {DB_TEXT(now), DB_TEXT(name)};
    struct db_result *r =
        db_query(db, "UPDATE tokens SET revoked = ? WHERE name = ? AND revoked IS NULL RETURNING name", params, 2);
    if (r == NULL) {
        snprintf(error, size, "database: %s", db_error(db));
        return false;
    }
    bool found = db_result_rows(r) > 0;
    db_result_free(r);
    if (!found)
        snprintf(error, size, "no token named '%.80s' that is not revoked already", name);
    const struct db_param token = DB_TEXT(name);
    if (found && !db_exec(db, "DELETE FROM sessions WHERE token = ?", &token, 1)) {
        snprintf(error, size, "database: %s", db_error(db));
        return false;
    }
    return found;
}

static void utc_in(long seconds, char out[32])
{
    time_t then = time(NULL) + seconds;
    struct tm tm;
    gmtime_r(&then, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

bool token_list(struct db *db, char *error, size_t size)
{
    char day_ago[32];
    utc_in(-24 * 60 * 60, day_ago);
    const struct db_param since = DB_TEXT(day_ago);
    /* with what each token's quota counts (artifact_store.h) */
    struct db_result *r = db_query(db,
                                   "SELECT name, created, revoked, "
                                   "(SELECT COUNT(*) FROM artifacts a WHERE a.token = t.name), "
                                   "(SELECT COALESCE(SUM(bytes), 0) FROM artifacts a WHERE a.token = t.name), "
                                   "(SELECT COALESCE(SUM(bytes), 0) FROM artifacts a WHERE a.token = t.name AND "
                                   "a.uploaded >= ?) FROM tokens t ORDER BY created, name",
                                   &since, 1);
    if (r == NULL) {
        snprintf(error, size, "database: %s", db_error(db));
        return false;
    }
    for (size_t i = 0; i < db_result_rows(r); ++i) {
        char revoked[64] = "";
        if (!db_result_null(r, i, 2))
            snprintf(revoked, sizeof(revoked), "\trevoked %s", db_result_text(r, i, 2));
        printf("%s\t%s%s\tartifacts %lld, %lld bytes (last 24 hours: %lld bytes)\n", db_result_text(r, i, 0),
               db_result_text(r, i, 1), revoked, (long long)db_result_int(r, i, 3), (long long)db_result_int(r, i, 4),
               (long long)db_result_int(r, i, 5));
    }
    db_result_free(r);
    return true;
}

enum token_status token_check(struct db *db, const char *token, char name[TOKEN_NAME_MAX + 1])
{
    char hash[65];
    sha256_hex(token, strlen(token), hash);
    const struct db_param param = DB_TEXT(hash);
    /* the lookup is by the hash, so no comparison of secrets takes time that depends on them */
    struct db_result *r = db_query(db, "SELECT name, revoked FROM tokens WHERE hash = ?", &param, 1);
    if (r == NULL)
        return TOKEN_ERROR;
    enum token_status status = TOKEN_UNKNOWN;
    if (db_result_rows(r) > 0) {
        status = db_result_null(r, 0, 1) ? TOKEN_VALID : TOKEN_REVOKED;
        snprintf(name, TOKEN_NAME_MAX + 1, "%s", db_result_text(r, 0, 0));
    }
    db_result_free(r);
    return status;
}

bool session_create(struct db *db, const char *token_name, char id[TOKEN_TEXT_SIZE])
{
    if (!random_secret("pfs_", id))
        return false;
    char hash[65], created[32], expires[32];
    sha256_hex(id, strlen(id), hash);
    utc_now(created);
    utc_in(SESSION_SECONDS, expires);
    const struct db_param p[] = {DB_TEXT(hash), DB_TEXT(token_name), DB_TEXT(created), DB_TEXT(expires)};
    /* expired sessions go as new ones come */
    const struct db_param now = DB_TEXT(created);
    return db_exec(db, "DELETE FROM sessions WHERE expires < ?", &now, 1) &&
           db_exec(db, "INSERT INTO sessions (hash, token, created, expires) VALUES (?, ?, ?, ?)", p, 4);
}

enum token_status session_check(struct db *db, const char *id, char name[TOKEN_NAME_MAX + 1])
{
    char hash[65], now[32];
    sha256_hex(id, strlen(id), hash);
    utc_now(now);
    const struct db_param p[] = {DB_TEXT(hash), DB_TEXT(now)};
    struct db_result *r = db_query(db,
                                   "SELECT s.token, t.revoked FROM sessions s JOIN tokens t ON t.name = s.token "
                                   "WHERE s.hash = ? AND s.expires > ?",
                                   p, 2);
    if (r == NULL)
        return TOKEN_ERROR;
    enum token_status status = TOKEN_UNKNOWN;
    if (db_result_rows(r) > 0) {
        status = db_result_null(r, 0, 1) ? TOKEN_VALID : TOKEN_REVOKED;
        snprintf(name, TOKEN_NAME_MAX + 1, "%s", db_result_text(r, 0, 0));
    }
    db_result_free(r);
    return status;
}

bool session_end(struct db *db, const char *id)
{
    char hash[65];
    sha256_hex(id, strlen(id), hash);
    const struct db_param p = DB_TEXT(hash);
    return db_exec(db, "DELETE FROM sessions WHERE hash = ?", &p, 1);
}
