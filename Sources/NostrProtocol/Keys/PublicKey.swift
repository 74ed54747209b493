import CSecp256k1

/// A BIP-340 x-only public key: 32 bytes that are the x coordinate of a point on secp256k1.
public struct PublicKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let raw: Bytes32

    /// Validates that the bytes are the x coordinate of a curve point.
    public init(raw: Bytes32) throws(KeyError) {
        guard PublicKey.isOnCurve(raw) else { throw .notOnCurve }
        self.raw = raw
    }

    /// For bytes that already passed validation (e.g. derived from a secret key).
    init(trusted raw: Bytes32) { self.raw = raw }

    /// 64 hex characters (either case accepted; NIP-01 emits lowercase).
    public init(hex: String) throws(KeyError) {
        let trimmed = hex
        guard trimmed.utf8.count == 64 else {
            throw .wrongLength(expected: 64, got: trimmed.utf8.count)
        }
        guard let raw = Bytes32(hex: trimmed) else { throw .notHex }
        try self.init(raw: raw)
    }

    public var hex: String { raw.hex }
    public var npub: String { NIP19.encodeNpub(self) }
    public var description: String { hex }

    public static func < (a: PublicKey, b: PublicKey) -> Bool { a.raw < b.raw }

    static func isOnCurve(_ raw: Bytes32) -> Bool {
        var parsed = secp256k1_xonly_pubkey()
        return raw.withUnsafeBytes { b in
            secp256k1_xonly_pubkey_parse(Secp256k1Context.shared.context, &parsed, b.baseAddress!.assumingMemoryBound(to: UInt8.self)) == 1
        }
    }
}

public enum KeyError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case wrongLength(expected: Int, got: Int)
    case notHex
    case notOnCurve
    case outOfRange
    case isPublicKey
    case isSecretKey
    case isEncryptedSecretKey
    case bech32(Bech32Error)
    case wrongPrefix(expected: String, got: String)
    case unrecognized

    public var description: String {
        switch self {
        case .empty: return "no key was entered."
        case .wrongLength(let expected, let got): return "wrong length: expected \(expected) characters, got \(got)."
        case .notHex: return "that is not hex: only 0-9 and a-f are allowed."
        case .notOnCurve: return "that is not a valid public key (not a point on secp256k1)."
        case .outOfRange: return "that is not a valid secret key (zero or not below the curve order)."
        case .isPublicKey: return "that is an npub, not a secret key."
        case .isSecretKey: return "that is an nsec (a secret key), not a public key. Keep it private."
        case .isEncryptedSecretKey: return "that is an ncryptsec (an encrypted secret key); it needs its password."
        // A sentence of its own ("contains a character that bech32 does not use." was a fragment).
        case .bech32(let e): return "not a valid key: it " + e.description
        case .wrongPrefix(let expected, let got): return "expected \(expected)…, got \(got)…."
        case .unrecognized: return "not a key: expected nsec1…, npub1… or 64 hex characters."
        }
    }
}
