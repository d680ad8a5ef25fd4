/* "/regressions.atom": the regressions of "/regressions" (the same filters, its first page) as an
 * Atom 1.0 feed (RFC 4287), one entry per test that regressed on a (device, driver), so a feed
 * reader shows each new regression once. An entry's id is a tag URI of the device key, the driver
 * and the test, stable however often the driver's reports are uploaded again; its updated time is
 * the driver's last upload, published its first. Every string from a report is escaped as the
 * pages escape it (html.h: entities, controls shown as markers, bytes that are not UTF-8 as
 * U+FFFD), which is also well-formed XML. */
#include <stdlib.h>
#include <string.h>

#include "html_page.h"
#include "pages.h"

#define FEED_TAG "tag:preflight-dashboard.local,2026:regressions"

/* An RFC 3339 time as the dashboard stores upload times ("2026-12-07T15:04:05Z"), else the epoch. */
static const char *atom_time(const char *t)
{
    static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
    if (strlen(t) != sizeof(shape) - 1)
        return "1970-01-01T00:00:00Z";
    for (size_t i = 0; shape[i]; ++i)
        if (shape[i] == 'd' ? (t[i] < '0' || t[i] > '9') : t[i] != shape[i])
            return "1970-01-01T00:00:00Z";
    return t;
}

static void atom_element(struct buf *b, const char *name, const char *text)
{
    buf_printf(b, "<%s>", name);
    buf_escape(b, text);
    buf_printf(b, "</%s>", name);
}

static void atom_version(struct buf *b, const char *label, const cJSON *driver)
{
    const char *version = str(driver, "driverVersion");
    if (*version == '\0')
        return;
    buf_printf(b, "; %s ", label);
    buf_escape(b, version);
}

static void atom_entry(struct buf *b, const cJSON *g, const cJSON *t)
{
    buf_add(b, "<entry><id>" FEED_TAG "/");
    buf_url(b, str(g, "deviceKey"));
    buf_add(b, "/");
    buf_url(b, str(g, "driverVersion"));
    buf_add(b, "/");
    buf_url(b, str(t, "test"));
    buf_add(b, "</id><title>");
    buf_escape(b, str(g, "deviceName"));
    buf_add(b, " ");
    buf_escape(b, str(g, "driverVersion"));
    buf_add(b, ": ");
    buf_escape(b, str(t, "test"));
    buf_add(b, " ");
    buf_escape(b, str(t, "before"));
    buf_add(b, " → ");
    buf_escape(b, str(t, "after"));
    buf_add(b, "</title>");
    atom_element(b, "updated", atom_time(str(g, "lastUpload")));
    atom_element(b, "published", atom_time(str(g, "firstUpload")));
    buf_add(b, "<link rel=\"alternate\" type=\"text/html\" href=\"/devices/");
    buf_url(b, str(g, "deviceKey"));
    buf_add(b, "\"/><content type=\"text\">");
    buf_escape(b, str(g, "deviceName"));
    buf_add(b, " (");
    buf_escape(b, str(g, "vendor"));
    buf_add(b, ", ");
    buf_escape(b, str(g, "deviceKey"));
    buf_add(b, "), driver ");
    buf_escape(b, str(g, "previousVersion"));
    buf_add(b, " → ");
    buf_escape(b, str(g, "driverVersion"));
    buf_printf(b, " on %.0f machines: ", num(g, "machines"));
    buf_escape(b, str(t, "test"));
    buf_add(b, " ");
    buf_escape(b, str(t, "before"));
    buf_add(b, " → ");
    buf_escape(b, str(t, "after"));
    if (*str(t, "afterDetail")) {
        buf_add(b, " (");
        buf_escape(b, str(t, "afterDetail"));
        buf_add(b, ")");
    }
    atom_version(b, "first bad", cJSON_GetObjectItemCaseSensitive(t, "firstBad"));
    atom_version(b, "last good", cJSON_GetObjectItemCaseSensitive(t, "lastGood"));
    buf_add(b, "</content></entry>\n");
}

void view_regressions_atom(struct db *db, const struct page_request *request, struct view_response *out)
{
    view_regressions(db, request, out);
    if (out->status != 200)
        return;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(out->model, "regressions");
    const char *updated = "1970-01-01T00:00:00Z"; /* the newest entry's (the list is newest first) */
    if (cJSON_GetArraySize(list) > 0)
        updated = atom_time(str(cJSON_GetArrayItem(list, 0), "lastUpload"));
    struct buf b = {0};
    buf_add(&b, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">"
                "<id>" FEED_TAG "</id><title>preflight-dashboard: regressions</title>");
    atom_element(&b, "updated", updated);
    buf_add(&b, "<link rel=\"self\" href=\"/regressions.atom\"/><link rel=\"alternate\" type=\"text/html\" "
                "href=\"/regressions\"/><author><name>preflight-dashboard</name></author>\n");
    const cJSON *g, *t;
    cJSON_ArrayForEach(g, list)
    {
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            atom_entry(&b, g, t);
        }
    }
    buf_add(&b, "</feed>\n");
    cJSON_Delete(out->model);
    out->model = NULL;
    if (b.failed) {
        buf_free(&b);
        view_fail(out, 500, "out of memory");
        return;
    }
    view_download(out, b.data, b.length, "application/atom+xml; charset=utf-8", "");
}
