/// What a session's snapshots and deletions mean, derived from all of them at once so that the
/// result does not depend on the order they arrived in.
public struct SessionDerivation: Equatable, Sendable {
    /// The creator: ourselves if we wrote a `session_create` for it; else the author of the earliest
    /// `session_create` (they all name us); else of the earliest `session_members` that names us and
    /// carries a name (bootstrap). nil: the session does not exist for us (yet).
    public let creator: Pubkey?
    /// The creator's snapshots, oldest first by (created_at, rumor id).
    public let timeline: [Snapshot]
    public let name: String?
    public let deleted: Bool
    /// We created the session and deleted it: nothing can undo that (our own create makes us the
    /// creator for good), so its content is purged, not kept hidden (wire 2026 §1.4).
    public var deletedForGood: Bool = false

    public var exists: Bool { creator != nil }

    /// Members of the newest valid snapshot.
    public var currentMembers: [Pubkey] { timeline.last?.members ?? [] }

    /// Active at `t`: named by the newest valid snapshot at or before `t`.
    public func isActive(_ member: Pubkey, at t: Int64) -> Bool {
        let lo = snapshotsUpTo(t)
        guard lo > 0 else { return false }
        return timeline[lo - 1].members.contains(member)
    }

    /// How many snapshots of the timeline are dated at or before `t` (a binary search).
    private func snapshotsUpTo(_ t: Int64) -> Int {
        var lo = 0, hi = timeline.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if timeline[mid].createdAt <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// How long before someone's first membership began a message of theirs still counts: a phone's clock
    /// a few seconds slow, or a first post sent a moment before the snapshot that added its author. The
    /// iOS app drops such messages; we place them in time order (docs/spec/departures.md).
    public static let joinGrace: Int64 = 600

    /// Active at `t`, or joining for the first time within `joinGrace` after it: named by no snapshot at or
    /// before `t` and by one dated up to `joinGrace` later. The end of a membership stays exact: after a
    /// removal nothing is let in early, not even before a later re-add.
    public func isActiveOrJoining(_ member: Pubkey, at t: Int64) -> Bool {
        if isActive(member, at: t) { return true }
        let lo = snapshotsUpTo(t)
        if timeline[..<lo].contains(where: { $0.members.contains(member) }) { return false }
        return timeline[lo...].prefix { $0.createdAt <= t + Self.joinGrace }.contains { $0.members.contains(member) }
    }

    /// Everyone ever named by a valid snapshot (current and former members).
    public var everyMember: [Pubkey] {
        var seen = Set<Pubkey>()
        var out = [Pubkey]()
        for s in timeline { for m in s.members where seen.insert(m).inserted { out.append(m) } }
        return out
    }

    /// One span of membership: active from `start` until `end` (nil: still a member).
    public struct Interval: Equatable, Sendable {
        public let member: Pubkey
        public let start: Int64
        public let end: Int64?
    }

    /// Who was a member when, from the timeline, with each member's last change; spans that open and
    /// close in the same second mean nothing and are left out.
    public var memberIntervals: (intervals: [Interval], lastChange: [Pubkey: Int64], active: Set<Pubkey>) {
        var open = [Pubkey: Int64]()
        var lastChange = [Pubkey: Int64]()
        var order = [Pubkey: Int]()
        var out: [Interval] = []
        for snapshot in timeline {
            for m in snapshot.members where open[m] == nil {
                open[m] = snapshot.createdAt
                lastChange[m] = snapshot.createdAt
                if order[m] == nil { order[m] = order.count }
            }
            for (m, start) in open where !snapshot.members.contains(m) {
                if start < snapshot.createdAt { out.append(Interval(member: m, start: start, end: snapshot.createdAt)) }
                open[m] = nil
                lastChange[m] = snapshot.createdAt
            }
        }
        for (m, start) in open { out.append(Interval(member: m, start: start, end: nil)) }
        // In the order members first appear (the order a session's member list shows them in), then by time.
        out.sort { (order[$0.member] ?? 0, $0.start) < (order[$1.member] ?? 0, $1.start) }
        return (out, lastChange, Set(open.keys))
    }

    static func derive(me: Pubkey, snapshots: [String: Snapshot], deletions: [String: SessionDeletion]) -> SessionDerivation {
        let all = snapshots.values.sorted { $0.stamp < $1.stamp }
        let creates = all.filter(\.isCreate)
        let creator: Pubkey?
        if creates.contains(where: { $0.author == me }) {
            creator = me
        } else if let first = creates.first {
            creator = first.author
        } else {
            creator = all.first { !$0.isCreate && $0.members.contains(me) && $0.name != nil }?.author
        }
        guard let creator else { return SessionDerivation(creator: nil, timeline: [], name: nil, deleted: false) }
        let timeline = all.filter { $0.author == creator }
        let name = timeline.last { $0.name != nil }?.name
        let deleted = deletions.values.contains { $0.author == creator }
        var derivation = SessionDerivation(creator: creator, timeline: timeline, name: name, deleted: deleted)
        derivation.deletedForGood = deleted && creator == me && creates.contains { $0.author == me }
        return derivation
    }
}

/// A session: every snapshot and deletion notice received for it, local flags, and their meaning.
public struct SessionRecord: Equatable, Sendable {
    public let id: String
    /// Call `rederive(me:)` after changing these.
    public var snapshots: [String: Snapshot] = [:]
    public var deletions: [String: SessionDeletion] = [:]
    public var archived = false
    public internal(set) var derived = SessionDerivation(creator: nil, timeline: [], name: nil, deleted: false)

    public init(id: String) { self.id = id }

    public mutating func rederive(me: Pubkey) {
        derived = SessionDerivation.derive(me: me, snapshots: snapshots, deletions: deletions)
    }

    /// Visible in the session list.
    public var isListed: Bool { derived.exists && !derived.deleted }
}
