import LinkstrDomain

/// What a post search answered.
public enum SearchAction: Equatable, Sendable {
    /// A post search answered (`searchPosts`).
    case postSearchFinished(PostSearchAnswer)
    case postSearchFailed(String)
}
