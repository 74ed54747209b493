import LinkstrDomain

public struct SessionsState: Equatable, Sendable {
    public var rows: [SessionSummary] = []
    /// Which list the pane shows: the active sessions, the archived ones, or requests from strangers.
    public var list: SessionList = .active
    public var hasArchived = false
    /// Undecided requests, for the pane's header.
    public var requestCount = 0
    /// Who sent the waiting requests, newest first.
    public var requestSenders: [Pubkey] = []
    /// Active sessions with unread posts, newest first (`u` goes to the next; the tab shows a dot).
    public var unreadActive: [SessionSummary] = []
    /// Archived sessions with unread posts (the archive hint says so).
    public var archivedUnread = 0
    public var selection = 0
    public var scroll = 0
    /// Inline search (`/`); nil when not searching.
    public var search: TextField?
    /// The open session's feed, when one is open.
    public var open: SessionFeed?
    public var loading = true
    public init() {}

    public var visibleRows: [SessionSummary] {
        guard let search else { return rows }
        return Self.named(rows, search.text)
    }

    /// The rows whose name contains `query` (any case); every row for an empty query.
    public static func named(_ rows: [SessionSummary], _ query: String) -> [SessionSummary] {
        guard !query.isEmpty else { return rows }
        // No session name is longer than one message: a longer search matches nothing (and is not scanned).
        guard query.utf8.count <= MessageLimits.content else { return [] }
        let q = query.lowercased()
        return rows.filter { $0.name.lowercased().contains(q) }
    }
}

public struct SessionFeed: Equatable, Sendable {
    public var sessionID: String
    public var summary: SessionSummary?
    public var posts: [PostView] = []
    public var membershipChanges: [MembershipChange] = []
    /// Posts held for want of membership, oldest first: counted under the feed, listed by `:held`.
    public var held: [HeldPost] = []
    public var selection = 0
    /// The first post shown (kept by the reducer as the selection moves; PgDn/PgUp move it a screen).
    public var scroll = 0
    public var loading = true
    public var hasMore = false
    /// A post to select once the feed has it (the one just sent).
    public var selectWhenLoaded: String?
    /// `G`/`End` asked for the oldest post: selected once the rest of the feed is loaded.
    public var selectOldestWhenLoaded = false
    /// Posts from others that arrived above while the reader was further down ("↑ N new"; `g` goes up).
    public var newAbove = 0
    /// The `/` prompt of a search in this session, while it is typed.
    public var searchField: TextField?
    /// Link hints on screen (`f` open, `F` copy): the next key names a post by its label.
    public var hints: LinkHints?
    public init(sessionID: String) { self.sessionID = sessionID }
}

/// What a link hint does to the link it names.
public enum LinkHints: Equatable, Sendable {
    case open, copy

    /// The labels, in order: one key each.
    public static let labels: [Character] = Array("123456789abcdeghijklmnopqrstuvwxyz")

    /// The posts that get a label: a window of `labels.count` around the selection (so the posts on
    /// screen have one whatever the terminal's height), and each one's label.
    public static func labelled(selection: Int, count: Int) -> [(post: Int, label: Character)] {
        let start = max(0, min(selection - labels.count / 2, count - labels.count))
        return (start..<min(count, start + labels.count)).map { ($0, labels[$0 - start]) }
    }
}
