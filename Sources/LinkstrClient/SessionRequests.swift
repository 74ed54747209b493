import LinkstrDomain
import LinkstrStorage
import NostrProtocol

/// Session lists and requests: which sessions the user sees where, accepting and declining
/// requests, and what a request may not do (notify, fetch previews). Local only: nothing goes to relays.
extension AccountActions {
    /// One of the three lists, from one read of the store.
    public func sessionListing(_ list: SessionList) throws -> SessionListing {
        SessionListing.make(list, from: try store.sessionSummaries(archived: nil), me: me,
                            contacts: Set(try store.contacts().map(\.pubkey)), policy: requests)
    }

    /// Where one session stands; nil when there is no such listed session.
    public func standing(of sessionID: String) throws -> SessionStanding? { try summary(of: sessionID)?.standing }

    public enum RequestError: Error, Equatable, Sendable, CustomStringConvertible {
        case noSuchSession
        case notARequest
        /// Posting or reacting would tell a stranger we are here: accept first.
        case acceptFirst(sessionID: String)
        public var description: String {
            switch self {
            case .noSuchSession: return "no session with that id."
            case .notARequest: return "that session is in your list, not a request."
            case .acceptFirst(let id): return "that session is a request from someone who is not your contact: accept it first (`session accept \(id)`, or y in the requests list)."
            }
        }
    }

    /// Sending into a request (or a declined session) waits for the user's accept.
    func refuseRequest(_ sessionID: String) throws {
        if let standing = try standing(of: sessionID), standing != .listed { throw RequestError.acceptFirst(sessionID: sessionID) }
    }

    /// Accepts a request (or a declined one): the session joins the user's list with everything it received.
    public func acceptRequest(_ sessionID: String) throws { try decideRequest(sessionID, .accepted) }

    /// Declines a request: hidden, no notifications or previews for it; reversible (accept it later).
    public func declineRequest(_ sessionID: String) throws { try decideRequest(sessionID, .declined) }

    /// Records the user's decision on a request (`undecided` makes a declined session a request again).
    /// Sessions in the user's list are not requests and cannot be declined.
    public func decideRequest(_ sessionID: String, _ decision: RequestDecision) throws {
        switch try standing(of: sessionID) {
        case nil: throw RequestError.noSuchSession
        case .listed: throw RequestError.notARequest
        case .request, .declined: try store.setRequestDecision(sessionID, decision)
        }
    }

    /// One session's row, with where it stands.
    public func summary(of sessionID: String) throws -> SessionSummary? {
        guard var row = try store.sessionSummary(sessionID) else { return nil }
        row.standing = requests.standing(creator: row.creator, me: me, contacts: Set(try store.contacts().map(\.pubkey)), decision: row.decision)
        return row
    }

    /// Notifications only for sessions in the user's lists: never for requests or declined sessions.
    /// One indexed lookup per notified session (a batch names one or a few).
    public func notifiable(_ notifications: [InboundNotification]) throws -> [InboundNotification] {
        guard !notifications.isEmpty else { return [] }
        let contacts = Set(try store.contacts().map(\.pubkey))
        var held = [String: Bool]()
        return try notifications.filter { n in
            if let h = held[n.sessionID] { return !h }
            let h = try store.sessionSummary(n.sessionID).map {
                requests.standing(creator: $0.creator, me: me, contacts: contacts, decision: $0.decision) != .listed
            } ?? false
            held[n.sessionID] = h
            return !h
        }
    }

    /// Whether a session's links may be fetched for previews (fetching tells the site our address):
    /// not while it is a stranger's request or declined.
    public func allowsPreviews(inSession sessionID: String) throws -> Bool {
        try standing(of: sessionID) == .listed
    }

    /// Sessions by `creator` that were listed only because they were a contact stay listed.
    func keepSessionsListed(createdBy creator: Pubkey) throws {
        for row in try store.sessionSummaries(archived: nil) where row.creator == creator && row.decision == .undecided {
            try store.setRequestDecision(row.id, .accepted)
        }
    }
}
