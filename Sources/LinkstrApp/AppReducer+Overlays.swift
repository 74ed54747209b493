// Over 400 lines: six overlays' keys in one place until issue 28 splits the reducer by feature
// (each overlay's keys and results in a file of its own).
import LinkstrDomain

/// Overlays: help, the `:` command line, confirmations, the emoji picker, the new-session and members forms.
extension AppReducer {
    static func overlayKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        switch state.overlay {
        case .help:
            // ? Esc q close help; any other key does what it does, with the help kept open (issue 16, 7).
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
                let completed = complete(field, state)
                state.overlay = .commandLine(completed)
                // Several left: they are listed above the prompt, as a shell's second Tab does (issue 33 item 14).
                state.completions = candidates(completed, state)
            default:
                editField(&field, key)
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
        case .enter where f.focus == 0 && !state.contacts.isEmpty && f.selected.isEmpty:
            // Return moves from the name into member selection, or creates when there are no contacts.
            f.focus = 1
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
            return [.createSession(name: name, members: state.contacts.map(\.pubkey).filter { f.selected.contains($0) })]
        case .down where f.focus == 1, .char("j") where f.focus == 1: f.cursor = min(f.cursor + 1, max(0, state.contacts.count - 1))
        case .up where f.focus == 1, .char("k") where f.focus == 1: f.cursor = max(0, f.cursor - 1)
        case .char(" ") where f.focus == 1:
            if let c = state.contacts[safe: f.cursor] {
                if f.selected.contains(c.pubkey) { f.selected.remove(c.pubkey) } else { f.selected.insert(c.pubkey) }
            }
        default:
            if f.focus == 0 { editField(&f.name, key); f.error = nil }
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
            return [.saveMembers(sessionID: f.sessionID, members: candidates.filter { f.selected.contains($0) && $0 != state.identity?.pubkey })]
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
            return [.exportBackup(path: f.path, passphrase: f.passphrase.text)]
        default:
            if f.focusConfirm { editField(&f.confirm, key) } else { editField(&f.passphrase, key) }
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
            return [.deletePost(id)]
        case .deleteSession(let sid):
            state.status = StatusLine("deleting the session…")
            return [.deleteSession(sessionID: sid)]
        case .revealSecret: return [.revealSecret]
        case .logout(let clear): return [.logout(clearData: clear)]
        case .deleteAccount(step: 1):
            state.overlay = .confirm(Confirmation(.deleteAccount(step: 2), "really delete? this cannot be undone. type y again to delete. (y/n)"))
            return []
        case .deleteAccount:
            state.status = StatusLine("deleting account…")
            return [.deleteAccount]
        case .resetRelays: return [.resetRelays]
        case .removeRelay(let url): return [.removeRelay(url)]
        case .removeContact(let pk):
            state.status = StatusLine("removing contact…")
            return [.removeContact(pk)]
        case .clearCache:
            // The titles on screen came from that cache.
            if !state.linkTitles.isEmpty {
                state.linkTitles = [:]
                state.linkTitlesVersion += 1
            }
            return [.clearCache]
        case .discardSharedLink:
            state.status = StatusLine("shared link discarded.")
            return []
        case .repairDamagedRecords:
            state.status = StatusLine("repairing…")
            return [.repairDamagedRecords]
        case .wipe:
            state.status = StatusLine("wiping…")
            return [.wipe]
        case .quitKeepingDraft:
            guard case .composer(let c) = state.post.mode else { return [.quit] }
            return [.saveDraft(sessionID: c.sessionID, c.draft), .quit]
        case .exportPlainBackup(let path):
            state.status = StatusLine("writing the backup…")
            return [.exportBackup(path: path, passphrase: nil)]
        }
    }

    // MARK: the command line

    /// Every `:` command, for completion (and what `:help` lists).
    public static let commands = ["accept", "archive", "copy", "decline", "delete-session", "export", "export-ios", "help", "members", "mute",
                                  "open", "post", "quit", "react", "read", "relay", "rename", "repair", "requests", "search", "session", "theme", "unarchive",
                                  "unmute", "unread", "who", "wipe!"]

    /// The colour themes `:theme` offers (the files in themes/).
    public static let themes = ["night", "storm", "moon", "day"]

    /// Tab: the command name completed (to the longest prefix its candidates share; a whole one gets a
    /// space), and after `react ` an emoji shortcode (`:thumbsup:` → 👍).
    static func complete(_ field: TextField, _ state: AppState) -> TextField {
        var text = field.text
        let hadSlash = text.hasPrefix("/")
        if hadSlash { text.removeFirst() }
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 {
            let matches = commands.filter { $0.hasPrefix(parts[0].lowercased()) }
            guard let first = matches.first else { return field }
            var prefix = first
            for m in matches.dropFirst() { while !m.hasPrefix(prefix) { prefix.removeLast() } }
            let completed = matches.count == 1 ? first + " " : prefix
            return TextField((hadSlash ? "/" : "") + completed)
        }
        let command = parts[0].lowercased(), argument = parts[1]
        let slash = hadSlash ? "/" : ""
        // Names: a theme, a session (`:rename` offers the open one's), a member or contact (`:post … @`).
        let names: [String]
        switch command {
        case "theme": names = themes
        case "session": names = Array(Set(sessionChoices(state).map { DisplayText.singleLine($0.name) })).sorted()
        case "rename": names = (state.sessions.open?.summary).map { [DisplayText.singleLine($0.name)] } ?? []
        default: names = []
        }
        if !names.isEmpty, let completed = completeName(argument, among: names) { return TextField(slash + command + " " + completed) }
        if let at = argument.lastIndex(of: "@") {
            // "@al" → the display name of a member of the open session or a contact ("who" lists them too).
            let people = (state.sessions.open?.summary?.members ?? []) + state.contacts.map(\.pubkey)
            let candidates = Array(Set(people.map { state.displayName($0) }.filter { $0 != "you" })).sorted()
            let prefix = String(argument[argument.index(after: at)...])
            if let completed = completeName(prefix, among: candidates) {
                return TextField(slash + command + " " + argument[...at] + completed)
            }
        }
        if command == "react", argument.hasPrefix(":") {
            // A whole shortcode first (":+1:", ":fire:"), else the only emoji the text names.
            let name = argument.lowercased().replacingOccurrences(of: ":", with: "")
            let exact = emojiChoices.first { (emojiNames[$0] ?? []).first == name }
            let matches = emojiMatches(argument)
            if let emoji = exact ?? (matches.count == 1 ? matches.first : nil) {
                return TextField(slash + "react " + emoji)
            }
        }
        return field
    }

    /// What Tab could still complete `field` to, when more than one thing (else none).
    static func candidates(_ field: TextField, _ state: AppState) -> [String] {
        var text = field.text
        if text.hasPrefix("/") { text.removeFirst() }
        let parts = text.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        func several(_ names: [String], _ typed: String) -> [String] {
            let found = names.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
            return found.count > 1 ? found : []
        }
        if parts.count == 1 { return several(commands, parts[0]) }
        let command = parts[0].lowercased(), argument = parts[1]
        switch command {
        case "theme": return several(themes, argument)
        case "session": return several(Array(Set(sessionChoices(state).map { DisplayText.singleLine($0.name) })).sorted(), argument)
        default: break
        }
        if let at = argument.lastIndex(of: "@") {
            let people = (state.sessions.open?.summary?.members ?? []) + state.contacts.map(\.pubkey)
            let names = Array(Set(people.map { state.displayName($0) }.filter { $0 != "you" })).sorted()
            return several(names, String(argument[argument.index(after: at)...])).map { "@" + $0 }
        }
        if command == "react", argument.hasPrefix(":") {
            let matches = emojiMatches(argument)
            return matches.count > 1 ? matches.map { e in (emojiNames[e]?.first).map { "\(e) :\($0):" } ?? e } : []
        }
        return []
    }

    /// The name `typed` starts (case-insensitively): the whole one when only one does, else the longest
    /// prefix they share (nil when none, or nothing to add).
    static func completeName(_ typed: String, among names: [String]) -> String? {
        let lower = typed.lowercased()
        let matches = names.filter { $0.lowercased().hasPrefix(lower) }
        guard let first = matches.first else { return nil }
        if matches.count == 1 { return first }
        var prefix = first
        for m in matches.dropFirst() { while !m.lowercased().hasPrefix(prefix.lowercased()) { prefix.removeLast() } }
        return prefix.count > typed.count ? prefix : nil
    }

    /// Sessions `:session NAME` can open: the list shown, and the active ones with news.
    static func sessionChoices(_ state: AppState) -> [SessionSummary] {
        var seen = Set<String>()
        return (state.sessions.rows + state.sessions.unreadActive).filter { seen.insert($0.id).inserted }
    }

    static func runCommand(_ state: inout AppState, _ line: String) -> [AppEffect] {
        var text = line.trimmingWhitespace()
        if text.hasPrefix("/") { text.removeFirst() }
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        guard let command = parts.first?.lowercased() else { return [] }
        let currentPost: PostView? = {
            if case .detail(let d) = state.post.mode, state.pane == .post { return d.view }
            if let feed = state.sessions.open { return feed.posts[safe: feed.selection] }
            return nil
        }()
        // The session a command is about: the open one, else the one selected in the list.
        let commandSession = state.sessions.open?.summary ?? (state.pane == .sessions ? state.sessions.visibleRows[safe: state.sessions.selection] : nil)
        switch command {
        case "post":
            let sessionID: String? = {
                if case .composer(let c) = state.post.mode { return c.sessionID }
                return state.sessions.open?.sessionID
            }()
            guard let sessionID else { state.status = StatusLine("open a session first.", .error); return [] }
            guard parts.count >= 2, let url = WebURL.normalizedUserInput(parts[1]) else {
                state.status = StatusLine(SendRuleError.invalidURL.description, .error)
                return []
            }
            state.status = StatusLine("sending…")
            return [.sendPost(sessionID: sessionID, url: url, note: parts.count > 2 ? parts[2] : nil)]
        case "react":
            guard let post = currentPost else { state.status = StatusLine("select a post first.", .error); return [] }
            guard parts.count >= 2 else { state.status = StatusLine("usage: :react 👍", .error); return [] }
            return [.react(postID: post.id, emoji: parts[1])]
        case "who":
            guard let summary = commandSession else {
                state.status = StatusLine("open a session first.", .error)
                return []
            }
            // Named as everywhere else: you, the alias, their profile name, the short npub.
            let names = summary.members.map { pk in
                state.displayName(pk)
            }
            state.status = StatusLine("members: " + names.joined(separator: ", "))
            return []
        case "open":
            guard let post = currentPost else { state.status = StatusLine("select a post first.", .error); return [] }
            return [.openURL(post.post.url)]
        case "copy":
            guard let post = currentPost else { state.status = StatusLine("select a post first.", .error); return [] }
            return [.copy(post.post.url, label: "link")]
        case "rename":
            guard let row = commandSession else {
                state.status = StatusLine("open a session first.", .error)
                return []
            }
            let name = parts.dropFirst().joined(separator: " ").trimmingWhitespace()
            guard !name.isEmpty else { state.status = StatusLine("usage: :rename NEW NAME", .error); return [] }
            guard row.creator == state.identity?.pubkey else { state.status = StatusLine(SendRuleError.notCreatorRename.description, .error); return [] }
            state.status = StatusLine("renaming…")
            return [.renameSession(sessionID: row.id, name: name)]
        case "delete-session":
            guard let row = commandSession else {
                state.status = StatusLine("open a session first.", .error)
                return []
            }
            guard row.creator == state.identity?.pubkey else { state.status = StatusLine(SendRuleError.notCreatorDelete.description, .error); return [] }
            state.overlay = .confirm(Confirmation(.deleteSession(row.id),
                                                  "delete \"\(DisplayText.singleLine(row.name))\" for every member, for good? (y/n)"))
            return []
        case "read":
            guard let row = commandSession else {
                state.status = StatusLine("open a session first.", .error)
                return []
            }
            return markAllRead(&state, row)
        case "unread":
            return nextUnread(&state)
        case "archive", "unarchive":
            guard let row = commandSession else { state.status = StatusLine("open a session first.", .error); return [] }
            guard row.standing == .listed else { state.status = StatusLine("accept the request first (:accept).", .error); return [] }
            guard row.archived != (command == "archive") else {
                state.status = StatusLine("\(DisplayText.singleLine(row.name)) is \(row.archived ? "archived" : "not archived") already.")
                return []
            }
            state.status = StatusLine("\(command)d \(DisplayText.singleLine(row.name)).")
            return [.setArchived(sessionID: row.id, archived: command == "archive"), .loadSessions(state.sessions.list)]
        case "members":
            guard let row = commandSession else { state.status = StatusLine("open a session first.", .error); return [] }
            state.overlay = .members(MembersForm(sessionID: row.id, selected: Set(row.members), editable: row.creator == state.identity?.pubkey))
            return [.loadContacts]
        case "search":
            // Notes, links and page titles of every session (`/` in a feed searches that session;
            // `/` in the list filters session names).
            return startSearch(&state, parts.dropFirst().joined(separator: " "), in: nil)
        case "relay":
            let words = parts.dropFirst().joined(separator: " ").split(separator: " ").map(String.init)
            guard let verb = words.first, ["add", "remove", "test"].contains(verb), words.count == 2 else {
                state.status = StatusLine("usage: :relay add|remove|test wss://…", .error)
                return []
            }
            switch verb {
            case "add": return [.addRelay(words[1])]
            case "remove": return [.removeRelay(words[1])]
            default:
                state.status = StatusLine("testing \(DisplayText.singleLine(words[1]))…")
                return [.testRelay(words[1])]
            }
        case "mute", "unmute":
            guard let row = commandSession else { state.status = StatusLine("open a session first.", .error); return [] }
            guard state.muted.contains(row.id) == (command == "unmute") else {
                state.status = StatusLine("\(DisplayText.singleLine(row.name)) is \(command == "mute" ? "muted" : "not muted") already.")
                return []
            }
            return toggleMute(&state, row)
        case "requests":
            state.pane = .sessions
            state.sessions.open = nil
            return showList(&state, .requests)
        case "accept", "decline":
            let row = commandSession
            guard let row, row.standing != .listed else {
                state.status = StatusLine("select a session request first (:requests lists them).", .error)
                return []
            }
            return decide(&state, row, command == "accept" ? .accepted : .declined)
        case "export", "export-ios":
            let path = parts.dropFirst().joined(separator: " ").trimmingWhitespace()
            guard !path.isEmpty else { state.status = StatusLine("usage: :\(command) PATH (a new file)", .error); return [] }
            if command == "export" {
                state.overlay = .exportBackup(ExportBackupForm(path: path))
            } else {
                state.overlay = .confirm(Confirmation(.exportPlainBackup(path: path),
                                                      "the iOS backup holds your secret key in plain text: anyone who reads it is you. write it? (y/n)"))
            }
            return []
        case "help": state.overlay = .help; state.helpScroll = 0; return []
        case "session":
            let name = parts.dropFirst().joined(separator: " ").trimmingWhitespace()
            guard !name.isEmpty else { state.status = StatusLine("usage: :session NAME (Tab completes)", .error); return [] }
            let choices = sessionChoices(state), lower = name.lowercased()
            let exact = choices.filter { DisplayText.singleLine($0.name).lowercased() == lower }
            let partial = choices.filter { DisplayText.singleLine($0.name).lowercased().contains(lower) }
            guard let row = exact.first ?? (partial.count == 1 ? partial.first : nil) else {
                state.status = StatusLine(partial.isEmpty ? "no session named \(DisplayText.singleLine(name))."
                                          : "\(partial.count) sessions match \(DisplayText.singleLine(name)): Tab completes.", .error)
                return []
            }
            if state.pane == .settings { hideSecret(&state) }
            state.pane = .sessions
            state.sessions.search = nil
            if let i = state.sessions.rows.firstIndex(where: { $0.id == row.id }) { state.sessions.selection = i }
            return openSession(&state, row)
        case "theme":
            let name = parts.dropFirst().joined(separator: " ").trimmingWhitespace().lowercased()
            guard !name.isEmpty else {
                state.status = StatusLine("theme: \(state.themeName) (:theme \(themes.joined(separator: "|"))).")
                return []
            }
            guard themes.contains(name) else {
                state.status = StatusLine("no theme named \(DisplayText.singleLine(name)): \(themes.joined(separator: ", ")).", .error)
                return []
            }
            return [.applyTheme(name)]
        case "quit", "q": return quit(&state)
        case "repair":
            state.overlay = .confirm(Confirmation(.repairDamagedRecords,
                                                  "drop the stored records that no longer open? relays bring back what they still hold at the next start. (y/n)"))
            return []
        case "wipe!":
            state.overlay = .confirm(Confirmation(.wipe, "erase every identity and all linkstr data on this device, then quit? nothing goes to relays. (y/n)"))
            return []
        default:
            state.status = StatusLine("unknown command :\(DisplayText.singleLine(parts[0])) (try :help, or Tab to complete)", .error)
            return []
        }
    }
}
