/* The report model: typed access to a preflight.report/1 document that report_check accepted
 * (report_read.h). Readers of reports name what they want here (a device's key, its smoke
 * results, its declared limits), not the layout's keys, so the layout is written down in three
 * places only: this file, report_check and docs/report.schema.json.
 *
 * Strings are never NULL ("" where a document lacks them); objects and arrays may be NULL where
 * the document has none (the cJSON_ArrayForEach loops below run zero times then). */
#ifndef PREFLIGHT_MATRIX_REPORT_MODEL_H
#define PREFLIGHT_MATRIX_REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

/* Devices: `devices[]`, one per physical device the probe saw. */
const cJSON *report_device_array(const cJSON *report);
size_t report_device_count(const cJSON *report);
const cJSON *report_device_at(const cJSON *report, size_t index);
#define REPORT_FOR_EACH_DEVICE(device, report) cJSON_ArrayForEach(device, report_device_array(report))

/* Who a device is: its `identity` block (matrix/identity.h writes it). */
struct report_identity {
    const char *device_name, *device_key, *device_type;
    const char *driver_name, *driver_id, *driver_info, *driver_version, *api_version;
    const char *driver_version_scheme; /* how driver_version was decoded (driver_version.h) */
    const char *os, *kernel, *host;    /* where it ran (host: older reports kept it here) */
    uint32_t vendor_id, device_id;
    int64_t driver_version_raw, api_version_raw; /* the packed numbers behind the texts; 0 if absent */
    bool has_vendor_id, has_device_id;
};
struct report_identity report_identity_of(const cJSON *device);
const cJSON *report_identity_block(const cJSON *device); /* the whole block, for diffs and storage */
const char *report_device_key(const cJSON *device);
const char *report_device_name(const cJSON *device);
/* Where a device's data came from: "" for the probe, "vulkaninfo" for a converted profile. */
const char *report_device_source(const cJSON *device);

/* What a device declares: its `declared` block, in vulkaninfo --json's layout. */
const cJSON *report_declared(const cJSON *device);
const cJSON *report_declared_properties(const cJSON *device); /* VkPhysicalDevice*Properties structs */
const cJSON *report_declared_limits(const cJSON *device);     /* VkPhysicalDeviceProperties.limits */
const cJSON *report_declared_features(const cJSON *device);   /* VkPhysicalDevice*Features structs */
const cJSON *report_declared_extensions(const cJSON *device); /* name -> spec version */
const cJSON *report_declared_formats(const cJSON *device);    /* format name -> VkFormatProperties */
bool report_declares_extension(const cJSON *device, const char *name);

/* One smoke test's result: `smoke[]`. */
struct report_smoke {
    const char *id, *status, *reason;
    double duration_ms;
    const cJSON *evidence; /* what the test saw (an object), or NULL; reason is "" when null */
};
const cJSON *report_smoke_results(const cJSON *device);
size_t report_smoke_count(const cJSON *device);
struct report_smoke report_smoke_of(const cJSON *entry);
/* The result of test `id`; false when the device has none. */
bool report_smoke_find(const cJSON *device, const char *id, struct report_smoke *out);
#define REPORT_FOR_EACH_SMOKE(entry, device) cJSON_ArrayForEach(entry, report_smoke_results(device))

/* One capability row: `capabilities[]`, a declared/verified pair behind a matrix cell. */
struct report_capability {
    const char *id, *group, *verified;
    bool declared;
    const cJSON *tests; /* the smoke test ids behind the verdict */
};
const cJSON *report_capabilities(const cJSON *device);
struct report_capability report_capability_of(const cJSON *row);
#define REPORT_FOR_EACH_CAPABILITY(row, device) cJSON_ArrayForEach(row, report_capabilities(device))

/* Where the declared values fall below the specification's required minimums: `spec_minimums[]`. */
struct report_spec_minimum {
    const char *limit, *required, *condition;
    const cJSON *value;
};
const cJSON *report_spec_minimums(const cJSON *device);
size_t report_spec_minimum_count(const cJSON *device);
struct report_spec_minimum report_spec_minimum_of(const cJSON *entry);

/* The document's own fields. */
const char *report_schema(const cJSON *report);
const char *report_created(const cJSON *report);
const char *report_host(const cJSON *report); /* preflight-probe --host-label, or "" */
const cJSON *report_generator(const cJSON *report);

#endif
