import LinkstrApp
import LinkstrDomain
import XCTest

/// The chat list (navigation, search, archive, new session) and an open session's feed and members.
final class SessionsReducerTests: XCTestCase {
    typealias F = Fixture
    let rows = [F.session("s1", "Films", unread: true, at: 3_000), F.session("s2", "Music", at: 2_000),
                F.session("s3", "Articles", at: 1_000)]

    /// `u` (and `:unread`) from any pane: the next active session with unread posts after the one open
    /// or selected, opened at its feed, round to the first; the tab's dot and the archive hint come
    /// from the same listing.
    /// A listing as the runtime sends it: Films (s1) stays unread in the active list whichever list is shown.
    func listing(_ list: SessionList, _ shown: [SessionSummary], hasArchived: Bool, requestCount: Int) -> SessionListing {
        var l = SessionListing(list: list, rows: shown, hasArchived: hasArchived, requestCount: requestCount)
        l.unreadActive = [rows[0]]
        return l
    }

    func testNextUnreadGoesRoundTheUnreadSessionsFromAnyPane() {
        let list = [F.session("s1", "Films", unreadCount: 3, at: 3_000), F.session("s2", "Music", at: 2_000),
                    F.session("s3", "Articles", unreadCount: 120, at: 1_000)]
        var h = ReducerHarness(F.main(sessions: list))
        XCTAssertEqual(h.state.sessions.unreadActive.map(\.id), ["s1", "s3"])
        h.send(.keyPressed(.char("4")), [.settings(.loadMediaUsage)]) { $0.pane = .settings }
        h.send(.keyPressed(.char("u")), [.sessions(.loadFeed(sessionID: "s1", limit: 50))]) {
            $0.pane = .sessions
            var feed = SessionFeed(sessionID: "s1"); feed.summary = list[0]
            $0.sessions.open = feed
        }
        h.send(.keyPressed(.char("u")), [.sessions(.loadFeed(sessionID: "s3", limit: 50))]) {
            $0.sessions.selection = 2
            var feed = SessionFeed(sessionID: "s3"); feed.summary = list[2]
            $0.sessions.open = feed
        }
        h.send(.keyPressed(.char("u")), [.sessions(.loadFeed(sessionID: "s1", limit: 50))]) {
            $0.sessions.selection = 0
            var feed = SessionFeed(sessionID: "s1"); feed.summary = list[0]
            $0.sessions.open = feed
        }
        // Read everywhere: says so.
        var listing = SessionListing(list: .active, rows: list, hasArchived: true, requestCount: 0)
        listing.archivedUnread = 2
        h.send(.sessions(.sessionsLoaded(listing))) { $0.sessions.unreadActive = []; $0.sessions.archivedUnread = 2; $0.sessions.hasArchived = true }
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.send(.textPasted("unread")) { $0.overlay = .commandLine(TextField("unread")) }
        h.enterCommand { $0.overlay = nil; $0.status = StatusLine("nothing unread.") }
    }

    /// Issue 14, item 1: posts from others arriving above a reader who scrolled down are counted
    /// ("↑ N new"), until the reader is back at the top; at the top nothing is counted.
    func testNewPostsAboveAScrolledFeedAreCounted() {
        let films = F.session("s1", "Films", members: [F.me, F.bob])
        let old = [F.post("p2", in: "s1", at: 9_000), F.post("p1", in: "s1", at: 8_000)]
        var h = ReducerHarness(F.feed(films, posts: old))
        h.send(.keyPressed(.down)) { $0.sessions.open?.selection = 1 }
        let fresh = [F.post("p4", in: "s1", at: 9_200), F.post("p3", in: "s1", by: F.me, at: 9_100)] + old
        h.send(.sessions(.feedLoaded(sessionID: "s1", summary: films, posts: fresh, changes: [], hasMore: false))) {
            $0.sessions.open?.posts = fresh
            $0.sessions.open?.selection = 3  // still on p1
            $0.sessions.open?.newAbove = 1  // p4; p3 is ours
        }
        h.send(.keyPressed(.char("g"))) { $0.sessions.open?.selection = 0; $0.sessions.open?.newAbove = 0 }
        let more = [F.post("p5", in: "s1", at: 9_300)] + fresh
        h.send(.sessions(.feedLoaded(sessionID: "s1", summary: films, posts: more, changes: [], hasMore: false))) {
            $0.sessions.open?.posts = more  // at the top: in view, not counted
        }
    }

    /// Issue 14, item 3: actions reachable by a command too.
    func testArchiveMembersSearchAndRelayCommands() {
        var h = ReducerHarness(F.main(sessions: rows))
        func command(_ line: String, _ effects: [AppEffect], _ change: @escaping (inout AppState) -> Void) {
            h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
            h.send(.textPasted(line)) { $0.overlay = .commandLine(TextField(line)) }
            h.enterCommand(effects) { $0.overlay = nil; change(&$0) }
        }
        command("archive", [.sessions(.setArchived(sessionID: "s1", archived: true)), .sessions(.loadSessions(.active))]) { $0.status = StatusLine("archived Films.") }
        command("unarchive", []) { $0.status = StatusLine("Films is not archived already.") }
        command("members", [.you(.loadContacts)]) {
            $0.overlay = .members(MembersForm(sessionID: "s1", selected: Set(self.rows[0].members), editable: true))
        }
        h.send(.keyPressed(.escape)) { $0.overlay = nil }
        command("search mus", [.search(.searchPosts(query: "mus", sessionID: nil))]) {
            $0.postSearch = PostSearchState(query: "mus", sessionID: nil)
            $0.status = StatusLine("searching…")
        }
        command("relay add wss://relay.example", [.settings(.addRelay("wss://relay.example"))]) { _ in }
        command("relay test wss://relay.example", [.settings(.testRelay("wss://relay.example"))]) { $0.status = StatusLine("testing wss://relay.example…") }
        command("relay frob", []) { $0.status = StatusLine("usage: :relay add|remove|test wss://…", .error) }
    }

    func testListNavigationClampsAtBothEnds() {
        var h = ReducerHarness(F.main(sessions: rows))
        h.send(.keyPressed(.up))
        h.send(.keyPressed(.char("j"))) { $0.sessions.selection = 1 }
        h.send(.keyPressed(.down)) { $0.sessions.selection = 2 }
        h.send(.keyPressed(.down))
        h.send(.keyPressed(.char("g"))) { $0.sessions.selection = 0 }
        h.send(.keyPressed(.char("G"))) { $0.sessions.selection = 2 }
        h.send(.keyPressed(.pageUp)) { $0.sessions.selection = 0 }
        h.send(.keyPressed(.pageDown)) { $0.sessions.selection = 2 }
    }

    func testReloadKeepsTheSelectedSessionSelected() {
        var h = ReducerHarness(F.main(sessions: rows))
        h.send(.keyPressed(.down)) { $0.sessions.selection = 1 }
        // Music gets new activity and moves to the top: the selection follows it.
        let reordered = [F.session("s2", "Music", at: 4_000), rows[0], rows[2]]
        h.send(.sessions(.sessionsLoaded(listing(.active, reordered, hasArchived: true, requestCount: 0)))) {
            $0.sessions.rows = reordered
            $0.sessions.hasArchived = true
            $0.sessions.selection = 0
        }
        // A list for the other mode (a late answer) is ignored.
        h.send(.sessions(.sessionsLoaded(listing(.archived, [], hasArchived: true, requestCount: 0))))
    }

    func testInlineSearchFiltersAndOpensTheMatch() {
        var h = ReducerHarness(F.main(sessions: rows))
        h.send(.keyPressed(.char("/")), [.search(.buildSearchIndex)]) { $0.sessions.search = TextField() }
        h.type("mu") { $0.sessions.search = TextField("mu") }
        XCTAssertEqual(h.state.sessions.visibleRows.map(\.id), ["s2"])
        h.send(.keyPressed(.enter), [.sessions(.loadFeed(sessionID: "s2", limit: AppReducer.feedPage))]) {
            $0.sessions.search = nil
            $0.sessions.selection = 1
            var feed = SessionFeed(sessionID: "s2"); feed.summary = self.rows[1]
            $0.sessions.open = feed
        }
    }

    func testSearchEscapeRestoresTheFullList() {
        var h = ReducerHarness(F.main(sessions: rows))
        h.send(.keyPressed(.char("/")), [.search(.buildSearchIndex)]) { $0.sessions.search = TextField() }
        h.send(.textPasted("zzz")) { $0.sessions.search = TextField("zzz") }
        XCTAssertEqual(h.state.sessions.visibleRows, [])
        h.send(.keyPressed(.escape)) { $0.sessions.search = nil }
        XCTAssertEqual(h.state.sessions.visibleRows.count, 3)
    }

    func testArchiveToggleAndArchivedListModeResetWhenLeavingThePane() {
        var h = ReducerHarness(F.main(sessions: rows))
        h.send(.keyPressed(.char("A"))) { $0.status = StatusLine("no archived sessions.") }
        h.send(.keyPressed(.char("a")), [.sessions(.setArchived(sessionID: "s1", archived: true)), .sessions(.loadSessions(.active))]) {
            $0.status = StatusLine("archived Films.")
        }
        h.send(.sessions(.sessionsLoaded(listing(.active, Array(rows.dropFirst()), hasArchived: true, requestCount: 0)))) {
            $0.sessions.rows = Array(self.rows.dropFirst())
            $0.sessions.hasArchived = true
        }
        h.send(.keyPressed(.char("A")), [.sessions(.loadSessions(.archived))]) {
            $0.sessions.list = .archived
            $0.sessions.rows = []
            $0.sessions.loading = true
        }
        let archived = [F.session("s1", "Films", archived: true, at: 3_000)]
        h.send(.sessions(.sessionsLoaded(listing(.archived, archived, hasArchived: true, requestCount: 0)))) {
            $0.sessions.rows = archived
            $0.sessions.loading = false
        }
        // Leaving the Sessions pane resets the list mode to active (readme v2).
        h.send(.keyPressed(.char("3")), [.sessions(.loadSessions(.active)), .you(.loadIdentities)]) {
            $0.sessions.list = .active
            $0.pane = .you
            $0.status = nil
        }
    }

    func testRequestsListAcceptDeclineAndNoComposingIntoARequest() {
        var h = ReducerHarness(F.main(sessions: rows))
        h.send(.sessions(.sessionsLoaded(listing(.active, rows, hasArchived: false, requestCount: 2)))) { $0.sessions.requestCount = 2 }
        h.send(.keyPressed(.char("R")), [.sessions(.loadSessions(.requests))]) {
            $0.sessions.list = .requests
            $0.sessions.rows = []
            $0.sessions.loading = true
        }
        let requests = [F.session("r1", "Free coins", creator: F.carol, members: [F.carol, F.me], unread: true, at: 5_000, standing: .request),
                        F.session("r2", "Old spam", creator: F.carol, members: [F.carol, F.me], at: 4_000, standing: .declined)]
        // An answer for another list only updates the header's counts.
        h.send(.sessions(.sessionsLoaded(listing(.active, rows, hasArchived: true, requestCount: 2)))) { $0.sessions.hasArchived = true }
        h.send(.sessions(.sessionsLoaded(listing(.requests, requests, hasArchived: true, requestCount: 1)))) {
            $0.sessions.rows = requests
            $0.sessions.requestCount = 1
            $0.sessions.loading = false
        }
        h.send(.keyPressed(.char("y")), [.sessions(.decideRequest(sessionID: "r1", .accepted)), .sessions(.loadSessions(.requests))]) {
            $0.status = StatusLine("accepted Free coins: it is in your sessions now.", .success)
        }
        h.send(.keyPressed(.char("j"))) { $0.sessions.selection = 1 }
        // x on a declined one makes it a request again.
        h.send(.keyPressed(.char("x")), [.sessions(.decideRequest(sessionID: "r2", .undecided)), .sessions(.loadSessions(.requests))]) {
            $0.status = StatusLine("Old spam is a request again.")
        }
        h.send(.keyPressed(.char("k"))) { $0.sessions.selection = 0 }
        // A request cannot be archived or written into before it is accepted.
        h.send(.keyPressed(.char("a"))) { $0.status = StatusLine("accept the request first (y).", .error) }
        h.send(.keyPressed(.enter), [.sessions(.loadFeed(sessionID: "r1", limit: 50))]) {
            var feed = SessionFeed(sessionID: "r1")
            feed.summary = requests[0]
            $0.sessions.open = feed
            $0.status = nil
        }
        h.send(.keyPressed(.char("c"))) {
            $0.status = StatusLine("this is a session request: accept it first (R lists requests, y accepts).", .error)
        }
        h.send(.keyPressed(.char("x")), [.sessions(.decideRequest(sessionID: "r1", .declined)), .sessions(.loadSessions(.requests)), .sessions(.loadFeed(sessionID: "r1", limit: 50))]) {
            $0.status = StatusLine("declined Free coins. x again to undo, y to accept.")
        }
        // Esc leaves the feed, then the requests list.
        h.send(.keyPressed(.escape), [.sessions(.loadSessions(.requests))]) { $0.sessions.open = nil }
        h.send(.keyPressed(.escape), [.sessions(.loadSessions(.active))]) {
            $0.sessions.list = .active
            $0.sessions.rows = []
            $0.sessions.loading = true
        }
        // The command line reaches the same list.
        h.send(.keyPressed(.char(":"))) { $0.overlay = .commandLine(TextField()) }
        h.state.overlay = .commandLine(TextField("/requests"))
        h.enterCommand([.sessions(.loadSessions(.requests))]) {
            $0.overlay = nil
            $0.sessions.list = .requests
        }
    }

    /// wire-2026 §4: opening a session marks nothing; `r` in the list or the feed, or `:read`, marks it all read.
    func testMarkAllReadIsExplicit() {
        var h = ReducerHarness(F.main(sessions: rows))
        h.send(.keyPressed(.char("r")), [.sessions(.markSessionRead("s1"))]) { $0.status = StatusLine("marked Films read.") }
        h.send(.keyPressed(.enter), [.sessions(.loadFeed(sessionID: "s1", limit: 50))]) {
            var feed = SessionFeed(sessionID: "s1")
            feed.summary = self.rows[0]
            $0.sessions.open = feed
            $0.status = nil
        }
        h.send(.keyPressed(.char("r")), [.sessions(.markSessionRead("s1"))]) { $0.status = StatusLine("marked Films read.") }
        h.state.overlay = .commandLine(TextField("/read"))
        h.enterCommand([.sessions(.markSessionRead("s1"))]) { $0.overlay = nil }
    }

    func testRenameCommandIsTheCreatorsAndReloadsWhatShowsTheName() {
        var h = ReducerHarness(F.main(sessions: rows))
        h.state.overlay = .commandLine(TextField("/rename weekend  links"))
        h.enterCommand([.sessions(.renameSession(sessionID: "s1", name: "weekend  links"))]) {
            $0.overlay = nil
            $0.status = StatusLine("renaming…")
        }
        h.send(.sessions(.sessionRenamed(sessionID: "s1", name: "weekend  links")), [.sessions(.loadSessions(.active))]) {
            $0.status = StatusLine("renamed to weekend links.", .success)
        }
        h.state.overlay = .commandLine(TextField("/rename"))
        h.enterCommand { $0.overlay = nil; $0.status = StatusLine("usage: :rename NEW NAME", .error) }
        h.state.sessions.rows = [F.session("s9", "Theirs", creator: F.bob)]
        h.state.sessions.selection = 0
        h.state.overlay = .commandLine(TextField("/rename x"))
        h.enterCommand { $0.overlay = nil; $0.status = StatusLine("only the session creator can manage this session.", .error) }
    }

    /// Wire 2026 §1: the creator deletes after a confirmation; a feed whose session went away closes.
    func testDeleteSessionAsksFirstAndAFeedWhoseSessionIsGoneCloses() {
        var h = ReducerHarness(F.main(sessions: rows))
        h.state.overlay = .commandLine(TextField("/delete-session"))
        h.enterCommand {
            $0.overlay = .confirm(Confirmation(.deleteSession("s1"), "delete \"Films\" for every member, for good? (y/n)"))
        }
        h.send(.keyPressed(.char("n"))) { $0.overlay = nil }
        h.state.overlay = .commandLine(TextField("/delete-session"))
        h.enterCommand {
            $0.overlay = .confirm(Confirmation(.deleteSession("s1"), "delete \"Films\" for every member, for good? (y/n)"))
        }
        h.send(.keyPressed(.char("y")), [.sessions(.deleteSession(sessionID: "s1"))]) {
            $0.overlay = nil
            $0.status = StatusLine("deleting the session…")
        }
        h.send(.sessions(.sessionDeleted(sessionID: "s1", warnings: ["relays may keep older copies of its posts' sealed envelopes."])),
               [.sessions(.loadSessions(.active))]) {
            $0.status = StatusLine("session deleted for everyone; relays may keep older copies of its posts' sealed envelopes.", .warning)
        }
        // Not the creator: refused before asking.
        h.state.sessions.rows = [F.session("s9", "Theirs", creator: F.bob)]
        h.state.sessions.selection = 0
        h.state.overlay = .commandLine(TextField("/delete-session"))
        h.enterCommand { $0.overlay = nil; $0.status = StatusLine("only the session creator can delete this session.", .error) }
        // A member viewing it when the creator deletes it: the reload finds no session, the feed closes.
        h.send(.keyPressed(.enter), [.sessions(.loadFeed(sessionID: "s9", limit: 50))]) {
            var feed = SessionFeed(sessionID: "s9"); feed.summary = F.session("s9", "Theirs", creator: F.bob)
            $0.sessions.open = feed
            $0.status = nil
        }
        h.send(.sessions(.feedLoaded(sessionID: "s9", summary: nil, posts: [], changes: [], hasMore: false)), [.sessions(.loadSessions(.active))]) {
            $0.sessions.open = nil
            $0.status = StatusLine("that session was deleted by its creator.", .error)
        }
    }

    func testOpeningASessionLoadsItsFeed() {
        var h = ReducerHarness(F.main(sessions: rows))
        h.send(.keyPressed(.enter), [.sessions(.loadFeed(sessionID: "s1", limit: 50))]) {
            var feed = SessionFeed(sessionID: "s1"); feed.summary = self.rows[0]
            $0.sessions.open = feed
        }
        let posts = (0..<3).map { F.post("p\($0)", in: "s1", at: 3_000 - Int64($0)) }
        h.send(.sessions(.feedLoaded(sessionID: "s1", summary: rows[0], posts: posts, changes: [], hasMore: false))) {
            $0.sessions.open?.posts = posts
            $0.sessions.open?.loading = false
        }
        // A feed answer for another session is ignored.
        h.send(.sessions(.feedLoaded(sessionID: "s9", summary: nil, posts: [], changes: [], hasMore: false)))
        h.send(.keyPressed(.down)) { $0.sessions.open?.selection = 1 }
        h.send(.keyPressed(.char("G"))) { $0.sessions.open?.selection = 2 }
        h.send(.keyPressed(.char("o")), [.post(.openURL("https://example.com/a"))])
        h.send(.keyPressed(.escape), [.sessions(.loadSessions(.active))]) { $0.sessions.open = nil }
    }

    func testScrollingNearTheEndLoadsTheNextPage() {
        let posts = (0..<50).map { F.post("p\($0)", in: "s1", at: 5_000 - Int64($0)) }
        var h = ReducerHarness(F.feed(rows[0], posts: posts))
        h.state.sessions.open?.hasMore = true
        h.state.sessions.open?.selection = 43
        h.send(.keyPressed(.down)) { $0.sessions.open?.selection = 44 }
        h.send(.keyPressed(.down), [.sessions(.loadFeed(sessionID: "s1", limit: 100))]) { $0.sessions.open?.selection = 45 }
    }

    /// Issue 14, item 2: news rings as `notify` says, never for the session on screen while the terminal
    /// has focus, never for a muted session.
    func testArrivingMessagesReloadTheListTheOpenFeedAndNotify() {
        var h = ReducerHarness(F.feed(rows[0], posts: [], contacts: [Contact(pubkey: F.bob, alias: "Bob")]))
        h.send(.sessions(.messagesArrived(touchedSessions: ["s2"], notifications: [])), [.sessions(.loadSessions(.active))])
        let news: [InboundNotification] = [.post(postID: "p", sessionID: "s1", author: F.bob),
                                           .reaction(reactionID: "r", postID: "p", sessionID: "s1", author: F.carol, emoji: "🔥")]
        // s1 is on screen and the terminal has focus: the feed reloads, nothing rings.
        h.send(.sessions(.messagesArrived(touchedSessions: ["s1"], notifications: news)), [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "s1", limit: 50))])
        h.send(.focusChanged(false)) { $0.terminalFocused = false }
        h.send(.sessions(.messagesArrived(touchedSessions: ["s1"], notifications: news)),
               [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "s1", limit: 50)),
                .notify(title: "Bob shared a post", body: "", via: .both), .notify(title: "\(AccountState.shortNpub(F.carol)) reacted 🔥", body: "", via: .both)])
        h.send(.focusChanged(true)) { $0.terminalFocused = true }
        // Another session rings even while one is open; the bell only when `notify = "bell"`.
        h.state.notifyMode = .bell
        let elsewhere: [InboundNotification] = [.post(postID: "q", sessionID: "s2", author: F.bob)]
        h.send(.sessions(.messagesArrived(touchedSessions: ["s2"], notifications: elsewhere)),
               [.sessions(.loadSessions(.active)), .notify(title: "Bob shared a post", body: "", via: .bell)])
        // Muted (M in the feed): silent, also out of focus. Off: silent.
        h.send(.keyPressed(.char("M")), [.sessions(.saveMuted(["s1"]))]) {
            $0.muted = ["s1"]
            $0.status = StatusLine("muted Films: no notifications from it (M again to unmute).")
        }
        h.send(.focusChanged(false)) { $0.terminalFocused = false }
        h.send(.sessions(.messagesArrived(touchedSessions: ["s1"], notifications: news)), [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "s1", limit: 50))])
        h.send(.keyPressed(.char("M")), [.sessions(.saveMuted([]))]) { $0.muted = []; $0.status = StatusLine("unmuted Films.") }
        h.state.notifyMode = .off
        h.send(.sessions(.messagesArrived(touchedSessions: ["s1"], notifications: news)), [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "s1", limit: 50))])
    }

    /// News that comes with its rows (pushed, not read back) shows them at once: only the open feed is
    /// read again, and it still rings.
    func testArrivingMessagesWithTheirRowsReadOnlyTheFeed() {
        var h = ReducerHarness(F.feed(rows[0], posts: [], contacts: [Contact(pubkey: F.bob, alias: "Bob")]))
        h.send(.focusChanged(false)) { $0.terminalFocused = false }
        let moved = [F.session("s2", "Music", unread: true, at: 4_000)] + [rows[0]] + rows.dropFirst(2)
        var listing = SessionListing(list: .active, rows: moved, hasArchived: false, requestCount: 0)
        listing.unreadActive = moved.filter(\.showsUnread)
        let news: [InboundNotification] = [.post(postID: "q", sessionID: "s2", author: F.bob)]
        h.send(.sessions(.messagesArrived(touchedSessions: ["s2"], notifications: news, listing: listing)),
               [.notify(title: "Bob shared a post", body: "", via: .both)]) {
            $0.sessions.rows = moved
            $0.sessions.unreadActive = listing.unreadActive
            $0.sessions.loading = false
            $0.sessions.selection = 1  // the selection stays on Films, now second
        }
        h.send(.sessions(.messagesArrived(touchedSessions: ["s1"], notifications: [], listing: listing)), [.sessions(.loadFeed(sessionID: "s1", limit: 50))])
    }

    func testComposeFromAReadOnlySessionIsRefused() {
        let removed = F.session("s9", "Old", creator: F.bob, members: [F.bob], isMember: false)
        var h = ReducerHarness(F.feed(removed, posts: []))
        h.send(.keyPressed(.char("c"))) { $0.status = StatusLine(SendRuleError.notMember.description, .error) }
    }

    /// Issue 54 (8): Enter in the name field creates (a session of one's own when nobody is ticked), as
    /// the box's "Enter create" says; it only moved on to the members, showing nothing.
    func testEnterInTheNameFieldCreates() {
        var h = ReducerHarness(F.main(sessions: rows, contacts: [Contact(pubkey: F.bob, alias: "Bob")]))
        h.send(.keyPressed(.char("n")), [.you(.loadContacts)]) { $0.overlay = .newSession(NewSessionForm()) }
        h.type("Solo") { var f = NewSessionForm(); f.name = TextField("Solo"); $0.overlay = .newSession(f) }
        h.send(.keyPressed(.enter), [.sessions(.createSession(name: "Solo", members: []))]) {
            var f = NewSessionForm(); f.name = TextField("Solo"); f.busy = true
            $0.overlay = .newSession(f)
        }
    }

    func testNewSessionNeedsANameThenPicksMembersFromContacts() {
        let contacts = [Contact(pubkey: F.bob, alias: "Bob"), Contact(pubkey: F.carol, alias: "Carol")]
        var h = ReducerHarness(F.main(sessions: rows, contacts: contacts))
        h.send(.keyPressed(.char("n")), [.you(.loadContacts)]) { $0.overlay = .newSession(NewSessionForm()) }
        h.send(.keyPressed(.ctrl("s"))) {
            var f = NewSessionForm(); f.error = SendRuleError.enterSessionName.description
            $0.overlay = .newSession(f)
        }
        h.type("Trip") { var f = NewSessionForm(); f.name = TextField("Trip"); $0.overlay = .newSession(f) }
        // Tab moves from the name into member selection (issue 54: Enter creates from any field, as the box says).
        h.send(.keyPressed(.tab)) { var f = NewSessionForm(); f.name = TextField("Trip"); f.focus = 1; $0.overlay = .newSession(f) }
        h.send(.keyPressed(.down)) { var f = NewSessionForm(); f.name = TextField("Trip"); f.focus = 1; f.cursor = 1; $0.overlay = .newSession(f) }
        h.send(.keyPressed(.char(" "))) {
            var f = NewSessionForm(); f.name = TextField("Trip"); f.focus = 1; f.cursor = 1; f.selected = [F.carol]
            $0.overlay = .newSession(f)
        }
        h.send(.keyPressed(.enter), [.sessions(.createSession(name: "Trip", members: [F.carol]))]) {
            var f = NewSessionForm(); f.name = TextField("Trip"); f.focus = 1; f.cursor = 1; f.selected = [F.carol]; f.busy = true
            $0.overlay = .newSession(f)
        }
        h.send(.keyPressed(.escape))  // busy: the form waits for the relays
        h.send(.sessions(.sessionCreateFailed(ClientError(.rejectedByRelays, "no relay accepted the session.")))) {
            var f = NewSessionForm(); f.name = TextField("Trip"); f.focus = 1; f.cursor = 1; f.selected = [F.carol]
            f.error = "no relay accepted the session."
            $0.overlay = .newSession(f)
        }
        h.send(.keyPressed(.enter), [.sessions(.createSession(name: "Trip", members: [F.carol]))]) {
            var f = NewSessionForm(); f.name = TextField("Trip"); f.focus = 1; f.cursor = 1; f.selected = [F.carol]; f.busy = true
            $0.overlay = .newSession(f)
        }
        h.send(.sessions(.sessionCreated(sessionID: "new")), [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "new", limit: 50))]) {
            $0.overlay = nil
            $0.sessions.open = SessionFeed(sessionID: "new")
            $0.status = StatusLine("session created.", .success)
        }
    }

    func testNewSessionWithoutContactsCreatesOnReturn() {
        var h = ReducerHarness(F.main())
        h.send(.keyPressed(.char("n")), [.you(.loadContacts)]) { $0.overlay = .newSession(NewSessionForm()) }
        h.send(.textPasted("Solo\n")) { var f = NewSessionForm(); f.name = TextField("Solo"); $0.overlay = .newSession(f) }
        h.send(.keyPressed(.enter), [.sessions(.createSession(name: "Solo", members: []))]) {
            var f = NewSessionForm(); f.name = TextField("Solo"); f.busy = true; $0.overlay = .newSession(f)
        }
    }

    func testMembersAreEditableByTheCreatorOnly() {
        let mine = F.session("s1", "Films", creator: F.me, members: [F.me, F.bob])
        let contacts = [Contact(pubkey: F.bob, alias: "Bob"), Contact(pubkey: F.carol, alias: "Carol")]
        var h = ReducerHarness(F.feed(mine, posts: [], contacts: contacts))
        h.send(.keyPressed(.char("m")), [.you(.loadContacts)]) {
            $0.overlay = .members(MembersForm(sessionID: "s1", selected: [F.me, F.bob], editable: true))
        }
        XCTAssertEqual(AppReducer.memberCandidates(h.state, MembersForm(sessionID: "s1", selected: [], editable: true)), [F.me, F.bob, F.carol])
        // You cannot remove yourself; Bob out, Carol in.
        h.send(.keyPressed(.char(" ")))
        h.send(.keyPressed(.down)) { var f = MembersForm(sessionID: "s1", selected: [F.me, F.bob], editable: true); f.cursor = 1; $0.overlay = .members(f) }
        h.send(.keyPressed(.char(" "))) { var f = MembersForm(sessionID: "s1", selected: [F.me], editable: true); f.cursor = 1; $0.overlay = .members(f) }
        h.send(.keyPressed(.down)) { var f = MembersForm(sessionID: "s1", selected: [F.me], editable: true); f.cursor = 2; $0.overlay = .members(f) }
        h.send(.keyPressed(.char(" "))) { var f = MembersForm(sessionID: "s1", selected: [F.me, F.carol], editable: true); f.cursor = 2; $0.overlay = .members(f) }
        h.send(.keyPressed(.enter), [.sessions(.saveMembers(sessionID: "s1", members: [F.carol]))]) {
            var f = MembersForm(sessionID: "s1", selected: [F.me, F.carol], editable: true); f.cursor = 2; f.busy = true; $0.overlay = .members(f)
        }
        h.send(.sessions(.membersSaved(sessionID: "s1")), [.sessions(.loadSessions(.active)), .sessions(.loadFeed(sessionID: "s1", limit: 50))]) {
            $0.overlay = nil
            $0.status = StatusLine("members updated.", .success)
        }

        let theirs = F.session("s2", "Theirs", creator: F.bob, members: [F.bob, F.me])
        var v = ReducerHarness(F.feed(theirs, posts: [], contacts: contacts))
        v.send(.keyPressed(.char("m")), [.you(.loadContacts)]) {
            $0.overlay = .members(MembersForm(sessionID: "s2", selected: [F.bob, F.me], editable: false))
        }
        v.send(.keyPressed(.char(" ")))
        v.send(.keyPressed(.enter)) { $0.overlay = nil }
    }
}
