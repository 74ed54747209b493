/// A post the membership gate holds: kept, counted and shown on request instead of vanishing,
/// and let in whenever a snapshot arrives that makes its sender a member at its date.
public struct HeldPost: Equatable, Sendable {
    public let post: PostRecord
    public let reason: HeldReason

    public init(post: PostRecord, reason: HeldReason) { self.post = post; self.reason = reason }
}

public enum HeldReason: String, Equatable, Sendable {
    /// Their first membership began more than `SessionDerivation.joinGrace` after the post's date.
    case beforeJoining = "dated before their sender joined"
    /// A member at its date, but it came live after they were removed (a backdated post).
    case afterRemoval = "sent after its sender was removed"
    /// Not a member at its date, and not joining for the first time later.
    case notAMember = "from someone who was not a member"

    /// Why `author`'s post dated `createdAt` is held in a session derived as `d`.
    public static func of(author: Pubkey, createdAt: Int64, in d: SessionDerivation) -> HeldReason {
        if d.isActive(author, at: createdAt) { return .afterRemoval }
        guard let first = d.timeline.first(where: { $0.members.contains(author) }), first.createdAt > createdAt else { return .notAMember }
        return .beforeJoining
    }

    /// "2 posts held: dated before their sender joined", for a session's feed and the CLI.
    public static func summary(_ held: [HeldReason]) -> String? {
        guard !held.isEmpty else { return nil }
        let reasons = Set(held)
        let why = reasons.count == 1 ? reasons.first!.rawValue : "their senders were not members at their dates"
        return "\(held.count) post\(held.count == 1 ? "" : "s") held: \(why)"
    }
}

extension IngestStore {
    /// Checks every post and reaction of `sessionID` again under the current rules, as a snapshot's arrival
    /// does: for what was staged under an older rule (the allowance before a first membership). Nothing
    /// notifies (these are old). Returns the sessions touched.
    public mutating func recheck(session sessionID: String) throws -> Set<String> {
        var tx = IngestTransaction(restoringHistory: true)
        for id in try postIDs(inSession: sessionID) { try reevaluatePost(id, &tx) }
        for id in try reactionIDs(inSession: sessionID) { try reevaluateReaction(id, &tx) }
        return tx.sessions
    }
}
