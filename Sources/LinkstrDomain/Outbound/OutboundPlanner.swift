import NostrProtocol

/// Who receives each action and whether it may be sent (wire document §6). Pure: state, time and
/// randomness come in; rumors to wrap or a user-facing error come out.
public enum OutboundPlanner {
    public struct NewSession: Equatable, Sendable {
        public let sessionID: String
        public let rumor: OutboundRumor
    }

    /// `session_create` to every member, self first. Members may be npub or hex; invalid ones are skipped.
    public static func createSession(name: String, members: [String], me: Pubkey, now: Int64,
                                     random: any RandomSource) -> Result<NewSession, DomainError> {
        let trimmed = name.trimmingWhitespace()
        guard !trimmed.isEmpty else { return .failure(SendRuleError.enterSessionName) }
        let list = PubkeyNormalizer.dedupedList([me] + members)
        let sessionID = LinkstrID.make(random)
        let payload = LinkstrPayload(conversationID: sessionID, rootID: LinkstrID.make(random), kind: .sessionCreate,
                                     timestamp: now, sessionName: trimmed, memberPubkeys: list)
        let rumor = OutboundRumor(payload: payload, tags: [], recipients: list, createdAt: now)
        if let tooLarge = MessageLimits.check(rumor) { return .failure(.message(tooLarge.description)) }
        return .success(NewSession(sessionID: sessionID, rumor: rumor))
    }

    /// Creator only. `session_members` (with the name, so added members can materialize the session)
    /// goes to old ∪ new members, so that removed members learn of their removal; newly added members
    /// also get a `session_create` carrying the full list, which older iOS builds need to see the session.
    public static func editMembers(session: SessionRecord?, me: Pubkey, members: [String], now: Int64,
                                   random: any RandomSource) -> Result<[OutboundRumor], DomainError> {
        guard let session, session.isListed else { return .failure(SendRuleError.unknownSession) }
        guard session.derived.creator == me else { return .failure(SendRuleError.notCreator) }
        let next = PubkeyNormalizer.dedupedList([me] + members)
        let previous = session.derived.currentMembers
        let name = session.derived.name ?? "untitled session"
        let at = snapshotTime(session, now: now)
        let snapshot = LinkstrPayload(conversationID: session.id, rootID: LinkstrID.make(random), kind: .sessionMembers,
                                      timestamp: at, sessionName: name, memberPubkeys: next)
        var rumors = [OutboundRumor(payload: snapshot, tags: [], recipients: PubkeyNormalizer.dedupedList(previous + next), createdAt: at)]
        let added = next.filter { !previous.contains($0) }
        if !added.isEmpty {
            let create = LinkstrPayload(conversationID: session.id, rootID: LinkstrID.make(random), kind: .sessionCreate,
                                        timestamp: at, sessionName: name, memberPubkeys: next)
            rumors.append(OutboundRumor(payload: create, tags: [], recipients: added, createdAt: at))
        }
        return sized(rumors)
    }

    /// Creator only (wire 2026 §2): a `session_members` with the new name and the unchanged member
    /// list, to the active members. Every later snapshot carries the current name.
    public static func renameSession(session: SessionRecord?, me: Pubkey, name: String, now: Int64,
                                     random: any RandomSource) -> Result<OutboundRumor, DomainError> {
        guard let session, session.isListed else { return .failure(SendRuleError.unknownSession) }
        guard session.derived.creator == me else { return .failure(SendRuleError.notCreatorRename) }
        let trimmed = name.trimmingWhitespace()
        guard !trimmed.isEmpty else { return .failure(SendRuleError.enterSessionName) }
        let members = PubkeyNormalizer.dedupedList([me] + session.derived.currentMembers)
        let at = snapshotTime(session, now: now)
        let snapshot = LinkstrPayload(conversationID: session.id, rootID: LinkstrID.make(random), kind: .sessionMembers,
                                      timestamp: at, sessionName: trimmed, memberPubkeys: members)
        let rumor = OutboundRumor(payload: snapshot, tags: [], recipients: members, createdAt: at)
        if let tooLarge = MessageLimits.check(rumor) { return .failure(.message(tooLarge.description)) }
        return .success(rumor)
    }

    /// A new snapshot's second: now, or one after the newest snapshot when that is this second already.
    /// Snapshots of one second are ordered by their random rumor ids, so an edit made in the same second
    /// as the previous one (a rename right after creating) would lose half the time on every device.
    static func snapshotTime(_ session: SessionRecord, now: Int64) -> Int64 {
        max(now, (session.derived.timeline.last?.createdAt ?? now - 1) + 1)
    }

    /// A link to the session's active members; we must be one of them now.
    public static func post(session: SessionRecord?, me: Pubkey, url urlInput: String, note: String?,
                            now: Int64) -> Result<OutboundRumor, DomainError> {
        guard let url = WebURL.normalizedUserInput(urlInput) else { return .failure(SendRuleError.invalidURL) }
        let recipients: [Pubkey]
        switch activeRecipients(session, me: me, now: now) {
        case .success(let r): recipients = r
        case .failure(let e): return .failure(e)
        }
        let trimmedNote = note?.trimmingWhitespace()
        let payload = LinkstrPayload(conversationID: session!.id, rootID: "", kind: .root, url: url,
                                     note: (trimmedNote?.isEmpty ?? true) ? nil : trimmedNote, timestamp: now)
        return sized(OutboundRumor(payload: payload, tags: [], recipients: recipients, createdAt: now))
    }

    /// Toggles our reaction: `reaction_active` is the opposite of our current state for (post, emoji).
    /// Toggles our reaction. `current` is our last-writer-wins reaction with this emoji: the new one is
    /// dated strictly after it, so a quick on-then-off within one second still ends off everywhere
    /// (with equal times the event-id tie-break would pick either).
    public static func react(post: PostRecord?, session: SessionRecord?, me: Pubkey, emoji: String, current: ReactionRecord?,
                             now: Int64) -> Result<OutboundRumor, DomainError> {
        let e = emoji.trimmingWhitespace()
        guard !e.isEmpty else { return .failure(SendRuleError.emptyEmoji) }
        guard e.utf8.count <= MessageLimits.emoji, e.count <= 2 else { return .failure(SendRuleError.notAnEmoji) }
        guard let post, post.status.isVisible, session?.id == post.sessionID else { return .failure(SendRuleError.unknownPost) }
        let recipients: [Pubkey]
        switch activeRecipients(session, me: me, now: now) {
        case .success(let r): recipients = r
        case .failure(let err): return .failure(err)
        }
        let at = max(now, (current?.createdAt ?? now - 1) + 1)
        let payload = LinkstrPayload(conversationID: post.sessionID, rootID: post.id, kind: .reaction, timestamp: at,
                                     emoji: e, reactionActive: !(current?.active ?? false))
        return sized(OutboundRumor(payload: payload, tags: [["e", post.id, "", "root"]], recipients: recipients, createdAt: at))
    }

    public struct DeletePlan: Equatable, Sendable {
        /// A NIP-09 request for the wraps that carried the post (nil when none are known).
        public let deletionRequest: UnsignedEventTemplate?
        public let notice: OutboundRumor
    }

    /// Own posts only: kind 5 on the stored wrap ids, then `root_delete` to every current and former member.
    public static func deletePost(post: PostRecord?, session: SessionRecord?, me: Pubkey, now: Int64) -> Result<DeletePlan, DomainError> {
        guard let post, let session, session.id == post.sessionID, session.isListed else { return .failure(SendRuleError.unknownPost) }
        guard post.author == me else { return .failure(SendRuleError.notYourPost) }
        let request = post.wrapIDs.isEmpty ? nil : NostrEventTemplates.postDeletionRequest(wrapIDs: post.wrapIDs, now: now)
        let payload = LinkstrPayload(conversationID: post.sessionID, rootID: post.id, kind: .rootDelete, timestamp: now)
        let recipients = PubkeyNormalizer.dedupedList(session.derived.everyMember + [me])
        return .success(DeletePlan(deletionRequest: request,
                                   notice: OutboundRumor(payload: payload, tags: [["e", post.id, "", "root"]], recipients: recipients, createdAt: now)))
    }

    /// Creator only: ends the session for everyone who was ever in it.
    public static func deleteSession(session: SessionRecord?, me: Pubkey, now: Int64, random: any RandomSource) -> Result<OutboundRumor, DomainError> {
        guard let session, session.isListed else { return .failure(SendRuleError.unknownSession) }
        guard session.derived.creator == me else { return .failure(SendRuleError.notCreatorDelete) }
        let payload = LinkstrPayload(conversationID: session.id, rootID: LinkstrID.make(random), kind: .sessionDelete, timestamp: now)
        return .success(OutboundRumor(payload: payload, tags: [], recipients: PubkeyNormalizer.dedupedList(session.derived.everyMember + [me]),
                                      createdAt: now))
    }

    /// Refuses what one gift wrap cannot carry (receivers could never open it), saying what to shorten.
    static func sized(_ rumor: OutboundRumor) -> Result<OutboundRumor, DomainError> {
        if let tooLarge = MessageLimits.check(rumor) { return .failure(.message(tooLarge.description)) }
        return .success(rumor)
    }

    static func sized(_ rumors: [OutboundRumor]) -> Result<[OutboundRumor], DomainError> {
        for r in rumors { if let tooLarge = MessageLimits.check(r) { return .failure(.message(tooLarge.description)) } }
        return .success(rumors)
    }

    static func activeRecipients(_ session: SessionRecord?, me: Pubkey, now: Int64) -> Result<[Pubkey], DomainError> {
        guard let session, session.isListed else { return .failure(SendRuleError.unknownSession) }
        guard session.derived.isActive(me, at: now) else { return .failure(SendRuleError.notMember) }
        let members = session.derived.currentMembers.filter { session.derived.isActive($0, at: now) }
        return .success(PubkeyNormalizer.dedupedList([me] + members))
    }
}
