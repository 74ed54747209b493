import Foundation
import LinkstrDomain
import NostrProtocol

/// What the user did, waiting for a relay: applied here and queued in one transaction, as
/// the exact events that will be published (built once, so every retry sends the same ids and a relay's
/// duplicate is harmless). Sealed like every other content column; the account's rows go with it.
public struct QueuedSend: Equatable, Sendable {
    public struct Rumor: Equatable, Sendable, Codable {
        public let rumorID: String
        public let wrapIDs: [String]
        public init(rumorID: String, wrapIDs: [String]) { self.rumorID = rumorID; self.wrapIDs = wrapIDs }
    }

    public let action: QueuedAction
    /// "" for what belongs to no session.
    public let sessionID: String
    /// The post it concerns (a post, its reaction or its delete), for the feed's mark.
    public let postID: String?
    /// Published as one batch; "sent" once each was accepted by a relay.
    public let events: [NostrEvent]
    public let rumors: [Rumor]
    /// Posts this send started, in order.
    public let startedPosts: [String]
    /// Best-effort events published after the batch was accepted (a NIP-09 request), never retried.
    public let followUps: [NostrEvent]
    /// A follow-list edit: no events are built for it here (the list is edited on the newest one a relay
    /// holds when it goes, wire 2026 §7.1).
    public let contact: ContactEdit?

    public struct ContactEdit: Equatable, Sendable, Codable {
        public let pubkey: String
        public let alias: String?
        public init(pubkey: String, alias: String?) { self.pubkey = pubkey; self.alias = alias }
    }

    public init(action: QueuedAction, sessionID: String, postID: String?, events: [NostrEvent], rumors: [Rumor],
                startedPosts: [String], followUps: [NostrEvent] = [], contact: ContactEdit? = nil) {
        self.action = action; self.sessionID = sessionID; self.postID = postID; self.events = events
        self.rumors = rumors; self.startedPosts = startedPosts; self.followUps = followUps; self.contact = contact
    }

    private struct Record: Codable {
        let action: QueuedAction
        let postID: String?
        let events: [String]
        let rumors: [Rumor]
        let started: [String]
        let followUps: [String]
        let contact: ContactEdit?
    }

    func encoded() throws -> String {
        let record = Record(action: action, postID: postID, events: events.map { $0.jsonString() }, rumors: rumors,
                            started: startedPosts, followUps: followUps.map { $0.jsonString() }, contact: contact)
        return String(decoding: try JSONEncoder().encode(record), as: UTF8.self)
    }

    static func decoded(_ text: String, sessionID: String) throws -> QueuedSend {
        guard let record = try? JSONDecoder().decode(Record.self, from: Data(text.utf8)) else { throw StorageError.corrupt("a queued send") }
        do {
            return QueuedSend(action: record.action, sessionID: sessionID, postID: record.postID,
                              events: try record.events.map { try NostrEvent(json: $0) }, rumors: record.rumors,
                              startedPosts: record.started, followUps: try record.followUps.map { try NostrEvent(json: $0) },
                              contact: record.contact)
        } catch {
            throw StorageError.corrupt("a queued send")
        }
    }
}

/// One row of the queue as `queue list` and the app show it.
public struct SendQueueEntry: Equatable, Sendable {
    public let item: SendQueuePolicy.Item
    public let send: QueuedSend
    /// The last refusal or failure, in the relay's words (cleaned where it is shown).
    public let lastReason: String?
}

extension AccountStore {
    /// Applies `messages` (our own rumors, as our ingest takes them) and queues `send`, in one
    /// transaction: a crash leaves both or neither. Refused when the queue is at its bound.
    public func enqueueSend(_ send: QueuedSend, messages: [InboundMessage], wraps: [ProcessedWrap], now: Int64) throws -> Int64 {
        let body = try send.encoded()
        return try writing { scope in
            let row = try scope.c.query("SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS bytes FROM send_queue WHERE owner = ?", [o]).first
            let items = Int(row?["n"].int ?? 0), bytes = Int(row?["bytes"].int ?? 0)
            if items >= SendQueuePolicy.maxItems || bytes + body.utf8.count > SendQueuePolicy.maxBytes {
                throw SendQueueError.full(items: items, bytes: bytes)
            }
            _ = try ingest(messages, restoringHistory: false, wraps: wraps, now: now, scope)
            try markSent(send.startedPosts, scope.c)
            let id = (try scope.c.scalar("SELECT COALESCE(MAX(item), 0) FROM send_queue WHERE owner = ?", [o]).int ?? 0) + 1
            try scope.c.run("""
                INSERT INTO send_queue (owner, item, session_id, post_id, state, attempts, next_at, created_at, size, item_enc)
                VALUES (?, ?, ?, ?, 'queued', 0, 0, ?, ?, ?)
                """, [o, .integer(id), .text(send.sessionID), send.postID.map { .text($0) } ?? .null, .integer(now), .integer(Int64(body.utf8.count)),
                      cipher.seal(body, ctx("send_queue.item", "\(id)"))])
            return id
        }
    }

    /// Every item, oldest first, without opening them (the drain's and the status bar's read).
    public func sendQueue() throws -> [SendQueuePolicy.Item] {
        try db.query("SELECT item, session_id, post_id, state, attempts, next_at, created_at, approved FROM send_queue WHERE owner = ? ORDER BY item",
                     [o]).map(Self.queueItem)
    }

    private static func queueItem(_ r: Row) -> SendQueuePolicy.Item {
        SendQueuePolicy.Item(id: r["item"].int ?? 0, sessionID: r["session_id"].text ?? "", postID: r["post_id"].text,
                             state: SendQueuePolicy.ItemState(rawValue: r["state"].text ?? "") ?? .queued,
                             attempts: Int(r["attempts"].int ?? 0), nextAt: r["next_at"].int ?? 0,
                             createdAt: r["created_at"].int ?? 0, approved: (r["approved"].int ?? 0) != 0)
    }

    /// One item, opened (nil when it is gone: sent or cancelled meanwhile).
    public func queuedSend(_ id: Int64) throws -> QueuedSend? {
        guard let r = try db.query("SELECT session_id, item_enc FROM send_queue WHERE owner = ? AND item = ?", [o, .integer(id)]).first else { return nil }
        let sid = r["session_id"].text ?? ""
        return try QueuedSend.decoded(try cipher.openRequired(r["item_enc"], ctx("send_queue.item", "\(id)")), sessionID: sid)
    }

    /// Every item opened, oldest first (`queue list`, the feed's marks).
    public func sendQueueEntries() throws -> [SendQueueEntry] {
        try db.query("SELECT * FROM send_queue WHERE owner = ? ORDER BY item", [o]).map { r in
            let item = Self.queueItem(r)
            let send = try QueuedSend.decoded(try cipher.openRequired(r["item_enc"], ctx("send_queue.item", "\(item.id)")), sessionID: item.sessionID)
            return SendQueueEntry(item: item, send: send, lastReason: try cipher.open(r["reason_enc"], ctx("send_queue.reason", "\(item.id)")))
        }
    }

    /// Accepted by the relays: the item leaves the queue.
    public func queuedSendDelivered(_ id: Int64) throws {
        try db.run("DELETE FROM send_queue WHERE owner = ? AND item = ?", [o, .integer(id)])
    }

    /// An attempt that did not go: tried again at `nextAt`, or (`failed`) kept until the user retries.
    public func queuedSendAttemptFailed(_ id: Int64, reason: String, failed: Bool, nextAt: Int64) throws {
        try db.run("UPDATE send_queue SET attempts = attempts + 1, state = ?, next_at = ?, reason_enc = ? WHERE owner = ? AND item = ?",
                   [.text(failed ? "failed" : "queued"), .integer(nextAt), cipher.seal(reason, ctx("send_queue.reason", "\(id)")), o, .integer(id)])
    }

    /// Tries again now (one item, or every one when nil), old ones included: the user said yes. How
    /// many items that was.
    @discardableResult
    public func retryQueuedSends(_ id: Int64? = nil) throws -> Int {
        try db.write { c in
            if let id {
                guard try c.scalar("SELECT COUNT(*) FROM send_queue WHERE owner = ? AND item = ?", [o, .integer(id)]).int == 1 else {
                    throw SendQueueError.noSuchItem(id)
                }
                try c.run("UPDATE send_queue SET state = 'queued', next_at = 0, approved = 1 WHERE owner = ? AND item = ?", [o, .integer(id)])
                return 1
            }
            let n = Int(try c.scalar("SELECT COUNT(*) FROM send_queue WHERE owner = ?", [o]).int ?? 0)
            try c.run("UPDATE send_queue SET state = 'queued', next_at = 0, approved = 1 WHERE owner = ?", [o])
            return n
        }
    }

    /// Takes an item out of the queue: it is never published. A post disappears here as well; any other
    /// change was applied here and stays (the caller says so). Returns what it was.
    public func cancelQueuedSend(_ id: Int64) throws -> QueuedSend {
        guard let send = try queuedSend(id) else { throw SendQueueError.noSuchItem(id) }
        try writing { scope in
            try scope.c.run("DELETE FROM send_queue WHERE owner = ? AND item = ?", [o, .integer(id)])
            guard send.action == .post else { return }
            var store = SQLiteIngestStore(scope: scope, store: self)
            for post in send.startedPosts { try store.removePost(post) }
            if !send.sessionID.isEmpty { try refreshAggregates(send.sessionID, scope) }
        }
        return send
    }
}

extension AccountStore {
    /// The failed items' reasons, by item (few: a failure waits for the user).
    public func failedSendReasons() throws -> [Int64: String] {
        var out = [Int64: String]()
        for r in try db.query("SELECT item, reason_enc FROM send_queue WHERE owner = ? AND state = 'failed'", [o]) {
            let id = r["item"].int ?? 0
            out[id] = try cipher.open(r["reason_enc"], ctx("send_queue.reason", "\(id)")) ?? "refused"
        }
        return out
    }
}
