import COpenSSL

/// The 32-byte NIP-44 v2 conversation key between two parties (secret: it decrypts everything between them).
public struct ConversationKey: Sendable {
    let storage: SecretBytes
    init(storage: SecretBytes) { self.storage = storage }
    public init(bytes: [UInt8]) throws(NIP44Error) {
        guard bytes.count == 32 else { throw .invalidConversationKey }
        storage = SecretBytes(copying: bytes)
    }
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes(body)
    }
    /// Hex of the key, for test vectors only.
    public func revealHex() -> String { storage.withUnsafeBytes { Hex.encode($0) } }
}

/// NIP-44 version 2: secp256k1 ECDH, HKDF-SHA256, padding, ChaCha20, HMAC-SHA256, base64.
public enum NIP44 {
    public static let version: UInt8 = 2
    public static let minPlaintextSize = 1
    /// What every deployed implementation (iOS NostrSDK, rust-nostr, nostr-tools) accepts, and
    /// what the official vector file requires `encrypt` to enforce.
    public static let maxPlaintextSize = 65535
    /// Decryption also understands the extended 6-byte length prefix (NIP-44 text at db5fe3d),
    /// up to this many plaintext bytes, so that a future sender is not silently dropped.
    public static let maxExtendedPlaintextSize = 4 << 20

    public enum LengthFormat: Sendable {
        /// 2-byte prefix, plaintext up to 65535 bytes. Use this to talk to other clients.
        case standard
        /// The extended 6-byte prefix above 65535 bytes (NIP-44 text revision db5fe3d).
        case extended
    }

    public struct MessageKeys {
        public let chachaKey: [UInt8]
        public let chachaNonce: [UInt8]
        public let hmacKey: [UInt8]
    }

    private static let salt: [UInt8] = Array("nip44-v2".utf8)

    public static func conversationKey(secretKey: SecretKey, publicKey: PublicKey) throws(NIP44Error) -> ConversationKey {
        let lifted: LiftedPublicKey
        do { lifted = try LiftedPublicKey(publicKey) } catch { throw .invalidKey(error) }
        return try conversationKey(secretKey: secretKey, publicKey: lifted)
    }

    public static func conversationKey(secretKey: SecretKey, publicKey: LiftedPublicKey) throws(NIP44Error) -> ConversationKey {
        let shared: SecretBytes
        do { shared = try ECDH.sharedX(secret: secretKey, publicKey: publicKey) } catch { throw .invalidKey(error) }
        let prk = shared.withUnsafeBytes { ikm in salt.withUnsafeBytes { s in HKDF.extract(salt: s, inputKeyMaterial: ikm) } }
        var prkCopy = prk
        let out = prkCopy.withUnsafeMutableBytes { p in
            defer { OPENSSL_cleanse(p.baseAddress, p.count) }
            return SecretBytes(copying: p)
        }
        return ConversationKey(storage: out)
    }

    public static func messageKeys(conversationKey: ConversationKey, nonce: UnsafeRawBufferPointer) -> MessageKeys {
        var okm = [UInt8](repeating: 0, count: 76)
        defer { SecretBytes.wipe(&okm) }
        conversationKey.withUnsafeBytes { prk in
            okm.withUnsafeMutableBytes { HKDF.expand(pseudoRandomKey: prk, info: nonce, output: $0) }
        }
        return MessageKeys(chachaKey: Array(okm[0..<32]), chachaNonce: Array(okm[32..<44]), hmacKey: Array(okm[44..<76]))
    }

    public static func paddedLength(_ unpaddedLength: Int) -> Int {
        if unpaddedLength <= 32 { return 32 }
        let nextPower = 1 << (Int.bitWidth - (unpaddedLength - 1).leadingZeroBitCount)
        let chunk = nextPower <= 256 ? 32 : nextPower / 8
        return chunk * ((unpaddedLength - 1) / chunk + 1)
    }

    static func pad(_ plaintext: [UInt8], format: LengthFormat) throws(NIP44Error) -> [UInt8] {
        let n = plaintext.count
        let limit = format == .standard ? maxPlaintextSize : Int(UInt32.max)
        guard n >= minPlaintextSize, n <= limit else { throw .invalidPlaintextLength(n) }
        var out: [UInt8]
        if n >= 65536 {
            out = [0, 0, UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        } else {
            out = [UInt8(n >> 8), UInt8(n & 0xFF)]
        }
        out.reserveCapacity(out.count + paddedLength(n))
        out += plaintext
        out += [UInt8](repeating: 0, count: paddedLength(n) - n)
        return out
    }

    static func unpad(_ padded: UnsafeRawBufferPointer) throws(NIP44Error) -> UnsafeRawBufferPointer {
        guard padded.count >= 2 else { throw .invalidPadding }
        var length = Int(padded[0]) << 8 | Int(padded[1])
        var prefix = 2
        if length == 0 {
            guard padded.count >= 6 else { throw .invalidPadding }
            length = Int(padded[2]) << 24 | Int(padded[3]) << 16 | Int(padded[4]) << 8 | Int(padded[5])
            guard length >= 65536 else { throw .invalidPadding }
            prefix = 6
        }
        guard length > 0, prefix + length <= padded.count, padded.count == prefix + paddedLength(length) else {
            throw .invalidPadding
        }
        return UnsafeRawBufferPointer(rebasing: padded[prefix..<(prefix + length)])
    }

    public static func encrypt(_ plaintext: String, conversationKey: ConversationKey, nonce: Bytes32,
                               format: LengthFormat = .standard) throws(NIP44Error) -> String {
        var padded = try pad(Array(plaintext.utf8), format: format)
        defer { SecretBytes.wipe(&padded) }
        var nonceCopy = nonce
        return nonceCopy.withUnsafeMutableBytes { nonceBytes in
            let keys = messageKeys(conversationKey: conversationKey, nonce: UnsafeRawBufferPointer(nonceBytes))
            var payload = [UInt8](repeating: 0, count: 1 + 32 + padded.count + 32)
            payload[0] = version
            for i in 0..<32 { payload[1 + i] = nonceBytes[i] }
            payload.withUnsafeMutableBytes { out in
                let cipherOut = UnsafeMutableRawBufferPointer(rebasing: out[33..<(33 + padded.count)])
                keys.chachaKey.withUnsafeBytes { k in
                    keys.chachaNonce.withUnsafeBytes { n in
                        padded.withUnsafeBytes { p in ChaCha20.apply(key: k, nonce12: n, input: p, output: cipherOut) }
                    }
                }
                let mac = keys.hmacKey.withUnsafeBytes { hk in
                    HMACSHA256.authenticate(key: hk, parts: [UnsafeRawBufferPointer(nonceBytes), UnsafeRawBufferPointer(cipherOut)])
                }
                mac.withUnsafeBytes { m in
                    UnsafeMutableRawBufferPointer(rebasing: out[(33 + padded.count)...]).copyMemory(from: m)
                }
            }
            return Base64.encode(payload)
        }
    }

    public static func encrypt(_ plaintext: String, conversationKey: ConversationKey,
                               random: any RandomSource = SystemRandom()) throws(NIP44Error) -> String {
        try encrypt(plaintext, conversationKey: conversationKey, nonce: random.bytes32())
    }

    public static func decrypt(_ payload: String, conversationKey: ConversationKey) throws(NIP44Error) -> String {
        let bytes = try decryptToBytes(payload, conversationKey: conversationKey)
        guard let s = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return s
    }

    /// Decrypts to raw bytes (not yet checked to be UTF-8), for callers that parse JSON directly.
    public static func decryptToBytes(_ payload: String, conversationKey: ConversationKey) throws(NIP44Error) -> [UInt8] {
        try open(try Payload(payload), conversationKey: conversationKey)
    }

    /// A payload whose form was checked (length, base64, version): what can be known before a key is
    /// derived, so that a gift wrap whose content is not NIP-44 costs no ECDH.
    public struct Payload: Sendable {
        fileprivate let data: [UInt8]

        public init(_ payload: String) throws(NIP44Error) {
            var text = payload
            data = try text.withUTF8 { p in Result { () throws(NIP44Error) in try Payload.decode(p) } }.get()
        }

        private static func decode(_ p: UnsafeBufferPointer<UInt8>) throws(NIP44Error) -> [UInt8] {
            guard let first = p.first else { throw .invalidPayloadSize(0) }
            guard first != UInt8(ascii: "#") else { throw .unsupportedVersion(nil) }
            let maxBase64 = (1 + 32 + 6 + paddedLength(maxExtendedPlaintextSize) + 32 + 2) / 3 * 4
            guard p.count >= 132, p.count <= maxBase64 else { throw .invalidPayloadSize(p.count) }
            guard let data = Base64.decode(bytes: p) else { throw .invalidBase64 }
            guard data.count >= 99 else { throw .invalidDataSize(data.count) }
            guard data[0] == version else { throw .unsupportedVersion(data[0]) }
            return data
        }
    }

    /// Checks the payload's MAC under `conversationKey` and decrypts it.
    public static func open(_ payload: Payload, conversationKey: ConversationKey) throws(NIP44Error) -> [UInt8] {
        try payload.data.withUnsafeBytes { d in Result { () throws(NIP44Error) -> [UInt8] in
            let nonce = UnsafeRawBufferPointer(rebasing: d[1..<33])
            let ciphertext = UnsafeRawBufferPointer(rebasing: d[33..<(d.count - 32)])
            let mac = UnsafeRawBufferPointer(rebasing: d[(d.count - 32)...])
            let keys = messageKeys(conversationKey: conversationKey, nonce: nonce)
            let expected = keys.hmacKey.withUnsafeBytes { hk in HMACSHA256.authenticate(key: hk, parts: [nonce, ciphertext]) }
            guard expected.withUnsafeBytes({ ConstantTime.equals($0, mac) }) else { throw .invalidMAC }
            var padded = [UInt8](repeating: 0, count: ciphertext.count)
            defer { SecretBytes.wipe(&padded) }
            padded.withUnsafeMutableBytes { out in
                keys.chachaKey.withUnsafeBytes { k in
                    keys.chachaNonce.withUnsafeBytes { n in ChaCha20.apply(key: k, nonce12: n, input: ciphertext, output: out) }
                }
            }
            return try padded.withUnsafeBytes { pb in Result { () throws(NIP44Error) in Array(try unpad(pb)) } }.get()
        } }.get()
    }
}

public enum NIP44Error: Error, Equatable, Sendable, CustomStringConvertible {
    case unsupportedVersion(UInt8?)
    case invalidPayloadSize(Int)
    case invalidBase64
    case invalidDataSize(Int)
    case invalidMAC
    case invalidPadding
    case invalidPlaintextLength(Int)
    case invalidConversationKey
    case invalidKey(KeyError)
    case invalidUTF8

    public var description: String {
        switch self {
        case .unsupportedVersion(let v): return "unsupported NIP-44 encryption version" + (v.map { " \($0)" } ?? "")
        case .invalidPayloadSize(let n): return "invalid NIP-44 payload length: \(n)"
        case .invalidBase64: return "NIP-44 payload is not valid base64"
        case .invalidDataSize(let n): return "invalid NIP-44 data size: \(n)"
        case .invalidMAC: return "invalid MAC: wrong key or tampered payload"
        case .invalidPadding: return "invalid NIP-44 padding"
        case .invalidPlaintextLength(let n): return "plaintext length \(n) is outside 1…65535 bytes"
        case .invalidConversationKey: return "a conversation key must be 32 bytes"
        case .invalidKey(let e): return e.description
        case .invalidUTF8: return "decrypted text is not valid UTF-8"
        }
    }
}
