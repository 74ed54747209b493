import NostrProtocol

/// The kind of a linkstr rumor's payload (`kind` key).
public enum PayloadKind: String, Sendable, CaseIterable {
    case sessionCreate = "session_create"
    case sessionMembers = "session_members"
    case root
    case rootDelete = "root_delete"
    case reaction
    /// Sent by later iOS versions (wire document §15): the creator deletes the whole session.
    case sessionDelete = "session_delete"
}

/// The JSON carried in a kind-44001 rumor (wire document §2). Optional keys are omitted when nil.
public struct LinkstrPayload: Equatable, Sendable {
    public static let rumorKind = 44001

    public var conversationID: String
    public var rootID: String
    public var kind: PayloadKind
    public var url: String?
    public var note: String?
    /// Informational only: ingest orders by the rumor's created_at, never by this.
    public var timestamp: Int64?
    public var sessionName: String?
    public var memberPubkeys: [String]?
    public var emoji: String?
    public var reactionActive: Bool?

    public init(conversationID: String, rootID: String, kind: PayloadKind, url: String? = nil, note: String? = nil,
                timestamp: Int64? = nil, sessionName: String? = nil, memberPubkeys: [String]? = nil,
                emoji: String? = nil, reactionActive: Bool? = nil) {
        self.conversationID = conversationID; self.rootID = rootID; self.kind = kind; self.url = url; self.note = note
        self.timestamp = timestamp; self.sessionName = sessionName; self.memberPubkeys = memberPubkeys
        self.emoji = emoji; self.reactionActive = reactionActive
    }

    // MARK: decoding (exactly what iOS's Codable accepts)

    public static func decode(_ content: String) throws(PayloadError) -> LinkstrPayload {
        let value: JSONValue
        do { value = try JSONParser.parse(content, limits: .init(maxBytes: 1 << 20, maxDepth: 16)) } catch { throw .json(error) }
        return try decode(value)
    }

    public static func decode(_ value: JSONValue) throws(PayloadError) -> LinkstrPayload {
        guard case .object(let o) = value else { throw .notAnObject }
        func required(_ key: String) throws(PayloadError) -> String {
            guard let v = o[key], !v.isNull else { throw .missingKey(key) }
            guard case .string(let s) = v else { throw .wrongType(key) }
            return s
        }
        func optionalString(_ key: String) throws(PayloadError) -> String? {
            guard let v = o[key], !v.isNull else { return nil }
            guard case .string(let s) = v else { throw .wrongType(key) }
            return s
        }
        let conversationID = try required("conversation_id")
        let rootID = try required("root_id")
        let kindText = try required("kind")
        guard let kind = PayloadKind(rawValue: kindText) else { throw .unknownKind(kindText) }
        var payload = LinkstrPayload(conversationID: conversationID, rootID: rootID, kind: kind)
        payload.url = try optionalString("url")
        payload.note = try optionalString("note")
        payload.sessionName = try optionalString("session_name")
        payload.emoji = try optionalString("emoji")
        if let v = o["timestamp"], !v.isNull {
            // Swift's JSONDecoder rejects fractions and out-of-range numbers for Int64; so do we.
            guard case .integer(let t) = v else { throw .wrongType("timestamp") }
            payload.timestamp = t
        }
        if let v = o["reaction_active"], !v.isNull {
            guard case .bool(let b) = v else { throw .wrongType("reaction_active") }
            payload.reactionActive = b
        }
        if let v = o["member_pubkeys"], !v.isNull {
            guard case .array(let items) = v else { throw .wrongType("member_pubkeys") }
            var keys = [String]()
            keys.reserveCapacity(items.count)
            for item in items {
                guard case .string(let s) = item else { throw .wrongType("member_pubkeys") }
                keys.append(s)
            }
            payload.memberPubkeys = keys
        }
        return payload
    }

    // MARK: encoding (what iOS's JSONDecoder reads)

    public func encoded() -> String {
        var members: [(key: String, value: JSONValue)] = [
            ("conversation_id", .string(conversationID)),
            ("root_id", .string(rootID)),
            ("kind", .string(kind.rawValue)),
        ]
        if let url { members.append(("url", .string(url))) }
        if let note { members.append(("note", .string(note))) }
        if let timestamp { members.append(("timestamp", .integer(timestamp))) }
        if let sessionName { members.append(("session_name", .string(sessionName))) }
        if let memberPubkeys { members.append(("member_pubkeys", .array(memberPubkeys.map { .string($0) }))) }
        if let emoji { members.append(("emoji", .string(emoji))) }
        if let reactionActive { members.append(("reaction_active", .bool(reactionActive))) }
        return JSONWriter.encode(.object(JSONObject(members)))
    }

    // MARK: validation (wire document §2.1), run before sending and on receipt

    /// Returns the payload with normalized values (trimmed ids, normalized URL, validated member keys).
    public func validated() throws(PayloadError) -> LinkstrPayload {
        var p = self
        p.conversationID = conversationID.trimmingWhitespace()
        guard !p.conversationID.isEmpty else { throw .invalid("conversation_id is empty") }
        switch kind {
        case .root:
            guard let raw = url, let normalized = WebURL.normalized(raw) else { throw .invalid("root url is not a valid http(s) URL") }
            p.url = normalized
        case .rootDelete:
            p.rootID = rootID.trimmingWhitespace()
            guard !p.rootID.isEmpty else { throw .invalid("root_delete has no root_id") }
        case .sessionCreate:
            guard let name = sessionName?.trimmingWhitespace(), !name.isEmpty else { throw .invalid("session_create has no session_name") }
            p.sessionName = name
            p.memberPubkeys = try validatedMembers()
        case .sessionMembers:
            p.memberPubkeys = try validatedMembers()
            if let name = sessionName?.trimmingWhitespace() { p.sessionName = name.isEmpty ? nil : name }
        case .reaction:
            p.rootID = rootID.trimmingWhitespace()
            guard !p.rootID.isEmpty else { throw .invalid("reaction has no root_id") }
            guard let emoji = emoji?.trimmingWhitespace(), !emoji.isEmpty else { throw .invalid("reaction has no emoji") }
            p.emoji = emoji
            guard reactionActive != nil else { throw .invalid("reaction has no reaction_active") }
        case .sessionDelete:
            // wire 2026 §1.1: a fresh operation id, like root_delete's; iOS drops a delete without one.
            p.rootID = rootID.trimmingWhitespace()
            guard !p.rootID.isEmpty else { throw .invalid("session_delete has no root_id") }
        }
        return p
    }

    private func validatedMembers() throws(PayloadError) -> [String] {
        guard let raw = memberPubkeys, let keys = PubkeyNormalizer.validatedList(raw), !keys.isEmpty else {
            throw .invalid("member_pubkeys missing, empty, or holding an invalid key")
        }
        return keys
    }
}

public enum PayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    case json(JSONError)
    case notAnObject
    case missingKey(String)
    case wrongType(String)
    /// Not fatal to a sync: newer clients may send kinds we do not know.
    case unknownKind(String)
    case invalid(String)

    public var description: String {
        switch self {
        case .json(let e): return "payload: \(e)"
        case .notAnObject: return "payload is not a JSON object"
        case .missingKey(let k): return "payload has no \(k)"
        case .wrongType(let k): return "payload \(k) has the wrong type"
        case .unknownKind(let k): return "unknown payload kind \"\(k.prefix(40))\""
        case .invalid(let why): return "invalid payload: \(why)"
        }
    }
}
