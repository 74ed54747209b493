/// The send queue's rules, decided once: when an item is tried again, which refusals end it,
/// which items may go now (in order per session), how large the queue may grow and when an old item
/// waits for a yes. Pure: the engine feeds it the items and the time.
public enum SendQueuePolicy {
    /// After the n-th failed attempt, the wait before the next: 1 s, 2 s, 5 s, 15 s, 1 min, then every 5 min.
    public static let backoff: [Int64] = [1, 2, 5, 15, 60]
    public static let backoffAfterwards: Int64 = 300

    public static func delay(afterAttempts attempts: Int) -> Int64 {
        attempts <= 0 ? 0 : attempts <= backoff.count ? backoff[attempts - 1] : backoffAfterwards
    }

    /// The queue's bound (README, "Sending while offline"): beyond it, a send is refused in words
    /// instead of the queue growing without end.
    public static let maxItems = 10_000
    public static let maxBytes = 50 * 1024 * 1024

    /// An item queued longer ago than this waits for the user's yes before it goes (a post from a month
    /// ago arriving now surprises people); `config.toml`'s `queue_hold_after_days` changes it (0: never).
    public static let defaultHoldAfterDays = 30

    /// NIP-01's machine-readable prefixes that a retry will not change: the event itself is refused.
    /// `rate-limited:`, `error:`, `auth-required:`, `restricted:` and a dropped connection may pass later.
    public static let permanentPrefixes = ["invalid:", "blocked:", "pow:"]

    /// Whether a refusal's words (the pool's "wss://r refused it: invalid: …", or the relay's own) say
    /// the event will never be taken. `duplicate:` never gets here: the pool counts it as accepted.
    public static func isPermanent(_ refusal: String) -> Bool {
        let words: Substring
        if let r = refusal.range(of: " refused it: ") { words = refusal[r.upperBound...] } else { words = Substring(refusal) }
        let trimmed = words.drop { $0 == " " }.lowercased()
        return permanentPrefixes.contains { trimmed.hasPrefix($0) }
    }

    /// One item as the drain sees it.
    public struct Item: Equatable, Sendable {
        public let id: Int64
        /// "" for what belongs to no session.
        public let sessionID: String
        /// The post it concerns (a post, its reaction or its delete).
        public let postID: String?
        public let state: ItemState
        public let attempts: Int
        public let nextAt: Int64
        public let createdAt: Int64
        /// The user said yes to an old item (or retried it).
        public let approved: Bool
        /// It belongs to a session (not a follow-list edit, whose chain is the person's).
        public var isSession: Bool { !sessionID.isEmpty && !sessionID.hasPrefix("contacts:") }
        public init(id: Int64, sessionID: String, postID: String? = nil, state: ItemState, attempts: Int, nextAt: Int64, createdAt: Int64,
                    approved: Bool) {
            self.id = id; self.sessionID = sessionID; self.postID = postID; self.state = state; self.attempts = attempts
            self.nextAt = nextAt; self.createdAt = createdAt; self.approved = approved
        }
    }

    public enum ItemState: String, Sendable, Equatable, CaseIterable {
        /// Not yet accepted anywhere; tried again at `nextAt`.
        case queued
        /// Refused by every relay for a reason a retry will not fix; kept until retried or discarded.
        case failed
    }

    /// Whether an item waits for a yes because it is old.
    public static func isHeld(_ item: Item, now: Int64, holdAfterDays: Int) -> Bool {
        holdAfterDays > 0 && !item.approved && item.state == .queued && now - item.createdAt > Int64(holdAfterDays) * 86_400
    }

    /// The chain of a follow-list edit: edits of one person go in order (an add, then its removal).
    public static func contactsChain(_ pubkey: String) -> String { "contacts:" + pubkey }

    /// What may go now, as chains: per session, its queued items in order from the oldest, as long as each
    /// is due (its wait over, not held); an item of no session is a chain alone. A chain is published in
    /// order, so a post never goes before its session's create or a member change it depends on. A failed
    /// item holds nothing back (the ones after it were valid on their own when made); a held or waiting
    /// one holds back the rest of its session.
    public static func chains(_ items: [Item], now: Int64, holdAfterDays: Int) -> [[Item]] {
        var order = [String](), chains = [String: [Item]](), stopped = Set<String>()
        for item in items.sorted(by: { $0.id < $1.id }) where item.state == .queued {
            let key = item.sessionID.isEmpty ? "#\(item.id)" : item.sessionID
            guard !stopped.contains(key) else { continue }
            if isHeld(item, now: now, holdAfterDays: holdAfterDays) || item.nextAt > now {
                stopped.insert(key)
                continue
            }
            if chains[key] == nil { order.append(key) }
            chains[key, default: []].append(item)
        }
        return order.compactMap { chains[$0] }
    }

    /// When the next item becomes due (nil: nothing waits on time).
    public static func nextWake(_ items: [Item], now: Int64, holdAfterDays: Int) -> Int64? {
        var blocked = Set<String>(), wake: Int64?
        for item in items.sorted(by: { $0.id < $1.id }) where item.state == .queued {
            let key = item.sessionID.isEmpty ? "#\(item.id)" : item.sessionID
            guard !blocked.contains(key) else { continue }
            blocked.insert(key)
            if isHeld(item, now: now, holdAfterDays: holdAfterDays) { continue }
            if item.nextAt > now { wake = min(wake ?? item.nextAt, item.nextAt) }
        }
        return wake
    }

    /// What the queue holds, for the status bar, `queue list` and `sync --json`.
    public struct Counts: Equatable, Sendable {
        public var waiting: Int
        public var failed: Int
        public var held: Int
        public init(waiting: Int = 0, failed: Int = 0, held: Int = 0) { self.waiting = waiting; self.failed = failed; self.held = held }
        public var isEmpty: Bool { waiting == 0 && failed == 0 }
    }

    /// How long an item waits before `linkstr doctor` mentions it.
    public static let longWait: Int64 = 3_600

    /// The doctor's word on the queue (nil: nothing waited long, nothing failed).
    public static func doctorWords(_ items: [Item], now: Int64) -> String? {
        let long = items.filter { $0.state == .queued && now - $0.createdAt > longWait }
        let failed = items.filter { $0.state == .failed }.count
        var parts = [String]()
        if let oldest = long.map(\.createdAt).min() {
            let hours = (now - oldest) / 3_600
            parts.append("\(long.count) item\(long.count == 1 ? " has" : "s have") waited to be sent for over an hour (the oldest \(hours < 48 ? "\(hours) h" : "\(hours / 24) days")): no relay of yours took \(long.count == 1 ? "it" : "them")")
        }
        if failed > 0 { parts.append("\(failed) item\(failed == 1 ? " was" : "s were") refused for good") }
        return parts.isEmpty ? nil : "send queue: " + parts.joined(separator: "; ") + " (`linkstr queue list`, `linkstr queue retry --now`)."
    }

    public static func counts(_ items: [Item], now: Int64, holdAfterDays: Int) -> Counts {
        var c = Counts()
        for item in items {
            switch item.state {
            case .queued:
                c.waiting += 1
                if isHeld(item, now: now, holdAfterDays: holdAfterDays) { c.held += 1 }
            case .failed: c.failed += 1
            }
        }
        return c
    }
}

/// What an item in the send queue is, in the words `queue list` and the app use.
public enum QueuedAction: String, Sendable, Equatable, CaseIterable, Codable {
    case post, reaction
    case postDelete = "post-delete"
    case sessionCreate = "session-create"
    case sessionMembers = "session-members"
    case sessionRename = "session-rename"
    case sessionDelete = "session-delete"
    /// An edit of our follow list, made on the newest list a relay holds when it goes (wire 2026 §7.1).
    case contactAdd = "contact-add"
    case contactRemove = "contact-remove"

    public var words: String {
        switch self {
        case .post: return "post"
        case .reaction: return "reaction"
        case .postDelete: return "post delete"
        case .sessionCreate: return "new session"
        case .sessionMembers: return "member change"
        case .sessionRename: return "rename"
        case .sessionDelete: return "session delete"
        case .contactAdd: return "new contact"
        case .contactRemove: return "contact removal"
        }
    }
}

/// Why a send could not be queued.
public enum SendQueueError: Error, Equatable, Sendable, CustomStringConvertible {
    case full(items: Int, bytes: Int)
    case noSuchItem(Int64)
    /// Being published this moment: its outcome comes in a few seconds.
    case inFlight(Int64)
    public var description: String {
        switch self {
        case .full(let items, let bytes):
            return "the send queue is full (\(items) items, \(bytes / 1024 / 1024) MB; the limit is \(SendQueuePolicy.maxItems) items or \(SendQueuePolicy.maxBytes / 1024 / 1024) MB): nothing was queued. connect to a relay so it drains, or cancel items with `linkstr queue cancel`."
        case .noSuchItem(let id): return "no queued item \(id) (see `linkstr queue list`)."
        case .inFlight: return "it is being sent this moment: too late to cancel (if the relays refuse it, it can be cancelled then)."
        }
    }
}

/// Where a post (or the action on it) stands in the send queue, for the feed's and the detail's mark.
public enum PostSendState: Equatable, Sendable {
    /// Not yet accepted anywhere.
    case queued
    /// Older than the hold: waits for the user's yes (retry) before it goes.
    case held
    /// Being published now.
    case sending
    /// Refused by every relay for good, in their words.
    case failed(String)

    public var isFailed: Bool { if case .failed = self { return true } else { return false } }
}

/// A post's mark: its first unsent item (what retry and cancel act on) and where it stands.
public struct PostSendMark: Equatable, Sendable {
    public let item: Int64
    public let action: QueuedAction
    public let state: PostSendState
    public init(item: Int64, action: QueuedAction, state: PostSendState) { self.item = item; self.action = action; self.state = state }
}

/// The send queue as a front end shows it: counts for the status bar, the sessions with something
/// unsent (the session list's mark), the posts with a mark (the feed's), and what the last pass did.
public struct SendQueueNews: Equatable, Sendable {
    public var counts: SendQueuePolicy.Counts
    public var sessions: Set<String>
    public var posts: [String: PostSendMark]
    /// Items that were accepted since the last news.
    public var sent: Int
    /// Items that failed for good since the last news, with the reason.
    public var newlyFailed: [String]
    /// What went since the last news, oldest first (`sync --follow --json`'s `sent` lines).
    public var sentItems: [SentItem]

    /// One queued item that a relay took.
    public struct SentItem: Equatable, Sendable {
        public let item: Int64
        public let action: QueuedAction
        public let sessionID: String?
        public let postID: String?
        public let at: Int64
        public init(item: Int64, action: QueuedAction, sessionID: String?, postID: String?, at: Int64) {
            self.item = item; self.action = action; self.sessionID = sessionID; self.postID = postID; self.at = at
        }
    }

    public init(counts: SendQueuePolicy.Counts = .init(), sessions: Set<String> = [], posts: [String: PostSendMark] = [:],
                sent: Int = 0, newlyFailed: [String] = [], sentItems: [SentItem] = []) {
        self.counts = counts; self.sessions = sessions; self.posts = posts
        self.sent = sent; self.newlyFailed = newlyFailed; self.sentItems = sentItems
    }

    /// From the queue's items (`reasons`: the failed items' words; `actions`: what each item is), the one
    /// being sent and what just happened.
    public static func make(_ items: [SendQueuePolicy.Item], reasons: [Int64: String], actions: [Int64: QueuedAction], sending: Int64?,
                            now: Int64, holdAfterDays: Int, sent: Int = 0, newlyFailed: [String] = [], sentItems: [SentItem] = []) -> SendQueueNews {
        var news = SendQueueNews(counts: SendQueuePolicy.counts(items, now: now, holdAfterDays: holdAfterDays), sent: sent, newlyFailed: newlyFailed,
                                 sentItems: sentItems)
        for item in items.sorted(by: { $0.id < $1.id }) {
            if item.isSession { news.sessions.insert(item.sessionID) }
            guard let post = item.postID else { continue }
            let state: PostSendState
            switch item.state {
            case .failed: state = .failed(reasons[item.id] ?? "refused")
            case .queued:
                state = item.id == sending ? .sending : SendQueuePolicy.isHeld(item, now: now, holdAfterDays: holdAfterDays) ? .held : .queued
            }
            // The first item of a post is what its mark says, unless a later one failed for good.
            if let mark = news.posts[post], mark.state.isFailed || !state.isFailed { continue }
            news.posts[post] = PostSendMark(item: item.id, action: actions[item.id] ?? .post, state: state)
        }
        return news
    }
}
