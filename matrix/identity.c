#include "identity.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "driver_version.h"
#include "json_path.h"

#define PROPERTIES "properties/VkPhysicalDeviceProperties/"

void identity_format_api_version(unsigned int packed, char *out, unsigned long size)
{
    snprintf(out, size, "%u.%u.%u", (packed >> 22) & 0x7Fu, (packed >> 12) & 0x3FFu, packed & 0xFFFu);
}

/* UUIDs are 16-byte arrays in the declared block; identity spells them the usual way. */
static cJSON *uuid_string(const cJSON *bytes)
{
    if (!cJSON_IsArray(bytes) || cJSON_GetArraySize(bytes) != 16)
        return cJSON_CreateNull();
    char text[40];
    size_t at = 0;
    for (int i = 0; i < 16; ++i) {
        const cJSON *b = cJSON_GetArrayItem(bytes, i);
        uint32_t value = 0;
        json_number_u32(b, &value);
        value &= 0xFFu;
        if (i == 4 || i == 6 || i == 8 || i == 10)
            text[at++] = '-';
        at += (size_t)snprintf(text + at, sizeof(text) - at, "%02x", value);
    }
    return cJSON_CreateString(text);
}

static void copy_item(cJSON *into, const char *key, const cJSON *from)
{
    cJSON_AddItemToObject(into, key, from ? cJSON_Duplicate(from, 1) : cJSON_CreateNull());
}

static unsigned driver_id_number(const char *name)
{
    /* The VkDriverId values the decoder distinguishes; others decode the standard way. */
    static const struct {
        const char *name;
        unsigned value;
    } known[] = {
        {"VK_DRIVER_ID_NVIDIA_PROPRIETARY", 4},
        {"VK_DRIVER_ID_INTEL_PROPRIETARY_WINDOWS", 5},
        {"VK_DRIVER_ID_QUALCOMM_PROPRIETARY", 8},
    };
    for (size_t i = 0; name != NULL && i < sizeof(known) / sizeof(known[0]); ++i)
        if (strcmp(known[i].name, name) == 0)
            return known[i].value;
    return 0;
}

cJSON *identity_from_declared(const cJSON *declared)
{
    cJSON *id = cJSON_CreateObject();
    /* Vulkan declares all four as uint32_t; a number outside that range reads as 0 */
    uint32_t vendor = 0, device = 0, api = 0, driver = 0;
    json_number_u32(json_path_get(declared, PROPERTIES "vendorID"), &vendor);
    json_number_u32(json_path_get(declared, PROPERTIES "deviceID"), &device);
    json_number_u32(json_path_get(declared, PROPERTIES "apiVersion"), &api);
    json_number_u32(json_path_get(declared, PROPERTIES "driverVersion"), &driver);
    const cJSON *driver_id = json_path_get(declared, "properties/VkPhysicalDeviceDriverProperties/driverID");
    const char *driver_id_name = cJSON_IsString(driver_id) ? driver_id->valuestring : NULL;

    copy_item(id, "deviceName", json_path_get(declared, PROPERTIES "deviceName"));
    cJSON_AddNumberToObject(id, "vendorID", vendor);
    cJSON_AddNumberToObject(id, "deviceID", device);
    copy_item(id, "deviceType", json_path_get(declared, PROPERTIES "deviceType"));
    char text[64];
    cJSON_AddNumberToObject(id, "apiVersionRaw", api);
    identity_format_api_version(api, text, sizeof(text));
    cJSON_AddStringToObject(id, "apiVersion", text);
    cJSON_AddNumberToObject(id, "driverVersionRaw", driver);
    const char *scheme = driver_version_decode(vendor, driver_id_number(driver_id_name), driver, text, sizeof(text));
    cJSON_AddStringToObject(id, "driverVersion", text);
    cJSON_AddStringToObject(id, "driverVersionScheme", scheme);
    copy_item(id, "driverID", driver_id);
    copy_item(id, "driverName", json_path_get(declared, "properties/VkPhysicalDeviceDriverProperties/driverName"));
    copy_item(id, "driverInfo", json_path_get(declared, "properties/VkPhysicalDeviceDriverProperties/driverInfo"));
    const cJSON *conformance =
        json_path_get(declared, "properties/VkPhysicalDeviceDriverProperties/conformanceVersion");
    if (cJSON_IsObject(conformance)) {
        uint32_t major = 0, minor = 0, subminor = 0, patch = 0; /* uint8_t in Vulkan */
        json_number_u32(json_path_get(conformance, "major"), &major);
        json_number_u32(json_path_get(conformance, "minor"), &minor);
        json_number_u32(json_path_get(conformance, "subminor"), &subminor);
        json_number_u32(json_path_get(conformance, "patch"), &patch);
        snprintf(text, sizeof(text), "%u.%u.%u.%u", (unsigned)major, (unsigned)minor, (unsigned)subminor,
                 (unsigned)patch);
        cJSON_AddStringToObject(id, "conformanceVersion", text);
    } else {
        cJSON_AddNullToObject(id, "conformanceVersion");
    }
    cJSON_AddItemToObject(id, "deviceUUID",
                          uuid_string(json_path_get(declared, "properties/VkPhysicalDeviceIDProperties/deviceUUID")));
    cJSON_AddItemToObject(id, "driverUUID",
                          uuid_string(json_path_get(declared, "properties/VkPhysicalDeviceIDProperties/driverUUID")));
    cJSON_AddItemToObject(id, "pipelineCacheUUID",
                          uuid_string(json_path_get(declared, PROPERTIES "pipelineCacheUUID")));

    /* The key groups reports of one device model on one driver stack: it stays the same across
     * driver versions (so diffs line up) but differs between, say, RADV and AMDVLK. */
    char key[128];
    const char *stack = driver_id_name ? driver_id_name : "VK_DRIVER_ID_UNKNOWN";
    if (strncmp(stack, "VK_DRIVER_ID_", 13) == 0)
        stack += 13;
    int at = snprintf(key, sizeof(key), "%04x-%04x-", (unsigned)vendor, (unsigned)device);
    for (const char *c = stack; *c != '\0' && at < (int)sizeof(key) - 1; ++c)
        key[at++] = (char)tolower((unsigned char)*c);
    key[at] = '\0';
    cJSON_AddStringToObject(id, "deviceKey", key);
    return id;
}
