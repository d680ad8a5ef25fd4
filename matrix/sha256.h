/* SHA-256 (FIPS 180-4, computed by GnuTLS): the idempotency key of an upload (the same report
 * content always gets the same key, so a dashboard can drop a second delivery of it) and the
 * digest by which a report's evidence names an artifact file. */
#ifndef PREFLIGHT_MATRIX_SHA256_H
#define PREFLIGHT_MATRIX_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Writes 64 lowercase hex digits and a terminating zero into `hex` (65 bytes). */
void sha256_hex(const void *data, size_t length, char hex[65]);

#endif
