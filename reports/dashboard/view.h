/* What every page's view shares (the page files, pages.h, build their models with it): the query
 * arguments, the response a view fills (a JSON model, a download, or an error), the filters over
 * devices every listing takes, and loading a stored report. A page's model is exactly what the
 * JSON API returns for it; its HTML is rendered from that model. */
#ifndef PREFLIGHT_DASHBOARD_VIEW_H
#define PREFLIGHT_DASHBOARD_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "db.h"
#include "html.h"

#define QUERY_MAX_ARGS 256 /* more is refused (400), never cut short */
#define PAGE_ROWS 500      /* rows of a listing per page; the page says how many there are in all */

struct query_args {
    size_t count;
    bool overflow; /* there were more than QUERY_MAX_ARGS */
    const char *keys[QUERY_MAX_ARGS];
    const char *values[QUERY_MAX_ARGS];
};
/* The first value of `key`, or NULL. */
const char *query_get(const struct query_args *q, const char *key);

struct view_response {
    int status;   /* 200, or the HTTP error with `message` (a model may come with it: a page that
                   * shows its form again, or the closest names to an unknown one) */
    cJSON *model; /* a view */
    char *body;   /* a download (malloc'd) */
    size_t length;
    const char *content_type;
    char filename[160]; /* a download's name ("": shown inline) */
    char immutable[65]; /* content-addressed: its name (the ETag), cached for a year; "" when not */
    char message[512];
};
void view_response_free(struct view_response *r);
void view_fail(struct view_response *out, int status, const char *format, ...) __attribute__((format(printf, 3, 4)));
void view_db_failed(struct view_response *out, struct db *db);

/* A date YYYY-MM-DD, or with a time as uploads are stamped (2026-11-01T12:00:00Z). */
bool view_date_valid(const char *text);

/* A positive decimal id (report ids). */
bool view_parse_id(const char *text, int64_t *id);

/* ---- the filters over devices (d.*) every listing takes: vendor, type, os (dropdowns, case
 * ignored), exclude_cpu, exclude_virtual, api (at least), since (last upload), q (names, driver,
 * key, machines). A value that is not one of the known ones is a 400 that names it. ---- */
struct filter_sql {
    struct buf where; /* " AND ..." fragments */
    struct db_param params[16];
    char like[160];
    int count;
    cJSON *echo;    /* the filters in effect, for the model */
    cJSON *choices; /* the values the dropdowns offer: vendors, types, oses, apis */
};
/* false with `out` set to 400 (or 500) when a value is bad. */
bool filter_build(struct db *db, const struct query_args *q, struct filter_sql *f, struct view_response *out);
void filter_free(struct filter_sql *f);
bool filters_given(const struct filter_sql *f);
/* Moves the filters and their choices into the model ("filters", "choices"). */
void filter_into_model(struct filter_sql *f, cJSON *model);

/* The page number (?page=N): 1 when absent; false with a 400 when not a positive number. */
bool view_page_of(const struct query_args *q, long *page, struct view_response *out);

/* One row that must exist: NULL with `out` set to 500 (the database failed) or 404 (no row). */
struct db_result *view_query_one(struct db *db, const char *sql, const struct db_param *params, int count,
                                 struct view_response *out, const char *not_found);

/* A stored report, parsed; NULL with `out` set to 404 or 500. */
cJSON *view_load_report(struct db *db, int64_t id, struct view_response *out);
/* The device at `index` of a report, or NULL. */
const cJSON *view_device_of(const cJSON *report, int index);

/* A download: `data` (malloc'd) is taken. */
void view_download(struct view_response *out, char *data, size_t length, const char *type, const char *filename);
void view_download_json(struct view_response *out, const cJSON *document, const char *filename);

/* Adds "<name>": part / whole (0 when whole is 0). */
void view_add_share(cJSON *o, const char *name, int64_t part, int64_t whole);

#endif
