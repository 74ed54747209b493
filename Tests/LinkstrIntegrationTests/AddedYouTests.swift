import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// "Added you" through the CLI (wire 2026 §7.2): follow lists naming us, built and signed by rust-nostr,
/// forged ones ignored, contacts marked, nothing published.
final class AddedYouTests: XCTestCase {
    func testPeopleWhoseFollowListNamesYouAreListed() throws {
        // A relay that stores without checking signatures, so a forged list reaches us.
        let relay = try TestRelay(checksSignatures: false)
        let home = try Home("added-you", relays: [relay.url])
        defer { home.remove() }
        let (_, me) = try home.createIdentity()
        XCTAssertEqual(try home.ok(["contacts", "added-you"]).trimmed, "nobody's follow list names you on your relays.")

        let friend = SecretKey.generate(), stranger = SecretKey.generate(), other = SecretKey.generate()
        let now = Int64(Date().timeIntervalSince1970)
        try RustNostrPeer.publishEvent(relay: relay.url, secret: friend.revealNsec(), kind: 3, tags: [["p", me, "wss://relay.example.com"]], at: now - 10)
        try RustNostrPeer.publishEvent(relay: relay.url, secret: stranger.revealNsec(), kind: 3, tags: [["t", "x"], ["p", me]], at: now - 10)
        try RustNostrPeer.publishEvent(relay: relay.url, secret: other.revealNsec(), kind: 3, tags: [["p", friend.publicKey.hex]], at: now - 10)
        // A forged list "from" someone else: a valid shape with a broken signature.
        let forged = SecretKey.generate()
        var event = try RustNostrPeer.call("event", ["secret": forged.revealNsec(), "kind": 3, "tags": [["p", me]], "content": "", "created_at": now - 5])
        event["sig"] = String(repeating: "0", count: 128)
        let out = try RustNostrPeer.call("publish", ["relay": relay.url, "events": [event]])
        XCTAssertEqual(out["ok"] as? [Bool], [true], "the test relay stores it unchecked")

        try home.ok(["contacts", "add", friend.publicKey.hex])
        let eventsBefore = try RustNostrPeer.query(relay: relay.url, filter: ["authors": [me]]).count
        let followers = try home.ok(["contacts", "added-you", "--json"]).json() as? [[String: Any]] ?? []
        XCTAssertEqual(Set(followers.compactMap { $0["pubkey"] as? String }), [friend.publicKey.hex, stranger.publicKey.hex])
        XCTAssertEqual(followers.first { $0["pubkey"] as? String == friend.publicKey.hex }?["contact"] as? Bool, true)
        XCTAssertEqual(followers.first { $0["pubkey"] as? String == stranger.publicKey.hex }?["contact"] as? Bool, false)
        XCTAssertEqual(try RustNostrPeer.query(relay: relay.url, filter: ["authors": [me]]).count, eventsBefore, "nothing is published")
        // No relay at all: unknown, never an empty list.
        let offline = try home.run(["contacts", "added-you"], relays: ["ws://127.0.0.1:9"])
        XCTAssertEqual(offline.status, 1)
        XCTAssertTrue(offline.err.contains("no relay answered"), offline.err)
    }
}
