import LinkstrDomain
import NostrProtocol

/// A gift wrap recorded as processed: its id, and its `created_at` when it was addressed to us (the
/// wraps of ours sent to others are recorded too, so that their echo is never opened, but they are not
/// in a relay's answer to our filter and stay out of NIP-77's local set).
public struct ProcessedWrap: Sendable, Equatable {
    public let id: String
    public let createdAt: Int64?

    public init(id: String, createdAt: Int64? = nil) {
        self.id = id
        self.createdAt = createdAt
    }
}

/// What a NIP-77 history sync needs of the store: the local sets (gift wraps, private preferences), the
/// times of wraps processed before they were kept, and which relays refused it.
extension AccountStore {
    /// The processed wraps addressed to us with their `created_at`, as negentropy's sorted set.
    public func negentropySet() throws -> NegentropyStorage {
        try negentropyStorage("SELECT wrap_id AS id, created_at FROM processed_wraps WHERE owner = ? AND created_at IS NOT NULL")
    }

    /// The private preferences we hold (the newest record per `d` tag, pending ones too) as negentropy's
    /// sorted set: a relay keeps the newest per `d` tag as well, so a warm sync agrees at once. With the
    /// other apps' records under our key that a sync passed over (`+PassedOver`).
    public func preferenceNegentropySet() throws -> NegentropyStorage {
        try negentropyStorage("""
            SELECT event_id AS id, created_at FROM preferences WHERE owner = ?1
            UNION ALL SELECT event_id AS id, created_at FROM passed_over_events WHERE owner = ?1 AND scope = 'preferences'
            """, mayRepeat: true)
    }

    /// The profiles (kind 0) and relay lists (kinds 10050, 10002) we hold of `authors`, as negentropy's
    /// sorted set: relays keep the newest of each (replaceable events), as we do, so a warm sync agrees
    /// at once. Found by the authors' blind references; with their older ones a sync passed over.
    public func profileNegentropySet(_ authors: [Pubkey]) throws -> NegentropyStorage {
        guard !authors.isEmpty else { return NegentropyStorage([]) }
        let refs = authors.map { SQLValue.text(cipher.reference($0)) }
        // Numbered: every table reads the same references (?2, ?3…).
        let marks = (0..<refs.count).map { "?\($0 + 2)" }.joined(separator: ", ")
        return try negentropyStorage("""
            SELECT event_id AS id, created_at FROM profiles WHERE owner = ?1 AND pubkey_ref IN (\(marks))
            UNION ALL SELECT event_id AS id, created_at FROM inbox_relays WHERE owner = ?1 AND pubkey_ref IN (\(marks))
                AND kind IN (\(InboxRelayRule.inboxKind), \(InboxRelayRule.relayListKind))
            UNION ALL SELECT event_id AS id, created_at FROM passed_over_events WHERE owner = ?1 AND scope IN (\(marks))
            """, [o] + refs, mayRepeat: true)
    }

    /// The stored relay lists of `authors` a relay was found to hold (all but those whose event ids are
    /// `absent`): seen again as of `at`, as a download of them would have said (`touchRelayList`).
    public func touchRelayLists(_ authors: [Pubkey], absent: Set<String>, at: Int64) throws {
        guard !authors.isEmpty else { return }
        let refs = authors.map { SQLValue.text(cipher.reference($0)) }
        let marks = Array(repeating: "?", count: refs.count).joined(separator: ", ")
        let ids = absent.sorted().map(SQLValue.text)
        let except = ids.isEmpty ? "" : " AND event_id NOT IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))"
        try db.run("UPDATE inbox_relays SET fetched_at = max(fetched_at, ?) WHERE owner = ? AND pubkey_ref IN (\(marks))\(except)",
                   [.integer(at), o] + refs + ids)
    }

    /// The account's rows of `sql` (an `id` in hex and a `created_at`) as a sorted set; malformed rows left
    /// out, and with `mayRepeat` (several tables) an id met twice.
    private func negentropyStorage(_ sql: String, _ arguments: [SQLValue]? = nil, mayRepeat: Bool = false) throws -> NegentropyStorage {
        var items = [NegentropyItem](), seen = Set<Bytes32>()
        try db.read { c in
            for row in try c.query(sql, arguments ?? [o]) {
                guard let hex = row["id"].text, let id = Bytes32(hex: hex), let t = row["created_at"].int, t >= 0,
                      !mayRepeat || seen.insert(id).inserted else { continue }
                items.append(NegentropyItem(timestamp: UInt64(t), id: id))
            }
        }
        return NegentropyStorage(items)
    }

    /// Fills in the `created_at` of wraps processed before it was kept (a sync fetched them again).
    public func fillWrapTimes(_ wraps: [ProcessedWrap]) throws {
        let known = wraps.filter { $0.createdAt != nil }
        guard !known.isEmpty else { return }
        try db.write { c in
            for w in known {
                try c.run("UPDATE processed_wraps SET created_at = ? WHERE owner = ? AND wrap_id = ? AND created_at IS NULL",
                          [.integer(w.createdAt!), o, .text(w.id)])
            }
        }
    }

    /// When `relay` last refused NIP-77 (nil: never, or since cleared).
    public func negentropyRefusedAt(_ relay: String) throws -> Int64? {
        try db.scalar("SELECT refused_at FROM negentropy_refusals WHERE owner = ? AND url = ?", [o, .text(relay)]).int
    }

    /// Records (or with nil clears) a relay's refusal of NIP-77.
    public func setNegentropyRefused(_ relay: String, at time: Int64?) throws {
        try db.write { c in
            if let time {
                try c.run("INSERT OR REPLACE INTO negentropy_refusals (owner, url, refused_at) VALUES (?, ?, ?)", [o, .text(relay), .integer(time)])
            } else {
                try c.run("DELETE FROM negentropy_refusals WHERE owner = ? AND url = ?", [o, .text(relay)])
            }
        }
    }
}
