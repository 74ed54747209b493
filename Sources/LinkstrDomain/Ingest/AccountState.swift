/// Everything one account knows, in memory: the reference `IngestStore`. Tests and the property
/// test drive the rules through it; production runs the same rules over SQLite.
public struct AccountState: Equatable, Sendable, IngestStore {
    public let me: Pubkey
    public internal(set) var sessions: [String: SessionRecord] = [:]
    public internal(set) var posts: [String: PostRecord] = [:]
    public internal(set) var reactions: [String: ReactionRecord] = [:]
    public internal(set) var tombstones: [TombstoneKey: Tombstone] = [:]
    public internal(set) var contactsByKey: [Pubkey: Contact] = [:]
    public internal(set) var storedFollowWatermark: LWWStamp?

    var postsBySession: [String: Set<String>] = [:]
    var reactionsByPost: [String: Set<String>] = [:]
    var reactionsBySession: [String: Set<String>] = [:]
    var tombstonesByPost: [String: Set<TombstoneKey>] = [:]

    public init(me: Pubkey) { self.me = me }

    public func session(_ id: String) -> SessionRecord? { sessions[id] }
    public mutating func setSession(_ session: SessionRecord) { sessions[session.id] = session }

    public func post(_ id: String) -> PostRecord? { posts[id] }
    public func postIDs(inSession sessionID: String) -> [String] { (postsBySession[sessionID] ?? []).sorted() }
    public mutating func setPost(_ post: PostRecord) {
        posts[post.id] = post
        postsBySession[post.sessionID, default: []].insert(post.id)
    }
    public mutating func removePost(_ id: String) {
        if let p = posts.removeValue(forKey: id) { postsBySession[p.sessionID]?.remove(id) }
    }

    public func reaction(_ id: String) -> ReactionRecord? { reactions[id] }
    public func reactionIDs(forPost postID: String) -> [String] { (reactionsByPost[postID] ?? []).sorted() }
    public func reactionIDs(inSession sessionID: String) -> [String] { (reactionsBySession[sessionID] ?? []).sorted() }
    public mutating func setReaction(_ reaction: ReactionRecord) {
        reactions[reaction.id] = reaction
        reactionsByPost[reaction.postID, default: []].insert(reaction.id)
        reactionsBySession[reaction.sessionID, default: []].insert(reaction.id)
    }
    public mutating func removeReaction(_ id: String) {
        if let r = reactions.removeValue(forKey: id) {
            reactionsByPost[r.postID]?.remove(id)
            reactionsBySession[r.sessionID]?.remove(id)
        }
    }

    public func tombstoneKeys(forPost postID: String) -> [TombstoneKey] {
        (tombstonesByPost[postID] ?? []).sorted { ($0.sessionID, $0.deleter) < ($1.sessionID, $1.deleter) }
    }
    public func tombstoneKeys(inSession sessionID: String) -> [TombstoneKey] {
        tombstones.keys.filter { $0.sessionID == sessionID }.sorted { ($0.postID, $0.deleter) < ($1.postID, $1.deleter) }
    }
    public func tombstone(_ key: TombstoneKey) -> Tombstone? { tombstones[key] }
    public mutating func setTombstone(_ tombstone: Tombstone) {
        tombstones[tombstone.key] = tombstone
        tombstonesByPost[tombstone.key.postID, default: []].insert(tombstone.key)
    }
    public mutating func removeTombstone(_ key: TombstoneKey) {
        tombstones.removeValue(forKey: key)
        tombstonesByPost[key.postID]?.remove(key)
    }

    public var followWatermark: LWWStamp? { storedFollowWatermark }
    public func contacts() -> [Contact] { contactsByKey.values.sorted { $0.pubkey < $1.pubkey } }
    public mutating func setContacts(_ contacts: [Contact], watermark: LWWStamp?) {
        contactsByKey = Dictionary(uniqueKeysWithValues: contacts.map { ($0.pubkey, $0) })
        storedFollowWatermark = watermark
    }

    /// Posts whose deletion was validated.
    public var deletedPostIDs: Set<String> { Set(tombstones.values.filter(\.validated).map(\.key.postID)) }
    public var contactList: [Contact] { contacts() }
}
