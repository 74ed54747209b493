import LinkstrDomain
import LinkstrStorage

extension AccountStore {
    /// Each member's delivery of `postID` (ours only; nothing recorded: none), members in key order.
    /// The candidates are everyone the session ever had: the record is per member of the send.
    public func deliveryRows(of postID: String) throws -> [MemberDeliveryRow] {
        guard let view = try postView(postID) else { return [] }
        return try deliveryRows(of: view.post)
    }

    /// The same for a post already read (opening one reads it once).
    public func deliveryRows(of post: PostRecord) throws -> [MemberDeliveryRow] {
        guard post.author == owner, let session = try session(post.sessionID) else { return [] }
        let members = Set(session.snapshots.values.flatMap(\.members)).subtracting([owner]).sorted()
        let found = try deliveries(post.id, members: members)
        return members.compactMap { m in found[m].map { MemberDeliveryRow(member: m, outcome: $0) } }
    }
}
