import LinkstrDomain

/// What a post search answered.
public enum SearchAction: Equatable, Sendable {
    /// A post search answered (`searchPosts`).
    case postSearchFinished(PostSearchAnswer)
    case postSearchFailed(ClientError)
    /// The posts could not be read into the search index.
    case indexReadFailed(ClientError)
}
