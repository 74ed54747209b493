import NostrProtocol

/// Sessions from strangers wait as requests: anyone can name our key in a `session_create`,
/// so a session whose creator is neither us nor one of our contacts is held apart until we accept it.
/// A local decision only: nothing about it goes on the wire, and ingest stores such a session's traffic
/// as usual (it appears on accept). While a session is a request (or declined) it sends no
/// notification, shows no unread dot and fetches no link preview.

/// What the user decided about a session; `undecided` until they accept or decline it.
public enum RequestDecision: Int, Sendable, CaseIterable {
    case undecided = 0
    case accepted = 1
    case declined = 2
}

/// Where a session stands for this user.
public enum SessionStanding: String, Sendable {
    /// In the user's lists (active or archived).
    case listed
    /// Waiting for the user's decision.
    case request
    /// Declined: hidden, reversible from the requests list.
    case declined
}

/// The three lists a user sees.
public enum SessionList: String, Sendable, CaseIterable {
    case active, archived, requests
}

/// `config.toml`'s `session_requests` (default on).
public struct SessionRequestPolicy: Equatable, Sendable {
    public var holdsStrangers: Bool
    public init(holdsStrangers: Bool = true) { self.holdsStrangers = holdsStrangers }

    /// A decision always counts; otherwise our own sessions and our contacts' are listed, and others
    /// are requests unless the user turned requests off. A session without a known creator is a
    /// stranger's.
    public func standing(creator: Pubkey, me: Pubkey, contacts: Set<Pubkey>, decision: RequestDecision) -> SessionStanding {
        switch decision {
        case .accepted: return .listed
        case .declined: return .declined
        case .undecided:
            guard holdsStrangers, creator != me, !contacts.contains(creator) else { return .listed }
            return .request
        }
    }
}

/// One of the lists, with what the Sessions pane's header says about the others.
public struct SessionListing: Equatable, Sendable {
    public let list: SessionList
    /// Newest activity first. The requests list holds undecided requests first, then declined ones.
    public let rows: [SessionSummary]
    public let hasArchived: Bool
    /// Undecided requests (declined ones are not counted).
    public let requestCount: Int
    /// Active sessions with unread posts, newest first (for "next unread" and the tab's dot).
    public var unreadActive: [SessionSummary] = []
    /// Archived sessions with unread posts (the archive toggle says so).
    public var archivedUnread = 0
    /// Who sent the undecided requests, newest first, each once (the empty list names them).
    public var requestSenders: [Pubkey] = []

    public init(list: SessionList, rows: [SessionSummary], hasArchived: Bool, requestCount: Int) {
        self.list = list; self.rows = rows; self.hasArchived = hasArchived; self.requestCount = requestCount
    }

    /// Sorts every listed session (newest first) into `list`, stamping each row with its standing.
    public static func make(_ list: SessionList, from all: [SessionSummary], me: Pubkey, contacts: Set<Pubkey>,
                            policy: SessionRequestPolicy) -> SessionListing {
        var active = [SessionSummary](), archived = [SessionSummary](), requests = [SessionSummary](), declined = [SessionSummary]()
        for var row in all {
            row.standing = policy.standing(creator: row.creator, me: me, contacts: contacts, decision: row.decision)
            switch row.standing {
            case .listed: if row.archived { archived.append(row) } else { active.append(row) }
            case .request: requests.append(row)
            case .declined: declined.append(row)
            }
        }
        let rows: [SessionSummary]
        switch list {
        case .active: rows = active
        case .archived: rows = archived
        case .requests: rows = requests + declined
        }
        var listing = SessionListing(list: list, rows: rows, hasArchived: !archived.isEmpty, requestCount: requests.count)
        listing.unreadActive = active.filter(\.showsUnread)
        listing.archivedUnread = archived.filter(\.showsUnread).count
        var seen = Set<Pubkey>()
        listing.requestSenders = requests.map(\.creator).filter { !$0.isEmpty && seen.insert($0).inserted }
        return listing
    }
}
