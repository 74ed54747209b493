import LinkstrDomain
import Logging

/// Posts the membership gate holds: they stay staged (sealed, surviving restarts, checked
/// again whenever their session's snapshots change); these are the reads that make them visible.
extension AccountStore {
    /// The posts of `sessionID` held for want of membership, oldest first, with why.
    public func heldPosts(in sessionID: String) throws -> [HeldPost] {
        guard let derived = try session(sessionID)?.derived, derived.exists else { return [] }
        let rows = try db.query("""
            SELECT rumor_id, body_enc FROM staged_messages
            WHERE owner = ? AND session_id = ? AND kind = 'root' AND reason = ? ORDER BY created_at, rumor_id
            """, [o, .text(sessionID), .text(PendingReason.membership.rawValue)])
        return try rows.compactMap { r in
            let id = r["rumor_id"].text ?? ""
            return try readable("staged_messages", id) {
                let body = try cipher.openRequired(r["body_enc"], ctx("staged_messages.body", id))
                let post = try RecordCodec.post(fromJSON: body, status: .pending(.membership))
                return HeldPost(post: post, reason: HeldReason.of(author: post.author, createdAt: post.createdAt, in: derived))
            }
        }
    }

    /// How many posts each session holds for want of membership (sessions holding none are left out).
    public func heldPostCounts() throws -> [String: Int] {
        var counts = [String: Int]()
        for r in try db.query("""
            SELECT session_id, count(*) AS n FROM staged_messages WHERE owner = ? AND kind = 'root' AND reason = ? GROUP BY session_id
            """, [o, .text(PendingReason.membership.rawValue)]) {
            if let id = r["session_id"].text { counts[id] = Int(r["n"].int ?? 0) }
        }
        return counts
    }

    /// The membership rule staged messages were last checked under (`Setting.membershipRule`).
    static let membershipRule = "2"

    /// Once per account after the membership rule changed: what an older build held is checked
    /// again, so a post five seconds early comes in after the upgrade instead of waiting for a snapshot.
    /// Best effort: a store that cannot be written (a read-only home) keeps them held, shown by `:held`.
    func recheckHeldUnderTheCurrentRule() {
        do {
            let held = try db.query("SELECT DISTINCT session_id FROM staged_messages WHERE owner = ? AND reason = ?",
                                    [o, .text(PendingReason.membership.rawValue)]).compactMap { $0["session_id"].text }
            guard !held.isEmpty, try setting(.membershipRule) != Self.membershipRule else { return }
            try writing { scope in
                var store = SQLiteIngestStore(scope: scope, store: self)
                var touched = Set<String>()
                for sid in held.sorted() { touched.formUnion(try store.recheck(session: sid)) }
                for sid in touched.sorted() { try refreshAggregates(sid, scope) }
                try setSetting(.membershipRule, Self.membershipRule, scope.c)
            }
        } catch {
            storageLog.warning("held posts not checked again under the current membership rule: \(type(of: error))")
        }
    }
}
