import LinkstrDomain
import NostrProtocol
import Synchronization

/// JSON and text forms of what commands print. Text output passes every remote string through
/// `DisplayText`, so nothing a peer wrote can drive the terminal.
enum Output {
    /// Remote text may carry terminal controls: `--json` escapes them (`\u009b`), as the TUI neutralises them.
    /// Made only to be printed: a command that made one printed its JSON document.
    static func json(_ value: JSONValue) -> String {
        madeDocument.store(true, ordering: .relaxed)
        return JSONWriter.encodeTerminalSafe(value)
    }

    /// Whether this process printed a JSON document (under `--json` a command that had nothing to say
    /// prints `{"ok":true}`, so every command prints exactly one; issue 33 item 9).
    static let madeDocument = Atomic<Bool>(false)

    /// Plain text, or under `--json` the object `fields` (for commands whose plain output is one line).
    static func say(_ text: String, json: Bool, _ fields: [(String, JSONValue)]) {
        printLine(json ? Output.json(.object(JSONObject(fields))) : text)
    }

    static func key(_ hex: Pubkey) -> [(String, JSONValue)] {
        [("npub", .string((try? PublicKey(hex: hex))?.npub ?? hex)), ("pubkey", .string(hex))]
    }

    /// `held`: the account's counts of posts the membership gate holds, by session (issue 53).
    static func session(_ s: SessionSummary, held: [String: Int]) -> JSONValue {
        .object(JSONObject([
            ("id", .string(s.id)), ("name", .string(s.name)), ("creator", .string(s.creator)),
            ("members", .array(s.members.map { .string($0) })), ("unread", .bool(s.showsUnread)),
            ("unread_count", .integer(Int64(s.showsUnread ? s.unreadCount : 0))), ("archived", .bool(s.archived)),
            ("is_member", .bool(s.isMember)), ("updated_at", .integer(s.lastActivityAt)),
            // "listed", "request" (a stranger's session waiting for accept/decline) or "declined".
            ("standing", .string(s.standing.rawValue)),
            // Posts held for want of membership (dated before their sender joined, …): `posts ID --held`.
            ("held", .integer(Int64(held[s.id] ?? 0))),
        ]))
    }

    /// `deliveries`: of our post, each member's (issue 30); nil leaves the field out.
    static func post(_ p: PostView, title: String? = nil, deliveries: [MemberDeliveryRow]? = nil) -> JSONValue {
        var fields: [(String, JSONValue)] = [
            ("id", .string(p.id)), ("session_id", .string(p.post.sessionID)), ("author", .string(p.post.author)),
            ("url", .string(p.post.url)), ("note", p.post.note.map { .string($0) } ?? .null), ("created_at", .integer(p.post.createdAt)),
            // The date its sender's clock claimed, when it was more than 15 minutes past its arrival
            // (`created_at` is then the arrival, which it sorts by); null for every other post.
            ("dated_ahead", p.post.datedAhead.map { .integer($0) } ?? .null),
            ("unread", .bool(p.unread)), ("label", .string(URLClassifier.classify(p.post.url).label)),
            ("title", title.map { .string($0) } ?? .null),
            ("reactions", .array(p.reactions.map { r in
                .object(JSONObject([("emoji", .string(r.emoji)), ("count", .integer(Int64(r.count))), ("mine", .bool(r.mine)),
                                    ("by", .array(r.by.map { .string($0) }))]))
            })),
        ]
        if let deliveries {
            fields.append(("deliveries", .array(deliveries.map { row in
                var entry: [(String, JSONValue)] = [("pubkey", .string(row.member)), ("state", .string(row.outcome.state))]
                switch row.outcome {
                case .inbox(let relay): entry.append(("relay", .string(relay)))
                case .notDelivered(let why): entry.append(("why", .string(why)))
                case .pending, .sharedOnly: break
                }
                return .object(JSONObject(entry))
            })))
        }
        return .object(JSONObject(fields))
    }

    static func sessionLine(_ s: SessionSummary) -> String {
        "\(s.showsUnread ? "●" : " ") \(s.id)  \(DisplayText.singleLine(s.name))  (\(s.members.count) member\(s.members.count == 1 ? "" : "s")\(s.archived ? ", archived" : "")\(s.isMember ? "" : ", read-only")\(s.standing == .listed ? "" : ", \(s.standing.rawValue)"))"
    }

    static func postLines(_ p: PostView, names: (Pubkey) -> String) -> String {
        var lines = ["\(p.unread ? "●" : " ") \(p.id)  [\(URLClassifier.classify(p.post.url).label)] \(DisplayText.singleLine(p.post.url))",
                     "    by \(DisplayText.singleLine(names(p.post.author)))"]
        if let note = p.post.note { lines.append("    “\(DisplayText.singleLine(note))”") }
        if !p.reactions.isEmpty {
            lines.append("    " + p.reactions.map { "\(DisplayText.singleLine($0.emoji)) \($0.count)\($0.mine ? "*" : "")" }.joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }
}
