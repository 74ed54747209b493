import LinkstrDomain

public struct StoredRelay: Equatable, Sendable {
    public let url: String
    public var enabled: Bool
    public init(url: String, enabled: Bool) { self.url = url; self.enabled = enabled }
}

/// The account's relay list (wire document §8.7–8.8).
extension AccountStore {
    /// Sorted by URL. The defaults are inserted the first time; a list the user emptied stays empty.
    public func relays(now: Int64) throws -> [StoredRelay] {
        if try setting(.relaysInitialized) == nil {
            do { try resetRelays(now: now) } catch StorageError.sqlite(let code, _) where code & 0xff == 8 {
                // A read-only database: the defaults, shown as they would be stored.
                return RelayURL.defaults.sorted().map { StoredRelay(url: $0, enabled: true) }
            }
        }
        return try db.query("SELECT url, enabled FROM relays WHERE owner = ? ORDER BY url", [o]).map {
            StoredRelay(url: $0["url"].text ?? "", enabled: $0["enabled"].int == 1)
        }
    }

    /// Validates and adds; the iOS messages on failure.
    public func addRelay(_ input: String, now: Int64) throws -> Result<String, DomainError> {
        let existing = try relays(now: now).map(\.url)
        let result = RelayURL.validateNew(input, existing: existing)
        if case .success(let url) = result {
            try db.run("INSERT INTO relays (owner, url, enabled, added_at) VALUES (?, ?, 1, ?)", [o, .text(url), .integer(now)])
        }
        return result
    }

    @discardableResult
    public func removeRelay(_ url: String) throws -> Bool {
        try db.write { c in
            try c.run("DELETE FROM relays WHERE owner = ? AND url = ?", [o, .text(RelayURL.normalized(url) ?? url)])
            return c.changes > 0
        }
    }

    @discardableResult
    public func setRelayEnabled(_ url: String, _ enabled: Bool) throws -> Bool {
        try db.write { c in
            try c.run("UPDATE relays SET enabled = ? WHERE owner = ? AND url = ?", [.integer(enabled ? 1 : 0), o, .text(RelayURL.normalized(url) ?? url)])
            return c.changes > 0
        }
    }

    /// Replaces the list with the defaults, all enabled.
    public func resetRelays(now: Int64, to urls: [String] = RelayURL.defaults) throws {
        try db.write { try replaceRelays(urls.map { ($0, true, now) }, $0) }
    }

    /// The whole list at once (a reset, a restored backup); an empty list stays empty.
    func replaceRelays(_ relays: [(url: String, enabled: Bool, addedAt: Int64)], _ c: Connection) throws {
        try c.run("DELETE FROM relays WHERE owner = ?", [o])
        for r in relays {
            try c.run("INSERT INTO relays (owner, url, enabled, added_at) VALUES (?, ?, ?, ?)",
                      [o, .text(r.url), .integer(r.enabled ? 1 : 0), .integer(r.addedAt)])
        }
        try setSetting(.relaysInitialized, "1", c)
    }
}
