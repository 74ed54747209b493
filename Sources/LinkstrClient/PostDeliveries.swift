import LinkstrDomain
import LinkstrStorage

extension AccountStore {
    /// Each member's delivery of `postID` (ours only; nothing recorded: none), members in key order.
    /// The candidates are everyone the session ever had: the record is per member of the send.
    public func deliveryRows(of postID: String) throws -> [MemberDeliveryRow] {
        guard let view = try postView(postID), view.post.author == owner, let session = try session(view.post.sessionID) else { return [] }
        let members = Set(session.snapshots.values.flatMap(\.members)).subtracting([owner]).sorted()
        let found = try deliveries(postID, members: members)
        return members.compactMap { m in found[m].map { MemberDeliveryRow(member: m, outcome: $0) } }
    }
}
