#ifndef LINKSTR_CSECP256K1_SHIM_H
#define LINKSTR_CSECP256K1_SHIM_H
#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>
#include <secp256k1_ecdh.h>
#include <string.h>

/* Context flags are macros Swift imports as Int32; give them the C type. */
static inline unsigned int sw_secp256k1_context_none(void) { return SECP256K1_CONTEXT_NONE; }
static inline unsigned int sw_secp256k1_ec_compressed(void) { return SECP256K1_EC_COMPRESSED; }

/* NIP-44 needs the unhashed x coordinate of the shared point (not libsecp's default SHA-256). */
static int sw_ecdh_copy_x(unsigned char *output, const unsigned char *x32, const unsigned char *y32, void *data) {
    (void)y32; (void)data;
    memcpy(output, x32, 32);
    return 1;
}
static inline secp256k1_ecdh_hash_function sw_ecdh_x_only(void) { return sw_ecdh_copy_x; }
#endif
