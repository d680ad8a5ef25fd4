#include "driver_version.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Vendor IDs (PCI or Khronos-assigned) and VkDriverId values; spelled out so that the report
 * library needs no Vulkan headers. */
enum {
    VENDOR_NVIDIA = 0x10DE,
    VENDOR_QUALCOMM = 0x5143,
    DRIVER_ID_NVIDIA_PROPRIETARY = 4,
    DRIVER_ID_INTEL_PROPRIETARY_WINDOWS = 5,
    DRIVER_ID_QUALCOMM_PROPRIETARY = 8,
};

static const char *decode_standard(uint32_t raw, char *out, size_t size)
{
    /* VK_MAKE_API_VERSION: variant 3 bits, major 7, minor 10, patch 12. */
    snprintf(out, size, "%u.%u.%u", (raw >> 22) & 0x7Fu, (raw >> 12) & 0x3FFu, raw & 0xFFFu);
    return "standard";
}

const char *driver_version_decode(uint32_t vendor_id, uint32_t driver_id, uint32_t raw, char *out, size_t size)
{
    if (driver_id == DRIVER_ID_NVIDIA_PROPRIETARY || (driver_id == 0 && vendor_id == VENDOR_NVIDIA)) {
        /* major 10 bits, minor 8, secondary 8, tertiary 6 */
        snprintf(out, size, "%u.%u.%u.%u", raw >> 22, (raw >> 14) & 0xFFu, (raw >> 6) & 0xFFu, raw & 0x3Fu);
        return "nvidia";
    }
    if (driver_id == DRIVER_ID_INTEL_PROPRIETARY_WINDOWS) {
        /* major 18 bits, minor 14: "101.4146" */
        snprintf(out, size, "%u.%u", raw >> 14, raw & 0x3FFFu);
        return "intel-windows";
    }
    if (driver_id == DRIVER_ID_QUALCOMM_PROPRIETARY || (driver_id == 0 && vendor_id == VENDOR_QUALCOMM)) {
        if (raw & 0x80000000u) {
            /* The top bit flags the newer layout; the major field then reads 512 when the
             * variant bits are kept, which is how Adreno driver versions are usually quoted. */
            snprintf(out, size, "%u.%u.%u", raw >> 22, (raw >> 12) & 0x3FFu, raw & 0xFFFu);
            return "qualcomm";
        }
        snprintf(out, size, "%u", raw);
        return "qualcomm-legacy";
    }
    /* ARM, Imagination, Broadcom, AMD, Mesa drivers and everyone else follow the API layout. */
    return decode_standard(raw, out, size);
}

void driver_version_vendor_text(const char *scheme, uint32_t raw, const char *decoded, char *out, size_t size)
{
    if (scheme == NULL || strcmp(scheme, "nvidia") != 0) {
        snprintf(out, size, "%s", decoded ? decoded : "");
        return;
    }
    unsigned major = raw >> 22, minor = (raw >> 14) & 0xFFu, secondary = (raw >> 6) & 0xFFu, tertiary = raw & 0x3Fu;
    if (secondary == 0 && tertiary == 0)
        snprintf(out, size, "%u.%02u", major, minor);
    else if (tertiary == 0)
        snprintf(out, size, "%u.%02u.%02u", major, minor, secondary);
    else
        snprintf(out, size, "%u.%02u.%02u.%u", major, minor, secondary, tertiary);
}

bool driver_version_mesa(const char *driver_id, const char *driver_info, int64_t *raw, char *text, size_t size)
{
    if (driver_id == NULL || driver_info == NULL || strstr(driver_id, "MESA") == NULL)
        return false;
    const char *mesa = strstr(driver_info, "Mesa ");
    unsigned major = 0, minor = 0, patch = 0;
    int read = 0;
    if (mesa == NULL || sscanf(mesa + 5, "%3u.%3u%n", &major, &minor, &read) != 2 || read == 0)
        return false;
    const char *rest = mesa + 5 + read;
    int more = 0;
    if (*rest == '.' && sscanf(rest + 1, "%4u%n", &patch, &more) != 1)
        return false;
    if (major > 127 || minor > 1023 || patch > 4095)
        return false;
    *raw = ((int64_t)major << 22) | ((int64_t)minor << 12) | patch;
    snprintf(text, size, "Mesa %u.%u.%u", major, minor, patch);
    return true;
}

struct driver_version_fields driver_version_fields_of(const char *scheme, uint32_t raw)
{
    struct driver_version_fields f = {{0}, 0};
    if (scheme != NULL && strcmp(scheme, "nvidia") == 0) {
        f = (struct driver_version_fields){{raw >> 22, (raw >> 14) & 0xFFu, (raw >> 6) & 0xFFu, raw & 0x3Fu}, 4};
    } else if (scheme != NULL && strcmp(scheme, "intel-windows") == 0) {
        f = (struct driver_version_fields){{raw >> 14, raw & 0x3FFFu, 0, 0}, 2};
    } else if (scheme != NULL && strcmp(scheme, "qualcomm-legacy") == 0) {
        f = (struct driver_version_fields){{raw, 0, 0, 0}, 1};
    } else if (scheme != NULL && strcmp(scheme, "qualcomm") == 0) {
        f = (struct driver_version_fields){{raw >> 22, (raw >> 12) & 0x3FFu, raw & 0xFFFu, 0}, 3};
    } else {
        f = (struct driver_version_fields){{(raw >> 22) & 0x7Fu, (raw >> 12) & 0x3FFu, raw & 0xFFFu, 0}, 3};
    }
    return f;
}

bool driver_version_parse(const char *text, struct driver_version_fields *out)
{
    memset(out, 0, sizeof(*out));
    if (text == NULL)
        return false;
    if (strncmp(text, "Mesa ", 5) == 0)
        text += 5;
    const char *at = text;
    bool arm = *at == 'r' && isdigit((unsigned char)at[1]); /* r38p1 */
    if (arm)
        ++at;
    while (out->count < DRIVER_VERSION_FIELDS) {
        if (!isdigit((unsigned char)*at))
            return false;
        char *end = NULL;
        unsigned long value = strtoul(at, &end, 10);
        if (value > 0xFFFFFFFFul || end - at > 10)
            return false;
        out->value[out->count++] = (unsigned)value;
        at = end;
        if (*at == '\0')
            return true;
        if (*at != (arm ? 'p' : '.') || (arm && out->count > 1))
            return false;
        ++at;
    }
    return false;
}

int driver_version_compare_prefix(const struct driver_version_fields *version,
                                  const struct driver_version_fields *bound)
{
    for (unsigned i = 0; i < bound->count; ++i) {
        unsigned v = i < version->count ? version->value[i] : 0;
        if (v != bound->value[i])
            return v < bound->value[i] ? -1 : 1;
    }
    return 0;
}
