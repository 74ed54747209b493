import LinkstrDomain

/// What a front end reads of an open account: the store's reads and none of its writes. The account's
/// writes are its use cases (`AccountActions`, `AccountSession`); a front end gets this, never the
/// store (`AccountSession.reads`), so every write goes through the rules that guard it.
public protocol AccountReads: Sendable {
    var owner: Pubkey { get }
    /// Rows found damaged by reads so far (`AccountStore+Repair`).
    var damagedRowsSeen: Int { get }
    func setting(_ setting: Setting) throws -> String?
    func sessionSummary(_ id: String) throws -> SessionSummary?
    func sessionSummaries(archived: Bool?) throws -> [SessionSummary]
    func listedSessionIDs() throws -> [String]
    func heldPostCounts() throws -> [String: Int]
    func heldPosts(in sessionID: String) throws -> [HeldPost]
    func postView(_ id: String) throws -> PostView?
    func postPage(in sessionID: String, limit: Int, before: (createdAt: Int64, id: String)?) throws -> [PostView]
    func membershipChanges(in sessionID: String) throws -> [MembershipChange]
    func profileNames() throws -> [Pubkey: String]
    func contacts() throws -> [Contact]
    func linkTitles(for urls: [String]) throws -> [String: String]
    func drafts() throws -> [String: AccountStore.StoredDraft]
    func sendQueue() throws -> [SendQueuePolicy.Item]
    func sendQueueEntries() throws -> [SendQueueEntry]
    func blockedRelayRecord() throws -> AccountStore.BlockedRelayRecord?
    func findDamagedRows() throws -> AccountStore.DamageReport
}

extension AccountReads {
    /// The newest `limit` posts of a session.
    public func postPage(in sessionID: String, limit: Int = 50) throws -> [PostView] { try postPage(in: sessionID, limit: limit, before: nil) }
}

extension AccountStore: AccountReads {}
