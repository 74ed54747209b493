/// One decoded linkstr message, as the ingest engine receives it.
public struct InboundMessage: Sendable, Equatable {
    /// The rumor id: a post's id for roots.
    public var rumorID: String
    /// The gift wrap(s) that carried it (all of ours for our own sends).
    public var wrapIDs: [String]
    /// The seal's author, proven by its signature and equal to the rumor's pubkey.
    public var sender: Pubkey
    /// The rumor's created_at: the only clock ingest trusts for ordering.
    public var createdAt: Int64
    /// Already passed `LinkstrPayload.validated()`.
    public var payload: LinkstrPayload
    public var source: MessageSource
    /// Local time of arrival (injected clock).
    public var receivedAt: Int64

    public init(rumorID: String, wrapIDs: [String], sender: Pubkey, createdAt: Int64, payload: LinkstrPayload,
                source: MessageSource, receivedAt: Int64) {
        self.rumorID = rumorID; self.wrapIDs = wrapIDs; self.sender = sender; self.createdAt = createdAt
        self.payload = payload; self.source = source; self.receivedAt = receivedAt
    }
}

public enum IgnoreReason: String, Sendable, Equatable {
    case senderNotInMembers = "sender-not-in-members"
    case selfNotInMembers = "self-not-in-members"
    case nonCreator = "non-creator"
    case rootIDMismatch = "root-id-mismatch"
    case invalidURL = "invalid-url"
    case deleterMismatch = "deleter-mismatch"
    case postDeleted = "post-deleted"
    case sessionDeleted = "session-deleted"
}

public enum IngestOutcome: Equatable, Sendable {
    case applied
    /// Seen before; extra wrap ids and arrivals were merged.
    case duplicate
    /// Kept, and retried whenever what it waits for changes.
    case pending(PendingReason)
    case ignored(IgnoreReason)
}

/// What the user is told about (wire document §11.9, product notifications).
public enum InboundNotification: Equatable, Sendable {
    case post(postID: String, sessionID: String, author: Pubkey)
    case reaction(reactionID: String, postID: String, sessionID: String, author: Pubkey, emoji: String)

    public var sessionID: String {
        switch self {
        case .post(_, let sessionID, _), .reaction(_, _, let sessionID, _, _): return sessionID
        }
    }
}

public struct IngestReport: Equatable, Sendable {
    public var outcome: IngestOutcome
    public var notifications: [InboundNotification]
    /// Sessions whose derived values, posts or read state may have changed (the list rows to refresh).
    public var touchedSessions: Set<String>
}
