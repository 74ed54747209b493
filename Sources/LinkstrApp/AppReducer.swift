import LinkstrDomain

/// The app's reducer: `(inout AppState, AppAction) -> [AppEffect]`. Pure: no I/O, no clock, no randomness.
/// Pane-specific handling lives in the `AppReducer+…` files.
public enum AppReducer {
    /// Posts loaded per feed page.
    public static let feedPage = 50
    /// How long a revealed nsec stays on screen.
    public static let revealSeconds: Int64 = 60

    public static func reduce(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        // Esc acknowledges an error (and still does what it does).
        if case .keyPressed(.escape) = action, state.status?.kind == .error { state.status = nil }
        let said = state.status
        var effects = oneAtATime(&state, apply(&state, action))
        if let status = state.status, status != said { keepMessage(&state, status) }
        effects += showNextWaitingLink(&state)
        keepSessionSelectionVisible(&state)
        if state.status != nil, state.status?.since == nil { state.status?.since = state.now }
        return effects
    }

    /// The session list scrolls only as far as needed to keep the selection on screen, so the rows stay
    /// where they were when the selection moves back up, and a click maps to the row drawn under it.
    static func keepSessionSelectionVisible(_ state: inout AppState) {
        let count = state.sessions.visibleRows.count
        let scroll = Layout.visibleScroll(selection: state.sessions.selection, scroll: state.sessions.scroll,
                                          capacity: Layout.sessionCapacity(screenRows: state.screen.rows), count: count)
        if scroll != state.sessions.scroll { state.sessions.scroll = scroll }
    }

    /// Only routes: each feature's file takes its own results and keys.
    static func apply(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        switch action {
        case .keyPressed(let key): return handleKey(&state, key)
        case .textPasted(let text): return handlePaste(&state, text)
        case .mouseUsed(let event): return handleMouse(&state, event)
        case .resized, .clockTicked, .focusChanged: return applyTerminal(&state, action)
        case .started, .bootStepReached, .storeOpenFailed, .linkReceived, .identityReady, .loggedOut, .wiped:
            return applyLifecycle(&state, action)
        case .failed, .copyFinished, .commandHistoryLoaded: return applyOutcome(&state, action)
        case .positionLoaded: return applyPosition(&state, action)
        case .idled, .lockLifted: return applyLock(&state, action)
        case .onboarding(let action): return apply(&state, action)
        case .sessions(let action): return apply(&state, action)
        case .post(let action): return apply(&state, action)
        case .you(let action): return apply(&state, action)
        case .settings(let action): return apply(&state, action)
        case .search(let action): return apply(&state, action)
        }
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
