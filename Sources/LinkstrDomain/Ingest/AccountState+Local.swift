/// Local-only changes (archive, read marks, aliases) and the follow list (kind 3, NIP-02).
extension AccountState {
    /// Archive is local and never on the wire; new posts do not unarchive.
    public mutating func setArchived(_ sessionID: String, _ archived: Bool) -> [StoreChange] {
        guard var s = sessions[sessionID], s.archived != archived else { return [] }
        s.archived = archived
        sessions[sessionID] = s
        return [.session(s)]
    }

    public mutating func markRead(postID: String, at now: Int64) -> [StoreChange] {
        guard var p = posts[postID], p.readAt == nil, p.author != me else { return [] }
        p.readAt = now
        posts[postID] = p
        return [.post(p)]
    }

    /// Opening a session marks its visible inbound posts read (readme v2).
    public mutating func markSessionRead(_ sessionID: String, at now: Int64) -> [StoreChange] {
        var changes = [StoreChange]()
        for id in (postsBySession[sessionID] ?? []).sorted() where posts[id]?.status.isVisible == true {
            changes += markRead(postID: id, at: now)
        }
        return changes
    }

    // MARK: contacts

    public enum FollowListOutcome: Equatable, Sendable {
        case applied
        case notFromSelf
        case stale
    }

    /// A kind-3 event: only our own, newest wins (persisted watermark); the contact set is replaced,
    /// aliases of contacts that stay are kept.
    public mutating func ingestFollowList(author: Pubkey, createdAt: Int64, eventID: String, tags: [[String]]) -> (FollowListOutcome, [StoreChange]) {
        guard author == me else { return (.notFromSelf, []) }
        let stamp = LWWStamp(createdAt: createdAt, eventID: eventID)
        guard LWWStamp.shouldApply(stamp, over: followWatermark) else { return (.stale, []) }
        let keys = PubkeyNormalizer.dedupedList(tags.compactMap { $0.count >= 2 && $0[0] == "p" ? $0[1] : nil })
        return (.applied, replaceContacts(keys, stamp: stamp))
    }

    /// After our own kind-3 was accepted by relays (stamp = its created_at and id).
    public mutating func replaceContacts(_ keys: [Pubkey], stamp: LWWStamp) -> [StoreChange] {
        var next = [Pubkey: Contact]()
        for k in keys { next[k] = contacts[k] ?? Contact(pubkey: k) }
        contacts = next
        followWatermark = stamp
        return [.contacts(contactList), .followWatermark(stamp)]
    }

    /// Aliases are private: changing one publishes nothing.
    public mutating func setAlias(_ pubkey: Pubkey, _ alias: String?) -> [StoreChange] {
        guard var c = contacts[pubkey] else { return [] }
        let trimmed = alias?.trimmingWhitespace()
        c.alias = (trimmed?.isEmpty ?? true) ? nil : trimmed
        contacts[pubkey] = c
        return [.contacts(contactList)]
    }

    public var contactList: [Contact] { contacts.values.sorted { $0.pubkey < $1.pubkey } }
}
