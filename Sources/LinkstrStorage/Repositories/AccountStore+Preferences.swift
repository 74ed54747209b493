import LinkstrDomain
import NostrProtocol

/// Private preferences (wire 2026 §3): the newest record per `d` tag, sealed, and what it means applied
/// locally (a contact's alias, a session's archive flag). A record whose contact or session is not here
/// yet waits in the table and applies when they arrive.
extension AccountStore {
    public struct StoredPreference: Equatable, Sendable {
        public let preference: PrivatePreference
        public let stamp: LWWStamp
        public let pending: Bool
    }

    /// The stored record for `dTag`, if any.
    public func preference(dTag: String) throws -> StoredPreference? {
        try db.read { try preference(dTag: dTag, $0) }
    }

    func preference(dTag: String, _ c: Connection) throws -> StoredPreference? {
        guard let r = try c.query("SELECT created_at, event_id, value_enc, pending FROM preferences WHERE owner = ? AND d_tag = ?",
                                  [o, .text(dTag)]).first,
              let preference = PrivatePreference.decode(try cipher.openRequired(r["value_enc"], ctx("preferences.value", dTag))) else { return nil }
        return StoredPreference(preference: preference, stamp: LWWStamp(createdAt: r["created_at"].int ?? 0, eventID: r["event_id"].text ?? ""),
                                pending: r["pending"].int == 1)
    }

    /// A record from a relay (already opened and validated by `PrivatePreference.open`): stored and
    /// applied when it wins the conflict rule (wire 2026 §3.4), replacing a pending local one. True when applied.
    @discardableResult
    public func receivePreference(_ p: PrivatePreference, event: NostrEvent) throws -> Bool {
        guard let d = PrivatePreference.dTag(in: event) else { return false }
        let stamp = LWWStamp(createdAt: event.createdAt, eventID: event.id.hex)
        return try writing { scope in
            guard PrivatePreference.shouldApply(stamp, over: try preference(dTag: d, scope.c)?.stamp) else { return false }
            try storePreference(p, event: event, dTag: d, pending: false, scope)
            return true
        }
    }

    /// A change made here (wire 2026 §3.5): stored as pending and applied at once; `PreferenceOutbox` publishes it.
    public func savePreference(_ p: PrivatePreference, event: NostrEvent) throws {
        guard let d = PrivatePreference.dTag(in: event) else { return }
        try writing { scope in try storePreference(p, event: event, dTag: d, pending: true, scope) }
    }

    /// Records made here that no relay has accepted yet, oldest first.
    public func pendingPreferenceEvents() throws -> [NostrEvent] {
        try db.read { c in
            try c.query("SELECT d_tag, event_enc FROM preferences WHERE owner = ? AND pending = 1 ORDER BY created_at, d_tag", [o]).map { r in
                let d = r["d_tag"].text ?? ""
                let json = try cipher.openRequired(r["event_enc"], ctx("preferences.event", d))
                guard case .some(let value) = try? JSONParser.parse(json), let event = try? NostrEvent(json: value) else {
                    throw StorageError.corrupt("a pending preference")
                }
                return event
            }
        }
    }

    /// A relay accepted `eventID`: published, unless the record was replaced meanwhile.
    public func markPreferencePublished(_ eventID: String) throws {
        try db.run("UPDATE preferences SET pending = 0 WHERE owner = ? AND event_id = ?", [o, .text(eventID)])
    }

    /// Every stored preference (the initial backup looks for what has no record yet).
    public func storedPreferenceTargets() throws -> Set<String> {
        Set(try db.query("SELECT target_ref FROM preferences WHERE owner = ?", [o]).compactMap { $0["target_ref"].text })
    }

    /// The blind reference of a preference's target, as stored.
    public func preferenceTarget(_ key: String) -> String { cipher.reference(key) }

    func storePreference(_ p: PrivatePreference, event: NostrEvent, dTag d: String, pending: Bool, _ scope: WriteScope) throws {
        try scope.c.run("""
            INSERT INTO preferences (owner, d_tag, target_ref, created_at, event_id, value_enc, event_enc, pending) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (owner, d_tag) DO UPDATE SET target_ref = excluded.target_ref, created_at = excluded.created_at,
                event_id = excluded.event_id, value_enc = excluded.value_enc, event_enc = excluded.event_enc, pending = excluded.pending
            """, [o, .text(d), .text(cipher.reference(p.key)), .integer(event.createdAt), .text(event.id.hex),
                  cipher.seal(p.json, ctx("preferences.value", d)), cipher.seal(event.jsonString(), ctx("preferences.event", d)),
                  .integer(pending ? 1 : 0)])
        try apply(p, scope)
    }

    /// The preference's meaning here: an alias on a contact, the archive flag on a session (nothing yet
    /// when they are not here: `applyWaitingPreferences` runs when they arrive).
    func apply(_ p: PrivatePreference, _ scope: WriteScope) throws {
        var store = SQLiteIngestStore(scope: scope, store: self)
        switch p {
        case .alias(let pubkey, let name):
            _ = try store.setAlias(pubkey, name)
        case .archive(let sessionID, let archived):
            guard var s = try store.session(sessionID), s.archived != archived else { return }
            s.archived = archived
            try store.setSession(s)
        }
    }

    /// Records about `keys` ("alias:…", "archive:…") that arrived before their contact or session.
    func applyWaitingPreferences(_ keys: [String], _ scope: WriteScope) throws {
        guard !keys.isEmpty else { return }
        let refs = keys.map { cipher.reference($0) }
        for r in try scope.c.query(in: refs, "SELECT d_tag, value_enc FROM preferences WHERE owner = ? AND target_ref IN (%@)", leading: [o]) {
            let d = r["d_tag"].text ?? ""
            if let p = PrivatePreference.decode(try cipher.openRequired(r["value_enc"], ctx("preferences.value", d))) { try apply(p, scope) }
        }
    }
}
