import LinkstrDomain
import LinkstrStorage

/// Before sending: which members of a session a post cannot reach where they read, from
/// what is stored (their lists, our blocked relays), with no connection made: the composer warns.
extension AccountStore {
    /// One line per member who is not reached by a relay they read, named as the app names them.
    public func reachWarnings(session sessionID: String, ours: [String], now: Int64, budget: DeliveryRelayChoice.Budget = .standard) throws -> [String] {
        guard let session = try session(sessionID) else { return [] }
        let members = session.derived.currentMembers.filter { $0 != owner }.sorted()
        guard !members.isEmpty else { return [] }
        let recipients = try members.map(deliveryRecipient)
        let plan = DeliveryRelayChoice.plan(recipients, ours: Set(ours), blocked: try blockedRelays(), budget: budget, now: now)
        let naming = try PersonNaming(self)
        return members.compactMap { m in
            guard let reason = plan.unreached[m] else { return nil }
            let name = DisplayText.singleLine(naming.name(m))
            return reason == .noList ? "\(name) names no inbox: only your shared relays may carry it"
                : "\(name) cannot be reached: \(MemberDelivery.words(reason))"
        }
    }
}
