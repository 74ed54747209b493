import LinkstrDomain

/// Work for post search: the index, a query.
public enum SearchEffect: Equatable, Sendable {
    /// Reads every post into the in-memory search index, in the background (when a search prompt opens;
    /// a no-op once it is read).
    case buildSearchIndex
    /// Searches notes, URLs and titles of one session's posts (nil: all sessions).
    case searchPosts(query: String, sessionID: String?)
}
