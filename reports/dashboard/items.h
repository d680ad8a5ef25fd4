/* What one device entry of a report says of each thing the coverage pages list: smoke
 * capabilities and tests (declared, and the verdict), extensions, features, limits and formats.
 * The ingest keeps these per device (current_items) so that no page reads reports to count. */
#ifndef PREFLIGHT_DASHBOARD_ITEMS_H
#define PREFLIGHT_DASHBOARD_ITEMS_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/* The kinds, as stored and as written in capability ids ("extension:VK_KHR_swapchain"). Features
 * and limits are named by struct and member ("limit:VkPhysicalDeviceLimits.maxComputeSharedMemorySize"):
 * the same member of two structs (the EXT and NV mesh shader properties) are two items. */
#define ITEM_KINDS "capability", "test", "extension", "feature", "limit", "format"

/* The combined verdict of machines that disagree (fleet_verdict.h), beside the report's verdicts. */
#define ITEM_VERDICT_FLAKY "flaky"

struct item {
    char kind[12];
    char *name;
    bool declared;    /* the device declares it (a limit or format: it reports the value) */
    char verdict[16]; /* capabilities and tests: the smoke verdict ("" when none ran) */
    char *value;      /* a limit's value, an extension's spec version, a format's features (JSON) */
    double number;    /* a numeric limit's value; NAN otherwise */
};

struct item_text_block; /* the names and values live in a few large blocks, not a malloc each */

struct item_list {
    struct item *items;
    size_t count, capacity;
    struct item_text_block *blocks;
};

/* Every item of one device entry (`device` = one element of devices[]), sorted by kind then name,
 * one item per (kind, name). false when out of memory. */
bool items_from_device(const cJSON *device, struct item_list *out);
bool items_add(struct item_list *list, const char *kind, const char *name, bool declared, const char *verdict,
               const char *value, double number);
/* A copy of `text` that lives as long as the list (for strings that go with its items). */
const char *items_keep_text(struct item_list *list, const char *text);
/* Sorts and merges duplicates (one declared is declared). */
void items_sort(struct item_list *list);
void items_free(struct item_list *list);
int items_compare(const struct item *a, const struct item *b);

/* A verdict that means "declared, and does not work": fail, not_applied, crashed, timeout, device_lost,
 * and flaky (it does not work on some machines). */
bool items_verdict_failing(const char *verdict);
/* Whether `kind` is one of ITEM_KINDS. */
bool items_kind_valid(const char *kind);

#endif
