/// A NIP-01 subscription filter.
public struct Filter: Equatable, Sendable {
    public var ids: [String]?
    public var authors: [String]?
    public var kinds: [Int]?
    /// Single-letter tag filters: `["p": [hex]]` is sent as `"#p": [hex]`.
    public var tags: [String: [String]]
    public var since: Int64?
    public var until: Int64?
    public var limit: Int?
    public var search: String?

    public init(ids: [String]? = nil, authors: [String]? = nil, kinds: [Int]? = nil, tags: [String: [String]] = [:],
                since: Int64? = nil, until: Int64? = nil, limit: Int? = nil, search: String? = nil) {
        self.ids = ids; self.authors = authors; self.kinds = kinds; self.tags = tags
        self.since = since; self.until = until; self.limit = limit; self.search = search
    }

    public var json: JSONValue {
        var m: [(key: String, value: JSONValue)] = []
        if let ids { m.append(("ids", .array(ids.map { .string($0) }))) }
        if let authors { m.append(("authors", .array(authors.map { .string($0) }))) }
        if let kinds { m.append(("kinds", .array(kinds.map { .integer(Int64($0)) }))) }
        for key in tags.keys.sorted() { m.append(("#" + key, .array(tags[key]!.map { .string($0) }))) }
        if let since { m.append(("since", .integer(since))) }
        if let until { m.append(("until", .integer(until))) }
        if let limit { m.append(("limit", .integer(Int64(limit)))) }
        if let search { m.append(("search", .string(search))) }
        return .object(JSONObject(m))
    }

    public init(json value: JSONValue) throws(MessageDecodingError) {
        guard case .object(let o) = value else { throw .invalidFilter("a filter must be an object") }
        self.init()
        func strings(_ v: JSONValue, _ name: String) throws(MessageDecodingError) -> [String] {
            guard case .array(let a) = v else { throw .invalidFilter("\(name) must be an array") }
            var out = [String]()
            for item in a {
                guard case .string(let s) = item else { throw .invalidFilter("\(name) must hold strings") }
                out.append(s)
            }
            return out
        }
        func int(_ v: JSONValue, _ name: String) throws(MessageDecodingError) -> Int64 {
            guard case .integer(let i) = v else { throw .invalidFilter("\(name) must be an integer") }
            return i
        }
        for (key, v) in o.members {
            switch key {
            case "ids": ids = try strings(v, key)
            case "authors": authors = try strings(v, key)
            case "kinds":
                guard case .array(let a) = v else { throw .invalidFilter("kinds must be an array") }
                var ks = [Int]()
                for item in a {
                    guard case .integer(let k) = item, k >= 0, k <= 65535 else { throw .invalidFilter("kinds must be integers 0…65535") }
                    ks.append(Int(k))
                }
                kinds = ks
            case "since": since = try int(v, key)
            case "until": until = try int(v, key)
            case "limit":
                let l = try int(v, key)
                guard l >= 0, l <= Int64(Int32.max) else { throw .invalidFilter("limit out of range") }
                limit = Int(l)
            case "search":
                guard case .string(let s) = v else { throw .invalidFilter("search must be a string") }
                search = s
            default:
                if key.hasPrefix("#"), key.count == 2 {
                    tags[String(key.dropFirst())] = try strings(v, key)
                }
                // Other keys are extensions we do not know; ignore them.
            }
        }
    }

    /// NIP-01 matching, used to double-check what relays send us.
    public func matches(_ event: NostrEvent) -> Bool {
        if let ids, !ids.contains(event.id.hex) { return false }
        if let authors, !authors.contains(event.pubkey.hex) { return false }
        if let kinds, !kinds.contains(event.kind) { return false }
        if let since, event.createdAt < since { return false }
        if let until, event.createdAt > until { return false }
        for (name, values) in tags {
            let eventValues = event.tagValues(name)
            if !values.contains(where: { eventValues.contains($0) }) { return false }
        }
        return true
    }
}
