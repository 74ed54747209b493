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
    /// sorted set: a relay keeps the newest per `d` tag as well, so a warm sync agrees at once.
    public func preferenceNegentropySet() throws -> NegentropyStorage {
        try negentropyStorage("SELECT event_id AS id, created_at FROM preferences WHERE owner = ?")
    }

    /// The account's rows of `sql` (an `id` in hex and a `created_at`) as a sorted set; malformed rows left out.
    private func negentropyStorage(_ sql: String) throws -> NegentropyStorage {
        var items = [NegentropyItem]()
        try db.read { c in
            for row in try c.query(sql, [o]) {
                guard let hex = row["id"].text, let id = Bytes32(hex: hex), let t = row["created_at"].int, t >= 0 else { continue }
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
