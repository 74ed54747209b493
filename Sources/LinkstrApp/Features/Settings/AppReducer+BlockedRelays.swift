import LinkstrDomain

/// Settings' blocked relays (`b`): a adds one (never dialled from then on), x takes the selected one
/// off, b or Esc goes back to our relays. Published as our kind 10006 by the effect.
extension AppReducer {
    static func blockedRelaysKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        guard var view = state.settings.blocked else { return [] }
        defer { if state.settings.blocked != nil { state.settings.blocked = view } }
        if var field = view.adding {
            switch key {
            case .escape:
                view.adding = nil
            case .enter:
                guard let url = RelayURL.normalized(field.text) else {
                    state.status = StatusLine(RelayURL.invalidMessage, .error)
                    return []
                }
                if state.settings.relays.contains(where: { $0.url == url }) {
                    state.status = StatusLine("\(url) is one of your relays: remove it first.", .error)
                    return []
                }
                view.adding = nil
                state.status = StatusLine("blocking \(url)…")
                return [.settings(.blockRelay(url))]
            default:
                editField(&field, key)
                view.adding = field
            }
            return []
        }
        let selected = view.relays[safe: view.selection]
        switch key {
        case .escape, .char("b"):
            state.settings.blocked = nil
        case .down, .char("j"): view.selection = min(view.selection + 1, max(0, view.relays.count - 1))
        case .up, .char("k"): view.selection = max(0, view.selection - 1)
        case .char("a"): view.adding = TextField("wss://")
        case .char("x"), .delete:
            guard let url = selected else { return [] }
            state.status = StatusLine("unblocking \(url)…")
            return [.settings(.unblockRelay(url))]
        default: break
        }
        return []
    }

    static func applyBlockedRelays(_ state: inout AppState, _ action: SettingsAction) -> [AppEffect] {
        switch action {
        case .blockedRelaysLoaded(let relays, let pending):
            guard var view = state.settings.blocked else { return [] }
            view.relays = relays
            view.pending = pending
            view.loaded = true
            view.selection = min(view.selection, max(0, relays.count - 1))
            state.settings.blocked = view
        case .blockedRelayEdited(let url, let blocked, let note):
            let done = blocked ? "blocked \(url): it is never dialled." : "unblocked \(url)."
            state.status = note.map { StatusLine(done + " " + $0, .warning) } ?? StatusLine(done, .success)
            if state.settings.blocked != nil { return [.settings(.loadBlockedRelays)] }
        default: break
        }
        return []
    }
}
