/* Decoding VkPhysicalDeviceProperties::driverVersion. The value is vendor-defined: most drivers
 * use the VK_MAKE_API_VERSION layout, but NVIDIA packs four fields, Intel's Windows driver two,
 * and Qualcomm marks its newer scheme with the top bit. Reports keep the raw value and this
 * decoded text beside it; the decoding is chosen by driverID (and vendorID where no driverID was
 * reported). */
#ifndef PREFLIGHT_MATRIX_DRIVER_VERSION_H
#define PREFLIGHT_MATRIX_DRIVER_VERSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes e.g. "580.159.4.0" into `out` and returns the name of the scheme used
 * ("nvidia", "intel-windows", "qualcomm", "standard"). */
const char *driver_version_decode(uint32_t vendor_id, uint32_t driver_id, uint32_t raw, char *out, size_t size);

/* The version as the vendor writes it in its release notes, from the scheme decode returned and the
 * raw value: NVIDIA's "590.44.01" (decoded "590.44.1.0": the third field is written with two
 * digits, a zero fourth field is left out, "396.24" when the last two are zero); every other
 * scheme's decoded text is already the vendor's (`decoded`, copied). */
void driver_version_vendor_text(const char *scheme, uint32_t raw, const char *decoded, char *out, size_t size);

/* A Mesa driver (a driverID whose name says MESA: lavapipe/llvmpipe, radv, anv, turnip, panvk,
 * nvk, ...) is identified by the Mesa version in its driverInfo ("Mesa 25.0.7-2~bpo12+1 (LLVM
 * 15.0.6)"): some (lavapipe) report the same driverVersion for every Mesa. Writes the version
 * packed as VK_MAKE_API_VERSION(0, 25, 0, 7) into `raw` and "Mesa 25.0.7" into `text`; false
 * (nothing written) for other drivers or a driverInfo without a Mesa version. */
bool driver_version_mesa(const char *driver_id, const char *driver_info, int64_t *raw, char *text, size_t size);

/* Orders driver versions by the vendor's scheme: a version becomes its fields as numbers, most
 * significant first (NVIDIA's raw 0x9113c100 is 580.159.4.0), so that 580.9 sorts before 580.10
 * and two versions compare field by field, never as text. DRIVER_VERSION_FIELDS at most. */
#define DRIVER_VERSION_FIELDS 4
struct driver_version_fields {
    unsigned value[DRIVER_VERSION_FIELDS];
    unsigned count;
};
/* The fields of `raw` under `scheme` (what driver_version_decode returned; "" or unknown: standard). */
struct driver_version_fields driver_version_fields_of(const char *scheme, uint32_t raw);
/* A version as people write it: "580.95.05" (NVIDIA as in its release notes), "Mesa 25.0.7",
 * "r38p1" (Arm's r38p1: 38.1), "101.4146", "512.744.0", "38". False when `text` is none of those. */
bool driver_version_parse(const char *text, struct driver_version_fields *out);
/* <0, 0, >0 as `version` comes before, matches, or comes after `bound` on the fields `bound`
 * names: "40" matches every 40.x.y, so a range 38..40 holds 40.9 (inclusive bounds by prefix). */
int driver_version_compare_prefix(const struct driver_version_fields *version,
                                  const struct driver_version_fields *bound);

#endif
