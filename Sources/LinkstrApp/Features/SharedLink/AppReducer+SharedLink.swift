import LinkstrDomain

/// The "Shared link" box: type part of a session's name to pick where the link goes,
/// Enter opens that session's composer with the link (and a `share` link's note) filled in. When no
/// session matches, Enter starts one named as typed, and the link waits for it. Esc never drops the
/// link without asking.
extension AppReducer {
    /// Shows the box for a link handed in, the open (or selected) session picked first.
    static func showSharedLink(_ state: inout AppState, _ link: DeepLink.Link) -> [AppEffect] {
        let current = state.sessions.open?.sessionID ?? state.sessions.visibleRows[safe: state.sessions.selection]?.id
        var effects: [AppEffect] = []
        if state.sessions.list != .active {
            // Posts go into active sessions: the list behind the box shows them, so the choices are there.
            state.sessions.list = .active
            state.sessions.search = nil
            effects.append(.sessions(.loadSessions(.active)))
        }
        state.overlay = .sharedLink(SharedLinkPicker(link, selecting: current, in: state.sessions))
        return effects
    }

    static func sharedLinkKey(_ state: inout AppState, _ picker: inout SharedLinkPicker, _ key: Key) -> [AppEffect] {
        let count = picker.choices(in: state.sessions).count
        switch key {
        case .escape where !picker.filter.isEmpty:
            picker.filter.clear()  // Esc clears the typing first, as in the emoji picker
            picker.selection = 0
        case .escape:
            // Never lost silently: asked first, and `n` comes back to it.
            state.overlay = .confirm(Confirmation(.discardSharedLink(picker.link),
                                                  "discard the shared link \(DisplayText.singleLine(picker.link.url))? (y/n)"))
            return []
        case .up, .ctrl("p"): picker.selection = max(0, picker.selection - 1)
        case .down, .ctrl("n"): picker.selection = min(max(0, count - 1), picker.selection + 1)
        case .pageUp: picker.selection = max(0, picker.selection - sharedLinkPage)
        case .pageDown: picker.selection = min(max(0, count - 1), picker.selection + sharedLinkPage)
        case .ctrl("o"): return [open(state, picker.link.url)]
        case .ctrl("y"): return [.copy(picker.link.url, label: "link")]
        case .enter:
            if let session = picker.chosen(in: state.sessions) { return share(&state, picker.link, into: session) }
            return startSessionForLink(&state, picker)
        default:
            let before = picker.filter.text
            picker.filter.edit(key)
            if picker.filter.text != before { picker.selection = 0 }
        }
        state.overlay = .sharedLink(picker)
        return []
    }

    /// The rows a page key moves in the box.
    static let sharedLinkPage = 5

    /// The composer of `session` with the link filled in (a `share` link brings its note, still editable).
    static func share(_ state: inout AppState, _ link: DeepLink.Link, into session: SessionSummary) -> [AppEffect] {
        state.overlay = nil
        let effects = compose(&state, into: session)
        guard case .composer(var c) = state.post.mode else {
            state.overlay = .sharedLink(SharedLinkPicker(link, selecting: session.id, in: state.sessions))
            return effects
        }
        fill(&c, with: link)
        state.post.mode = .composer(c)
        return effects
    }

    static func fill(_ c: inout ComposerState, with link: DeepLink.Link) {
        c.link = TextField(link.url)
        if let note = link.note { c.note = TextField(note) }
        c.focus = .note
    }

    /// No session matches: the new-session form, named as typed, and the link waits for it.
    private static func startSessionForLink(_ state: inout AppState, _ picker: SharedLinkPicker) -> [AppEffect] {
        var form = NewSessionForm()
        form.name = TextField(picker.filter.text.trimmingWhitespace())
        form.sharing = picker.link
        state.overlay = .newSession(form)
        return []
    }

    /// The form started for a shared link was cancelled: the link's box again.
    static func backToSharedLink(_ state: inout AppState, _ link: DeepLink.Link) {
        state.overlay = .sharedLink(SharedLinkPicker(link, in: state.sessions))
    }

    /// The session made for a shared link exists: its composer, with the link.
    static func shareIntoCreated(_ state: inout AppState, _ link: DeepLink.Link, sessionID: String, name: String) {
        var c = ComposerState(sessionID: sessionID, sessionName: name)
        fill(&c, with: link)
        state.post.mode = .composer(c)
        state.pane = .post
    }
}
