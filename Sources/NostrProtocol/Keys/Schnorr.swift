import CSecp256k1

/// A 64-byte BIP-340 signature.
public struct Signature: Hashable, Sendable, CustomStringConvertible {
    public let r: Bytes32
    public let s: Bytes32

    public init(r: Bytes32, s: Bytes32) { self.r = r; self.s = s }

    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 64 else { return nil }
        let a = Array(bytes)
        r = Bytes32(a[0..<32])!
        s = Bytes32(a[32..<64])!
    }

    public init?(hex: String) {
        guard hex.utf8.count == 128, let bytes = Hex.decode(hex) else { return nil }
        self.init(bytes: bytes)
    }

    public var bytes: [UInt8] { r.bytes + s.bytes }
    public var hex: String { r.hex + s.hex }
    public var description: String { hex }

    func withUnsafe64<R>(_ body: (UnsafePointer<UInt8>) -> R) -> R {
        var pair = (r, s)
        return withUnsafeBytes(of: &pair) { body($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
    }
}

public enum Schnorr {
    /// BIP-340 signature over a 32-byte message, with 32 bytes of auxiliary randomness.
    public static func sign(message: Bytes32, with key: SecretKey, auxiliaryRandom: Bytes32) -> Signature {
        var sig = [UInt8](repeating: 0, count: 64)
        var msg = message
        var aux = auxiliaryRandom
        let ok = key.withUnsafeKeypair { keypair in
            msg.withUnsafeMutableBytes { m in
                aux.withUnsafeMutableBytes { a in
                    secp256k1_schnorrsig_sign32(Secp256k1Context.shared.context, &sig,
                                                m.baseAddress!.assumingMemoryBound(to: UInt8.self), keypair,
                                                a.baseAddress!.assumingMemoryBound(to: UInt8.self))
                }
            }
        }
        precondition(ok == 1, "schnorr signing failed")
        return Signature(bytes: sig)!
    }

    public static func sign(message: Bytes32, with key: SecretKey, random: any RandomSource) -> Signature {
        sign(message: message, with: key, auxiliaryRandom: random.bytes32())
    }

    /// False for invalid signatures and for public keys that are not on the curve.
    public static func verify(signature: Signature, message: Bytes32, publicKey: Bytes32) -> Bool {
        let ctx = Secp256k1Context.shared.context
        var xonly = secp256k1_xonly_pubkey()
        let parsed = publicKey.withUnsafeBytes { p in
            secp256k1_xonly_pubkey_parse(ctx, &xonly, p.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        guard parsed == 1 else { return false }
        return signature.withUnsafe64 { sig in
            message.withUnsafeBytes { m in
                secp256k1_schnorrsig_verify(ctx, sig, m.baseAddress!.assumingMemoryBound(to: UInt8.self), 32, &xonly) == 1
            }
        }
    }

    public static func verify(signature: Signature, message: Bytes32, publicKey: PublicKey) -> Bool {
        verify(signature: signature, message: message, publicKey: publicKey.raw)
    }

    /// The same check with the key already on the curve.
    public static func verify(signature: Signature, message: Bytes32, publicKey: LiftedPublicKey) -> Bool {
        var xonly = publicKey.xonly
        return signature.withUnsafe64 { sig in
            message.withUnsafeBytes { m in
                secp256k1_schnorrsig_verify(Secp256k1Context.shared.context, sig, m.baseAddress!.assumingMemoryBound(to: UInt8.self), 32, &xonly) == 1
            }
        }
    }
}

/// A public key lifted onto the curve once. `lift_x` (a square root) is most of parsing a key; a gift
/// wrap's one-time key is used twice, for its signature and for the ECDH, so it is lifted once.
public struct LiftedPublicKey: Sendable {
    fileprivate var full: secp256k1_pubkey
    fileprivate var xonly: secp256k1_xonly_pubkey

    public init(_ key: PublicKey) throws(KeyError) {
        let ctx = Secp256k1Context.shared.context
        var full = secp256k1_pubkey(), xonly = secp256k1_xonly_pubkey()
        var compressed = [UInt8](repeating: 0x02, count: 33)
        key.raw.withUnsafeBytes { for i in 0..<32 { compressed[i + 1] = $0[i] } }
        guard secp256k1_ec_pubkey_parse(ctx, &full, compressed, 33) == 1 else { throw .notOnCurve }
        // The even-y point: its x-only form needs no second square root.
        guard secp256k1_xonly_pubkey_from_pubkey(ctx, &xonly, nil, &full) == 1 else { throw .notOnCurve }
        self.full = full
        self.xonly = xonly
    }
}

public enum ECDH {
    /// The unhashed x coordinate of secret · lift_x(public), as NIP-44 requires.
    public static func sharedX(secret: SecretKey, publicKey: PublicKey) throws(KeyError) -> SecretBytes {
        try sharedX(secret: secret, publicKey: try LiftedPublicKey(publicKey))
    }

    public static func sharedX(secret: SecretKey, publicKey: LiftedPublicKey) throws(KeyError) -> SecretBytes {
        let ctx = Secp256k1Context.shared.context
        var full = publicKey.full
        let out = SecretBytes(count: 32)
        let ok = secret.withUnsafeSecretBytes { sk in
            out.withUnsafeMutableBytes { o in
                secp256k1_ecdh(ctx, o.baseAddress!.assumingMemoryBound(to: UInt8.self), &full, sk, sw_ecdh_x_only(), nil)
            }
        }
        guard ok == 1 else { throw .outOfRange }
        return out
    }
}
