import LinkstrDomain

/// Other people's profile names (kind 0). The pubkey and the name are sealed like contacts; the row is found
/// by the pubkey's blind reference.
extension AccountStore {
    /// Every stored name, by pubkey (profiles without a usable name are left out).
    public func profileNames() throws -> [Pubkey: String] {
        var names = [Pubkey: String]()
        for r in try db.query("SELECT pubkey_ref, pubkey_enc, name_enc FROM profiles WHERE owner = ?", [o]) {
            let ref = r["pubkey_ref"].text ?? ""
            guard let named = try readable("profiles", ref, { () throws -> (Pubkey, String)? in
                guard let name = try cipher.open(r["name_enc"], ctx("profiles.name", ref)) else { return nil }
                return (try cipher.openRequired(r["pubkey_enc"], ctx("profiles.pubkey", ref)), name)
            }), let found = named else { continue }
            names[found.0] = found.1
        }
        return names
    }

    /// The stamp of the stored profile event for `pubkey`, to decide whether a newer one arrived.
    public func profileStamp(_ pubkey: Pubkey) throws -> LWWStamp? { try db.read { try profileStamp(pubkey, $0) } }

    func profileStamp(_ pubkey: Pubkey, _ c: Connection) throws -> LWWStamp? {
        guard let r = try c.query("SELECT created_at, event_id FROM profiles WHERE owner = ? AND pubkey_ref = ?",
                                  [o, .text(cipher.reference(pubkey))]).first, let at = r["created_at"].int else { return nil }
        return LWWStamp(createdAt: at, eventID: r["event_id"].text ?? "")
    }

    /// Applies one decision of `ProfileRule`: true when a stored row changed.
    @discardableResult
    public func applyProfile(_ pubkey: Pubkey, _ decision: ProfileRule.Decision) throws -> Bool {
        guard case .apply = decision else { return false }
        return try db.write { try applyProfile(pubkey, decision, $0) }
    }

    @discardableResult
    func applyProfile(_ pubkey: Pubkey, _ decision: ProfileRule.Decision, _ c: Connection) throws -> Bool {
        guard case .apply(let name, let stamp) = decision else { return false }
        let ref = cipher.reference(pubkey)
        try c.run("""
            INSERT INTO profiles (owner, pubkey_ref, pubkey_enc, name_enc, created_at, event_id) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (owner, pubkey_ref) DO UPDATE SET name_enc = excluded.name_enc, created_at = excluded.created_at,
                event_id = excluded.event_id
            """, [o, .text(ref), cipher.seal(pubkey, ctx("profiles.pubkey", ref)), cipher.seal(name, ctx("profiles.name", ref)),
                  .integer(stamp.createdAt), .text(stamp.eventID)])
        return true
    }

    /// Our own newest kind 0 as relays hold it (content and stamp), so a name change keeps the fields
    /// other clients set (picture, about, lud16…).
    public func ownProfile() throws -> (content: String, stamp: LWWStamp)? { try db.read { try ownProfile($0) } }

    func ownProfile(_ c: Connection) throws -> (content: String, stamp: LWWStamp)? {
        guard let content = try setting(.ownProfileContent, c), let raw = try setting(.ownProfileStamp, c) else { return nil }
        let parts = raw.split(separator: ":", maxSplits: 1).map(String.init)
        guard parts.count == 2, let at = Int64(parts[0]) else { return nil }
        return (content, LWWStamp(createdAt: at, eventID: parts[1]))
    }

    public func setOwnProfile(content: String, stamp: LWWStamp) throws {
        try db.write { try setOwnProfile(content: content, stamp: stamp, $0) }
    }

    func setOwnProfile(content: String, stamp: LWWStamp, _ c: Connection) throws {
        try setSetting(.ownProfileContent, content, c)
        try setSetting(.ownProfileStamp, "\(stamp.createdAt):\(stamp.eventID)", c)
    }

    /// Everyone whose profile we want: contacts and every member any of our sessions ever had.
    public func profileAuthors() throws -> Set<Pubkey> {
        let members = try committedSessions().values.map { session in session.snapshots.values.flatMap(\.members) }
        return ProfileRule.interestingAuthors(contacts: try contacts(), sessionMembers: members, me: owner)
    }
}
