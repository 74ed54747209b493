import Foundation
import LinkstrTestSupport
import XCTest

/// Search that keeps the secret, and links as links (issue 14 items 6 and 7), through the CLI and in a
/// real terminal: `/` in a feed with n/N, `:search` across sessions, link hints opening a URL in a stub
/// browser, and OSC 8 hyperlinks in the raw output when asked for.
final class SearchAndLinksTests: XCTestCase {
    func testSearchFromTheCommandLine() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let a = try Home("search-cli-a", relays: [relay.url]), b = try Home("search-cli-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        let (aNpub, _) = try a.createIdentity()
        let (bNpub, _) = try b.createIdentity()
        try a.ok(["contacts", "add", bNpub])
        try b.ok(["contacts", "add", aNpub])
        let films = try b.ok(["session", "create", "Films", "--member", aNpub]).trimmed
        let books = try b.ok(["session", "create", "Books", "--member", aNpub]).trimmed
        try b.ok(["post", films, "https://example.com/altman", "--note", "The Long Goodbye is a QUOKKA of a film"])
        try b.ok(["post", books, "https://quokka.example/book"])
        try b.ok(["post", books, "https://example.com/other", "--note", "nothing to see"])
        _ = try a.sync()

        // Received posts are found by note and by URL, any case, across sessions (newest first; these two
        // may share a second, when the order is the ids').
        let all = try XCTUnwrap(try a.ok(["search", "quokka", "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(Set(all.compactMap { $0["url"] as? String }), ["https://quokka.example/book", "https://example.com/altman"])
        XCTAssertEqual(Set(all.compactMap { $0["session_id"] as? String }), [books, films])
        let times = all.compactMap { $0["created_at"] as? Int }
        XCTAssertEqual(times, times.sorted(by: >), "newest first")
        let one = try XCTUnwrap(try a.ok(["search", "Quokka", "of", "a", "--session", films, "--json"]).json() as? [[String: Any]])
        XCTAssertEqual(one.map { $0["note"] as? String }, ["The Long Goodbye is a QUOKKA of a film"])
        let text = try a.ok(["search", "goodbye"]).out
        XCTAssertTrue(text.contains("“The Long Goodbye is a QUOKKA of a film”"), text)
        // Nothing matching is exit 1 with a word on stderr, like grep; a wrong session is an error.
        let none = try a.run(["search", "marmot"])
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.err, "linkstr: no post matches.\n")
        let limited = try a.run(["search", "example", "--limit", "1"])
        XCTAssertEqual(limited.status, 0)
        XCTAssertTrue(limited.err.contains("3 posts match; showing 1"), limited.err)
        XCTAssertEqual(try a.run(["search", "x", "--session", "nope"]).status, 66)
        print("search (CLI): notes and URLs, any case, across sessions and in one, exit 1 on no match")
    }

    func testSearchHintsAndHyperlinksInATerminal() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("search-tui", relay: relay.url)
        defer { home.remove() }
        let films = try home.ok(["session", "create", "Films"]).trimmed
        let books = try home.ok(["session", "create", "Books"]).trimmed
        try home.ok(["post", films, "https://example.com/one", "--note", "a quokka at dawn"])
        try home.ok(["post", films, "https://example.com/two", "--note", "plain"])
        try home.ok(["post", films, "https://example.com/three", "--note", "another Quokka"])
        try home.ok(["post", books, "https://example.com/marmot-book", "--note", "about marmots"])
        try home.writeConfig("link_previews = false\nhyperlinks = \"on\"\n")
        let stubs = try StubTools("search-tui")
        defer { stubs.remove() }
        let opened = try stubs.install("browser", script: "echo \"$1\" >> \"$OUT\"")

        for (name, environment, columns, rows) in [("srch-xterm", ["TERM": "xterm"], 80, 24),
                                                   ("srch-large", ["TERM": "tmux-256color", "NO_COLOR": "1"], 200, 60)] {
            if FileManager.default.fileExists(atPath: opened.path) { try FileManager.default.removeItem(at: opened) }
            let tmux = try Tmux()
            let raw = tmux.directory.appendingPathComponent("raw-\(name).out")
            try home.startApp(tmux, name, relay: relay.url, environment: environment.merging(["BROWSER": "browser", "PATH": stubs.path]) { $1 },
                              columns: columns, rows: rows)
            try tmux.waitFor(name, text: "Books", timeout: 30)
            _ = try tmux.tmux(["pipe-pane", "-t", name, "-o", "cat >> '\(raw.path)'"])
            // Opened by name (both sessions' news may share a second, so the list's order is the ids').
            try tmux.keys(name, ":")
            try tmux.submit(name, "session Films")
            try tmux.waitFor(name, text: "a quokka at dawn")
            // `/` in the feed: the newest match first, then n to the next, round.
            try tmux.keys(name, "/")
            try tmux.submit(name, "quokka")
            // Each wait is for the whole frame: a capture can fall between two rows of one frame.
            try tmux.waitFor(name, "1/2 with the newest match selected") { screen in
                screen.contains("1/2") && screen.contains("2 matches for \"quokka\"")
                    && screen.screenLines.contains { $0.contains("▎") && $0.contains("another Quokka") }
            }
            try tmux.keys(name, "n")
            try tmux.waitFor(name, "2/2 with the older match selected") { screen in
                screen.contains("2/2") && screen.screenLines.contains { $0.contains("▎") && $0.contains("a quokka at dawn") }
            }
            try tmux.keys(name, "Escape")
            try tmux.waitFor(name, text: "search cleared.")

            // Link hints: f, then the label of the third post (the oldest: example.com/one) opens it.
            try tmux.keys(name, "f")
            try tmux.waitFor(name, "the link hints") { screen in
                screen.contains("open which link?") && screen.screenLines.contains { $0.contains("1 [Link] https://example.com/three") }
            }
            try tmux.keys(name, "3")
            try waitForFile(opened, containing: "https://example.com/one")

            // :search across sessions: the results list, Enter opens the other session at the hit.
            try tmux.keys(name, ":")
            try tmux.submit(name, "search MARMOT")
            try tmux.waitFor(name, "the results list") { $0.contains("Search · MARMOT · 1") && $0.contains("▌ about marmots") }
            try tmux.keys(name, "Enter")
            try tmux.waitFor(name, "the hit's session") { $0.contains("‹ Books") && $0.contains("/MARMOT  1/1") }

            // The raw output carried the feed's links as OSC 8 hyperlinks.
            let bytes = try waitForFile(raw, containing: "\u{1B}]8;;https://example.com/marmot-book\u{1B}\\")
            XCTAssertTrue(bytes.contains("\u{1B}]8;;https://example.com/three\u{1B}\\"))
            XCTAssertTrue(bytes.contains("\u{1B}]8;;\u{1B}\\"), "each link is closed")
            try tmux.keys(name, "C-c")
        }
        // Without the setting, tmux gets no hyperlinks ("auto" is off inside tmux).
        try home.writeConfig("link_previews = false\n")
        let tmux = try Tmux()
        let raw = tmux.directory.appendingPathComponent("raw-plain.out")
        try home.startApp(tmux, "srch-plain", relay: relay.url)
        try tmux.waitFor("srch-plain", text: "Books", timeout: 30)
        _ = try tmux.tmux(["pipe-pane", "-t", "srch-plain", "-o", "cat >> '\(raw.path)'"])
        try tmux.keys("srch-plain", ":")
        try tmux.submit("srch-plain", "session Books")
        try tmux.waitFor("srch-plain", text: "about marmots")
        // The pipe's copy lags the screen (CI failed once reading it at once): waited for, like the one above.
        var plain = try waitForFile(raw, containing: "marmot-book")
        try tmux.keys("srch-plain", "C-c")
        try tmux.waitFor("srch-plain", "the app to exit") { !$0.contains("1 Sessions") }
        plain = (try? String(contentsOf: raw, encoding: .utf8)) ?? plain
        XCTAssertFalse(plain.contains("\u{1B}]8;"), "no OSC 8 unless asked for")
        print("search (TUI): / with n/N, :search results, f-hints open a link, OSC 8 on request, at 80x24 xterm and 200x60 NO_COLOR")
    }

    @discardableResult
    func waitForFile(_ url: URL, containing text: String, timeout: TimeInterval = 15) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            if last.contains(text) { return last }
            usleep(100_000)
        }
        throw HarnessFailure(description: "\(url.lastPathComponent) never held \(text.debugDescription); it held \(last.suffix(300).debugDescription)")
    }
}
