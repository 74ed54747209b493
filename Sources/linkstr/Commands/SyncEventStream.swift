import Foundation
import LinkstrClient
import LinkstrDomain
import LinkstrRelay
import LinkstrStorage
import LinkstrSync
import NostrProtocol
import Synchronization

/// `linkstr sync --follow --json`'s events (issue 51, item 3): besides the `ingested` lines (kept), one
/// JSON object a line per thing that happened, with a `type`, a time (`at`, ISO 8601) and the fields of
/// the matching `--json` output: `post` and `reaction` (from others, in the user's sessions: never a
/// stranger's request), `post_deleted` (by its author), `session` (`change`: created, renamed, members,
/// deleted), `request` (a session from someone who is not a contact), `relay` (a status change) and
/// `sent` (a queued send that went). No `read_state`: reads have no wire form (wire 2026 §4, "no read
/// receipts"), and while this process follows it is the account's only writer here.
/// Each line is written and flushed on its own, so `| jq` and `| while read` see it at once.
struct SyncEventStream: Sendable {
    let session: AccountSession
    let actions: AccountActions
    private var known: [String: SessionSummary]
    private var relays: [String: RelayStatus] = [:]

    init(session: AccountSession, requests: SessionRequestPolicy) throws {
        self.session = session
        actions = session.actions(requests: requests)
        known = Dictionary(try session.store.sessionSummaries(archived: nil).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// The lines `update` makes, in order.
    mutating func lines(_ update: SyncUpdate, now: Date = Date()) throws -> [JSONValue] {
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
                Self.line("post_deleted", at, [("id", .string(d.postID)), ("session_id", .string(d.sessionID))]
                          + Output.key(d.author).map { ("author_" + $0.0, $0.1) })
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
                                      Output.session(s, held: held)))
            case (let old?, let s?):
                if old.name != s.name { out.append(Self.merge(Self.line("session", at, [("change", .string("renamed"))]), Output.session(s, held: held))) }
                if old.members != s.members { out.append(Self.merge(Self.line("session", at, [("change", .string("members"))]), Output.session(s, held: held))) }
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
        case .post(let postID, _, _):
            guard let view = try session.store.postView(postID) else { return [] }
            return [Self.merge(Self.line("post", at, []), Output.post(view, deliveries: nil))]
        case .reaction(let reactionID, let postID, let sessionID, let author, let emoji):
            return [Self.line("reaction", at, [("id", .string(reactionID)), ("post_id", .string(postID)), ("session_id", .string(sessionID))]
                              + Output.key(author).map { ("author_" + $0.0, $0.1) } + [("emoji", .string(emoji))])]
        }
    }

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

/// Standard output for a stream of lines: each written at once; once the reader has gone (EPIPE), the
/// stream stops writing and says so, so the command can end cleanly instead of dying on the signal.
final class LineWriter: Sendable {
    private let closed = Atomic<Bool>(false)
    var readerGone: Bool { closed.load(ordering: .relaxed) }

    /// Whether the reader of standard output went (a pipe whose other end closed): asked without writing,
    /// so a quiet stream ends too.
    func readerWent() -> Bool {
        if readerGone { return true }
        var fd = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
        guard poll(&fd, 1, 0) == 1, fd.revents & Int16(POLLERR | POLLHUP) != 0 else { return false }
        closed.store(true, ordering: .relaxed)
        return true
    }

    /// Looks every quarter second whether the reader went; when it did, `stop` is told.
    func watch(_ stop: AsyncStream<Void>.Continuation) -> Task<Void, Never> {
        Task {
            while !Task.isCancelled {
                if readerWent() { stop.yield(()); return }
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// False when the line could not be written (the reader went).
    func write(_ text: String) -> Bool {
        guard !readerGone else { return false }
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((text + "\n").utf8))
            return true
        } catch {
            closed.store(true, ordering: .relaxed)
            return false
        }
    }
}

/// SIGINT and SIGTERM end a follow early (the summary still comes, exit 0), and a reader that goes is
/// an error to see (EPIPE), not a signal to die of. `cancel()` gives the signals back.
final class FollowSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ stop: AsyncStream<Void>.Continuation) {
        signal(SIGPIPE, SIG_IGN)
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.yield(()) }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
