import LinkstrApp
import LinkstrDomain
import XCTest

/// Post search (issue 14 item 7): `/` in a feed, `:search` across sessions, `n`/`N` through the hits.
final class SearchReducerTests: XCTestCase {
    typealias F = Fixture
    let films = F.session("s1", "Films", at: 3_000), music = F.session("s2", "Music", at: 2_000)
    lazy var posts = (0..<3).map { F.post("p\($0)", in: "s1", at: 3_000 - Int64($0), note: "note \($0)") }

    func hit(_ id: String, _ sid: String, rank: Int, at: Int64 = 1) -> SearchHit { SearchHit(postID: id, sessionID: sid, createdAt: at, rankInSession: rank) }

    func testSlashInAFeedSearchesItAndNWalksTheHitsRoundTheEnds() {
        var h = ReducerHarness(F.feed(films, posts: posts))
        h.send(.keyPressed(.char("/")), [.search(.buildSearchIndex)]) { $0.sessions.open?.searchField = TextField() }
        h.type("Note") { $0.sessions.open?.searchField = TextField("Note") }
        // Keys are text while the prompt is open: `q` does not quit, `1` does not switch panes.
        h.send(.keyPressed(.char("q"))) { $0.sessions.open?.searchField = TextField("Noteq") }
        h.send(.keyPressed(.backspace)) { $0.sessions.open?.searchField = TextField("Note") }
        h.send(.keyPressed(.enter), [.search(.searchPosts(query: "Note", sessionID: "s1"))]) {
            $0.sessions.open?.searchField = nil
            $0.postSearch = PostSearchState(query: "Note", sessionID: "s1")
            $0.status = StatusLine("searching…")
        }
        // The newest hit is shown; one deeper than the loaded page loads the feed far enough.
        let hits = [hit("p1", "s1", rank: 1), hit("p2", "s1", rank: 2), hit("old", "s1", rank: 120)]
        h.send(.search(.postSearchFinished(PostSearchAnswer(query: "Note", sessionID: "s1", hits: hits, truncated: false, previews: [], indexedPosts: 500)))) {
            $0.postSearch?.searching = false
            $0.postSearch?.hits = hits
            $0.postSearch?.current = 0
            $0.sessions.open?.selection = 1
            $0.status = StatusLine("3 matches for \"Note\" (n next · N previous · Esc clears)")
        }
        XCTAssertEqual(h.state.postSearch?.position, "1/3")
        h.send(.keyPressed(.char("n"))) { $0.postSearch?.current = 1; $0.sessions.open?.selection = 2; $0.status = nil }
        h.send(.keyPressed(.char("n")), [.sessions(.loadFeed(sessionID: "s1", limit: 170))]) {
            $0.postSearch?.current = 2
            $0.sessions.open?.selectWhenLoaded = "old"
        }
        var deeper = posts + (3..<130).map { F.post("q\($0)", in: "s1", at: 2_000 - Int64($0)) }
        deeper.insert(F.post("old", in: "s1", at: 1_000), at: 121)
        h.send(.sessions(.feedLoaded(sessionID: "s1", summary: films, posts: deeper, changes: [], hasMore: true))) {
            $0.sessions.open?.posts = deeper
            $0.sessions.open?.hasMore = true
            $0.sessions.open?.selection = 121
            $0.sessions.open?.selectWhenLoaded = nil
        }
        h.send(.keyPressed(.char("n"))) {
            $0.postSearch?.current = 0
            $0.sessions.open?.selection = 1
            $0.status = StatusLine("search went round: back at the newest match.")
        }
        h.send(.keyPressed(.char("N"))) {
            $0.postSearch?.current = 2
            $0.sessions.open?.selection = 121
            $0.status = StatusLine("search went round: at the oldest match.")
        }
        // Esc clears the search first, then leaves the feed.
        h.send(.keyPressed(.escape)) { $0.postSearch = nil; $0.status = StatusLine("search cleared.") }
        h.send(.keyPressed(.escape), [.sessions(.loadSessions(.active))]) { $0.sessions.open = nil }
    }

    func testSearchAcrossSessionsListsHitsThenOpensEachSessionInTurn() {
        var h = ReducerHarness(F.main(sessions: [films, music]))
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.send(.textPasted("search altman")) { $0.overlay = .commandLine(TextField("search altman")) }
        h.enterCommand([.search(.searchPosts(query: "altman", sessionID: nil))]) {
            $0.overlay = nil
            $0.postSearch = PostSearchState(query: "altman", sessionID: nil)
            $0.status = StatusLine("searching…")
        }
        let hits = [hit("m1", "s2", rank: 0, at: 9), hit("p2", "s1", rank: 2, at: 8)]
        let previews = [F.post("m1", in: "s2", note: "Altman"), F.post("p2", in: "s1", url: "https://altman.example")]
        // A late answer to an older query changes nothing.
        h.send(.search(.postSearchFinished(PostSearchAnswer(query: "alt", sessionID: nil, hits: hits, truncated: false, previews: [], indexedPosts: 9))))
        h.send(.search(.postSearchFinished(PostSearchAnswer(query: "altman", sessionID: nil, hits: hits, truncated: true, previews: previews,
                                                    sessionNames: ["s1": "Films", "s2": "Music"], indexedPosts: 9)))) {
            $0.postSearch?.searching = false
            $0.postSearch?.hits = hits
            $0.postSearch?.previews = previews
            $0.postSearch?.sessionNames = ["s1": "Films", "s2": "Music"]
            $0.postSearch?.truncated = true
            $0.overlay = .searchResults(selection: 0)
            $0.status = StatusLine("2+ matches for \"altman\": Enter opens one, then n/N go to the next/previous.")
        }
        h.send(.keyPressed(.char("j"))) { $0.overlay = .searchResults(selection: 1) }
        h.send(.keyPressed(.enter), [.sessions(.loadFeed(sessionID: "s1", limit: 52))]) {
            $0.overlay = nil
            $0.postSearch?.current = 1
            var feed = SessionFeed(sessionID: "s1"); feed.summary = self.films; feed.selectWhenLoaded = "p2"
            $0.sessions.open = feed
        }
        // n goes round to the other session's hit, opening it.
        h.send(.keyPressed(.char("n")), [.sessions(.loadFeed(sessionID: "s2", limit: 50))]) {
            $0.postSearch?.current = 0
            var feed = SessionFeed(sessionID: "s2"); feed.summary = self.music; feed.selectWhenLoaded = "m1"
            $0.sessions.open = feed
            $0.status = StatusLine("search went round: back at the newest match.")
        }
        // Esc in a feed opened from the results goes back to them; Esc there ends the search.
        h.send(.keyPressed(.escape)) { $0.overlay = .searchResults(selection: 0) }
        h.send(.keyPressed(.escape)) { $0.overlay = nil; $0.postSearch = nil }
    }

    func testNoMatchEmptyQueryAndFailureAreSaid() {
        var h = ReducerHarness(F.main(sessions: [films]))
        // `/` in the list filters names; Enter with no session by that name searches posts instead.
        h.send(.keyPressed(.char("/")), [.search(.buildSearchIndex)]) { $0.sessions.search = TextField() }
        h.send(.textPasted("zz top")) { $0.sessions.search = TextField("zz top") }
        h.send(.keyPressed(.enter), [.search(.searchPosts(query: "zz top", sessionID: nil))]) {
            $0.sessions.search = nil
            $0.postSearch = PostSearchState(query: "zz top", sessionID: nil)
            $0.status = StatusLine("searching…")
        }
        h.send(.search(.postSearchFinished(PostSearchAnswer(query: "zz top", sessionID: nil, hits: [], truncated: false, previews: [], indexedPosts: 1)))) {
            $0.postSearch?.searching = false
            $0.status = StatusLine("no post matches \"zz top\" (1 post searched).")
        }
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.send(.textPasted("search")) { $0.overlay = .commandLine(TextField("search")) }
        h.enterCommand {
            $0.overlay = nil
            $0.postSearch = nil
            $0.status = StatusLine("usage: :search WORDS (notes, links and page titles of every session)", .error)
        }
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.send(.textPasted("search x")) { $0.overlay = .commandLine(TextField("search x")) }
        h.enterCommand([.search(.searchPosts(query: "x", sessionID: nil))]) {
            $0.overlay = nil
            $0.postSearch = PostSearchState(query: "x", sessionID: nil)
            $0.status = StatusLine("searching…")
        }
        h.send(.search(.postSearchFailed(ClientError(.storage, "disk I/O error")))) { $0.postSearch = nil; $0.status = StatusLine("search failed: disk I/O error", .error) }
    }
}

/// Link hints (issue 14 item 6): `f` then a post's label opens its link, `F` then a label copies it.
final class LinkHintReducerTests: XCTestCase {
    typealias F = Fixture

    func testTwoKeysOpenOrCopyALinkAndAnythingElseLeavesHintMode() {
        let films = F.session("s1", "Films")
        let posts = (0..<50).map { F.post("p\($0)", in: "s1", at: 5_000 - Int64($0), url: "https://example.com/\($0)") }
        var h = ReducerHarness(F.feed(films, posts: posts))
        h.send(.keyPressed(.char("f"))) {
            $0.sessions.open?.hints = .open
            $0.status = StatusLine("open which link? press its label (Esc cancels).")
        }
        // Keys are labels now: `3` is not the You pane, it is the third post.
        h.send(.keyPressed(.char("3")), [.post(.openURL("https://example.com/2"))]) { $0.sessions.open?.hints = nil; $0.status = nil }
        h.send(.keyPressed(.char("F"))) {
            $0.sessions.open?.hints = .copy
            $0.status = StatusLine("copy which link? press its label (Esc cancels).")
        }
        h.send(.keyPressed(.char("a")), [.copy("https://example.com/9", label: "link")]) { $0.sessions.open?.hints = nil; $0.status = nil }
        h.send(.keyPressed(.char("f"))) {
            $0.sessions.open?.hints = .open
            $0.status = StatusLine("open which link? press its label (Esc cancels).")
        }
        h.send(.keyPressed(.escape)) { $0.sessions.open?.hints = nil; $0.status = nil }
        XCTAssertNotNil(h.state.sessions.open, "Esc leaves hint mode, not the feed")

        // Further down, the labels follow the selection: the posts around it have them.
        h.send(.keyPressed(.char("G"))) { $0.sessions.open?.selection = 49 }
        let labelled = LinkHints.labelled(selection: 49, count: 50)
        XCTAssertEqual(labelled.count, LinkHints.labels.count)
        XCTAssertEqual(labelled.last?.post, 49)
        XCTAssertEqual(Set(labelled.map(\.label)).count, labelled.count, "every label once")
        XCTAssertFalse(LinkHints.labels.contains("f"), "f is not a label")
        h.send(.keyPressed(.char("f"))) {
            $0.sessions.open?.hints = .open
            $0.status = StatusLine("open which link? press its label (Esc cancels).")
        }
        h.send(.keyPressed(.char(labelled.last!.label)), [.post(.openURL("https://example.com/49"))]) { $0.sessions.open?.hints = nil; $0.status = nil }
        // An empty feed has nothing to hint.
        var empty = ReducerHarness(F.feed(films, posts: []))
        empty.send(.keyPressed(.char("f")))
    }
}
