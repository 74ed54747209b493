import CSecp256k1

/// A secp256k1 secret key. The 32 bytes and the derived keypair live in wiped-on-release storage.
public struct SecretKey: Sendable {
    /// 32 secret bytes followed by the 96-byte libsecp keypair (which also contains the secret).
    let storage: SecretBytes
    public let publicKey: PublicKey

    static let keypairOffset = 32

    public init<C: Collection>(bytes: C) throws(KeyError) where C.Element == UInt8 {
        guard bytes.count == 32 else { throw .wrongLength(expected: 32, got: bytes.count) }
        let storage = SecretBytes(count: 32 + MemoryLayout<secp256k1_keypair>.size)
        storage.withUnsafeMutableBytes { buf in
            var i = 0
            for b in bytes { buf[i] = b; i += 1 }
        }
        let ctx = Secp256k1Context.shared.context
        var xonly = secp256k1_xonly_pubkey()
        let ok: Bool = storage.withUnsafeMutableBytes { buf in
            let secret = buf.baseAddress!.assumingMemoryBound(to: UInt8.self)
            guard secp256k1_ec_seckey_verify(ctx, secret) == 1 else { return false }
            let keypair = (buf.baseAddress! + SecretKey.keypairOffset).bindMemory(to: secp256k1_keypair.self, capacity: 1)
            guard secp256k1_keypair_create(ctx, keypair, secret) == 1 else { return false }
            return secp256k1_keypair_xonly_pub(ctx, &xonly, nil, keypair) == 1
        }
        guard ok else { throw .outOfRange }
        var serialized = Bytes32()
        serialized.withUnsafeMutableBytes { out in
            _ = secp256k1_xonly_pubkey_serialize(ctx, out.baseAddress!.assumingMemoryBound(to: UInt8.self), &xonly)
        }
        self.storage = storage
        self.publicKey = PublicKey(trusted: serialized)
    }

    /// 64 hex characters.
    public init(hex: String) throws(KeyError) {
        guard hex.utf8.count == 64 else { throw .wrongLength(expected: 64, got: hex.utf8.count) }
        guard var bytes = Hex.decode(hex) else { throw .notHex }
        defer { SecretBytes.wipe(&bytes) }
        try self.init(bytes: bytes)
    }

    /// A fresh random key (rejection-sampled into the valid range).
    public static func generate(using random: any RandomSource = SystemRandom()) -> SecretKey {
        while true {
            var candidate = random.bytes(32)
            defer { SecretBytes.wipe(&candidate) }
            if let key = try? SecretKey(bytes: candidate) { return key }
        }
    }

    public func withUnsafeSecretBytes<R>(_ body: (UnsafePointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { try body($0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
    }

    func withUnsafeKeypair<R>(_ body: (UnsafePointer<secp256k1_keypair>) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { buf in
            try body((buf.baseAddress! + SecretKey.keypairOffset).assumingMemoryBound(to: secp256k1_keypair.self))
        }
    }

    /// The secret as hex. Only for explicit export; the caller is responsible for where it goes.
    public func revealHex() -> String { storage.withUnsafeBytes { Hex.encode($0[0..<32]) } }
    /// The secret as nsec1…. Only for explicit export.
    public func revealNsec() -> String { NIP19.encodeNsec(self) }

    /// The nsec in a buffer wiped when the last reference goes: for showing it, then forgetting it.
    public func revealNsecBytes() -> SecretBytes { NIP19.encodeNsecSecret(self) }

    /// Constant-time comparison of the secret bytes.
    public func isSameKey(as other: SecretKey) -> Bool {
        storage.withUnsafeBytes { a in other.storage.withUnsafeBytes { b in
            ConstantTime.equals(UnsafeRawBufferPointer(rebasing: a[0..<32]), UnsafeRawBufferPointer(rebasing: b[0..<32]))
        } }
    }
}

extension SecretKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    // Never print the secret, whatever prints us (logs, crash output, debuggers, dump()).
    public var description: String { "SecretKey(for \(publicKey.hex.prefix(8))…, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["publicKey": publicKey.hex]) }
}
