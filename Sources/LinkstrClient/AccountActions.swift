import LinkstrDomain
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// The use cases of one open account, for the terminal app and the CLI alike: each validates with the
/// domain rules first (a refused input never connects), then gets the engine and sends. Results are
/// typed; errors are the domain's, the relays' or the store's, each with its own wording.
public struct AccountActions: Sendable {
    let store: AccountStore
    public let me: Pubkey
    /// The engine, started on first use (the CLI connects only when something is to be sent).
    let engine: @Sendable () async throws -> SyncEngine
    /// Whether strangers' sessions wait as requests (`config.toml`'s `session_requests`).
    public let requests: SessionRequestPolicy

    init(store: AccountStore, me: Pubkey, requests: SessionRequestPolicy = SessionRequestPolicy(),
                engine: @escaping @Sendable () async throws -> SyncEngine) {
        self.store = store
        self.me = me
        self.requests = requests
        self.engine = engine
    }

    // MARK: posts

    public struct SentPost: Equatable, Sendable {
        public let postID: String
        public let sessionID: String
        public init(postID: String, sessionID: String) { self.postID = postID; self.sessionID = sessionID }
    }

    /// Shares a link (with an optional note) to the session's active members.
    public func sendPost(session sessionID: String, url: String, note: String?, now: Int64) async throws -> SentPost {
        let rumor = try OutboundPlanner.post(session: try store.session(sessionID), me: me, url: url, note: note, now: now).get()
        try refuseRequest(sessionID)
        let sent = try await engine().send([rumor])
        return SentPost(postID: sent[0].rumorID, sessionID: sessionID)
    }

    public enum ReactionChange: Equatable, Sendable {
        case added, removed
        /// Asked for a state it already had (the CLI's `react` / `react --off`).
        case unchanged
    }

    /// Toggles our reaction, or with `active` sets it (nothing is sent when it already is so).
    public func react(post postID: String, emoji: String, active wanted: Bool? = nil, now: Int64) async throws -> (change: ReactionChange, sessionID: String) {
        let plan = try planReaction(post: postID, emoji: emoji, active: wanted, now: now)
        if let rumor = plan.rumor { _ = try await engine().send([rumor]) }
        return (plan.change, plan.sessionID)
    }

    /// The reaction's rumor (nil when it already is as asked) and what it changes, the rules checked.
    func planReaction(post postID: String, emoji: String, active wanted: Bool?, now: Int64) throws
        -> (rumor: OutboundRumor?, change: ReactionChange, sessionID: String) {
        let view = try store.postView(postID)
        let session = try view.flatMap { try store.session($0.post.sessionID) }
        let current = try store.myReaction(postID: postID, emoji: emoji.trimmingWhitespace())
        let active = current?.active == true
        if let wanted, wanted == active { return (nil, .unchanged, session?.id ?? "") }
        let rumor = try OutboundPlanner.react(post: view?.post, session: session, me: me, emoji: emoji, current: current, now: now).get()
        if let session { try refuseRequest(session.id) }
        return (rumor, active ? .removed : .added, session?.id ?? "")
    }

    /// Deletes one of our posts for everyone (see `PostDeletion`).
    public func deletePost(_ postID: String, now: Int64) async throws -> PostDeletion.Outcome {
        let view = try store.postView(postID)
        let plan = try OutboundPlanner.deletePost(post: view?.post, session: try view.flatMap { try store.session($0.post.sessionID) }, me: me, now: now).get()
        return try await PostDeletion.carryOut(plan, engine: try await engine())
    }

    // MARK: sessions

    /// Creates a session with `members` (keys in any accepted form); returns its id once relays accepted it.
    public func createSession(name: String, members: [String], now: Int64, random: any RandomSource) async throws -> String {
        let new = try OutboundPlanner.createSession(name: name, members: members, me: me, now: now, random: random).get()
        _ = try await engine().send([new.rumor])
        return new.sessionID
    }

    /// Replaces a session's members (creator only).
    public func setMembers(session sessionID: String, members: [String], now: Int64, random: any RandomSource) async throws {
        let rumors = try OutboundPlanner.editMembers(session: try store.session(sessionID), me: me, members: members, now: now, random: random).get()
        _ = try await engine().send(rumors)
    }

    /// Renames a session (creator only); the name others see once a relay accepted it.
    public func renameSession(_ sessionID: String, to name: String, now: Int64, random: any RandomSource) async throws {
        let rumor = try OutboundPlanner.renameSession(session: try store.session(sessionID), me: me, name: name, now: now, random: random).get()
        _ = try await engine().send([rumor])
    }

    /// Deletes a session for everyone (creator only; wire 2026 §1): the `session_delete` goes to every
    /// member, current and former, and must be accepted; then it is applied here (everything of the
    /// session purged); then, best effort, a kind 5 for the wraps of its posts. Returns what the best-
    /// effort step could not do, in words.
    public func deleteSession(_ sessionID: String, now: Int64, random: any RandomSource) async throws -> [String] {
        let rumor = try OutboundPlanner.deleteSession(session: try store.session(sessionID), me: me, now: now, random: random).get()
        // Read before the delete purges them.
        let wrapIDs = try store.rootWrapIDs(inSession: sessionID)
        let hadPosts = try store.postCount(in: sessionID) > 0
        let engine = try await engine()
        _ = try await engine.send([rumor])
        guard !wrapIDs.isEmpty else { return hadPosts ? [Self.copiesMayRemain] : [] }
        let report = await engine.publishBestEffort(NostrEventTemplates.sessionDeletionRequest(wrapIDs: wrapIDs, now: now))
        return report.deletionLines(kept: "copies of its posts' sealed envelopes")
    }

    static let copiesMayRemain = "relays may keep older copies of its posts' sealed envelopes."

    // MARK: contacts

    /// Follows `pubkey` (the follow list is published first; the contact exists once a relay accepted it)
    /// and sets its private alias. Re-adding only changes the alias.
    public func addContact(_ pubkey: Pubkey, alias: String?) async throws {
        // Following yourself would put you in your own contact list, on every device and in iOS.
        guard pubkey != me else { throw DomainError.message("that is your own key; contacts are other people.") }
        let current = try store.contacts().map(\.pubkey)
        if !current.contains(pubkey) { try await engine().editContacts { $0.contains(pubkey) ? $0 : $0 + [pubkey] } }
        if let alias { _ = try await setAlias(pubkey, alias) }
    }

    public struct Follower: Equatable, Sendable {
        public let pubkey: Pubkey
        public let isContact: Bool
        public let profileName: String?
    }

    public struct AddedYou: Equatable, Sendable {
        public let followers: [Follower]
        /// False when a relay did not send every page: the list may be missing people.
        public let complete: Bool
    }

    /// "Added you" (wire 2026 §7.2): who follows you now, asked of the relays (read-only), each marked
    /// when already a contact. Throws when no relay answered: an unknown list is never shown as empty.
    public func addedYou() async throws -> AddedYou {
        guard let answer = await (try await engine()).addedYou() else {
            throw DomainError.message("no relay answered, so who added you is unknown right now. try again.")
        }
        let contacts = Set(try store.contacts().map(\.pubkey)), names = try store.profileNames()
        return AddedYou(followers: answer.followers.map { Follower(pubkey: $0, isContact: contacts.contains($0), profileName: names[$0]) },
                        complete: answer.complete)
    }

    /// A contact's private alias (blank clears it): set here at once, then synced to your own devices as
    /// an encrypted private preference (wire 2026 §3). False when `pubkey` is not a contact.
    public func setAlias(_ pubkey: Pubkey, _ alias: String?) async throws -> Bool {
        let trimmed = alias?.trimmingWhitespace()
        let name = trimmed?.isEmpty == false ? trimmed : nil
        guard try store.contacts().contains(where: { $0.pubkey == pubkey }) else { return false }
        // Saving the preference applies it here too (one write).
        try await engine().savePreference(.alias(pubkey: pubkey, name: name))
        return true
    }

    /// Archives or unarchives a session: here at once, then synced to your own devices (wire 2026 §3).
    public func setArchived(_ sessionID: String, _ archived: Bool) async throws {
        guard try store.session(sessionID)?.isListed == true else { throw DomainError.message("that session is not available.") }
        // Saving the preference applies it here too (one write).
        try await engine().savePreference(.archive(sessionID: sessionID, archived: archived))
    }

    /// Unfollows `pubkey` (publishes the follow list without it).
    public func removeContact(_ pubkey: Pubkey) async throws {
        let current = try store.contacts().map(\.pubkey)
        guard current.contains(pubkey) else { throw DomainError.message("that key is not in your contacts.") }
        // Their sessions are in the user's list: they stay there rather than turning into requests.
        try keepSessionsListed(createdBy: pubkey)
        try await engine().editContacts { $0.filter { $0 != pubkey } }
        // Their alias is cleared on your other devices too.
        try await engine().savePreference(.alias(pubkey: pubkey, name: nil))
    }
}
