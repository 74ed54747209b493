/// How a message reached us. Live events must pass the membership gate "now" as well (wire document §11.2).
public enum MessageSource: String, Sendable, Codable {
    case live
    /// Backfill (a `linkstr-backfill-*` subscription).
    case historical
    /// Our own action, applied after relays accepted it.
    case local
}

/// Every way a message has reached us. A message counts once any of its arrivals passes the gate,
/// which keeps the result independent of the order of duplicates.
public struct Arrivals: Equatable, Sendable, Codable {
    /// Reached us through backfill or was our own action: no "now" check applies.
    public var trusted: Bool
    /// Local times of live arrivals (a few kept; duplicates rarely differ).
    public var liveAt: [Int64]

    public init(trusted: Bool = false, liveAt: [Int64] = []) { self.trusted = trusted; self.liveAt = liveAt }

    public init(source: MessageSource, at now: Int64) {
        self.init()
        add(source: source, at: now)
    }

    public var hasLive: Bool { !liveAt.isEmpty }

    /// Returns true when the set changed.
    @discardableResult
    public mutating func add(source: MessageSource, at now: Int64) -> Bool {
        switch source {
        case .historical, .local:
            if trusted { return false }
            trusted = true
            return true
        case .live:
            guard !liveAt.contains(now), liveAt.count < 4 else { return false }
            liveAt.append(now)
            liveAt.sort()
            return true
        }
    }

    public mutating func merge(_ other: Arrivals) -> Bool {
        var changed = false
        if other.trusted { changed = add(source: .historical, at: 0) || changed }
        for t in other.liveAt { changed = add(source: .live, at: t) || changed }
        return changed
    }
}

/// Last-writer-wins order (wire document §11.1): newer created_at wins; on a tie the
/// lexicographically greater event id wins; a blank id never wins a tie.
public struct LWWStamp: Equatable, Comparable, Sendable, Codable {
    public var createdAt: Int64
    public var eventID: String
    public init(createdAt: Int64, eventID: String) { self.createdAt = createdAt; self.eventID = eventID }
    public static func < (a: LWWStamp, b: LWWStamp) -> Bool {
        a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.eventID < b.eventID
    }
    /// Whether `incoming` should replace `current` (nil current: always).
    public static func shouldApply(_ incoming: LWWStamp, over current: LWWStamp?) -> Bool {
        guard let current else { return true }
        if incoming.createdAt != current.createdAt { return incoming.createdAt > current.createdAt }
        if incoming.eventID.isEmpty { return false }
        if current.eventID.isEmpty { return true }
        return incoming.eventID > current.eventID
    }
}

/// A membership snapshot: a `session_create` or `session_members` message. All are kept; which ones
/// count is derived from the session's creator (see `SessionDerivation`).
public struct Snapshot: Equatable, Sendable, Codable {
    public let rumorID: String
    public let sessionID: String
    public let author: Pubkey
    public let createdAt: Int64
    public let isCreate: Bool
    public let members: [Pubkey]
    public let name: String?

    public init(rumorID: String, sessionID: String, author: Pubkey, createdAt: Int64, isCreate: Bool, members: [Pubkey], name: String?) {
        self.rumorID = rumorID; self.sessionID = sessionID; self.author = author; self.createdAt = createdAt
        self.isCreate = isCreate; self.members = members; self.name = name
    }

    var stamp: LWWStamp { LWWStamp(createdAt: createdAt, eventID: rumorID) }
}

/// A `session_delete` message. It counts only when its author is the session's creator.
public struct SessionDeletion: Equatable, Sendable, Codable {
    public let rumorID: String
    public let sessionID: String
    public let author: Pubkey
    public let createdAt: Int64
    public init(rumorID: String, sessionID: String, author: Pubkey, createdAt: Int64) {
        self.rumorID = rumorID; self.sessionID = sessionID; self.author = author; self.createdAt = createdAt
    }
}

/// Why a message waits instead of showing.
public enum PendingReason: String, Equatable, Sendable, Codable {
    case sessionUnknown = "session-unknown"
    case membership
    case rootMissing = "root-missing"
    case sessionDeleted = "session-deleted"
}

public enum CandidateStatus: Equatable, Sendable {
    case visible
    case pending(PendingReason)

    public var isVisible: Bool { self == .visible }
}

/// A root post, visible or staged.
public struct PostRecord: Equatable, Sendable {
    public let id: String
    public let sessionID: String
    public let author: Pubkey
    /// The time it sorts by: its rumor's `created_at`, or when it reached us if that was too far ahead.
    public let createdAt: Int64
    /// The date its rumor claimed, when it was more than `PostPlacement.aheadAllowance` past its arrival.
    public let datedAhead: Int64?
    public let url: String
    public let note: String?
    /// Ids of every gift wrap that carried this rumor (for kind-5 deletion requests), sorted.
    public internal(set) var wrapIDs: [String]
    public internal(set) var arrivals: Arrivals
    public internal(set) var readAt: Int64?
    public internal(set) var notified: Bool
    public internal(set) var status: CandidateStatus

    public init(id: String, sessionID: String, author: Pubkey, createdAt: Int64, datedAhead: Int64? = nil, url: String, note: String?,
                wrapIDs: [String], arrivals: Arrivals, readAt: Int64?, notified: Bool, status: CandidateStatus) {
        self.id = id; self.sessionID = sessionID; self.author = author; self.createdAt = createdAt; self.datedAhead = datedAhead
        self.url = url; self.note = note
        self.wrapIDs = wrapIDs; self.arrivals = arrivals; self.readAt = readAt; self.notified = notified; self.status = status
    }
}

/// One reaction message (a toggle). The state of (post, emoji, author) is the newest accepted one.
public struct ReactionRecord: Equatable, Sendable {
    public let id: String
    public let sessionID: String
    public let postID: String
    public let emoji: String
    public let author: Pubkey
    public let active: Bool
    public let createdAt: Int64
    public internal(set) var arrivals: Arrivals
    public internal(set) var notified: Bool
    public internal(set) var status: CandidateStatus

    public init(id: String, sessionID: String, postID: String, emoji: String, author: Pubkey, active: Bool, createdAt: Int64,
                arrivals: Arrivals, notified: Bool, status: CandidateStatus) {
        self.id = id; self.sessionID = sessionID; self.postID = postID; self.emoji = emoji; self.author = author
        self.active = active; self.createdAt = createdAt; self.arrivals = arrivals; self.notified = notified; self.status = status
    }

    var stamp: LWWStamp { LWWStamp(createdAt: createdAt, eventID: id) }
}

public struct TombstoneKey: Hashable, Sendable, Codable {
    public let sessionID: String
    public let postID: String
    public let deleter: Pubkey
    public init(sessionID: String, postID: String, deleter: Pubkey) { self.sessionID = sessionID; self.postID = postID; self.deleter = deleter }
}

/// A `root_delete` notice. Authoritative once the root is known and was written by the deleter;
/// kept forever, so that backfill can never bring the post back.
public struct Tombstone: Equatable, Sendable {
    public let key: TombstoneKey
    public internal(set) var stamp: LWWStamp
    public internal(set) var validated: Bool
    public init(key: TombstoneKey, stamp: LWWStamp, validated: Bool) { self.key = key; self.stamp = stamp; self.validated = validated }
}

public struct Contact: Equatable, Sendable {
    public let pubkey: Pubkey
    /// Private and local, never published.
    public var alias: String?
    public init(pubkey: Pubkey, alias: String? = nil) { self.pubkey = pubkey; self.alias = alias }
}
