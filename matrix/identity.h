/* The `identity` block of a report, derived from a device's `declared` block: who the device is,
 * which driver runs it (raw and decoded version), and a stable key that groups reports of the
 * same device and driver stack across driver versions and machines. */
#ifndef PREFLIGHT_MATRIX_IDENTITY_H
#define PREFLIGHT_MATRIX_IDENTITY_H

#include <cjson/cJSON.h>

cJSON *identity_from_declared(const cJSON *declared);
/* "1.3.239" from a packed Vulkan version */
void identity_format_api_version(unsigned int packed, char *out, unsigned long size);

#endif
