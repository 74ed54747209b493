import LinkstrDomain

/// The "Shared link" box: a link handed in from outside and the session it will be shared into,
/// picked from the sessions the user can post to by typing part of a name.
public struct SharedLinkPicker: Equatable, Sendable {
    public var link: DeepLink.Link
    public var filter = TextField()
    /// Indexes `choices(in:)`.
    public var selection = 0

    public init(_ link: DeepLink.Link, selecting sessionID: String? = nil, in sessions: SessionsState) {
        self.link = link
        if let sessionID, let i = choices(in: sessions).firstIndex(where: { $0.id == sessionID }) { selection = i }
    }

    /// The sessions a post can go into (member of, not a request), in the list's order, filtered by name.
    public func choices(in sessions: SessionsState) -> [SessionSummary] {
        SessionsState.named(sessions.rows.filter { $0.isMember && $0.standing == .listed }, filter.text)
    }

    public func chosen(in sessions: SessionsState) -> SessionSummary? {
        choices(in: sessions)[safe: selection]
    }
}
