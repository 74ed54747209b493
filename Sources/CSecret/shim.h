// The freedesktop.org Secret Service through libsecret, for the identity passphrase (issue 50). The
// `secret_password_*_sync` calls are variadic (not callable from Swift), so each is wrapped here with the
// schema's two attributes: `app` = "linkstr" and `npub`. Strings returned are freed by the caller with
// `sw_secret_free_password` (libsecret wipes them) or `sw_secret_free_message`.
#ifndef LINKSTR_CSECRET_SHIM_H
#define LINKSTR_CSECRET_SHIM_H

#include <libsecret/secret.h>

static inline const SecretSchema *sw_secret_schema(void) {
    static const SecretSchema schema = {
        "org.linkstr.Passphrase", SECRET_SCHEMA_NONE,
        { { "app", SECRET_SCHEMA_ATTRIBUTE_STRING }, { "npub", SECRET_SCHEMA_ATTRIBUTE_STRING }, { NULL, 0 } },
        0, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    };
    return &schema;
}

static inline char *sw_secret_take_message(GError *error) {
    char *message = g_strdup(error != NULL && error->message != NULL ? error->message : "no reason given");
    g_clear_error(&error);
    return message;
}

/// 1 stored; 0 failed (`*message` says why).
static inline int sw_secret_store(const char *npub, const char *label, const char *password, char **message) {
    GError *error = NULL;
    gboolean ok = secret_password_store_sync(sw_secret_schema(), SECRET_COLLECTION_DEFAULT, label, password, NULL, &error,
                                             "app", "linkstr", "npub", npub, NULL);
    if (!ok) { *message = sw_secret_take_message(error); return 0; }
    return 1;
}

/// The passphrase (free with `sw_secret_free_password`); NULL with `*message` NULL: no such item; NULL
/// with `*message` set: the keyring failed.
static inline char *sw_secret_lookup(const char *npub, char **message) {
    GError *error = NULL;
    char *password = secret_password_lookup_sync(sw_secret_schema(), NULL, &error, "app", "linkstr", "npub", npub, NULL);
    if (error != NULL) { *message = sw_secret_take_message(error); return NULL; }
    return password;
}

/// 1 removed, 0 nothing to remove, -1 failed (`*message`).
static inline int sw_secret_clear(const char *npub, char **message) {
    GError *error = NULL;
    gboolean removed = secret_password_clear_sync(sw_secret_schema(), NULL, &error, "app", "linkstr", "npub", npub, NULL);
    if (error != NULL) { *message = sw_secret_take_message(error); return -1; }
    return removed ? 1 : 0;
}

static inline void sw_secret_free_password(char *password) { secret_password_free(password); }
static inline void sw_secret_free_message(char *message) { g_free(message); }

#endif
