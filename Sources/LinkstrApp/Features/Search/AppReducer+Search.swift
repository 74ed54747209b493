import LinkstrDomain

/// Post search: `/` in a feed searches that session, `:search` every session; `n`/`N`
/// walk the hits, opening sessions as needed. The index lives in memory in the runtime.
extension AppReducer {
    /// The `/` prompt in a feed: typing edits it; Enter searches; Esc drops it.
    static func feedSearchKey(_ state: inout AppState, _ key: Key) -> [AppEffect] {
        guard var feed = state.sessions.open, var field = feed.searchField else { return [] }
        switch key {
        case .escape:
            feed.searchField = nil
        case .enter:
            feed.searchField = nil
            state.sessions.open = feed
            return startSearch(&state, field.text, in: feed.sessionID)
        case .backspace where field.isEmpty:
            feed.searchField = nil
        default:
            field.edit(key)
            feed.searchField = field
        }
        state.sessions.open = feed
        return []
    }

    /// Asks the runtime for the hits of `query` in one session (nil: all).
    static func startSearch(_ state: inout AppState, _ query: String, in sessionID: String?) -> [AppEffect] {
        let query = DisplayText.singleLine(query).trimmingWhitespace()
        guard !query.isEmpty else {
            state.postSearch = nil
            state.status = sessionID == nil ? StatusLine("usage: :search WORDS (notes, links and page titles of every session)", .error) : StatusLine("search cleared.")
            return []
        }
        state.postSearch = PostSearchState(query: query, sessionID: sessionID)
        state.status = StatusLine("searching…")
        return [.search(.searchPosts(query: query, sessionID: sessionID))]
    }

    static func searchFinished(_ state: inout AppState, _ answer: PostSearchAnswer) -> [AppEffect] {
        guard var search = state.postSearch, search.searching, search.query == answer.query, search.sessionID == answer.sessionID else { return [] }
        search.searching = false
        search.hits = answer.hits
        search.previews = answer.previews
        search.sessionNames = answer.sessionNames
        search.truncated = answer.truncated
        state.postSearch = search
        let quoted = "\"\(search.query.count > 40 ? search.query.prefix(39) + "…" : search.query)\""
        guard !answer.hits.isEmpty else {
            state.status = StatusLine("no post matches \(quoted) (\(answer.indexedPosts) post\(answer.indexedPosts == 1 ? "" : "s") searched).")
            return []
        }
        let count = "\(answer.hits.count)\(answer.truncated ? "+" : "") match\(answer.hits.count == 1 ? "" : "es") for \(quoted)"
        if answer.sessionID == nil {
            state.status = StatusLine(count + ": Enter opens one, then n/N go to the next/previous.")
            state.overlay = .searchResults(selection: 0)
            return []
        }
        state.status = StatusLine(count + " (n next · N previous · Esc clears)")
        return showHit(&state, 0)
    }

    /// Shows hit `index` of the search in force: selected in its session's feed, which is opened (and
    /// loaded far enough) when needed.
    static func showHit(_ state: inout AppState, _ index: Int) -> [AppEffect] {
        guard var search = state.postSearch, let hit = search.hits[safe: index] else { return [] }
        search.current = index
        state.postSearch = search
        if state.pane == .settings { hideSecret(&state) }
        state.pane = .sessions
        state.sessions.search = nil
        // The hit's place in its feed, with a page to spare (posts of one second may come in another order).
        let needed = hit.rankInSession + feedPage
        if var feed = state.sessions.open, feed.sessionID == hit.sessionID {
            if let at = feed.posts.firstIndex(where: { $0.id == hit.postID }) {
                feed.selection = at
                feed.selectWhenLoaded = nil
                state.sessions.open = feed
                return []
            }
            feed.selectWhenLoaded = hit.postID
            state.sessions.open = feed
            return [.sessions(.loadFeed(sessionID: hit.sessionID, limit: max(feed.posts.count, needed)))]
        }
        var feed = SessionFeed(sessionID: hit.sessionID)
        feed.summary = (state.sessions.rows + state.sessions.unreadActive).first { $0.id == hit.sessionID }
        feed.selectWhenLoaded = hit.postID
        state.sessions.open = feed
        return [.sessions(.loadFeed(sessionID: hit.sessionID, limit: needed))]
    }

    /// `n` / `N` in a feed: the next (older) or previous (newer) hit, round the ends.
    static func stepSearch(_ state: inout AppState, by step: Int) -> [AppEffect] {
        guard let search = state.postSearch, !search.searching, !search.hits.isEmpty else { return [] }
        let count = search.hits.count
        let next = ((search.current ?? -step) + step + count) % count
        if let current = search.current, (step > 0 && next < current) || (step < 0 && next > current) {
            state.status = StatusLine(step > 0 ? "search went round: back at the newest match." : "search went round: at the oldest match.")
        } else {
            state.status = nil
        }
        return showHit(&state, next)
    }

    /// The results list of a search across sessions.
    static func searchResultsKey(_ state: inout AppState, _ selection: Int, _ key: Key) -> [AppEffect] {
        guard let search = state.postSearch else { state.overlay = nil; return [] }
        let count = search.hits.count
        var selection = selection
        switch key {
        case .escape, .char("q"):
            state.overlay = nil
            state.postSearch = nil
            return []
        case .down, .char("j"): selection = min(selection + 1, max(0, count - 1))
        case .up, .char("k"): selection = max(selection - 1, 0)
        case .pageDown: selection = min(selection + 10, max(0, count - 1))
        case .pageUp: selection = max(selection - 10, 0)
        case .char("g"), .home: selection = 0
        case .char("G"), .end: selection = max(0, count - 1)
        case .enter, .right, .char("l"):
            state.overlay = nil
            return showHit(&state, selection)
        default: return []
        }
        state.overlay = .searchResults(selection: selection)
        return []
    }

    // MARK: results

    /// What the search feature's effects answered.
    static func apply(_ state: inout AppState, _ action: SearchAction) -> [AppEffect] {
        switch action {
        case .postSearchFinished(let answer):
            return searchFinished(&state, answer)
        case .postSearchFailed(let why):
            if state.postSearch?.searching == true { state.postSearch = nil }
            state.status = StatusLine("search failed: \(say(why))", .error)
            return []
        case .indexReadFailed(let why):
            if state.postSearch?.searching == true { state.postSearch = nil }
            state.status = StatusLine("the search index could not be read: \(say(why))", .error)
            return []
        }
    }
}
