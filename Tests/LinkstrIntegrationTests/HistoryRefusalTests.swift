import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 32 (5): a relay that answers a history page with `CLOSED` has not told us the history ended.
/// The page is asked again (1, 2, 4 s); a sync is never `complete:true` with posts missing.
final class HistoryRefusalTests: XCTestCase {
    static let posts = 1_200

    /// A fresh home holding `key` (as a second device would).
    private func home(_ name: String, _ key: SecretKey, relay: String) throws -> Home {
        let home = try Home(name, relays: [relay])
        try home.ok(["identity", "import", "--kdf-cost", "10"], stdin: key.revealNsec() + "\n")
        try home.writeConfig("link_previews = false\n")
        return home
    }

    func testARefusedHistoryPageIsAskedAgainWhateverTheReason() async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let me = SecretKey.generate(), friend = SeededSender()
        try await friend.seed(relay.url, to: me.publicKey, posts: 0..<Self.posts)
        for reason in ["rate-limited: slow down", "error: internal error", "restricted: not now", "blocked: go away", "invalid: bad filter", ""] {
            let proxy = try FaultProxy.start(upstream: relay.url, mode: "closed", argument: "1|\(reason)")
            defer { proxy.stop() }
            let device = try home("closed-once", me, relay: proxy.url)
            defer { device.remove() }
            let result = try device.run(["sync", "--json", "--timeout", "40"])
            XCTAssertEqual(result.status, 0, "'\(reason)': \(result.err)")
            let json = try result.json() as? [String: Any]
            XCTAssertEqual(json?["complete"] as? Bool, true, "'\(reason)': \(result.out)")
            let relays = json?["relays"] as? [[String: Any]]
            XCTAssertEqual(relays?.first?["history"] as? String, "finished", "'\(reason)': \(result.out)")
            XCTAssertEqual(try device.allPostIDs(friend.session).count, Self.posts, "'\(reason)': the refused page was read on the second ask")
        }
    }

    func testARelayThatKeepsRefusingLeavesTheSyncIncompleteUnlessAnotherRelayFinished() async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let me = SecretKey.generate(), friend = SeededSender()
        try await friend.seed(relay.url, to: me.publicKey, posts: 0..<Self.posts)
        let proxy = try FaultProxy.start(upstream: relay.url, mode: "closed", argument: "-1|rate-limited: slow down")
        defer { proxy.stop() }

        let device = try home("closed-always", me, relay: proxy.url)
        defer { device.remove() }
        let refused = try device.run(["sync", "--json", "--timeout", "40"])
        XCTAssertEqual(refused.status, 75, "never complete with posts missing: \(refused.out)")
        let json = try refused.json() as? [String: Any]
        XCTAssertEqual(json?["complete"] as? Bool, false, refused.out)
        let history = (json?["relays"] as? [[String: Any]])?.first?["history"] as? String ?? ""
        XCTAssertTrue(history.contains("refused by the relay (rate-limited: slow down)"), history)
        XCTAssertTrue(refused.err.contains("rate-limited: slow down"), "the reason is said: \(refused.err)")
        // Only the live window can have brought anything; it may not hold the session's creation.
        XCTAssertLessThan(try visiblePostCount(device, friend.session), Self.posts)

        // Beside a relay that reads to the end, the history is whole: exit 0, the refusing relay named.
        let both = try device.run(["sync", "--json", "--timeout", "40"], relays: [proxy.url, relay.url])
        XCTAssertEqual(both.status, 0, both.err)
        XCTAssertEqual((try both.json() as? [String: Any])?["complete"] as? Bool, true, both.out)
        XCTAssertTrue(both.err.contains("not on every relay") && both.err.contains(proxy.url), both.err)
        XCTAssertEqual(try device.allPostIDs(friend.session).count, Self.posts)
    }

    /// The session's posts here, 0 when not even the session arrived.
    private func visiblePostCount(_ device: Home, _ session: String) throws -> Int {
        let posts = try device.run(["posts", session, "--json", "--limit", "5000"])
        if posts.status == 66 && posts.err.contains("that session is not available") { return 0 }
        XCTAssertEqual(posts.status, 0, posts.err)
        return (try posts.json() as? [[String: Any]])?.count ?? 0
    }

    /// The app asks again too, and the relay row in Settings says why the history is not whole, under
    /// two TERM values.
    func testTheAppShowsARefusedHistoryOnTheRelayRow() async throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let me = SecretKey.generate(), friend = SeededSender()
        try await friend.seed(relay.url, to: me.publicKey, posts: 0..<Self.posts)
        let proxy = try FaultProxy.start(upstream: relay.url, mode: "closed", argument: "-1|rate-limited: slow down")
        defer { proxy.stop() }
        let device = try home("closed-app", me, relay: proxy.url)
        defer { device.remove() }
        for term in ["xterm-256color", "tmux-256color"] {
            let tmux = try Tmux()
            try device.startAppInSettings(tmux, "h", relay: proxy.url, term: term)
            try tmux.waitFor("h", text: "history page refused (rate-limited: slow down)", timeout: 20)
            let settled = try tmux.waitFor("h", text: "history incomplete: refused by the relay", timeout: 30)
            XCTAssertTrue(settled.contains("rate-limited: slow"), settled)
            try tmux.keys("h", "C-c")
            _ = try? tmux.waitFor("h", "the app to quit") { !$0.contains("Relays") }
        }
    }
}
