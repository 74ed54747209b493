/// The ingest rules (wire document §11, with the corrections of wire document §14 and the later behaviour of wire document §15).
///
/// Design: the visible result is a function of the *set* of messages received, whatever their order.
/// - Every well-formed snapshot is kept; the creator, name and membership timeline are derived from all
///   of them (`SessionDerivation`), so an out-of-order snapshot changes the derivation, never loses history.
/// - Roots and reactions that fail a check which later messages could change (unknown session, membership,
///   missing root, deleted session) are staged and re-evaluated whenever their session's derivation changes
///   or their root appears. A post accepted under partial knowledge is staged again if a late snapshot shows
///   its author was not a member.
/// - A post id is a hash over its author, so a delete notice can only ever match one author: notices are
///   stored until the root is known, then either validated (post, reactions and staged reactions dropped;
///   the tombstone persists) or discarded.
extension IngestStore {
    public mutating func ingest(_ m: InboundMessage, restoringHistory: Bool = false) throws -> IngestReport {
        var tx = IngestTransaction(restoringHistory: restoringHistory)
        let outcome: IngestOutcome
        switch m.payload.kind {
        case .sessionCreate, .sessionMembers: outcome = try ingestSnapshot(m, &tx)
        case .sessionDelete: outcome = try ingestSessionDeletion(m, &tx)
        case .root: outcome = try ingestRoot(m, &tx)
        case .reaction: outcome = try ingestReaction(m, &tx)
        case .rootDelete: outcome = try ingestRootDelete(m, &tx)
        }
        return IngestReport(outcome: outcome, notifications: tx.notifications, touchedSessions: tx.sessions)
    }

    // MARK: snapshots

    private mutating func ingestSnapshot(_ m: InboundMessage, _ tx: inout IngestTransaction) throws -> IngestOutcome {
        let sid = m.payload.conversationID
        let members = m.payload.memberPubkeys ?? []
        let isCreate = m.payload.kind == .sessionCreate
        guard members.contains(m.sender) else { return .ignored(.senderNotInMembers) }
        if isCreate && !members.contains(me) { return .ignored(.selfNotInMembers) }
        var session = try self.session(sid) ?? SessionRecord(id: sid)
        if session.snapshots[m.rumorID] != nil { return .duplicate }
        let snapshot = Snapshot(rumorID: m.rumorID, sessionID: sid, author: m.sender, createdAt: m.createdAt,
                                isCreate: isCreate, members: members, name: m.payload.sessionName)
        session.snapshots[m.rumorID] = snapshot
        try setSession(session)
        try rederive(sid, &tx)
        let derived = try self.session(sid)!.derived
        guard derived.exists else { return .pending(.sessionUnknown) }
        if derived.deleted { return .ignored(.sessionDeleted) }
        return snapshot.author == derived.creator ? .applied : .ignored(.nonCreator)
    }

    private mutating func ingestSessionDeletion(_ m: InboundMessage, _ tx: inout IngestTransaction) throws -> IngestOutcome {
        let sid = m.payload.conversationID
        var session = try self.session(sid) ?? SessionRecord(id: sid)
        if session.deletions[m.rumorID] != nil { return .duplicate }
        session.deletions[m.rumorID] = SessionDeletion(rumorID: m.rumorID, sessionID: sid, author: m.sender, createdAt: m.createdAt)
        try setSession(session)
        try rederive(sid, &tx)
        let derived = try self.session(sid)!.derived
        guard derived.exists else { return .pending(.sessionUnknown) }
        return derived.deleted ? .applied : .ignored(.nonCreator)
    }

    /// Recomputes what a session's snapshots mean and re-checks its content when that changed.
    /// A deleted session's content is hidden, not dropped: should a late, earlier `session_create` show
    /// that the deleter was not the creator after all, everything must still be there.
    mutating func rederive(_ sid: String, _ tx: inout IngestTransaction) throws {
        guard var session = try self.session(sid) else { return }
        let old = session.derived
        session.rederive(me: me)
        try setSession(session)
        tx.sessions.insert(sid)
        guard session.derived != old else { return }
        for id in try postIDs(inSession: sid) { try reevaluatePost(id, &tx) }
        for id in try reactionIDs(inSession: sid) { try reevaluateReaction(id, &tx) }
        // Deleted for good: its post tombstones go too (wire 2026 §1.4); the session's blocks all after.
        if session.derived.deletedForGood {
            for key in try tombstoneKeys(inSession: sid) { try removeTombstone(key) }
        }
    }

    // MARK: roots

    private mutating func ingestRoot(_ m: InboundMessage, _ tx: inout IngestTransaction) throws -> IngestOutcome {
        let id = m.rumorID
        let sid = m.payload.conversationID
        if var existing = try post(id) {
            var changed = existing.arrivals.add(source: m.source, at: m.receivedAt)
            for w in m.wrapIDs where !existing.wrapIDs.contains(w) { existing.wrapIDs.append(w); changed = true }
            guard changed else { return .duplicate }
            existing.wrapIDs.sort()
            let before = existing.status
            try settle(&existing, &tx)
            try keep(existing)
            if existing.status != before {
                for r in try reactionIDs(forPost: id) { try reevaluateReaction(r, &tx) }
            }
            return .duplicate
        }
        if try isPostDeleted(id) { return .ignored(.postDeleted) }
        if !m.payload.rootID.isEmpty && m.payload.rootID != id { return .ignored(.rootIDMismatch) }
        guard let url = m.payload.url, WebURL.normalized(url) != nil else { return .ignored(.invalidURL) }

        // Delete notices waiting for this root: the one from its author validates, the others never can.
        var matching: TombstoneKey?
        for key in try tombstoneKeys(forPost: id) {
            if key.deleter == m.sender && key.sessionID == sid { matching = key } else { try removeTombstone(key) }
        }
        if let key = matching {
            try validateDeletion(key, &tx)
            return .ignored(.postDeleted)
        }

        // A date far ahead of its arrival is placed at the arrival (and the claimed date kept to be said).
        let placed = PostPlacement.place(claimed: m.createdAt, receivedAt: m.receivedAt)
        let readAt: Int64? = tx.restoringHistory && m.source == .historical ? placed.createdAt : nil
        var p = PostRecord(id: id, sessionID: sid, author: m.sender, createdAt: placed.createdAt, datedAhead: placed.datedAhead,
                           url: url, note: m.payload.note,
                           wrapIDs: Array(Set(m.wrapIDs)).sorted(), arrivals: Arrivals(source: m.source, at: m.receivedAt),
                           readAt: readAt, notified: false, status: .pending(.sessionUnknown))
        try settle(&p, &tx)
        try keep(p)
        for r in try reactionIDs(forPost: id) { try reevaluateReaction(r, &tx) }
        return outcome(for: p.status)
    }

    func evaluatePost(_ p: PostRecord) throws -> CandidateStatus {
        guard let session = try session(p.sessionID), session.derived.exists else { return .pending(.sessionUnknown) }
        if session.derived.deleted { return .pending(.sessionDeleted) }
        guard passesGate(author: p.author, createdAt: p.createdAt, arrivals: p.arrivals, session.derived) else {
            return .pending(.membership)
        }
        return .visible
    }

    /// Gives a post its current status, and queues its first notification once it shows.
    func settle(_ p: inout PostRecord, _ tx: inout IngestTransaction) throws {
        p.status = try evaluatePost(p)
        tx.sessions.insert(p.sessionID)
        if p.status.isVisible, !p.notified {
            p.notified = true
            if p.arrivals.hasLive, p.author != me, !tx.restoringHistory, try session(p.sessionID)?.archived != true {
                tx.notifications.append(.post(postID: p.id, sessionID: p.sessionID, author: p.author))
            }
        }
    }

    mutating func reevaluatePost(_ id: String, _ tx: inout IngestTransaction) throws {
        guard var p = try post(id) else { return }
        let before = p
        try settle(&p, &tx)
        guard p != before else { return }
        try keep(p)
        if p.status != before.status {
            for r in try reactionIDs(forPost: id) { try reevaluateReaction(r, &tx) }
        }
    }

    // MARK: reactions

    private mutating func ingestReaction(_ m: InboundMessage, _ tx: inout IngestTransaction) throws -> IngestOutcome {
        let id = m.rumorID
        let postID = m.payload.rootID
        if var existing = try reaction(id) {
            guard existing.arrivals.add(source: m.source, at: m.receivedAt) else { return .duplicate }
            try settle(&existing, &tx)
            try keep(existing)
            return .duplicate
        }
        if try isPostDeleted(postID) { return .ignored(.postDeleted) }
        var r = ReactionRecord(id: id, sessionID: m.payload.conversationID, postID: postID, emoji: m.payload.emoji ?? "",
                               author: m.sender, active: m.payload.reactionActive ?? false, createdAt: m.createdAt,
                               arrivals: Arrivals(source: m.source, at: m.receivedAt), notified: false, status: .pending(.sessionUnknown))
        try settle(&r, &tx)
        try keep(r)
        return outcome(for: r.status)
    }

    func evaluateReaction(_ r: ReactionRecord) throws -> CandidateStatus {
        guard let session = try session(r.sessionID), session.derived.exists else { return .pending(.sessionUnknown) }
        if session.derived.deleted { return .pending(.sessionDeleted) }
        guard passesGate(author: r.author, createdAt: r.createdAt, arrivals: r.arrivals, session.derived) else {
            return .pending(.membership)
        }
        guard let post = try post(r.postID), post.sessionID == r.sessionID, post.status.isVisible else { return .pending(.rootMissing) }
        return .visible
    }

    func settle(_ r: inout ReactionRecord, _ tx: inout IngestTransaction) throws {
        r.status = try evaluateReaction(r)
        tx.sessions.insert(r.sessionID)
        if r.status.isVisible, !r.notified {
            r.notified = true
            if r.active, r.arrivals.hasLive, r.author != me, !tx.restoringHistory, try session(r.sessionID)?.archived != true {
                tx.notifications.append(.reaction(reactionID: r.id, postID: r.postID, sessionID: r.sessionID, author: r.author, emoji: r.emoji))
            }
        }
    }

    mutating func reevaluateReaction(_ id: String, _ tx: inout IngestTransaction) throws {
        guard var r = try reaction(id) else { return }
        let before = r
        try settle(&r, &tx)
        if r != before { try keep(r) }
    }

    /// Stores a post as settled; in a session deleted for good it is dropped instead (kept hidden
    /// otherwise: a delete from someone who turns out not to be the creator must be undoable).
    private mutating func keep(_ p: PostRecord) throws {
        if p.status == .pending(.sessionDeleted), try session(p.sessionID)?.derived.deletedForGood == true {
            try removePost(p.id)
        } else {
            try setPost(p)
        }
    }

    private mutating func keep(_ r: ReactionRecord) throws {
        if r.status == .pending(.sessionDeleted), try session(r.sessionID)?.derived.deletedForGood == true {
            try removeReaction(r.id)
        } else {
            try setReaction(r)
        }
    }

    // MARK: deletes

    private mutating func ingestRootDelete(_ m: InboundMessage, _ tx: inout IngestTransaction) throws -> IngestOutcome {
        let postID = m.payload.rootID
        let sid = m.payload.conversationID
        if try session(sid)?.derived.deletedForGood == true { return .ignored(.sessionDeleted) }
        let key = TombstoneKey(sessionID: sid, postID: postID, deleter: m.sender)
        let stamp = LWWStamp(createdAt: m.createdAt, eventID: m.rumorID)
        if try isPostDeleted(postID) {
            guard var t = try tombstone(key) else { return .ignored(.postDeleted) }
            if LWWStamp.shouldApply(stamp, over: t.stamp) { t.stamp = stamp; try setTombstone(t) }
            return .duplicate
        }
        if let post = try post(postID) {
            guard post.author == m.sender, post.sessionID == sid else { return .ignored(.deleterMismatch) }
            try storeTombstone(key, stamp)
            try validateDeletion(key, &tx)
            return .applied
        }
        let known = try tombstone(key) != nil
        try storeTombstone(key, stamp)
        return known ? .duplicate : .pending(.rootMissing)
    }

    private mutating func storeTombstone(_ key: TombstoneKey, _ stamp: LWWStamp) throws {
        if var t = try tombstone(key) {
            guard LWWStamp.shouldApply(stamp, over: t.stamp) else { return }
            t.stamp = stamp
            try setTombstone(t)
        } else {
            try setTombstone(Tombstone(key: key, stamp: stamp, validated: false))
        }
    }

    /// The author deleted the post: drop it and every reaction to it, staged ones included.
    private mutating func validateDeletion(_ key: TombstoneKey, _ tx: inout IngestTransaction) throws {
        if var t = try tombstone(key) {
            t.validated = true
            try setTombstone(t)
        }
        if let p = try post(key.postID) {
            try removePost(p.id)
            tx.sessions.insert(p.sessionID)
        }
        for id in try reactionIDs(forPost: key.postID) { try removeReaction(id) }
    }

    // MARK: the membership gate

    /// Author and self active at the rumor's time (or joining for the first time within `joinGrace` of it:
    /// a slow clock); for live arrivals also at the time it arrived. Backfilled and own messages skip the
    /// "now" check, so history from since-removed members restores.
    func passesGate(author: Pubkey, createdAt: Int64, arrivals: Arrivals, _ d: SessionDerivation) -> Bool {
        guard d.isActiveOrJoining(author, at: createdAt), d.isActiveOrJoining(me, at: createdAt) else { return false }
        if arrivals.trusted { return true }
        return arrivals.liveAt.contains { d.isActiveOrJoining(author, at: $0) && d.isActiveOrJoining(me, at: $0) }
    }

    private func outcome(for status: CandidateStatus) -> IngestOutcome {
        switch status {
        case .visible: return .applied
        case .pending(.sessionDeleted): return .ignored(.sessionDeleted)
        case .pending(let reason): return .pending(reason)
        }
    }

    // MARK: follow list (kind 3, NIP-02)

    /// Only our own; NIP-01 newest wins against the persisted watermark (`FollowListRule`); the contact
    /// set is replaced and the aliases of contacts that stay are kept.
    public mutating func ingestFollowList(author: Pubkey, createdAt: Int64, eventID: String, tags: [[String]]) throws -> FollowListOutcome {
        guard author == me else { return .notFromSelf }
        let stamp = LWWStamp(createdAt: createdAt, eventID: eventID)
        guard FollowListRule.shouldApply(stamp, over: try followWatermark) else { return .stale }
        try replaceContacts(FollowListRule.keys(tags), stamp: stamp)
        return .applied
    }

    /// After our own kind-3 was accepted by relays (stamp = its created_at and id).
    public mutating func replaceContacts(_ keys: [Pubkey], stamp: LWWStamp) throws {
        let current = Dictionary(uniqueKeysWithValues: try contacts().map { ($0.pubkey, $0) })
        try setContacts(keys.map { current[$0] ?? Contact(pubkey: $0) }, watermark: stamp)
    }

    /// Aliases are private: changing one publishes nothing.
    public mutating func setAlias(_ pubkey: Pubkey, _ alias: String?) throws -> Bool {
        var list = try contacts()
        guard let i = list.firstIndex(where: { $0.pubkey == pubkey }) else { return false }
        let trimmed = alias?.trimmingWhitespace()
        list[i].alias = (trimmed?.isEmpty ?? true) ? nil : trimmed
        try setContacts(list, watermark: try followWatermark)
        return true
    }
}

public enum FollowListOutcome: Equatable, Sendable {
    case applied
    case notFromSelf
    case stale
}

/// What one ingest touched.
struct IngestTransaction {
    let restoringHistory: Bool
    var sessions: Set<String> = []
    var notifications: [InboundNotification] = []
}
