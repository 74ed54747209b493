import Foundation
import NostrProtocol

/// This account's data as the iOS app's `.linkstrbackup` (wire 2026 §8), so a phone can restore what
/// was kept here. State is derived the way the iOS app keeps it: one row per session with its winning
/// membership snapshot, members and intervals from the creator's timeline, the newest state of each
/// reaction, the tombstones that count. Records the iOS model has no place for (staged messages, the
/// snapshots that lost) stay out; relays restore them.
public enum BackupExport {
    /// What storage hands over, already opened.
    public struct Contents: Sendable {
        public var secretKey: SecretKey
        public var accountCreatedAt: Int64
        public var sessions: [SessionRecord]
        /// Visible posts.
        public var posts: [PostRecord]
        /// Visible reaction messages (every toggle; the newest per key is the state).
        public var reactions: [ReactionRecord]
        /// Validated post tombstones.
        public var tombstones: [Tombstone]
        public var contacts: [Contact]
        public var followStamp: LWWStamp?
        public var followTags: [[String]]?
        /// Other people's profile names with their event's stamp.
        public var profiles: [Pubkey: (name: String, stamp: LWWStamp)]
        public var ownProfile: (content: String, stamp: LWWStamp)?
        public var ownProfileName: String?
        public var preferences: [(event: NostrEvent, pending: Bool)]
        public var relays: [(url: String, enabled: Bool, addedAt: Int64)]

        public init(secretKey: SecretKey, accountCreatedAt: Int64, sessions: [SessionRecord], posts: [PostRecord], reactions: [ReactionRecord],
                    tombstones: [Tombstone], contacts: [Contact], followStamp: LWWStamp?, followTags: [[String]]?,
                    profiles: [Pubkey: (name: String, stamp: LWWStamp)], ownProfile: (content: String, stamp: LWWStamp)?, ownProfileName: String?,
                    preferences: [(event: NostrEvent, pending: Bool)], relays: [(url: String, enabled: Bool, addedAt: Int64)]) {
            self.secretKey = secretKey; self.accountCreatedAt = accountCreatedAt; self.sessions = sessions; self.posts = posts
            self.reactions = reactions; self.tombstones = tombstones; self.contacts = contacts; self.followStamp = followStamp
            self.followTags = followTags; self.profiles = profiles; self.ownProfile = ownProfile; self.ownProfileName = ownProfileName
            self.preferences = preferences; self.relays = relays
        }
    }

    public static func file(_ c: Contents, now: Int64) -> IOSBackupFile {
        let me = c.secretKey.publicKey.hex
        let date = Date.init(unixSeconds:)
        var sessions: [IOSBackupFile.Session] = []
        var members: [IOSBackupFile.Member] = []
        var intervals: [IOSBackupFile.Interval] = []
        var deletions: [IOSBackupFile.Deletion] = []
        var listed = Set<String>()
        for s in c.sessions.sorted(by: { $0.id < $1.id }) {
            let d = s.derived
            guard let creator = d.creator else { continue }
            if d.deleted {
                // The creator's delete that counts (the oldest, so a re-import applies the same one).
                if let del = s.deletions.values.filter({ $0.author == creator }).min(by: { LWWStamp(createdAt: $0.createdAt, eventID: $0.rumorID) < LWWStamp(createdAt: $1.createdAt, eventID: $1.rumorID) }) {
                    deletions.append(.init(sessionID: s.id, postID: nil, pubkey: creator, updatedAt: date(del.createdAt), eventID: del.rumorID))
                }
                continue
            }
            guard let first = d.timeline.first, let last = d.timeline.last else { continue }
            listed.insert(s.id)
            let name = d.name?.trimmingWhitespace().isEmpty == false ? d.name! : "session"
            sessions.append(.init(id: s.id, name: name, creator: creator, createdAt: date(first.createdAt), updatedAt: date(last.createdAt),
                                  archived: s.archived, membershipDate: date(last.createdAt),
                                  membershipID: BackupRestore.isSynthetic(last.rumorID) ? nil : last.rumorID))
            let spans = d.memberIntervals
            var firstSeen = [Pubkey: Int64]()
            for v in spans.intervals {
                intervals.append(.init(sessionID: s.id, pubkey: v.member, start: date(v.start), end: v.end.map(date)))
                firstSeen[v.member] = min(firstSeen[v.member] ?? v.start, v.start)
            }
            for (m, at) in spans.lastChange.sorted(by: { $0.key < $1.key }) {
                members.append(.init(sessionID: s.id, pubkey: m, active: spans.active.contains(m), createdAt: date(firstSeen[m] ?? at), updatedAt: date(at)))
            }
        }
        let posts = c.posts.filter { listed.contains($0.sessionID) }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        let postIDs = Set(posts.map(\.id))
        let reactionState = Dictionary(grouping: c.reactions.filter { postIDs.contains($0.postID) }, by: \.postID)
            .values.flatMap(ReactionTally.winners)
        for t in c.tombstones.sorted(by: { ($0.key.sessionID, $0.key.postID) < ($1.key.sessionID, $1.key.postID) }) where t.validated {
            deletions.append(.init(sessionID: t.key.sessionID, postID: t.key.postID, pubkey: t.key.deleter, updatedAt: date(t.stamp.createdAt), eventID: t.stamp.eventID))
        }
        var seenDeletion = Set<String>()
        deletions = deletions.filter { seenDeletion.insert($0.sessionID + ":" + ($0.postID ?? "")).inserted }

        let contacts = c.contacts.map { contact in
            let profile = c.profiles[contact.pubkey]
            return IOSBackupFile.Contact(pubkey: contact.pubkey, alias: contact.alias, createdAt: date(c.followStamp?.createdAt ?? c.accountCreatedAt),
                                         profileName: profile?.name, profileDate: profile.map { date($0.stamp.createdAt) }, profileID: profile?.stamp.eventID)
        }
        let account = IOSBackupFile.Account(
            followDate: c.followStamp.map { date($0.createdAt) }, followID: c.followStamp?.eventID,
            followTags: c.followTags.flatMap { try? JSONEncoder().encode($0) },
            profileName: c.ownProfileName ?? c.ownProfile.flatMap { NostrEventTemplates.profileName(fromContent: $0.content) }, profileContent: c.ownProfile?.content, profileDate: c.ownProfile.map { date($0.stamp.createdAt) },
            profileID: c.ownProfile?.stamp.eventID, createdAt: date(c.accountCreatedAt), updatedAt: date(now))
        let custom = c.relays.map(\.url).sorted() != RelayURL.defaults.sorted() || c.relays.contains { !$0.enabled }
        let relays = custom ? c.relays.map { IOSBackupFile.Relay(url: $0.url, enabled: $0.enabled, createdAt: date($0.addedAt)) } : []
        return IOSBackupFile(
            version: 1, createdAt: date(now), nsec: c.secretKey.revealNsec(), owner: me,
            settings: .init(loopLocalVideos: false, customRelays: custom, relays: relays), account: account,
            sessions: sessions,
            posts: posts.map { p in
                .init(id: p.id, sessionID: p.sessionID, sender: p.author, receiver: me, url: p.url, note: p.note,
                      timestamp: date(p.datedAhead ?? p.createdAt), archived: false, readAt: p.readAt.map(date), transportIDs: p.wrapIDs)
            },
            members: members, intervals: intervals,
            reactions: reactionState.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map { r in
                .init(sessionID: r.sessionID, postID: r.postID, pubkey: r.author, emoji: r.emoji, active: r.active, updatedAt: date(r.createdAt), eventID: r.id)
            },
            deletions: deletions, contacts: contacts, follows: [],
            preferences: c.preferences.map { .init(event: Data($0.event.jsonString().utf8), pending: $0.pending) })
    }
}
