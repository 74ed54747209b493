import NostrProtocol

public struct SessionSummary: Equatable, Sendable {
    public init(id: String, name: String, creator: Pubkey, members: [Pubkey], isMember: Bool, archived: Bool, unread: Bool, lastActivityAt: Int64) {
        self.id = id; self.name = name; self.creator = creator; self.members = members; self.isMember = isMember
        self.archived = archived; self.unread = unread; self.lastActivityAt = lastActivityAt
    }

    public let id: String
    public let name: String
    public let creator: Pubkey
    /// Members of the newest snapshot.
    public let members: [Pubkey]
    /// False once we were removed: the session stays as read-only history.
    public let isMember: Bool
    public let archived: Bool
    public let unread: Bool
    /// How many visible posts from others are unread (the list row shows it beside the dot).
    public var unreadCount = 0
    /// Newest visible post, else the newest snapshot.
    public let lastActivityAt: Int64
    /// Who shared the newest visible post, and its link (for the list row), when there is one.
    public var lastPost: LastPost?
    /// The user's accept/decline decision (a request is a stranger's session; see `SessionRequests`).
    public var decision: RequestDecision = .undecided
    /// Set when the rows are sorted into lists (`SessionListing.make`).
    public var standing: SessionStanding = .listed
    /// The unread dot and bold name: only for sessions in the user's lists, never for requests.
    public var showsUnread: Bool { unread && standing == .listed }

    public struct LastPost: Equatable, Sendable {
        public let author: Pubkey
        public let url: String
        public init(author: Pubkey, url: String) { self.author = author; self.url = url }
    }
}

extension SessionSummary {
    /// The list row of a session, from its record and the aggregates of its visible posts.
    public init(record s: SessionRecord, me: Pubkey, lastPostAt: Int64?, unread: Bool) {
        let members = s.derived.currentMembers
        let name = s.derived.name ?? ""
        self.init(id: s.id, name: name.isEmpty ? "untitled session" : name, creator: s.derived.creator ?? "", members: members,
                  isMember: members.contains(me), archived: s.archived, unread: unread,
                  lastActivityAt: max(lastPostAt ?? 0, s.derived.timeline.last?.createdAt ?? 0))
    }
}

/// Reaction state as shown: the newest accepted toggle per (emoji, author); active ones counted per
/// emoji, most first, then by emoji (wire document §11.6).
public enum ReactionTally {
    public static func winners(_ accepted: [ReactionRecord]) -> [ReactionRecord] {
        var winners = [String: ReactionRecord]()
        for r in accepted {
            let key = r.emoji + "\u{0}" + r.author
            if let w = winners[key], !(w.stamp < r.stamp) { continue }
            winners[key] = r
        }
        return winners.values.sorted { ($0.emoji, $0.author) < ($1.emoji, $1.author) }
    }

    public static func summaries(_ winners: [ReactionRecord], me: Pubkey) -> [ReactionSummary] {
        var byEmoji = [String: [Pubkey]]()
        for r in winners where r.active { byEmoji[r.emoji, default: []].append(r.author) }
        return byEmoji.map { ReactionSummary(emoji: $0.key, count: $0.value.count, mine: $0.value.contains(me), by: $0.value.sorted()) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.emoji < $1.emoji }
    }
}

public struct ReactionSummary: Equatable, Sendable {
    public let emoji: String
    public let count: Int
    public let mine: Bool
    public let by: [Pubkey]
    public init(emoji: String, count: Int, mine: Bool, by: [Pubkey]) { self.emoji = emoji; self.count = count; self.mine = mine; self.by = by }
}

public struct PostView: Equatable, Sendable {
    public let post: PostRecord
    public let unread: Bool
    public let reactions: [ReactionSummary]
    public init(post: PostRecord, unread: Bool, reactions: [ReactionSummary]) { self.post = post; self.unread = unread; self.reactions = reactions }
    public var id: String { post.id }
}

/// A change of members between two consecutive snapshots (the `in:` / `out:` separators).
public struct MembershipChange: Equatable, Sendable {
    public let at: Int64
    public let joined: [Pubkey]
    public let left: [Pubkey]
    public init(at: Int64, joined: [Pubkey], left: [Pubkey]) { self.at = at; self.joined = joined; self.left = left }
}

extension AccountState {
    public func sessionSummaries(archived: Bool? = false) -> [SessionSummary] {
        sessions.values.filter { $0.isListed && (archived == nil || $0.archived == archived) }
            .map(summary)
            .sorted { ($0.lastActivityAt, $0.id) > ($1.lastActivityAt, $1.id) }
    }

    public func summary(of sessionID: String) -> SessionSummary? {
        guard let s = sessions[sessionID], s.isListed else { return nil }
        return summary(s)
    }

    private func summary(_ s: SessionRecord) -> SessionSummary {
        let visible = postIDs(inSession: s.id).compactMap { posts[$0] }.filter(\.status.isVisible)
        let unreadCount = visible.filter { isUnread($0) }.count
        var summary = SessionSummary(record: s, me: me, lastPostAt: visible.map(\.createdAt).max(), unread: unreadCount > 0)
        summary.unreadCount = unreadCount
        // The newest post as the feed orders them (ties by id here: nothing is sent in the reference).
        if let newest = visible.max(by: { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }) {
            summary.lastPost = SessionSummary.LastPost(author: newest.author, url: newest.url)
        }
        return summary
    }

    public func isUnread(_ p: PostRecord) -> Bool { p.status.isVisible && p.author != me && p.readAt == nil }

    /// Visible posts, newest first.
    public func postViews(in sessionID: String) -> [PostView] {
        postIDs(inSession: sessionID).compactMap { posts[$0] }.filter(\.status.isVisible)
            .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
            .map { PostView(post: $0, unread: isUnread($0), reactions: reactionSummaries(postID: $0.id)) }
    }

    public func postView(_ id: String) -> PostView? {
        guard let p = posts[id], p.status.isVisible else { return nil }
        return PostView(post: p, unread: isUnread(p), reactions: reactionSummaries(postID: id))
    }

    /// The newest accepted toggle per (emoji, author).
    public func reactionStates(postID: String) -> [ReactionRecord] {
        ReactionTally.winners(reactionIDs(forPost: postID).compactMap { reactions[$0] }.filter(\.status.isVisible))
    }

    public func reactionSummaries(postID: String) -> [ReactionSummary] {
        ReactionTally.summaries(reactionStates(postID: postID), me: me)
    }

    public func isMyReactionActive(postID: String, emoji: String) -> Bool { myReaction(postID: postID, emoji: emoji)?.active == true }

    /// Our current (last-writer-wins) reaction with `emoji` on the post, on or off; nil if we never reacted so.
    public func myReaction(postID: String, emoji: String) -> ReactionRecord? {
        reactionStates(postID: postID).first { $0.emoji == emoji && $0.author == me }
    }

    public func membershipChanges(in sessionID: String) -> [MembershipChange] {
        sessions[sessionID].map { MembershipChange.changes(in: $0.derived.timeline) } ?? []
    }

    /// "npub1abcd…wxyz"; remembered, because the screen shows the same few on every frame.
    public static func shortNpub(_ pubkey: Pubkey) -> String { shortNpubs(pubkey) }

    private static let shortNpubs = BoundedMemo<Pubkey, String>(capacity: 4096) { pubkey in
        guard let key = try? PublicKey(hex: pubkey) else { return String(pubkey.prefix(12)) }
        let npub = key.npub
        return String(npub.prefix(9)) + "…" + String(npub.suffix(4))
    }

    /// Everything a user can see, in one comparable value (used to prove order independence).
    public var visibleState: VisibleState {
        let listed = sessionSummaries(archived: nil)
        return VisibleState(
            sessions: listed,
            posts: Dictionary(uniqueKeysWithValues: listed.map { ($0.id, postViews(in: $0.id)) }),
            reactionStates: Dictionary(uniqueKeysWithValues: listed.flatMap { postViews(in: $0.id) }.map { p in
                (p.id, reactionStates(postID: p.id).map { "\($0.emoji)/\($0.author)/\($0.active)" })
            }),
            membershipChanges: Dictionary(uniqueKeysWithValues: listed.map { ($0.id, membershipChanges(in: $0.id)) }),
            contacts: contactList)
    }
}

extension MembershipChange {
    /// The `in:` / `out:` separators: who joined and left between consecutive snapshots.
    public static func changes(in timeline: [Snapshot]) -> [MembershipChange] {
        guard timeline.count > 1 else { return [] }
        var out = [MembershipChange]()
        for (prev, next) in zip(timeline, timeline.dropFirst()) {
            let joined = next.members.filter { !prev.members.contains($0) }
            let left = prev.members.filter { !next.members.contains($0) }
            if !joined.isEmpty || !left.isEmpty { out.append(MembershipChange(at: next.createdAt, joined: joined, left: left)) }
        }
        return out
    }
}

public struct VisibleState: Equatable, Sendable {
    public init(sessions: [SessionSummary], posts: [String: [PostView]], reactionStates: [String: [String]],
                membershipChanges: [String: [MembershipChange]], contacts: [Contact]) {
        self.sessions = sessions; self.posts = posts; self.reactionStates = reactionStates
        self.membershipChanges = membershipChanges; self.contacts = contacts
    }

    public let sessions: [SessionSummary]
    public let posts: [String: [PostView]]
    public let reactionStates: [String: [String]]
    public let membershipChanges: [String: [MembershipChange]]
    public let contacts: [Contact]
}
