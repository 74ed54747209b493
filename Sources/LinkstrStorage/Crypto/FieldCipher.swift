import NostrProtocol

/// Seals sensitive columns with ChaCha20-Poly1305 under a random per-account data key. The data key
/// is stored only wrapped by a key derived (HKDF) from the account's secret key, so without the
/// identity the data is unreadable. Each sealed value is bound (AAD) to its table, column, owner and
/// row, so values cannot be moved between rows or accounts unnoticed.
public final class FieldCipher: Sendable {
    static let formatVersion: UInt8 = 1
    private let dataKey: SecretBytes
    private let indexKey: SecretBytes
    private let random: any RandomSource
    private let nonces: NoncePool

    /// The data key read in place, no copy made (the lock's memory test masks it as it reads).
    func withDataKey<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { dataKey.withUnsafeBytes(body) }

    init(dataKey: SecretBytes, random: any RandomSource) {
        self.dataKey = dataKey
        self.random = random
        nonces = NoncePool(random: random)
        let info = Array("linkstr/blind-index/v1".utf8)
        let salt = Array("linkstr/storage/v1".utf8)
        let prk = dataKey.withUnsafeBytes { k in salt.withUnsafeBytes { HKDF.extract(salt: $0, inputKeyMaterial: k) } }
        indexKey = SecretBytes(count: 32)
        indexKey.withUnsafeMutableBytes { out in prk.withUnsafeBytes { p in info.withUnsafeBytes { HKDF.expand(pseudoRandomKey: p, info: $0, output: out) } } }
    }

    // MARK: data key wrapping

    /// The key that wraps the data key: HKDF-SHA256 over the account's secret key, bound to its pubkey.
    static func keyEncryptionKey(for secretKey: SecretKey) -> SecretBytes {
        let salt = Array("linkstr/storage/v1".utf8)
        let info = Array("linkstr/data-key-wrap/v1/\(secretKey.publicKey.hex)".utf8)
        let prk = secretKey.withUnsafeSecretBytes { sk in
            salt.withUnsafeBytes { HKDF.extract(salt: $0, inputKeyMaterial: UnsafeRawBufferPointer(start: sk, count: 32)) }
        }
        let kek = SecretBytes(count: 32)
        kek.withUnsafeMutableBytes { out in prk.withUnsafeBytes { p in info.withUnsafeBytes { HKDF.expand(pseudoRandomKey: p, info: $0, output: out) } } }
        return kek
    }

    /// A new random data key, returned with its wrapped form for the accounts table.
    static func create(for secretKey: SecretKey, random: any RandomSource) throws -> (FieldCipher, wrapped: [UInt8]) {
        let dataKey = SecretBytes(count: 32)
        dataKey.withUnsafeMutableBytes { random.fill($0) }
        let wrapped = try seal(key: keyEncryptionKey(for: secretKey), plaintext: dataKey, aad: wrapAAD(secretKey), random: random)
        return (FieldCipher(dataKey: dataKey, random: random), wrapped)
    }

    static func unwrap(_ wrapped: [UInt8], for secretKey: SecretKey, random: any RandomSource) throws(StorageError) -> FieldCipher {
        guard var plain = try? open(key: keyEncryptionKey(for: secretKey), sealed: wrapped, aad: wrapAAD(secretKey)), plain.count == 32 else {
            throw .cannotDecrypt("this account's data key does not open with this identity")
        }
        defer { SecretBytes.wipe(&plain) }
        return FieldCipher(dataKey: SecretBytes(copying: plain), random: random)
    }

    private static func wrapAAD(_ secretKey: SecretKey) -> [UInt8] { Array("accounts.wrapped_data_key|\(secretKey.publicKey.hex)".utf8) }

    // MARK: fields

    public func seal(_ text: String?, _ context: String) -> SQLValue {
        guard let text else { return .null }
        return .blob(sealBytes(Array(text.utf8), context))
    }

    /// The bytes are sealed where they lie (a copy would not wipe the caller's): this runs for every
    /// field of every stored message.
    public func sealBytes(_ bytes: [UInt8], _ context: String) -> [UInt8] {
        var aad = context
        // Sealing with a valid 32-byte key and 12-byte nonce cannot fail short of memory exhaustion.
        return try! dataKey.withUnsafeBytes { k in
            try bytes.withUnsafeBytes { p in try aad.withUTF8 { a in try Self.seal(key: k, plaintext: p, aad: UnsafeRawBufferPointer(a), nonce: nonces.nonce12()) } }
        }
    }

    public func open(_ value: SQLValue, _ context: String) throws(StorageError) -> String? {
        switch value {
        case .null: return nil
        case .blob(let b):
            var aad = context
            guard let plain = try? aad.withUTF8({ a in try Self.open(key: dataKey, sealed: b, aad: UnsafeRawBufferPointer(a)) }),
                  let text = String(validating: plain, as: UTF8.self) else { throw .cannotDecrypt(context) }
            return text
        default: throw .corrupt("\(context) is not a sealed value")
        }
    }

    /// Opens what `sealBytes` sealed under the same context.
    public func openBytes(_ sealed: [UInt8], _ context: String) throws(StorageError) -> [UInt8] {
        do { return try Self.open(key: dataKey, sealed: sealed, aad: Array(context.utf8)) } catch { throw .cannotDecrypt(context) }
    }

    public func openRequired(_ value: SQLValue, _ context: String) throws(StorageError) -> String {
        guard let text = try open(value, context) else { throw .corrupt("\(context) is missing") }
        return text
    }

    /// A blind index: equal inputs give equal references, which reveal nothing else about the value.
    public func reference(_ value: String) -> String {
        let mac = indexKey.withUnsafeBytes { k in Array(value.utf8).withUnsafeBytes { HMACSHA256.authenticate(key: k, parts: [$0]) } }
        return String(mac.hex.prefix(40))
    }

    // MARK: AEAD framing: version || nonce(12) || ciphertext || tag(16)

    private static func seal(key: SecretBytes, plaintext: SecretBytes, aad: [UInt8], random: any RandomSource) throws -> [UInt8] {
        try key.withUnsafeBytes { k in
            try plaintext.withUnsafeBytes { p in try aad.withUnsafeBytes { a in try seal(key: k, plaintext: p, aad: a, nonce: random.bytes(12)) } }
        }
    }

    /// Sealed straight into its frame: the AEAD leaves room in front for the version and nonce.
    private static func seal(key: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer, aad: UnsafeRawBufferPointer,
                             nonce: [UInt8]) throws -> [UInt8] {
        var framed = try nonce.withUnsafeBytes { n in try ChaCha20Poly1305.seal(key: key, nonce12: n, plaintext: plaintext, aad: aad, front: 13) }
        framed[0] = formatVersion
        framed.replaceSubrange(1..<13, with: nonce)
        return framed
    }

    private static func open(key: SecretBytes, sealed: [UInt8], aad: [UInt8]) throws -> [UInt8] {
        try aad.withUnsafeBytes { try open(key: key, sealed: sealed, aad: $0) }
    }

    /// Opens in place: the nonce and the body are read where they lie (every list row opens several).
    private static func open(key: SecretBytes, sealed: [UInt8], aad: UnsafeRawBufferPointer) throws -> [UInt8] {
        guard sealed.count >= 1 + 12 + 16, sealed[0] == formatVersion else { throw CryptoError.authenticationFailed }
        return try key.withUnsafeBytes { k in
            try sealed.withUnsafeBytes { all in
                try ChaCha20Poly1305.open(key: k, nonce12: UnsafeRawBufferPointer(rebasing: all[1..<13]),
                                          sealed: UnsafeRawBufferPointer(rebasing: all[13...]), aad: aad)
            }
        }
    }
}
