import LinkstrDomain
import NostrProtocol

/// One account's rows in the shared database. Every statement is scoped by `owner`, so accounts never
/// see each other's data; sensitive columns are sealed by the account's `FieldCipher`.
public final class AccountStore: @unchecked Sendable {
    public let owner: Pubkey
    let db: Database
    let cipher: FieldCipher

    init(owner: Pubkey, db: Database, cipher: FieldCipher) {
        self.owner = owner
        self.db = db
        self.cipher = cipher
    }

    /// Opens the account for `secretKey`, creating its wrapped data key on first use.
    public static func open(_ db: Database, secretKey: SecretKey, now: Int64,
                            random: any RandomSource = SystemRandom()) throws -> AccountStore {
        let owner = secretKey.publicKey.hex
        if case .blob(let wrapped) = try db.scalar("SELECT wrapped_data_key FROM accounts WHERE pubkey = ?", [.text(owner)]) {
            return AccountStore(owner: owner, db: db, cipher: try FieldCipher.unwrap(wrapped, for: secretKey, random: random))
        }
        let (cipher, wrapped) = try FieldCipher.create(for: secretKey, random: random)
        try db.transaction {
            try db.run("INSERT INTO accounts (pubkey, wrapped_data_key, created_at) VALUES (?, ?, ?)", [.text(owner), .blob(wrapped), .integer(now)])
            try db.run("INSERT INTO account_state (owner) VALUES (?)", [.text(owner)])
        }
        return AccountStore(owner: owner, db: db, cipher: cipher)
    }

    private var o: SQLValue { .text(owner) }

    // MARK: loading

    public func loadState() throws -> AccountState {
        let snapshots = try db.query("SELECT * FROM snapshots WHERE owner = ?", [o]).map { r -> Snapshot in
            let id = r["rumor_id"].text ?? ""
            let members = try cipher.openRequired(r["members_enc"], ctx("snapshots.members", id)).split(separator: ",").map(String.init)
            return Snapshot(rumorID: id, sessionID: r["session_id"].text ?? "", author: try cipher.openRequired(r["author_enc"], ctx("snapshots.author", id)),
                            createdAt: r["created_at"].int ?? 0, isCreate: r["is_create"].int == 1, members: members,
                            name: try cipher.open(r["name_enc"], ctx("snapshots.name", id)))
        }
        let deletions = try db.query("SELECT * FROM session_deletions WHERE owner = ?", [o]).map { r -> SessionDeletion in
            let id = r["rumor_id"].text ?? ""
            return SessionDeletion(rumorID: id, sessionID: r["session_id"].text ?? "",
                                   author: try cipher.openRequired(r["author_enc"], ctx("session_deletions.author", id)), createdAt: r["created_at"].int ?? 0)
        }
        let archived = Set(try db.query("SELECT session_id FROM sessions WHERE owner = ? AND archived = 1", [o]).compactMap { $0["session_id"].text })
        var posts = try db.query("SELECT * FROM posts WHERE owner = ?", [o]).map { r -> PostRecord in
            let id = r["post_id"].text ?? ""
            return PostRecord(id: id, sessionID: r["session_id"].text ?? "", author: try cipher.openRequired(r["author_enc"], ctx("posts.author", id)),
                              createdAt: r["created_at"].int ?? 0, url: try cipher.openRequired(r["url_enc"], ctx("posts.url", id)),
                              note: try cipher.open(r["note_enc"], ctx("posts.note", id)),
                              wrapIDs: (r["wrap_ids"].text ?? "").split(separator: ",").map(String.init),
                              arrivals: RecordCodec.arrivals(r["arrivals"].text ?? ""), readAt: r["read_at"].int,
                              notified: r["notified"].int == 1, status: .visible)
        }
        var reactions = try db.query("SELECT * FROM reactions WHERE owner = ?", [o]).map { r -> ReactionRecord in
            let id = r["rumor_id"].text ?? ""
            return ReactionRecord(id: id, sessionID: r["session_id"].text ?? "", postID: r["post_id"].text ?? "",
                                  emoji: try cipher.openRequired(r["emoji_enc"], ctx("reactions.emoji", id)),
                                  author: try cipher.openRequired(r["author_enc"], ctx("reactions.author", id)), active: r["active"].int == 1,
                                  createdAt: r["created_at"].int ?? 0, arrivals: RecordCodec.arrivals(r["arrivals"].text ?? ""),
                                  notified: r["notified"].int == 1, status: .visible)
        }
        for r in try db.query("SELECT * FROM staged_messages WHERE owner = ?", [o]) {
            let id = r["rumor_id"].text ?? ""
            let body = try cipher.openRequired(r["body_enc"], ctx("staged_messages.body", id))
            switch r["kind"].text {
            case "root": posts.append(try RecordCodec.post(fromJSON: body))
            case "reaction": reactions.append(try RecordCodec.reaction(fromJSON: body))
            default: throw StorageError.corrupt("staged message of unknown kind")
            }
        }
        let tombstones = try db.query("SELECT * FROM tombstones WHERE owner = ?", [o]).map { r -> Tombstone in
            let post = r["post_id"].text ?? "", sid = r["session_id"].text ?? ""
            let deleter = try cipher.openRequired(r["deleter_enc"], ctx("tombstones.deleter", sid + "/" + post))
            return Tombstone(key: TombstoneKey(sessionID: sid, postID: post, deleter: deleter),
                             stamp: LWWStamp(createdAt: r["created_at"].int ?? 0, eventID: r["rumor_id"].text ?? ""), validated: r["validated"].int == 1)
        }
        let contacts = try db.query("SELECT * FROM contacts WHERE owner = ?", [o]).map { r -> Contact in
            let ref = r["pubkey_ref"].text ?? ""
            return Contact(pubkey: try cipher.openRequired(r["pubkey_enc"], ctx("contacts.pubkey", ref)),
                           alias: try cipher.open(r["alias_enc"], ctx("contacts.alias", ref)))
        }
        let state = try db.query("SELECT follow_watermark_at, follow_watermark_id FROM account_state WHERE owner = ?", [o]).first
        let watermark = state.flatMap { r in r["follow_watermark_at"].int.map { LWWStamp(createdAt: $0, eventID: r["follow_watermark_id"].text ?? "") } }
        return AccountState.restore(me: owner, snapshots: snapshots, deletions: deletions, archived: archived, posts: posts,
                                    reactions: reactions, tombstones: tombstones, contacts: contacts, followWatermark: watermark)
    }

    // MARK: writing

    /// Writes one batch of ingest results in a single transaction, with the gift wraps it consumed,
    /// so that a crash never leaves half a change and a restart never decrypts those wraps again.
    public func apply(_ changes: [StoreChange], processedWraps: [String] = [], now: Int64) throws {
        guard !changes.isEmpty || !processedWraps.isEmpty else { return }
        try db.transaction {
            for change in changes { try write(change) }
            for w in processedWraps {
                try db.run("INSERT OR IGNORE INTO processed_wraps (owner, wrap_id, processed_at) VALUES (?, ?, ?)", [o, .text(w), .integer(now)])
            }
        }
    }

    private func write(_ change: StoreChange) throws {
        switch change {
        case .snapshot(let s):
            try db.run("""
                INSERT OR IGNORE INTO snapshots (owner, rumor_id, session_id, created_at, is_create, author_enc, members_enc, name_enc)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [o, .text(s.rumorID), .text(s.sessionID), .integer(s.createdAt), .integer(s.isCreate ? 1 : 0),
                      cipher.seal(s.author, ctx("snapshots.author", s.rumorID)),
                      cipher.seal(s.members.joined(separator: ","), ctx("snapshots.members", s.rumorID)),
                      cipher.seal(s.name, ctx("snapshots.name", s.rumorID))])
        case .sessionDeletion(let d):
            try db.run("INSERT OR IGNORE INTO session_deletions (owner, rumor_id, session_id, created_at, author_enc) VALUES (?, ?, ?, ?, ?)",
                       [o, .text(d.rumorID), .text(d.sessionID), .integer(d.createdAt), cipher.seal(d.author, ctx("session_deletions.author", d.rumorID))])
        case .session(let s):
            try writeSession(s)
        case .post(let p):
            if p.status.isVisible {
                try db.run("DELETE FROM staged_messages WHERE owner = ? AND rumor_id = ?", [o, .text(p.id)])
                try db.run("""
                    INSERT OR REPLACE INTO posts (owner, post_id, session_id, created_at, author_enc, url_enc, note_enc, wrap_ids, arrivals, read_at, notified)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [o, .text(p.id), .text(p.sessionID), .integer(p.createdAt), cipher.seal(p.author, ctx("posts.author", p.id)),
                          cipher.seal(p.url, ctx("posts.url", p.id)), cipher.seal(p.note, ctx("posts.note", p.id)),
                          .text(p.wrapIDs.joined(separator: ",")), .text(RecordCodec.arrivalsText(p.arrivals)),
                          p.readAt.map { .integer($0) } ?? .null, .integer(p.notified ? 1 : 0)])
            } else {
                try db.run("DELETE FROM posts WHERE owner = ? AND post_id = ?", [o, .text(p.id)])
                try stage(id: p.id, kind: "root", sessionID: p.sessionID, createdAt: p.createdAt, status: p.status, body: RecordCodec.json(p))
            }
        case .postRemoved(let id):
            try db.run("DELETE FROM posts WHERE owner = ? AND post_id = ?", [o, .text(id)])
            try db.run("DELETE FROM staged_messages WHERE owner = ? AND rumor_id = ?", [o, .text(id)])
        case .reaction(let r):
            if r.status.isVisible {
                try db.run("DELETE FROM staged_messages WHERE owner = ? AND rumor_id = ?", [o, .text(r.id)])
                try db.run("""
                    INSERT OR REPLACE INTO reactions (owner, rumor_id, session_id, post_id, created_at, author_enc, emoji_enc, active, arrivals, notified)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [o, .text(r.id), .text(r.sessionID), .text(r.postID), .integer(r.createdAt), cipher.seal(r.author, ctx("reactions.author", r.id)),
                          cipher.seal(r.emoji, ctx("reactions.emoji", r.id)), .integer(r.active ? 1 : 0),
                          .text(RecordCodec.arrivalsText(r.arrivals)), .integer(r.notified ? 1 : 0)])
            } else {
                try db.run("DELETE FROM reactions WHERE owner = ? AND rumor_id = ?", [o, .text(r.id)])
                try stage(id: r.id, kind: "reaction", sessionID: r.sessionID, createdAt: r.createdAt, status: r.status, body: RecordCodec.json(r))
            }
        case .reactionRemoved(let id):
            try db.run("DELETE FROM reactions WHERE owner = ? AND rumor_id = ?", [o, .text(id)])
            try db.run("DELETE FROM staged_messages WHERE owner = ? AND rumor_id = ?", [o, .text(id)])
        case .tombstone(let t):
            let ref = cipher.reference(t.key.deleter)
            try db.run("""
                INSERT OR REPLACE INTO tombstones (owner, session_id, post_id, deleter_ref, deleter_enc, created_at, rumor_id, validated)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [o, .text(t.key.sessionID), .text(t.key.postID), .text(ref),
                      cipher.seal(t.key.deleter, ctx("tombstones.deleter", t.key.sessionID + "/" + t.key.postID)),
                      .integer(t.stamp.createdAt), .text(t.stamp.eventID), .integer(t.validated ? 1 : 0)])
        case .tombstoneRemoved(let key):
            try db.run("DELETE FROM tombstones WHERE owner = ? AND session_id = ? AND post_id = ? AND deleter_ref = ?",
                       [o, .text(key.sessionID), .text(key.postID), .text(cipher.reference(key.deleter))])
        case .contacts(let list):
            try db.run("DELETE FROM contacts WHERE owner = ?", [o])
            for c in list {
                let ref = cipher.reference(c.pubkey)
                try db.run("INSERT INTO contacts (owner, pubkey_ref, pubkey_enc, alias_enc) VALUES (?, ?, ?, ?)",
                           [o, .text(ref), cipher.seal(c.pubkey, ctx("contacts.pubkey", ref)), cipher.seal(c.alias, ctx("contacts.alias", ref))])
            }
        case .followWatermark(let stamp):
            try db.run("UPDATE account_state SET follow_watermark_at = ?, follow_watermark_id = ? WHERE owner = ?",
                       [.integer(stamp.createdAt), .text(stamp.eventID), o])
        }
    }

    private func stage(id: String, kind: String, sessionID: String, createdAt: Int64, status: CandidateStatus, body: String) throws {
        let reason: String
        if case .pending(let r) = status { reason = r.rawValue } else { reason = "" }
        try db.run("""
            INSERT OR REPLACE INTO staged_messages (owner, rumor_id, kind, session_id, created_at, reason, body_enc) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, [o, .text(id), .text(kind), .text(sessionID), .integer(createdAt), .text(reason), cipher.seal(body, ctx("staged_messages.body", id))])
    }

    /// The session row plus its members and membership intervals, materialized from the timeline.
    private func writeSession(_ s: SessionRecord) throws {
        let d = s.derived
        let updatedAt = d.timeline.last?.createdAt ?? 0
        try db.run("""
            INSERT INTO sessions (owner, session_id, name_enc, creator_enc, updated_at, listed, archived) VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (owner, session_id) DO UPDATE SET name_enc = excluded.name_enc, creator_enc = excluded.creator_enc,
                updated_at = excluded.updated_at, listed = excluded.listed, archived = excluded.archived
            """, [o, .text(s.id), cipher.seal(d.name, ctx("sessions.name", s.id)), cipher.seal(d.creator, ctx("sessions.creator", s.id)),
                  .integer(updatedAt), .integer(s.isListed ? 1 : 0), .integer(s.archived ? 1 : 0)])
        try db.run("DELETE FROM session_members WHERE owner = ? AND session_id = ?", [o, .text(s.id)])
        try db.run("DELETE FROM membership_intervals WHERE owner = ? AND session_id = ?", [o, .text(s.id)])
        var open = [Pubkey: Int64]()
        var lastChange = [Pubkey: Int64]()
        for snapshot in d.timeline {
            for m in snapshot.members where open[m] == nil { open[m] = snapshot.createdAt; lastChange[m] = snapshot.createdAt }
            for (m, start) in open where !snapshot.members.contains(m) {
                try insertInterval(s.id, m, start, snapshot.createdAt)
                open[m] = nil
                lastChange[m] = snapshot.createdAt
            }
        }
        for (m, start) in open { try insertInterval(s.id, m, start, nil) }
        for (m, at) in lastChange {
            let ref = cipher.reference(m)
            try db.run("INSERT INTO session_members (owner, session_id, member_ref, member_enc, active, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                       [o, .text(s.id), .text(ref), cipher.seal(m, ctx("session_members.member", s.id + "/" + ref)),
                        .integer(open[m] != nil ? 1 : 0), .integer(at)])
        }
    }

    private func insertInterval(_ sid: String, _ member: Pubkey, _ start: Int64, _ end: Int64?) throws {
        let ref = cipher.reference(member)
        try db.run("INSERT INTO membership_intervals (owner, session_id, member_ref, member_enc, start_at, end_at) VALUES (?, ?, ?, ?, ?, ?)",
                   [o, .text(sid), .text(ref), cipher.seal(member, ctx("membership_intervals.member", "\(sid)/\(ref)/\(start)")),
                    .integer(start), end.map { .integer($0) } ?? .null])
    }

    func ctx(_ column: String, _ row: String) -> String { "\(column)|\(owner)|\(row)" }

    // MARK: processed gift wraps

    /// Every wrap already opened (or found invalid) by this account.
    public func processedWrapIDs() throws -> Set<String> {
        Set(try db.query("SELECT wrap_id FROM processed_wraps WHERE owner = ?", [o]).compactMap { $0["wrap_id"].text })
    }

    public func processedWrapCount() throws -> Int { Int(try db.scalar("SELECT count(*) FROM processed_wraps WHERE owner = ?", [o]).int ?? 0) }

    // MARK: account flags

    /// Whether the first backfill into an empty store has completed (history then arrives read).
    public func historyRestored() throws -> Bool {
        try db.scalar("SELECT history_restored FROM account_state WHERE owner = ?", [o]).int == 1
    }

    public func setHistoryRestored() throws {
        try db.run("UPDATE account_state SET history_restored = 1 WHERE owner = ?", [o])
    }

    /// True when nothing conversational is stored yet (a fresh device or a cleared account).
    public func isConversationStoreEmpty() throws -> Bool {
        try db.scalar("SELECT (SELECT count(*) FROM snapshots WHERE owner = ?1) + (SELECT count(*) FROM posts WHERE owner = ?1) + (SELECT count(*) FROM staged_messages WHERE owner = ?1)",
                      [o]).int == 0
    }

    public func setting(_ key: String) throws -> String? {
        try cipher.open(try db.scalar("SELECT value_enc FROM settings WHERE owner = ? AND key = ?", [o, .text(key)]), ctx("settings", key))
    }

    public func setSetting(_ key: String, _ value: String?) throws {
        if let value {
            try db.run("INSERT OR REPLACE INTO settings (owner, key, value_enc) VALUES (?, ?, ?)", [o, .text(key), cipher.seal(value, ctx("settings", key))])
        } else {
            try db.run("DELETE FROM settings WHERE owner = ? AND key = ?", [o, .text(key)])
        }
    }

    // MARK: link metadata cache

    public struct LinkMetadata: Equatable, Sendable {
        public var title: String?
        public var thumbnailPath: String?
        public var fetchedAt: Int64
        public init(title: String?, thumbnailPath: String?, fetchedAt: Int64) { self.title = title; self.thumbnailPath = thumbnailPath; self.fetchedAt = fetchedAt }
    }

    public func linkMetadata(for url: String) throws -> LinkMetadata? {
        let ref = cipher.reference(url)
        guard let r = try db.query("SELECT * FROM link_metadata WHERE owner = ? AND url_ref = ?", [o, .text(ref)]).first else { return nil }
        return LinkMetadata(title: try cipher.open(r["title_enc"], ctx("link_metadata.title", ref)),
                            thumbnailPath: try cipher.open(r["thumbnail_enc"], ctx("link_metadata.thumbnail", ref)), fetchedAt: r["fetched_at"].int ?? 0)
    }

    public func storeLinkMetadata(_ m: LinkMetadata, for url: String) throws {
        let ref = cipher.reference(url)
        try db.run("INSERT OR REPLACE INTO link_metadata (owner, url_ref, title_enc, thumbnail_enc, fetched_at) VALUES (?, ?, ?, ?, ?)",
                   [o, .text(ref), cipher.seal(m.title, ctx("link_metadata.title", ref)), cipher.seal(m.thumbnailPath, ctx("link_metadata.thumbnail", ref)),
                    .integer(m.fetchedAt)])
    }

    /// Clears hydrated previews (posts stay).
    public func clearLinkMetadata() throws { try db.run("DELETE FROM link_metadata WHERE owner = ?", [o]) }

    // MARK: removal

    /// Deletes every row this account owns, its wrapped data key included (secure_delete zeroes the pages).
    public func deleteAllData() throws {
        try db.transaction {
            for table in Self.ownedTables { try db.run("DELETE FROM \(table) WHERE owner = ?", [o]) }
            try db.run("DELETE FROM accounts WHERE pubkey = ?", [o])
        }
        try? db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    static let ownedTables = ["account_state", "sessions", "snapshots", "session_deletions", "session_members", "membership_intervals",
                              "posts", "reactions", "tombstones", "staged_messages", "contacts", "relays", "processed_wraps",
                              "link_metadata", "settings"]
}
