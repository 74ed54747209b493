/// Messages a relay sends to a client (NIP-01, NIP-42, NIP-45, NIP-77).
public enum RelayMessage: Equatable, Sendable {
    case event(subscriptionID: String, event: NostrEvent)
    case ok(eventID: EventID, accepted: Bool, message: RelayStatusMessage)
    case eose(subscriptionID: String)
    case closed(subscriptionID: String, message: RelayStatusMessage)
    case notice(String)
    case auth(challenge: String)
    case count(subscriptionID: String, count: Int, approximate: Bool)
    /// NIP-77: a negentropy message, hex as sent (decoded where it is used, against its size limit).
    case negMsg(subscriptionID: String, message: String)
    case negErr(subscriptionID: String, reason: RelayStatusMessage)

    /// Parses one frame. Hostile input yields a `MessageDecodingError`, never a trap.
    /// The event in an EVENT message is decoded but not verified; callers verify.
    public static func decode(_ text: String, limits: JSONParser.Limits = .default) throws(MessageDecodingError) -> RelayMessage {
        let items = try MessageDecodingError.frame(text, limits: limits)
        let type = items.type
        let a = items.rest
        func string(_ i: Int) throws(MessageDecodingError) -> String {
            guard i < a.count else { throw .wrongArity(type) }
            guard case .string(let s) = a[i] else { throw .wrongType(type, index: i + 1) }
            return s
        }
        switch type {
        case "EVENT":
            guard a.count == 2 else { throw .wrongArity(type) }
            let sub = try string(0)
            do { return .event(subscriptionID: sub, event: try NostrEvent(json: a[1])) } catch { throw .event(error) }
        case "OK":
            guard a.count >= 2 else { throw .wrongArity(type) }
            let idText = try string(0)
            guard Hex.isLowercaseHex(idText, byteCount: 32), let id = EventID(hex: idText) else { throw .wrongType(type, index: 1) }
            guard case .bool(let accepted) = a[1] else { throw .wrongType(type, index: 2) }
            let message = a.count >= 3 ? try string(2) : ""
            return .ok(eventID: id, accepted: accepted, message: RelayStatusMessage(message))
        case "EOSE":
            return .eose(subscriptionID: try string(0))
        case "CLOSED":
            let sub = try string(0)
            let message = a.count >= 2 ? try string(1) : ""
            return .closed(subscriptionID: sub, message: RelayStatusMessage(message))
        case "NOTICE":
            return .notice(try string(0))
        case "AUTH":
            return .auth(challenge: try string(0))
        case "COUNT":
            let sub = try string(0)
            guard a.count >= 2, case .object(let o) = a[1], case .integer(let n) = o["count"] ?? .null, n >= 0,
                  n <= Int64(Int.max) else { throw .wrongType(type, index: 2) }
            return .count(subscriptionID: sub, count: Int(n), approximate: o["approximate"]?.boolValue ?? false)
        case "NEG-MSG":
            return .negMsg(subscriptionID: try string(0), message: try string(1))
        case "NEG-ERR":
            return .negErr(subscriptionID: try string(0), reason: RelayStatusMessage(a.count >= 2 ? try string(1) : ""))
        default:
            throw .unknownType(type)
        }
    }

    public func encoded() -> String {
        var w = JSONWriter(capacity: 256)
        switch self {
        case .event(let sub, let e):
            w.raw("[\"EVENT\","); w.write(sub); w.raw(0x2C); w.writeEvent(e); w.raw(0x5D)
        case .ok(let id, let accepted, let m):
            w.raw("[\"OK\",\""); w.raw(id.hex); w.raw(accepted ? "\",true," : "\",false,"); w.write(m.raw); w.raw(0x5D)
        case .eose(let sub):
            w.raw("[\"EOSE\","); w.write(sub); w.raw(0x5D)
        case .closed(let sub, let m):
            w.raw("[\"CLOSED\","); w.write(sub); w.raw(0x2C); w.write(m.raw); w.raw(0x5D)
        case .notice(let m):
            w.raw("[\"NOTICE\","); w.write(m); w.raw(0x5D)
        case .auth(let c):
            w.raw("[\"AUTH\","); w.write(c); w.raw(0x5D)
        case .count(let sub, let n, let approximate):
            w.raw("[\"COUNT\","); w.write(sub); w.raw(",{\"count\":"); w.write(n)
            if approximate { w.raw(",\"approximate\":true") }
            w.raw("}]")
        case .negMsg(let sub, let m):
            w.raw("[\"NEG-MSG\","); w.write(sub); w.raw(0x2C); w.write(m); w.raw(0x5D)
        case .negErr(let sub, let m):
            w.raw("[\"NEG-ERR\","); w.write(sub); w.raw(0x2C); w.write(m.raw); w.raw(0x5D)
        }
        return w.string
    }
}

public enum MessageDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    case json(JSONError)
    case notAnArray
    case empty
    case unknownType(String)
    case wrongArity(String)
    case wrongType(String, index: Int)
    case event(EventDecodingError)
    case invalidFilter(String)

    public var description: String {
        switch self {
        case .json(let e): return e.description
        case .notAnArray: return "message is not a JSON array"
        case .empty: return "message has no type"
        case .unknownType(let t): return "unknown message type \"\(t.prefix(32))\""
        case .wrongArity(let t): return "\(t) message has the wrong number of elements"
        case .wrongType(let t, let i): return "\(t) message element \(i) has the wrong type"
        case .event(let e): return e.description
        case .invalidFilter(let why): return "invalid filter: \(why)"
        }
    }

    static func frame(_ text: String, limits: JSONParser.Limits = .default) throws(MessageDecodingError) -> (type: String, rest: [JSONValue]) {
        let value: JSONValue
        do { value = try JSONParser.parse(text, limits: limits) } catch { throw .json(error) }
        guard case .array(let items) = value else { throw .notAnArray }
        guard let first = items.first else { throw .empty }
        guard case .string(let type) = first else { throw .wrongType("message", index: 0) }
        return (type, Array(items.dropFirst()))
    }
}
