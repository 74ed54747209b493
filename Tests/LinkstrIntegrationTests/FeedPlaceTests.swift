import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// A long feed (600 posts) in tmux: PgDn moves one screen of posts (it moved 5 while 16 showed), PgUp
/// comes back to the same screen; and after a restart that reopens post #450, Esc goes to the feed at
/// that post, not to the top.
final class FeedPlaceTests: XCTestCase {
    /// The posts on screen, by their number in the note ("post N words …"), top to bottom.
    static func shown(_ screen: String) -> [Int] {
        screen.split(separator: "\n").compactMap { line in
            guard let r = line.range(of: "▌ post ") else { return nil }
            return Int(line[r.upperBound...].prefix { $0.isNumber })
        }
    }

    func testPageDownMovesAScreenAndEscReturnsToTheReopenedPost() async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("feedplace", relay: relay.url)
        defer { home.remove() }
        let me = try PublicKey(hex: try XCTUnwrap(home.ok(["identity", "show", "--json"]).json() as? [String: String])["pubkey"] ?? "")
        try await SeededSender().seed(relay.url, to: me, posts: 0..<600)
        try home.ok(["sync", "--json"])
        try home.acceptRequests()

        for (i, (term, columns, rows)) in [("xterm-256color", 80, 24), ("tmux-256color", 120, 36)].enumerated() {
            let tmux = try Tmux()
            let w = "f\(i)"
            try home.writeConfig("link_previews = false\nreopen = false\n")
            try home.startApp(tmux, w, relay: relay.url, environment: ["TERM": term], columns: columns, rows: rows)
            try tmux.waitFor(w, text: "Filling up", timeout: 30)
            try tmux.keys(w, "Enter")
            let first = Self.shown(try tmux.waitFor(w, text: "post 599 words"))
            XCTAssertGreaterThan(first.count, 5, "a screen of posts: \(first)")
            try tmux.keys(w, "PageDown")
            let second = Self.shown(try tmux.waitFor(w, "the next screen") { !Self.shown($0).contains(599) })
            XCTAssertEqual(second.first, first.last.map { $0 - 1 }, "the next screen starts after the last post shown: \(first) then \(second)")
            XCTAssertTrue(Set(first).isDisjoint(with: second), "a whole screen further: \(first) then \(second)")
            XCTAssertGreaterThanOrEqual(second.count, first.count - 1)
            try tmux.keys(w, "PageDown")
            let third = Self.shown(try tmux.waitFor(w, "the third screen") { Self.shown($0).first != second.first })
            XCTAssertEqual(third.first, second.last.map { $0 - 1 }, "\(second) then \(third)")
            try tmux.keys(w, "PageUp")
            let back = Self.shown(try tmux.waitFor(w, "the second screen again") { Self.shown($0).first == second.first })
            XCTAssertEqual(back, second)
            try tmux.keys(w, "C-c")
            _ = try? tmux.waitFor(w, "the app to quit") { !$0.contains("Sessions") }
        }

        // Post #450 of 600 (post 150) opened, the app quit and started again: the post reopens, and Esc
        // goes to the feed at that post.
        let tmux = try Tmux()
        try home.startApp(tmux, "r", relay: relay.url)
        try tmux.waitFor("r", text: "Filling up", timeout: 30)
        try tmux.keys("r", "Enter")
        try tmux.waitFor("r", text: "post 599 words")
        try tmux.keys("r", "G")
        try tmux.waitFor("r", "the oldest post", timeout: 20) { Self.shown($0).contains(0) }
        try tmux.tmux(["send-keys", "-t", "r"] + Array(repeating: "k", count: 150))
        try tmux.waitFor("r", "post 150 on screen") { Self.shown($0).last == 150 }
        try tmux.keys("r", "Enter")
        try tmux.waitFor("r", "the detail of post 150") { $0.contains("e more") && $0.contains("▌ post 150 words") }
        try tmux.keys("r", "C-c")
        _ = try? tmux.waitFor("r", "the app to quit") { !$0.contains("Sessions") }
        try home.writeConfig("link_previews = false\n")
        try home.startApp(tmux, "r2", relay: relay.url)
        try tmux.waitFor("r2", "the detail of post 150 again", timeout: 30) { $0.contains("e more") && $0.contains("▌ post 150 words") }
        try tmux.keys("r2", "Escape")
        let feed = try tmux.waitFor("r2", "the feed at post 150", timeout: 20) { !$0.contains("e more") && Self.shown($0).contains(150) }
        let selected = feed.split(separator: "\n").filter { $0.contains("▎") }
        XCTAssertTrue(selected.contains { $0.contains("post 150 words") }, "post 150 is the selected one: \(feed)")
        XCTAssertFalse(Self.shown(feed).contains(599), "not the top of the feed: \(feed)")
        try tmux.keys("r2", "C-c")
    }
}
