import Foundation
import LinkstrDomain
import NostrProtocol

/// `.linkstrbackup` files (wire 2026 §8): restoring one into this account in one transaction, and
/// gathering this account's data for an export.
extension AccountStore {
    /// Merges a validated backup (`BackupRestore`), together with what the ingest rules do not hold:
    /// preferences (newest per key, then applied), profiles (newest event), the follow list's tags, the
    /// relay list (the file's, an empty one included) and the wraps of restored posts (never opened
    /// again). One transaction: a conflict or a failed write leaves everything as it was. Nothing is
    /// published.
    public func restoreBackup(_ b: ValidatedBackup, now: Int64) throws -> BackupRestore.Outcome {
        guard b.owner == owner else { throw BackupError.conflict("the backup belongs to another account.") }
        return try writing { scope in
            let c = scope.c
            var store = SQLiteIngestStore(scope: scope, store: self)
            let outcome = try store.restore(b, now: now)
            if let tags = outcome.followTags { try setSetting(.followListTags, try RecordCodec.tagsText(tags), c) }
            for p in b.preferences {
                guard let d = PrivatePreference.dTag(in: p.event) else { continue }
                let stamp = LWWStamp(createdAt: p.event.createdAt, eventID: p.event.id.hex)
                guard PrivatePreference.shouldApply(stamp, over: try preference(dTag: d, c)?.stamp) else { continue }
                try storePreference(p.preference, event: p.event, dTag: d, pending: p.pending, scope)
            }
            for contact in b.file.contacts {
                guard let date = contact.profileDate, let id = contact.profileID else { continue }
                let stamp = LWWStamp(createdAt: date.unixSeconds, eventID: id)
                guard LWWStamp.shouldApply(stamp, over: try profileStamp(contact.pubkey, c)) else { continue }
                try applyProfile(contact.pubkey, .apply(name: contact.profileName, stamp: stamp), c)
            }
            if let a = b.file.account, let content = a.profileContent, let date = a.profileDate, let id = a.profileID {
                let stamp = LWWStamp(createdAt: date.unixSeconds, eventID: id)
                if LWWStamp.shouldApply(stamp, over: try ownProfile(c)?.stamp) {
                    try setOwnProfile(content: content, stamp: stamp, c)
                    try setSetting(.profileName, a.profileName ?? NostrEventTemplates.profileName(fromContent: content), c)
                }
            }
            if b.file.settings.customRelays {
                try replaceRelays(b.relays, c)
            } else {
                try replaceRelays(RelayURL.defaults.map { ($0, true, now) }, c)
            }
            try insertProcessed(b.file.posts.flatMap(\.transportIDs).map { ProcessedWrap(id: $0) }, now: now, c)
            for sid in outcome.touchedSessions.sorted() { try refreshAggregates(sid, scope) }
            return outcome
        }
    }

    /// Everything an export needs, read in one consistent snapshot.
    public func backupContents(secretKey: SecretKey) throws -> BackupExport.Contents {
        precondition(secretKey.publicKey.hex == owner, "the key of another account")
        let sessions = try committedSessions()
        return try db.read { c in
            let createdAt = try c.scalar("SELECT created_at FROM accounts WHERE number = ?", [o]).int ?? 0
            let posts = try c.query("SELECT * FROM posts WHERE owner = ?", [o]).map { try decodePost($0) }
            let reactions = try c.query("SELECT * FROM reactions WHERE owner = ?", [o]).map { try decodeReaction($0) }
            let tombstones = try c.query("SELECT * FROM tombstones WHERE owner = ? AND validated = 1", [o]).map { r -> Tombstone in
                let sid = r["session_id"].text ?? "", pid = r["post_id"].text ?? ""
                let key = TombstoneKey(sessionID: sid, postID: pid,
                                       deleter: try cipher.openRequired(r["deleter_enc"], ctx("tombstones.deleter", sid + "/" + pid)))
                return Tombstone(key: key, stamp: LWWStamp(createdAt: r["created_at"].int ?? 0, eventID: r["rumor_id"].text ?? ""), validated: true)
            }
            var profiles: [Pubkey: (name: String, stamp: LWWStamp)] = [:]
            for r in try c.query("SELECT pubkey_ref, pubkey_enc, name_enc, created_at, event_id FROM profiles WHERE owner = ?", [o]) {
                let ref = r["pubkey_ref"].text ?? ""
                guard let name = try cipher.open(r["name_enc"], ctx("profiles.name", ref)) else { continue }
                profiles[try cipher.openRequired(r["pubkey_enc"], ctx("profiles.pubkey", ref))] =
                    (name, LWWStamp(createdAt: r["created_at"].int ?? 0, eventID: r["event_id"].text ?? ""))
            }
            let preferences = try c.query("SELECT d_tag, event_enc, pending FROM preferences WHERE owner = ? ORDER BY d_tag", [o]).map { r in
                let d = r["d_tag"].text ?? ""
                guard let event = try? NostrEvent(json: try cipher.openRequired(r["event_enc"], ctx("preferences.event", d))) else {
                    throw StorageError.corrupt("a stored preference")
                }
                return (event: event, pending: r["pending"].int == 1)
            }
            let relays = try c.query("SELECT url, enabled, added_at FROM relays WHERE owner = ? ORDER BY url", [o]).map {
                (url: $0["url"].text ?? "", enabled: $0["enabled"].int == 1, addedAt: $0["added_at"].int ?? 0)
            }
            let tags = try setting(.followListTags, c).flatMap(RecordCodec.tags)
            return BackupExport.Contents(
                secretKey: secretKey, accountCreatedAt: createdAt, sessions: Array(sessions.values), posts: posts, reactions: reactions,
                tombstones: tombstones, contacts: try contacts(c), followStamp: try followWatermark(c), followTags: tags, profiles: profiles,
                ownProfile: try ownProfile(c), ownProfileName: try setting(.profileName, c), preferences: preferences, relays: relays)
        }
    }
}
