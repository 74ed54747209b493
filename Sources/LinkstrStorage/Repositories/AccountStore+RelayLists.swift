import LinkstrDomain

/// Other people's relay lists (kind 10050 inbox, kind 10002 read relays), sealed; found by the pubkey's
/// blind reference.
extension AccountStore {
    public func relayListStamp(_ pubkey: Pubkey, kind: Int) throws -> LWWStamp? {
        guard let r = try db.query("SELECT created_at, event_id FROM inbox_relays WHERE owner = ? AND pubkey_ref = ? AND kind = ?",
                                   [o, .text(cipher.reference(pubkey)), .integer(Int64(kind))]).first,
              let at = r["created_at"].int else { return nil }
        return LWWStamp(createdAt: at, eventID: r["event_id"].text ?? "")
    }

    /// `fetchedAt`: when we last saw it (a list's age decides when it is asked for again); `foundOn`:
    /// the relay that gave it (the doctor says where each list came from).
    /// Newest wins in the statement itself (the rule of `FollowListRule.shouldApply`): a list checked as
    /// newer and then written after another process wrote a newer one (`doctor` beside the app) never
    /// replaces it.
    public func storeRelayList(_ pubkey: Pubkey, kind: Int, relays: [String], stamp: LWWStamp, fetchedAt: Int64 = 0, foundOn: String? = nil) throws {
        let ref = cipher.reference(pubkey)
        try db.run("""
            INSERT INTO inbox_relays (owner, pubkey_ref, kind, relays_enc, created_at, event_id, fetched_at, found_on_enc) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (owner, pubkey_ref, kind) DO UPDATE SET relays_enc = excluded.relays_enc, created_at = excluded.created_at,
                event_id = excluded.event_id, fetched_at = excluded.fetched_at, found_on_enc = excluded.found_on_enc
            WHERE excluded.created_at > inbox_relays.created_at
               OR (excluded.created_at = inbox_relays.created_at AND excluded.event_id <= inbox_relays.event_id)
            """, [o, .text(ref), .integer(Int64(kind)), cipher.seal(relays.joined(separator: " "), ctx("inbox_relays.\(kind)", ref)),
                  .integer(stamp.createdAt), .text(stamp.eventID), .integer(fetchedAt),
                  cipher.seal(foundOn, ctx("inbox_relays.found_on.\(kind)", ref))])
    }

    /// The list was seen again (unchanged, or older than ours): it is fresh as of `at`.
    public func touchRelayList(_ pubkey: Pubkey, kind: Int, at: Int64) throws {
        try db.run("UPDATE inbox_relays SET fetched_at = max(fetched_at, ?) WHERE owner = ? AND pubkey_ref = ? AND kind = ?",
                   [.integer(at), o, .text(cipher.reference(pubkey)), .integer(Int64(kind))])
    }

    /// A stored list with what we know of it.
    public struct StoredRelayList: Equatable, Sendable {
        public let relays: [String]
        public let createdAt: Int64
        public let fetchedAt: Int64
        public let foundOn: String?
    }

    /// What we know of where `member` reads, for the relay choice: both lists, and when they were
    /// last seen (a row from before `fetched_at` counts from its list's date).
    public func deliveryRecipient(_ member: Pubkey) throws -> DeliveryRelayChoice.Recipient {
        let inbox = try relayListRecord(member, kind: InboxRelayRule.inboxKind)
        let general = try relayListRecord(member, kind: InboxRelayRule.relayListKind)
        let seen = [inbox, general].compactMap { $0.map { $0.fetchedAt > 0 ? $0.fetchedAt : $0.createdAt } }.max()
        return DeliveryRelayChoice.Recipient(pubkey: member, inbox: inbox?.relays, readRelays: general?.relays, listedAt: seen)
    }

    public func relayListRecord(_ pubkey: Pubkey, kind: Int) throws -> StoredRelayList? {
        let ref = cipher.reference(pubkey)
        guard let r = try db.query("SELECT relays_enc, created_at, fetched_at, found_on_enc FROM inbox_relays WHERE owner = ? AND pubkey_ref = ? AND kind = ?",
                                   [o, .text(ref), .integer(Int64(kind))]).first else { return nil }
        let relays = (try cipher.openRequired(r["relays_enc"], ctx("inbox_relays.\(kind)", ref))).split(separator: " ").map(String.init)
        let foundOn = try cipher.open(r["found_on_enc"], ctx("inbox_relays.found_on.\(kind)", ref))
        return StoredRelayList(relays: relays, createdAt: r["created_at"].int ?? 0, fetchedAt: r["fetched_at"].int ?? 0, foundOn: foundOn)
    }

    /// The stored list of `kind` for `pubkey` (nil when none was ever seen).
    public func relayList(_ pubkey: Pubkey, kind: Int) throws -> [String]? {
        let ref = cipher.reference(pubkey)
        guard let r = try db.query("SELECT relays_enc FROM inbox_relays WHERE owner = ? AND pubkey_ref = ? AND kind = ?",
                                   [o, .text(ref), .integer(Int64(kind))]).first else { return nil }
        return (try cipher.openRequired(r["relays_enc"], ctx("inbox_relays.\(kind)", ref))).split(separator: " ").map(String.init)
    }
}

/// What became of each member's copy of what we sent (`MemberDelivery`, sealed, by the member's blind
/// reference), and the relays someone was added with (an nprofile's hints).
extension AccountStore {
    /// Each member's outcome for each of their rumors, in one transaction.
    /// `acceptedOn`: the relays known to have accepted every copy of the member's (ours and theirs).
    public func recordDeliveries(_ outcomes: [Pubkey: (rumors: [String], outcome: MemberDelivery)], acceptedOn: [Pubkey: [String]] = [:],
                                 now: Int64) throws {
        guard !outcomes.isEmpty else { return }
        try db.write { c in
            for (member, entry) in outcomes {
                let ref = cipher.reference(member), outcome = entry.outcome
                let accepted = acceptedOn[member].map { $0.sorted().joined(separator: "\n") }
                for rumor in entry.rumors {
                    try c.run("""
                        INSERT INTO deliveries (owner, rumor_id, member_ref, outcome_enc, updated_at, accepted_on_enc) VALUES (?, ?, ?, ?, ?, ?)
                        ON CONFLICT (owner, rumor_id, member_ref) DO UPDATE SET outcome_enc = excluded.outcome_enc, updated_at = excluded.updated_at,
                            accepted_on_enc = excluded.accepted_on_enc
                        """, [o, .text(rumor), .text(ref), cipher.seal(outcome.stored, ctx("deliveries.\(rumor)", ref)), .integer(now),
                              cipher.seal(accepted, ctx("deliveries.accepted.\(rumor)", ref))])
                }
            }
        }
    }

    /// What is known of `rumorID`'s delivery to each of `members` (those with no record are left out).
    public func deliveries(_ rumorID: String, members: [Pubkey]) throws -> [Pubkey: MemberDelivery] {
        let refs = Dictionary(members.map { (cipher.reference($0), $0) }, uniquingKeysWith: { a, _ in a })
        var out = [Pubkey: MemberDelivery]()
        for r in try db.query("SELECT member_ref, outcome_enc FROM deliveries WHERE owner = ? AND rumor_id = ?", [o, .text(rumorID)]) {
            guard let ref = r["member_ref"].text, let member = refs[ref] else { continue }
            let stored = try cipher.openRequired(r["outcome_enc"], ctx("deliveries.\(rumorID)", ref))
            guard let outcome = MemberDelivery(stored: stored) else { throw StorageError.corrupt("a delivery record is not one") }
            out[member] = outcome
        }
        return out
    }

    /// The newest record of a delivery to `member`: which rumor, what became of it, when, and the relays
    /// that accepted every copy of theirs (empty for records made before they were kept).
    public func lastDelivery(to member: Pubkey) throws -> (rumorID: String, outcome: MemberDelivery, at: Int64, acceptedOn: [String])? {
        let ref = cipher.reference(member)
        guard let r = try db.query("""
            SELECT rumor_id, outcome_enc, updated_at, accepted_on_enc FROM deliveries WHERE owner = ? AND member_ref = ? ORDER BY updated_at DESC LIMIT 1
            """, [o, .text(ref)]).first, let rumor = r["rumor_id"].text else { return nil }
        let stored = try cipher.openRequired(r["outcome_enc"], ctx("deliveries.\(rumor)", ref))
        guard let outcome = MemberDelivery(stored: stored) else { throw StorageError.corrupt("a delivery record is not one") }
        let accepted = try cipher.open(r["accepted_on_enc"], ctx("deliveries.accepted.\(rumor)", ref))
        return (rumor, outcome, r["updated_at"].int ?? 0, accepted.map { $0.split(separator: "\n").map(String.init) } ?? [])
    }

    /// The NIP-05 identifier (`name@domain`) `pubkey`'s newest kind 0 names (nil removes it). Set only
    /// where a profile row exists (one is written when the kind 0 is applied).
    public func setProfileNIP05(_ pubkey: Pubkey, _ identifier: String?) throws {
        let ref = cipher.reference(pubkey)
        try db.run("UPDATE profiles SET nip05_enc = ? WHERE owner = ? AND pubkey_ref = ?",
                   [cipher.seal(identifier, ctx("profiles.nip05", ref)), o, .text(ref)])
    }

    public func profileNIP05(_ pubkey: Pubkey) throws -> String? {
        let ref = cipher.reference(pubkey)
        guard let r = try db.query("SELECT nip05_enc FROM profiles WHERE owner = ? AND pubkey_ref = ?", [o, .text(ref)]).first else { return nil }
        return try cipher.open(r["nip05_enc"], ctx("profiles.nip05", ref))
    }

    /// The relays `pubkey` was added with (an nprofile's hints); nil removes them.
    public func setRelayHints(_ pubkey: Pubkey, _ relays: [String]?) throws {
        let ref = cipher.reference(pubkey)
        guard let relays, !relays.isEmpty else {
            return try db.run("DELETE FROM relay_hints WHERE owner = ? AND pubkey_ref = ?", [o, .text(ref)])
        }
        try db.run("""
            INSERT INTO relay_hints (owner, pubkey_ref, relays_enc) VALUES (?, ?, ?)
            ON CONFLICT (owner, pubkey_ref) DO UPDATE SET relays_enc = excluded.relays_enc
            """, [o, .text(ref), cipher.seal(relays.joined(separator: " "), ctx("relay_hints", ref))])
    }

    public func relayHints(_ pubkey: Pubkey) throws -> [String] {
        let ref = cipher.reference(pubkey)
        guard let r = try db.query("SELECT relays_enc FROM relay_hints WHERE owner = ? AND pubkey_ref = ?", [o, .text(ref)]).first else { return [] }
        return (try cipher.openRequired(r["relays_enc"], ctx("relay_hints", ref))).split(separator: " ").map(String.init)
    }
}
