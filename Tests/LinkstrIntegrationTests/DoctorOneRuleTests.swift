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
}
