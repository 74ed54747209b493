import LinkstrDomain
import LinkstrStorage
import LinkstrSync
import NostrProtocol

/// What a front end asks of the open account that goes to relays (posts, reactions, sessions, members,
/// contacts, the profile name, "added you"), as a struct of closures: `live` runs the account's use
/// cases, `failing` answers every call with one error, and a test builds its own in between. The
/// answers carry only what the front end needs.
public struct AccountClient: Sendable {
    public typealias Now = Int64

    public var sendPost: @Sendable (_ sessionID: String, _ url: String, _ note: String?, _ now: Now) async throws -> AccountActions.SentPost
    /// `removed`: the reaction was taken back (the same emoji again).
    public var react: @Sendable (_ postID: String, _ emoji: String, _ now: Now) async throws -> (sessionID: String, removed: Bool)
    /// The post's session, and what relays kept of it.
    public var deletePost: @Sendable (_ postID: String, _ now: Now) async throws -> (sessionID: String, warnings: [String])
    /// The new session's id.
    public var createSession: @Sendable (_ name: String, _ members: [Pubkey], _ now: Now) async throws -> String
    public var setMembers: @Sendable (_ sessionID: String, _ members: [Pubkey], _ now: Now) async throws -> Void
    public var renameSession: @Sendable (_ sessionID: String, _ name: String, _ now: Now) async throws -> Void
    /// What relays could not be asked to forget (best effort).
    public var deleteSession: @Sendable (_ sessionID: String, _ now: Now) async throws -> [String]
    public var setArchived: @Sendable (_ sessionID: String, _ archived: Bool) async throws -> Void
    public var decideRequest: @Sendable (_ sessionID: String, _ decision: RequestDecision) throws -> Void
    public var addContact: @Sendable (_ pubkey: Pubkey, _ alias: String?) async throws -> Void
    public var setAlias: @Sendable (_ pubkey: Pubkey, _ alias: String?) async throws -> Void
    /// The contacts left.
    public var removeContact: @Sendable (_ pubkey: Pubkey) async throws -> [Contact]
    public var publishProfileName: @Sendable (_ name: String?) async throws -> Void
    /// Who follows us, as the relays answered (`complete`: every relay gave its whole answer).
    public var addedYou: @Sendable () async throws -> (followers: [Pubkey], complete: Bool)
    public var watchAddedYou: @Sendable (_ on: Bool) async -> Void

    public init(sendPost: @escaping @Sendable (String, String, String?, Now) async throws -> AccountActions.SentPost,
                react: @escaping @Sendable (String, String, Now) async throws -> (sessionID: String, removed: Bool),
                deletePost: @escaping @Sendable (String, Now) async throws -> (sessionID: String, warnings: [String]),
                createSession: @escaping @Sendable (String, [Pubkey], Now) async throws -> String,
                setMembers: @escaping @Sendable (String, [Pubkey], Now) async throws -> Void,
                renameSession: @escaping @Sendable (String, String, Now) async throws -> Void,
                deleteSession: @escaping @Sendable (String, Now) async throws -> [String],
                setArchived: @escaping @Sendable (String, Bool) async throws -> Void,
                decideRequest: @escaping @Sendable (String, RequestDecision) throws -> Void,
                addContact: @escaping @Sendable (Pubkey, String?) async throws -> Void,
                setAlias: @escaping @Sendable (Pubkey, String?) async throws -> Void,
                removeContact: @escaping @Sendable (Pubkey) async throws -> [Contact],
                publishProfileName: @escaping @Sendable (String?) async throws -> Void,
                addedYou: @escaping @Sendable () async throws -> (followers: [Pubkey], complete: Bool),
                watchAddedYou: @escaping @Sendable (Bool) async -> Void) {
        self.sendPost = sendPost; self.react = react; self.deletePost = deletePost; self.createSession = createSession
        self.setMembers = setMembers; self.renameSession = renameSession; self.deleteSession = deleteSession
        self.setArchived = setArchived; self.decideRequest = decideRequest; self.addContact = addContact
        self.setAlias = setAlias; self.removeContact = removeContact; self.publishProfileName = publishProfileName
        self.addedYou = addedYou; self.watchAddedYou = watchAddedYou
    }

    /// The open account's use cases. What goes to relays goes through the send queue: applied
    /// here and answered at once, sent when a relay takes it (the best-effort NIP-09 requests after it,
    /// so a delete's answer carries no relay's words).
    public static func live(_ session: AccountSession, requests: SessionRequestPolicy) -> AccountClient {
        let actions = session.actions(requests: requests), store = session.store, engine = session.engine
        return AccountClient(
            sendPost: { sid, url, note, now in
                let queued = try await actions.queuePost(session: sid, url: url, note: note, now: now)
                return AccountActions.SentPost(postID: queued.postID ?? "", sessionID: sid)
            },
            react: { id, emoji, now in
                let result = try await actions.queueReaction(post: id, emoji: emoji, now: now)
                return (result.queued?.sessionID ?? "", result.change == .removed)
            },
            deletePost: { id, now in (try await actions.queueDeletePost(id, now: now).sessionID, []) },
            createSession: { name, members, now in
                try await actions.queueCreateSession(name: name, members: members, now: now, random: SystemRandom()).sessionID
            },
            setMembers: { sid, members, now in _ = try await actions.queueSetMembers(session: sid, members: members, now: now, random: SystemRandom()) },
            renameSession: { sid, name, now in _ = try await actions.queueRenameSession(sid, to: name, now: now, random: SystemRandom()) },
            deleteSession: { sid, now in _ = try await actions.queueDeleteSession(sid, now: now, random: SystemRandom()); return [] },
            setArchived: { sid, archived in try await actions.setArchived(sid, archived) },
            decideRequest: { sid, decision in try actions.decideRequest(sid, decision) },
            addContact: { pk, alias in try await actions.addContact(pk, alias: alias) },
            setAlias: { pk, alias in _ = try await actions.setAlias(pk, alias) },
            removeContact: { pk in
                try await actions.removeContact(pk)
                return try store.contacts()
            },
            publishProfileName: { name in _ = try await engine.publishProfileName(name) },
            addedYou: {
                let answer = try await actions.addedYou()
                return (answer.followers.map(\.pubkey), answer.complete)
            },
            watchAddedYou: { on in await engine.watchAddedYou(on) })
    }

    /// Every call fails with `error` (a test's client for the failure answers).
    public static func failing(_ error: ClientError) -> AccountClient {
        AccountClient(
            sendPost: { _, _, _, _ in throw error }, react: { _, _, _ in throw error }, deletePost: { _, _ in throw error },
            createSession: { _, _, _ in throw error }, setMembers: { _, _, _ in throw error }, renameSession: { _, _, _ in throw error },
            deleteSession: { _, _ in throw error }, setArchived: { _, _ in throw error }, decideRequest: { _, _ in throw error },
            addContact: { _, _ in throw error }, setAlias: { _, _ in throw error }, removeContact: { _ in throw error },
            publishProfileName: { _ in throw error }, addedYou: { throw error }, watchAddedYou: { _ in })
    }
}
