/// Strict decoding of events from untrusted JSON: exact types, lowercase hex of the right length,
/// kinds 0…65535, non-negative integer timestamps, tags as arrays of strings.
public enum EventDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    case json(JSONError)
    case notAnObject
    case missingField(String)
    case wrongType(field: String, expected: String)
    case invalidHex(field: String)
    case kindOutOfRange
    case createdAtOutOfRange
    case invalidTags

    public var description: String {
        switch self {
        case .json(let e): return e.description
        case .notAnObject: return "event is not a JSON object"
        case .missingField(let f): return "event has no \"\(f)\""
        case .wrongType(let f, let t): return "event \"\(f)\" must be a \(t)"
        case .invalidHex(let f): return "event \"\(f)\" is not lowercase hex of the right length"
        case .kindOutOfRange: return "event kind is outside 0…65535"
        case .createdAtOutOfRange: return "event created_at is negative"
        case .invalidTags: return "event tags must be an array of arrays of strings"
        }
    }
}

extension NostrEvent {
    public init(json text: String) throws(EventDecodingError) {
        let value: JSONValue
        do { value = try JSONParser.parse(text) } catch { throw .json(error) }
        try self.init(json: value)
    }

    public init(json value: JSONValue) throws(EventDecodingError) {
        guard case .object(let o) = value else { throw .notAnObject }
        let fields = try EventFields(o, requireSignature: true)
        self.init(id: fields.id!, pubkey: fields.pubkey, createdAt: fields.createdAt, kind: fields.kind,
                  tags: fields.tags, content: fields.content, sig: fields.sig!)
    }
}

/// The common fields of signed events and rumors.
struct EventFields {
    var id: EventID?
    var pubkey: PublicKey
    var createdAt: Int64
    var kind: Int
    var tags: [[String]]
    var content: String
    var sig: Signature?
    var hasSignatureField: Bool

    init(_ o: JSONObject, requireSignature: Bool) throws(EventDecodingError) {
        func field(_ name: String) throws(EventDecodingError) -> JSONValue {
            guard let v = o[name] else { throw .missingField(name) }
            return v
        }
        func hex32(_ name: String) throws(EventDecodingError) -> Bytes32 {
            guard case .string(let s) = try field(name) else { throw .wrongType(field: name, expected: "string") }
            guard Hex.isLowercaseHex(s, byteCount: 32), let b = Bytes32(hex: s) else { throw .invalidHex(field: name) }
            return b
        }

        pubkey = PublicKey(trusted: try hex32("pubkey"))
        guard case .integer(let created) = try field("created_at") else { throw .wrongType(field: "created_at", expected: "integer") }
        guard created >= 0 else { throw .createdAtOutOfRange }
        createdAt = created
        guard case .integer(let k) = try field("kind") else { throw .wrongType(field: "kind", expected: "integer") }
        guard k >= 0 && k <= 65535 else { throw .kindOutOfRange }
        kind = Int(k)
        guard case .array(let rawTags) = try field("tags") else { throw .wrongType(field: "tags", expected: "array") }
        var tags = [[String]]()
        tags.reserveCapacity(rawTags.count)
        for t in rawTags {
            guard case .array(let items) = t else { throw .invalidTags }
            var tag = [String]()
            tag.reserveCapacity(items.count)
            for item in items {
                guard case .string(let s) = item else { throw .invalidTags }
                tag.append(s)
            }
            tags.append(tag)
        }
        self.tags = tags
        guard case .string(let c) = try field("content") else { throw .wrongType(field: "content", expected: "string") }
        content = c

        if requireSignature || o["id"] != nil {
            id = EventID(raw: try hex32("id"))
        }
        let sigValue = o["sig"]
        hasSignatureField = sigValue != nil && sigValue != .null
        if requireSignature {
            guard case .string(let s) = try field("sig") else { throw .wrongType(field: "sig", expected: "string") }
            guard Hex.isLowercaseHex(s, byteCount: 64), let sig = Signature(hex: s) else { throw .invalidHex(field: "sig") }
            self.sig = sig
        }
    }
}
