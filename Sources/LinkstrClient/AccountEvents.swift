import Foundation
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// What happened to an account, as JSON objects: `linkstr sync --follow --json` prints them
/// a line each (besides the `ingested` lines, kept), and the hooks are given them. One object per thing
/// that happened, with a `type`, a time (`at`, ISO 8601) and the fields of
/// the matching `--json` output: `post` and `reaction` (from others, in the user's sessions: never a
/// stranger's request), `post_deleted` (by its author), `session` (`change`: created, renamed, members,
/// deleted), `request` (a session from someone who is not a contact), `relay` (a status change) and
/// `sent` (a queued send that went). No `read_state`: reads have no wire form (wire 2026 §4, "no read
/// receipts"), and while this process follows it is the account's only writer here.
public struct AccountEvents: Sendable {
    let session: AccountSession
    let actions: AccountActions
    private var known: [String: SessionSummary]
    private var relays: [String: RelayStatus] = [:]

    public init(session: AccountSession, requests: SessionRequestPolicy) throws {
        self.session = session
        actions = session.actions(requests: requests)
        known = Dictionary(try session.store.sessionSummaries(archived: nil).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The lines `update` makes, in order.
    public mutating func lines(_ update: SyncUpdate, now: Date = Date()) throws -> [JSONValue] {
        let at = Self.iso(now)
        switch update {
        case .ingested(let sessions, let notes):
            var out: [JSONValue] = [.object(JSONObject([("type", .string("ingested")), ("sessions", .array(sessions.sorted().map { .string($0) })),
                                                        ("notifications", .integer(Int64(notes.count)))]))]
            out += try sessionLines(sessions, at: at)
            for note in try actions.notifiable(notes) { out += try noteLine(note, at: at) }
            return out
        case .relay(let r):
            guard relays[r.url] != r.status else { return [] }
            relays[r.url] = r.status
            return [Self.line("relay", at, [("url", .string(r.url)), ("status", .string(r.status.rawValue)),
                                            ("error", r.lastError.map { .string($0) } ?? .null)])]
        case .postsDeleted(let deleted):
            return deleted.map { d in
                Self.line("post_deleted", at, [("id", .string(d.postID)), ("session_id", .string(d.sessionID)), ("session_name", sessionName(d.sessionID))]
                          + JSONShapes.key(d.author).map { ("author_" + $0.0, $0.1) })
            }
        case .sendQueue(let news):
            return news.sentItems.map { item in
                Self.line("sent", Self.iso(Date(timeIntervalSince1970: TimeInterval(item.at))), [
                    ("id", .integer(item.item)), ("kind", .string(item.action.rawValue)),
                    ("session_id", item.sessionID.map { .string($0) } ?? .null), ("post_id", item.postID.map { .string($0) } ?? .null),
                ])
            }
        default:
            return []
        }
    }

    /// Sessions that appeared, changed their name or members, or went.
    private mutating func sessionLines(_ ids: Set<String>, at: String) throws -> [JSONValue] {
        var out = [JSONValue]()
        let held = try session.store.heldPostCounts()
        for id in ids.sorted() {
            let before = known[id], now = try actions.summary(of: id)
            known[id] = now
            switch (before, now) {
            case (nil, let s?):
                out.append(Self.merge(s.standing == .listed ? Self.line("session", at, [("change", .string("created"))]) : Self.line("request", at, []),
                                      JSONShapes.session(s, held: held)))
            case (let old?, let s?):
                if old.name != s.name { out.append(Self.merge(Self.line("session", at, [("change", .string("renamed"))]), JSONShapes.session(s, held: held))) }
                if old.members != s.members { out.append(Self.merge(Self.line("session", at, [("change", .string("members"))]), JSONShapes.session(s, held: held))) }
            case (_?, nil):
                out.append(Self.line("session", at, [("change", .string("deleted")), ("id", .string(id))]))
            case (nil, nil):
                break
            }
        }
        return out
    }

    private func noteLine(_ note: InboundNotification, at: String) throws -> [JSONValue] {
        switch note {
        case .post(let postID, let sessionID, _):
            guard let view = try session.store.postView(postID) else { return [] }
            return [Self.merge(Self.line("post", at, [("session_name", sessionName(sessionID))]), JSONShapes.post(view, deliveries: nil))]
        case .reaction(let reactionID, let postID, let sessionID, let author, let emoji):
            return [Self.line("reaction", at, [("id", .string(reactionID)), ("post_id", .string(postID)), ("session_id", .string(sessionID)),
                                               ("session_name", sessionName(sessionID))]
                              + JSONShapes.key(author).map { ("author_" + $0.0, $0.1) } + [("emoji", .string(emoji))])]
        }
    }

    /// The session's name as the user sees it (null when it is not known here).
    private func sessionName(_ id: String) -> JSONValue { known[id].map { .string($0.name) } ?? .null }

    static func line(_ type: String, _ at: String, _ fields: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject([("type", .string(type)), ("at", .string(at))] + fields.map { (key: $0.0, value: $0.1) }))
    }

    /// `head`'s fields, then the `--json` object's.
    static func merge(_ head: JSONValue, _ body: JSONValue) -> JSONValue {
        guard case .object(let h) = head, case .object(let b) = body else { return head }
        let taken = Set(h.keys)
        return .object(JSONObject(h.members + b.members.filter { !taken.contains($0.key) }))
    }

    static func iso(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }
}

