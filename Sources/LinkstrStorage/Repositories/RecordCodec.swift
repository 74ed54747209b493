import Foundation
import LinkstrDomain
import NostrProtocol

/// JSON forms of staged records (sealed as a whole in `staged_messages.body_enc`) and of arrival sets.
enum RecordCodec {
    /// "a,b,c" → ["a", "b", "c"] for the comma-joined columns (members, wrap ids: hex, never holding a
    /// comma). Split on bytes: the list reads it for every row, and splitting into characters cost more
    /// than opening the row's sealed fields.
    static func commaList(_ text: String) -> [String] {
        text.utf8.split(separator: UInt8(ascii: ",")).map { String(decoding: $0, as: UTF8.self) }
    }

    static func arrivalsText(_ a: Arrivals) -> String {
        (a.trusted ? "t" : "") + a.liveAt.map { ";\($0)" }.joined()
    }

    static func arrivals(_ text: String) -> Arrivals {
        var a = Arrivals()
        for part in text.split(separator: ";", omittingEmptySubsequences: false) {
            if part == "t" { a.trusted = true } else if let t = Int64(part) { a.liveAt.append(t) }
        }
        return a
    }

    static func json(_ p: PostRecord) -> String {
        JSONWriter.encode(.object(JSONObject([
            ("id", .string(p.id)), ("session_id", .string(p.sessionID)), ("author", .string(p.author)), ("created_at", .integer(p.createdAt)),
            ("dated_ahead", p.datedAhead.map { .integer($0) } ?? .null),
            ("url", .string(p.url)), ("note", p.note.map { .string($0) } ?? .null), ("wrap_ids", .array(p.wrapIDs.map { .string($0) })),
            ("arrivals", .string(arrivalsText(p.arrivals))), ("read_at", p.readAt.map { .integer($0) } ?? .null), ("notified", .bool(p.notified)),
        ])))
    }

    static func json(_ r: ReactionRecord) -> String {
        JSONWriter.encode(.object(JSONObject([
            ("id", .string(r.id)), ("session_id", .string(r.sessionID)), ("post_id", .string(r.postID)), ("emoji", .string(r.emoji)),
            ("author", .string(r.author)), ("active", .bool(r.active)), ("created_at", .integer(r.createdAt)),
            ("arrivals", .string(arrivalsText(r.arrivals))), ("notified", .bool(r.notified)),
        ])))
    }

    static func post(fromJSON text: String, status: CandidateStatus) throws -> PostRecord {
        let o = try object(text)
        return PostRecord(id: try o.string("id"), sessionID: try o.string("session_id"), author: try o.string("author"),
                          createdAt: try o.int("created_at"), datedAhead: o["dated_ahead"]?.integerValue,
                          url: try o.string("url"), note: o["note"]?.stringValue,
                          wrapIDs: (o["wrap_ids"]?.arrayValue ?? []).compactMap(\.stringValue), arrivals: arrivals(o["arrivals"]?.stringValue ?? ""),
                          readAt: o["read_at"]?.integerValue, notified: o["notified"]?.boolValue ?? false, status: status)
    }

    static func reaction(fromJSON text: String, status: CandidateStatus) throws -> ReactionRecord {
        let o = try object(text)
        return ReactionRecord(id: try o.string("id"), sessionID: try o.string("session_id"), postID: try o.string("post_id"),
                              emoji: try o.string("emoji"), author: try o.string("author"), active: o["active"]?.boolValue ?? false,
                              createdAt: try o.int("created_at"), arrivals: arrivals(o["arrivals"]?.stringValue ?? ""),
                              notified: o["notified"]?.boolValue ?? false, status: status)
    }

    /// A tag list as JSON (`[["p","…","wss://…","alice"],["t","x"]]`).
    static func tagsText(_ tags: [[String]]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: tags, options: [.withoutEscapingSlashes]), as: UTF8.self)
    }

    /// nil when the text is not a list of string lists.
    static func tags(_ text: String) -> [[String]]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String]]
    }

    private static func object(_ text: String) throws -> JSONObject {
        guard case .object(let o) = try JSONParser.parse(text) else { throw StorageError.corrupt("staged record is not an object") }
        return o
    }
}

private extension JSONObject {
    func string(_ key: String) throws -> String {
        guard let s = self[key]?.stringValue else { throw StorageError.corrupt("staged record has no \(key)") }
        return s
    }
    func int(_ key: String) throws -> Int64 {
        guard let i = self[key]?.integerValue else { throw StorageError.corrupt("staged record has no \(key)") }
        return i
    }
}
