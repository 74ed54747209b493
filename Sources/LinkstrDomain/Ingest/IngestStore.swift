/// What the ingest rules read and write. The rules (`IngestStore+Rules`) are written once against
/// this protocol: `AccountState` implements it in memory (the reference, used by the property tests),
/// and the storage layer implements it over SQLite, write-through inside one transaction per batch.
/// Lookups include staged (pending) records.
public protocol IngestStore {
    var me: Pubkey { get }

    func session(_ id: String) throws -> SessionRecord?
    mutating func setSession(_ session: SessionRecord) throws

    func post(_ id: String) throws -> PostRecord?
    /// Every post of the session, visible or staged (asked before each is checked again: the store may read ahead).
    mutating func postIDs(inSession sessionID: String) throws -> [String]
    mutating func setPost(_ post: PostRecord) throws
    mutating func removePost(_ id: String) throws

    func reaction(_ id: String) throws -> ReactionRecord?
    func reactionIDs(forPost postID: String) throws -> [String]
    func reactionIDs(inSession sessionID: String) throws -> [String]
    mutating func setReaction(_ reaction: ReactionRecord) throws
    mutating func removeReaction(_ id: String) throws

    func tombstoneKeys(forPost postID: String) throws -> [TombstoneKey]
    func tombstoneKeys(inSession sessionID: String) throws -> [TombstoneKey]
    func tombstone(_ key: TombstoneKey) throws -> Tombstone?
    mutating func setTombstone(_ tombstone: Tombstone) throws
    mutating func removeTombstone(_ key: TombstoneKey) throws

    var followWatermark: LWWStamp? { get throws }
    func contacts() throws -> [Contact]
    mutating func setContacts(_ contacts: [Contact], watermark: LWWStamp?) throws
}

extension IngestStore {
    /// A post whose author deleted it (a validated tombstone exists).
    public func isPostDeleted(_ postID: String) throws -> Bool {
        try tombstoneKeys(forPost: postID).contains { try tombstone($0)?.validated == true }
    }
}
