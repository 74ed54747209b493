import COpenSSL
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// OpenSSL algorithm objects fetched once. Fetching is the slow part of OpenSSL 3's EVP API;
/// fetched objects are immutable and safe to share across threads.
final class OpenSSLAlgorithms: @unchecked Sendable {
    static let shared = OpenSSLAlgorithms()

    let sha256: OpaquePointer
    let hmac: OpaquePointer
    let hkdf: OpaquePointer
    let scrypt: OpaquePointer
    let chacha20: OpaquePointer
    let chacha20Poly1305: OpaquePointer
    /// "SHA256" as a C string that lives as long as the process (OSSL_PARAM keeps the pointer).
    let sha256Name: UnsafeMutablePointer<CChar>
    /// An HMAC context with its digest (SHA-256) set, never keyed: each HMAC duplicates it, so no call
    /// looks the digest up by name again. That lookup, run on several threads at once, made
    /// `EVP_MAC_init` fail now and then (a crash in a CLI run), and it was a third of a short HMAC's cost.
    let hmacSHA256Template: OpaquePointer

    private init() {
        func fetched(_ p: OpaquePointer?, _ name: String) -> OpaquePointer {
            guard let p else { fatalError("OpenSSL 3 is missing the \(name) algorithm") }
            return p
        }
        sha256 = fetched(EVP_MD_fetch(nil, "SHA256", nil), "SHA256")
        hmac = fetched(EVP_MAC_fetch(nil, "HMAC", nil), "HMAC")
        hkdf = fetched(EVP_KDF_fetch(nil, "HKDF", nil), "HKDF")
        scrypt = fetched(EVP_KDF_fetch(nil, "SCRYPT", nil), "SCRYPT")
        chacha20 = fetched(EVP_CIPHER_fetch(nil, "ChaCha20", nil), "ChaCha20")
        chacha20Poly1305 = fetched(EVP_CIPHER_fetch(nil, "ChaCha20-Poly1305", nil), "ChaCha20-Poly1305")
        sha256Name = strdup("SHA256")
        guard let template = EVP_MAC_CTX_new(hmac) else { fatalError("out of memory") }
        var params = [OSSL_PARAM_construct_utf8_string(SW_MAC_P_DIGEST, sha256Name, 0), OSSL_PARAM_construct_end()]
        guard EVP_MAC_CTX_set_params(template, &params) == 1 else { fatalError("OpenSSL 3 cannot set up HMAC-SHA256") }
        hmacSHA256Template = template
    }
}

public enum CryptoError: Error, Equatable, Sendable, CustomStringConvertible {
    case openSSL(String)
    case authenticationFailed
    case invalidInput(String)

    public var description: String {
        switch self {
        case .openSSL(let op): return "cryptography failure in \(op)"
        case .authenticationFailed: return "the data failed its authentication check (wrong key or tampered data)"
        case .invalidInput(let why): return why
        }
    }
}
