// Over 400 lines: `apply` is still one switch over every pane's results; issue 28 splits the reducer
// by feature, each `+Area` file taking its own results.
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
        let effects = apply(&state, action)
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

    static func apply(_ state: inout AppState, _ action: AppAction) -> [AppEffect] {
        switch action {
        // MARK: lifecycle
        case .started(let now, let size):
            state.now = now
            state.screen = size
            state.phase = .booting(.loadingAccount)
            return [.boot]
        case .bootStepReached(let step):
            if case .booting = state.phase { state.phase = .booting(step) }
            return []
        case .storeOpenFailed(let error):
            state.phase = .recovery(error: error)
            return []
        case .identityMissing:
            state.phase = .onboarding(OnboardingState())
            return []
        case .passphraseInEnvironment:
            state.passphraseInEnvironment = true
            return []
        case .linkReceived(let link):
            guard state.phase == .main else { state.pendingLink = link; return [] }
            return showSharedLink(&state, link)
        case .passphraseNeeded(let pubkey, let npub):
            state.phase = .unlock(UnlockState(pubkey: pubkey, npub: npub))
            return []
        case .unlockFailed(let error):
            if case .unlock(var u) = state.phase {
                u.error = error
                u.busy = false
                u.passphrase.clear()
                state.phase = .unlock(u)
            }
            return []
        case .identityReady(let info, let inMemory):
            state.identity = info
            state.inMemory = inMemory
            state.phase = .main
            state.pane = .sessions
            state.sessions = SessionsState()
            state.post = PostPaneState()
            state.settings = SettingsState()
            if inMemory { state.status = StatusLine("running in memory: nothing is saved this time", .error) }
            if let link = state.pendingLink {
                state.pendingLink = nil
                _ = showSharedLink(&state, link)  // the list is loaded just below
            }
            return [.loadSessions(.active), .loadContacts, .loadIdentities, .loadDrafts, .loadLocalPreferences, .startSync]
        case .onboardingFailed(let error):
            if case .onboarding(var o) = state.phase {
                o.error = error
                o.busy = false
                state.phase = .onboarding(o)
            }
            return []
        case .backupNeedsPassphrase(let path):
            guard case .onboarding(var o) = state.phase, case .restoreFile = o.step else { return [] }
            o.busy = false
            o.error = nil
            o.step = .restoreSecret(path: path, TextField())
            state.phase = .onboarding(o)
            return []
        case .backupChecked(let path, let backupPassphrase, let npub):
            guard case .onboarding(var o) = state.phase else { return [] }
            switch o.step { case .restoreFile, .restoreSecret: break; default: return [] }
            o.busy = false
            o.error = nil
            o.pendingRestore = PendingRestore(path: path, backupPassphrase: backupPassphrase, npub: npub)
            o.pendingImport = nil
            o.pendingName = nil
            if state.passphraseInEnvironment {
                o.busy = true
                state.phase = .onboarding(o)
                return [.restoreBackup(path: path, backupPassphrase: backupPassphrase, passphrase: nil)]
            }
            o.step = .passphrase(TextField(), confirm: TextField(), focusConfirm: false)
            state.phase = .onboarding(o)
            return []
        case .backupRestored(let sessions, let posts):
            state.status = StatusLine("backup restored: \(sessions) new session\(sessions == 1 ? "" : "s"), \(posts) new post\(posts == 1 ? "" : "s").", .success)
            return []
        case .identityCreated(let info, let nsec):
            state.identity = info
            var o = OnboardingState()
            o.step = .backup(revealed: nil)
            o.secretToBackUp = nsec
            state.phase = .onboarding(o)
            return []

        // MARK: input
        case .keyPressed(let key):
            return handleKey(&state, key)
        case .textPasted(let text):
            return handlePaste(&state, text)
        case .mouseUsed(let event):
            return handleMouse(&state, event)
        case .resized(let size):
            state.screen = size
            clampScrolls(&state)
            return []
        case .clockTicked(let now):
            state.now = now
            if let until = state.settings.revealedUntil, now >= until { hideSecret(&state) }
            // Notes fade; errors stay until replaced or acknowledged (issue 16, item 3).
            if let s = state.status, s.kind != .error, let since = s.since, now - since >= StatusLine.lifetime { state.status = nil }
            // Relay figures are live while shown (issue 16, item 2).
            if state.phase == .main, state.pane == .settings, state.settings.showStats { return [.refreshRelayStats] }
            return []

        // MARK: data
        case .sessionsLoaded(let listing):
            state.sessions.requestCount = listing.requestCount
            state.sessions.requestSenders = listing.requestSenders
            state.sessions.hasArchived = listing.hasArchived
            state.sessions.unreadActive = listing.unreadActive
            state.sessions.archivedUnread = listing.archivedUnread
            guard listing.list == state.sessions.list else { return [] }
            let rows = listing.rows
            let selectedID = state.sessions.visibleRows[safe: state.sessions.selection]?.id
            state.sessions.rows = rows
            state.sessions.loading = false
            if let selectedID, let i = state.sessions.visibleRows.firstIndex(where: { $0.id == selectedID }) { state.sessions.selection = i }
            state.sessions.selection = min(state.sessions.selection, max(0, state.sessions.visibleRows.count - 1))
            if var feed = state.sessions.open, let s = rows.first(where: { $0.id == feed.sessionID }) {
                feed.summary = s
                state.sessions.open = feed
            }
            return state.pendingPosition != nil ? restorePendingPosition(&state) : []
        case .feedLoaded(let sid, let summary, let posts, let changes, let hasMore):
            guard var feed = state.sessions.open, feed.sessionID == sid else { return [] }
            guard summary != nil || feed.summary == nil else {
                // The session went away while open (its creator deleted it): back to the list.
                state.sessions.open = nil
                state.status = StatusLine("that session was deleted by its creator.", .error)
                return [.loadSessions(state.sessions.list)]
            }
            let selectedID = feed.posts[safe: feed.selection]?.id
            let before = Set(feed.posts.map(\.id)), oldTop = feed.posts.first?.post.createdAt
            // A reader at the newest post stays there as newer ones arrive (pinned, like a chat).
            let pinned = feed.selection == 0 && !feed.posts.isEmpty
            feed.summary = summary ?? feed.summary
            feed.posts = posts
            feed.membershipChanges = changes
            feed.hasMore = hasMore
            feed.loading = false
            if feed.selectOldestWhenLoaded {
                feed.selection = max(0, posts.count - 1)
                feed.selectOldestWhenLoaded = false
            } else if let target = feed.selectWhenLoaded, let i = posts.firstIndex(where: { $0.id == target }) {
                feed.selection = i
                feed.selectWhenLoaded = nil
            } else if pinned {
                feed.selection = 0
            } else if let selectedID, let i = posts.firstIndex(where: { $0.id == selectedID }) {
                feed.selection = i
            }
            feed.selection = min(feed.selection, max(0, posts.count - 1))
            // New posts from others above a reader who scrolled down: counted until they go back up.
            if let oldTop, feed.selection > 0 {
                feed.newAbove += posts.filter { !before.contains($0.id) && $0.post.createdAt >= oldTop && $0.post.author != state.identity?.pubkey }.count
            } else {
                feed.newAbove = 0
            }
            state.sessions.open = feed
            return []
        case .postLoaded(let id, let view, let sessionName):
            if case .detail(var d) = state.post.mode, d.postID == id {
                guard let view else {
                    // Deleted meanwhile (by its author, or the session went away).
                    state.post.mode = .empty
                    if state.pane == .post { state.pane = .sessions }
                    state.status = StatusLine("that post is no longer available.", .error)
                    return []
                }
                d.view = view
                d.sessionName = sessionName
                d.busy = false
                state.post.mode = .detail(d)
            }
            return []
        case .profileNamesLoaded(let names):
            state.profileNames = names
            return []
        case .linkTitlesLoaded(let titles):
            let merged = state.linkTitles.merging(titles) { $1 }
            if merged != state.linkTitles {
                state.linkTitles = merged
                state.linkTitlesVersion += 1
            }
            return []
        case .ownProfileNameLoaded(let name):
            state.identity?.profileName = name
            return []
        case .mutedLoaded(let muted):
            state.muted = muted
            return []
        case .focusChanged(let focused):
            state.terminalFocused = focused
            return []
        case .commandHistoryLoaded(let history):
            state.commandHistory = Array(history.suffix(commandHistoryLimit))
            return []
        case .draftsLoaded(let drafts):
            state.drafts = drafts.filter { !$0.value.isEmpty }
            return []
        case .contactsLoaded(let contacts):
            // Sorted by the name shown, so lists stay put as contacts arrive.
            state.contacts = contacts.sorted { a, b in
                let x = (a.alias ?? "").lowercased(), y = (b.alias ?? "").lowercased()
                if x.isEmpty != y.isEmpty { return !x.isEmpty }
                return x != y ? x < y : a.pubkey < b.pubkey
            }
            let count = state.you.entries(contacts: state.contacts).count
            state.you.selection = min(state.you.selection, max(0, count - 1))
            return []
        case .relaysChanged(let rows):
            state.settings.relays = rows.sorted { $0.url < $1.url }
            state.settings.selection = min(state.settings.selection, max(0, rows.count - 1))
            if let url = state.settings.pendingAdd, let i = state.settings.relays.firstIndex(where: { $0.url == url }) {
                state.settings.pendingAdd = nil
                state.settings.selection = i
                state.status = StatusLine("added \(url).", .success)
            }
            return []
        case .identitiesLoaded(let entries):
            state.you.identities = entries
            return []
        case .addedYouLoaded(let keys, let complete):
            state.you.addedYou = keys
            state.you.askingAddedYou = false
            let count = keys.filter { k in !state.contacts.contains { $0.pubkey == k } }.count
            let summary = keys.isEmpty ? "nobody's follow list names you on your relays."
                : "\(keys.count) added you\(count < keys.count ? ", \(count) not in your contacts" : "")."
            state.status = complete ? StatusLine(summary, .success) : StatusLine(summary + " " + AddedYouRule.partialNote, .warning)
            return [.watchAddedYou(true)]
        case .addedYouChanged(let keys):
            guard state.you.addedYou != nil else { return [] }
            state.you.addedYou = keys
            state.you.selection = min(state.you.selection, max(0, state.you.entries(contacts: state.contacts).count - 1))
            return []
        case .addedYouFailed(let why):
            state.you.askingAddedYou = false
            state.status = StatusLine(why, .error)
            return []
        case .messagesArrived(let touched, let notifications):
            var effects = reloads(state, touched)
            for n in notifications { if let effect = notification(n, state) { effects.append(effect) } }
            return effects
        case .readStateChanged(let sid):
            return reloads(state, [sid])

        // MARK: results
        case .postSent(let postID, let sessionID):
            if let sent = state.sendingInBackground.removeValue(forKey: sessionID), !isSending(state, sessionID) {
                // The user stopped waiting: say so where they are, and drop the draft only if it is still that text.
                var effects: [AppEffect] = [.loadSessions(state.sessions.list)]
                if state.sessions.open?.sessionID == sessionID { effects.append(.loadFeed(sessionID: sessionID, limit: feedPage)) }
                if state.drafts[sessionID] == sent {
                    state.drafts[sessionID] = nil
                    effects.append(.saveDraft(sessionID: sessionID, nil))
                }
                state.status = StatusLine("your post was sent.", .success)
                return effects
            }
            state.post.mode = .empty
            let hadDraft = state.drafts.removeValue(forKey: sessionID) != nil
            state.status = StatusLine("sent.", .success)
            state.pane = .sessions
            if state.sessions.open?.sessionID != sessionID { state.sessions.open = SessionFeed(sessionID: sessionID) }
            state.sessions.open?.selectWhenLoaded = postID
            return [.loadFeed(sessionID: sessionID, limit: feedPage), .loadSessions(state.sessions.list)]
                + (hadDraft ? [.saveDraft(sessionID: sessionID, nil)] : [])
        case .postSendFailed(let error):
            if case .composer(var c) = state.post.mode, c.sending {
                c.sending = false
                c.error = error
                state.post.mode = .composer(c)
            } else {
                // A send the user stopped waiting for: its text is the session's draft still.
                state.sendingInBackground = [:]
                state.status = StatusLine(error + " your text is kept as the draft.", .error)
            }
            return []
        case .sessionCreated(let sid):
            let form: NewSessionForm? = if case .newSession(let f) = state.overlay { f } else { nil }
            state.overlay = nil
            state.sessions.open = SessionFeed(sessionID: sid)
            state.pane = .sessions
            state.status = StatusLine("session created.", .success)
            if let form, let link = form.sharing {
                shareIntoCreated(&state, link, sessionID: sid, name: form.name.text.trimmingWhitespace())
                state.status = StatusLine("session created: write a note and press Enter to share the link.", .success)
            }
            return [.loadSessions(.active), .loadFeed(sessionID: sid, limit: feedPage)]
        case .sessionCreateFailed(let error):
            if case .newSession(var f) = state.overlay {
                f.busy = false
                f.error = error
                state.overlay = .newSession(f)
            }
            return []
        case .membersSaved(let sid):
            state.overlay = nil
            state.status = StatusLine("members updated.", .success)
            return [.loadSessions(state.sessions.list), .loadFeed(sessionID: sid, limit: feedPage)]
        case .postDeleted(let postID, let sid, let warnings):
            // The detail closes here, so a reload racing this result cannot say "no longer available".
            if case .detail(let d) = state.post.mode, d.postID == postID {
                state.post.mode = .empty
                if state.pane == .post { state.pane = .sessions }
            }
            let summary = PostDeletionWording.summary(warnings)
            state.status = StatusLine(summary, warnings.isEmpty ? .success : .warning)
            var effects: [AppEffect] = [.loadSessions(state.sessions.list)]
            if let open = state.sessions.open, open.sessionID == sid {
                effects.append(.loadFeed(sessionID: sid, limit: max(feedPage, open.posts.count)))
            }
            return effects
        case .sessionDeleted(let sid, let warnings):
            if state.sessions.open?.sessionID == sid { state.sessions.open = nil }
            // Deleted for everyone either way; what relays kept is the detail (issue 33 item 13).
            state.status = StatusLine(PostDeletionWording.sessionSummary(warnings), warnings.isEmpty ? .success : .warning)
            return [.loadSessions(state.sessions.list)]
        case .sessionRenamed(let sid, let name):
            state.status = StatusLine("renamed to \(DisplayText.singleLine(name)).", .success)
            var effects: [AppEffect] = [.loadSessions(state.sessions.list)]
            if state.sessions.open?.sessionID == sid { effects.append(.loadFeed(sessionID: sid, limit: max(feedPage, state.sessions.open?.posts.count ?? 0))) }
            return effects
        case .membersSaveFailed(let error):
            if case .members(var f) = state.overlay {
                f.busy = false
                f.error = error
                state.overlay = .members(f)
            }
            return []
        case .contactSaved:
            if case .contact(let f)? = state.overlay {
                state.status = StatusLine(f.editing == nil ? "contact added." : "alias saved.", .success)
                state.overlay = nil
            }
            return [.loadContacts]
        case .contactSaveFailed(let error):
            if case .contact(var f)? = state.overlay {
                f.busy = false
                f.error = error
                state.overlay = .contact(f)
            } else {
                state.status = StatusLine(error, .error)
            }
            return []
        case .reactionSent(let postID, let sid, let emoji, let removed):
            if case .detail(var d) = state.post.mode, d.postID == postID { d.busy = false; state.post.mode = .detail(d) }
            state.status = StatusLine("\(removed ? "removed" : "reacted") \(DisplayText.singleLine(emoji))", .success)
            return reloads(state, [sid])
        case .contactRemoved:
            state.status = StatusLine("contact removed.", .success)
            return []
        case .linkOpened(let how):
            state.status = StatusLine(how, .success)
            return []
        case .cacheCleared:
            state.status = StatusLine("cached media and previews cleared.", .success)
            return []
        case .failed(let work, let why):
            state.status = StatusLine(why, .error)
            // What waited for the work is free again.
            switch work {
            case .react(let id), .deletePost(let id):
                if case .detail(var d) = state.post.mode, d.postID == id { d.busy = false; state.post.mode = .detail(d) }
            case .relayList:
                state.settings.pendingAdd = nil
            default: break
            }
            return []
        case .backupExported(let path):
            if case .exportBackup = state.overlay { state.overlay = nil }
            state.identity?.backedUp = true
            state.status = StatusLine("backup written to \(DisplayText.singleLine(path)).", .success)
            return []
        case .backupExportFailed(let why):
            if case .exportBackup(var f) = state.overlay {
                f.busy = false
                f.error = why
                state.overlay = .exportBackup(f)
            } else {
                state.status = StatusLine(why, .error)
            }
            return []
        case .editorFinished(let text, let error):
            guard case .composer(var c) = state.post.mode else { return [] }
            if let text {
                // Editors end files with a newline; the note does not.
                var note = text
                while note.hasSuffix("\n") || note.hasSuffix("\r") { note.removeLast() }
                c.note = TextField(note)
                c.focus = .note
                c.error = error  // nil, or a warning about the editor's temporary copy
            } else {
                c.error = error ?? "the editor did not finish: the note is as it was."
            }
            state.post.mode = .composer(c)
            return []
        case .copyFinished(let label, let outcome):
            switch outcome {
            case .copied: state.status = StatusLine("copied \(label).", .success)
            case .sentToTerminal: state.status = StatusLine("\(label) sent by OSC 52 (not copied? install wl-copy or xclip).", .warning)
            case .failed: state.status = StatusLine("could not copy the \(label): install wl-copy or xclip, or select it on screen.", .error)
            }
            return []
        case .clipboardRead(let text):
            guard let text, !text.isEmpty else {
                state.status = StatusLine("the clipboard is empty or cannot be read here (paste with your terminal instead).", .error)
                return []
            }
            // The Paste helper replaces the whole link field (readme v2).
            if case .composer(var c) = state.post.mode {
                c.link = TextField(DisplayText.singleLine(text))
                c.focus = .link
                c.error = nil
                state.post.mode = .composer(c)
            }
            return []
        case .secretRevealed(let nsec):
            guard state.pane == .settings else { return [] }
            state.settings.revealedSecret = nsec
            state.settings.revealedUntil = state.now + revealSeconds
            guard state.identity?.backedUp == false else { return [] }
            state.identity?.backedUp = true
            return [.markKeyBackedUp]
        case .relayTested(let url, let summary, let ok):
            state.status = StatusLine("\(url): \(summary)", ok ? .success : .error)
            return []
        case .themeApplied(let name):
            state.themeName = name
            state.status = StatusLine("theme \(name) for this run (theme = \"\(name)\" in config.toml keeps it).", .success)
            return []
        case .themeFailed(let why):
            state.status = StatusLine(why, .error)
            return []
        case .postSearchFinished(let answer):
            return searchFinished(&state, answer)
        case .postSearchFailed(let why):
            if state.postSearch?.searching == true { state.postSearch = nil }
            state.status = StatusLine("search failed: \(why)", .error)
            return []
        case .profileNameSaved(let name):
            state.identity?.profileName = name
            state.you.editingName = nil
            state.status = StatusLine(name == nil ? "profile name cleared." : "profile name saved.", .success)
            return []
        case .damagedRecordsLeftOut, .damagedRecordsRepaired:
            return applyRepair(&state, action)
        case .positionLoaded:
            return applyPosition(&state, action)
        case .wiped:
            let screen = state.screen
            state = AppState()
            state.screen = screen
            state.quitting = true
            return [.quit]
        case .loggedOut:
            // Everything of the account goes; what belongs to the terminal (its size, the clock, in-memory
            // mode) stays, or rows outside 80×24 would keep the old screen (a revealed nsec among it).
            let kept = state
            state = AppState()
            state.screen = kept.screen
            state.now = kept.now
            state.inMemory = kept.inMemory
            state.passphraseInEnvironment = kept.passphraseInEnvironment
            state.version = kept.version
            state.phase = .booting(.loadingAccount)
            return [.boot]
        }
    }

    // MARK: keys

    static func handleKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        if key == .ctrl("c") { return quit(&state) }
        switch state.phase {
        case .booting: return []
        case .recovery:
            switch key {
            case .char("r"), .enter: state.phase = .booting(.loadingAccount); return [.boot]
            case .char("m"): state.phase = .booting(.preparingLocalData); return [.continueInMemory]
            case .char("q"): return [.quit]
            default: return []
            }
        case .unlock: return unlockKey(&state, key)
        case .onboarding: return onboardingKey(&state, key)
        case .main: break
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
        if case .confirm(let confirmation)? = state.overlay, confirmation.action == .quitKeepingDraft { return [.saveDraft(sessionID: c.sessionID, c.draft), .quit] }
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
        case .settings: return state.settings.adding != nil
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
            effects.append(.loadSessions(.active))
        }
        state.pane = pane
        state.status = nil
        if pane == .you { effects.append(.loadIdentities) }
        return effects
    }

    static func hideSecret(_ state: inout AppState) {
        state.settings.revealedSecret = nil
        state.settings.revealedUntil = nil
    }

    // MARK: paste

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
            return []
        case .some: return []
        case .none: break
        }
        switch state.pane {
        case .post:
            if case .composer(var c) = state.post.mode {
                // Bracketed paste into whichever field has focus; a note keeps its paragraphs (iOS users send
                // them; issue 33 item 1), made safe line by line.
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

    // MARK: mouse

    static func handleMouse(_ state: inout AppState, _ event: MouseEvent) -> [AppEffect] {
        guard state.phase == .main, state.overlay == nil else { return [] }
        switch event.kind {
        case .wheelUp: return paneKey(&state, .up)
        case .wheelDown: return paneKey(&state, .down)
        case .click:
            if event.row == 0 {
                // The tab bar: " 1 Sessions  2 Post  3 You  4 Settings"
                var x = 1
                for pane in AppState.Pane.allCases {
                    let width = "\(pane.rawValue) \(pane.title)".count + 2
                    if event.column >= x && event.column < x + width { return switchPane(&state, to: pane) }
                    x += width
                }
                return []
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

    /// The announcement of one piece of news, or nil: notifications off, the session muted, or the
    /// session on screen in a terminal that has focus (the user is looking at it).
    /// What shows `touched` sessions as they are now: the list, the open feed if it is one of them, the
    /// post shown.
    static func reloads(_ state: AppState, _ touched: Set<String>) -> [AppEffect] {
        var effects: [AppEffect] = [.loadSessions(state.sessions.list)]
        if let open = state.sessions.open, touched.contains(open.sessionID) {
            effects.append(.loadFeed(sessionID: open.sessionID, limit: max(feedPage, open.posts.count)))
        }
        if case .detail(let d) = state.post.mode { effects.append(.loadPost(d.postID)) }
        return effects
    }

    static func notification(_ n: InboundNotification, _ state: AppState) -> AppEffect? {
        guard state.notifyMode != .off, !state.muted.contains(n.sessionID) else { return nil }
        if state.terminalFocused, state.pane == .sessions, state.sessions.open?.sessionID == n.sessionID { return nil }
        func name(_ pk: Pubkey) -> String { state.displayName(pk) }
        switch n {
        case .post(_, _, let author): return .notify(title: "\(name(author)) shared a post", body: "", via: state.notifyMode)
        case .reaction(_, _, _, let author, let emoji):
            return .notify(title: "\(name(author)) reacted \(DisplayText.singleLine(emoji))", body: "", via: state.notifyMode)
        }
    }
}

/// Row geometry shared by the views and the mouse handling.
public enum Layout {
    /// At most how many lines `note` wraps to at `width` columns (a character counted two columns
    /// unless ASCII): the bound of the detail's note scroll (the view knows the exact figure).
    public static func noteLineBound(_ note: String, width: Int) -> Int {
        let w = max(1, width)
        return note.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { total, line in
            let columns = line.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 1 : 2) }
            return total + max(1, (columns + w - 1) / w)
        }
    }

    /// Rows above the pane content: the tab bar and the pane title.
    public static let contentTop = 2
    public static let sessionRowHeight = 2
    /// The screen row where a pane's area starts (below the tab bar); the status line takes the last row.
    public static let paneTop = 1
    /// Settings: first relay row below the pane top (header, then the add field's row).
    public static let settingsRelayTop = 2

    /// How many sessions (two rows each) fit under the Sessions pane's title.
    public static func sessionCapacity(screenRows: Int) -> Int {
        let paneBottom = paneTop + max(0, screenRows - 3)
        return max(1, (paneBottom - (paneTop + 1)) / sessionRowHeight)
    }

    /// How many relays (two rows each) the Settings pane shows above its storage and identity blocks.
    public static func settingsRelayCapacity(screenRows: Int) -> Int {
        let paneBottom = paneTop + max(0, screenRows - 3)
        return max(1, (paneBottom - 6 - (paneTop + settingsRelayTop)) / 2)
    }

    /// The first visible row of a list that keeps `selection` within `capacity` rows.
    public static func visibleScroll(selection: Int, scroll: Int, capacity: Int, count: Int) -> Int {
        var top = min(scroll, max(0, count - capacity))
        if selection < top { top = selection }
        if selection >= top + capacity { top = selection - capacity + 1 }
        return max(0, top)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
