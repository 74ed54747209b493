import NostrProtocol

/// Merging an iOS backup into what is stored for its account (wire 2026 §8, "Restore"), written once
/// against `IngestStore` so the in-memory reference and SQLite restore alike.
///
/// The file is the iOS app's *state*; linkstr keeps *messages* and derives state from them. So the
/// file is turned into the messages that would give that state, and they go through the ingest rules,
/// which already merge in any order: the membership timeline becomes one snapshot per change (from the
/// intervals), posts become roots, reactions and tombstones become the messages they stand for. Ids
/// the file does not hold (the snapshots between membership changes) are made up as `~backup:…`, which
/// no relay event can have. What the rules do not cover is merged here: read state (local, else the
/// file's), archive (local for sessions already here), contacts (the follow list that wins NIP-01,
/// aliases local, else the file's).
public enum BackupRestore {
    /// What a restore changed, and what storage applies in the same transaction.
    public struct Outcome: Equatable, Sendable {
        public var sessionsAdded = 0
        public var postsAdded = 0
        public var reactionsAdded = 0
        /// The file's follow list won: store these tags as the applied list's.
        public var followTags: [[String]]?
        public var touchedSessions: Set<String> = []
    }

    /// The made-up id of a snapshot the file implies but does not name.
    public static func syntheticID(session: String, at t: Int64) -> String {
        "~backup:" + SHA256.hash("\(session):\(t)").hex
    }

    public static func isSynthetic(_ id: String) -> Bool { id.hasPrefix("~") }

    /// The creator's membership snapshots the file implies, oldest first: one per change of the member set.
    /// `budget`: member entries the snapshots may hold in all (a hostile file of many short intervals
    /// must not turn into gigabytes); over it, `.tooLarge`.
    public static func snapshots(for s: IOSBackupFile.Session, intervals: [IOSBackupFile.Interval],
                                 members: [IOSBackupFile.Member], me: Pubkey, budget: Int = memberEntryBudget) throws(BackupError) -> [Snapshot] {
        let createdAt = s.createdAt.unixSeconds
        let membershipAt = (s.membershipDate ?? s.createdAt).unixSeconds
        var sets: [(at: Int64, members: [Pubkey])] = []
        if intervals.isEmpty {
            // No timeline: the current members, from the creation on.
            let current = members.filter(\.active).map(\.pubkey)
            sets = [(createdAt, current)]
            if membershipAt > createdAt { sets.append((membershipAt, current)) }
        } else {
            // A sweep over the interval ends: a member is active at t when one of their intervals holds
            // start ≤ t < end. Members keep the order the file lists them in (the order iOS shows them).
            var changes: [Int64: [(Pubkey, Int)]] = [:]
            var order: [Pubkey] = [], seen = Set<Pubkey>()
            for v in intervals {
                if seen.insert(v.pubkey).inserted { order.append(v.pubkey) }
                changes[v.start.unixSeconds, default: []].append((v.pubkey, 1))
                if let e = v.end { changes[e.unixSeconds, default: []].append((v.pubkey, -1)) }
            }
            changes[membershipAt, default: []] += []
            changes[min(createdAt, changes.keys.min() ?? createdAt), default: []] += []
            var open: [Pubkey: Int] = [:]
            var entries = 0
            for t in changes.keys.sorted() {
                for (pk, delta) in changes[t]! { open[pk, default: 0] += delta }
                let active = order.filter { (open[$0] ?? 0) > 0 }
                if sets.last?.members == active || (sets.isEmpty && active.isEmpty) { continue }
                entries += active.count
                guard entries <= budget else { throw tooLong }
                sets.append((t, active))
            }
        }
        var out: [Snapshot] = []
        for (i, set) in sets.enumerated() {
            // The author of a snapshot is always one of its members (the ingest rules ignore any other).
            var keys = set.members
            if !keys.contains(s.creator) { keys.insert(s.creator, at: 0) }
            let id = set.at == membershipAt && i == sets.count - 1 ? (s.membershipID ?? syntheticID(session: s.id, at: set.at))
                                                                   : syntheticID(session: s.id, at: set.at)
            // The first is the creation when it names us (a creation that does not is never accepted).
            let isCreate = i == 0 && keys.contains(me)
            out.append(Snapshot(rumorID: id, sessionID: s.id, author: s.creator, createdAt: set.at, isCreate: isCreate,
                                members: keys, name: s.name.trimmingWhitespace()))
        }
        return out
    }

    /// Everything in the file as messages, in an order the rules accept in any case.
    /// Member entries the snapshots of one file may add up to: a hostile file of many short intervals
    /// must not turn into gigabytes of snapshots. Generous: 100 sessions × 100 changes × 100 members.
    public static let memberEntryBudget = 1_000_000

    static let tooLong = BackupError.tooLarge("its membership history needs more than \(memberEntryBudget) member entries.")

    public static func messages(_ b: ValidatedBackup, receivedAt now: Int64) throws(BackupError) -> [InboundMessage] {
        let f = b.file
        var out: [InboundMessage] = []
        var entries = 0
        func add(_ id: String, _ sender: Pubkey, _ at: Int64, _ payload: LinkstrPayload, wraps: [String] = []) throws(BackupError) {
            let valid: LinkstrPayload
            do { valid = try payload.validated() } catch { throw .invalid("record \(BackupError.quote(id)): \(error)") }
            out.append(InboundMessage(rumorID: id, wrapIDs: wraps, sender: sender, createdAt: at, payload: valid, source: .historical, receivedAt: now))
        }
        let intervals = Dictionary(grouping: f.intervals, by: \.sessionID)
        let members = Dictionary(grouping: f.members, by: \.sessionID)
        for s in f.sessions {
            for snap in try snapshots(for: s, intervals: intervals[s.id] ?? [], members: members[s.id] ?? [], me: b.owner,
                                      budget: memberEntryBudget - entries) {
                entries += snap.members.count
                guard entries <= memberEntryBudget else { throw tooLong }
                try add(snap.rumorID, snap.author, snap.createdAt,
                        LinkstrPayload(conversationID: s.id, rootID: "", kind: snap.isCreate ? .sessionCreate : .sessionMembers,
                                       sessionName: snap.name, memberPubkeys: snap.members))
            }
        }
        for p in f.posts {
            try add(p.id, p.sender, p.timestamp.unixSeconds,
                    LinkstrPayload(conversationID: p.sessionID, rootID: p.id, kind: .root, url: p.url, note: p.note, timestamp: p.timestamp.unixSeconds),
                    wraps: p.transportIDs)
        }
        for r in f.reactions {
            try add(r.eventID, r.pubkey, r.updatedAt.unixSeconds,
                    LinkstrPayload(conversationID: r.sessionID, rootID: r.postID, kind: .reaction, emoji: r.emoji, reactionActive: r.active))
        }
        for d in f.deletions {
            if let postID = d.postID {
                try add(d.eventID, d.pubkey, d.updatedAt.unixSeconds, LinkstrPayload(conversationID: d.sessionID, rootID: postID, kind: .rootDelete))
            } else {
                try add(d.eventID, d.pubkey, d.updatedAt.unixSeconds, LinkstrPayload(conversationID: d.sessionID, rootID: d.eventID, kind: .sessionDelete))
            }
        }
        return out
    }
}

extension IngestStore {
    /// Merges `b` into this account's data. Checks every conflict before changing anything: a conflict
    /// throws and leaves the store as it was (storage runs this in one transaction as well).
    public mutating func restore(_ b: ValidatedBackup, now: Int64) throws -> BackupRestore.Outcome {
        guard b.owner == me else { throw BackupError.conflict("the backup belongs to another account.") }
        let f = b.file
        let fileSessions = Dictionary(uniqueKeysWithValues: f.sessions.map { ($0.id, $0) })
        let filePosts = Dictionary(uniqueKeysWithValues: f.posts.map { ($0.id, $0) })

        // Conflicts first.
        var known = Set<String>()
        for s in f.sessions {
            guard let local = try session(s.id), let creator = local.derived.creator else { continue }
            guard creator == s.creator else { throw BackupError.conflict("session \(BackupError.quote(s.id)) has another creator here.") }
            known.insert(s.id)
        }
        for p in f.posts {
            guard let local = try post(p.id) else { continue }
            guard local.sessionID == p.sessionID, local.author == p.sender, local.createdAt == p.timestamp.unixSeconds,
                  local.url == p.url, local.note == p.note else { throw BackupError.conflict("post \(BackupError.quote(p.id)) differs from the one here.") }
        }
        for d in f.deletions {
            if let postID = d.postID {
                let author = try post(postID)?.author ?? filePosts[postID]?.sender
                if let author, author != d.pubkey { throw BackupError.conflict("the deletion of post \(BackupError.quote(postID)) is not from its author.") }
            } else {
                let creator = try session(d.sessionID)?.derived.creator ?? fileSessions[d.sessionID]?.creator
                if let creator, creator != d.pubkey { throw BackupError.conflict("the deletion of session \(BackupError.quote(d.sessionID)) is not from its creator.") }
            }
        }

        var outcome = BackupRestore.Outcome()
        let messages = try BackupRestore.messages(b, receivedAt: now)
        for m in messages {
            let report = try ingest(m)
            outcome.touchedSessions.formUnion(report.touchedSessions)
            guard report.outcome == .applied else { continue }
            switch m.payload.kind {
            case .root: outcome.postsAdded += 1
            case .reaction: outcome.reactionsAdded += 1
            default: break
            }
        }

        // Archive: the file's for sessions new here.
        for s in f.sessions where !known.contains(s.id) {
            guard var record = try session(s.id), record.derived.exists else { continue }
            outcome.sessionsAdded += 1
            if record.archived != s.archived {
                record.archived = s.archived
                try setSession(record)
            }
        }
        // Read state: local, else the file's.
        for p in f.posts {
            guard let readAt = p.readAt, var record = try post(p.id), record.readAt == nil else { continue }
            record.readAt = readAt.unixSeconds
            try setPost(record)
        }
        // Contacts: the follow list that wins; aliases local, else the file's.
        let fileAliases = Dictionary(uniqueKeysWithValues: f.contacts.compactMap { c in c.alias.map { (c.pubkey, $0) } })
        let local = try contacts()
        let watermark = try followWatermark
        let fileStamp = f.account?.followDate.map { LWWStamp(createdAt: $0.unixSeconds, eventID: f.account?.followID ?? "") }
        let fileWins: Bool
        if let fileStamp { fileWins = FollowListRule.shouldApply(fileStamp, over: watermark) } else { fileWins = watermark == nil && local.isEmpty }
        if fileWins {
            let localAliases = Dictionary(uniqueKeysWithValues: local.compactMap { c in c.alias.map { (c.pubkey, $0) } })
            try setContacts(f.contacts.map { Contact(pubkey: $0.pubkey, alias: localAliases[$0.pubkey] ?? fileAliases[$0.pubkey]) },
                            watermark: fileStamp ?? watermark)
            outcome.followTags = b.followTags ?? f.contacts.map { ["p", $0.pubkey] }
        } else if local.contains(where: { $0.alias == nil && fileAliases[$0.pubkey] != nil }) {
            try setContacts(local.map { Contact(pubkey: $0.pubkey, alias: $0.alias ?? fileAliases[$0.pubkey]) }, watermark: watermark)
        }
        return outcome
    }
}
