import LinkstrDomain

/// What a batch's messages refer to and the store does not hold, found with a few `IN (…)` queries
/// before the batch is ingested. A cold sync is almost all new posts, and the ingest rules
/// ask of each one whether it exists, whether a delete notice waits for it and which reactions point
/// at it: five lookups that find nothing. Answering those from here saves them.
///
/// It records absence only, so it can never hide a row: every write that could create one of these
/// rows (a post or staged root, a reaction or staged reaction, a tombstone) forgets the id first, and
/// anything not asked about at the start is looked up as before.
struct IngestAbsence {
    /// Post ids with no row in `posts` and no staged root.
    private(set) var posts: Set<String> = []
    /// Post ids no tombstone names.
    private(set) var tombstonesFor: Set<String> = []
    /// Post ids no reaction, visible or staged, points at.
    private(set) var reactionsFor: Set<String> = []

    init() {}

    /// One query per table over the post ids the batch names (roots' ids, reactions' and deletes' roots).
    init(for messages: [InboundMessage], owner: SQLValue, _ c: Connection) throws {
        var ids = Set<String>()
        for m in messages {
            switch m.payload.kind {
            case .root: ids.insert(m.rumorID)
            case .reaction, .rootDelete: if !m.payload.rootID.isEmpty { ids.insert(m.payload.rootID) }
            case .sessionCreate, .sessionMembers, .sessionDelete: break
            }
        }
        guard !ids.isEmpty else { return }
        let sorted = ids.sorted()
        func found(_ sql: String) throws -> Set<String> {
            Set(try c.query(in: sorted, sql, leading: [owner]).compactMap { $0.values.first?.text })
        }
        posts = ids.subtracting(try found("SELECT post_id FROM posts WHERE owner = ? AND post_id IN (%@)"))
            .subtracting(try found("SELECT rumor_id FROM staged_messages WHERE owner = ? AND kind = 'root' AND rumor_id IN (%@)"))
        tombstonesFor = ids.subtracting(try found("SELECT post_id FROM tombstones WHERE owner = ? AND post_id IN (%@)"))
        reactionsFor = ids.subtracting(try found("SELECT post_id FROM reactions WHERE owner = ? AND post_id IN (%@)"))
            .subtracting(try found("SELECT post_id FROM staged_messages WHERE owner = ? AND kind = 'reaction' AND post_id IN (%@)"))
    }

    /// Learns which of `postIDs` no reaction, visible or staged, points at (before the rules ask of each).
    mutating func learnReactionless(_ postIDs: Set<String>, owner: SQLValue, _ c: Connection) throws {
        let unknown = postIDs.subtracting(reactionsFor)
        guard !unknown.isEmpty else { return }
        let sorted = unknown.sorted()
        func found(_ sql: String) throws -> Set<String> {
            Set(try c.query(in: sorted, sql, leading: [owner]).compactMap { $0.values.first?.text })
        }
        reactionsFor.formUnion(unknown.subtracting(try found("SELECT post_id FROM reactions WHERE owner = ? AND post_id IN (%@)"))
            .subtracting(try found("SELECT post_id FROM staged_messages WHERE owner = ? AND kind = 'reaction' AND post_id IN (%@)")))
    }

    /// A post or staged root with this id is about to be written; true when none existed before.
    mutating func writingPost(_ id: String) -> Bool { posts.remove(id) != nil }
    mutating func writingReaction(toPost postID: String) { reactionsFor.remove(postID) }
    mutating func writingTombstone(forPost postID: String) { tombstonesFor.remove(postID) }
}
