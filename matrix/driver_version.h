/* Decoding VkPhysicalDeviceProperties::driverVersion. The value is vendor-defined: most drivers
 * use the VK_MAKE_API_VERSION layout, but NVIDIA packs four fields, Intel's Windows driver two,
 * and Qualcomm marks its newer scheme with the top bit. Reports keep the raw value and this
 * decoded text beside it; the decoding is chosen by driverID (and vendorID where no driverID was
 * reported). */
#ifndef PREFLIGHT_MATRIX_DRIVER_VERSION_H
#define PREFLIGHT_MATRIX_DRIVER_VERSION_H

#include <stddef.h>
#include <stdint.h>

/* Writes e.g. "580.159.4.0" into `out` and returns the name of the scheme used
 * ("nvidia", "intel-windows", "qualcomm", "standard"). */
const char *driver_version_decode(uint32_t vendor_id, uint32_t driver_id, uint32_t raw, char *out, size_t size);

#endif
