import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 53 (5): the doctor checked a member's inbox relay with the rule for relays outside ours (never a
/// local or private address) even where that relay is one of ours, which the pool dials whatever its
/// address: it said "✗ … is a local or private address", then "last delivery: delivered to their inbox
/// (the same relay)", then "None of their inbox relays answers now". One rule now decides both.
final class DoctorOneRuleTests: XCTestCase {
    func testOurOwnLoopbackRelayIsCheckedAsItIsDialled() throws {
        let relay = try TestRelay()
        defer { relay.stop() }
        let bob = try Home("doctor-one-rule", relays: [relay.url])
        defer { bob.remove() }
        _ = try bob.createIdentity()
        let member = SecretKey.generate()
        try DirectPublish.events([UnsignedEvent(pubkey: member.publicKey, createdAt: Int64(Date().timeIntervalSince1970) - 60, kind: 10050,
                                                tags: [["relay", relay.url]], content: "").signed(with: member)], to: relay.url)
        let sid = try bob.ok(["session", "create", "Doctor", "--member", member.publicKey.npub]).trimmed
        try bob.ok(["post", sid, "https://example.com/checked"])

        let report = try XCTUnwrap(try bob.ok(["doctor", sid, "--json"]).json() as? [String: Any])
        let entry = try XCTUnwrap((report["members"] as? [[String: Any]])?.first { $0["pubkey"] as? String == member.publicKey.hex })
        XCTAssertEqual(entry["source"] as? String, "inbox")
        let checked = try XCTUnwrap((entry["relays"] as? [[String: Any]])?.first)
        XCTAssertEqual(checked["url"] as? String, relay.url)
        XCTAssertEqual(checked["answered"] as? Bool, true, "\(checked)")
        XCTAssertTrue(checked["error"] is NSNull, "\(checked)")
        XCTAssertEqual((entry["last_delivery"] as? [String: Any])?["state"] as? String, "inbox")
        let words = try bob.ok(["doctor", sid]).out
        XCTAssertFalse(words.contains("local or private address"), words)
        XCTAssertFalse(words.contains("None of their inbox relays answers"), words)
    }

    /// Issue 53 (5): "shared relays: none" was said of a member whose copies had landed on a relay both
    /// use. Shared now counts our relays that accepted their copies of what we sent last, and relays both
    /// lists name compared as relay URLs (`ws://127.0.0.1:N/` is `ws://127.0.0.1:N`). On nostr-relay and
    /// LocalRelay.
    func testSharedRelaysCountWhereTheirCopiesWereAccepted() throws {
        let nostrRelay = try TestRelay()
        defer { nostrRelay.stop() }
        let localRelay = try RustRelay.start()
        defer { localRelay.stop() }
        for url in [nostrRelay.url, localRelay.url] {
            let bob = try Home("doctor-shared", relays: [url])
            defer { bob.remove() }
            _ = try bob.createIdentity()
            let quiet = SecretKey.generate(), slashed = SecretKey.generate()
            try DirectPublish.events([UnsignedEvent(pubkey: slashed.publicKey, createdAt: Int64(Date().timeIntervalSince1970) - 60, kind: 10050,
                                                    tags: [["relay", url + "/"]], content: "").signed(with: slashed)], to: url)
            let sid = try bob.ok(["session", "create", "Shared", "--member", quiet.publicKey.npub, "--member", slashed.publicKey.npub]).trimmed
            try bob.ok(["post", sid, "https://example.com/shared"])
            let report = try XCTUnwrap(try bob.ok(["doctor", sid, "--json"]).json() as? [String: Any])
            let members = try XCTUnwrap(report["members"] as? [[String: Any]])
            for (who, key) in [("no list", quiet), ("a list naming it with a slash", slashed)] {
                let entry = try XCTUnwrap(members.first { $0["pubkey"] as? String == key.publicKey.hex }, who)
                let overlap = (entry["overlap"] as? [String] ?? []).map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
                XCTAssertEqual(overlap, [url], "\(who): \(entry)")
            }
            XCTAssertFalse(try bob.ok(["doctor", sid]).out.contains("shared relays: none"))
        }
    }
}
