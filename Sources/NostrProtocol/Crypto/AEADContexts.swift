import COpenSSL
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One ChaCha20-Poly1305 context per thread and direction, kept for the thread's life. Allocating a
/// context, setting it up for the cipher and freeing it again cost more than sealing a 30-byte field
/// (issue 31: about a third of the store's sealing). After its first use a context is re-keyed with
/// no cipher given, so OpenSSL keeps the provider's state and takes only the new key and nonce, which
/// also resets the AEAD's lengths and tag.
enum AEADContexts {
    private static let keys: (seal: pthread_key_t, open: pthread_key_t) = {
        var seal = pthread_key_t(), open = pthread_key_t()
        let free: @convention(c) (UnsafeMutableRawPointer?) -> Void = { p in
            if let p { EVP_CIPHER_CTX_free(OpaquePointer(p)) }
        }
        guard pthread_key_create(&seal, free) == 0, pthread_key_create(&open, free) == 0 else {
            fatalError("no thread-local storage for the AEAD contexts")
        }
        return (seal, open)
    }()

    /// This thread's context for sealing (or opening), and whether it is new (then it must be given the
    /// cipher); nil when OpenSSL cannot allocate one.
    static func context(sealing: Bool) -> (ctx: OpaquePointer, new: Bool)? {
        let key = sealing ? keys.seal : keys.open
        if let p = pthread_getspecific(key) { return (OpaquePointer(p), false) }
        guard let ctx = EVP_CIPHER_CTX_new() else { return nil }
        guard pthread_setspecific(key, UnsafeRawPointer(ctx)) == 0 else {
            EVP_CIPHER_CTX_free(ctx)
            return nil
        }
        return (ctx, true)
    }

    /// After a failed use the context's state is unknown: the next use starts from a new one.
    static func discard(sealing: Bool) {
        let key = sealing ? keys.seal : keys.open
        guard let p = pthread_getspecific(key) else { return }
        _ = pthread_setspecific(key, nil)
        EVP_CIPHER_CTX_free(OpaquePointer(p))
    }
}
