/// The ingest rules (wire document §11, with the corrections of §14 and the later behaviour of §15).
///
/// Design: the visible result is a function of the *set* of messages received, whatever their order.
/// - Every well-formed snapshot is kept; the creator, name and membership timeline are derived from all
///   of them (`SessionDerivation`), so an out-of-order snapshot changes the derivation, never loses history.
/// - Roots and reactions that fail a check which later messages could change (unknown session, membership,
///   missing root) are staged, and re-evaluated whenever their session's derivation changes or their root
///   appears. A post accepted under partial knowledge is staged again if a late snapshot shows its author
///   was not a member.
/// - A post id is a hash over its author, so a delete notice can only ever match one author: notices are
///   stored until the root is known, then either validated (post, reactions and staged reactions dropped;
///   the tombstone persists) or discarded.
extension AccountState {
    public mutating func ingest(_ m: InboundMessage, restoringHistory: Bool = false) -> IngestReport {
        var tx = IngestTransaction(restoringHistory: restoringHistory, quiet: false)
        let outcome: IngestOutcome
        switch m.payload.kind {
        case .sessionCreate, .sessionMembers: outcome = ingestSnapshot(m, &tx)
        case .sessionDelete: outcome = ingestSessionDeletion(m, &tx)
        case .root: outcome = ingestRoot(m, &tx)
        case .reaction: outcome = ingestReaction(m, &tx)
        case .rootDelete: outcome = ingestRootDelete(m, &tx)
        }
        return IngestReport(outcome: outcome, changes: tx.changes(from: self), notifications: tx.notifications)
    }

    // MARK: snapshots

    private mutating func ingestSnapshot(_ m: InboundMessage, _ tx: inout IngestTransaction) -> IngestOutcome {
        let sid = m.payload.conversationID
        let members = m.payload.memberPubkeys ?? []
        let isCreate = m.payload.kind == .sessionCreate
        guard members.contains(m.sender) else { return .ignored(.senderNotInMembers) }
        if isCreate && !members.contains(me) { return .ignored(.selfNotInMembers) }
        if sessions[sid]?.snapshots[m.rumorID] != nil { return .duplicate }
        let snapshot = Snapshot(rumorID: m.rumorID, sessionID: sid, author: m.sender, createdAt: m.createdAt,
                                isCreate: isCreate, members: members, name: m.payload.sessionName)
        sessions[sid, default: SessionRecord(id: sid)].snapshots[m.rumorID] = snapshot
        tx.newSnapshots.append(snapshot)
        rederive(sid, &tx)
        let derived = sessions[sid]!.derived
        guard derived.exists else { return .pending(.sessionUnknown) }
        if derived.deleted { return .ignored(.sessionDeleted) }
        return snapshot.author == derived.creator ? .applied : .ignored(.nonCreator)
    }

    private mutating func ingestSessionDeletion(_ m: InboundMessage, _ tx: inout IngestTransaction) -> IngestOutcome {
        let sid = m.payload.conversationID
        if sessions[sid]?.deletions[m.rumorID] != nil { return .duplicate }
        let deletion = SessionDeletion(rumorID: m.rumorID, sessionID: sid, author: m.sender, createdAt: m.createdAt)
        sessions[sid, default: SessionRecord(id: sid)].deletions[m.rumorID] = deletion
        tx.newDeletions.append(deletion)
        rederive(sid, &tx)
        let derived = sessions[sid]!.derived
        guard derived.exists else { return .pending(.sessionUnknown) }
        return derived.deleted ? .applied : .ignored(.nonCreator)
    }

    /// Recomputes what a session's snapshots mean and re-checks its content when that changed.
    mutating func rederive(_ sid: String, _ tx: inout IngestTransaction) {
        guard var session = sessions[sid] else { return }
        let old = session.derived
        session.derived = SessionDerivation.derive(me: me, snapshots: session.snapshots, deletions: session.deletions)
        sessions[sid] = session
        tx.sessions.insert(sid)
        guard session.derived != old else { return }
        // A deleted session's content is hidden, not dropped: should a late, earlier `session_create`
        // show that the deleter was not the creator after all, everything must still be there.
        for id in (postsBySession[sid] ?? []).sorted() { reevaluatePost(id, &tx) }
        for id in (reactionsBySession[sid] ?? []).sorted() { reevaluateReaction(id, &tx) }
    }

    // MARK: roots

    private mutating func ingestRoot(_ m: InboundMessage, _ tx: inout IngestTransaction) -> IngestOutcome {
        let id = m.rumorID
        let sid = m.payload.conversationID
        if var existing = posts[id] {
            var changed = existing.arrivals.add(source: m.source, at: m.receivedAt)
            for w in m.wrapIDs where !existing.wrapIDs.contains(w) { existing.wrapIDs.append(w); changed = true }
            existing.wrapIDs.sort()
            guard changed else { return .duplicate }
            posts[id] = existing
            tx.posts.insert(id)
            reevaluatePost(id, &tx)
            return .duplicate
        }
        if deletedPostIDs.contains(id) { return .ignored(.postDeleted) }
        if !m.payload.rootID.isEmpty && m.payload.rootID != id { return .ignored(.rootIDMismatch) }
        guard let url = m.payload.url, WebURL.normalized(url) != nil else { return .ignored(.invalidURL) }

        // Delete notices waiting for this root: the one from its author validates, the others never can.
        for key in tombstonesByPost[id] ?? [] where key.deleter != m.sender || key.sessionID != sid {
            removeTombstone(key, &tx)
        }
        if let key = tombstonesByPost[id]?.first {
            validateDeletion(key, &tx)
            return .ignored(.postDeleted)
        }

        let readAt: Int64? = tx.restoringHistory && m.source == .historical ? m.createdAt : nil
        posts[id] = PostRecord(id: id, sessionID: sid, author: m.sender, createdAt: m.createdAt, url: url, note: m.payload.note,
                               wrapIDs: Array(Set(m.wrapIDs)).sorted(), arrivals: Arrivals(source: m.source, at: m.receivedAt), readAt: readAt,
                               notified: false, status: .pending(.sessionUnknown))
        postsBySession[sid, default: []].insert(id)
        tx.posts.insert(id)
        reevaluatePost(id, &tx, force: true)
        return outcome(for: posts[id]!.status)
    }

    func evaluatePost(_ p: PostRecord) -> CandidateStatus {
        guard let session = sessions[p.sessionID], session.derived.exists else { return .pending(.sessionUnknown) }
        if session.derived.deleted { return .pending(.sessionDeleted) }
        guard passesGate(author: p.author, createdAt: p.createdAt, arrivals: p.arrivals, session.derived) else {
            return .pending(.membership)
        }
        return .visible
    }

    mutating func reevaluatePost(_ id: String, _ tx: inout IngestTransaction, force: Bool = false) {
        guard var p = posts[id] else { return }
        let status = evaluatePost(p)
        guard status != p.status || force else { return }
        p.status = status
        if status.isVisible, !p.notified {
            p.notified = true
            if !tx.quiet, p.arrivals.hasLive, p.author != me, !tx.restoringHistory, sessions[p.sessionID]?.archived != true {
                tx.notifications.append(.post(postID: id, sessionID: p.sessionID, author: p.author))
            }
        }
        posts[id] = p
        tx.posts.insert(id)
        for r in (reactionsByPost[id] ?? []).sorted() { reevaluateReaction(r, &tx) }
    }

    // MARK: reactions

    private mutating func ingestReaction(_ m: InboundMessage, _ tx: inout IngestTransaction) -> IngestOutcome {
        let id = m.rumorID
        let postID = m.payload.rootID
        if var existing = reactions[id] {
            guard existing.arrivals.add(source: m.source, at: m.receivedAt) else { return .duplicate }
            reactions[id] = existing
            tx.reactions.insert(id)
            reevaluateReaction(id, &tx)
            return .duplicate
        }
        if deletedPostIDs.contains(postID) { return .ignored(.postDeleted) }
        let sid = m.payload.conversationID
        reactions[id] = ReactionRecord(id: id, sessionID: sid, postID: postID, emoji: m.payload.emoji ?? "", author: m.sender,
                                       active: m.payload.reactionActive ?? false, createdAt: m.createdAt,
                                       arrivals: Arrivals(source: m.source, at: m.receivedAt), notified: false,
                                       status: .pending(.sessionUnknown))
        reactionsByPost[postID, default: []].insert(id)
        reactionsBySession[sid, default: []].insert(id)
        tx.reactions.insert(id)
        reevaluateReaction(id, &tx, force: true)
        return outcome(for: reactions[id]!.status)
    }

    func evaluateReaction(_ r: ReactionRecord) -> CandidateStatus {
        guard let session = sessions[r.sessionID], session.derived.exists else { return .pending(.sessionUnknown) }
        if session.derived.deleted { return .pending(.sessionDeleted) }
        guard passesGate(author: r.author, createdAt: r.createdAt, arrivals: r.arrivals, session.derived) else {
            return .pending(.membership)
        }
        guard let post = posts[r.postID], post.sessionID == r.sessionID, post.status.isVisible else { return .pending(.rootMissing) }
        return .visible
    }

    mutating func reevaluateReaction(_ id: String, _ tx: inout IngestTransaction, force: Bool = false) {
        guard var r = reactions[id] else { return }
        let status = evaluateReaction(r)
        guard status != r.status || force else { return }
        r.status = status
        if status.isVisible, !r.notified {
            r.notified = true
            if !tx.quiet, r.active, r.arrivals.hasLive, r.author != me, !tx.restoringHistory, sessions[r.sessionID]?.archived != true {
                tx.notifications.append(.reaction(reactionID: id, postID: r.postID, sessionID: r.sessionID, author: r.author, emoji: r.emoji))
            }
        }
        reactions[id] = r
        tx.reactions.insert(id)
    }

    // MARK: deletes

    private mutating func ingestRootDelete(_ m: InboundMessage, _ tx: inout IngestTransaction) -> IngestOutcome {
        let postID = m.payload.rootID
        let sid = m.payload.conversationID
        let key = TombstoneKey(sessionID: sid, postID: postID, deleter: m.sender)
        let stamp = LWWStamp(createdAt: m.createdAt, eventID: m.rumorID)
        if deletedPostIDs.contains(postID) {
            guard var t = tombstones[key] else { return .ignored(.postDeleted) }
            if LWWStamp.shouldApply(stamp, over: t.stamp) { t.stamp = stamp; tombstones[key] = t; tx.tombstones.insert(key) }
            return .duplicate
        }
        if let post = posts[postID] {
            guard post.author == m.sender, post.sessionID == sid else { return .ignored(.deleterMismatch) }
            storeTombstone(key, stamp, &tx)
            validateDeletion(key, &tx)
            return .applied
        }
        let known = tombstones[key] != nil
        storeTombstone(key, stamp, &tx)
        return known ? .duplicate : .pending(.rootMissing)
    }

    private mutating func storeTombstone(_ key: TombstoneKey, _ stamp: LWWStamp, _ tx: inout IngestTransaction) {
        if var t = tombstones[key] {
            guard LWWStamp.shouldApply(stamp, over: t.stamp) else { return }
            t.stamp = stamp
            tombstones[key] = t
        } else {
            tombstones[key] = Tombstone(key: key, stamp: stamp, validated: false)
            tombstonesByPost[key.postID, default: []].insert(key)
        }
        tx.tombstones.insert(key)
    }

    private mutating func removeTombstone(_ key: TombstoneKey, _ tx: inout IngestTransaction) {
        tombstones.removeValue(forKey: key)
        tombstonesByPost[key.postID]?.remove(key)
        tx.tombstones.insert(key)
    }

    /// The author deleted the post: drop it and every reaction to it, staged ones included.
    private mutating func validateDeletion(_ key: TombstoneKey, _ tx: inout IngestTransaction) {
        tombstones[key]?.validated = true
        tx.tombstones.insert(key)
        deletedPostIDs.insert(key.postID)
        if let p = posts.removeValue(forKey: key.postID) {
            postsBySession[p.sessionID]?.remove(p.id)
            tx.posts.insert(p.id)
        }
        for id in reactionsByPost.removeValue(forKey: key.postID) ?? [] {
            if let r = reactions.removeValue(forKey: id) { reactionsBySession[r.sessionID]?.remove(id) }
            tx.reactions.insert(id)
        }
    }

    // MARK: the membership gate

    /// Author and self active at the rumor's time; for live arrivals also at the time it arrived.
    /// Backfilled and own messages skip the "now" check, so history from since-removed members restores.
    func passesGate(author: Pubkey, createdAt: Int64, arrivals: Arrivals, _ d: SessionDerivation) -> Bool {
        guard d.isActive(author, at: createdAt), d.isActive(me, at: createdAt) else { return false }
        if arrivals.trusted { return true }
        return arrivals.liveAt.contains { d.isActive(author, at: $0) && d.isActive(me, at: $0) }
    }

    private func outcome(for status: CandidateStatus) -> IngestOutcome {
        switch status {
        case .visible: return .applied
        case .pending(.sessionDeleted): return .ignored(.sessionDeleted)
        case .pending(let reason): return .pending(reason)
        }
    }
}

/// What one ingest touched, turned into row changes at the end.
struct IngestTransaction {
    let restoringHistory: Bool
    /// Re-evaluation at start-up: never notify.
    let quiet: Bool
    var sessions: Set<String> = []
    var posts: Set<String> = []
    var reactions: Set<String> = []
    var tombstones: Set<TombstoneKey> = []
    var newSnapshots: [Snapshot] = []
    var newDeletions: [SessionDeletion] = []
    var notifications: [InboundNotification] = []

    func changes(from state: AccountState) -> [StoreChange] {
        var out = [StoreChange]()
        out += newSnapshots.map { .snapshot($0) }
        out += newDeletions.map { .sessionDeletion($0) }
        for id in sessions.sorted() { if let s = state.sessions[id] { out.append(.session(s)) } }
        for key in tombstones.sorted(by: { ($0.postID, $0.deleter, $0.sessionID) < ($1.postID, $1.deleter, $1.sessionID) }) {
            out.append(state.tombstones[key].map { .tombstone($0) } ?? .tombstoneRemoved(key))
        }
        for id in posts.sorted() { out.append(state.posts[id].map { .post($0) } ?? .postRemoved(id: id)) }
        for id in reactions.sorted() { out.append(state.reactions[id].map { .reaction($0) } ?? .reactionRemoved(id: id)) }
        return out
    }
}
