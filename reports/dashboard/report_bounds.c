#include "report_bounds.h"

#include <stdio.h>
#include <string.h>

/* The members the Vulkan API bounds to char[256], wherever they appear (a report's identity and
 * declared properties, a vulkaninfo document's properties). */
static bool api_bounded(const char *member)
{
    return member != NULL && (strcmp(member, "deviceName") == 0 || strcmp(member, "driverName") == 0 ||
                              strcmp(member, "driverInfo") == 0 || strcmp(member, "host") == 0);
}

/* The path to a value, for the message: "devices[0].identity.deviceName" (names cut short). */
static void extend(const char *path, const cJSON *node, size_t index, bool in_array, char *out, size_t size)
{
    if (in_array)
        snprintf(out, size, "%s[%zu]", path, index);
    else
        snprintf(out, size, "%s%s%.40s", path, *path ? "." : "", node->string ? node->string : "");
}

static bool walk(const cJSON *node, const char *path, bool in_identity, char *why, size_t size)
{
    const cJSON *child;
    size_t index = 0;
    cJSON_ArrayForEach(child, node)
    {
        char here[300];
        extend(path, child, index++, cJSON_IsArray(node), here, sizeof(here));
        if (cJSON_IsObject(node) && child->string != NULL && strlen(child->string) > REPORT_NAME_MAX_BYTES) {
            snprintf(why, size, "report: %s: a member name of %zu bytes (at most %d)", path[0] ? path : "(top)",
                     strlen(child->string), REPORT_NAME_MAX_BYTES);
            return false;
        }
        bool identity = in_identity || (child->string != NULL && strcmp(child->string, "identity") == 0);
        if (cJSON_IsString(child)) {
            size_t length = strlen(child->valuestring);
            bool named = api_bounded(cJSON_IsObject(node) ? child->string : NULL) || identity;
            size_t bound = named ? REPORT_NAME_MAX_BYTES : REPORT_STRING_MAX_BYTES;
            if (length > bound) {
                snprintf(why, size, "report: %s: %zu bytes (at most %zu%s)", here, length, bound,
                         named ? ", as the Vulkan API bounds its names" : "");
                return false;
            }
        } else if ((cJSON_IsObject(child) || cJSON_IsArray(child)) && !walk(child, here, identity, why, size)) {
            return false;
        }
    }
    return true;
}

bool report_strings_bounded(const cJSON *report, char *why, size_t size)
{
    return walk(report, "", false, why, size);
}
