/// Everything one account knows, in memory. The ingest rules (`AccountState+Ingest`) mutate it and
/// report row changes; the store persists those and can rebuild this value at start-up.
public struct AccountState: Equatable, Sendable {
    public let me: Pubkey
    public internal(set) var sessions: [String: SessionRecord] = [:]
    public internal(set) var posts: [String: PostRecord] = [:]
    public internal(set) var reactions: [String: ReactionRecord] = [:]
    public internal(set) var tombstones: [TombstoneKey: Tombstone] = [:]
    /// Posts whose deletion was validated; their tombstones keep them from coming back.
    public internal(set) var deletedPostIDs: Set<String> = []
    public internal(set) var contacts: [Pubkey: Contact] = [:]
    public internal(set) var followWatermark: LWWStamp?

    // Indexes.
    var postsBySession: [String: Set<String>] = [:]
    var reactionsByPost: [String: Set<String>] = [:]
    var reactionsBySession: [String: Set<String>] = [:]
    var tombstonesByPost: [String: Set<TombstoneKey>] = [:]

    public init(me: Pubkey) { self.me = me }

    /// Rebuilds the state from stored rows. Statuses are re-derived, so a store written by an
    /// older version of the rules is read with the current ones. Raises no notifications.
    public static func restore(me: Pubkey, snapshots: [Snapshot], deletions: [SessionDeletion], archived: Set<String>,
                               posts: [PostRecord], reactions: [ReactionRecord], tombstones: [Tombstone],
                               contacts: [Contact], followWatermark: LWWStamp?) -> AccountState {
        var s = AccountState(me: me)
        for snap in snapshots { s.sessions[snap.sessionID, default: SessionRecord(id: snap.sessionID)].snapshots[snap.rumorID] = snap }
        for d in deletions { s.sessions[d.sessionID, default: SessionRecord(id: d.sessionID)].deletions[d.rumorID] = d }
        for id in archived { s.sessions[id, default: SessionRecord(id: id)].archived = true }
        for id in Array(s.sessions.keys) {
            s.sessions[id]!.derived = SessionDerivation.derive(me: me, snapshots: s.sessions[id]!.snapshots, deletions: s.sessions[id]!.deletions)
        }
        for t in tombstones {
            s.tombstones[t.key] = t
            s.tombstonesByPost[t.key.postID, default: []].insert(t.key)
            if t.validated { s.deletedPostIDs.insert(t.key.postID) }
        }
        for p in posts where !s.deletedPostIDs.contains(p.id) {
            s.posts[p.id] = p
            s.postsBySession[p.sessionID, default: []].insert(p.id)
        }
        for r in reactions where !s.deletedPostIDs.contains(r.postID) {
            s.reactions[r.id] = r
            s.reactionsByPost[r.postID, default: []].insert(r.id)
            s.reactionsBySession[r.sessionID, default: []].insert(r.id)
        }
        for c in contacts { s.contacts[c.pubkey] = c }
        s.followWatermark = followWatermark
        var scratch = IngestTransaction(restoringHistory: false, quiet: true)
        for id in s.posts.keys.sorted() { s.reevaluatePost(id, &scratch) }
        for id in s.reactions.keys.sorted() { s.reevaluateReaction(id, &scratch) }
        return s
    }
}
