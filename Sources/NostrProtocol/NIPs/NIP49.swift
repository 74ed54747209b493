import Foundation

/// NIP-49 `ncryptsec`: a secret key encrypted with a password (scrypt + XChaCha20-Poly1305).
public enum NIP49 {
    public static let version: UInt8 = 0x02
    /// 2^16 rounds: 64 MiB and about 0.1–0.3 s, the NIP's own example.
    public static let defaultLogN: UInt8 = 16
    /// Refuse to run scrypt above 2^22 (4 GiB): a hostile file must not exhaust memory.
    public static let maxLogN: UInt8 = 22

    public enum KeySecurity: UInt8, Sendable {
        case knownInsecure = 0x00
        case notKnownInsecure = 0x01
        case untracked = 0x02
    }

    /// NFKC, so the same password typed on another system derives the same key.
    public static func normalize(password: String) -> [UInt8] {
        Array(password.precomposedStringWithCompatibilityMapping.utf8)
    }

    public static func encrypt(_ key: SecretKey, password: String, logN: UInt8 = defaultLogN,
                               security: KeySecurity = .untracked, random: any RandomSource = SystemRandom()) throws(NIP49Error) -> String {
        guard logN >= 1, logN <= maxLogN else { throw .costTooHigh(logN) }
        var pw = normalize(password: password)
        defer { SecretBytes.wipe(&pw) }
        let salt = random.bytes(16)
        let nonce = random.bytes(24)
        let symmetric: SecretBytes
        do {
            symmetric = try pw.withUnsafeBytes { p in try salt.withUnsafeBytes { s in try Scrypt.derive(password: p, salt: s, logN: logN, length: 32) } }
        } catch { throw .kdf }
        let ad = [security.rawValue]
        let sealed: [UInt8]
        do {
            sealed = try symmetric.withUnsafeBytes { k in
                try nonce.withUnsafeBytes { n in
                    try key.withUnsafeSecretBytes { sk in
                        try ad.withUnsafeBytes { a in
                            try XChaCha20Poly1305.seal(key: k, nonce24: n, plaintext: UnsafeRawBufferPointer(start: sk, count: 32), aad: a)
                        }
                    }
                }
            }
        } catch { throw .kdf }
        let payload = [version, logN] + salt + nonce + ad + sealed
        return Bech32.encode(hrp: "ncryptsec", data: payload)
    }

    public static func decrypt(_ ncryptsec: String, password: String) throws(NIP49Error) -> (key: SecretKey, security: KeySecurity?) {
        let decoded: (hrp: String, data: [UInt8])
        do { decoded = try Bech32.decode(ncryptsec.trimmingWhitespace()) } catch { throw .bech32(error) }
        guard decoded.hrp == "ncryptsec" else { throw .notNcryptsec(prefix: decoded.hrp) }
        let d = decoded.data
        guard d.count == 91 else { throw .wrongLength(d.count) }
        guard d[0] == version else { throw .unsupportedVersion(d[0]) }
        let logN = d[1]
        guard logN >= 1, logN <= maxLogN else { throw .costTooHigh(logN) }
        let salt = Array(d[2..<18]), nonce = Array(d[18..<42]), ad = [d[42]], sealed = Array(d[43..<91])
        var pw = normalize(password: password)
        defer { SecretBytes.wipe(&pw) }
        let symmetric: SecretBytes
        do {
            symmetric = try pw.withUnsafeBytes { p in try salt.withUnsafeBytes { s in try Scrypt.derive(password: p, salt: s, logN: logN, length: 32) } }
        } catch { throw .kdf }
        var plain: [UInt8]
        do {
            plain = try symmetric.withUnsafeBytes { k in
                try nonce.withUnsafeBytes { n in
                    try sealed.withUnsafeBytes { c in try ad.withUnsafeBytes { a in try XChaCha20Poly1305.open(key: k, nonce24: n, sealed: c, aad: a) } }
                }
            }
        } catch { throw .wrongPasswordOrCorrupted }
        defer { SecretBytes.wipe(&plain) }
        do { return (try SecretKey(bytes: plain), KeySecurity(rawValue: ad[0])) } catch { throw .invalidKey(error) }
    }
}

public enum NIP49Error: Error, Equatable, Sendable, CustomStringConvertible {
    case bech32(Bech32Error)
    case notNcryptsec(prefix: String)
    case wrongLength(Int)
    case unsupportedVersion(UInt8)
    case costTooHigh(UInt8)
    case kdf
    case wrongPasswordOrCorrupted
    case invalidKey(KeyError)

    public var description: String {
        switch self {
        case .bech32(let e): return "not a valid ncryptsec: \(e.description)"
        case .notNcryptsec(let p): return "expected ncryptsec1…, got \(p)1…"
        case .wrongLength(let n): return "ncryptsec carries \(n) bytes, expected 91"
        case .unsupportedVersion(let v): return "unsupported ncryptsec version \(v)"
        case .costTooHigh(let n): return "ncryptsec cost 2^\(n) is outside what this client accepts (1…22)"
        case .kdf: return "could not derive the key from the password (out of memory?)"
        case .wrongPasswordOrCorrupted: return "wrong password, or the ncryptsec is corrupted"
        case .invalidKey(let e): return e.description
        }
    }
}
