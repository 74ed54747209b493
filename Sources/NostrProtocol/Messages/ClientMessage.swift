/// Messages a client sends to a relay (NIP-01, NIP-42, NIP-45, NIP-77).
public enum ClientMessage: Equatable, Sendable {
    case event(NostrEvent)
    case req(subscriptionID: String, filters: [Filter])
    case close(subscriptionID: String)
    case auth(NostrEvent)
    case count(subscriptionID: String, filters: [Filter])
    /// NIP-77: a negentropy sync of `filter`'s events, its first message as hex.
    case negOpen(subscriptionID: String, filter: Filter, message: String)
    case negMsg(subscriptionID: String, message: String)
    case negClose(subscriptionID: String)

    public func encoded() -> String {
        var w = JSONWriter(capacity: 512)
        switch self {
        case .event(let e):
            w.raw("[\"EVENT\",")
            w.writeEvent(e)
            w.raw(0x5D)
        case .auth(let e):
            w.raw("[\"AUTH\",")
            w.writeEvent(e)
            w.raw(0x5D)
        case .req(let id, let filters), .count(let id, let filters):
            if case .req = self { w.raw("[\"REQ\",") } else { w.raw("[\"COUNT\",") }
            w.write(id)
            for f in filters { w.raw(0x2C); w.write(f.json) }
            w.raw(0x5D)
        case .close(let id):
            w.raw("[\"CLOSE\",")
            w.write(id)
            w.raw(0x5D)
        case .negOpen(let id, let filter, let message):
            w.raw("[\"NEG-OPEN\","); w.write(id); w.raw(0x2C); w.write(filter.json); w.raw(0x2C); w.write(message); w.raw(0x5D)
        case .negMsg(let id, let message):
            w.raw("[\"NEG-MSG\","); w.write(id); w.raw(0x2C); w.write(message); w.raw(0x5D)
        case .negClose(let id):
            w.raw("[\"NEG-CLOSE\","); w.write(id); w.raw(0x5D)
        }
        return w.string
    }

    public static func decode(_ text: String) throws(MessageDecodingError) -> ClientMessage {
        let items = try MessageDecodingError.frame(text)
        let type = items.type
        let a = items.rest
        switch type {
        case "EVENT", "AUTH":
            guard a.count == 1 else { throw .wrongArity(type) }
            let e: NostrEvent
            do { e = try NostrEvent(json: a[0]) } catch { throw .event(error) }
            return type == "EVENT" ? .event(e) : .auth(e)
        case "REQ", "COUNT":
            guard a.count >= 1, case .string(let id) = a[0] else { throw .wrongType(type, index: 1) }
            var filters = [Filter]()
            for f in a.dropFirst() { filters.append(try Filter(json: f)) }
            return type == "REQ" ? .req(subscriptionID: id, filters: filters) : .count(subscriptionID: id, filters: filters)
        case "CLOSE", "NEG-CLOSE":
            guard a.count == 1, case .string(let id) = a[0] else { throw .wrongArity(type) }
            return type == "CLOSE" ? .close(subscriptionID: id) : .negClose(subscriptionID: id)
        case "NEG-OPEN":
            guard a.count == 3, case .string(let id) = a[0], case .string(let message) = a[2] else { throw .wrongArity(type) }
            return .negOpen(subscriptionID: id, filter: try Filter(json: a[1]), message: message)
        case "NEG-MSG":
            guard a.count == 2, case .string(let id) = a[0], case .string(let message) = a[1] else { throw .wrongArity(type) }
            return .negMsg(subscriptionID: id, message: message)
        default:
            throw .unknownType(type)
        }
    }
}
