import LinkstrDomain

/// Opening where the app was: the saved position waits for the session list, then
/// opens its session, selects its post and shows its pane, unless the user already went elsewhere.
extension AppReducer {
    static func applyPosition(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        guard case .positionLoaded(let position) = action else { return [] }
        // Only into an untouched start: the user's own first keys win.
        guard state.phase == .main, state.pane == .sessions, state.sessions.open == nil else { return [] }
        state.pendingPosition = position
        return restorePendingPosition(&state)
    }

    /// Called once the session list is loaded (and when the position arrives after it).
    static func restorePendingPosition(_ state: inout AppState) -> [AppEffect] {
        guard let position = state.pendingPosition, !state.sessions.loading else { return [] }
        state.pendingPosition = nil
        guard state.pane == .sessions, state.sessions.open == nil else { return [] }
        switch position.pane {
        case "you": state.pane = .you; return [.you(.loadIdentities)]
        case "settings": state.pane = .settings; return []
        default: break
        }
        guard let sid = position.sessionID, let i = state.sessions.visibleRows.firstIndex(where: { $0.id == sid }) else { return [] }
        let row = state.sessions.visibleRows[i]
        state.sessions.selection = i
        var effects = openSession(&state, row)
        state.sessions.open?.selectWhenLoaded = position.postID
        if position.pane == "post", let pid = position.postID { effects += openPost(&state, pid, sessionName: row.name) }
        return effects
    }
}
