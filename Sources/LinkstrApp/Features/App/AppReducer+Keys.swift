import LinkstrDomain

/// Keys: what the phase, an overlay, a field or the keymap make of a key, and the pane it goes to.
/// Each pane's own keys are in its feature's file.
extension AppReducer {
    static func handleKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        if key == .ctrl("c") { return quit(&state) }
        switch state.phase {
        case .booting: return []
        case .recovery:
            switch key {
            case .char("r"), .enter: state.phase = .booting(.loadingAccount); return [.boot]
            case .char("m"): state.phase = .booting(.preparingLocalData); return [.onboarding(.continueInMemory)]
            case .char("q"): return [.quit]
            default: return []
            }
        case .unlock: return unlockKey(&state, key)
        case .onboarding: return onboardingKey(&state, key)
        case .main: if key == lockKey { return lock(&state) }
        }
        if state.overlay != nil { return overlayKey(&state, key) }
        if textFocused(state) { return paneKey(&state, key) }
        guard let key = state.keymap.translate(key, in: keyContext(state)) else { return [] }
        switch key {
        case .char("?"): state.overlay = .help; state.helpScroll = 0; return []
        case .char(":"):
            state.overlay = .commandLine(TextField())
            state.historyIndex = nil
            return []
        case .char(let c) where ("1"..."4").contains(c):
            return switchPane(&state, to: AppState.Pane(rawValue: Int(String(c))!)!)
        case .tab: return switchPane(&state, to: AppState.Pane(rawValue: state.pane.rawValue % 4 + 1)!)
        case .backTab: return switchPane(&state, to: AppState.Pane(rawValue: (state.pane.rawValue + 2) % 4 + 1)!)
        case .char("q") where !inNestedView(state): return quit(&state)
        case .char("u"): return nextUnread(&state)
        case lockKey: return lock(&state)  // as remapped in keys.toml
        default: return paneKey(&state, key)
        }
    }

    static func isSending(_ state: AppState, _ sessionID: String) -> Bool {
        if case .composer(let c) = state.post.mode { return c.sending && c.sessionID == sessionID }
        return false
    }

    /// Commands kept for ↑/↓ (and on disk).
    public static let commandHistoryLimit = 100

    /// Quitting: with text in the composer it asks first, then keeps it as the session's draft.
    static func quit(_ state: inout AppState) -> [AppEffect] {
        guard state.phase == .main, case .composer(let c) = state.post.mode, !c.draft.isEmpty, !c.sending else { return [.quit] }
        if case .confirm(let confirmation)? = state.overlay, confirmation.action == .quitKeepingDraft { return [.sessions(.saveDraft(sessionID: c.sessionID, c.draft)), .quit] }
        state.overlay = .confirm(Confirmation(.quitKeepingDraft, "quit? what you typed is kept as this session's draft. (y/n)"))
        return []
    }

    static func paneKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        switch state.pane {
        case .sessions: return sessionsKey(&state, key)
        case .post: return postKey(&state, key)
        case .you: return youKey(&state, key)
        case .settings: return settingsKey(&state, key)
        }
    }

    /// True while typing into a field of the current pane (keys are text, not commands).
    static func textFocused(_ state: AppState) -> Bool {
        switch state.pane {
        case .sessions: return (state.sessions.search != nil && state.sessions.open == nil) || state.sessions.open?.searchField != nil
            || state.sessions.open?.hints != nil
        case .post: if case .composer = state.post.mode { return true }; return false
        case .you: return state.you.editingName != nil
        case .settings: return state.settings.adding != nil || state.settings.ownList?.adding != nil
        }
    }

    /// Which bindings of the keymap apply now (outside fields and overlays).
    public static func keyContext(_ state: AppState) -> KeyContext {
        switch state.pane {
        case .sessions: return state.sessions.open == nil ? .list : .feed
        case .post: if case .detail = state.post.mode { return .post }; return .global
        case .you: return .you
        case .settings: return .settings
        }
    }

    static func inNestedView(_ state: AppState) -> Bool {
        (state.pane == .sessions && state.sessions.open != nil) || (state.pane == .post && state.post.mode != .empty)
    }

    static func switchPane(_ state: inout AppState, to pane: AppState.Pane) -> [AppEffect] {
        guard pane != state.pane else { return [] }
        // Leaving Settings hides the secret; leaving Sessions resets the archived list mode (readme v2).
        if state.pane == .settings { hideSecret(&state) }
        var effects: [AppEffect] = []
        if state.pane == .sessions, state.sessions.list != .active {
            state.sessions.list = .active
            state.sessions.selection = 0
            effects.append(.sessions(.loadSessions(.active)))
        }
        state.pane = pane
        state.status = nil
        if pane == .you { effects.append(.you(.loadIdentities)) }
        if pane == .settings { effects.append(.settings(.loadMediaUsage)) }
        return effects
    }

    static func hideSecret(_ state: inout AppState) {
        state.settings.revealedSecret = nil
        state.settings.revealedUntil = nil
    }
}
