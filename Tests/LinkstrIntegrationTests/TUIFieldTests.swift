import Foundation
import LinkstrTUI
import LinkstrTestSupport
import XCTest

/// The terminal app where users meet it first: sizes other than 80×24, long pastes, wide graphemes.
final class TUIFieldTests: XCTestCase {
    /// A mistyped `--relay` stops the app with the words every command uses (before: dropped silently, the
    /// app ran with no relay at all).
    func testAnInvalidRelayOptionIsAnErrorBeforeTheScreenIsTaken() throws {
        let home = try Home.forApp("tui-bad-relay", relay: "ws://127.0.0.1:1")
        defer { home.remove() }
        let tmux = try Tmux()
        let command = "'\(home.binary.path)' --home '\(home.directory.path)' --relay https://relay.example.com; echo exit=$?; sleep 60"
        try tmux.start("v", ["sh", "-c", command], environment: ["LINKSTR_PASSPHRASE": Home.passphrase])
        // Issue 33 (10): invalid input exits 65.
        let screen = try tmux.waitFor("v", text: "exit=65")
        XCTAssertTrue(screen.contains("linkstr: enter a valid relay url (ws:// or wss://). (https://relay.example.com)"), screen)
        XCTAssertFalse(screen.contains("1 Sessions"))
    }

    /// Field readiness 5: logging out at 120×40 with the secret key revealed clears the whole screen and
    /// keeps the terminal's size (the unlock screen is laid out for 120×40 at once, not after a resize).
    func testLogoutAtALargeSizeLeavesNothingOfTheOldScreen() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("tui-logout", relay: relay.url)
        defer { home.remove() }
        let tmux = try Tmux()
        try home.startApp(tmux, "l", relay: relay.url, passphrase: "", columns: 120, rows: 40)
        var screen = try tmux.waitFor("l", text: "Unlock npub")
        XCTAssertEqual(screen.screenLines.firstIndex { $0.contains("Unlock npub") }, 40 / 2 - 2)
        try tmux.submit("l", "correct horse battery staple")
        try tmux.waitFor("l", text: "no sessions yet", timeout: 30)
        try tmux.keys("l", "4")
        try tmux.waitFor("l", text: "S show secret key")
        try tmux.keys("l", "S")
        try tmux.waitFor("l", text: "show your secret key")
        try tmux.keys("l", "y")
        screen = try tmux.waitFor("l", text: "hidden in")
        XCTAssertTrue(screen.contains("nsec1"))
        try tmux.keys("l", "L")
        try tmux.waitFor("l", text: "log out and keep local data?")
        try tmux.keys("l", "y")
        // Logged out, the welcome screen is drawn for 120×40 at once (its title centred on 120 columns).
        screen = try tmux.waitFor("l", text: "Welcome. linkstr needs a key", timeout: 20)
        XCTAssertFalse(screen.contains("nsec1"), "no key material left on screen:\n\(screen)")
        XCTAssertFalse(screen.contains(relay.url) || screen.contains("Settings"), "nothing of Settings left:\n\(screen)")
        let title = try XCTUnwrap(screen.screenLines.first { $0.trimmingCharacters(in: .whitespaces) == "linkstr" })
        XCTAssertEqual(title.prefix { $0 == " " }.count, (120 - 7) / 2, "laid out for 120 columns:\n\(screen)")
        XCTAssertEqual(screen.screenLines.firstIndex(of: title), 40 / 2 - 6, "and for 40 rows")
        try tmux.keys("l", "q")
    }

    /// Field readiness 14: an empty database file is shown on the recovery screen and left untouched; a
    /// wrong LINKSTR_PASSPHRASE says so on the unlock screen; with LINKSTR_PASSPHRASE set, onboarding does
    /// not ask to choose a passphrase.
    func testStartupEdgeCases() throws {
        let home = try Home("tui-startup", relays: ["ws://127.0.0.1:9"])
        defer { home.remove() }
        _ = try home.createIdentity()
        try home.writeConfig("link_previews = false\n")
        let database = home.directory.appendingPathComponent("linkstr.sqlite3")
        let tmux = try Tmux()

        // Wrong passphrase in the environment: the unlock screen says what happened.
        try home.startApp(tmux, "w", relay: nil, passphrase: "not it")
        try tmux.waitFor("w", text: "Unlock npub")
        try tmux.waitFor("w", text: "did not unlock")
        try tmux.keys("w", "Escape")
        try tmux.waitFor("w", "the app to quit") { !$0.contains("Unlock npub") }

        // A zero-byte database: the recovery screen, and the file is not overwritten.
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        XCTAssertTrue(FileManager.default.createFile(atPath: database.path, contents: Data()))
        try home.startApp(tmux, "z", relay: nil)
        let screen = try tmux.waitFor("z", text: "The local database could not be opened")
        XCTAssertTrue(screen.contains("empty"), screen)
        try tmux.keys("z", "q")
        try tmux.waitFor("z", "the app to quit") { !$0.contains("could not be opened") }
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: database.path)[.size] as? Int, 0, "left as it was")

        // A new home with the passphrase in the environment: create an account without choosing one.
        let fresh = try Home("tui-envpass", relays: ["ws://127.0.0.1:9"])
        defer { fresh.remove() }
        try fresh.writeConfig("link_previews = false\n")
        try fresh.startApp(tmux, "n", relay: nil, passphrase: "from the environment")
        try tmux.waitFor("n", text: "Create a new account")
        try tmux.keys("n", "c")
        try tmux.waitFor("n", text: "A profile name")
        try tmux.submit("n", "Env")
        let ready = try tmux.waitFor("n", "the account to be ready", timeout: 30) { $0.contains("Your account is ready") || $0.contains("Choose a passphrase") }
        XCTAssertFalse(ready.contains("Choose a passphrase"), ready)
        try tmux.keys("n", "Enter")
        try tmux.keys("n", "C-c")
        // The key was stored under the environment's passphrase.
        let unlocked = try ProcessRunner.run(fresh.binary, ["--home", fresh.directory.path, "identity", "show", "--json"],
                                            environment: ProcessInfo.processInfo.environment.merging(["LINKSTR_PASSPHRASE": "from the environment"]) { $1 })
        XCTAssertEqual(unlocked.status, 0, unlocked.stderrText)
    }

    /// Field readiness 8: a megabyte pasted into the composer's note is taken in whole, the field keeps
    /// answering keys (the cursor's end of the text is drawn), and Ctrl-C still quits.
    func testAMegabytePastedIntoAFieldStaysResponsive() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("tui-paste", relay: relay.url)
        defer { home.remove() }
        try home.ok(["session", "create", "Pasting"])
        let paste = home.directory.appendingPathComponent("paste.txt")
        try (String(repeating: "abcdefghij", count: 100_000) + "THE-END").write(to: paste, atomically: true, encoding: .utf8)
        let tmux = try Tmux()
        try home.startApp(tmux, "m", relay: relay.url)
        try tmux.waitFor("m", text: "Pasting", timeout: 30)
        try tmux.keys("m", "Enter")
        try tmux.waitFor("m", text: "‹")
        try tmux.keys("m", "c")
        try tmux.waitFor("m", text: "Share a link")
        try tmux.keys("m", "Tab")
        try tmux.pasteFile("m", paste)
        try tmux.waitFor("m", text: "THE-END", timeout: 30)
        try tmux.type("m", "Z")
        try tmux.waitFor("m", text: "THE-ENDZ", timeout: 15)
        try tmux.keys("m", "Home")
        try tmux.waitFor("m", "the start of the note") { $0.contains("abcdefghijabcdefghij") && !$0.contains("THE-ENDZ") }
        try tmux.keys("m", "End")
        try tmux.keys("m", "BSpace")
        try tmux.waitFor("m", "the last character gone") { $0.contains("THE-END") && !$0.contains("THE-ENDZ") }
        // Quitting with text in the composer asks first, and keeps the megabyte as the draft.
        try tmux.keys("m", "C-c")
        try tmux.waitFor("m", text: "kept as this session's draft")
        try tmux.keys("m", "y")
        try tmux.waitFor("m", "the app to quit") { !$0.contains("THE-END") && !$0.contains("Pasting") }
    }

    /// Field readiness 9: a note of 200 ZWJ family emoji is drawn as 200 wide glyphs in a real terminal,
    /// with nothing of the previous screen left between them and no stray ZWJ elsewhere.
    func testZWJSequencesAreDrawnWholeInARealTerminal() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("tui-zwj", relay: relay.url)
        defer { home.remove() }
        let session = try home.ok(["session", "create", "Families"]).trimmed
        try home.ok(["post", session, "https://example.com/family", "--note", String(repeating: "👨‍👩‍👧", count: 200)])
        let tmux = try Tmux()
        try home.startApp(tmux, "e", relay: relay.url)
        try tmux.waitFor("e", text: "Families", timeout: 30)
        try tmux.keys("e", "Enter")
        try tmux.waitFor("e", text: "example.com/family")
        try tmux.keys("e", "Enter")
        let screen = try tmux.waitFor("e", text: "e more")
        let noteRows = screen.screenLines.filter { $0.contains("👨") }
        XCTAssertFalse(noteRows.isEmpty, screen)
        for row in noteRows {
            let glyphs = row.trimmingCharacters(in: .whitespaces).filter { $0 != "▌" && $0 != " " && $0 != "…" }
            XCTAssertTrue(glyphs.allSatisfy { $0 == "👨" }, "only the families' base glyphs on a note row: \(row)")
        }
        XCTAssertGreaterThanOrEqual(noteRows.joined().filter { $0 == "👨" }.count, 30, screen)
        XCTAssertFalse(screen.unicodeScalars.contains("\u{200D}"), "no ZWJ reaches the terminal")
        try tmux.keys("e", "C-c")
    }

    /// Field readiness 7: what reaches the terminal under other TERMs. With 8 colours (xterm) the hint bar
    /// is the default colour dimmed, never black; with xterm-256color no palette slot is redefined (the
    /// nearest of the 256 is used); with NO_COLOR no colour at all.
    func testColoursUnderOtherTerminals() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("tui-colours", relay: relay.url)
        defer { home.remove() }
        try home.ok(["session", "create", "Colours"])
        let theme = try Theme.load("night", configDirectory: nil)
        let tmux = try Tmux()
        var base = [String: String]()
        func start(_ window: String, _ environment: [String: String]) throws -> String {
            try home.startApp(tmux, window, relay: relay.url, environment: base.merging(environment) { $1 })
            try tmux.waitFor(window, text: "Enter open", timeout: 30)
            try tmux.waitFor(window, text: "1 / 1", timeout: 30)
            let screen = try tmux.screen(window, escapes: true)
            try tmux.keys(window, "C-c")
            // The next start takes the data directory's lock: this app lets it go as it exits.
            try home.waitUntilUnlocked()
            return screen
        }
        let xterm = try start("x", ["TERM": "xterm"])
        let hint = foregroundSGR(of: "E", onLineContaining: "Enter open", in: xterm)
        XCTAssertNotNil(hint)
        XCTAssertNotEqual(hint, "30", "the hint bar is not black")
        XCTAssertEqual(hint, "default", "the terminal's own colour, dimmed")
        XCTAssertTrue(xterm.contains("\u{1B}[2m") || xterm.contains(";2m") || xterm.contains("[2;"), "dimmed")

        let xterm256 = try start("y", ["TERM": "xterm-256color"])
        XCTAssertEqual(foregroundSGR(of: "●", onLineContaining: "1 / 1", in: xterm256), "38;5;\(ColorMapper.nearest256(theme.foreground[.dotConnected]!))",
                       "the nearest of the terminal's 256 colours, no redefined palette slot")

        base["NO_COLOR"] = "1"
        let plain = try start("z", ["TERM": "xterm-256color"])
        XCTAssertFalse(plain.contains("38;5;") || plain.contains("48;5;"), "NO_COLOR: no colours")
    }

    /// Issue 15: `linkstr open linkstr://open?url=…` (what the desktop entry runs) opens the app on the
    /// link once the account is open; Enter shares it into the selected session; Settings shows the version.
    func testOpeningADeepLinkShowsItAndSharesItIntoASession() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("tui-open", relay: relay.url)
        defer { home.remove() }
        try home.ok(["session", "create", "Inbox"])
        let tmux = try Tmux()
        // A `share` link (wire-2026 §5) brings a note; scripts read both with --json.
        let share = "linkstr://share?url=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3DdQw4w9WgXcQ&note=%20friday%20pick%3F%20"
        let printed = try home.ok(["open", share, "--json"]).json() as? [String: Any] ?? [:]
        XCTAssertEqual(printed["action"] as? String, "share")
        XCTAssertEqual(printed["note"] as? String, "friday pick?")
        XCTAssertEqual(try home.run(["open", "linkstr://open?p=eyJ1cmwiOiJodHRwczovL2EuYiJ9"]).err, "linkstr: that is not a linkstr link or a web address.\n",
                       "the old base64 form is refused")
        try home.startApp(tmux, "o", relay: relay.url, arguments: ["open", share])
        var screen = try tmux.waitFor("o", text: "Shared link", timeout: 30)
        XCTAssertTrue(screen.contains("https://www.youtube.com/watch?v=dQw4w9WgXcQ"), screen)
        XCTAssertTrue(screen.contains("“friday pick?”"), screen)
        try tmux.waitFor("o", text: "Inbox")
        try tmux.keys("o", "Enter")
        screen = try tmux.waitFor("o", text: "Share a link")
        XCTAssertTrue(screen.contains("youtube.com/watch?v=dQw4w9WgXcQ"), "the link is filled in:\n\(screen)")
        XCTAssertTrue(screen.contains("friday pick?"), "and the note:\n\(screen)")
        try tmux.keys("o", "Escape")
        try tmux.keys("o", "4")
        try tmux.waitFor("o", text: "linkstr 0.3.0 (commit")
        try tmux.keys("o", "C-c")
    }

    /// Issue 16 (1): one app per data directory. A second app says which process holds it and leaves;
    /// a writing command waits briefly, then refuses with the same words; reading commands still work.
    func testOneAppPerDataDirectory() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("tui-lock", relay: relay.url)
        defer { home.remove() }
        let session = try home.ok(["session", "create", "Locked"]).trimmed
        let tmux = try Tmux()
        try home.startApp(tmux, "first", relay: relay.url)
        try tmux.waitFor("first", text: "Locked", timeout: 30)
        try home.startApp(tmux, "second", relay: relay.url)
        let refused = try tmux.waitFor("second", text: "linkstr: another linkstr (pid")
        XCTAssertTrue(refused.replacingOccurrences(of: "\n", with: "").contains("is using \(home.directory.path)"), refused)
        let post = try home.run(["post", session, "https://example.com/x"])
        XCTAssertEqual(post.status, 69)
        XCTAssertTrue(post.err.hasPrefix("linkstr: another linkstr (pid ") && post.err.contains("quit it first."), post.err)
        XCTAssertEqual(try home.posts(session).count, 0, "reading works beside the app")
        XCTAssertTrue(try home.run(["wipe", "--yes"]).err.contains("another linkstr (pid "), "no wipe under a running app")
        try tmux.keys("first", "C-c")
        try tmux.waitFor("first", "the app to quit") { !$0.contains("Locked") }
        try home.ok(["post", session, "https://example.com/x"])
    }

    /// Issue 18 (1): `:wipe!` in the app asks once, erases everything here and leaves a clean screen.
    func testWipeFromTheApp() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("tui-wipe", relay: relay.url)
        defer { home.remove() }
        try home.ok(["session", "create", "Gone soon"])
        let tmux = try Tmux()
        try home.startApp(tmux, "w", relay: relay.url)
        try tmux.waitFor("w", text: "Gone soon", timeout: 30)
        try tmux.type("w", ":wipe!")
        try tmux.keys("w", "Enter")
        try tmux.waitFor("w", text: "erase every identity")
        try tmux.keys("w", "y")
        let screen = try tmux.waitFor("w", "the app to leave") { !$0.contains("Gone soon") && !$0.contains("erase every identity") }
        XCTAssertFalse(screen.contains("npub") || screen.contains("Sessions"), screen)
        let deadline = Date().addingTimeInterval(10)
        while FileManager.default.fileExists(atPath: home.directory.path), Date() < deadline { usleep(100_000) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.directory.appendingPathComponent("identities").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.directory.appendingPathComponent("linkstr.sqlite3").path))
    }

    /// Issue 16 (2): Settings → s shows live relay figures (the pool counts without telling; the app
    /// asks once a second while they are shown).
    func testRelayStatsAreLive() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("tui-stats", relay: relay.url)
        defer { home.remove() }
        try home.ok(["session", "create", "Counted"])
        let tmux = try Tmux()
        try home.startApp(tmux, "s", relay: relay.url)
        try tmux.waitFor("s", text: "Counted", timeout: 30)
        try tmux.keys("s", "4")
        try tmux.waitFor("s", text: "1 / 1 connected")
        try tmux.keys("s", "s")
        try tmux.waitFor("s", "received figures") { $0.range(of: #"sent \d+ · received [1-9]\d*"#, options: .regularExpression) != nil }
        try tmux.keys("s", "C-c")
    }
}
