import Foundation
import LinkstrTestSupport
import XCTest

/// The send queue in a real terminal (issue 49), under two TERMs at 80×24: a post made with the relay
/// down is applied and queued at once, marked in the feed, the tab bar and the session list; r in its
/// detail tries again, x cancels it (gone, never sent); a second one, left unsent when the app quits,
/// goes by itself at the next start once the relay is back, said as "sent 1 that waited."
final class SendQueueScreenTests: XCTestCase {
    func testQueuedMarksCancelRetryAndTheSendWhenTheRelayIsBack() throws {
        for term in ["xterm-256color", "tmux-256color"] {
            try queuedPostsOnScreen(term: term)
        }
    }

    private func queuedPostsOnScreen(term: String) throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let home = try Home.forApp("queue-screen", relay: relay.url)
        defer { home.remove() }
        let me = try home.ok(["identity", "show", "--json"]).json() as! [String: Any]
        try home.ok(["session", "create", "Train"])
        relay.stop()
        let tmux = try Tmux()
        let w = "queue-" + term
        try home.startApp(tmux, w, relay: relay.url, environment: ["TERM": term])
        try tmux.waitFor(w, text: "Train", timeout: 30)
        try tmux.keys(w, "Enter")
        try tmux.waitFor(w, text: "no posts yet")

        func share(_ link: String) throws -> String {
            try tmux.keys(w, "c")
            try tmux.waitFor(w, text: "Share a link")
            try tmux.type(w, link)
            try tmux.keys(w, "Enter")
            try tmux.keys(w, "Enter")
            return try tmux.waitFor(w, text: "no relay reachable: queued, it will go when one answers.", timeout: 10)
        }
        var screen = try share("example.com/first")
        XCTAssertTrue(screen.contains("⧗ waiting to send"), "the feed's mark (\(term)):\n\(screen)")
        XCTAssertTrue(screen.contains("⧗ 1 waiting to send"), "the tab bar's count (\(term)):\n\(screen)")

        // The detail says what can be done: r tries again (the relay is still down), x cancels.
        try tmux.keys(w, "Enter")
        screen = try tmux.waitFor(w, text: "r retry now · x cancel")
        try tmux.keys(w, "r")
        try tmux.waitFor(w, text: "will try again when a relay answers.")
        try tmux.keys(w, "x")
        try tmux.waitFor(w, text: "cancel this post? it was never sent")
        try tmux.keys(w, "y")
        screen = try tmux.waitFor(w, text: "cancelled: the post was never sent, and is gone.")
        XCTAssertFalse(screen.contains("⧗ 1 waiting to send"), screen)

        // A second one, seen from the session list; then the relay comes back and it goes by itself.
        try tmux.keys(w, "Enter")
        try tmux.waitFor(w, text: "no posts yet")
        _ = try share("example.com/second")
        try tmux.keys(w, "Escape")
        screen = try tmux.waitFor(w, text: "⧗ unsent")
        XCTAssertTrue(screen.contains("⧗ 1 waiting to send"), screen)
        // The app quits with it unsent; the queue is on disk (the CLI lists it); the next start sends it.
        try tmux.keys(w, "C-c")
        try tmux.waitFor(w, "the app to quit") { !$0.contains("Train") }
        let waiting = try home.ok(["queue", "list", "--json"]).json() as! [[String: Any]]
        XCTAssertEqual(waiting.map { $0["kind"] as? String }, ["post"])
        try relay.start()
        try home.startApp(tmux, w + "-again", relay: relay.url, environment: ["TERM": term])
        screen = try tmux.waitFor(w + "-again", text: "sent 1 that waited.", timeout: 45)
        XCTAssertFalse(screen.contains("waiting to send"), screen)
        XCTAssertFalse(screen.contains("⧗ unsent"), screen)
        try tmux.keys(w + "-again", "C-c")
        try tmux.waitFor(w + "-again", "the app to quit") { !$0.contains("Train") }

        XCTAssertEqual((try home.ok(["queue", "list", "--json"]).json() as! [[String: Any]]).count, 0)
        let session = try home.sessions()[0]["id"] as! String
        XCTAssertEqual(try home.posts(session).map { $0["url"] as? String }, ["https://example.com/second"])
        let wraps = try RustNostrPeer.query(relay: relay.url, filter: ["kinds": [1059], "#p": [me["pubkey"] as! String]])
        XCTAssertEqual(wraps.count, 2, "the session's create and the second post; the cancelled one never left (\(term))")
    }
}
