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
        try negentropyStorage { try $0.query("SELECT wrap_id AS id, created_at FROM processed_wraps WHERE owner = ? AND created_at IS NOT NULL", [o]) }
    }

    /// The private preferences we hold (the newest record per `d` tag, pending ones too) as negentropy's
    /// sorted set: a relay keeps the newest per `d` tag as well, so a warm sync agrees at once. With the
    /// other apps' records under our key that a sync passed over (`+PassedOver`).
    public func preferenceNegentropySet() throws -> NegentropyStorage {
        try negentropyStorage(mayRepeat: true) { c in
            try c.query("""
                SELECT event_id AS id, created_at FROM preferences WHERE owner = ?1
                UNION ALL SELECT event_id AS id, created_at FROM passed_over_events WHERE owner = ?1 AND scope = 'preferences'
                """, [o])
        }
    }

    /// The profiles (kind 0) and relay lists (kinds 10050, 10002) we hold of `authors`, as negentropy's
    /// sorted set: relays keep the newest of each (replaceable events), as we do, so a warm sync agrees
    /// at once. Found by the authors' blind references; with their older ones a sync passed over.
    public func profileNegentropySet(_ authors: [Pubkey]) throws -> NegentropyStorage {
        let refs = authors.map { cipher.reference($0) }
        // `query(in:)`, as every IN list here: chunked, and a few statement shapes whatever a part's size.
        return try negentropyStorage(mayRepeat: true) { c in
            try c.query(in: refs, "SELECT event_id AS id, created_at FROM profiles WHERE owner = ? AND pubkey_ref IN (%@)", leading: [o])
                + c.query(in: refs, """
                    SELECT event_id AS id, created_at FROM inbox_relays WHERE owner = ?
                        AND kind IN (\(InboxRelayRule.inboxKind), \(InboxRelayRule.relayListKind)) AND pubkey_ref IN (%@)
                    """, leading: [o])
                + c.query(in: refs, "SELECT event_id AS id, created_at FROM passed_over_events WHERE owner = ? AND scope IN (%@)", leading: [o])
        }
    }

    /// The stored relay lists of `authors` a relay was found to hold (all but those whose event ids are
    /// `absent`): seen again as of `at`, as a download of them would have said (`touchRelayList`).
    public func touchRelayLists(_ authors: [Pubkey], absent: Set<String>, at: Int64) throws {
        let refs = authors.map { cipher.reference($0) }
        try db.write { c in
            // Their lists' keys, then the ones the relay holds touched one by one (`NOT IN` cannot be chunked).
            let held = try c.query(in: refs, "SELECT pubkey_ref, kind, event_id FROM inbox_relays WHERE owner = ? AND pubkey_ref IN (%@)", leading: [o])
            for row in held where !absent.contains(row["event_id"].text ?? "") {
                try c.run("UPDATE inbox_relays SET fetched_at = max(fetched_at, ?) WHERE owner = ? AND pubkey_ref = ? AND kind = ?",
                          [.integer(at), o, row["pubkey_ref"], row["kind"]])
            }
        }
    }

    /// The rows `read` gives (an `id` in hex and a `created_at`) as a sorted set; malformed rows left out,
    /// and with `mayRepeat` (several tables) an id met twice.
    private func negentropyStorage(mayRepeat: Bool = false, _ read: (Connection) throws -> [Row]) throws -> NegentropyStorage {
        var items = [NegentropyItem](), seen = Set<Bytes32>()
        try db.read { c in
            for row in try read(c) {
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
