import LinkstrDomain

/// Links handed in one after another (`linkstr open`, the desktop entry): a second one arriving while the
/// first one's box is open replaced it, and the first was lost without a word. Now it waits, is said on
/// the status line, and its box opens once the one before is done (posted, or discarded after asking).
extension AppReducer {
    /// Whether a shared link's box, the question before discarding one, or the new session it waits
    /// for is on screen.
    static func isChoosingSharedLink(_ state: AppState) -> Bool {
        switch state.overlay {
        case .sharedLink?: return true
        case .newSession(let form)?: return form.sharing != nil
        case .confirm(let c)?:
            if case .discardSharedLink = c.action { return true }
            return false
        default: return false
        }
    }

    /// Keeps `link` for later: before the account is open (the first one, as at launch), or behind a box.
    static func wait(_ state: inout AppState, _ link: DeepLink.Link) -> [AppEffect] {
        if state.phase != .main, state.pendingLink == nil {
            state.pendingLink = link
            return []
        }
        state.waitingLinks.append(link)
        if state.phase == .main {
            let count = state.waitingLinks.count
            state.status = StatusLine("\(count) more shared link\(count == 1 ? "" : "s") waiting: shown when this one is done", .info)
        }
        return []
    }

    /// The next waiting link's box, once nothing else is open over the main screen and no composer is
    /// open (the link before it may be there, being written about: it is sent or left first).
    static func showNextWaitingLink(_ state: inout AppState) -> [AppEffect] {
        guard state.phase == .main, state.overlay == nil, state.pendingLink == nil, !state.waitingLinks.isEmpty else { return [] }
        if case .composer = state.post.mode { return [] }
        return showSharedLink(&state, state.waitingLinks.removeFirst())
    }
}
