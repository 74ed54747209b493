#ifndef LINKSTR_COPENSSL_SHIM_H
#define LINKSTR_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/hmac.h>

/* OSSL_PARAM keeps a pointer to its key; Swift temporaries would dangle (platform notes P4). */
static const char *const SW_P_DIGEST = OSSL_KDF_PARAM_DIGEST;
static const char *const SW_P_MODE = OSSL_KDF_PARAM_MODE;
static const char *const SW_P_KEY = OSSL_KDF_PARAM_KEY;
static const char *const SW_P_SALT = OSSL_KDF_PARAM_SALT;
static const char *const SW_P_INFO = OSSL_KDF_PARAM_INFO;
static const char *const SW_P_PASSWORD = OSSL_KDF_PARAM_PASSWORD;
static const char *const SW_P_SCRYPT_N = OSSL_KDF_PARAM_SCRYPT_N;
static const char *const SW_P_SCRYPT_R = OSSL_KDF_PARAM_SCRYPT_R;
static const char *const SW_P_SCRYPT_P = OSSL_KDF_PARAM_SCRYPT_P;
static const char *const SW_P_SCRYPT_MAXMEM = OSSL_KDF_PARAM_SCRYPT_MAXMEM;
static const char *const SW_MAC_P_DIGEST = OSSL_MAC_PARAM_DIGEST;

static inline int sw_evp_ctrl_aead_set_ivlen(void) { return EVP_CTRL_AEAD_SET_IVLEN; }
static inline int sw_evp_ctrl_aead_get_tag(void) { return EVP_CTRL_AEAD_GET_TAG; }
static inline int sw_evp_ctrl_aead_set_tag(void) { return EVP_CTRL_AEAD_SET_TAG; }
#endif
