import LinkstrDomain

/// The Sessions pane: the chat list (search, archive, new session) and an open session's feed.
extension AppReducer {
    static func sessionsKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        if state.sessions.open != nil {
            let effects = feedKey(&state, key)
            // Back at the top: the new posts are in view.
            if state.sessions.open?.selection == 0 { state.sessions.open?.newAbove = 0 }
            return effects
        }
        if state.sessions.search != nil { return searchKey(&state, key) }
        let rows = state.sessions.visibleRows
        switch key {
        case .down, .char("j"): state.sessions.selection = min(state.sessions.selection + 1, max(0, rows.count - 1))
        case .up, .char("k"): state.sessions.selection = max(state.sessions.selection - 1, 0)
        case .char("g"), .home: state.sessions.selection = 0
        case .char("G"), .end: state.sessions.selection = max(0, rows.count - 1)
        case .pageDown: state.sessions.selection = min(state.sessions.selection + 10, max(0, rows.count - 1))
        case .pageUp: state.sessions.selection = max(state.sessions.selection - 10, 0)
        case .char("/"):
            state.sessions.search = TextField()
            return [.search(.buildSearchIndex)]
        case .enter, .right, .char("l"):
            guard let row = rows[safe: state.sessions.selection] else { return [] }
            return openSession(&state, row)
        case .char("a"):
            guard let row = rows[safe: state.sessions.selection] else { return [] }
            guard row.standing == .listed else { state.status = StatusLine("accept the request first (y).", .error); return [] }
            state.status = StatusLine(row.archived ? "unarchived \(DisplayText.singleLine(row.name))." : "archived \(DisplayText.singleLine(row.name)).")
            return [.sessions(.setArchived(sessionID: row.id, archived: !row.archived)), .sessions(.loadSessions(state.sessions.list))]
        case .char("A"):
            guard state.sessions.hasArchived || state.sessions.list == .archived else {
                state.status = StatusLine("no archived sessions.")
                return []
            }
            return showList(&state, state.sessions.list == .archived ? .active : .archived)
        case .char("R"):
            return showList(&state, state.sessions.list == .requests ? .active : .requests)
        case .char("y") where state.sessions.list == .requests:
            guard let row = rows[safe: state.sessions.selection] else { return [] }
            return decide(&state, row, .accepted)
        case .char("x") where state.sessions.list == .requests:
            guard let row = rows[safe: state.sessions.selection] else { return [] }
            return decide(&state, row, row.standing == .declined ? .undecided : .declined)
        case .char("r"):
            guard let row = rows[safe: state.sessions.selection] else { return [] }
            return markAllRead(&state, row)
        case .char("M"):
            guard let row = rows[safe: state.sessions.selection] else { return [] }
            return toggleMute(&state, row)
        case .char("n"):
            state.overlay = .newSession(NewSessionForm())
            return [.you(.loadContacts)]
        case .escape where state.sessions.list != .active:
            return showList(&state, .active)
        default: break
        }
        return []
    }

    static func searchKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        guard var search = state.sessions.search else { return [] }
        switch key {
        case .escape:
            state.sessions.search = nil
            state.sessions.selection = 0
            return []
        case .enter:
            let rows = state.sessions.visibleRows
            state.sessions.search = nil
            // No session by that name: the words are looked for in the posts of every session.
            if rows.isEmpty, !search.text.trimmingWhitespace().isEmpty { return startSearch(&state, search.text, in: nil) }
            guard let row = rows[safe: state.sessions.selection] else { return [] }
            state.sessions.selection = state.sessions.rows.firstIndex(of: row) ?? 0
            return openSession(&state, row)
        case .down: state.sessions.selection = min(state.sessions.selection + 1, max(0, state.sessions.visibleRows.count - 1)); return []
        case .up: state.sessions.selection = max(0, state.sessions.selection - 1); return []
        default:
            search.edit(key)
            state.sessions.search = search
            state.sessions.selection = 0
            return []
        }
    }

    /// Shows one of the three lists (active, archived, requests).
    static func showList(_ state: inout AppState, _ list: SessionList) -> [AppEffect] {
        state.sessions.list = list
        state.sessions.selection = 0
        state.sessions.scroll = 0
        state.sessions.rows = []
        state.sessions.loading = true
        if list == .requests, state.sessions.requestCount == 0 { state.status = StatusLine("no session requests waiting.") }
        return [.sessions(.loadSessions(list))]
    }

    /// Accepts, declines or (on a declined one) un-declines a request; nothing goes to relays.
    static func decide(_ state: inout AppState, _ row: SessionSummary, _ decision: RequestDecision) -> [AppEffect] {
        let name = DisplayText.singleLine(row.name)
        switch decision {
        case .accepted: state.status = StatusLine("accepted \(name): it is in your sessions now.", .success)
        case .declined: state.status = StatusLine("declined \(name). x again to undo, y to accept.")
        case .undecided: state.status = StatusLine("\(name) is a request again.")
        }
        return [.sessions(.decideRequest(sessionID: row.id, decision)), .sessions(.loadSessions(state.sessions.list))]
    }

    static func openSession(_ state: inout AppState, _ row: SessionSummary) -> [AppEffect] {
        var feed = SessionFeed(sessionID: row.id)
        feed.summary = row
        state.sessions.open = feed
        state.status = nil
        // Opening a session marks nothing, as in the iOS app (wire 2026 §4): opening a post marks it
        // read, and `r` (or `:read`) marks the whole session read.
        return [.sessions(.loadFeed(sessionID: row.id, limit: feedPage))]
    }

    /// `u` / `:unread`: the next active session with unread posts after the one open or selected (from
    /// any pane), opened at its feed; round to the first after the last.
    /// What `G` loads to reach the oldest post: a whole feed (a longer one goes further with another `G`).
    public static let wholeFeed = 100_000

    static func nextUnread(_ state: inout AppState) -> [AppEffect] {
        let unread = state.sessions.unreadActive
        guard !unread.isEmpty else {
            state.status = StatusLine("nothing unread.")
            return []
        }
        let current = state.sessions.open?.sessionID ?? (state.pane == .sessions ? state.sessions.visibleRows[safe: state.sessions.selection]?.id : nil)
        let order = state.sessions.list == .active && state.sessions.search == nil ? state.sessions.rows.map(\.id) : unread.map(\.id)
        let unreadIDs = Set(unread.map(\.id))
        // After the current one in the list's order; sessions not on screen yet come in their own order.
        let start = current.flatMap { order.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        let candidates = order[start...] + order[..<start]
        // Only the session being read is skipped: from the list, a selected unread row is the next one
        // (`u` on the only unread session said "nothing else unread").
        let reading = state.sessions.open?.sessionID
        let target = candidates.first { unreadIDs.contains($0) && $0 != reading } ?? unread.first { $0.id != reading }?.id
        guard let target, let row = unread.first(where: { $0.id == target }) else {
            state.status = StatusLine("nothing else unread.")
            return []
        }
        var effects: [AppEffect] = []
        if state.pane == .settings { hideSecret(&state) }
        state.pane = .sessions
        state.sessions.search = nil
        if state.sessions.list != .active {
            state.sessions.list = .active
            state.sessions.rows = unread
            effects.append(.sessions(.loadSessions(.active)))
        }
        if let i = state.sessions.rows.firstIndex(where: { $0.id == target }) { state.sessions.selection = i }
        return effects + openSession(&state, row)
    }

    /// `M` / `:mute`: this session never notifies (or does again).
    static func toggleMute(_ state: inout AppState, _ row: SessionSummary) -> [AppEffect] {
        let name = DisplayText.singleLine(row.name)
        if state.muted.remove(row.id) == nil {
            state.muted.insert(row.id)
            state.status = StatusLine("muted \(name): no notifications from it (M again to unmute).")
        } else {
            state.status = StatusLine("unmuted \(name).")
        }
        return [.sessions(.saveMuted(state.muted))]
    }

    /// "Mark all as read": every unread inbound post of the session, with one timestamp (later arrivals
    /// stay unread). Nothing goes on the wire.
    static func markAllRead(_ state: inout AppState, _ row: SessionSummary) -> [AppEffect] {
        state.status = StatusLine("marked \(DisplayText.singleLine(row.name)) read.")
        return [.sessions(.markSessionRead(row.id))]
    }

    static func feedKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        guard var feed = state.sessions.open else { return [] }
        if feed.searchField != nil { return feedSearchKey(&state, key) }
        let count = feed.posts.count
        if let hints = feed.hints {
            // Hint mode: the key names a post; anything else (Esc) leaves it.
            feed.hints = nil
            state.sessions.open = feed
            guard case .char(let c) = key,
                  let target = LinkHints.labelled(selection: feed.selection, count: count).first(where: { $0.label == c }),
                  let post = feed.posts[safe: target.post] else {
                state.status = nil
                return []
            }
            state.status = nil
            return [hints == .open ? open(state, post.post.url) : .copy(post.post.url, label: "link")]
        }
        switch key {
        case .char("f"), .char("F"):
            guard !feed.posts.isEmpty else { return [] }
            feed.hints = key == .char("f") ? .open : .copy
            state.status = StatusLine("\(key == .char("f") ? "open" : "copy") which link? press its label (Esc cancels).")
        case .char("/"):
            feed.searchField = TextField()
            state.sessions.open = feed
            // The index is read while the query is typed (it is not kept for those who never search).
            return [.search(.buildSearchIndex)]
        case .char("n") where state.postSearch != nil: return stepSearch(&state, by: 1)
        case .char("N") where state.postSearch != nil: return stepSearch(&state, by: -1)
        case .escape where state.postSearch != nil:
            // A search across sessions goes back to its results; one in this session is cleared.
            if state.postSearch?.sessionID == nil, let current = state.postSearch?.current, state.postSearch?.hits.isEmpty == false {
                state.overlay = .searchResults(selection: current)
            } else {
                state.postSearch = nil
                state.status = StatusLine("search cleared.")
            }
            return []
        case .escape, .left, .char("h"), .char("q"):
            state.sessions.open = nil
            return [.sessions(.loadSessions(state.sessions.list))]
        case .down, .char("j"):
            feed.selection = min(feed.selection + 1, max(0, count - 1))
            if feed.selection >= count - 5, feed.hasMore {
                state.sessions.open = feed
                return [.sessions(.loadFeed(sessionID: feed.sessionID, limit: count + feedPage))]
            }
        case .up, .char("k"): feed.selection = max(feed.selection - 1, 0)
        case .char("g"), .home: feed.selection = 0
        case .char("G"), .end:
            feed.selection = max(0, count - 1)
            // The oldest post, not the last one loaded (G stopped at a page boundary).
            if feed.hasMore {
                feed.selectOldestWhenLoaded = true
                feed.loading = true
                state.sessions.open = feed
                return [.sessions(.loadFeed(sessionID: feed.sessionID, limit: max(count + feedPage, wholeFeed)))]
            }
        case .pageDown:
            FeedPaging.pageDown(&feed, state)
            if feed.selection >= count - 5, feed.hasMore {
                state.sessions.open = feed
                return [.sessions(.loadFeed(sessionID: feed.sessionID, limit: count + feedPage))]
            }
        case .pageUp: FeedPaging.pageUp(&feed, state)
        case .enter, .right, .char("l"):
            guard let post = feed.posts[safe: feed.selection] else { return [] }
            state.sessions.open = feed
            return openPost(&state, post.id, sessionName: feed.summary?.name ?? "")
        case .char("c"), .char("p"):
            state.sessions.open = feed
            return compose(&state)
        case .char("m"):
            guard let summary = feed.summary else { return [] }
            state.sessions.open = feed
            state.overlay = .members(MembersForm(sessionID: summary.id, selected: Set(summary.members),
                                                 editable: summary.creator == state.identity?.pubkey))
            return [.you(.loadContacts)]
        case .char("o"):
            guard let post = feed.posts[safe: feed.selection] else { return [] }
            return [open(state, post.post.url)]
        case .char("r"):
            guard let summary = feed.summary else { return [] }
            state.sessions.open = feed
            return markAllRead(&state, summary)
        case .char("M"):
            guard let summary = feed.summary else { return [] }
            state.sessions.open = feed
            return toggleMute(&state, summary)
        case .char("y"), .char("x"):
            guard let summary = feed.summary, summary.standing != .listed else { return [] }
            state.sessions.open = feed
            let decision: RequestDecision = key == .char("y") ? .accepted : summary.standing == .declined ? .undecided : .declined
            return decide(&state, summary, decision) + [.sessions(.loadFeed(sessionID: feed.sessionID, limit: max(feedPage, count)))]
        default: return []
        }
        state.sessions.open = feed
        return []
    }

    /// Opens the composer for the open session (or the selected one in the list).
    static func compose(_ state: inout AppState, into session: SessionSummary? = nil) -> [AppEffect] {
        let summary = session ?? state.sessions.open?.summary ?? state.sessions.visibleRows[safe: state.sessions.selection]
        guard let summary else {
            state.status = StatusLine("open a session first.", .error)
            return []
        }
        guard summary.isMember else {
            state.status = StatusLine(SendRuleError.notMember.description, .error)
            return []
        }
        guard summary.standing == .listed else {
            state.status = StatusLine("this is a session request: accept it first (R lists requests, y accepts).", .error)
            return []
        }
        var composer = ComposerState(sessionID: summary.id, sessionName: summary.name)
        if let draft = state.drafts[summary.id] {
            composer.link = TextField(draft.link)
            composer.note = TextField(draft.note)
            composer.focus = draft.link.isEmpty || !draft.note.isEmpty ? (draft.link.isEmpty ? .link : .note) : .link
            state.status = StatusLine("your draft is back (^L clears the link).")
        }
        state.post.mode = .composer(composer)
        state.pane = .post
        return [.post(.checkReach(sessionID: summary.id))]
    }

    static func openPost(_ state: inout AppState, _ postID: String, sessionName: String) -> [AppEffect] {
        let view = state.sessions.open?.posts.first { $0.id == postID }
        state.post.mode = .detail(PostDetail(postID: postID, view: view, sessionName: sessionName))
        state.pane = .post
        return [.post(.loadPost(postID)), .post(.markPostRead(postID))]
    }
}
