import LinkstrDomain
import NostrProtocol

/// The ingest rules' storage over SQLite, write-through: it only exists inside a write transaction
/// (`AccountStore.writing`), so a batch lands completely or not at all. Visible posts and reactions
/// live in `posts` / `reactions`; staged ones in `staged_messages`.
struct SQLiteIngestStore: IngestStore {
    let scope: WriteScope
    let store: AccountStore
    /// What the batch refers to that is not stored (empty outside a batch: everything is looked up).
    var absent = IngestAbsence()
    /// The staged roots of the session whose posts are being checked again (`postIDs(inSession:)`).
    let primed = PrimedStagedRoots()
    var me: Pubkey { store.owner }
    private var db: Connection { scope.c }
    private var cipher: FieldCipher { store.cipher }
    private var o: SQLValue { store.o }

    // MARK: sessions

    func session(_ id: String) throws -> SessionRecord? { try scope.session(id) }

    mutating func setSession(_ s: SessionRecord) throws {
        let old = try session(s.id)
        for snap in s.snapshots.values where old?.snapshots[snap.rumorID] == nil {
            try db.run("""
                INSERT OR REPLACE INTO snapshots (owner, rumor_id, session_id, created_at, is_create, author_enc, members_enc, name_enc)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [o, .text(snap.rumorID), .text(snap.sessionID), .integer(snap.createdAt), .integer(snap.isCreate ? 1 : 0),
                      cipher.seal(snap.author, store.ctx("snapshots.author", snap.rumorID)),
                      cipher.seal(snap.members.joined(separator: ","), store.ctx("snapshots.members", snap.rumorID)),
                      cipher.seal(snap.name, store.ctx("snapshots.name", snap.rumorID))])
        }
        for d in s.deletions.values where old?.deletions[d.rumorID] == nil {
            try db.run("INSERT OR REPLACE INTO session_deletions (owner, rumor_id, session_id, created_at, author_enc) VALUES (?, ?, ?, ?, ?)",
                       [o, .text(d.rumorID), .text(d.sessionID), .integer(d.createdAt), cipher.seal(d.author, store.ctx("session_deletions.author", d.rumorID))])
        }
        if old == nil || old?.derived != s.derived || old?.archived != s.archived {
            try store.writeSessionRow(s, membersChanged: old?.derived.timeline != s.derived.timeline, db)
        }
        try scope.setSession(s)
    }

    // MARK: posts

    func post(_ id: String) throws -> PostRecord? {
        if absent.posts.contains(id) { return nil }
        if let staged = primed.take(id) {
            let body = try cipher.openRequired(staged.body, store.ctx("staged_messages.body", id))
            return try RecordCodec.post(fromJSON: body, status: .pending(PendingReason(rawValue: staged.reason) ?? .sessionUnknown))
        }
        if let r = try db.query("SELECT * FROM posts WHERE owner = ? AND post_id = ?", [o, .text(id)]).first,
           let post = try store.readablePost(r) {
            return post
        }
        return try staged(id, kind: "root").map { try RecordCodec.post(fromJSON: $0.body, status: $0.status) }
    }

    /// The rules ask this only to check every post of the session again (`rederive`): the staged roots are
    /// read here in one query for `post(_:)`, and which of the posts no reaction points at in two more for
    /// `reactionIDs(forPost:)`, instead of three queries a post.
    mutating func postIDs(inSession sessionID: String) throws -> [String] {
        let visible = Set(try db.query("SELECT post_id FROM posts WHERE owner = ? AND session_id = ?", [o, .text(sessionID)])
            .compactMap { $0["post_id"].text })
        var staged = [String: PrimedStagedRoots.Row]()
        for r in try db.query("SELECT rumor_id, reason, body_enc FROM staged_messages WHERE owner = ? AND session_id = ? AND kind = 'root'",
                              [o, .text(sessionID)]) {
            // A row in both tables (never written so): `post(_:)` reads `posts` first, as it always did.
            guard let id = r["rumor_id"].text, !visible.contains(id) else { continue }
            staged[id] = PrimedStagedRoots.Row(reason: r["reason"].text ?? "", body: r["body_enc"])
        }
        primed.prime(staged)
        let ids = visible.union(staged.keys)
        try absent.learnReactionless(ids, owner: o, db)
        return ids.sorted()
    }

    mutating func setPost(_ p: PostRecord) throws {
        primed.forget(p.id)
        let isNew = absent.writingPost(p.id)
        if p.status.isVisible {
            if !isNew { try db.run("DELETE FROM staged_messages WHERE owner = ? AND rumor_id = ?", [o, .text(p.id)]) }
            try db.run("""
                INSERT INTO posts (owner, post_id, session_id, created_at, author_enc, url_enc, note_enc, wrap_ids, arrivals, inbound, read_at, notified,
                                   dated_ahead)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (owner, post_id) DO UPDATE SET session_id = excluded.session_id, created_at = excluded.created_at,
                    dated_ahead = excluded.dated_ahead,
                    author_enc = excluded.author_enc, url_enc = excluded.url_enc, note_enc = excluded.note_enc, wrap_ids = excluded.wrap_ids,
                    arrivals = excluded.arrivals, inbound = excluded.inbound, read_at = excluded.read_at, notified = excluded.notified
                """, [o, .text(p.id), .text(p.sessionID), .integer(p.createdAt), cipher.seal(p.author, store.ctx("posts.author", p.id)),
                      cipher.seal(p.url, store.ctx("posts.url", p.id)), cipher.seal(p.note, store.ctx("posts.note", p.id)),
                      .text(p.wrapIDs.joined(separator: ",")), .text(RecordCodec.arrivalsText(p.arrivals)), .integer(p.author != me ? 1 : 0),
                      p.readAt.map { .integer($0) } ?? .null, .integer(p.notified ? 1 : 0), p.datedAhead.map { .integer($0) } ?? .null])
        } else {
            if !isNew { try db.run("DELETE FROM posts WHERE owner = ? AND post_id = ?", [o, .text(p.id)]) }
            try stage(id: p.id, kind: "root", sessionID: p.sessionID, postID: nil, createdAt: p.createdAt, status: p.status, body: RecordCodec.json(p))
        }
    }

    mutating func removePost(_ id: String) throws {
        primed.forget(id)
        try db.run("DELETE FROM posts WHERE owner = ? AND post_id = ?", [o, .text(id)])
        try db.run("DELETE FROM staged_messages WHERE owner = ? AND rumor_id = ?", [o, .text(id)])
    }

    // MARK: reactions

    func reaction(_ id: String) throws -> ReactionRecord? {
        if let r = try db.query("SELECT * FROM reactions WHERE owner = ? AND rumor_id = ?", [o, .text(id)]).first,
           let reaction = try store.readable("reactions", id, { try store.decodeReaction(r) }) {
            return reaction
        }
        return try staged(id, kind: "reaction").map { try RecordCodec.reaction(fromJSON: $0.body, status: $0.status) }
    }

    func reactionIDs(forPost postID: String) throws -> [String] {
        if absent.reactionsFor.contains(postID) { return [] }
        return try db.query("""
            SELECT rumor_id FROM reactions WHERE owner = ?1 AND post_id = ?2
            UNION SELECT rumor_id FROM staged_messages WHERE owner = ?1 AND post_id = ?2 AND kind = 'reaction'
            """, [o, .text(postID)]).compactMap { $0.values.first?.text }.sorted()
    }

    func reactionIDs(inSession sessionID: String) throws -> [String] {
        try db.query("""
            SELECT rumor_id FROM reactions WHERE owner = ?1 AND session_id = ?2
            UNION SELECT rumor_id FROM staged_messages WHERE owner = ?1 AND session_id = ?2 AND kind = 'reaction'
            """, [o, .text(sessionID)]).compactMap { $0.values.first?.text }.sorted()
    }

    mutating func setReaction(_ r: ReactionRecord) throws {
        absent.writingReaction(toPost: r.postID)
        if r.status.isVisible {
            try db.run("DELETE FROM staged_messages WHERE owner = ? AND rumor_id = ?", [o, .text(r.id)])
            try db.run("""
                INSERT OR REPLACE INTO reactions (owner, rumor_id, session_id, post_id, created_at, author_enc, emoji_enc, active, arrivals, notified)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [o, .text(r.id), .text(r.sessionID), .text(r.postID), .integer(r.createdAt), cipher.seal(r.author, store.ctx("reactions.author", r.id)),
                      cipher.seal(r.emoji, store.ctx("reactions.emoji", r.id)), .integer(r.active ? 1 : 0),
                      .text(RecordCodec.arrivalsText(r.arrivals)), .integer(r.notified ? 1 : 0)])
        } else {
            try db.run("DELETE FROM reactions WHERE owner = ? AND rumor_id = ?", [o, .text(r.id)])
            try stage(id: r.id, kind: "reaction", sessionID: r.sessionID, postID: r.postID, createdAt: r.createdAt, status: r.status, body: RecordCodec.json(r))
        }
    }

    mutating func removeReaction(_ id: String) throws {
        try db.run("DELETE FROM reactions WHERE owner = ? AND rumor_id = ?", [o, .text(id)])
        try db.run("DELETE FROM staged_messages WHERE owner = ? AND rumor_id = ?", [o, .text(id)])
    }

    // MARK: tombstones

    func tombstoneKeys(forPost postID: String) throws -> [TombstoneKey] {
        if absent.tombstonesFor.contains(postID) { return [] }
        // No ORDER BY: it would make SQLite walk the (owner, …) primary key instead of the post index.
        return try db.query("SELECT session_id, deleter_enc FROM tombstones WHERE owner = ? AND post_id = ?",
                     [o, .text(postID)]).compactMap { r in
            let sid = r["session_id"].text ?? ""
            return try store.readable("tombstones", sid + "/" + postID) {
                TombstoneKey(sessionID: sid, postID: postID, deleter: try cipher.openRequired(r["deleter_enc"], store.ctx("tombstones.deleter", sid + "/" + postID)))
            }
        }.sorted { ($0.sessionID, $0.deleter) < ($1.sessionID, $1.deleter) }
    }

    func tombstoneKeys(inSession sessionID: String) throws -> [TombstoneKey] {
        try db.query("SELECT post_id, deleter_enc FROM tombstones WHERE owner = ? AND session_id = ?", [o, .text(sessionID)]).compactMap { r in
            let pid = r["post_id"].text ?? ""
            return try store.readable("tombstones", sessionID + "/" + pid) {
                TombstoneKey(sessionID: sessionID, postID: pid,
                             deleter: try cipher.openRequired(r["deleter_enc"], store.ctx("tombstones.deleter", sessionID + "/" + pid)))
            }
        }.sorted { ($0.postID, $0.deleter) < ($1.postID, $1.deleter) }
    }

    func tombstone(_ key: TombstoneKey) throws -> Tombstone? {
        guard let r = try db.query("SELECT created_at, rumor_id, validated FROM tombstones WHERE owner = ? AND session_id = ? AND post_id = ? AND deleter_ref = ?",
                                   [o, .text(key.sessionID), .text(key.postID), .text(cipher.reference(key.deleter))]).first else { return nil }
        return Tombstone(key: key, stamp: LWWStamp(createdAt: r["created_at"].int ?? 0, eventID: r["rumor_id"].text ?? ""), validated: r["validated"].int == 1)
    }

    mutating func setTombstone(_ t: Tombstone) throws {
        absent.writingTombstone(forPost: t.key.postID)
        try db.run("""
            INSERT OR REPLACE INTO tombstones (owner, session_id, post_id, deleter_ref, deleter_enc, created_at, rumor_id, validated)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [o, .text(t.key.sessionID), .text(t.key.postID), .text(cipher.reference(t.key.deleter)),
                  cipher.seal(t.key.deleter, store.ctx("tombstones.deleter", t.key.sessionID + "/" + t.key.postID)),
                  .integer(t.stamp.createdAt), .text(t.stamp.eventID), .integer(t.validated ? 1 : 0)])
    }

    mutating func removeTombstone(_ key: TombstoneKey) throws {
        try db.run("DELETE FROM tombstones WHERE owner = ? AND session_id = ? AND post_id = ? AND deleter_ref = ?",
                   [o, .text(key.sessionID), .text(key.postID), .text(cipher.reference(key.deleter))])
    }

    // MARK: contacts

    var followWatermark: LWWStamp? {
        get throws { try store.followWatermark(db) }
    }

    func contacts() throws -> [Contact] { try store.contacts(db) }

    mutating func setContacts(_ contacts: [Contact], watermark: LWWStamp?) throws {
        try db.run("DELETE FROM contacts WHERE owner = ?", [o])
        for c in contacts {
            let ref = cipher.reference(c.pubkey)
            try db.run("INSERT INTO contacts (owner, pubkey_ref, pubkey_enc, alias_enc) VALUES (?, ?, ?, ?)",
                       [o, .text(ref), cipher.seal(c.pubkey, store.ctx("contacts.pubkey", ref)), cipher.seal(c.alias, store.ctx("contacts.alias", ref))])
        }
        try db.run("UPDATE account_state SET follow_watermark_at = ?, follow_watermark_id = ? WHERE owner = ?",
                   [watermark.map { .integer($0.createdAt) } ?? .null, watermark.map { .text($0.eventID) } ?? .null, o])
    }

    // MARK: staging

    private func staged(_ id: String, kind: String) throws -> (body: String, status: CandidateStatus)? {
        guard let r = try db.query("SELECT reason, body_enc FROM staged_messages WHERE owner = ? AND rumor_id = ? AND kind = ?",
                                   [o, .text(id), .text(kind)]).first else { return nil }
        let reason = PendingReason(rawValue: r["reason"].text ?? "") ?? .sessionUnknown
        return (try cipher.openRequired(r["body_enc"], store.ctx("staged_messages.body", id)), .pending(reason))
    }

    private func stage(id: String, kind: String, sessionID: String, postID: String?, createdAt: Int64, status: CandidateStatus, body: String) throws {
        let reason: String
        if case .pending(let r) = status { reason = r.rawValue } else { reason = "" }
        try db.run("""
            INSERT OR REPLACE INTO staged_messages (owner, rumor_id, kind, session_id, post_id, created_at, reason, body_enc)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, [o, .text(id), .text(kind), .text(sessionID), postID.map { .text($0) } ?? .null, .integer(createdAt), .text(reason),
                  cipher.seal(body, store.ctx("staged_messages.body", id))])
    }
}

extension AccountStore {
    /// Every session of the account, read from its rows (the cache holds the result).
    func loadSessions(_ c: Connection) throws -> [String: SessionRecord] {
        var sessions = [String: SessionRecord]()
        for r in try c.query("SELECT * FROM snapshots WHERE owner = ?", [o]) {
            let id = r["rumor_id"].text ?? ""
            guard let snap = try readable("snapshots", id, {
                Snapshot(rumorID: id, sessionID: r["session_id"].text ?? "",
                         author: try cipher.openRequired(r["author_enc"], ctx("snapshots.author", id)), createdAt: r["created_at"].int ?? 0,
                         isCreate: r["is_create"].int == 1, members: RecordCodec.commaList(try cipher.openRequired(r["members_enc"], ctx("snapshots.members", id))),
                         name: try cipher.open(r["name_enc"], ctx("snapshots.name", id)))
            }) else { continue }
            sessions[snap.sessionID, default: SessionRecord(id: snap.sessionID)].snapshots[id] = snap
        }
        for r in try c.query("SELECT * FROM session_deletions WHERE owner = ?", [o]) {
            let id = r["rumor_id"].text ?? ""
            guard let d = try readable("session_deletions", id, {
                SessionDeletion(rumorID: id, sessionID: r["session_id"].text ?? "",
                                author: try cipher.openRequired(r["author_enc"], ctx("session_deletions.author", id)), createdAt: r["created_at"].int ?? 0)
            }) else { continue }
            sessions[d.sessionID, default: SessionRecord(id: d.sessionID)].deletions[id] = d
        }
        for r in try c.query("SELECT session_id FROM sessions WHERE owner = ? AND archived = 1", [o]) {
            if let id = r["session_id"].text { sessions[id, default: SessionRecord(id: id)].archived = true }
        }
        for id in Array(sessions.keys) { sessions[id]!.rederive(me: owner) }
        return sessions
    }

    /// The post, or nil when its sealed values are damaged (noted; a sync that brings it again overwrites it).
    func readablePost(_ r: Row) throws -> PostRecord? { try readable("posts", r["post_id"].text ?? "") { try decodePost(r) } }

    func decodePost(_ r: Row) throws -> PostRecord {
        let id = r["post_id"].text ?? ""
        return PostRecord(id: id, sessionID: r["session_id"].text ?? "", author: try cipher.openRequired(r["author_enc"], ctx("posts.author", id)),
                          createdAt: r["created_at"].int ?? 0, datedAhead: r["dated_ahead"].int,
                          url: try cipher.openRequired(r["url_enc"], ctx("posts.url", id)),
                          note: try cipher.open(r["note_enc"], ctx("posts.note", id)),
                          wrapIDs: RecordCodec.commaList(r["wrap_ids"].text ?? ""),
                          arrivals: RecordCodec.arrivals(r["arrivals"].text ?? ""), readAt: r["read_at"].int,
                          notified: r["notified"].int == 1, status: .visible)
    }

    func decodeReaction(_ r: Row) throws -> ReactionRecord {
        let id = r["rumor_id"].text ?? ""
        return ReactionRecord(id: id, sessionID: r["session_id"].text ?? "", postID: r["post_id"].text ?? "",
                              emoji: try cipher.openRequired(r["emoji_enc"], ctx("reactions.emoji", id)),
                              author: try cipher.openRequired(r["author_enc"], ctx("reactions.author", id)), active: r["active"].int == 1,
                              createdAt: r["created_at"].int ?? 0, arrivals: RecordCodec.arrivals(r["arrivals"].text ?? ""),
                              notified: r["notified"].int == 1, status: .visible)
    }

    public func contacts() throws -> [Contact] { try db.read { try contacts($0) } }

    func followWatermark(_ c: Connection) throws -> LWWStamp? {
        guard let r = try c.query("SELECT follow_watermark_at, follow_watermark_id FROM account_state WHERE owner = ?", [o]).first,
              let at = r["follow_watermark_at"].int else { return nil }
        return LWWStamp(createdAt: at, eventID: r["follow_watermark_id"].text ?? "")
    }

    func contacts(_ c: Connection) throws -> [Contact] {
        try c.query("SELECT * FROM contacts WHERE owner = ?", [o]).compactMap { r -> Contact? in
            let ref = r["pubkey_ref"].text ?? ""
            return try readable("contacts", ref) {
                Contact(pubkey: try cipher.openRequired(r["pubkey_enc"], ctx("contacts.pubkey", ref)),
                        alias: try cipher.open(r["alias_enc"], ctx("contacts.alias", ref)))
            }
        }.sorted { $0.pubkey < $1.pubkey }
    }

    /// The session's list row plus its members and membership intervals, materialized from the timeline.
    func writeSessionRow(_ s: SessionRecord, membersChanged: Bool, _ c: Connection) throws {
        let d = s.derived
        try c.run("""
            INSERT INTO sessions (owner, session_id, name_enc, creator_enc, members_enc, is_member, updated_at, listed, archived) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (owner, session_id) DO UPDATE SET name_enc = excluded.name_enc, creator_enc = excluded.creator_enc,
                members_enc = excluded.members_enc, is_member = excluded.is_member, updated_at = excluded.updated_at,
                listed = excluded.listed, archived = excluded.archived
            """, [o, .text(s.id), cipher.seal(d.name, ctx("sessions.name", s.id)), cipher.seal(d.creator, ctx("sessions.creator", s.id)),
                  cipher.seal(d.currentMembers.joined(separator: ","), ctx("sessions.members", s.id)),
                  .integer(d.currentMembers.contains(owner) ? 1 : 0), .integer(d.timeline.last?.createdAt ?? 0),
                  .integer(s.isListed ? 1 : 0), .integer(s.archived ? 1 : 0)])
        guard membersChanged || d.deleted else { return }
        try c.run("DELETE FROM session_members WHERE owner = ? AND session_id = ?", [o, .text(s.id)])
        try c.run("DELETE FROM membership_intervals WHERE owner = ? AND session_id = ?", [o, .text(s.id)])
        // A deleted session keeps no members, intervals or list state (wire 2026 §1.4).
        if d.deleted {
            try c.run("UPDATE sessions SET archived = 0, unread = 0, last_post_id = NULL, last_author_enc = NULL, last_url_enc = NULL WHERE owner = ? AND session_id = ?", [o, .text(s.id)])
            // Its links' page titles too: a cache, fetched again if another session shows the same link.
            let refs = try c.query("SELECT post_id, url_enc FROM posts WHERE owner = ? AND session_id = ?", [o, .text(s.id)]).map { r in
                cipher.reference(try cipher.openRequired(r["url_enc"], ctx("posts.url", r["post_id"].text ?? "")))
            }
            if !refs.isEmpty { _ = try c.query(in: refs, "DELETE FROM link_metadata WHERE owner = ? AND url_ref IN (%@)", leading: [o]) }
            try c.run("DELETE FROM drafts WHERE owner = ? AND session_id = ?", [o, .text(s.id)])
            return
        }
        let spans = d.memberIntervals
        for v in spans.intervals { try insertInterval(s.id, v.member, v.start, v.end, c) }
        for (m, at) in spans.lastChange {
            let ref = cipher.reference(m)
            try c.run("INSERT INTO session_members (owner, session_id, member_ref, member_enc, active, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                       [o, .text(s.id), .text(ref), cipher.seal(m, ctx("session_members.member", s.id + "/" + ref)),
                        .integer(spans.active.contains(m) ? 1 : 0), .integer(at)])
        }
    }

    private func insertInterval(_ sid: String, _ member: Pubkey, _ start: Int64, _ end: Int64?, _ c: Connection) throws {
        let ref = cipher.reference(member)
        try c.run("INSERT INTO membership_intervals (owner, session_id, member_ref, member_enc, start_at, end_at) VALUES (?, ?, ?, ?, ?, ?)",
                   [o, .text(sid), .text(ref), cipher.seal(member, ctx("membership_intervals.member", "\(sid)/\(ref)/\(start)")),
                    .integer(start), end.map { .integer($0) } ?? .null])
    }
}
