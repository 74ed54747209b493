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
    let scrypt: OpaquePointer
    let chacha20: OpaquePointer
    let chacha20Poly1305: OpaquePointer

    private init() {
        func fetched(_ p: OpaquePointer?, _ name: String) -> OpaquePointer {
            guard let p else { fatalError("OpenSSL 3 is missing the \(name) algorithm") }
            return p
        }
        sha256 = fetched(EVP_MD_fetch(nil, "SHA256", nil), "SHA256")
        scrypt = fetched(EVP_KDF_fetch(nil, "SCRYPT", nil), "SCRYPT")
        chacha20 = fetched(EVP_CIPHER_fetch(nil, "ChaCha20", nil), "ChaCha20")
        chacha20Poly1305 = fetched(EVP_CIPHER_fetch(nil, "ChaCha20-Poly1305", nil), "ChaCha20-Poly1305")
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
