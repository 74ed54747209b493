import LinkstrDomain

/// What happened to the sessions list and an open feed: rows and posts read, sessions made, renamed, deleted.
public enum SessionsAction: Equatable, Sendable {
    case sessionsLoaded(SessionListing)
    /// `held`: the session's posts the membership gate holds (dated before their sender joined, …).
    case feedLoaded(sessionID: String, summary: SessionSummary?, posts: [PostView], changes: [MembershipChange], hasMore: Bool, held: [HeldPost] = [])
    /// The drafts kept on disk (a restart brings them back).
    case draftsLoaded([String: Draft])
    case mutedLoaded(Set<String>)
    /// News was stored. `listing`: the session list with the touched rows merged in (pushed, not read
    /// back); nil when it could not be made here, and the list is read again.
    /// `details`: what the notifications may say of their posts, by post id (none: they say who did what).
    case messagesArrived(touchedSessions: Set<String>, notifications: [InboundNotification], listing: SessionListing? = nil,
                         details: [String: NewsDetail] = [:])
    /// A session's read state changed here (a session or post marked read): its row and feed are read again.
    case readStateChanged(sessionID: String)
    case sessionCreated(sessionID: String)
    case sessionCreateFailed(ClientError)
    case membersSaved(sessionID: String)
    case sessionRenamed(sessionID: String, name: String)
    /// We deleted the session for everyone; `warnings`: what the best-effort relay request could not do.
    case sessionDeleted(sessionID: String, warnings: [String])
    case sessionExportAnswered(SessionExportOutcome)
    case membersSaveFailed(ClientError)
}
