import Foundation
import LinkstrTestSupport
import XCTest

/// Issue 14's acceptance in a real terminal, under every TERM the issue names (xterm, xterm-256color,
/// tmux-256color, and NO_COLOR) at 80×24 and at 200×60: in each, one person's app with a friend
/// posting through the CLI goes through every new flow: `:` completion and history, notifications
/// (bell, or off) with focus-aware suppression, the "N new" marker, mute, search, link hints opening a
/// URL in a stub browser, a keymap override (`U` for next unread, `u` free), mouse capture off, `$EDITOR`
/// compose (a scripted editor), a draft kept across Esc and a restart, and the hint bar never cut.
final class TerminalMatrixTests: XCTestCase {
    func testEveryFlowUnderEachTerminalAndSize() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let a = try Home.forApp("matrix-a", relay: relay.url), b = try Home("matrix-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        let (bNpub, _) = try b.createIdentity()
        let aNpub = try a.ok(["identity", "show"]).trimmed.split(separator: "\n").first.map(String.init) ?? ""
        try a.ok(["contacts", "add", bNpub, "--alias", "Bob"])
        let films = try b.ok(["session", "create", "Films", "--member", aNpub]).trimmed
        let books = try b.ok(["session", "create", "Books", "--member", aNpub]).trimmed
        _ = try a.sync()
        try "[global]\nnext_unread = \"U\"\n".write(to: a.directory.appendingPathComponent("config/keys.toml"), atomically: true, encoding: .utf8)
        let stubs = try StubTools("matrix")
        defer { stubs.remove() }
        let opened = try stubs.install("browser", script: "echo \"$1\" >> \"$OUT\"")
        try stubs.install("scripted-editor", script: "printf 'written in the editor\\n' > \"$1\"")
        let tmux = try Tmux()

        let terminals: [(String, [String: String])] = [("xterm", ["TERM": "xterm"]), ("x256", ["TERM": "xterm-256color"]),
                                                        ("tmux", ["TERM": "tmux-256color"]), ("nocolor", ["TERM": "xterm-256color", "NO_COLOR": "1"])]
        var round = 0
        for (termName, termEnv) in terminals {
            for (columns, rows) in [(80, 24), (200, 60)] {
                round += 1
                let name = "m\(round)-\(termName)-\(columns)"
                let bell = round % 2 == 1
                try a.writeConfig("link_previews = false\nnotify = \"\(bell ? "bell" : "off")\"\n")
                let environment = termEnv.merging(["PATH": stubs.path, "BROWSER": "browser", "VISUAL": "",
                                                   "EDITOR": stubs.directory.appendingPathComponent("scripted-editor").path]) { $1 }
                try a.startApp(tmux, name, relay: relay.url, environment: environment, columns: columns, rows: rows)
                var screen = try tmux.waitFor(name, text: "Books", timeout: 30)
                let raw = tmux.directory.appendingPathComponent("\(name).raw")
                _ = try tmux.tmux(["pipe-pane", "-t", name, "-o", "cat >> '\(raw.path)'"])
                func bells() -> Int { ((try? Data(contentsOf: raw)) ?? Data()).filter { $0 == 0x07 }.count }
                func hintBar(_ screen: String) -> String {
                    screen.screenLines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.trimmingCharacters(in: .whitespaces) ?? ""
                }
                // Whole items only: the last one complete, or "…" for the ones that did not fit. (A capture can
                // fall between two rows of one frame's output: the bar is read again until the frame is whole.)
                func assertWhole(_ screen: String, _ line: UInt = #line) {
                    let whole: (String) -> Bool = { s in
                        let bar = hintBar(s)
                        return ["? help", "q quit", "…", "Esc keep draft"].contains { bar.hasSuffix($0) } && bar.count <= columns
                    }
                    if whole(screen) { return }
                    do { try tmux.waitFor(name, "a whole hint bar", timeout: 5) { whole($0) } } catch {
                        XCTFail("\(name): hint bar cut: \(hintBar((try? tmux.screen(name)) ?? screen))", line: line)
                    }
                }
                assertWhole(screen)
                XCTAssertEqual(try tmux.tmux(["display-message", "-p", "-t", name, "#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}"])
                    .trimmingCharacters(in: .whitespacesAndNewlines), "000", "\(name): the mouse stays the terminal's")

                // `:` with Tab completion of the command and of the session's name.
                try tmux.keys(name, ":")
                try tmux.type(name, "ses")
                try tmux.keys(name, "Tab")
                try tmux.waitFor(name, text: ":session")
                try tmux.type(name, "Fi")
                try tmux.keys(name, "Tab")
                try tmux.waitFor(name, text: ":session Films")
                try tmux.keys(name, "Enter")
                screen = try tmux.waitFor(name, text: "‹ Films")
                assertWhole(screen)

                // Focused on Films: its news does not ring. Out of focus it does (notify = bell), or not (off).
                try tmux.tmux(["send-keys", "-t", name, "-l", "\u{1B}[I"])
                try b.ok(["post", films, "https://example.com/\(name)/one", "--note", "first of \(name)"])
                try tmux.waitFor(name, text: "\(name)/one", timeout: 30)
                XCTAssertEqual(bells(), 0, "\(name): nothing rings for the session on screen")
                try tmux.tmux(["send-keys", "-t", name, "-l", "\u{1B}[O"])
                try b.ok(["post", films, "https://example.com/\(name)/two", "--note", "second of \(name)"])
                try tmux.waitFor(name, text: "\(name)/two", timeout: 30)
                try tmux.waitFor(name, "the bell (or none)") { _ in bells() == (bell ? 1 : 0) }
                // Further down the feed, news arriving above says "↑ 1 new".
                try tmux.keys(name, "j")
                try b.ok(["post", films, "https://example.com/\(name)/three"])
                try tmux.waitFor(name, text: "↑ 1 new (g)", timeout: 30)
                // Muted: no bell even out of focus.
                try tmux.keys(name, "M")
                try tmux.waitFor(name, text: "muted Films")
                try b.ok(["post", films, "https://example.com/\(name)/four"])
                try tmux.waitFor(name, text: "↑ 2 new (g)", timeout: 30)
                XCTAssertEqual(bells(), bell ? 2 : 0, "\(name): the third post rang (bell), the muted fourth did not")
                try tmux.keys(name, "M")
                try tmux.waitFor(name, text: "unmuted Films")
                try tmux.tmux(["send-keys", "-t", name, "-l", "\u{1B}[I"])
                try tmux.keys(name, "g")

                // Search in the session: this round's four posts, newest first; n goes on.
                try tmux.keys(name, "/")
                try tmux.submit(name, "\(name)/")
                screen = try tmux.waitFor(name, text: "1/4")
                XCTAssertTrue(screen.contains("4 matches for"), screen)
                try tmux.keys(name, "n")
                try tmux.waitFor(name, text: "2/4")
                try tmux.keys(name, "Escape")
                try tmux.waitFor(name, text: "search cleared.")

                // Link hints: f, then label 1 opens the newest post's link (the first on screen) in the stub browser.
                try tmux.keys(name, "g")
                try tmux.keys(name, "f")
                screen = try tmux.waitFor(name, text: "open which link?")
                let labelled = try XCTUnwrap(screen.screenLines.first { $0.contains("1 [Link] https://example.com/\(name)/") }, screen)
                let url = String(labelled[labelled.range(of: "https://")!.lowerBound...].prefix { $0 != " " })
                try tmux.keys(name, "1")
                try waitFor("the browser to get \(url)") { ((try? String(contentsOf: opened, encoding: .utf8)) ?? "").contains(url + "\n") }

                // The command history: ↑ brings back the last command.
                try tmux.keys(name, ":")
                try tmux.keys(name, "Up")
                try tmux.waitFor(name, text: ":session Films")
                try tmux.keys(name, "Escape")

                // Next unread with the keymap's U (u is free now): Films read, news in Books.
                try tmux.keys(name, "r")
                try tmux.waitFor(name, text: "marked Films read.")
                try tmux.keys(name, "Escape")
                try b.ok(["post", books, "https://example.com/\(name)/book"])
                try tmux.waitFor(name, "the Sessions tab's dot", timeout: 30) { $0.screenLines.first?.contains("1 Sessions●") == true }
                try tmux.keys(name, "u")
                usleep(400_000)
                XCTAssertFalse(try tmux.screen(name).contains("‹ Books"), "\(name): u is unbound once next_unread is U")
                try tmux.keys(name, "U")
                screen = try tmux.waitFor(name, text: "\(name)/book")
                XCTAssertTrue(screen.contains("‹ Books"), screen)

                // $EDITOR writes the note; Esc keeps the draft; a restart brings it back.
                try tmux.keys(name, "c")
                try tmux.waitFor(name, text: "Share a link")
                try tmux.type(name, "example.com/\(name)/draft")
                try tmux.keys(name, "C-o")
                screen = try tmux.waitFor(name, text: "written in the editor")
                assertWhole(screen)
                try tmux.keys(name, "Escape")
                try tmux.waitFor(name, text: "draft kept")
                try tmux.keys(name, "C-c")
                try tmux.waitFor(name, "the app to quit") { !$0.contains("Books") }

                try a.startApp(tmux, name + "-again", relay: relay.url, environment: environment, columns: columns, rows: rows)
                try tmux.waitFor(name + "-again", text: "Books", timeout: 30)
                try tmux.keys(name + "-again", ":")
                try tmux.submit(name + "-again", "session Books")
                try tmux.waitFor(name + "-again", text: "‹ Books")
                try tmux.keys(name + "-again", "c")
                screen = try tmux.waitFor(name + "-again", text: "your draft is back")
                XCTAssertTrue(screen.contains("example.com/\(name)/draft") && screen.contains("written in the editor"), screen)
                // Sent, so the next round starts without it.
                try tmux.keys(name + "-again", "Enter")
                try tmux.waitFor(name + "-again", text: "sent.", timeout: 30)
                try tmux.keys(name + "-again", "C-c")
                try tmux.waitFor(name + "-again", "the app to quit") { !$0.contains("1 Sessions") }
            }
        }
        print("terminal matrix: 8 terminals (xterm, xterm-256color, tmux-256color, NO_COLOR × 80x24, 200x60), every issue 14 flow")
    }

    func waitFor(_ what: String, timeout: TimeInterval = 15, _ predicate: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if predicate() { return }
            usleep(100_000)
        }
        throw HarnessFailure(description: "timed out waiting for \(what)")
    }
}
