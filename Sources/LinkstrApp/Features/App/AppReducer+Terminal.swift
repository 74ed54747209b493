import LinkstrDomain

/// What the terminal told: its size, the clock, focus.
extension AppReducer {
    /// A resize, a clock tick, focus gained or lost.
    static func applyTerminal(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        switch action {
        case .resized(let size):
            state.screen = size
            clampScrolls(&state)
            return []
        case .clockTicked(let now):
            state.now = now
            if let until = state.settings.revealedUntil, now >= until { hideSecret(&state) }
            // Notes fade; errors stay until replaced or acknowledged.
            if let s = state.status, s.kind != .error, let since = s.since, now - since >= StatusLine.lifetime { state.status = nil }
            // Relay figures are live while shown.
            if state.phase == .main, state.pane == .settings, state.settings.showStats { return [.settings(.refreshRelayStats)] }
            return []

        case .focusChanged(let focused):
            state.terminalFocused = focused
            return []
        default:
            return []
        }
    }
}
