import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 33, where a new user meets it in the app (tmux, two TERM values): a first session from a
/// stranger (2), `u` on the only unread session (3), the oldest post of a long feed (4), the relay
/// editor (6), a long note (1) and ❤️ in a box (12).
final class FirstHourTests: XCTestCase {
    static let terms = ["xterm-256color", "tmux-256color"]

    /// A device that synced a stranger's session of `posts` posts (a request until accepted).
    private func synced(posts: Int) async throws -> (TestRelay, SeededSender, Home, PublicKey) {
        let relay = try TestRelay()
        let home = try Home.forApp("firsthour", relay: relay.url)
        let me = try PublicKey(hex: try XCTUnwrap(home.ok(["identity", "show", "--json"]).json() as? [String: String])["pubkey"] ?? "")
        let friend = SeededSender()
        try await friend.seed(relay.url, to: me, posts: 0..<posts)
        try home.ok(["sync", "--json"])
        return (relay, friend, home, me)
    }

    func testAFirstRequestIsExplainedAndUOpensTheOnlyUnreadSession() async throws {
        let (relay, friend, home, me) = try await synced(posts: 3)
        defer { relay.stop(); home.remove() }
        for (round, term) in Self.terms.enumerated() {
            let tmux = try Tmux()
            try home.startApp(tmux, "f", relay: relay.url, environment: ["TERM": term])
            if round == 0 {
                let empty = try tmux.waitFor("f", text: "1 session request waits: from", timeout: 30)
                XCTAssertTrue(empty.contains("press R to see it"), empty)
                XCTAssertFalse(empty.contains("no sessions yet. press n"), empty)
                try tmux.keys("f", "R")
                try tmux.waitFor("f", text: "Filling up")
                try tmux.keys("f", "y")
                try tmux.keys("f", "R")
                try tmux.waitFor("f", "the active list") { $0.contains("Filling up") && !$0.contains("request waits") }
            } else {
                // The app reopens where it was (item 16): in the feed; back to the list first.
                try tmux.waitFor("f", text: "Filling up", timeout: 30)
                try tmux.keys("f", "h")
                try tmux.waitFor("f", "the session list") { $0.contains("1 Sessions") && !$0.contains("‹ Filling up") }
            }
            // News arrives; the only unread session is the selected row: `u` opens it.
            try await friend.seed(relay.url, to: me, posts: (100 + round * 10)..<(102 + round * 10))
            try tmux.waitFor("f", "two unread on the row", timeout: 30) { screen in
                screen.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasSuffix("2 ●") }
            }
            try tmux.keys("f", "u")
            let feed = try tmux.waitFor("f", text: "example.com/\(101 + round * 10)", timeout: 15)
            XCTAssertFalse(feed.contains("nothing else unread"), feed)
            try tmux.keys("f", "C-c")
            _ = try? tmux.waitFor("f", "the app to quit") { !$0.contains("Sessions") }
        }
    }

    func testGGoesToTheOldestPostOfALongFeedAndTheFeedSaysThereIsMore() async throws {
        let (relay, _, home, _) = try await synced(posts: 600)
        defer { relay.stop(); home.remove() }
        try home.acceptRequests()
        for term in Self.terms {
            let tmux = try Tmux()
            try home.startApp(tmux, "g", relay: relay.url, environment: ["TERM": term], rows: 40)
            try tmux.waitFor("g", text: "Filling up", timeout: 30)
            // A second start reopens the feed where it was (item 16): from the list each time.
            try tmux.keys("g", "h")
            try tmux.waitFor("g", "the session list") { !$0.contains("‹ Filling up") }
            try tmux.keys("g", "Enter")
            try tmux.waitFor("g", text: "example.com/599")
            try tmux.keys("g", "G")
            let oldest = try tmux.waitFor("g", "the oldest post", timeout: 20) { screen in
                screen.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasSuffix("example.com/0") }
            }
            XCTAssertFalse(oldest.contains("older posts"), "everything is loaded: \(oldest)")
            try tmux.keys("g", "g")
            try tmux.waitFor("g", text: "example.com/599")
            try tmux.keys("g", "C-c")
            _ = try? tmux.waitFor("g", "the app to quit") { !$0.contains("Sessions") }
        }
    }

    func testTheRelayEditorKeepsABadURLAndItsKeys() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("relayeditor", relay: relay.url)
        defer { home.remove() }
        // Only loopback relays: the defaults go first.
        for row in try home.ok(["relays", "list", "--json"]).json() as? [[String: Any]] ?? [] {
            if let url = row["url"] as? String { try home.ok(["relays", "remove", url]) }
        }
        for url in ["ws://127.0.0.1:7001", "ws://127.0.0.1:7002", "ws://127.0.0.1:7003"] { try home.ok(["relays", "add", url]) }
        for term in Self.terms {
            let tmux = try Tmux()
            try home.startApp(tmux, "r", relay: nil, environment: ["TERM": term])
            try tmux.waitFor("r", text: "Sessions", timeout: 30)
            try tmux.keys("r", "4")
            try tmux.waitFor("r", text: "Relays")
            try tmux.keys("r", "a", "C-u")
            try tmux.type("r", "not a relay")
            try tmux.keys("r", "Enter")
            let kept = try tmux.waitFor("r", text: "not a relay", timeout: 5)
            XCTAssertTrue(kept.contains("add"), "the field stays open: \(kept)")
            // The next keys still go to the field, not to Settings (x would ask to remove a relay).
            try tmux.type("r", "x")
            let typed = try tmux.waitFor("r", text: "not a relayx", timeout: 5)
            XCTAssertFalse(typed.contains("remove ws://"), typed)
            try tmux.keys("r", "Escape")
            try tmux.waitFor("r", "the field to close") { !$0.contains("not a relayx") }
            // G and g move the relay cursor (› marks it).
            try tmux.keys("r", "G")
            try tmux.waitFor("r", "the cursor on the last relay") { $0.split(separator: "\n").contains { $0.contains("›") && $0.contains("ws://127.0.0.1:7003") } }
            try tmux.keys("r", "g")
            try tmux.waitFor("r", "the cursor on the first relay") { $0.split(separator: "\n").contains { $0.contains("›") && $0.contains("ws://127.0.0.1:7001") } }
            try tmux.keys("r", "C-c")
            _ = try? tmux.waitFor("r", "the app to quit") { !$0.contains("Relays") }
        }
    }

    func testALongNoteScrollsInThePostDetailAndHeartsKeepBoxesStraight() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let a = try Home.forApp("notes-a", relay: relay.url), b = try Home.forApp("notes-b", relay: relay.url)
        defer { a.remove(); b.remove() }
        let bNpub = try XCTUnwrap(b.ok(["identity", "show", "--json"]).json() as? [String: String])["npub"] ?? ""
        try b.ok(["contacts", "add", try XCTUnwrap(a.ok(["identity", "show", "--json"]).json() as? [String: String])["npub"] ?? ""])
        let session = try a.ok(["session", "create", "❤️ Notes", "--member", bNpub]).trimmed
        let paragraphs = (1...30).map { "paragraph \($0): " + String(repeating: "words ", count: 8) }
        try a.ok(["post", session, "https://example.com/long", "--note-file", "-"], stdin: paragraphs.joined(separator: "\n"))
        try b.ok(["sync", "--json"])
        for term in Self.terms {
            let tmux = try Tmux()
            try b.startApp(tmux, "n", relay: relay.url, environment: ["TERM": term])
            try tmux.waitFor("n", text: "Notes", timeout: 30)
            try tmux.keys("n", "Enter")
            try tmux.waitFor("n", text: "example.com/long")
            try tmux.keys("n", "Enter")
            let top = try tmux.waitFor("n", text: "paragraph 1:", timeout: 10)
            XCTAssertTrue(top.contains("more lines"), "the note says it goes on: \(top)")
            XCTAssertFalse(top.contains("paragraph 30:"))
            for _ in 0..<8 { try tmux.keys("n", "PageDown") }
            let bottom = try tmux.waitFor("n", text: "paragraph 30:", timeout: 10)
            XCTAssertFalse(bottom.contains("paragraph 1:"), bottom)
            // The emoji picker holds ❤️: no variation selector reaches the terminal, and the box's right
            // border stands in one column on every row.
            try tmux.keys("n", "e")
            let picker = try tmux.waitFor("n", text: "Esc close", timeout: 10)
            XCTAssertFalse(picker.unicodeScalars.contains("\u{FE0F}"), "VS16 never reaches the terminal")
            let borders = Set(picker.split(separator: "\n").filter { $0.filter { $0 == "│" }.count >= 2 }.map { line -> Int in
                let upToLast = line[..<line.lastIndex(of: "│")!]
                return upToLast.reduce(0) { $0 + (($1.unicodeScalars.first?.properties.isEmojiPresentation ?? false) ? 2 : 1) }
            })
            XCTAssertEqual(borders.count, 1, "one column for the right border: \(picker)")
            try tmux.keys("n", "Escape", "C-c")
            _ = try? tmux.waitFor("n", "the app to quit") { !$0.contains("Sessions") }
        }
    }

    /// Item 16: the app opens where it was (pane, session, selected post) after a restart.
    func testTheAppOpensWhereItWas() async throws {
        let (relay, _, home, _) = try await synced(posts: 10)
        defer { relay.stop(); home.remove() }
        try home.acceptRequests()
        for (round, term) in Self.terms.enumerated() {
            let tmux = try Tmux()
            try home.startApp(tmux, "w", relay: relay.url, environment: ["TERM": term])
            if round == 0 {
                try tmux.waitFor("w", text: "Filling up", timeout: 30)
                try tmux.keys("w", "Enter")
                try tmux.waitFor("w", text: "example.com/9")
                try tmux.keys("w", "j", "j", "Enter")
                try tmux.waitFor("w", "the detail of post 7") { $0.contains("e more") && $0.contains("post 7 words") }
            } else {
                // Restarted under another TERM: the same post's detail, with no key pressed.
                let back = try tmux.waitFor("w", "the detail of post 7", timeout: 30) { $0.contains("e more") && $0.contains("post 7 words") }
                XCTAssertTrue(back.contains("Filling up"), back)
            }
            try tmux.keys("w", "C-c")
            _ = try? tmux.waitFor("w", "the app to quit") { !$0.contains("Sessions") }
        }
    }
}

/// Issue 33 (5): with the app open, `linkstr open 'linkstr://share?…'` (what the desktop entry runs) said
/// another linkstr holds the directory. The link is handed to the running app, and its box never drops
/// it on Esc without asking.
final class SharedLinkHandOffTests: XCTestCase {
    func testALinkOpenedWhileTheAppRunsIsHandedToItAndEscAsks() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("handoff", relay: relay.url)
        defer { home.remove() }
        try home.ok(["session", "create", "Films"])
        try home.ok(["session", "create", "Music"])
        for term in FirstHourTests.terms {
            let tmux = try Tmux()
            try home.startApp(tmux, "app", relay: relay.url, environment: ["TERM": term])
            try tmux.waitFor("app", text: "Films", timeout: 30)
            let link = "linkstr://share?url=https%3A%2F%2Fexample.com%2Fhanded&note=from%20the%20desktop"
            let command = "'\(home.binary.path)' --home '\(home.directory.path)' --relay '\(relay.url)' open '\(link)'; echo exit=$?; sleep 60"
            try tmux.start("cli", ["sh", "-c", command], environment: ["LINKSTR_PASSPHRASE": Home.passphrase, "TERM": term])
            let said = try tmux.waitFor("cli", text: "exit=", timeout: 20)
            XCTAssertTrue(said.contains("exit=0") && said.contains("handed to the linkstr already running here"), said)
            try tmux.waitFor("app", text: "example.com/handed", timeout: 10)
            try tmux.keys("app", "Escape")
            try tmux.waitFor("app", text: "discard the shared link")
            try tmux.keys("app", "n")
            try tmux.waitFor("app", "the box back") { $0.contains("Shared link") && $0.contains("example.com/handed") }
            // The session is picked by typing part of its name; letters are not shortcuts here.
            try tmux.type("app", "mus")
            try tmux.waitFor("app", "the filtered choices") { $0.contains("Share into: mus") && $0.contains("│   Music") && !$0.contains("│   Films") }
            try tmux.keys("app", "Enter")
            try tmux.waitFor("app", "Music's composer with the link and its note") {
                $0.contains("Session Music") && $0.contains("example.com/handed") && $0.contains("from the desktop")
            }
            try tmux.keys("app", "Escape")
            try tmux.waitFor("app", "the list") { !$0.contains("Share a link") }
            // No session of that name: Enter starts one, and the link waits for it.
            try tmux.start("cli2", ["sh", "-c", command], environment: ["LINKSTR_PASSPHRASE": Home.passphrase, "TERM": term])
            try tmux.waitFor("app", text: "Share into:", timeout: 20)
            try tmux.type("app", "Cats \(term)")
            try tmux.waitFor("app", text: "Enter starts “Cats \(term)”")
            try tmux.keys("app", "Enter")
            try tmux.waitFor("app", text: "New session")
            try tmux.keys("app", "Enter")
            let created = try tmux.waitFor("app", text: "write a note and press Enter to share the link", timeout: 20)
            XCTAssertTrue(created.contains("Session Cats \(term)") && created.contains("example.com/handed"), created)
            try tmux.keys("app", "Enter")
            try tmux.waitFor("app", text: "sent.", timeout: 20)
            try tmux.keys("app", "Escape")
            try tmux.keys("app", "C-c")
            _ = try? tmux.waitFor("app", "the app to quit") { !$0.contains("Sessions") }
        }
    }
}
