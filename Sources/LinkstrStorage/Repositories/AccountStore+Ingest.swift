import LinkstrDomain

/// Writing through the ingest rules, and the local-only changes (archive, read, aliases).
extension AccountStore {
    /// Ingests one batch in a single transaction, together with the gift wraps it consumed, so that a
    /// crash never leaves half a change and a restart never opens those wraps again.
    public func ingest(_ messages: [InboundMessage], restoringHistory: Bool = false, processedWraps: [String] = [],
                       now: Int64) throws -> [IngestReport] {
        try ingest(messages, restoringHistory: restoringHistory, wraps: processedWraps.map { ProcessedWrap(id: $0) }, now: now)
    }

    /// The same, with each wrap's `created_at` when it was addressed to us (NIP-77's local set).
    public func ingest(_ messages: [InboundMessage], restoringHistory: Bool = false, wraps processedWraps: [ProcessedWrap],
                       now: Int64) throws -> [IngestReport] {
        try writing { scope in try ingest(messages, restoringHistory: restoringHistory, wraps: processedWraps, now: now, scope) }
    }

    /// The ingest's body, inside a caller's transaction (the send queue applies and queues in one).
    func ingest(_ messages: [InboundMessage], restoringHistory: Bool, wraps processedWraps: [ProcessedWrap], now: Int64,
                _ scope: WriteScope) throws -> [IngestReport] {
        var store = SQLiteIngestStore(scope: scope, store: self)
        store.absent = try IngestAbsence(for: messages, owner: o, scope.c)
        var reports = [IngestReport]()
        reports.reserveCapacity(messages.count)
        var touched = Set<String>()
        for m in messages {
            let r = try store.ingest(m, restoringHistory: restoringHistory)
            touched.formUnion(r.touchedSessions)
            reports.append(r)
        }
        // Archive records that arrived before their session (wire 2026 §3.6).
        try applyWaitingPreferences(touched.sorted().map { "archive:" + $0 }, scope)
        for sid in touched.sorted() { try refreshAggregates(sid, scope) }
        try insertProcessed(processedWraps, now: now, scope.c)
        return reports
    }

    /// Records that this device sent `postIDs`, in this order (after those it sent before): posts of the
    /// same second then list in the order they were sent.
    public func markSent(_ postIDs: [String]) throws {
        guard !postIDs.isEmpty else { return }
        try db.write { c in try markSent(postIDs, c) }
    }

    func markSent(_ postIDs: [String], _ c: Connection) throws {
        var next = (try c.scalar("SELECT COALESCE(MAX(sent_seq), 0) FROM posts WHERE owner = ?", [o]).int ?? 0) + 1
        for id in postIDs {
            try c.run("UPDATE posts SET sent_seq = ? WHERE owner = ? AND post_id = ? AND sent_seq = 0", [.integer(next), o, .text(id)])
            next += 1
        }
    }

    /// A kind-3 follow list from our own key.
    public func ingestFollowList(author: Pubkey, createdAt: Int64, eventID: String, tags: [[String]], wrapOrEventID: String? = nil,
                                 now: Int64) throws -> FollowListOutcome {
        try writing { scope in
            var store = SQLiteIngestStore(scope: scope, store: self)
            let outcome = try store.ingestFollowList(author: author, createdAt: createdAt, eventID: eventID, tags: tags)
            // The applied list's tags, verbatim: the next edit republishes them (wire 2026 §7.1).
            if outcome == .applied {
                try setSetting(.followListTags, try RecordCodec.tagsText(tags), scope.c)
                // Alias records that arrived before their contact.
                try applyWaitingPreferences(try contacts(scope.c).map { "alias:" + $0.pubkey }, scope)
            }
            return outcome
        }
    }

    /// Our applied follow list: its tags (a list stored before tags were kept: one `p` tag per contact)
    /// and its stamp (nil when none was ever applied).
    public func ownFollowList() throws -> (tags: [[String]], stamp: LWWStamp?) {
        try db.read { c in
            let stamp = try followWatermark(c)
            let stored = try cipher.open(try c.scalar("SELECT value_enc FROM settings WHERE owner = ? AND key = ?",
                                                      [o, .text(Setting.followListTags.rawValue)]), ctx("settings", Setting.followListTags.rawValue))
            if let stored, let tags = RecordCodec.tags(stored) { return (tags, stamp) }
            return (try contacts(c).map { ["p", $0.pubkey] }, stamp)
        }
    }

    /// After our own follow list was accepted by relays.
    public func replaceContacts(_ keys: [Pubkey], stamp: LWWStamp) throws {
        try writing { scope in
            var store = SQLiteIngestStore(scope: scope, store: self)
            try store.replaceContacts(keys, stamp: stamp)
        }
    }

    @discardableResult
    public func setAlias(_ pubkey: Pubkey, _ alias: String?) throws -> Bool {
        try writing { scope in
            var store = SQLiteIngestStore(scope: scope, store: self)
            return try store.setAlias(pubkey, alias)
        }
    }

    /// Archive is local and never on the wire.
    public func setArchived(_ sessionID: String, _ archived: Bool) throws {
        try writing { scope in
            var store = SQLiteIngestStore(scope: scope, store: self)
            guard var s = try store.session(sessionID), s.isListed else { throw StorageError.corrupt("no such session") }
            s.archived = archived
            try store.setSession(s)
        }
    }

    /// Accepting or declining a session request is local and never on the wire.
    public func setRequestDecision(_ sessionID: String, _ decision: RequestDecision) throws {
        try db.write { c in
            try c.run("UPDATE sessions SET request_decision = ? WHERE owner = ? AND session_id = ? AND listed = 1",
                      [.integer(Int64(decision.rawValue)), o, .text(sessionID)])
            guard c.changes == 1 else { throw StorageError.corrupt("no such session") }
        }
    }

    /// Marks one inbound post read.
    public func markRead(postID: String, now: Int64) throws {
        try writing { scope in
            try scope.c.run("UPDATE posts SET read_at = ? WHERE owner = ? AND post_id = ? AND inbound = 1 AND read_at IS NULL", [.integer(now), o, .text(postID)])
            if let sid = try scope.c.scalar("SELECT session_id FROM posts WHERE owner = ? AND post_id = ?", [o, .text(postID)]).text {
                try refreshAggregates(sid, scope)
            }
        }
    }

    /// Opening a session marks its visible inbound posts read (readme v2).
    public func markSessionRead(_ sessionID: String, now: Int64) throws {
        try writing { scope in
            try scope.c.run("UPDATE posts SET read_at = ? WHERE owner = ? AND session_id = ? AND inbound = 1 AND read_at IS NULL",
                            [.integer(now), o, .text(sessionID)])
            try refreshAggregates(sessionID, scope)
        }
    }

    /// The list row's newest activity and unread count, from its visible posts: the newest by the order
    /// index, the count from the index of unread posts (migration 13), whatever the session's size.
    func refreshAggregates(_ sessionID: String, _ scope: WriteScope) throws {
        guard let session = try scope.session(sessionID) else { return }
        let c = scope.c
        // The newest post's sealed author and link ride along on the row (see migration 10).
        let newest = try c.query("""
            SELECT post_id, created_at, author_enc, url_enc FROM posts WHERE owner = ? AND session_id = ?
            ORDER BY created_at DESC, sent_seq DESC, post_id DESC LIMIT 1
            """, [o, .text(sessionID)]).first
        let unread = try c.scalar("SELECT count(*) FROM posts WHERE owner = ? AND session_id = ? AND inbound = 1 AND read_at IS NULL",
                                  [o, .text(sessionID)]).int ?? 0
        let last = max(newest?["created_at"].int ?? 0, session.derived.timeline.last?.createdAt ?? 0)
        try c.run("UPDATE sessions SET last_activity_at = ?, unread = ?, last_post_id = ?, last_author_enc = ?, last_url_enc = ? WHERE owner = ? AND session_id = ?",
                    [.integer(last), .integer(unread), newest?["post_id"] ?? .null, newest?["author_enc"] ?? .null,
                     newest?["url_enc"] ?? .null, o, .text(sessionID)])
    }
}
