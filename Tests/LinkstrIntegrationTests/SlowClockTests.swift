import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 53 (2): a post dated a few seconds before its session was created (its sender's phone slow), or
/// a new member's first post dated a moment before the snapshot that added them, was held for good and
/// the app said "no posts yet". Now they show in time order; what is held beyond ten minutes is counted
/// and shown (`sync --json`, `session list --json`, `posts` on stderr, `posts --held`, the feed's last
/// row and `:held` in the app), and survives a restart. On nostr-relay and LocalRelay.
final class SlowClockTests: XCTestCase {
    func testPostsFromASlowClockArriveAndWhatIsHeldIsShown() throws {
        let nostrRelay = try TestRelay()
        defer { nostrRelay.stop() }
        let localRelay = try RustRelay.start()
        defer { localRelay.stop() }
        for (name, url) in [("nostr-relay", nostrRelay.url), ("LocalRelay", localRelay.url)] {
            let bob = try Home("slowclock-\(name)", relays: [url])
            defer { bob.remove() }
            try bob.writeConfig("link_previews = false\n")
            let me = try PublicKey(hex: try bob.createIdentity().hex)
            let alice = SecretKey.generate(), carol = SecretKey.generate()
            try bob.ok(["contacts", "add", alice.publicKey.npub, "--alias", "Alice"])
            let sid = LinkstrID.make(SystemRandom()), t = Int64(Date().timeIntervalSince1970) - 3_600
            func wrap(_ payload: LinkstrPayload, by key: SecretKey, at: Int64) throws -> NostrEvent {
                try PeerWraps.wrap(payload, by: key, at: at, to: me, now: t + 1_000)
            }
            func root(_ path: String, at: Int64, note: String) -> LinkstrPayload {
                LinkstrPayload(conversationID: sid, rootID: "", kind: .root, url: "https://example.com/\(path)", note: note, timestamp: at)
            }
            let everyone = [alice.publicKey.hex, me.hex]
            try DirectPublish.events([
                try wrap(LinkstrPayload(conversationID: sid, rootID: "op", kind: .sessionCreate, timestamp: t, sessionName: "Slow clocks",
                                        memberPubkeys: everyone), by: alice, at: t),
                try wrap(root("slow", at: t - 5, note: "five seconds slow"), by: alice, at: t - 5),
                try wrap(root("early", at: t - 700, note: "far too early"), by: alice, at: t - 700),
                try wrap(LinkstrPayload(conversationID: sid, rootID: "", kind: .sessionMembers, timestamp: t + 100,
                                        memberPubkeys: everyone + [carol.publicKey.hex]), by: alice, at: t + 100),
                try wrap(root("carol", at: t + 95, note: "my first, a moment early"), by: carol, at: t + 95),
            ], to: url)

            let report = try bob.sync()
            XCTAssertEqual(report["held"] as? Int, 1, "\(name): \(report)")
            let urls = try bob.posts(sid).compactMap { $0["url"] as? String }
            XCTAssertEqual(urls, ["https://example.com/carol", "https://example.com/slow"], "\(name): in time order, newest first")
            let row = try XCTUnwrap((try bob.sessions()).first { $0["id"] as? String == sid })
            XCTAssertEqual(row["held"] as? Int, 1)
            let listed = try bob.run(["posts", sid, "--json"])
            XCTAssertEqual(listed.status, 0)
            XCTAssertTrue(listed.err.contains("1 post held: dated before their sender joined (`linkstr posts \(sid) --held` to see them)."), listed.err)
            let held = try XCTUnwrap(try bob.ok(["posts", sid, "--held", "--json"]).json() as? [[String: Any]])
            XCTAssertEqual(held.map { $0["url"] as? String }, ["https://example.com/early"])
            XCTAssertEqual(held.first?["held_reason"] as? String, "dated before their sender joined")
            XCTAssertEqual((try bob.sync())["held"] as? Int, 1, "\(name): still held, kept on disk")

            guard name == "nostr-relay" else { continue }
            for round in ["first start", "after a restart"] {
                let tmux = try Tmux()
                try bob.startApp(tmux, "s", relay: url)
                try tmux.waitFor("s", text: "Slow clocks", timeout: 30)
                try tmux.keys("s", "Enter")
                let feed = try tmux.waitFor("s", text: "1 post held: dated before their sender joined · :held to see them", timeout: 15)
                XCTAssertTrue(feed.contains("five seconds slow") && feed.contains("my first, a moment early"), "\(round):\n\(feed)")
                try tmux.keys("s", ":")
                try tmux.submit("s", "held")
                let overlay = try tmux.waitFor("s", text: "Held posts (1)")
                XCTAssertTrue(overlay.contains("example.com/early") && overlay.contains("far too early"), overlay)
                XCTAssertTrue(overlay.contains("Alice"), overlay)
                try tmux.keys("s", "Escape")
                try tmux.waitFor("s", "the list closed") { !$0.contains("Held posts") }
                try tmux.keys("s", "q")
                try tmux.waitFor("s", text: "Enter open")
                try tmux.keys("s", "q")
                try tmux.waitFor("s", "the app to exit") { !$0.contains("1 Sessions") }
            }
        }
    }
}
