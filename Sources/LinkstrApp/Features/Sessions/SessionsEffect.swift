import LinkstrDomain

/// Work for the sessions list and a feed: read them, keep drafts and mutes, make and change sessions.
public enum SessionsEffect: Equatable, Sendable {
    case loadSessions(SessionList)
    case loadFeed(sessionID: String, limit: Int)
    case markSessionRead(String)
    case loadDrafts
    case saveMuted(Set<String>)
    /// Keeps (nil: forgets) a session's unsent composer text, sealed on disk.
    case saveDraft(sessionID: String, Draft?)
    case createSession(name: String, members: [Pubkey])
    case saveMembers(sessionID: String, members: [Pubkey])
    /// Creator only: a new name for the session (wire 2026 §2).
    case renameSession(sessionID: String, name: String)
    case deleteSession(sessionID: String)
    /// `:export-session`: the session written out to `path` (its extension says the form).
    case exportSession(sessionID: String, path: String, replacing: Bool)
    case setArchived(sessionID: String, archived: Bool)
    /// Accept or decline a session request (local only).
    case decideRequest(sessionID: String, RequestDecision)
}
