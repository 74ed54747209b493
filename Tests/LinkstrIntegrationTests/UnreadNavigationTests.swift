import Foundation
import LinkstrTestSupport
import XCTest

/// Unread you can navigate (issue 14, item 1), in a real terminal: the tab's dot from every pane, the
/// count on each row, `u` to the next session with unread posts (round to the first), `:unread`, and
/// the archive toggle saying an archived session has new posts; under several TERMs and sizes.
final class UnreadNavigationTests: XCTestCase {
    func testNextUnreadAcrossSessionsUnderSeveralTerminals() throws {
        let relay = try TestRelay()
        let a = try Home("unread-a", relays: [relay.url]), b = try Home("unread-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        let (aNpub, _) = try a.createIdentity()
        let (bNpub, _) = try b.createIdentity()
        try a.ok(["contacts", "add", bNpub, "--alias", "Bob"])
        try b.ok(["contacts", "add", aNpub, "--alias", "Ann"])
        let films = try b.ok(["session", "create", "Films", "--member", aNpub]).trimmed
        let books = try b.ok(["session", "create", "Books", "--member", aNpub]).trimmed
        let old = try b.ok(["session", "create", "Old stuff", "--member", aNpub]).trimmed
        // The first sync restores history, which counts as read; what comes after is news.
        _ = try a.sync()
        for i in 0..<3 { try b.ok(["post", films, "https://example.com/film\(i)"]) }
        try b.ok(["post", books, "https://example.com/book"])
        try b.ok(["post", old, "https://example.com/old"])
        _ = try a.sync()
        try a.ok(["session", "archive", old])
        // Each start at the list (the app would reopen the last feed, issue 33 item 16).
        try a.writeConfig("link_previews = false\nreopen = false\n")

        for (name, environment, columns, rows) in [("unr-xterm", ["TERM": "xterm"], 80, 24),
                                                   ("unr-large", ["TERM": "tmux-256color", "NO_COLOR": "1"], 200, 60)] {
            let tmux = try Tmux()
            try a.startApp(tmux, name, relay: relay.url, environment: environment, columns: columns, rows: rows)
            var screen = try tmux.waitFor(name, text: "Books", timeout: 30)
            XCTAssertTrue(screen.contains("(A: archived, 1 with new posts)"), screen)
            XCTAssertTrue(screen.screenLines.contains { $0.contains(" 3 ●") }, "Films: 3 unread\n\(screen)")
            // From Settings: the tab's dot, then u opens the newest unread session's feed.
            try tmux.keys(name, "4")
            screen = try tmux.waitFor(name, text: "Relays")
            XCTAssertTrue(screen.screenLines[0].contains("1 Sessions●"), screen.screenLines[0])
            // Both sessions' news may share a second, so either comes first; then the other; then round.
            try tmux.keys(name, "u")
            screen = try tmux.waitFor(name, "an unread session's feed") { $0.contains("example.com/book") || $0.contains("example.com/film2") }
            let first = screen.contains("example.com/book") ? "example.com/book" : "example.com/film2"
            let second = first == "example.com/book" ? "example.com/film2" : "example.com/book"
            try tmux.keys(name, "u")
            screen = try tmux.waitFor(name, text: second)
            // Round again, by command.
            try tmux.keys(name, ":")
            try tmux.submit(name, "unread")
            try tmux.waitFor(name, text: first)
            try tmux.keys(name, "C-c")
        }
        // Reading them all leaves nothing to go to.
        try a.ok(["read", films])
        try a.ok(["read", books])
        let tmux = try Tmux()
        try a.startApp(tmux, "unr-read", relay: relay.url)
        try tmux.waitFor("unr-read", text: "Books", timeout: 30)
        try tmux.keys("unr-read", "u")
        let screen = try tmux.waitFor("unr-read", text: "nothing unread.")
        XCTAssertFalse(screen.screenLines[0].contains("1 Sessions●"), "no tab dot: \(screen.screenLines[0])")
    }
}
