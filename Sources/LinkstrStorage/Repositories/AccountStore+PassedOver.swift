import LinkstrDomain

/// Valid events a sync brought that we keep nothing of: someone's profile or relay list older than the
/// one we hold (a relay that missed their update), another app's kind 30078 under our key. NIP-77's
/// local sets count them as held (`AccountStore+Reconcile`), so a relay that keeps them does not send
/// them again at every start. Only events whose signature was checked are passed over (an id alone is
/// not proof of anything), and each scope keeps its newest few: a relay cannot grow the table at will.
extension AccountStore {
    public enum PassedOverScope: Sendable, Equatable {
        /// Our own kind 30078 records of other apps.
        case preferences
        /// One person's profiles and relay lists.
        case author(Pubkey)
    }

    /// Rows kept per scope, newest first.
    static func passedOverLimit(_ scope: PassedOverScope) -> Int {
        switch scope {
        case .preferences: return 512
        case .author: return 16
        }
    }

    func scopeKey(_ scope: PassedOverScope) -> String {
        switch scope {
        case .preferences: return "preferences"
        case .author(let pubkey): return cipher.reference(pubkey)
        }
    }

    /// Remembers a checked event we keep nothing of, within its scope's limit.
    public func passOver(_ eventID: String, createdAt: Int64, scope: PassedOverScope) throws {
        let key = SQLValue.text(scopeKey(scope))
        try db.write { c in
            try c.run("INSERT OR IGNORE INTO passed_over_events (owner, scope, event_id, created_at) VALUES (?, ?, ?, ?)",
                      [o, key, .text(eventID), .integer(createdAt)])
            try c.run("""
                DELETE FROM passed_over_events WHERE owner = ?1 AND scope = ?2 AND event_id NOT IN
                    (SELECT event_id FROM passed_over_events WHERE owner = ?1 AND scope = ?2 ORDER BY created_at DESC, event_id LIMIT ?3)
                """, [o, key, .integer(Int64(Self.passedOverLimit(scope)))])
        }
    }

    /// How many events of a scope are passed over.
    public func passedOverCount(_ scope: PassedOverScope) throws -> Int {
        Int(try db.scalar("SELECT count(*) FROM passed_over_events WHERE owner = ? AND scope = ?", [o, .text(scopeKey(scope))]).int ?? 0)
    }
}
