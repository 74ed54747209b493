import LinkstrDomain

/// What the front ends read: list rows from the materialized `sessions` table, posts a page at a time.
extension AccountStore {
    /// Listed sessions, newest activity first.
    public func sessionSummaries(archived: Bool? = false) throws -> [SessionSummary] { try summaries(archived: archived, id: nil) }

    /// One listed session's row (one indexed lookup: a feed opens without reading every session).
    public func sessionSummary(_ id: String) throws -> SessionSummary? { try summaries(archived: nil, id: id).first }

    /// The listed rows among `ids` (a session not returned is not listed any more), in one query per
    /// 500 ids: what a batch of news changed, without reading every session.
    public func sessionSummaries(ids: some Collection<String>) throws -> [SessionSummary] {
        let sql = """
            SELECT session_id, name_enc, creator_enc, members_enc, is_member, archived, unread, last_activity_at,
                   last_post_id, request_decision, last_author_enc, last_url_enc FROM sessions
            WHERE owner = ? AND listed = 1 AND session_id IN (%@)
            """
        return try db.read { c in try c.query(in: Array(ids), sql, leading: [o], chunk: 500) }.compactMap { r in
            let id = r["session_id"].text ?? ""
            return try readable("sessions", id) { try summary(r, id) }
        }
    }

    private func summaries(archived: Bool?, id: String?) throws -> [SessionSummary] {
        var sql = """
            SELECT session_id, name_enc, creator_enc, members_enc, is_member, archived, unread, last_activity_at,
                   last_post_id, request_decision, last_author_enc, last_url_enc FROM sessions
            WHERE owner = ? AND listed = 1
            """
        var params: [SQLValue] = [o]
        if let archived { sql += " AND archived = ?"; params.append(.integer(archived ? 1 : 0)) }
        if let id { sql += " AND session_id = ?"; params.append(.text(id)) }
        sql += " ORDER BY last_activity_at DESC, session_id DESC"
        return try db.query(sql, params).compactMap { r in
            let id = r["session_id"].text ?? ""
            return try readable("sessions", id) { try summary(r, id) }
        }
    }

    private func summary(_ r: Row, _ id: String) throws -> SessionSummary {
        let name = try cipher.open(r["name_enc"], ctx("sessions.name", id)) ?? ""
        let members = RecordCodec.commaList(try cipher.open(r["members_enc"], ctx("sessions.members", id)) ?? "")
        var summary = SessionSummary(id: id, name: name.isEmpty ? "untitled session" : name,
                                     creator: try cipher.open(r["creator_enc"], ctx("sessions.creator", id)) ?? "",
                                     members: members, isMember: r["is_member"].int == 1, archived: r["archived"].int == 1,
                                     unread: (r["unread"].int ?? 0) > 0, lastActivityAt: r["last_activity_at"].int ?? 0)
        summary.unreadCount = Int(r["unread"].int ?? 0)
        if let postID = r["last_post_id"].text,
           let author = try cipher.open(r["last_author_enc"], ctx("posts.author", postID)),
           let url = try cipher.open(r["last_url_enc"], ctx("posts.url", postID)) {
            summary.lastPost = SessionSummary.LastPost(author: author, url: url)
        }
        summary.decision = RequestDecision(rawValue: Int(r["request_decision"].int ?? 0)) ?? .undecided
        return summary
    }

    /// The full session record (snapshots and derivation), for the members view and send rules.
    public func session(_ id: String) throws -> SessionRecord? { try committedSessions()[id] }

    /// A page of visible posts, newest first; `before` continues after the last post of the previous page.
    /// Ties within one second are ordered as this device sent them, then by id, so the order is the
    /// same on every load.
    public func postPage(in sessionID: String, limit: Int = 50, before: (createdAt: Int64, id: String)? = nil) throws -> [PostView] {
        // One snapshot: the page and its reactions agree even while a sync batch commits.
        let (posts, reactions) = try db.read { c in
            var sql = "SELECT * FROM posts WHERE owner = ? AND session_id = ?"
            var params: [SQLValue] = [o, .text(sessionID)]
            if let before {
                let seq = try c.scalar("SELECT sent_seq FROM posts WHERE owner = ? AND post_id = ?", [o, .text(before.id)]).int ?? 0
                sql += " AND (created_at < ? OR (created_at = ? AND (sent_seq < ? OR (sent_seq = ? AND post_id < ?))))"
                params += [.integer(before.createdAt), .integer(before.createdAt), .integer(seq), .integer(seq), .text(before.id)]
            }
            sql += " ORDER BY created_at DESC, sent_seq DESC, post_id DESC LIMIT ?"
            params.append(.integer(Int64(limit)))
            let posts = try c.query(sql, params).compactMap(readablePost)
            return (posts, try reactionStates(postIDs: posts.map(\.id), c))
        }
        return posts.map { PostView(post: $0, unread: $0.author != owner && $0.readAt == nil,
                                    reactions: ReactionTally.summaries(reactions[$0.id] ?? [], me: owner)) }
    }

    public func postView(_ id: String) throws -> PostView? {
        try db.read { c in
            guard let row = try c.query("SELECT * FROM posts WHERE owner = ? AND post_id = ?", [o, .text(id)]).first else { return nil }
            guard let p = try readablePost(row) else { return nil }
            return PostView(post: p, unread: p.author != owner && p.readAt == nil,
                            reactions: ReactionTally.summaries(try reactionStates(postIDs: [id], c)[id] ?? [], me: owner))
        }
    }

    /// Several posts by id, from one snapshot (search results); ids with no visible post are left out.
    public func postViews(_ ids: [String]) throws -> [String: PostView] {
        guard !ids.isEmpty else { return [:] }
        return try db.read { c in
            let posts = try c.query(in: ids, "SELECT * FROM posts WHERE owner = ? AND post_id IN (%@)", leading: [o]).compactMap(readablePost)
            let reactions = try reactionStates(postIDs: posts.map(\.id), c)
            return Dictionary(posts.map { p in
                (p.id, PostView(post: p, unread: p.author != owner && p.readAt == nil,
                                reactions: ReactionTally.summaries(reactions[p.id] ?? [], me: owner)))
            }, uniquingKeysWith: { a, _ in a })
        }
    }

    /// The newest accepted toggle per (emoji, author) for each post.
    public func reactionStates(postIDs: [String]) throws -> [String: [ReactionRecord]] {
        guard !postIDs.isEmpty else { return [:] }
        return try db.read { try reactionStates(postIDs: postIDs, $0) }
    }

    func reactionStates(postIDs: [String], _ c: Connection) throws -> [String: [ReactionRecord]] {
        var out = [String: [ReactionRecord]]()
        for r in try c.query(in: postIDs, "SELECT * FROM reactions WHERE owner = ? AND post_id IN (%@)", leading: [o]) {
            guard let reaction = try readable("reactions", r["rumor_id"].text ?? "", { try decodeReaction(r) }) else { continue }
            out[reaction.postID, default: []].append(reaction)
        }
        return out.mapValues(ReactionTally.winners)
    }

    public func isMyReactionActive(postID: String, emoji: String) throws -> Bool { try myReaction(postID: postID, emoji: emoji)?.active == true }

    /// Our current (last-writer-wins) reaction with `emoji` on the post, on or off; nil if we never reacted so.
    public func myReaction(postID: String, emoji: String) throws -> ReactionRecord? {
        (try reactionStates(postIDs: [postID])[postID] ?? []).first { $0.emoji == emoji && $0.author == owner }
    }

    public func membershipChanges(in sessionID: String) throws -> [MembershipChange] {
        MembershipChange.changes(in: try committedSessions()[sessionID]?.derived.timeline ?? [])
    }

    /// The gift-wrap ids of every stored root post of the session, in store order, each once (for the
    /// relay deletion request that follows a session delete).
    public func rootWrapIDs(inSession sessionID: String) throws -> [String] {
        var seen = Set<String>()
        return try db.query("SELECT wrap_ids FROM posts WHERE owner = ? AND session_id = ? ORDER BY created_at, sent_seq, post_id",
                            [o, .text(sessionID)])
            .flatMap { RecordCodec.commaList($0["wrap_ids"].text ?? "") }
            .filter { seen.insert($0).inserted }
    }

    public func postCount(in sessionID: String) throws -> Int {
        Int(try db.scalar("SELECT count(*) FROM posts WHERE owner = ? AND session_id = ?", [o, .text(sessionID)]).int ?? 0)
    }

    /// Everything a user can see, as one value; equal to `AccountState.visibleState` for the same messages.
    public func visibleState() throws -> VisibleState {
        let listed = try sessionSummaries(archived: nil)
        var posts = [String: [PostView]]()
        var reactionStates = [String: [String]]()
        var changes = [String: [MembershipChange]]()
        for s in listed {
            let page = try postPage(in: s.id, limit: Int(Int32.max))
            posts[s.id] = page
            let states = try self.reactionStates(postIDs: page.map(\.id))
            for p in page { reactionStates[p.id] = (states[p.id] ?? []).map { "\($0.emoji)/\($0.author)/\($0.active)" } }
            changes[s.id] = try membershipChanges(in: s.id)
        }
        return VisibleState(sessions: listed, posts: posts, reactionStates: reactionStates, membershipChanges: changes, contacts: try contacts())
    }
}

/// What search reads: every post of the listed sessions, opened in memory.
extension AccountStore {
    /// The listed sessions' ids, for reading their posts a few sessions at a time.
    public func listedSessionIDs() throws -> [String] {
        try db.query("SELECT session_id FROM sessions WHERE owner = ? AND listed = 1", [o]).compactMap { $0["session_id"].text }
    }

    /// The posts of `sessionIDs` (all listed sessions when nil), with their cached page titles.
    public func searchDocuments(sessionIDs: [String]? = nil) throws -> [SearchDocument] {
        let rows = try db.read { c -> [Row] in
            let base = """
                SELECT p.post_id, p.session_id, p.created_at, p.sent_seq, p.url_enc, p.note_enc FROM posts p
                JOIN sessions s ON s.owner = p.owner AND s.session_id = p.session_id AND s.listed = 1
                WHERE p.owner = ?
                """
            guard let sessionIDs else { return try c.query(base, [o]) }
            return try c.query(in: sessionIDs, base + " AND p.session_id IN (%@)", leading: [o])
        }
        var documents = [SearchDocument]()
        documents.reserveCapacity(rows.count)
        for r in rows {
            let id = r["post_id"].text ?? ""
            guard let document = try readable("posts", id, {
                SearchDocument(postID: id, sessionID: r["session_id"].text ?? "", createdAt: r["created_at"].int ?? 0,
                               url: try cipher.openRequired(r["url_enc"], ctx("posts.url", id)),
                               note: try cipher.open(r["note_enc"], ctx("posts.note", id)), title: nil,
                               sentSeq: r["sent_seq"].int ?? 0)
            }) else { continue }
            documents.append(document)
        }
        let titles = try linkTitles(for: documents.map(\.url))
        if !titles.isEmpty { for i in documents.indices { documents[i].title = titles[documents[i].url] } }
        return documents
    }
}
