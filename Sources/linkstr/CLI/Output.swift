import LinkstrClient
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
    /// prints `{"ok":true}`, so every command prints exactly one).
    static let madeDocument = Atomic<Bool>(false)

    /// Plain text, or under `--json` the object `fields` (for commands whose plain output is one line).
    static func say(_ text: String, json: Bool, _ fields: [(String, JSONValue)]) {
        printLine(json ? Output.json(.object(JSONObject(fields))) : text)
    }

    static func key(_ hex: Pubkey) -> [(String, JSONValue)] { JSONShapes.key(hex) }

    /// `held`: the account's counts of posts the membership gate holds, by session.
    static func session(_ s: SessionSummary, held: [String: Int]) -> JSONValue { JSONShapes.session(s, held: held) }

    /// `deliveries`: of our post, each member's; nil leaves the field out.
    static func post(_ p: PostView, title: String? = nil, deliveries: [MemberDeliveryRow]? = nil) -> JSONValue {
        JSONShapes.post(p, title: title, deliveries: deliveries)
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
