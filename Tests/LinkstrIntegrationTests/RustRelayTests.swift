import Foundation
import LinkstrTestSupport
import XCTest

/// linkstr against rust-nostr's relay (`LocalRelay`), a second relay implementation with its own rules.
final class RustRelayTests: XCTestCase {
    /// Field readiness 1: rust-nostr's relay refuses kind 5 for gift wraps (one-time keys signed them).
    /// Deleting still works for everyone: the `root_delete` notice goes out, the refusal is reported by
    /// relay, and the command succeeds.
    func testDeletingAPostWhenTheRelayRefusesKind5() throws {
        let relay = try RustRelay.start()
        let a = try Home("rust-a", relays: [relay.url]), b = try Home("rust-b", relays: [relay.url])
        defer { a.remove(); b.remove() }
        _ = try a.createIdentity()
        let (bNpub, _) = try b.createIdentity()
        let session = try a.ok(["session", "create", "Rust", "--member", bNpub]).trimmed
        let post = try a.ok(["post", session, "https://example.com/gone"]).trimmed
        let kept = try a.ok(["post", session, "https://example.com/kept"]).trimmed
        _ = try b.sync()
        XCTAssertEqual(Set(try b.posts(session).map { $0["id"] as! String }), [post, kept])

        let deleted = try a.run(["delete", post])
        XCTAssertEqual(deleted.status, 0, deleted.err)
        XCTAssertTrue(deleted.err.contains("post deleted for everyone; \(relay.url) kept a copy of its sealed envelope (it refused the deletion request: "),
                      "deleted, and which relay kept what: \(deleted.err)")
        XCTAssertEqual(try a.posts(session).map { $0["id"] as! String }, [kept], "the local tombstone stands")
        _ = try b.sync()
        XCTAssertEqual(try b.posts(session).map { $0["id"] as! String }, [kept], "the notice reached the other member")

        // The terminal app does the same: d in the post's detail deletes it and says which relay refused what.
        try a.writeConfig("link_previews = false\n")
        let tmux = try Tmux()
        try a.startApp(tmux, "a", relay: relay.url)
        try tmux.waitFor("a", text: "Rust", timeout: 30)
        try tmux.keys("a", "Enter")
        try tmux.waitFor("a", text: "example.com/kept")
        try tmux.keys("a", "Enter")
        try tmux.waitFor("a", text: "e more")
        try tmux.keys("a", "d")
        try tmux.waitFor("a", text: "delete this post for everyone?")
        try tmux.keys("a", "y")
        let screen = try tmux.waitFor("a", text: "post deleted for everyone", timeout: 20)
        XCTAssertTrue(screen.contains("kept a copy"), screen)
        try tmux.keys("a", "C-c")
        XCTAssertEqual(try a.posts(session).count, 0)
        _ = try b.sync()
        XCTAssertEqual(try b.posts(session).count, 0, "deleted from the terminal app, gone for the other member too")
    }
}
