/* How long the strings of an uploaded report may be. The pages show names in every row of every
 * listing, so one 10 kB device name made /fleet megabytes long; a report is refused (422) when a
 * string passes its bound, before anything of it is stored. The Vulkan API bounds the names
 * itself: VkPhysicalDeviceProperties::deviceName and VkPhysicalDeviceDriverProperties::driverName
 * and driverInfo are char[256] with their terminating zero, and extension names are as long. */
#ifndef PREFLIGHT_DASHBOARD_REPORT_BOUNDS_H
#define PREFLIGHT_DASHBOARD_REPORT_BOUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#define REPORT_NAME_MAX_BYTES 255     /* deviceName, driverName, driverInfo, host, an identity's strings, keys */
#define REPORT_STRING_MAX_BYTES 16384 /* any other string (reasons, evidence) */

/* true when every string and member name of `report` is within its bound; otherwise false with
 * `why` naming the first one past it, e.g. "report: devices[0].identity.deviceName: 10240 bytes
 * (at most 255, as the Vulkan API bounds its names)". */
bool report_strings_bounded(const cJSON *report, char *why, size_t size);

#endif
