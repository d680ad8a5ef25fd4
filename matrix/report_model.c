#include "report_model.h"

#include <string.h>

#include "json_path.h"

static const cJSON *member(const cJSON *object, const char *key)
{
    return cJSON_IsObject(object) ? cJSON_GetObjectItemCaseSensitive(object, key) : NULL;
}

static const char *text(const cJSON *object, const char *key)
{
    const char *s = cJSON_GetStringValue(member(object, key));
    return s ? s : "";
}

static const cJSON *array_member(const cJSON *object, const char *key)
{
    const cJSON *a = member(object, key);
    return cJSON_IsArray(a) ? a : NULL;
}

static const cJSON *object_member(const cJSON *object, const char *key)
{
    const cJSON *o = member(object, key);
    return cJSON_IsObject(o) ? o : NULL;
}

const cJSON *report_device_array(const cJSON *report)
{
    return array_member(report, "devices");
}

size_t report_device_count(const cJSON *report)
{
    return (size_t)cJSON_GetArraySize(report_device_array(report));
}

const cJSON *report_device_at(const cJSON *report, size_t index)
{
    return index < report_device_count(report) ? cJSON_GetArrayItem(report_device_array(report), (int)index) : NULL;
}

const cJSON *report_identity_block(const cJSON *device)
{
    return object_member(device, "identity");
}

static bool id_number(const cJSON *identity, const char *key, uint32_t *out)
{
    return json_number_u32(member(identity, key), out);
}

struct report_identity report_identity_of(const cJSON *device)
{
    const cJSON *identity = report_identity_block(device);
    struct report_identity id = {
        .device_name = text(identity, "deviceName"),
        .device_key = text(identity, "deviceKey"),
        .device_type = text(identity, "deviceType"),
        .driver_name = text(identity, "driverName"),
        .driver_id = text(identity, "driverID"),
        .driver_info = text(identity, "driverInfo"),
        .driver_version = text(identity, "driverVersion"),
        .driver_version_scheme = text(identity, "driverVersionScheme"),
        .api_version = text(identity, "apiVersion"),
        .os = text(identity, "os"),
        .kernel = text(identity, "kernel"),
        .host = text(identity, "host"),
    };
    const cJSON *raw = member(identity, "driverVersionRaw");
    id.driver_version_raw = json_number_i64(raw, 0);
    raw = member(identity, "apiVersionRaw");
    id.api_version_raw = json_number_i64(raw, 0);
    id.has_vendor_id = id_number(identity, "vendorID", &id.vendor_id);
    id.has_device_id = id_number(identity, "deviceID", &id.device_id);
    return id;
}

const char *report_device_key(const cJSON *device)
{
    return text(report_identity_block(device), "deviceKey");
}

const char *report_device_name(const cJSON *device)
{
    return text(report_identity_block(device), "deviceName");
}

const char *report_device_source(const cJSON *device)
{
    return text(device, "source");
}

const cJSON *report_declared(const cJSON *device)
{
    return object_member(device, "declared");
}

const cJSON *report_declared_properties(const cJSON *device)
{
    return object_member(report_declared(device), "properties");
}

const cJSON *report_declared_limits(const cJSON *device)
{
    return object_member(object_member(report_declared_properties(device), "VkPhysicalDeviceProperties"), "limits");
}

const cJSON *report_declared_features(const cJSON *device)
{
    return object_member(report_declared(device), "features");
}

const cJSON *report_declared_extensions(const cJSON *device)
{
    return object_member(report_declared(device), "extensions");
}

const cJSON *report_declared_formats(const cJSON *device)
{
    return object_member(report_declared(device), "formats");
}

bool report_declares_extension(const cJSON *device, const char *name)
{
    return member(report_declared_extensions(device), name) != NULL;
}

const cJSON *report_smoke_results(const cJSON *device)
{
    return array_member(device, "smoke");
}

size_t report_smoke_count(const cJSON *device)
{
    return (size_t)cJSON_GetArraySize(report_smoke_results(device));
}

struct report_smoke report_smoke_of(const cJSON *entry)
{
    const cJSON *duration = member(entry, "duration_ms");
    return (struct report_smoke){.id = text(entry, "id"),
                                 .status = text(entry, "status"),
                                 .reason = text(entry, "reason"),
                                 .duration_ms = cJSON_IsNumber(duration) ? duration->valuedouble : 0,
                                 .evidence = object_member(entry, "evidence")};
}

bool report_smoke_find(const cJSON *device, const char *id, struct report_smoke *out)
{
    const cJSON *entry;
    REPORT_FOR_EACH_SMOKE(entry, device)
    {
        if (strcmp(text(entry, "id"), id) == 0) {
            *out = report_smoke_of(entry);
            return true;
        }
    }
    return false;
}

const cJSON *report_capabilities(const cJSON *device)
{
    return array_member(device, "capabilities");
}

struct report_capability report_capability_of(const cJSON *row)
{
    return (struct report_capability){.id = text(row, "id"),
                                      .group = text(row, "group"),
                                      .verified = text(row, "verified"),
                                      .declared = cJSON_IsTrue(member(row, "declared")),
                                      .tests = array_member(row, "tests")};
}

const cJSON *report_spec_minimums(const cJSON *device)
{
    return array_member(device, "spec_minimums");
}

size_t report_spec_minimum_count(const cJSON *device)
{
    return (size_t)cJSON_GetArraySize(report_spec_minimums(device));
}

struct report_spec_minimum report_spec_minimum_of(const cJSON *entry)
{
    return (struct report_spec_minimum){.limit = text(entry, "limit"),
                                        .required = text(entry, "required"),
                                        .condition = text(entry, "condition"),
                                        .value = member(entry, "value")};
}

const char *report_schema(const cJSON *report)
{
    return text(report, "schema");
}

const char *report_created(const cJSON *report)
{
    return text(report, "created");
}

const char *report_host(const cJSON *report)
{
    return text(report, "host");
}

const cJSON *report_generator(const cJSON *report)
{
    return object_member(report, "generator");
}
