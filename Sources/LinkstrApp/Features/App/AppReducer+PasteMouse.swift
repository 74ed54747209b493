import LinkstrDomain

/// A paste goes to the field with focus; the mouse scrolls, picks a pane or a row.
extension AppReducer {
    static func handlePaste(_ state: inout AppState, _ text: String) -> [AppEffect] {
        let clean = DisplayText.singleLine(text)
        if clean.utf8.count > TextField.maxBytes {
            state.status = StatusLine("the paste was cut to 1 MiB, the most a field holds.", .warning)
        }
        switch state.phase {
        case .unlock(var u):
            u.passphrase.insert(text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "")
            state.phase = .unlock(u)
            return []
        case .onboarding:
            return onboardingPaste(&state, text)
        case .main: break
        default: return []
        }
        switch state.overlay {
        case .commandLine(var f): f.insert(clean); state.overlay = .commandLine(f); return []
        case .none where state.pane == .sessions && state.sessions.open?.searchField != nil:
            state.sessions.open?.searchField?.insert(clean)
            return []
        case .newSession(var f) where f.focus == 0: f.name.insert(clean); state.overlay = .newSession(f); return []
        case .sharedLink(var picker):
            picker.filter.insert(clean)
            picker.selection = 0
            state.overlay = .sharedLink(picker)
            return []
        case .contact(var f):
            if f.focus == 0 { f.key.insert(clean.trimmingWhitespace()) } else { f.alias.insert(clean) }
            f.error = nil
            state.overlay = .contact(f)
            return []
        case .exportBackup(var f):
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            if f.focusConfirm { f.confirm.insert(line) } else { f.passphrase.insert(line) }
            f.error = nil
            state.overlay = .exportBackup(f)
        case .keyring(var f):
            f.passphrase.insert(text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "")
            f.error = nil
            state.overlay = .keyring(f)
        case .changePassphrase(var f):
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            switch f.focus {
            case .current: f.current.insert(line)
            case .new: f.new.insert(line); f.weakSaid = false
            case .again: f.again.insert(line)
            }
            f.error = nil
            state.overlay = .changePassphrase(f)
            return []
        case .some: return []
        case .none: break
        }
        switch state.pane {
        case .post:
            if case .composer(var c) = state.post.mode {
                // Bracketed paste into whichever field has focus; a note keeps its paragraphs (iOS users send
                // them), made safe line by line.
                if c.focus == .link { c.link.insert(clean.trimmingWhitespace()) } else { c.note.insert(DisplayText.multiLine(text)) }
                c.error = nil
                state.post.mode = .composer(c)
            }
        case .sessions:
            if state.sessions.search != nil { state.sessions.search!.insert(clean) }
        case .you:
            state.you.editingName?.insert(clean)
        case .settings:
            state.settings.adding?.insert(clean.trimmingWhitespace())
        }
        return []
    }

    static func handleMouse(_ state: inout AppState, _ event: MouseEvent) -> [AppEffect] {
        guard state.phase == .main, state.overlay == nil else { return [] }
        switch event.kind {
        case .wheelUp: return paneKey(&state, .up)
        case .wheelDown: return paneKey(&state, .down)
        case .click:
            if event.row == 0 {
                guard let pane = Layout.tab(atColumn: event.column) else { return [] }
                return switchPane(&state, to: pane)
            }
            return clickRow(&state, row: event.row - Layout.contentTop)
        }
    }

    static func clickRow(_ state: inout AppState, row: Int) -> [AppEffect] {
        guard row >= 0 else { return [] }
        switch state.pane {
        case .sessions where state.sessions.open == nil:
            let index = state.sessions.scroll + row / Layout.sessionRowHeight
            guard index < state.sessions.visibleRows.count else { return [] }
            if index == state.sessions.selection { return sessionsKey(&state, .enter) }
            state.sessions.selection = index
        case .settings:
            // The same geometry the view draws with: two rows per relay, scrolled to keep the selection visible.
            let offset = row + Layout.contentTop - (Layout.paneTop + Layout.settingsRelayTop)
            let capacity = Layout.settingsRelayCapacity(screenRows: state.screen.rows)
            guard offset >= 0, offset / 2 < capacity else { return [] }
            let relays = state.settings.relays.count
            let index = Layout.visibleScroll(selection: state.settings.selection, scroll: 0, capacity: capacity, count: relays) + offset / 2
            if index < relays { state.settings.selection = index; state.settings.section = .relays }
        default: break
        }
        return []
    }

    static func clampScrolls(_ state: inout AppState) {
        state.sessions.scroll = min(state.sessions.scroll, max(0, state.sessions.visibleRows.count - 1))
    }
}
