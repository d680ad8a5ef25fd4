/* What a whole set of devices supports, as one Vulkan Profiles document: the extensions every
 * device exposes (at the lowest spec version), the features every device declares, for each limit
 * the most restrictive value by vk.xml's limittype (other properties only where all devices
 * agree), and the format features every device has. An engine that stays inside it runs on every
 * device of the set. */
#ifndef PREFLIGHT_MATRIX_PROFILE_INTERSECT_H
#define PREFLIGHT_MATRIX_PROFILE_INTERSECT_H

#include <stddef.h>
#include <cjson/cJSON.h>

/* `devices`: elements of reports' devices[]; NULL when out of memory or n == 0. */
cJSON *profile_intersect(const cJSON *const *devices, size_t n, const char *profile_name);

#endif
