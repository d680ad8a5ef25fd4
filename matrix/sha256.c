/* SHA-256 through GnuTLS (nettle underneath, with the CPU's SHA instructions where it has them):
 * an upload hashes the whole report, and the dashboard hashes every body it receives. */
#include "sha256.h"

#include <gnutls/crypto.h>
#include <stdio.h>
#include <string.h>

static void to_hex(const unsigned char digest[32], char hex[65])
{
    for (size_t i = 0; i < 32; ++i)
        snprintf(hex + 2 * i, 3, "%02x", digest[i]);
}

void hmac_sha256_hex(const void *key, size_t key_length, const void *data, size_t length, char hex[65])
{
    unsigned char digest[32];
    if (gnutls_hmac_fast(GNUTLS_MAC_SHA256, key_length ? key : "", key_length, length ? data : "", length, digest) !=
        0) {
        memset(hex, 0, 65); /* no signature beats a wrong one */
        return;
    }
    to_hex(digest, hex);
}

void sha256_hex(const void *data, size_t length, char hex[65])
{
    unsigned char digest[32];
    if (gnutls_hash_fast(GNUTLS_DIG_SHA256, length ? data : "", length, digest) != 0) {
        /* only when GnuTLS has no SHA-256 at all (a FIPS-broken build): no key beats a wrong key */
        memset(hex, 0, 65);
        return;
    }
    to_hex(digest, hex);
}
