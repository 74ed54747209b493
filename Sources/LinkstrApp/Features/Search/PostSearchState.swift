import LinkstrDomain

/// What a post search found, as the runtime answers it.
public struct PostSearchAnswer: Equatable, Sendable {
    public var query: String
    /// nil: every session.
    public var sessionID: String?
    /// Newest first.
    public var hits: [SearchHit]
    /// More posts matched than `hits` holds.
    public var truncated: Bool
    /// The first hits as posts, in the same order, for a results list to show (at most `previewCount`).
    public var previews: [PostView]
    /// The names of the sessions the previews are in.
    public var sessionNames: [String: String]
    public var indexedPosts: Int
    public static let previewCount = 200
    public init(query: String, sessionID: String?, hits: [SearchHit], truncated: Bool, previews: [PostView],
                sessionNames: [String: String] = [:], indexedPosts: Int) {
        self.query = query; self.sessionID = sessionID; self.hits = hits; self.truncated = truncated
        self.previews = previews; self.sessionNames = sessionNames; self.indexedPosts = indexedPosts
    }
}

/// A search in force: typed with `/` in a feed (one session) or `:search` (all); `n`/`N` walk its hits.
public struct PostSearchState: Equatable, Sendable {
    public var query: String
    public var sessionID: String?
    public var hits: [SearchHit] = []
    public var previews: [PostView] = []
    public var sessionNames: [String: String] = [:]
    public var truncated = false
    /// The hit shown, once one is.
    public var current: Int?
    public var searching = true
    public init(query: String, sessionID: String?) { self.query = query; self.sessionID = sessionID }

    /// "3/17", "3/2000+".
    public var position: String {
        guard let current, !hits.isEmpty else { return "\(hits.count)\(truncated ? "+" : "")" }
        return "\(current + 1)/\(hits.count)\(truncated ? "+" : "")"
    }
}
