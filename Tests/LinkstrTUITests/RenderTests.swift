import CQRencode
import LinkstrApp
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

@testable import LinkstrTUI

/// The views render into an in-memory grid; these tests read the grid like a person reads the screen.
final class RenderTests: XCTestCase {
    typealias F = AppFixture

    func render(_ state: AppState, columns: Int = 80, rows: Int = 24) -> Canvas {
        var s = state
        s.screen = ScreenSize(columns: columns, rows: rows)
        return AppView.render(s)
    }

    func row(_ c: Canvas, containing text: String, file: StaticString = #filePath, line: UInt = #line) -> Int? {
        let y = c.lines.firstIndex { $0.contains(text) }
        if y == nil { XCTFail("no row shows \(text):\n" + c.lines.joined(separator: "\n"), file: file, line: line) }
        return y
    }

    /// No cell holds a control character: nothing drawn can move the cursor, retitle, or write the clipboard.
    func assertNoControlCharacters(_ c: Canvas, file: StaticString = #filePath, line: UInt = #line) {
        for cell in c.cells {
            for u in cell.text.unicodeScalars where u.properties.generalCategory == .control || u == "\u{9B}" {
                XCTFail("control character U+\(String(u.value, radix: 16)) in a cell", file: file, line: line)
                return
            }
        }
    }

    func testSessionListShowsNamesTimesUnreadDotsTabsAndRelayDots() throws {
        var state = F.main(sessions: [F.session("s1", "Weekend films", members: [F.me, F.bob], unreadCount: 7, at: 9_700),
                                      F.session("s2", "Reading list", at: 5_000), F.session("s3", "Busy", unreadCount: 250, at: 4_000)])
        state.settings.relays = [RelayRow(url: "wss://a.example", health: .connected), RelayRow(url: "wss://b.example", health: .failed),
                                 RelayRow(url: "wss://c.example", health: .readOnly)]
        let c = render(state)
        XCTAssertTrue(c.row(0).contains("1 Sessions"))
        XCTAssertTrue(c.row(0).contains("4 Settings"))
        XCTAssertTrue(c.row(0).contains("●●● 2 / 3"), c.row(0))
        let dots = c.row(0).firstRange(of: "●●●").map { c.row(0).distance(from: c.row(0).startIndex, to: $0.lowerBound) }!
        XCTAssertEqual([c[dots, 0].style.role, c[dots + 1, 0].style.role, c[dots + 2, 0].style.role], [.dotConnected, .dotFailed, .dotReadOnly])

        let films = try XCTUnwrap(row(c, containing: "Weekend films"))
        XCTAssertTrue(c.row(films).hasSuffix("5m  "), "relative time on the row: \(c.row(films))")
        XCTAssertTrue(c.row(films + 1).contains("2 members"))
        // The unread dot with how many, in the unread colour (99+ beyond).
        XCTAssertEqual(c.styles(ofText: "●", onRow: films + 1).first?.role, .unread)
        XCTAssertTrue(c.row(films + 1).hasSuffix(" 7 ●  "), c.row(films + 1))
        XCTAssertEqual(c.styles(ofText: "7 ●", onRow: films + 1).first?.role, .unread)
        XCTAssertTrue(c.row(try XCTUnwrap(row(c, containing: "Busy")) + 1).hasSuffix(" 99+ ●  "))
        let reading = try XCTUnwrap(row(c, containing: "Reading list"))
        XCTAssertFalse(c.row(reading + 1).contains("●"))
        // The tab's dot: unread somewhere, seen from every pane.
        let tabDot = "1 Sessions".count + 2
        XCTAssertEqual(c[tabDot, 0].text, "●")
        var settings = state
        settings.pane = .settings
        XCTAssertEqual(render(settings)[tabDot, 0].text, "●")
        var read = state
        _ = AppReducer.reduce(&read, .sessions(.sessionsLoaded(SessionListing(list: .active, rows: [F.session("s2", "Reading list", at: 5_000)],
                                                                    hasArchived: true, requestCount: 0))))
        XCTAssertNotEqual(render(read)[tabDot, 0].text, "●", "nothing unread: no dot")
        XCTAssertTrue(render(read).row(1).contains("(A: archived)"))
        var archivedNews = SessionListing(list: .active, rows: [F.session("s2", "Reading list", at: 5_000)], hasArchived: true, requestCount: 0)
        archivedNews.archivedUnread = 2
        _ = AppReducer.reduce(&read, .sessions(.sessionsLoaded(archivedNews)))
        XCTAssertTrue(render(read).row(1).contains("(A: archived, 2 with new posts)"), render(read).row(1))
        // The selected row is highlighted.
        XCTAssertTrue(c[10, films].style.reverse)
        XCTAssertFalse(c[10, reading].style.reverse)
        XCTAssertTrue(c.row(23).contains("n new"))
    }

    /// Issue 16 (9): a row says what happened last: who shared what (the page's title, else the host),
    /// with the time; unread rows have a bold name besides the dot.
    func testSessionRowsSayWhoSharedWhat() {
        var films = F.session("s1", "Films", members: [F.me, F.bob], unread: true, at: 9_000)
        films.lastPost = SessionSummary.LastPost(author: F.bob, url: "https://www.youtube.com/watch?v=x")
        var state = F.main(sessions: [films, F.session("s2", "Quiet", at: 8_000)])
        state.contacts = [Contact(pubkey: F.bob, alias: "Bob")]
        var c = render(state)
        XCTAssertNotNil(row(c, containing: "Bob: www.youtube.com"), c.lines.joined(separator: "\n"))
        XCTAssertNotNil(row(c, containing: "1 member"), "no post yet: the members")
        let nameRow = c.lines.firstIndex { $0.contains("Films") }!
        XCTAssertTrue(c.styles(ofText: "Films", onRow: nameRow).allSatisfy(\.bold), "unread rows stand out")
        state.linkTitles = ["https://www.youtube.com/watch?v=x": "Never Gonna Give You Up"]
        c = render(state)
        XCTAssertNotNil(row(c, containing: "Bob: Never Gonna Give You Up"))
    }

    func testEmptyListAndArchivedHint() {
        var state = F.main()
        XCTAssertNotNil(row(render(state), containing: "no sessions yet. press n to start one."))
        state.sessions.hasArchived = true
        XCTAssertNotNil(row(render(state), containing: "(A: archived)"))
    }

    func testLongAndWideNamesAreTruncatedToEightyColumns() throws {
        let long = String(repeating: "very long session name ", count: 8)
        let wide = "映画と音楽の夜🎬🎬🎬" + String(repeating: "長", count: 60)
        let state = F.main(sessions: [F.session("s1", long, at: 9_000), F.session("s2", wide, at: 8_000)])
        let c = render(state)
        let y1 = try XCTUnwrap(row(c, containing: "very long session name"))
        XCTAssertTrue(c.row(y1).contains("…"), "cut with an ellipsis")
        XCTAssertTrue(c.row(y1).contains("16m"), "the time still shows after the cut name: \(c.row(y1))")
        let y2 = try XCTUnwrap(row(c, containing: "映画と音楽の夜"))
        XCTAssertTrue(c.row(y2).contains("🎬🎬🎬"))
        XCTAssertTrue(c.row(y2).contains("…"))
        // Every row's display width is exactly the screen width: wide characters never overflow.
        for y in 0..<c.height { XCTAssertEqual(DisplayWidth.of(c.row(y)), 80, "row \(y): \(c.row(y))") }
    }

    func testHostileNamesAndNotesAreDrawnHarmlessly() throws {
        let evil = "pwn\u{1B}]52;c;ZXZpbA==\u{07}ed\u{1B}[2J\u{9B}31m\u{202E}gnp.exe"
        let contacts = [Contact(pubkey: F.bob, alias: "bob\u{1B}[1;1H\u{1B}]0;title\u{07}")]
        var state = F.feed(F.session("s1", evil, members: [F.me, F.bob], unread: true, at: 9_000),
                           posts: [F.post("p1", in: "s1", by: F.bob, at: 9_000, url: "https://example.com/\u{1B}[2Jx", note: "note\u{1B}]52;c;AAAA\u{07}!",
                                          reactions: [ReactionSummary(emoji: "\u{1B}[31m👍", count: 1, mine: false, by: [F.bob])])],
                           contacts: contacts)
        state.status = StatusLine("error: \u{1B}[2J relay said \u{07}no")
        var c = render(state)
        assertNoControlCharacters(c)
        let title = try XCTUnwrap(row(c, containing: "pwn]52;c;ZXZpbA==ed[2J"))
        XCTAssertFalse(c.row(title).contains("\u{202E}"), "bidi overrides are removed too")
        XCTAssertNotNil(row(c, containing: "bob[1;1H]0;title"))
        XCTAssertNotNil(row(c, containing: "▌ note]52;c;AAAA!"))
        XCTAssertNotNil(row(c, containing: "error: [2J relay said no"))

        // The same strings in the list, the post detail, the composer and the members overlay.
        state.sessions.open = nil
        c = render(state)
        assertNoControlCharacters(c)
        XCTAssertNotNil(row(c, containing: "pwn]52;c;ZXZpbA==ed[2J"))
        _ = AppReducer.reduce(&state, .keyPressed(.enter))
        _ = AppReducer.reduce(&state, .sessions(.feedLoaded(sessionID: "s1", summary: state.sessions.rows.first, posts: [F.post("p1", in: "s1", url: "https://e.example/\u{1B}]52;c;x\u{07}")],
                                                  changes: [MembershipChange(at: 8_000, joined: [F.bob], left: [])], hasMore: false)))
        _ = AppReducer.reduce(&state, .keyPressed(.enter))
        assertNoControlCharacters(render(state))
        _ = AppReducer.reduce(&state, .keyPressed(.escape))
        _ = AppReducer.reduce(&state, .keyPressed(.char("1")))
        _ = AppReducer.reduce(&state, .keyPressed(.char("c")))
        _ = AppReducer.reduce(&state, .textPasted("https://x.example/\u{1B}[2J"))
        assertNoControlCharacters(render(state))
        _ = AppReducer.reduce(&state, .keyPressed(.escape))
        _ = AppReducer.reduce(&state, .keyPressed(.char("m")))
        c = render(state)
        assertNoControlCharacters(c)
        XCTAssertNotNil(row(c, containing: "bob[1;1H]0;title"))
    }

    func testFeedGroupsPostsWithLabelsNotesReactionsDotsAndMembershipSeparators() throws {
        let many = (0..<12).map { ReactionSummary(emoji: ["👍", "🔥", "😂", "👀", "🎉", "❤️", "😮", "😢", "🙏", "💯", "🤔", "👏"][$0], count: $0 == 0 ? 14 : 1, mine: false, by: [F.bob]) }
        let posts = [F.post("p3", in: "s1", by: F.bob, at: 9_900, url: "https://www.youtube.com/watch?v=abc", note: "watch this", unread: true, reactions: many),
                     F.post("p2", in: "s1", by: F.bob, at: 9_800, url: "https://example.com/article"),
                     F.post("p1", in: "s1", by: F.me, at: 5_000, url: "https://www.tiktok.com/@someone/video/7234567890123")]
        var state = F.feed(F.session("s1", "Films", members: [F.me, F.bob]), posts: posts, contacts: [Contact(pubkey: F.bob, alias: "Bob")])
        state.sessions.open?.membershipChanges = [MembershipChange(at: 6_000, joined: [F.bob], left: [F.carol])]
        let c = render(state)
        XCTAssertNotNil(row(c, containing: "‹ Films  2 members"))
        // The read marker sits below the unread post (p3) and above the read ones; Bob's name is said
        // again below it, as after any separator.
        let marker = try XCTUnwrap(row(c, containing: "── new above · read below ──"))
        XCTAssertEqual(c.styles(ofText: "new above", onRow: marker).first?.role, .unread)
        XCTAssertEqual(c.lines.filter { $0.contains("Bob  ") && !$0.contains("in:") }.count, 2, c.lines.joined(separator: "\n"))
        XCTAssertLessThan(try XCTUnwrap(row(c, containing: "watch?v=abc")), marker)
        XCTAssertGreaterThan(try XCTUnwrap(row(c, containing: "example.com/article")), marker)
        // All read: no marker, one header for Bob's two posts.
        var read = state
        read.sessions.open?.posts = posts.map { PostView(post: $0.post, unread: false, reactions: $0.reactions) }
        XCTAssertFalse(render(read).lines.contains { $0.contains("read below") })
        XCTAssertEqual(render(read).lines.filter { $0.contains("Bob  ") && !$0.contains("in:") }.count, 1)
        let link = try XCTUnwrap(row(c, containing: "https://www.youtube.com/watch?v=abc"))
        XCTAssertTrue(c.row(link).contains("[Video]"), "YouTube plays here (mpv and yt-dlp), so it is a video (issue 54): \(c.row(link))")
        XCTAssertEqual(c.styles(ofText: "●", onRow: link).first?.role, .unread)
        XCTAssertTrue(c.row(link + 1).contains("▌ watch this"))
        // The compact reaction summary: counts hidden when 1, capped at 10+.
        XCTAssertTrue(c.row(link + 2).contains("👍10+ 🔥 😂"), c.row(link + 2))
        XCTAssertNotNil(row(c, containing: "in: Bob  out: \(AccountState.shortNpub(F.carol))"))
        let tiktok = try XCTUnwrap(row(c, containing: "https://www.tiktok.com/@someone/video/"))
        XCTAssertTrue(c.row(tiktok).contains("[Video]"), "a TikTok video is an extraction candidate: \(c.row(tiktok))")
        XCTAssertTrue(c.row(try XCTUnwrap(row(c, containing: "https://example.com/article"))).contains("[Link]"))
        XCTAssertEqual(AppView.reactionSummary([ReactionSummary(emoji: "👍", count: 10, mine: false, by: [])]), "👍10")
        XCTAssertEqual(AppView.reactionSummary([ReactionSummary(emoji: "👍", count: 11, mine: false, by: [])]), "👍10+")
    }

    /// The feed keeps its last layout between frames; any change to what it shows must lay it out again.
    func testFeedLayoutFollowsEveryChangeOfPostsWidthAndContacts() throws {
        let post = F.post("p1", in: "s1", by: F.bob, at: 9_900, url: "https://example.com/a", note: "first note")
        var state = F.feed(F.session("s1", "Films", members: [F.me, F.bob]), posts: [post])
        XCTAssertNotNil(row(render(state), containing: "first note"))
        XCTAssertNotNil(row(render(state), containing: "first note"), "the same state draws the same feed")
        state.sessions.open?.posts = [F.post("p1", in: "s1", by: F.bob, at: 9_900, url: "https://example.com/a", note: "edited elsewhere",
                                             reactions: [ReactionSummary(emoji: "🔥", count: 2, mine: true, by: [F.me, F.bob])])]
        var c = render(state)
        XCTAssertNotNil(row(c, containing: "edited elsewhere"))
        XCTAssertNotNil(row(c, containing: "🔥2"))
        XCTAssertFalse(c.lines.contains { $0.contains("first note") })
        state.contacts = [Contact(pubkey: F.bob, alias: "Roberto")]
        XCTAssertNotNil(row(render(state), containing: "Roberto"))
        c = render(state, columns: 40)
        XCTAssertTrue(c.lines.allSatisfy { DisplayWidth.of($0) <= 40 })
        XCTAssertNotNil(row(c, containing: "edited elsewhere"))
    }

    /// Without an alias, people are called by their profile name (kind 0); an alias wins; hostile names are drawn harmlessly.
    func testProfileNamesNameAuthorsWhenThereIsNoAlias() throws {
        let post = F.post("p1", in: "s1", by: F.bob, at: 9_900, url: "https://example.com/a", note: "hello",
                          reactions: [ReactionSummary(emoji: "👍", count: 1, mine: false, by: [F.carol])])
        var state = F.feed(F.session("s1", "Films", members: [F.me, F.bob, F.carol]), posts: [post], contacts: [Contact(pubkey: F.carol)])
        XCTAssertNotNil(row(render(state), containing: AccountState.shortNpub(F.bob)))
        XCTAssertEqual(AppReducer.reduce(&state, .you(.profileNamesLoaded([F.bob: "Bob\u{1B}[2J Builder", F.carol: "Carol"]))), [])
        var c = render(state)
        XCTAssertNotNil(row(c, containing: "Bob[2J Builder  "))
        assertNoControlCharacters(c)
        // The You pane lists contacts by profile name, with the npub beside it.
        var you = state
        you.sessions.open = nil
        _ = AppReducer.reduce(&you, .keyPressed(.char("3")))
        XCTAssertNotNil(row(render(you), containing: "Carol  " + AccountState.shortNpub(F.carol)))
        state.contacts = [Contact(pubkey: F.bob, alias: "Bobby")]
        c = render(state)
        XCTAssertNotNil(row(c, containing: "Bobby  "))
        XCTAssertFalse(c.lines.contains { $0.contains("Builder") }, "an alias wins over the profile name")
        XCTAssertEqual(state.displayName(F.carol), "~Carol", "a self-chosen name never looks like an alias")
        XCTAssertEqual(state.displayName(F.me), "you")
        // Issue 32 (6): a name that copies your alias for someone else is marked, in the feed too.
        state.profileNames[F.bob] = "Bob"
        state.profileNames[F.carol] = "bobby"
        XCTAssertEqual(state.displayName(F.carol), "~bobby (not your bobby)")

        // Issue 16 (6): in the You pane a contact with an alias shows it first, their profile name second;
        // identities show the profile names known here.
        you.contacts = [Contact(pubkey: F.bob, alias: "Bobby")]
        you.identity?.profileName = "Me Myself"
        you.you.identities = [IdentityEntry(pubkey: F.me, npub: try PublicKey(hex: F.me).npub, active: true),
                              IdentityEntry(pubkey: F.carol, npub: try PublicKey(hex: F.carol).npub, active: false)]
        let pane = render(you)
        XCTAssertNotNil(row(pane, containing: "› Bobby  Bob[2J Builder  npub1"), pane.lines.joined(separator: "\n"))
        XCTAssertNotNil(row(pane, containing: "● Me Myself  npub1"))
        XCTAssertNotNil(row(pane, containing: "○ Carol  npub1"))
    }

    /// Page titles (link previews) appear under the link in the feed and above it in the detail, cleaned.
    func testLinkTitlesShowInTheFeedAndTheDetail() throws {
        let url = "https://example.com/a"
        var state = F.feed(F.session("s1", "Films", members: [F.me, F.bob]), posts: [F.post("p1", in: "s1", by: F.bob, at: 9_900, url: url, note: "see")])
        let before = render(state)
        XCTAssertEqual(AppReducer.reduce(&state, .post(.linkTitlesLoaded([url: "A Film \u{1B}[2JReview"]))), [])
        XCTAssertEqual(state.linkTitlesVersion, 1)
        _ = AppReducer.reduce(&state, .post(.linkTitlesLoaded([url: "A Film \u{1B}[2JReview"])))
        XCTAssertEqual(state.linkTitlesVersion, 1, "the same titles again change nothing")
        let c = render(state)
        let link = try XCTUnwrap(row(c, containing: url))
        XCTAssertTrue(c.row(link + 1).contains("A Film [2JReview"), c.row(link + 1))
        XCTAssertTrue(c.row(link + 2).contains("▌ see"))
        XCTAssertFalse(before.lines.contains { $0.contains("A Film") })
        assertNoControlCharacters(c)
        state.post.mode = .detail(PostDetail(postID: "p1", view: state.sessions.open!.posts[0], sessionName: "Films"))
        state.pane = .post
        let detail = render(state)
        let titleRow = try XCTUnwrap(row(detail, containing: "A Film [2JReview"))
        XCTAssertEqual(row(detail, containing: url), titleRow + 1)
    }

    /// Older than a week: a calendar date in local time, as a DateFormatter would write it.
    func testOldPostsShowTheirLocalCalendarDate() {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.timeZone = TimeZone.current
        for t: Int64 in [86_399, 951_782_400, 1_704_067_199, 1_704_067_200, 1_763_856_000, 4_102_444_800] {
            XCTAssertEqual(AppView.relative(t, now: t + 8 * 86_400), formatter.string(from: Date(timeIntervalSince1970: TimeInterval(t))), "t = \(t)")
        }
        XCTAssertEqual(AppView.relative(1_000, now: 1_030), "now")
        XCTAssertEqual(AppView.relative(1_000, now: 1_000 + 3 * 86_400), "3d")
    }

    func testReadOnlySessionSaysSo() {
        let state = F.feed(F.session("s1", "Old", creator: F.bob, members: [F.bob], isMember: false), posts: [])
        XCTAssertNotNil(row(render(state), containing: "you were removed: read-only"))
    }

    func testComposerShowsSessionFieldsHelpersHintAndSendingState() throws {
        var state = F.feed(F.session("s1", "Films", members: [F.me]), posts: [])
        _ = AppReducer.reduce(&state, .keyPressed(.char("c")))
        _ = AppReducer.reduce(&state, .textPasted("youtube.com/watch?v=dQw4w9WgXcQ"))
        var c = render(state)
        let link = try XCTUnwrap(row(c, containing: "Link    youtube.com/watch?v=dQw4w9WgXcQ"))
        XCTAssertTrue(c.row(link + 1).contains("[ Paste ^V ]  [ Clear ^L ]"), "helpers right under the link field")
        XCTAssertTrue(c.row(link + 2).contains("▶"), "the playback hint: \(c.row(link + 2))")
        XCTAssertNotNil(row(c, containing: "Session Films"))
        _ = AppReducer.reduce(&state, .keyPressed(.enter))
        _ = AppReducer.reduce(&state, .keyPressed(.enter))
        c = render(state)
        XCTAssertNotNil(row(c, containing: "sending… waiting for relays to accept it"))
        _ = AppReducer.reduce(&state, .post(.postSendFailed(ClientError(.rejectedByRelays, "no relay accepted the post."))))
        c = render(state)
        XCTAssertEqual(c.styles(ofText: "no relay accepted the post.", onRow: try XCTUnwrap(row(c, containing: "no relay accepted"))).first?.role, .error)
    }

    func testPostDetailShowsTheFullURLNoteReactionsAndBreakdown() throws {
        let url = "https://example.com/" + String(repeating: "segment/", count: 20) + "end"
        let post = F.post("p1", in: "s1", by: F.bob, url: url, note: "a note",
                          reactions: [ReactionSummary(emoji: "👍", count: 2, mine: true, by: [F.me, F.bob])])
        var state = F.feed(F.session("s1", "Films", members: [F.me, F.bob]), posts: [post], contacts: [Contact(pubkey: F.bob, alias: "Bob")])
        _ = AppReducer.reduce(&state, .keyPressed(.enter))
        let c = render(state)
        // The whole URL is on screen (wrapped), so it can be selected.
        let first = try XCTUnwrap(row(c, containing: "https://example.com/segment"))
        let shown = (first..<first + 3).map { c.row($0).trimmingCharacters(in: .whitespaces) }.joined()
        XCTAssertTrue(shown.hasPrefix(url), shown)
        XCTAssertNotNil(row(c, containing: "▌ a note"))
        XCTAssertNotNil(row(c, containing: " 👍 2 "))
        XCTAssertNotNil(row(c, containing: "👍 you, Bob"))
        XCTAssertNotNil(row(c, containing: "+ 👍  - 👎  * 👀  e more"))
    }

    func testYouPaneShowsTruncatedNpubIdenticonQRAndContacts() throws {
        var state = F.main(contacts: [Contact(pubkey: F.bob, alias: "Bob")])
        _ = AppReducer.reduce(&state, .keyPressed(.char("3")))
        let c = render(state)
        let npub = F.meInfo.npub
        XCTAssertNotNil(row(c, containing: String(npub.prefix(10)) + "…" + String(npub.suffix(6))))
        XCTAssertFalse(c.lines.joined().contains(npub), "the full npub is not shown, only the truncated one")
        XCTAssertNotNil(row(c, containing: "scan to add me"))
        XCTAssertGreaterThan(c.lines.filter { $0.contains("▀") || $0.contains("▄") }.count, 12, "QR half blocks")
        XCTAssertNotNil(row(c, containing: "› Bob"))
        // What is drawn is libqrencode's matrix for the npub, module for module (light = full block half),
        // inside a light quiet zone of two modules at 80×24.
        let quiet = 2
        let drawn = YouView.qrLines(npub, quiet: quiet)
        for line in drawn { XCTAssertNotNil(row(c, containing: line)) }
        let code = try XCTUnwrap(QRcode_encodeString(npub, 0, QR_ECLEVEL_L, QR_MODE_8, 1))
        defer { QRcode_free(code) }
        let n = Int(code.pointee.width)
        XCTAssertEqual(drawn.count, (n + 2 * quiet + 1) / 2)
        XCTAssertEqual(DisplayWidth.of(drawn[0]), n + 2 * quiet)
        XCTAssertTrue(drawn[0].allSatisfy { $0 == "█" }, "the top border is light")
        XCTAssertTrue(drawn.allSatisfy { $0.hasPrefix("██") && $0.hasSuffix("██") }, "so are the sides")
        // A taller, wider terminal gets the full four modules.
        var big = state
        big.screen = ScreenSize(columns: 120, rows: 40)
        let bigScreen = AppView.render(big)
        for line in YouView.qrLines(npub, quiet: 4) { XCTAssertTrue(bigScreen.lines.contains { $0.contains(line) }, "quiet zone of 4 at 120×40") }
        for my in 0..<n {
            for mx in 0..<n {
                let y = my + quiet, x = mx + quiet
                let ch = Array(drawn[y / 2])[x]
                let light = y % 2 == 0 ? (ch == "█" || ch == "▀") : (ch == "█" || ch == "▄")
                XCTAssertEqual(light, code.pointee.data[my * n + mx] & 1 == 0, "module (\(mx), \(my))")
            }
        }
    }

    func testSettingsShowsRelayHealthErrorSlotAndHidesTheSecretUntilRevealed() throws {
        var state = F.main()
        _ = AppReducer.reduce(&state, .settings(.relaysChanged([RelayRow(url: "ws://127.0.0.1:7000", health: .failed, error: "connection refused"),
                                                      RelayRow(url: "wss://relay.example", health: .connected)])))
        _ = AppReducer.reduce(&state, .keyPressed(.char("4")))
        var c = render(state)
        XCTAssertNotNil(row(c, containing: "Relays  1 / 2 connected"))
        let failed = try XCTUnwrap(row(c, containing: "ws://127.0.0.1:7000"))
        XCTAssertEqual(c.styles(ofText: "●", onRow: failed).first?.role, .dotFailed)
        XCTAssertTrue(c.row(failed).contains("failed"))
        XCTAssertTrue(c.row(failed + 1).contains("connection refused"))
        // The error slot is reserved: the next relay is two rows down either way.
        let ok = try XCTUnwrap(row(c, containing: "wss://relay.example"))
        XCTAssertEqual(ok, failed + 2)
        XCTAssertEqual(c.styles(ofText: "●", onRow: ok).first?.role, .dotConnected)
        XCTAssertFalse(c.lines.joined().contains("nsec1"))
        let key = SecretKey.generate(), nsec = key.revealNsec()
        _ = AppReducer.reduce(&state, .settings(.secretRevealed(RevealedSecret(key.revealNsecBytes()))))
        c = render(state)
        XCTAssertNotNil(row(c, containing: nsec))
        XCTAssertNotNil(row(c, containing: "hidden in 60 s"))
        _ = AppReducer.reduce(&state, .clockTicked(state.now + 60))
        XCTAssertFalse(render(state).lines.joined().contains("nsec1"))
    }

    /// A click selects the relay drawn on that row, also when the list is scrolled (view and reducer share the geometry).
    func testClickingARelayRowSelectsTheRelayDrawnThere() throws {
        for rows in [24, 40] {
            var state = F.main()
            state.screen = ScreenSize(columns: 80, rows: rows)
            _ = AppReducer.reduce(&state, .keyPressed(.char("4")))
            _ = AppReducer.reduce(&state, .settings(.relaysChanged((0..<12).map { RelayRow(url: String(format: "wss://relay%02d.example", $0), health: .connected) })))
            // Scroll down so that the first relays are off screen at 80×24.
            for _ in 0..<9 { _ = AppReducer.reduce(&state, .keyPressed(.down)) }
            let c = render(state, rows: rows)
            for target in [4, 7, 9] {
                let name = String(format: "relay%02d", target)
                let y = try XCTUnwrap(c.lines.firstIndex { $0.contains(name) }, "\(name) on screen at \(rows) rows")
                var clicked = state
                _ = AppReducer.reduce(&clicked, .mouseUsed(MouseEvent(.click, column: 20, row: y)))
                XCTAssertEqual(clicked.settings.selection, target, "\(rows) rows: click on row \(y) showing \(name)")
                // The error slot under a relay belongs to the same relay.
                var below = state
                _ = AppReducer.reduce(&below, .mouseUsed(MouseEvent(.click, column: 20, row: y + 1)))
                XCTAssertEqual(below.settings.selection, target)
            }
            XCTAssertNotNil(c.lines.firstIndex { $0.contains("relay09") }, "the selected relay is on screen")
        }
    }

    /// The same for the session list after scrolling down and part of the way back up.
    func testClickingASessionRowSelectsTheSessionDrawnThere() throws {
        var state = F.main(sessions: (0..<40).map { F.session(String(format: "s%02d", $0), String(format: "Session %02d", $0), at: Int64(1_000 - $0)) })
        for _ in 0..<30 { _ = AppReducer.reduce(&state, .keyPressed(.down)) }
        for _ in 0..<12 { _ = AppReducer.reduce(&state, .keyPressed(.up)) }
        let c = render(state)
        var clicks = 0
        for target in 0..<40 {
            let name = String(format: "Session %02d", target)
            guard let y = c.lines.firstIndex(where: { $0.contains(name) }) else { continue }
            var clicked = state
            _ = AppReducer.reduce(&clicked, .mouseUsed(MouseEvent(.click, column: 20, row: y)))
            XCTAssertEqual(clicked.sessions.visibleRows[clicked.sessions.selection].name, name, "click on row \(y)")
            clicks += 1
        }
        XCTAssertGreaterThanOrEqual(clicks, 9, "a full screen of sessions was drawn and clicked")
    }

    func testBootUnlockAndOnboardingScreens() throws {
        var state = AppState()
        state.phase = .booting(.connectingRelays)
        var c = render(state)
        XCTAssertNotNil(row(c, containing: "✓ loading account…"))
        XCTAssertNotNil(row(c, containing: "› connecting relays…"))
        XCTAssertNotNil(row(c, containing: "  starting session…"))
        state.phase = .recovery(error: "file is not a database")
        c = render(state)
        XCTAssertNotNil(row(c, containing: "r retry · m continue in memory"))
        var u = UnlockState(pubkey: F.me, npub: F.meInfo.npub)
        u.passphrase = TextField("secret")
        state.phase = .unlock(u)
        c = render(state)
        XCTAssertFalse(c.lines.joined().contains("secret"), "the passphrase is never echoed")
        XCTAssertNotNil(row(c, containing: "••••••"))
        var o = OnboardingState()
        o.step = .importKey(TextField("nsec1abcdef"))
        state.phase = .onboarding(o)
        XCTAssertFalse(render(state).lines.joined().contains("nsec1abcdef"), "a pasted key is masked")
        o.step = .backup(revealed: nil)
        o.secretToBackUp = RevealedSecret(SecretBytes(copying: Array("nsec1backup".utf8)))
        state.phase = .onboarding(o)
        XCTAssertFalse(render(state).lines.joined().contains("nsec1backup"))
        o.step = .backup(revealed: o.secretToBackUp)
        state.phase = .onboarding(o)
        XCTAssertNotNil(row(render(state), containing: "nsec1backup"))
    }

    /// Issue 14 (9): nothing cut mid-word at 80 columns. Hint bars keep whole items (and `? help`),
    /// guidance wraps, a long status ends at a word with "…".
    func testGuidanceAndHintsAreNeverCutMidWordAtEightyColumns() {
        var states: [AppState] = []
        for pane in AppState.Pane.allCases { var s = F.main(sessions: [F.session("s1", "Films")]); s.pane = pane; states.append(s) }
        states.append(F.feed(F.session("s1", "Films"), posts: [F.post("p1", in: "s1")]))
        var detail = states.last!
        _ = AppReducer.reduce(&detail, .keyPressed(.enter))
        states.append(detail)
        for state in states {
            let c = render(state)
            let bar = c.row(23).trimmingCharacters(in: .whitespaces)
            let all = Set(AppView.hintText(state).components(separatedBy: " · ") + ["…"])
            for item in bar.components(separatedBy: " · ") { XCTAssertTrue(all.contains(item), "a cut hint item: '\(item)' in '\(bar)'") }
            if DisplayWidth.of(AppView.hintText(state)) > 78, AppView.hintText(state).contains("? help") { XCTAssertTrue(bar.hasSuffix("… · ? help"), bar) }
        }
        var post = F.main()
        post.pane = .post
        let postText = render(post).lines.joined(separator: " ").split(separator: " ").joined(separator: " ")
        XCTAssertTrue(postText.contains("or Enter on a post."), "the guidance wraps, whole: \(postText)")
        var solo = F.main()
        _ = AppReducer.reduce(&solo, .keyPressed(.char("n")))
        let dialog = render(solo).lines.joined(separator: "\n")
        XCTAssertTrue(dialog.contains("solo session") && dialog.contains("You, 3)."), dialog)
        XCTAssertFalse(render(solo).lines.contains { $0.contains("solo session") && $0.contains("…") }, dialog)
        // The npub in full where there is room (Settings at 80 columns), shortened where not.
        var settings = F.main()
        settings.pane = .settings
        XCTAssertTrue(render(settings).lines.contains { $0.contains(F.meInfo.npub) }, "the whole npub in Settings")
        XCTAssertFalse(render(settings, columns: 60).lines.contains { $0.contains(F.meInfo.npub) })
        XCTAssertTrue(render(settings).lines.contains { $0.contains("L log out") }, "whole items")
        var long = F.main()
        long.status = StatusLine("invalid backup: preferences[12] is refused: its d tag does not match its content, so nothing was restored here.", .error)
        let status = render(long).row(22).trimmingCharacters(in: .whitespaces)
        // Cut at a whole word, saying where the whole of it is (issue 54).
        XCTAssertTrue(status.hasSuffix(" (… :messages)"), status)
        let kept = String(status.dropLast(" (… :messages)".count))
        XCTAssertTrue("invalid backup: preferences[12] is refused: its d tag does not match its content, so nothing was restored here."
            .hasPrefix(kept + " "), "ends at a whole word: \(status)")
    }

    func testHelpListsEveryBindingWithinEightyColumnsThePanesOwnFirstAndScrollsToTheEnd() {
        for pane in AppState.Pane.allCases {
            for rows in [24, 60] {
                var state = F.main()
                state.pane = pane
                state.screen = ScreenSize(columns: 80, rows: rows)
                _ = AppReducer.reduce(&state, .keyPressed(.char("?")))
                let lines = OverlayViews.helpLines(for: pane)
                var seen = Set<String>()
                // Page by page to the end: every line is shown whole at some point, nothing is clipped.
                for _ in 0..<10 {
                    let c = render(state, rows: rows)
                    XCTAssertTrue(c.lines.contains { $0.contains("Keys · \(pane.title)") })
                    for line in lines where c.lines.contains(where: { $0.contains(line) }) { seen.insert(line) }
                    _ = AppReducer.reduce(&state, .keyPressed(.pageDown))
                }
                for line in lines {
                    XCTAssertLessThanOrEqual(DisplayWidth.of(line), 74, line)
                    XCTAssertTrue(seen.contains(line), "help shows at \(rows) rows: \(line)")
                }
                _ = AppReducer.reduce(&state, .keyPressed(.home))
                let c = render(state, rows: rows)
                let first = c.lines.firstIndex { $0.contains(lines[0]) }
                XCTAssertNotNil(first, "\(pane)'s keys come first")
                if rows == 60 { XCTAssertFalse(c.lines.contains { $0.contains("↑↓ PgUp PgDn") }, "no scrolling where it all fits") }
                if rows == 24 { XCTAssertTrue(c.lines.contains { $0.contains("1–18 of \(lines.count), ↑↓ PgUp PgDn") }) }
            }
        }
        XCTAssertTrue(OverlayViews.helpLines.contains { $0.contains(":q quit") })
        XCTAssertTrue(OverlayViews.helpLines.contains { $0.contains(":requests") })
        XCTAssertTrue(OverlayViews.helpLines.contains { $0.contains(":wipe!") })
        XCTAssertTrue(OverlayViews.helpLines.contains { $0.contains("t test relay") })
    }

    /// Issue 16 (8): the picker's grid keeps four columns per emoji, ❤️ (with its variation selector)
    /// included, and shows the search and a hint line.
    func testEmojiPickerGridDoesNotShiftAndShowsTheSearch() {
        var state = F.main()
        state.overlay = .emojiPicker(postID: "p1", selection: 0)
        var c = render(state)
        let y = try! XCTUnwrap(c.lines.firstIndex { $0.contains("👍") })
        let x0 = (80 - 36) / 2 + 3
        for (i, e) in AppReducer.emojiChoices.prefix(8).enumerated() {
            XCTAssertEqual(c[x0 + 4 * i, y].text, DisplayWidth.drawable(Character(e)), "column of \(e)")
        }
        XCTAssertNotNil(row(c, containing: "type to search (fire, :+1:)"))
        XCTAssertNotNil(row(c, containing: "arrows · Enter react · Esc close"))
        state.overlay = .emojiPicker(postID: "p1", selection: 0, query: "fi")
        c = render(state)
        XCTAssertNotNil(row(c, containing: "search: fi"))
        XCTAssertEqual(c[x0, y].text, "🔥")
        XCTAssertEqual(c[x0 + 4, y].text, "🎬")
    }

    func testEveryScreenSurvivesTinyAndHugeTerminals() {
        var states = [F.main(sessions: (0..<50).map { F.session("s\($0)", "Session \($0)", unread: $0 % 3 == 0, at: Int64(9_000 - $0)) })]
        var s = states[0]
        for key: Key in [.enter, .char("c"), .escape, .char("3"), .char("4"), .char("?")] {
            _ = AppReducer.reduce(&s, .keyPressed(key))
            states.append(s)
        }
        for state in states {
            for (w, h) in [(1, 1), (10, 3), (20, 5), (40, 12), (80, 24), (300, 100)] {
                let c = render(state, columns: w, rows: h)
                XCTAssertEqual(c.lines.count, max(h, 1))
                for y in 0..<c.height { XCTAssertLessThanOrEqual(DisplayWidth.of(c.row(y)), max(w, 1)) }
            }
        }
    }
}
