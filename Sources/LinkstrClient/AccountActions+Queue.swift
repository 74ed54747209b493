import LinkstrDomain
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// The same use cases through the send queue: checked by the same rules, applied here at
/// once and queued as the events that will go; the answer does not wait for a relay. The app sends this
/// way; the CLI with `--queue` (without it, a command still returns once relays accepted).
extension AccountActions {
    /// What was queued: the item (`queue list`), and the post or session it made or changed.
    public struct Queued: Equatable, Sendable {
        public let item: Int64
        public let sessionID: String
        public let postID: String?
        public init(item: Int64, sessionID: String, postID: String?) { self.item = item; self.sessionID = sessionID; self.postID = postID }
    }

    /// `drain`: start sending at once (the app); the CLI's `--queue` leaves it to the next `sync`.
    public func queuePost(session sessionID: String, url: String, note: String?, now: Int64, drain: Bool = true) async throws -> Queued {
        let rumor = try OutboundPlanner.post(session: try store.session(sessionID), me: me, url: url, note: note, now: now).get()
        try refuseRequest(sessionID)
        let queued = try await engine().enqueue([rumor], action: .post, sessionID: sessionID, drain: drain)
        return Queued(item: queued.item, sessionID: sessionID, postID: queued.sent[0].rumorID)
    }

    /// Toggles (or with `active` sets) our reaction; nil when it already was so (nothing queued).
    public func queueReaction(post postID: String, emoji: String, active wanted: Bool? = nil, now: Int64,
                              drain: Bool = true) async throws -> (queued: Queued?, change: ReactionChange) {
        let plan = try planReaction(post: postID, emoji: emoji, active: wanted, now: now)
        guard let rumor = plan.rumor else { return (nil, .unchanged) }
        let queued = try await engine().enqueue([rumor], action: .reaction, sessionID: plan.sessionID, postID: postID, drain: drain)
        return (Queued(item: queued.item, sessionID: plan.sessionID, postID: postID), plan.change)
    }

    /// Deletes one of our posts for everyone: the `root_delete` queued, the NIP-09 request after it.
    public func queueDeletePost(_ postID: String, now: Int64, drain: Bool = true) async throws -> Queued {
        let view = try store.postView(postID)
        let plan = try OutboundPlanner.deletePost(post: view?.post, session: try view.flatMap { try store.session($0.post.sessionID) }, me: me, now: now).get()
        let sid = view?.post.sessionID ?? ""
        let queued = try await engine().enqueue([plan.notice], action: .postDelete, sessionID: sid, postID: postID,
                                                followUps: plan.deletionRequest.map { [$0] } ?? [], drain: drain)
        return Queued(item: queued.item, sessionID: sid, postID: postID)
    }

    public func queueCreateSession(name: String, members: [String], now: Int64, random: any RandomSource, drain: Bool = true) async throws -> Queued {
        let new = try OutboundPlanner.createSession(name: name, members: members, me: me, now: now, random: random).get()
        let queued = try await engine().enqueue([new.rumor], action: .sessionCreate, sessionID: new.sessionID, drain: drain)
        return Queued(item: queued.item, sessionID: new.sessionID, postID: nil)
    }

    public func queueSetMembers(session sessionID: String, members: [String], now: Int64, random: any RandomSource,
                                drain: Bool = true) async throws -> Queued {
        let rumors = try OutboundPlanner.editMembers(session: try store.session(sessionID), me: me, members: members, now: now, random: random).get()
        let queued = try await engine().enqueue(rumors, action: .sessionMembers, sessionID: sessionID, drain: drain)
        return Queued(item: queued.item, sessionID: sessionID, postID: nil)
    }

    public func queueRenameSession(_ sessionID: String, to name: String, now: Int64, random: any RandomSource, drain: Bool = true) async throws -> Queued {
        let rumor = try OutboundPlanner.renameSession(session: try store.session(sessionID), me: me, name: name, now: now, random: random).get()
        let queued = try await engine().enqueue([rumor], action: .sessionRename, sessionID: sessionID, drain: drain)
        return Queued(item: queued.item, sessionID: sessionID, postID: nil)
    }

    /// The `session_delete` queued (applied here at once: everything of the session purged), the NIP-09
    /// request for its posts' wraps after it.
    public func queueDeleteSession(_ sessionID: String, now: Int64, random: any RandomSource, drain: Bool = true) async throws -> Queued {
        let rumor = try OutboundPlanner.deleteSession(session: try store.session(sessionID), me: me, now: now, random: random).get()
        let wrapIDs = try store.rootWrapIDs(inSession: sessionID)  // read before the delete purges them
        let followUps = wrapIDs.isEmpty ? [] : [NostrEventTemplates.sessionDeletionRequest(wrapIDs: wrapIDs, now: now)]
        let queued = try await engine().enqueue([rumor], action: .sessionDelete, sessionID: sessionID, followUps: followUps, drain: drain)
        return Queued(item: queued.item, sessionID: sessionID, postID: nil)
    }

    /// Follows `pubkey` when a relay answers (the follow list is edited then, on the newest list a relay
    /// holds); the contact appears here once it went. Re-adding a contact only sets the alias, at once.
    public func queueAddContact(_ pubkey: Pubkey, alias: String?, drain: Bool = true) async throws -> Queued? {
        guard pubkey != me else { throw DomainError.message("that is your own key; contacts are other people.") }
        if try store.contacts().contains(where: { $0.pubkey == pubkey }) {
            if let alias { _ = try await setAlias(pubkey, alias) }
            return nil
        }
        let trimmed = alias?.trimmingWhitespace()
        let item = try await engine().enqueueContactEdit(.contactAdd, pubkey: pubkey, alias: trimmed?.isEmpty == false ? trimmed : nil, drain: drain)
        return Queued(item: item, sessionID: "", postID: nil)
    }

    /// Unfollows `pubkey` when a relay answers; their sessions stay in the list (at once, as without the queue).
    public func queueRemoveContact(_ pubkey: Pubkey, drain: Bool = true) async throws -> Queued {
        guard try store.contacts().contains(where: { $0.pubkey == pubkey }) else { throw DomainError.message("that key is not in your contacts.") }
        try keepSessionsListed(createdBy: pubkey)
        let item = try await engine().enqueueContactEdit(.contactRemove, pubkey: pubkey, alias: nil, drain: drain)
        return Queued(item: item, sessionID: "", postID: nil)
    }

    // MARK: the queue itself

    /// Every item, oldest first, opened.
    public func sendQueueEntries() throws -> [SendQueueEntry] { try store.sendQueueEntries() }

    /// Tries one item (or all) again now, old ones included; how many.
    @discardableResult
    public func retryQueued(_ id: Int64?) throws -> Int { try store.retryQueuedSends(id) }

    /// Takes an item out: never published. A post disappears here too; any other change stays here only.
    public func cancelQueued(_ id: Int64) throws -> QueuedSend { try store.cancelQueuedSend(id) }
}
