/* SHA-256 (FIPS 180-4, computed by GnuTLS): the idempotency key of an upload (the same report
 * content always gets the same key, so a dashboard can drop a second delivery of it), the
 * digest by which a report's evidence names an artifact file, and the HMAC a webhook is signed with. */
#ifndef PREFLIGHT_MATRIX_SHA256_H
#define PREFLIGHT_MATRIX_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* Writes 64 lowercase hex digits and a terminating zero into `hex` (65 bytes). */
void sha256_hex(const void *data, size_t length, char hex[65]);
/* HMAC-SHA-256 (RFC 2104) of `data` with `key`, as 64 lowercase hex digits: the signature of the
 * dashboard's webhook deliveries. */
void hmac_sha256_hex(const void *key, size_t key_length, const void *data, size_t length, char hex[65]);

#endif
