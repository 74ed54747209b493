import LinkstrDomain

/// The sessions feature's results: the list and a feed read, sessions made, renamed, deleted, news
/// arrived. Its keys are in `AppReducer+Sessions`.
extension AppReducer {
    /// What the sessions feature's effects answered.
    static func apply(_ state: inout AppState, _ action: SessionsAction) -> [AppEffect] {
        switch action {
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
        case .feedLoaded(let sid, let summary, let posts, let changes, let hasMore, let held):
            guard var feed = state.sessions.open, feed.sessionID == sid else { return [] }
            guard summary != nil || feed.summary == nil else {
                // The session went away while open (its creator deleted it): back to the list.
                state.sessions.open = nil
                state.status = StatusLine("that session was deleted by its creator.", .error)
                return [.sessions(.loadSessions(state.sessions.list))]
            }
            let selectedID = feed.posts[safe: feed.selection]?.id
            if let selectedID, hasMore, feed.selectWhenLoaded == nil, posts.count < feed.posts.count,
               !posts.contains(where: { $0.id == selectedID }) {
                // A reload asked for before the feed grew (a post reopened deep in it, G) would cut it above
                // the selected post: what is shown stays, and as many posts are read again.
                return [.sessions(.loadFeed(sessionID: sid, limit: feed.posts.count))]
            }
            let before = Set(feed.posts.map(\.id)), oldTop = feed.posts.first?.post.createdAt
            // A reader at the newest post stays there as newer ones arrive (pinned, like a chat).
            let pinned = feed.selection == 0 && !feed.posts.isEmpty
            feed.summary = summary ?? feed.summary
            feed.posts = posts
            feed.membershipChanges = changes
            feed.held = held
            feed.hasMore = hasMore
            feed.loading = false
            if feed.selectOldestWhenLoaded {
                feed.selection = max(0, posts.count - 1)
                feed.selectOldestWhenLoaded = false
            } else if let target = feed.selectWhenLoaded, let i = posts.firstIndex(where: { $0.id == target }) {
                feed.selection = i
                feed.selectWhenLoaded = nil
            } else if feed.selectWhenLoaded != nil, hasMore {
                // The post to go back to (reopened after a restart, say #450 of 600) is older than what
                // was read: read further, doubling, until it is there.
                feed.loading = true
                state.sessions.open = feed
                return [.sessions(.loadFeed(sessionID: sid, limit: min(wholeFeed, max(posts.count * 2, posts.count + feedPage))))]
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
        case .mutedLoaded(let muted):
            state.muted = muted
            return []
        case .draftsLoaded(let drafts):
            state.drafts = drafts.filter { !$0.value.isEmpty }
            return []
        case .messagesArrived(let touched, let notifications, let listing, let details):
            var effects: [AppEffect]
            if let listing {
                // The rows came with the news: only the open feed and post are read again.
                effects = apply(&state, .sessionsLoaded(listing))
                effects += reloads(state, touched).filter { if case .sessions(.loadSessions) = $0 { false } else { true } }
            } else {
                effects = reloads(state, touched)
            }
            for n in notifications { if let effect = notification(n, details[n.postID], state) { effects.append(effect) } }
            return effects
        case .readStateChanged(let sid):
            return reloads(state, [sid])

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
            return [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: sid, limit: feedPage))]
        case .sessionCreateFailed(let error):
            if case .newSession(var f) = state.overlay {
                f.busy = false
                f.error = say(error)
                state.overlay = .newSession(f)
            }
            return []
        case .membersSaved(let sid):
            state.overlay = nil
            state.status = StatusLine("members updated.", .success)
            return [.sessions(.loadSessions(state.sessions.list)), .sessions(.loadFeed(sessionID: sid, limit: feedPage))]
        case .sessionExportAnswered(let outcome):
            return sessionExportAnswered(&state, outcome)
        case .sessionDeleted(let sid, let warnings):
            if state.sessions.open?.sessionID == sid { state.sessions.open = nil }
            // Deleted for everyone either way; what relays kept is the detail.
            state.status = StatusLine(PostDeletionWording.sessionSummary(warnings), warnings.isEmpty ? .success : .warning)
            return [.sessions(.loadSessions(state.sessions.list))]
        case .sessionRenamed(let sid, let name):
            state.status = StatusLine("renamed to \(DisplayText.singleLine(name)).", .success)
            var effects: [AppEffect] = [.sessions(.loadSessions(state.sessions.list))]
            if state.sessions.open?.sessionID == sid { effects.append(.sessions(.loadFeed(sessionID: sid, limit: max(feedPage, state.sessions.open?.posts.count ?? 0)))) }
            return effects
        case .membersSaveFailed(let error):
            if case .members(var f) = state.overlay {
                f.busy = false
                f.error = say(error)
                state.overlay = .members(f)
            }
            return []
        }
    }

    /// What shows `touched` sessions as they are now: the list, the open feed if it is one of them, the
    /// post shown.
    static func reloads(_ state: AppState, _ touched: Set<String>) -> [AppEffect] {
        var effects: [AppEffect] = [.sessions(.loadSessions(state.sessions.list))]
        if let open = state.sessions.open, touched.contains(open.sessionID) {
            effects.append(.sessions(.loadFeed(sessionID: open.sessionID, limit: max(feedPage, open.posts.count))))
        }
        if case .detail(let d) = state.post.mode { effects.append(.post(.loadPost(d.postID))) }
        return effects
    }

    /// The announcement of one piece of news, or nil: notifications off, the session muted, or the
    /// session on screen in a terminal that has focus (the user is looking at it).
    static func notification(_ n: InboundNotification, _ detail: NewsDetail?, _ state: AppState) -> AppEffect? {
        guard state.notifyMode != .off, !state.muted.contains(n.sessionID) else { return nil }
        // Locked (the account left open to sync): nothing of who, where or what.
        if case .unlock(let u) = state.phase, u.locked { return .notify(title: "new activity", body: "", via: state.notifyMode) }
        if state.terminalFocused, state.pane == .sessions, state.sessions.open?.sessionID == n.sessionID { return nil }
        let title = detail.flatMap { state.linkTitles[$0.url] }
        return .notify(title: n.announcement(naming: state.displayName, detail: detail, pageTitle: title, wording: state.notifyWording),
                       body: "", via: state.notifyMode)
    }
}
