/// An event without a signature: a template to sign, or a NIP-59 rumor.
public struct UnsignedEvent: Hashable, Sendable {
    public var pubkey: PublicKey
    public var createdAt: Int64
    public var kind: Int
    public var tags: [[String]]
    public var content: String

    public init(pubkey: PublicKey, createdAt: Int64, kind: Int, tags: [[String]] = [], content: String) {
        self.pubkey = pubkey; self.createdAt = createdAt; self.kind = kind; self.tags = tags; self.content = content
    }

    /// The NIP-01 id: SHA-256 of `[0,pubkey,created_at,kind,tags,content]`.
    public var id: EventID {
        let bytes = canonicalSerialization()
        return EventID(raw: bytes.withUnsafeBytes { SHA256.hash($0) })
    }

    public func canonicalSerialization() -> [UInt8] {
        var w = JSONWriter(capacity: content.utf8.count + 160)
        w.raw("[0,\"")
        w.raw(pubkey.hex)
        w.raw("\",")
        w.write(createdAt)
        w.raw(0x2C)
        w.write(kind)
        w.raw(0x2C)
        w.writeTags(tags)
        w.raw(0x2C)
        w.write(content)
        w.raw(0x5D)
        return w.bytes
    }

    public func signed(with key: SecretKey, random: any RandomSource = SystemRandom()) -> NostrEvent {
        precondition(key.publicKey == pubkey, "signing key does not match the event pubkey")
        let id = self.id
        let sig = Schnorr.sign(message: id.raw, with: key, random: random)
        return NostrEvent(id: id, pubkey: pubkey, createdAt: createdAt, kind: kind, tags: tags, content: content, sig: sig)
    }

    /// The rumor form NIP-59 encrypts: the event with its id and without a signature.
    public func rumorJSON() -> String {
        var w = JSONWriter(capacity: content.utf8.count + 256)
        w.raw("{\"id\":\"")
        w.raw(id.hex)
        w.raw("\",\"pubkey\":\"")
        w.raw(pubkey.hex)
        w.raw("\",\"created_at\":")
        w.write(createdAt)
        w.raw(",\"kind\":")
        w.write(kind)
        w.raw(",\"tags\":")
        w.writeTags(tags)
        w.raw(",\"content\":")
        w.write(content)
        w.raw(0x7D)
        return w.string
    }
}

/// A signed NIP-01 event. Decoded events are only trustworthy after `verify()`.
public struct NostrEvent: Hashable, Sendable {
    public let id: EventID
    /// On the curve once `verify()` passed (decoding alone does not check, to avoid doing it twice).
    public let pubkey: PublicKey
    public let createdAt: Int64
    public let kind: Int
    public let tags: [[String]]
    public let content: String
    public let sig: Signature

    public init(id: EventID, pubkey: PublicKey, createdAt: Int64, kind: Int, tags: [[String]], content: String, sig: Signature) {
        self.id = id; self.pubkey = pubkey; self.createdAt = createdAt; self.kind = kind
        self.tags = tags; self.content = content; self.sig = sig
    }

    public var unsigned: UnsignedEvent {
        UnsignedEvent(pubkey: pubkey, createdAt: createdAt, kind: kind, tags: tags, content: content)
    }

    /// Recomputes the id and checks the BIP-340 signature.
    public func verify() throws(EventValidationError) {
        guard unsigned.id == id else { throw .idMismatch }
        guard Schnorr.verify(signature: sig, message: id.raw, publicKey: pubkey.raw) else { throw .invalidSignature }
    }

    public var isValid: Bool { (try? verify()) != nil }

    /// Values of tags named `name` (the second element), in order.
    public func tagValues(_ name: String) -> [String] {
        tags.compactMap { $0.count >= 2 && $0[0] == name ? $0[1] : nil }
    }

    public func jsonBytes() -> [UInt8] {
        var w = JSONWriter(capacity: content.utf8.count + 400)
        w.writeEvent(self)
        return w.bytes
    }

    public func jsonString() -> String { String(decoding: jsonBytes(), as: UTF8.self) }
}

public enum EventValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    case idMismatch
    case invalidSignature

    public var description: String {
        switch self {
        case .idMismatch: return "event id does not match its content"
        case .invalidSignature: return "invalid event signature"
        }
    }
}

extension JSONWriter {
    mutating func writeTags(_ tags: [[String]]) {
        raw(0x5B)
        for (i, tag) in tags.enumerated() {
            if i > 0 { raw(0x2C) }
            write(tag)
        }
        raw(0x5D)
    }

    public mutating func writeEvent(_ e: NostrEvent) {
        raw("{\"id\":\"")
        raw(e.id.hex)
        raw("\",\"pubkey\":\"")
        raw(e.pubkey.hex)
        raw("\",\"created_at\":")
        write(e.createdAt)
        raw(",\"kind\":")
        write(e.kind)
        raw(",\"tags\":")
        writeTags(e.tags)
        raw(",\"content\":")
        write(e.content)
        raw(",\"sig\":\"")
        raw(e.sig.hex)
        raw("\"}")
    }
}
