import LinkstrDomain

/// Where the app was when it quit: the pane, the open session and its selected post (a restart always
/// began at the top of the session list). Saved sealed with the account's settings.
public struct UIPosition: Codable, Equatable, Sendable {
    public var pane: String
    public var sessionID: String?
    public var postID: String?

    public init(pane: String, sessionID: String?, postID: String?) {
        self.pane = pane
        self.sessionID = sessionID
        self.postID = postID
    }

    /// The position of `state`, or nil when there is nothing worth coming back to (not in the main screen).
    public init?(_ state: AppState) {
        guard state.phase == .main else { return nil }
        pane = state.pane.name
        let feed = state.sessions.open
        sessionID = feed?.sessionID
        if case .detail(let d) = state.post.mode, state.pane == .post {
            postID = d.postID
            sessionID = d.view?.post.sessionID ?? sessionID
        } else {
            postID = feed?.posts[safe: feed?.selection ?? 0]?.id
        }
    }
}

extension AppState.Pane {
    var name: String {
        switch self {
        case .sessions: return "sessions"
        case .post: return "post"
        case .you: return "you"
        case .settings: return "settings"
        }
    }
}
