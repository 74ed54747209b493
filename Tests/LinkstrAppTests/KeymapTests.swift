import LinkstrApp
import LinkstrDomain
import XCTest

/// `keys.toml` (issue 14 item 4): key names, every mistake refused with its place, and what the
/// reducers see once a key is rebound; the help shows the keys in force.
final class KeymapTests: XCTestCase {
    typealias F = Fixture

    func testKeyNames() {
        XCTAssertEqual(Key(name: "u"), .char("u"))
        XCTAssertEqual(Key(name: "U"), .char("U"))
        XCTAssertEqual(Key(name: "/"), .char("/"))
        XCTAssertEqual(Key(name: "space"), .char(" "))
        XCTAssertEqual(Key(name: "Enter"), .enter)
        XCTAssertEqual(Key(name: "esc"), .escape)
        XCTAssertEqual(Key(name: "shift-tab"), .backTab)
        XCTAssertEqual(Key(name: "PgDn"), .pageDown)
        XCTAssertEqual(Key(name: "ctrl-f"), .ctrl("f"))
        XCTAssertEqual(Key(name: "C-f"), .ctrl("f"))
        XCTAssertEqual(Key(name: "^F"), .ctrl("f"))
        XCTAssertEqual(Key(name: "f5"), .function(5))
        XCTAssertEqual(Key(name: "é"), .char("é"))
        for bad in ["", "  ", "ctrl-", "ctrl-ab", "f13", "jk", "\u{1B}", "\t", "hyper-x"] { XCTAssertNil(Key(name: bad), bad) }
        XCTAssertEqual(Key.ctrl("f").name, "^F")
        XCTAssertEqual(Key.char(" ").name, "Space")
    }

    func testMistakesAreRefusedWithTheirPlace() {
        func refused(_ tables: [String: [String: [String]]], _ words: String, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try Keymap.make(tables), file: file, line: line) { error in
                XCTAssertTrue("\(error)".contains(words), "\(error)", file: file, line: line)
            }
        }
        refused(["panes": ["x": ["u"]]], "[panes] is not a context")
        refused(["feed": ["fly": ["u"]]], "[feed] fly is not an action there")
        refused(["feed": ["search": ["ctrl-"]]], "\"ctrl-\" is not a key")
        refused(["feed": ["search": []]], "needs at least one key")
        refused(["feed": ["search": ["n"]]], "n is bound to both [feed] search and [feed] next_match")
        refused(["global": ["next_unread": ["c"]]], "c is bound to both [global] next_unread and [feed] compose")
        refused(["list": ["new_session": ["j"]]], "j is bound to both [global] down and [list] new_session")
        // Two actions that never meet may share a key; and so may the defaults' own overlaps.
        XCTAssertNoThrow(try Keymap.make(["list": ["new_session": ["N"]], "feed": ["back": ["q", "b"]]]))
    }

    func testARebindingMovesTheActionAndTheHelpSaysSo() throws {
        let map = try Keymap.make(["global": ["next_unread": ["U"]], "feed": ["search": ["s", "/"]]])
        XCTAssertEqual(map.translate(.char("U"), in: .list), .char("u"))
        XCTAssertNil(map.translate(.char("u"), in: .list), "the old key is free")
        XCTAssertEqual(map.translate(.char("s"), in: .feed), .char("/"))
        XCTAssertEqual(map.translate(.char("/"), in: .feed), .char("/"))
        XCTAssertEqual(map.translate(.char("s"), in: .settings), .char("s"), "s is still stats in Settings")
        XCTAssertEqual(map.translate(.char("j"), in: .feed), .char("j"))

        var h = ReducerHarness(F.main(sessions: [F.session("s1", "Films", at: 2_000), F.session("s2", "Music", unreadCount: 2)]))
        h.state.keymap = map
        h.send(.keyPressed(.char("u")))
        h.send(.keyPressed(.char("U")), [.sessions(.loadFeed(sessionID: "s2", limit: 50))]) {
            var feed = SessionFeed(sessionID: "s2"); feed.summary = $0.sessions.rows[1]
            $0.sessions.open = feed
            $0.sessions.selection = 1
        }
        h.send(.keyPressed(.char("s")), [.search(.buildSearchIndex)]) { $0.sessions.open?.searchField = TextField() }

        let help = HelpText.lines(for: .sessions, keymap: map).joined(separator: "\n")
        XCTAssertTrue(help.contains("U next unread"), help)
        XCTAssertTrue(help.contains("s// search"), help)
        XCTAssertFalse(HelpText.lines(for: .sessions).joined().contains("U next unread"))
    }

    func testHelpScrollsWithinItsLengthAndKeepsOtherKeysWorking() {
        var h = ReducerHarness(F.main())
        let total = HelpText.lines(for: .sessions).count
        let furthest = HelpText.maxScroll(screenRows: 24, total: total)
        XCTAssertGreaterThan(furthest, 0, "the help is longer than 80×24 shows")
        h.send(.keyPressed(.char("?"))) { $0.overlay = .help }
        h.send(.keyPressed(.down)) { $0.helpScroll = 1 }
        h.send(.keyPressed(.pageDown)) { $0.helpScroll = min(furthest, 19) }
        h.send(.keyPressed(.end)) { $0.helpScroll = furthest }
        h.send(.keyPressed(.down))
        h.send(.keyPressed(.home)) { $0.helpScroll = 0 }
        h.send(.keyPressed(.up))
        // Another key does what it does, the help open over the new place.
        h.send(.keyPressed(.char("4")), [.settings(.loadMediaUsage)]) { $0.pane = .settings }
        h.send(.keyPressed(.escape)) { $0.overlay = nil }
    }
}
