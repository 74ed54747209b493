import LinkstrDomain

/// What NIP-05 said of people's names (`NIP05Check`), sealed, by the pubkey's blind reference.
extension AccountStore {
    public func nip05Check(_ pubkey: Pubkey) throws -> NIP05Check? {
        let ref = cipher.reference(pubkey)
        guard let r = try db.query("SELECT identifier_enc, verified, checked_at FROM nip05_checks WHERE owner = ? AND pubkey_ref = ?",
                                   [o, .text(ref)]).first,
              let identifier = try cipher.open(r["identifier_enc"], ctx("nip05_checks.identifier", ref)) else { return nil }
        return NIP05Check(identifier: identifier, verified: r["verified"].int == 1, checkedAt: r["checked_at"].int ?? 0)
    }

    public func setNIP05Check(_ pubkey: Pubkey, _ check: NIP05Check) throws {
        let ref = cipher.reference(pubkey)
        try db.run("""
            INSERT INTO nip05_checks (owner, pubkey_ref, identifier_enc, verified, checked_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (owner, pubkey_ref) DO UPDATE SET identifier_enc = excluded.identifier_enc, verified = excluded.verified,
                checked_at = excluded.checked_at
            """, [o, .text(ref), cipher.seal(check.identifier, ctx("nip05_checks.identifier", ref)), .integer(check.verified ? 1 : 0),
                  .integer(check.checkedAt)])
    }
}
