#ifndef LINKSTR_COPENSSL_SHIM_H
#define LINKSTR_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>

/* OSSL_PARAM keeps a pointer to its key; Swift temporaries would dangle (platform notes P4). */
static const char *const SW_P_SALT = OSSL_KDF_PARAM_SALT;
static const char *const SW_P_PASSWORD = OSSL_KDF_PARAM_PASSWORD;
static const char *const SW_P_SCRYPT_N = OSSL_KDF_PARAM_SCRYPT_N;
static const char *const SW_P_SCRYPT_R = OSSL_KDF_PARAM_SCRYPT_R;
static const char *const SW_P_SCRYPT_P = OSSL_KDF_PARAM_SCRYPT_P;
static const char *const SW_P_SCRYPT_MAXMEM = OSSL_KDF_PARAM_SCRYPT_MAXMEM;

static inline int sw_evp_ctrl_aead_set_ivlen(void) { return EVP_CTRL_AEAD_SET_IVLEN; }
static inline int sw_evp_ctrl_aead_get_tag(void) { return EVP_CTRL_AEAD_GET_TAG; }
static inline int sw_evp_ctrl_aead_set_tag(void) { return EVP_CTRL_AEAD_SET_TAG; }
/* HMAC-SHA256 and HKDF-SHA256-expand on the one-shot SHA-256 block functions: no context allocated,
 * no parameters parsed. NIP-44 runs one HKDF-expand (76 bytes) and one HMAC per payload; through
 * EVP_KDF and EVP_MAC their set-up cost more than their hashing. The SHA256_* calls are deprecated
 * in OpenSSL 3 (still exported, still using SHA-NI/AVX2): wrapped here so Swift never calls them. */
#include <openssl/sha.h>
#include <string.h>
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
typedef struct { SHA256_CTX inner; SHA256_CTX outer; } sw_hmac_sha256_key;

static inline void sw_hmac_sha256_set_key(sw_hmac_sha256_key *k, const unsigned char *key, size_t key_len) {
    unsigned char block[64], hashed[32];
    if (key_len > 64) { SHA256(key, key_len, hashed); key = hashed; key_len = 32; }
    memset(block, 0, sizeof block);
    if (key_len > 0) memcpy(block, key, key_len);
    for (int i = 0; i < 64; i++) block[i] ^= 0x36;
    SHA256_Init(&k->inner); SHA256_Update(&k->inner, block, 64);
    for (int i = 0; i < 64; i++) block[i] ^= 0x36 ^ 0x5c;
    SHA256_Init(&k->outer); SHA256_Update(&k->outer, block, 64);
    OPENSSL_cleanse(block, sizeof block); OPENSSL_cleanse(hashed, sizeof hashed);
}
static inline void sw_hmac_sha256_start(const sw_hmac_sha256_key *k, SHA256_CTX *ctx) { *ctx = k->inner; }
static inline void sw_hmac_sha256_update(SHA256_CTX *ctx, const void *data, size_t len) { if (len > 0) SHA256_Update(ctx, data, len); }
static inline void sw_hmac_sha256_finish(const sw_hmac_sha256_key *k, SHA256_CTX *ctx, unsigned char out[32]) {
    unsigned char inner[32];
    SHA256_Final(inner, ctx);
    SHA256_CTX outer = k->outer;
    SHA256_Update(&outer, inner, 32);
    SHA256_Final(out, &outer);
    OPENSSL_cleanse(inner, sizeof inner); OPENSSL_cleanse(&outer, sizeof outer); OPENSSL_cleanse(ctx, sizeof *ctx);
}
static inline void sw_hmac_sha256_key_wipe(sw_hmac_sha256_key *k) { OPENSSL_cleanse(k, sizeof *k); }

/* RFC 5869 expand: T(i) = HMAC(PRK, T(i-1) | info | i); out_len at most 255 * 32. */
static inline int sw_hkdf_sha256_expand(const unsigned char *prk, size_t prk_len, const unsigned char *info, size_t info_len,
                                        unsigned char *out, size_t out_len) {
    if (out_len > 255 * 32) return 0;
    sw_hmac_sha256_key k;
    sw_hmac_sha256_set_key(&k, prk, prk_len);
    unsigned char t[32];
    size_t t_len = 0, done = 0;
    unsigned char counter = 1;
    while (done < out_len) {
        SHA256_CTX c;
        sw_hmac_sha256_start(&k, &c);
        sw_hmac_sha256_update(&c, t, t_len);
        sw_hmac_sha256_update(&c, info, info_len);
        sw_hmac_sha256_update(&c, &counter, 1);
        sw_hmac_sha256_finish(&k, &c, t);
        t_len = 32;
        size_t n = out_len - done < 32 ? out_len - done : 32;
        memcpy(out + done, t, n);
        done += n;
        counter++;
    }
    OPENSSL_cleanse(t, sizeof t);
    sw_hmac_sha256_key_wipe(&k);
    return 1;
}
#pragma GCC diagnostic pop
#endif
