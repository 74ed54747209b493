/// NIP-19 bech32 entities: npub, nsec, note, and the TLV forms nprofile, nevent and naddr.
public enum NIP19 {
    public struct Profile: Equatable, Sendable {
        public var publicKey: PublicKey
        public var relays: [String]
        public init(publicKey: PublicKey, relays: [String] = []) { self.publicKey = publicKey; self.relays = relays }
    }

    public struct Event: Equatable, Sendable {
        public var id: EventID
        public var relays: [String]
        public var author: PublicKey?
        public var kind: UInt32?
        public init(id: EventID, relays: [String] = [], author: PublicKey? = nil, kind: UInt32? = nil) {
            self.id = id; self.relays = relays; self.author = author; self.kind = kind
        }
    }

    public struct Address: Equatable, Sendable {
        public var identifier: String
        public var author: PublicKey
        public var kind: UInt32
        public var relays: [String]
        public init(identifier: String, author: PublicKey, kind: UInt32, relays: [String] = []) {
            self.identifier = identifier; self.author = author; self.kind = kind; self.relays = relays
        }
    }

    public enum Entity: Sendable {
        case npub(PublicKey)
        case nsec(SecretKey)
        case note(EventID)
        case nprofile(Profile)
        case nevent(Event)
        case naddr(Address)
    }

    // MARK: encoding

    public static func encodeNpub(_ key: PublicKey) -> String { Bech32.encode(hrp: "npub", data: key.raw.bytes) }
    public static func encodeNote(_ id: EventID) -> String { Bech32.encode(hrp: "note", data: id.raw.bytes) }
    public static func encodeNsec(_ key: SecretKey) -> String {
        var bytes = key.withUnsafeSecretBytes { Array(UnsafeBufferPointer(start: $0, count: 32)) }
        defer { SecretBytes.wipe(&bytes) }
        return Bech32.encode(hrp: "nsec", data: bytes)
    }

    /// The nsec as text in a wiped-on-release buffer (what the app shows; see `Bech32.encodeSecret`).
    public static func encodeNsecSecret(_ key: SecretKey) -> SecretBytes {
        key.withUnsafeSecretBytes { Bech32.encodeSecret(hrp: "nsec", data: UnsafeRawBufferPointer(start: $0, count: 32)) }
    }

    public static func encode(_ profile: Profile) -> String {
        var tlv = TLVWriter()
        tlv.append(type: 0, profile.publicKey.raw.bytes)
        for relay in profile.relays { tlv.append(type: 1, Array(relay.utf8)) }
        return Bech32.encode(hrp: "nprofile", data: tlv.bytes)
    }

    public static func encode(_ event: Event) -> String {
        var tlv = TLVWriter()
        tlv.append(type: 0, event.id.raw.bytes)
        for relay in event.relays { tlv.append(type: 1, Array(relay.utf8)) }
        if let author = event.author { tlv.append(type: 2, author.raw.bytes) }
        if let kind = event.kind { tlv.append(type: 3, bigEndian(kind)) }
        return Bech32.encode(hrp: "nevent", data: tlv.bytes)
    }

    public static func encode(_ address: Address) -> String {
        var tlv = TLVWriter()
        tlv.append(type: 0, Array(address.identifier.utf8))
        for relay in address.relays { tlv.append(type: 1, Array(relay.utf8)) }
        tlv.append(type: 2, address.author.raw.bytes)
        tlv.append(type: 3, bigEndian(address.kind))
        return Bech32.encode(hrp: "naddr", data: tlv.bytes)
    }

    // MARK: decoding

    public static func decode(_ string: String) throws(NIP19Error) -> Entity {
        let decoded: (hrp: String, data: [UInt8])
        do { decoded = try Bech32.decode(string) } catch { throw .bech32(error) }
        var data = decoded.data
        switch decoded.hrp {
        case "npub":
            return .npub(try key32(data, prefix: "npub"))
        case "nsec":
            defer { SecretBytes.wipe(&data) }
            guard data.count == 32 else { throw .wrongDataLength(prefix: "nsec", expected: 32, got: data.count) }
            do { return .nsec(try SecretKey(bytes: data)) } catch { throw .invalidKey(error) }
        case "note":
            guard data.count == 32, let raw = Bytes32(data) else {
                throw .wrongDataLength(prefix: "note", expected: 32, got: data.count)
            }
            return .note(EventID(raw: raw))
        case "nprofile":
            let tlv = try TLVReader.read(data)
            guard let special = tlv.first(where: { $0.type == 0 })?.value else { throw .missingField(prefix: "nprofile", field: "public key") }
            return .nprofile(Profile(publicKey: try key32(special, prefix: "nprofile"), relays: try relays(tlv)))
        case "nevent":
            let tlv = try TLVReader.read(data)
            guard let special = tlv.first(where: { $0.type == 0 })?.value else { throw .missingField(prefix: "nevent", field: "event id") }
            guard special.count == 32, let raw = Bytes32(special) else {
                throw .wrongDataLength(prefix: "nevent", expected: 32, got: special.count)
            }
            var author: PublicKey?
            if let a = tlv.first(where: { $0.type == 2 })?.value { author = try key32(a, prefix: "nevent") }
            var kind: UInt32?
            if let k = tlv.first(where: { $0.type == 3 })?.value { kind = try uint32(k, prefix: "nevent") }
            return .nevent(Event(id: EventID(raw: raw), relays: try relays(tlv), author: author, kind: kind))
        case "naddr":
            let tlv = try TLVReader.read(data)
            guard let special = tlv.first(where: { $0.type == 0 })?.value else { throw .missingField(prefix: "naddr", field: "identifier") }
            guard let identifier = String(validating: special, as: UTF8.self) else { throw .invalidText(prefix: "naddr") }
            guard let a = tlv.first(where: { $0.type == 2 })?.value else { throw .missingField(prefix: "naddr", field: "author") }
            guard let k = tlv.first(where: { $0.type == 3 })?.value else { throw .missingField(prefix: "naddr", field: "kind") }
            return .naddr(Address(identifier: identifier, author: try key32(a, prefix: "naddr"),
                                  kind: try uint32(k, prefix: "naddr"), relays: try relays(tlv)))
        default:
            throw .unknownPrefix(decoded.hrp)
        }
    }

    private static func key32(_ data: [UInt8], prefix: String) throws(NIP19Error) -> PublicKey {
        guard data.count == 32, let raw = Bytes32(data) else { throw .wrongDataLength(prefix: prefix, expected: 32, got: data.count) }
        do { return try PublicKey(raw: raw) } catch { throw .invalidKey(error) }
    }

    private static func uint32(_ data: [UInt8], prefix: String) throws(NIP19Error) -> UInt32 {
        guard data.count == 4 else { throw .wrongDataLength(prefix: prefix, expected: 4, got: data.count) }
        return data.reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func relays(_ tlv: [TLVReader.Item]) throws(NIP19Error) -> [String] {
        var out = [String]()
        for item in tlv where item.type == 1 {
            guard let s = String(validating: item.value, as: UTF8.self) else { throw .invalidText(prefix: "relay") }
            out.append(s)
        }
        return out
    }

    private static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    struct TLVWriter {
        var bytes: [UInt8] = []
        mutating func append(type: UInt8, _ value: [UInt8]) {
            // A TLV value is at most 255 bytes; longer relay URLs cannot be represented and are dropped.
            guard value.count <= 255 else { return }
            bytes.append(type); bytes.append(UInt8(value.count)); bytes += value
        }
    }

    enum TLVReader {
        struct Item { var type: UInt8; var value: [UInt8] }
        static func read(_ data: [UInt8]) throws(NIP19Error) -> [Item] {
            var items = [Item]()
            var i = 0
            while i < data.count {
                guard i + 2 <= data.count else { throw .truncatedTLV }
                let type = data[i], length = Int(data[i + 1])
                guard i + 2 + length <= data.count else { throw .truncatedTLV }
                // Unknown types are kept and ignored by the callers, as NIP-19 asks.
                items.append(Item(type: type, value: Array(data[(i + 2)..<(i + 2 + length)])))
                i += 2 + length
            }
            return items
        }
    }
}

public enum NIP19Error: Error, Equatable, Sendable, CustomStringConvertible {
    case bech32(Bech32Error)
    case unknownPrefix(String)
    case wrongDataLength(prefix: String, expected: Int, got: Int)
    case missingField(prefix: String, field: String)
    case truncatedTLV
    case invalidText(prefix: String)
    case invalidKey(KeyError)

    public var description: String {
        switch self {
        case .bech32(let e): return "not a valid bech32 string: \(e.description)"
        case .unknownPrefix(let p): return "unknown prefix \"\(p)\"."
        case .wrongDataLength(let p, let e, let g): return "\(p) carries \(g) bytes, expected \(e)."
        case .missingField(let p, let f): return "\(p) is missing its \(f)."
        case .truncatedTLV: return "the data is cut short (truncated TLV)."
        case .invalidText(let p): return "\(p) text is not valid UTF-8."
        case .invalidKey(let e): return e.description
        }
    }
}
