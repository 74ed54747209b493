import COpenSSL
import Synchronization
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// One ChaCha20-Poly1305 context per thread and direction, kept for the thread's life. Allocating a
/// context, setting it up for the cipher and freeing it again cost more than sealing a 30-byte field
/// (about a third of the store's sealing). After its first use a context is re-keyed with
/// no cipher given, so OpenSSL keeps the provider's state and takes only the new key and nonce, which
/// also resets the AEAD's lengths and tag.
///
/// A context keeps the last key it was given, so each sits behind a lock of its own (uncontended: its
/// thread is the only user) and in a registry, and `forgetKeys()` frees them all when an account closes
/// (the idle lock, logging out): no data key stays in OpenSSL's memory after it.

enum AEADContexts {
    /// One thread's context for one direction.
    final class Slot: Sendable {
        struct State {
            var ctx: OpaquePointer?
            var new = true
        }
        let state = Mutex(State())
        deinit { state.withLock { s in if let ctx = s.ctx { EVP_CIPHER_CTX_free(ctx) } } }
    }

    /// Every live slot, by identity: what `forgetKeys` clears.
    private static let registry = Mutex<[ObjectIdentifier: Slot]>([:])

    private static let keys: (seal: pthread_key_t, open: pthread_key_t) = {
        var seal = pthread_key_t(), open = pthread_key_t()
        // A thread that ends takes its slot out of the registry (the slot frees its context).
        let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { p in
            guard let p else { return }
            let slot = Unmanaged<Slot>.fromOpaque(p).takeRetainedValue()
            _ = AEADContexts.registry.withLock { $0.removeValue(forKey: ObjectIdentifier(slot)) }
        }
        guard pthread_key_create(&seal, release) == 0, pthread_key_create(&open, release) == 0 else {
            fatalError("no thread-local storage for the AEAD contexts")
        }
        return (seal, open)
    }()

    /// This thread's slot for sealing (or opening).
    private static func slot(sealing: Bool) -> Slot {
        let key = sealing ? keys.seal : keys.open
        if let p = pthread_getspecific(key) { return Unmanaged<Slot>.fromOpaque(p).takeUnretainedValue() }
        let slot = Slot()
        registry.withLock { $0[ObjectIdentifier(slot)] = slot }
        _ = pthread_setspecific(key, Unmanaged.passRetained(slot).toOpaque())
        return slot
    }

    /// Runs `body` with this thread's context (and whether it is new: then it must be given the cipher),
    /// under the context's lock. `body` sets `spoiled` false once the context is in a known state; a
    /// spoiled context (a failed use) is freed, and the next use starts from a new one.
    static func with<T: Sendable>(sealing: Bool, _ body: (_ ctx: OpaquePointer, _ new: Bool, _ spoiled: inout Bool) throws -> T) throws -> T {
        let slot = slot(sealing: sealing)
        return try slot.state.withLock { (s: inout Slot.State) throws -> T in
            if s.ctx == nil {
                guard let made = EVP_CIPHER_CTX_new() else { throw CryptoError.openSSL("EVP_CIPHER_CTX_new") }
                s.ctx = made
                s.new = true
            }
            let ctx = s.ctx!
            var spoiled = true
            defer {
                if spoiled {
                    EVP_CIPHER_CTX_free(ctx)
                    s.ctx = nil
                } else {
                    s.new = false
                }
            }
            return try body(ctx, s.new, &spoiled)
        }
    }

    /// Frees every thread's contexts, and with them the last keys they were given (each is taken under
    /// its lock: a context in use is freed once its use is over). The next use makes a new one.
    static func forgetKeys() {
        let slots = registry.withLock { Array($0.values) }
        for slot in slots {
            slot.state.withLock { s in
                if let ctx = s.ctx { EVP_CIPHER_CTX_free(ctx) }
                s.ctx = nil
            }
        }
    }
}

/// What the crypto layer keeps between calls, forgotten on request (an account closing).
public enum CryptoCaches {
    /// Frees the cached AEAD contexts, and the keys they last held.
    public static func forgetKeys() { AEADContexts.forgetKeys() }
}
