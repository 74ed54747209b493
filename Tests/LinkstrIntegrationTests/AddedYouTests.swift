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
        XCTAssertEqual(offline.status, 65)
        XCTAssertTrue(offline.err.contains("no relay answered"), offline.err)
    }

    /// More lists than one page (200), a second holding 300 of them: paged per relay (wire 2026 §7.2),
    /// the limit doubling on the crowded second, on both relay implementations; a relay that clamps its
    /// answers to 100 cannot give the whole crowded second, and the list says it may be partial.
    func testManyFollowersArePagedAndACrowdedSecondIsReadOrReported() throws {
        let nostrRelay = try TestRelay(), rustRelay = try RustRelay.start(), clamped = try TestRelay(maxLimit: 100)
        let now = Int64(Date().timeIntervalSince1970)
        for (relay, complete) in [(nostrRelay.url, true), (rustRelay.url, true), (clamped.url, false)] {
            let home = try Home("added-you-many", relays: [relay])
            defer { home.remove() }
            let (_, me) = try home.createIdentity()
            let events = try RustNostrPeer.call("follow-lists", ["names": [me], "count": 260, "start_at": now - 10,
                                                                 "crowded": 300, "crowded_at": now - 400])["events"] as! [[String: Any]]
            for start in stride(from: 0, to: events.count, by: 100) {
                let out = try RustNostrPeer.call("publish", ["relay": relay, "events": Array(events[start..<min(start + 100, events.count)])])
                XCTAssertEqual((out["ok"] as? [Bool])?.allSatisfy { $0 }, true, "\(out["messages"] ?? "")")
            }
            let r = try home.ok(["contacts", "added-you", "--json"])
            let followers = Set((try r.json() as? [[String: Any]] ?? []).compactMap { $0["pubkey"] as? String })
            if complete {
                XCTAssertEqual(followers.count, 560, relay)
                XCTAssertEqual(followers, Set(events.map { $0["pubkey"] as! String }), relay)
                XCTAssertFalse(r.err.contains("may be missing people"), r.err)
            } else {
                XCTAssertTrue(followers.isSuperset(of: events.prefix(260).map { $0["pubkey"] as! String }), "every other second is read: \(followers.count)")
                XCTAssertLessThan(followers.count, 560)
                XCTAssertTrue(r.err.contains("some relays did not send their whole answer: the list may be missing people."), r.err)
            }
        }
    }

    /// The You pane: f asks, the follower who is not a contact yet is listed, Enter adds them with an alias.
    func testTheYouPaneShowsWhoAddedYouAndAddsThem() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let tmux = try Tmux()
        let home = try Home("added-you-app", relays: [relay.url])
        defer { home.remove() }
        let (_, me) = try home.createIdentity()
        try home.writeConfig("link_previews = false\n")
        let friend = SecretKey.generate()
        try RustNostrPeer.publishEvent(relay: relay.url, secret: friend.revealNsec(), kind: 3, tags: [["p", me]],
                                       at: Int64(Date().timeIntervalSince1970) - 10)

        try home.startApp(tmux, "you", relay: relay.url)
        try tmux.waitFor("you", text: "no sessions yet", timeout: 30)
        try tmux.keys("you", "3")
        try tmux.waitFor("you", text: "Contacts (0)")
        try tmux.keys("you", "f")
        var screen = try tmux.waitFor("you", text: "Added you (Enter adds", timeout: 20)
        XCTAssertTrue(screen.contains(String(friend.publicKey.npub.prefix(9))), screen)
        XCTAssertTrue(screen.contains("1 added you."), screen)
        // Live while shown: a new follower appears, and goes when their newer list no longer names us.
        let newcomer = SecretKey.generate()
        let mark = String(newcomer.publicKey.npub.prefix(9))
        let now = Int64(Date().timeIntervalSince1970)
        try RustNostrPeer.publishEvent(relay: relay.url, secret: newcomer.revealNsec(), kind: 3, tags: [["p", me]], at: now)
        try tmux.waitFor("you", "the newcomer listed", timeout: 20) { $0.contains(mark) }
        try RustNostrPeer.publishEvent(relay: relay.url, secret: newcomer.revealNsec(), kind: 3, tags: [], at: now + 1)
        try tmux.waitFor("you", "the newcomer gone after unfollowing", timeout: 20) { !$0.contains(mark) && $0.contains("Added you (Enter adds") }
        try tmux.keys("you", "Enter")
        try tmux.waitFor("you", text: "Add contact")
        try tmux.type("you", "Friend")
        try tmux.keys("you", "Enter")
        screen = try tmux.waitFor("you", text: "Contacts (1)", timeout: 20)
        XCTAssertTrue(screen.contains("Friend"), screen)
        XCTAssertFalse(screen.contains("Added you (Enter adds"), "a contact is no longer listed as someone who added you")
    }
}
