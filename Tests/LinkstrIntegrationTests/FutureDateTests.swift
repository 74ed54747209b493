import Foundation
import LinkstrDomain
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 53 (6.5): a post dated a day or ten years ahead was shown as "now", and the ten-year one stayed
/// pinned on top of its feed and its session on top of the list. Now a post dated more than 15 minutes
/// past its arrival is placed at its arrival and marked with the date it claimed (`dated_ahead` in
/// `posts --json`, a line under it in the app); a clock a few minutes fast keeps its own date. On
/// nostr-relay and LocalRelay; the app's line in tmux.
final class FutureDateTests: XCTestCase {
    func testAPostDatedFarAheadIsPlacedAtItsArrivalAndMarked() throws {
        let nostrRelay = try TestRelay()
        defer { nostrRelay.stop() }
        let localRelay = try RustRelay.start()
        defer { localRelay.stop() }
        for (name, url) in [("nostr-relay", nostrRelay.url), ("LocalRelay", localRelay.url)] {
            let bob = try Home("future-\(name)", relays: [url])
            defer { bob.remove() }
            try bob.writeConfig("link_previews = false\n")
            let me = try PublicKey(hex: try bob.createIdentity().hex)
            let alice = SecretKey.generate()
            try bob.ok(["contacts", "add", alice.publicKey.npub, "--alias", "Alice"])
            let sid = LinkstrID.make(SystemRandom()), now = Int64(Date().timeIntervalSince1970)
            let tomorrow = now + 86_400, decade = now + 10 * 365 * 86_400
            func wrap(_ payload: LinkstrPayload, at: Int64) throws -> NostrEvent {
                try PeerWraps.wrap(payload, by: alice, at: at, to: me, now: now)
            }
            func root(_ path: String, at: Int64) -> LinkstrPayload {
                LinkstrPayload(conversationID: sid, rootID: "", kind: .root, url: "https://example.com/\(path)", note: path, timestamp: at)
            }
            try DirectPublish.events([
                try wrap(LinkstrPayload(conversationID: sid, rootID: "op", kind: .sessionCreate, timestamp: now - 3_600, sessionName: "Ahead",
                                        memberPubkeys: [alice.publicKey.hex, me.hex]), at: now - 3_600),
                try wrap(root("earlier", at: now - 60), at: now - 60),
                try wrap(root("fast", at: now + 300), at: now + 300),
                try wrap(root("tomorrow", at: tomorrow), at: tomorrow),
                try wrap(root("decade", at: decade), at: decade),
            ], to: url)

            let before = Int64(Date().timeIntervalSince1970)
            XCTAssertEqual(try bob.sync()["complete"] as? Bool, true, name)
            let after = Int64(Date().timeIntervalSince1970)
            let posts = try bob.posts(sid)
            let byNote = Dictionary(uniqueKeysWithValues: posts.map { ($0["note"] as! String, $0) })
            for note in ["tomorrow", "decade"] {
                let placed = try XCTUnwrap(byNote[note]?["created_at"] as? Int64, "\(name): \(posts)")
                XCTAssertTrue((before...after).contains(placed), "\(name): \(note) placed at its arrival, not \(placed)")
            }
            XCTAssertEqual(byNote["tomorrow"]?["dated_ahead"] as? Int64, tomorrow)
            XCTAssertEqual(byNote["decade"]?["dated_ahead"] as? Int64, decade)
            XCTAssertEqual(byNote["fast"]?["created_at"] as? Int64, now + 300, "a clock five minutes fast keeps its date")
            for note in ["fast", "earlier"] { XCTAssertTrue(byNote[note]?["dated_ahead"] is NSNull, "\(name): \(note)") }
            XCTAssertEqual(posts.first?["note"] as? String, "fast", name)
            XCTAssertEqual(posts.last?["note"] as? String, "earlier", name)
            let row = try XCTUnwrap((try bob.sessions()).first { $0["id"] as? String == sid })
            XCTAssertLessThanOrEqual(try XCTUnwrap(row["updated_at"] as? Int64), now + 300, "\(name): the session is not pinned in 2036")

            guard name == "nostr-relay" else { continue }
            let tmux = try Tmux()
            try bob.startApp(tmux, "f", relay: url)
            try tmux.waitFor("f", text: "Ahead", timeout: 30)
            try tmux.keys("f", "Enter")
            let feed = try tmux.waitFor("f", text: "▌ decade", timeout: 15)
            let marks = feed.components(separatedBy: "by its sender's clock: placed when it arrived").count - 1
            XCTAssertEqual(marks, 2, feed)
            XCTAssertTrue(feed.contains("⚠ dated \(Self.day(decade))"), feed)
            try tmux.keys("f", "q")
            try tmux.waitFor("f", text: "Enter open")
            try tmux.keys("f", "q")
            try tmux.waitFor("f", "the app to exit") { !$0.contains("1 Sessions") }
        }
    }

    private static func day(_ t: Int64) -> String {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        f.timeZone = .current
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(t)))
    }
}
