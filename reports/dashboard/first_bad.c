#include "first_bad.h"

static cJSON *driver_json(const char *version, int64_t raw)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "driverVersion", version);
    cJSON_AddNumberToObject(d, "driverRaw", (double)raw);
    return d;
}

bool first_bad_add(struct db *db, const char *device_key, int64_t bad_raw, const char *bad_version, const char *test,
                   cJSON *change)
{
    const struct db_param key[] = {DB_TEXT(device_key), DB_INT(bad_raw), DB_TEXT(test)};
    struct db_result *good = db_query(db,
                                      "SELECT t.driver_raw, v.driver_version FROM driver_tests t JOIN drivers v ON "
                                      "v.device_key = t.device_key AND v.driver_raw = t.driver_raw WHERE "
                                      "t.device_key = ? AND t.driver_raw < ? AND t.kind = 'test' AND t.name = ? AND "
                                      "t.verdict <> 'skipped' ORDER BY t.driver_raw DESC LIMIT 1",
                                      key, 3);
    if (good == NULL)
        return false;
    bool has_good = db_result_rows(good) == 1;
    int64_t good_raw = has_good ? db_result_int(good, 0, 0) : -1;
    cJSON_AddItemToObject(change, "lastGood",
                          has_good ? driver_json(db_result_text(good, 0, 1), good_raw) : cJSON_CreateNull());
    cJSON_AddItemToObject(change, "firstBad", driver_json(bad_version, bad_raw));
    db_result_free(good);
    const struct db_param range[] = {DB_TEXT(device_key), DB_INT(good_raw), DB_INT(bad_raw)};
    struct db_result *between = db_query(db,
                                         "SELECT driver_raw, driver_version FROM drivers WHERE device_key = ? AND "
                                         "driver_raw > ? AND driver_raw < ? ORDER BY driver_raw",
                                         range, 3);
    if (between == NULL)
        return false;
    cJSON *list = cJSON_AddArrayToObject(change, "notRunBetween");
    for (size_t i = 0; i < db_result_rows(between); ++i)
        cJSON_AddItemToArray(list, driver_json(db_result_text(between, i, 1), db_result_int(between, i, 0)));
    cJSON_AddBoolToObject(change, "adjacent", has_good && db_result_rows(between) == 0);
    db_result_free(between);
    return true;
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
