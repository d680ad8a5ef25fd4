/* The dashboard's views, each built as one JSON model from the database: the JSON API returns the
 * model as it is (/api/v1/...), the HTML pages (views_html.h) render the same model. Downloads
 * (report JSON, Vulkan Profiles, JUnit, fleet limits) are bodies with their content type. */
#ifndef PREFLIGHT_DASHBOARD_VIEWS_H
#define PREFLIGHT_DASHBOARD_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "db.h"

#define QUERY_MAX_ARGS 256 /* more is refused (400), never cut short */

struct query_args {
    size_t count;
    bool overflow; /* there were more than QUERY_MAX_ARGS */
    const char *keys[QUERY_MAX_ARGS];
    const char *values[QUERY_MAX_ARGS];
};
/* The first value of `key`, or NULL. */
const char *query_get(const struct query_args *q, const char *key);

struct view_response {
    int status;   /* 200, or the HTTP error with `message` */
    cJSON *model; /* a view */
    char *body;   /* a download (malloc'd) */
    size_t length;
    const char *content_type;
    char filename[160];
    char message[512];
};
void view_response_free(struct view_response *r);

void view_devices(struct db *db, const struct query_args *q, struct view_response *out);
void view_report(struct db *db, const char *id, struct view_response *out);
/* what: "report.json", "profile.json" (?device=N), "junit.xml" */
void view_report_download(struct db *db, const char *id, const char *what, const struct query_args *q,
                          struct view_response *out);
void view_device_history(struct db *db, const char *device_key, const struct query_args *q, struct view_response *out);
void view_compare(struct db *db, const struct query_args *q, struct view_response *out);
void view_capabilities(struct db *db, const struct query_args *q, struct view_response *out);
/* id: "kind:name", e.g. "extension:VK_KHR_swapchain" */
void view_capability(struct db *db, const char *id, const struct query_args *q, struct view_response *out);
void view_fleet(struct db *db, const struct query_args *q, struct view_response *out);
/* what: "limits.json", "profiles.json" */
void view_fleet_download(struct db *db, const char *what, const struct query_args *q, struct view_response *out);

#endif
