#include "first_bad.h"

#include <string.h>

static cJSON *driver_json(const char *version, int64_t raw)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "driverVersion", version);
    cJSON_AddNumberToObject(d, "driverRaw", (double)raw);
    return d;
}

bool first_bad_prepare(struct db *db, const char *device_key, int64_t bad_raw, const char *bad_version,
                       struct first_bad *fb)
{
    *fb = (struct first_bad){bad_raw, bad_version, NULL, NULL};
    const struct db_param below[] = {DB_TEXT(device_key), DB_INT(bad_raw)};
    fb->drivers = db_query(db,
                           "SELECT driver_raw, driver_version FROM drivers WHERE device_key = ? AND driver_raw < ? "
                           "ORDER BY driver_raw",
                           below, 2);
    const struct db_param tests[] = {DB_TEXT(device_key), DB_INT(bad_raw), DB_TEXT(device_key), DB_INT(bad_raw)};
    fb->last_run = fb->drivers ? db_query(db,
                                          "SELECT t.name, MAX(t.driver_raw) FROM driver_tests t WHERE "
                                          "t.device_key = ? AND t.driver_raw < ? AND t.kind = 'test' AND "
                                          "t.verdict <> 'skipped' AND t.name IN (SELECT c.name FROM driver_changes c "
                                          "WHERE c.device_key = ? AND c.driver_raw = ? AND c.change = 'regression') "
                                          "GROUP BY t.name",
                                          tests, 4)
                               : NULL;
    if (fb->last_run == NULL) {
        first_bad_release(fb);
        return false;
    }
    return true;
}

void first_bad_release(struct first_bad *fb)
{
    db_result_free(fb->drivers);
    db_result_free(fb->last_run);
    fb->drivers = fb->last_run = NULL;
}

void first_bad_describe(const struct first_bad *fb, const char *test, cJSON *change)
{
    bool has_good = false;
    int64_t good_raw = -1;
    for (size_t i = 0; i < db_result_rows(fb->last_run) && !has_good; ++i)
        if (strcmp(db_result_text(fb->last_run, i, 0), test) == 0 && !db_result_null(fb->last_run, i, 1)) {
            has_good = true;
            good_raw = db_result_int(fb->last_run, i, 1);
        }
    cJSON *good = cJSON_CreateNull(), *between = cJSON_CreateArray();
    for (size_t i = 0; i < db_result_rows(fb->drivers); ++i) {
        int64_t raw = db_result_int(fb->drivers, i, 0);
        if (raw == good_raw) {
            cJSON_Delete(good);
            good = driver_json(db_result_text(fb->drivers, i, 1), raw);
        } else if (raw > good_raw) {
            cJSON_AddItemToArray(between, driver_json(db_result_text(fb->drivers, i, 1), raw));
        }
    }
    cJSON_AddItemToObject(change, "lastGood", good);
    cJSON_AddItemToObject(change, "firstBad", driver_json(fb->bad_version, fb->bad_raw));
    cJSON_AddBoolToObject(change, "adjacent", has_good && cJSON_GetArraySize(between) == 0);
    cJSON_AddItemToObject(change, "notRunBetween", between);
}

static const char *version_of(const cJSON *change, const char *which)
{
    const char *v = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(change, which), "driverVersion"));
    return v ? v : "";
}

void first_bad_html(const cJSON *change, struct buf *b)
{
    if (cJSON_GetObjectItemCaseSensitive(change, "firstBad") == NULL)
        return;
    buf_add(b, "<span class=\"first-bad\">first bad <b>");
    buf_escape(b, version_of(change, "firstBad"));
    buf_add(b, "</b>");
    if (!cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(change, "lastGood"))) {
        buf_add(b, ", no earlier driver ran it</span>");
        return;
    }
    buf_add(b, ", last good <b>");
    buf_escape(b, version_of(change, "lastGood"));
    buf_add(b, "</b>");
    const cJSON *between = cJSON_GetObjectItemCaseSensitive(change, "notRunBetween"), *d;
    if (cJSON_GetArraySize(between) == 0) {
        buf_add(b, "; no machine ran a driver between them</span>");
        return;
    }
    buf_add(b, "; not run for this test between them: ");
    int i = 0;
    cJSON_ArrayForEach(d, between)
    {
        buf_add(b, i++ ? ", " : "");
        buf_escape(b, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(d, "driverVersion")));
    }
    buf_add(b, "</span>");
}
