import LinkstrDomain

/// What each `:` command does (listed, with its help and completion, in `CommandTable`).
extension AppReducer {
    static func runCommand(_ state: inout AppState, _ line: String) -> [AppEffect] {
        var text = line.trimmingWhitespace()
        if text.hasPrefix("/") { text.removeFirst() }
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true).map(String.init)
        guard let name = parts.first else { return [] }
        guard let command = CommandTable.command(named: name) else {
            state.status = StatusLine("unknown command :\(DisplayText.singleLine(name)) (try :help, or Tab to complete)", .error)
            return []
        }
        let post: PostView? = {
            if case .detail(let d) = state.post.mode, state.pane == .post { return d.view }
            if let feed = state.sessions.open { return feed.posts[safe: feed.selection] }
            return nil
        }()
        let session = state.sessions.open?.summary ?? (state.pane == .sessions ? state.sessions.visibleRows[safe: state.sessions.selection] : nil)
        return command.run(&state, CommandInput(name: name.lowercased(), parts: parts, post: post, session: session))
    }

    /// Runs `body` on the post the command is about, or says there is none.
    static func withPost(_ state: inout AppState, _ input: CommandInput, _ body: (PostView) -> [AppEffect]) -> [AppEffect] {
        guard let post = input.post else { state.status = StatusLine("select a post first.", .error); return [] }
        return body(post)
    }

    /// Runs `body` on the session the command is about, or says there is none.
    static func withSession(_ state: inout AppState, _ input: CommandInput, _ body: (inout AppState, SessionSummary) -> [AppEffect]) -> [AppEffect] {
        guard let row = input.session else { state.status = StatusLine("open a session first.", .error); return [] }
        return body(&state, row)
    }

    static func postCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        let sessionID: String? = {
            if case .composer(let c) = state.post.mode { return c.sessionID }
            return state.sessions.open?.sessionID
        }()
        guard let sessionID else { state.status = StatusLine("open a session first.", .error); return [] }
        let parts = input.parts
        guard parts.count >= 2, let url = WebURL.normalizedUserInput(parts[1]) else {
            state.status = StatusLine(SendRuleError.invalidURL.description, .error)
            return []
        }
        state.status = StatusLine("sending…")
        return [.post(.sendPost(sessionID: sessionID, url: url, note: parts.count > 2 ? parts[2] : nil))]
    }

    static func reactCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        guard let post = input.post else { state.status = StatusLine("select a post first.", .error); return [] }
        guard input.parts.count >= 2 else { state.status = StatusLine("usage: :react 👍", .error); return [] }
        return [.post(.react(postID: post.id, emoji: input.parts[1]))]
    }

    static func whoCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        withSession(&state, input) { state, summary in
            // Named as everywhere else: you, the alias, their profile name, the short npub.
            state.status = StatusLine("members: " + summary.members.map { state.displayName($0) }.joined(separator: ", "))
            return []
        }
    }

    static func renameCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        withSession(&state, input) { state, row in
            let name = input.argument
            guard !name.isEmpty else { state.status = StatusLine("usage: :rename NEW NAME", .error); return [] }
            guard row.creator == state.identity?.pubkey else { state.status = StatusLine(SendRuleError.notCreatorRename.description, .error); return [] }
            state.status = StatusLine("renaming…")
            return [.sessions(.renameSession(sessionID: row.id, name: name))]
        }
    }

    static func deleteSessionCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        withSession(&state, input) { state, row in
            guard row.creator == state.identity?.pubkey else { state.status = StatusLine(SendRuleError.notCreatorDelete.description, .error); return [] }
            state.overlay = .confirm(Confirmation(.deleteSession(row.id), "delete \"\(DisplayText.singleLine(row.name))\" for every member, for good? (y/n)"))
            return []
        }
    }

    static func archiveCommand(_ state: inout AppState, _ input: CommandInput, archived: Bool) -> [AppEffect] {
        withSession(&state, input) { state, row in
            guard row.standing == .listed else { state.status = StatusLine("accept the request first (:accept).", .error); return [] }
            guard row.archived != archived else {
                state.status = StatusLine("\(DisplayText.singleLine(row.name)) is \(row.archived ? "archived" : "not archived") already.")
                return []
            }
            state.status = StatusLine("\(archived ? "archived" : "unarchived") \(DisplayText.singleLine(row.name)).")
            return [.sessions(.setArchived(sessionID: row.id, archived: archived)), .sessions(.loadSessions(state.sessions.list))]
        }
    }

    static func muteCommand(_ state: inout AppState, _ input: CommandInput, muted: Bool) -> [AppEffect] {
        withSession(&state, input) { state, row in
            guard state.muted.contains(row.id) != muted else {
                state.status = StatusLine("\(DisplayText.singleLine(row.name)) is \(muted ? "muted" : "not muted") already.")
                return []
            }
            return toggleMute(&state, row)
        }
    }

    static func decideCommand(_ state: inout AppState, _ input: CommandInput, _ decision: RequestDecision) -> [AppEffect] {
        guard let row = input.session, row.standing != .listed else {
            state.status = StatusLine("select a session request first (:requests lists them).", .error)
            return []
        }
        return decide(&state, row, decision)
    }

    static func relayCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        let words = input.argument.split(separator: " ").map(String.init)
        guard let verb = words.first, ["add", "remove", "test"].contains(verb), words.count == 2 else {
            state.status = StatusLine("usage: :relay add|remove|test wss://…", .error)
            return []
        }
        switch verb {
        case "add": return [.settings(.addRelay(words[1]))]
        case "remove": return [.settings(.removeRelay(words[1]))]
        default:
            state.status = StatusLine("testing \(DisplayText.singleLine(words[1]))…")
            return [.settings(.testRelay(words[1]))]
        }
    }

    static func exportCommand(_ state: inout AppState, _ input: CommandInput, ios: Bool) -> [AppEffect] {
        let path = input.argument
        guard !path.isEmpty else { state.status = StatusLine("usage: :\(input.name) PATH (a new file)", .error); return [] }
        if ios {
            state.overlay = .confirm(Confirmation(.exportPlainBackup(path: path),
                                                  "the iOS backup holds your secret key in plain text: anyone who reads it is you. write it? (y/n)"))
        } else {
            state.overlay = .exportBackup(ExportBackupForm(path: path))
        }
        return []
    }

    /// Session names `:session` completes.
    @Sendable static func sessionNames(_ state: AppState) -> [String] {
        Array(Set(sessionChoices(state).map { DisplayText.singleLine($0.name) })).sorted()
    }

    static func sessionCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        let name = input.argument
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
    }

    static func themeCommand(_ state: inout AppState, _ input: CommandInput) -> [AppEffect] {
        let name = input.argument.lowercased()
        guard !name.isEmpty else {
            state.status = StatusLine("theme: \(state.themeName) (:theme \(themes.joined(separator: "|"))).")
            return []
        }
        guard themes.contains(name) else {
            state.status = StatusLine("no theme named \(DisplayText.singleLine(name)): \(themes.joined(separator: ", ")).", .error)
            return []
        }
        return [.settings(.applyTheme(name))]
    }

    /// Sessions `:session NAME` can open: the list shown, and the active ones with news.
    static func sessionChoices(_ state: AppState) -> [SessionSummary] {
        var seen = Set<String>()
        return (state.sessions.rows + state.sessions.unreadActive).filter { seen.insert($0.id).inserted }
    }
}
