import LinkstrDomain

/// Settings' own relay lists, shown in place of the relays we use: `b` the blocked relays (kind 10006:
/// never dialled), `i` the inbox relays (kind 10050: where we read gift wraps). a adds one, x takes the
/// selected one off, R (inbox) goes back to the relays we use, b/i or Esc closes. Published by the effects.
extension AppReducer {
    static func ownRelayListKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        guard var view = state.settings.ownList else { return [] }
        defer { if state.settings.ownList != nil { state.settings.ownList = view } }
        if var field = view.adding {
            switch key {
            case .escape:
                view.adding = nil
            case .enter:
                guard let url = RelayURL.normalized(field.text) else {
                    state.status = StatusLine(RelayURL.invalidMessage, .error)
                    return []
                }
                if view.kind == .blocked, state.settings.relays.contains(where: { $0.url == url }) {
                    state.status = StatusLine("\(url) is one of your relays: remove it first.", .error)
                    return []
                }
                view.adding = nil
                if view.kind == .blocked {
                    state.status = StatusLine("blocking \(url)…")
                    return [.settings(.blockRelay(url))]
                }
                state.status = StatusLine("reading gift wraps from \(url) too…")
                // Added to what is shown: the relays chosen, or the ones we use (which become a choice).
                return [.settings(.setInboxRelays(view.relays.filter { $0 != url } + [url]))]
            default:
                field.edit(key)
                view.adding = field
            }
            return []
        }
        let selected = view.relays[safe: view.selection]
        switch key {
        case .escape, .char("b"), .char("i"):
            state.settings.ownList = nil
        case .down, .char("j"): view.selection = min(view.selection + 1, max(0, view.relays.count - 1))
        case .up, .char("k"): view.selection = max(0, view.selection - 1)
        case .char("a"): view.adding = TextField("wss://")
        case .char("x"), .delete:
            guard let url = selected else { return [] }
            if view.kind == .blocked {
                state.status = StatusLine("unblocking \(url)…")
                return [.settings(.unblockRelay(url))]
            }
            let rest = view.relays.filter { $0 != url }
            state.status = StatusLine("no longer reading gift wraps from \(url)…")
            return [.settings(.setInboxRelays(rest.isEmpty ? nil : rest))]
        case .char("R") where view.kind == .inbox && view.chosen:
            state.status = StatusLine("your inbox is the relays you use again…")
            return [.settings(.setInboxRelays(nil))]
        default: break
        }
        return []
    }

    /// A list read, into the view if it shows that list.
    private static func loaded(_ state: inout AppState, _ kind: OwnRelayListState.Kind, _ relays: [String], _ also: (inout OwnRelayListState) -> Void) {
        guard var view = state.settings.ownList, view.kind == kind else { return }
        view.relays = relays
        view.loaded = true
        view.selection = min(view.selection, max(0, relays.count - 1))
        also(&view)
        state.settings.ownList = view
    }

    static func applyOwnRelayList(_ state: inout AppState, _ action: SettingsAction) -> [AppEffect] {
        switch action {
        case .blockedRelaysLoaded(let relays, let pending):
            loaded(&state, .blocked, relays) { $0.pending = pending }
        case .inboxRelaysLoaded(let relays, let chosen):
            loaded(&state, .inbox, relays) { $0.chosen = chosen }
        case .blockedRelayEdited(let url, let blocked, let note):
            let done = blocked ? "blocked \(url): it is never dialled." : "unblocked \(url)."
            state.status = note.map { StatusLine(done + " " + $0, .warning) } ?? StatusLine(done, .success)
            if state.settings.ownList?.kind == .blocked { return [.settings(.loadBlockedRelays)] }
        case .inboxRelaysSaved(let note):
            state.status = note.map { StatusLine("inbox relays saved; " + $0, .warning) } ?? StatusLine("inbox relays published (kind 10050).", .success)
            if state.settings.ownList?.kind == .inbox { return [.settings(.loadInboxRelays)] }
        default: break
        }
        return []
    }
}
