import LinkstrDomain

/// What happened to the sessions list and an open feed: rows and posts read, sessions made, renamed, deleted.
public enum SessionsAction: Equatable, Sendable {
    case sessionsLoaded(SessionListing)
    case feedLoaded(sessionID: String, summary: SessionSummary?, posts: [PostView], changes: [MembershipChange], hasMore: Bool)
    /// The drafts kept on disk (a restart brings them back).
    case draftsLoaded([String: Draft])
    case mutedLoaded(Set<String>)
    case messagesArrived(touchedSessions: Set<String>, notifications: [InboundNotification])
    /// A session's read state changed here (a session or post marked read): its row and feed are read again.
    case readStateChanged(sessionID: String)
    case sessionCreated(sessionID: String)
    case sessionCreateFailed(ClientError)
    case membersSaved(sessionID: String)
    case sessionRenamed(sessionID: String, name: String)
    /// We deleted the session for everyone; `warnings`: what the best-effort relay request could not do.
    case sessionDeleted(sessionID: String, warnings: [String])
    case membersSaveFailed(ClientError)
}
