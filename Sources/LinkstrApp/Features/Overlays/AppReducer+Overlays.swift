import LinkstrDomain

/// Overlays: help, the `:` command line, confirmations, the emoji picker, the new-session and members forms.
extension AppReducer {
    static func overlayKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        switch state.overlay {
        case .help:
            // ? Esc q close help; any other key does what it does, with the help kept open.
            let total = HelpText.lines(for: state.pane, keymap: state.keymap).count
            let page = HelpText.visibleLines(screenRows: state.screen.rows, total: total)
            let furthest = HelpText.maxScroll(screenRows: state.screen.rows, total: total)
            switch key {
            case .char("?"), .escape, .char("q"):
                state.overlay = nil
                state.helpScroll = 0
                return []
            // The arrows and pages scroll the help (the rest of the keys do what they do).
            case .down: state.helpScroll = min(furthest, state.helpScroll + 1); return []
            case .up: state.helpScroll = max(0, state.helpScroll - 1); return []
            case .pageDown: state.helpScroll = min(furthest, state.helpScroll + page); return []
            case .pageUp: state.helpScroll = max(0, state.helpScroll - page); return []
            case .home: state.helpScroll = 0; return []
            case .end: state.helpScroll = furthest; return []
            default:
                state.helpScroll = 0
                state.overlay = nil
                let effects = handleKey(&state, key)
                if state.overlay == nil, state.phase == .main { state.overlay = .help }
                return effects
            }
        case .sharedLink(var picker):
            return sharedLinkKey(&state, &picker, key)
        case .commandLine(var field):
            if key != .tab { state.completions = [] }
            switch key {
            case .escape: state.overlay = nil
            case .enter:
                state.overlay = nil
                var line = field.text.trimmingWhitespace()
                if line.hasPrefix("/") { line.removeFirst() }
                var effects: [AppEffect] = []
                if !line.isEmpty, state.commandHistory.last != line {
                    state.commandHistory = Array((state.commandHistory + [line]).suffix(commandHistoryLimit))
                    effects.append(.saveCommandHistory(state.commandHistory))
                }
                return effects + runCommand(&state, field.text)
            case .backspace where field.text.isEmpty:
                state.overlay = nil
            case .up, .down:
                let history = state.commandHistory
                guard !history.isEmpty else { return [] }
                if state.historyIndex == nil { state.historyDraft = field.text }
                let current = state.historyIndex ?? history.count
                let next = key == .up ? max(0, current - 1) : current + 1
                if next >= history.count {
                    state.historyIndex = nil
                    field = TextField(state.historyDraft)
                } else {
                    state.historyIndex = next
                    field = TextField(history[next])
                }
                state.overlay = .commandLine(field)
            case .tab:
                // Listed already: each Tab takes the next candidate, the list stays.
                if let next = cycled(field, through: state.completions) {
                    state.overlay = .commandLine(next)
                    return []
                }
                let completed = complete(field, state)
                state.overlay = .commandLine(completed)
                // Several left: they are listed above the prompt, as a shell's second Tab does.
                state.completions = candidates(completed, state)
            default:
                field.edit(key)
                state.overlay = .commandLine(field)
            }
            return []
        case .confirm(var c) where c.word != nil:
            switch key {
            case .enter where c.typed.lowercased() == c.word:
                state.overlay = nil
                return confirmed(&state, c.action)
            case .escape:
                state.overlay = nil
                return []
            case .backspace: c.typed = String(c.typed.dropLast())
            case .char(let ch) where c.typed.count < 24: c.typed.append(ch)
            default: break
            }
            state.overlay = .confirm(c)
            return []
        case .confirm(let c):
            switch key {
            case .char("y"), .char("Y"):
                state.overlay = nil
                return confirmed(&state, c.action)
            case .char("n"), .char("N"), .escape:
                state.overlay = nil
                if case .discardSharedLink(let link) = c.action { backToSharedLink(&state, link) }
            default: break
            }
            return []
        case .emojiPicker(let postID, var selection, var query):
            let columns = 8
            let count = emojiMatches(query).count
            switch key {
            case .escape where !query.isEmpty: query = ""; selection = 0  // Esc clears the search first
            case .escape: state.overlay = nil; return []
            case .right: selection = min(selection + 1, max(0, count - 1))
            case .left: selection = max(selection - 1, 0)
            case .down: selection = min(selection + columns, max(0, count - 1))
            case .up: selection = max(selection - columns, 0)
            case .backspace: query = String(query.dropLast()); selection = 0
            case .char(let c) where !c.isWhitespace && query.count < 24: query.append(c); selection = 0
            case .enter:
                guard let emoji = emojiMatches(query)[safe: selection] else { return [] }
                state.overlay = nil
                if case .detail(var d) = state.post.mode, d.postID == postID {
                    let effects = react(&state, &d, emoji)
                    state.post.mode = .detail(d)
                    return effects
                }
                return []
            default: return []
            }
            state.overlay = .emojiPicker(postID: postID, selection: selection, query: query)
            return []
        case .newSession(var f):
            return newSessionKey(&state, &f, key)
        case .members(var f):
            return membersKey(&state, &f, key)
        case .contact(var f):
            return contactFormKey(&state, &f, key)
        case .exportBackup(var f):
            return exportFormKey(&state, &f, key)
        case .changePassphrase(var f):
            return changePassphraseKey(&state, &f, key)
        case .keyring(var f):
            return keyringFormKey(&state, &f, key)
        case .doctor(let report):
            return doctorKey(&state, report, key)
        case .heldPosts(let sid, let scroll):
            return heldPostsKey(&state, sid, scroll, key)
        case .messages(let scroll):
            return messagesKey(&state, scroll, key)
        case .searchResults(let selection):
            return searchResultsKey(&state, selection, key)
        case .none:
            return []
        }
    }

    static func newSessionKey(_ state: inout AppState, _ f: inout NewSessionForm, _ key: Key) -> [AppEffect] {
        if f.busy { return [] }
        switch key {
        case .escape:
            state.overlay = nil
            if let link = f.sharing { backToSharedLink(&state, link) }
            return []
        case .tab, .backTab: f.focus = f.focus == 0 && !state.contacts.isEmpty ? 1 : 0
        // Enter creates from either field, as the box says (from the name it only moved on, which
        // showed nothing); no member ticked is a session of one's own, as the iOS app allows. Tab picks members.
        case .enter, .ctrl("s"):
            let name = f.name.text.trimmingWhitespace()
            guard !name.isEmpty else {
                f.error = SendRuleError.enterSessionName.description
                f.focus = 0
                break
            }
            f.busy = true
            f.error = nil
            state.overlay = .newSession(f)
            return [.sessions(.createSession(name: name, members: state.contacts.map(\.pubkey).filter { f.selected.contains($0) }))]
        case .down where f.focus == 1, .char("j") where f.focus == 1: f.cursor = min(f.cursor + 1, max(0, state.contacts.count - 1))
        case .up where f.focus == 1, .char("k") where f.focus == 1: f.cursor = max(0, f.cursor - 1)
        case .char(" ") where f.focus == 1:
            if let c = state.contacts[safe: f.cursor] {
                if f.selected.contains(c.pubkey) { f.selected.remove(c.pubkey) } else { f.selected.insert(c.pubkey) }
            }
        default:
            if f.focus == 0 { f.name.edit(key); f.error = nil }
        }
        state.overlay = .newSession(f)
        return []
    }

    static func membersKey(_ state: inout AppState, _ f: inout MembersForm, _ key: Key) -> [AppEffect] {
        if f.busy { return [] }
        let candidates = memberCandidates(state, f)
        switch key {
        case .escape: state.overlay = nil; return []
        case .down, .char("j"): f.cursor = min(f.cursor + 1, max(0, candidates.count - 1))
        case .up, .char("k"): f.cursor = max(0, f.cursor - 1)
        case .char(" ") where f.editable:
            if let pk = candidates[safe: f.cursor], pk != state.identity?.pubkey {
                if f.selected.contains(pk) { f.selected.remove(pk) } else { f.selected.insert(pk) }
            }
        case .enter where f.editable:
            f.busy = true
            state.overlay = .members(f)
            return [.sessions(.saveMembers(sessionID: f.sessionID, members: candidates.filter { f.selected.contains($0) && $0 != state.identity?.pubkey }))]
        case .enter:
            state.overlay = nil
            return []
        default: break
        }
        state.overlay = .members(f)
        return []
    }

    static func exportFormKey(_ state: inout AppState, _ f: inout ExportBackupForm, _ key: Key) -> [AppEffect] {
        if f.busy { return [] }
        defer { if case .exportBackup = state.overlay { state.overlay = .exportBackup(f) } }
        switch key {
        case .escape: state.overlay = nil
        case .tab, .backTab: f.focusConfirm.toggle()
        case .enter where !f.focusConfirm:
            f.focusConfirm = true
        case .enter:
            guard !f.passphrase.text.isEmpty else { f.error = "choose a passphrase: it is the only way to open this backup."; f.focusConfirm = false; return [] }
            guard f.confirm.text == f.passphrase.text else { f.error = "the passphrases do not match."; f.confirm.clear(); return [] }
            f.busy = true
            f.error = nil
            return [.settings(.exportBackup(path: f.path, passphrase: f.passphrase.text))]
        default:
            if f.focusConfirm { f.confirm.edit(key) } else { f.passphrase.edit(key) }
            f.error = nil
        }
        return []
    }

    /// Current members first, then (for the creator, who can add them) contacts who are not members.
    /// Someone else's session lists its members only: a contact beside them would read as one.
    public static func memberCandidates(_ state: AppState, _ f: MembersForm) -> [Pubkey] {
        let open = state.sessions.open.flatMap { $0.sessionID == f.sessionID ? $0.summary : nil }
        let members = open?.members ?? f.selected.sorted()
        guard f.editable else { return members }
        return members + state.contacts.map(\.pubkey).filter { !members.contains($0) }
    }

    static func confirmed(_ state: inout AppState, _ action: Confirmation.Action) -> [AppEffect] {
        switch action {
        case .deletePost(let id):
            if case .detail(var d) = state.post.mode { d.busy = true; state.post.mode = .detail(d) }
            state.status = StatusLine("deleting…")
            return [.post(.deletePost(id))]
        case .cancelSend(let item): return [.post(.cancelSend(item: item))]
        case .allowHooks:
            state.status = StatusLine("hooks allowed: they run on news from now on.", .success)
            return [.settings(.allowHooks)]
        case .deleteSession(let sid):
            state.status = StatusLine("deleting the session…")
            return [.sessions(.deleteSession(sessionID: sid))]
        case .revealSecret: return [.settings(.revealSecret)]
        case .logout(let clear): return [.settings(.logout(clearData: clear))]
        case .deleteAccount(step: 1):
            state.overlay = .confirm(Confirmation(.deleteAccount(step: 2), "really delete? this cannot be undone. type y again to delete. (y/n)"))
            return []
        case .deleteAccount:
            state.status = StatusLine("deleting account…")
            return [.settings(.deleteAccount)]
        case .resetRelays: return [.settings(.resetRelays)]
        case .removeRelay(let url): return [.settings(.removeRelay(url))]
        case .removeContact(let pk):
            state.status = StatusLine("removing contact…")
            return [.you(.removeContact(pk))]
        case .clearCache:
            // The titles on screen came from that cache.
            if !state.linkTitles.isEmpty {
                state.linkTitles = [:]
                state.linkTitlesVersion += 1
            }
            if !state.thumbnails.isEmpty {
                state.thumbnails = [:]
                state.thumbnailsVersion += 1
            }
            return [.settings(.clearCache)]
        case .discardSharedLink:
            state.status = StatusLine("shared link discarded.")
            return []
        case .repairDamagedRecords:
            state.status = StatusLine("repairing…")
            return [.settings(.repairDamagedRecords)]
        case .wipe:
            state.status = StatusLine("wiping…")
            return [.wipe]
        case .quitKeepingDraft:
            guard case .composer(let c) = state.post.mode else { return [.quit] }
            return [.sessions(.saveDraft(sessionID: c.sessionID, c.draft)), .quit]
        case .exportPlainBackup(let path):
            state.status = StatusLine("writing the backup…")
            return [.settings(.exportBackup(path: path, passphrase: nil))]
        case .replaceExport(let sid, let path):
            state.status = StatusLine("exporting…")
            return [.sessions(.exportSession(sessionID: sid, path: path, replacing: true))]
        case .replacePlaying(let url):
            state.playing = nil
            return [.post(.stopPlayer), open(state, url)]
        }
    }
}
