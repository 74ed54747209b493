import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Issue 30, end to end on five loopback servers: our relay; Bob's inbox relay, which wants NIP-42 AUTH
/// and lets only Bob read; an indexer that alone holds Bob's and Carol's kind 10050; a relay we block (a
/// listener that counts connection attempts); a relay whose NIP-11 says a small `max_message_length`.
/// Bob is a rust-nostr peer that reads only his inbox: he must get every post, reaction and membership
/// change; Carol, who reads only the small relay, is reported as not reached, never as delivered.
final class OutboxDeliveryTests: XCTestCase {
    func testAMemberWhoReadsOnlyAnAuthInboxNamedOnAnIndexerReceivesEverything() throws {
        let ours = try TestRelay(), indexer = try TestRelay()
        let bob = SecretKey.generate(), carol = SecretKey.generate()
        let inbox = try TestRelay(requireAuthToRead: true, readers: [bob.publicKey.hex])
        let small = try InteropServer(script: "limited_relay.py", arguments: ["1200"])
        let counts = FileManager.default.temporaryDirectory.appendingPathComponent("linkstr-count-\(UUID().uuidString)")
        defer { removeTemporary(counts) }
        let blocked = try InteropServer(script: "counting_tcp.py", arguments: [counts.path])
        func attempts() -> Int { Int((try? String(contentsOf: counts, encoding: .utf8)) ?? "0") ?? 0 }
        // The harness's own check that it listens is one attempt: counted before anything else starts.
        for _ in 0..<100 where attempts() == 0 { Thread.sleep(forTimeInterval: 0.05) }
        let baseline = attempts()
        XCTAssertEqual(baseline, 1)

        let now = Int64(Date().timeIntervalSince1970)
        // Their lists live only on the indexer. Bob's names the blocked relay first, then the small one.
        try RustNostrPeer.publishEvent(relay: indexer.url, secret: bob.revealHex(), kind: 10050,
                                       tags: [["relay", blocked.url], ["relay", small.url], ["relay", inbox.url]], at: now - 60)
        try RustNostrPeer.publishEvent(relay: indexer.url, secret: carol.revealHex(), kind: 10050, tags: [["relay", small.url]], at: now - 60)

        let alice = try Home("outbox-doctor", relays: [ours.url])
        defer { alice.remove() }
        try alice.writeConfig("link_previews = false\nindexer_relays = [\"\(indexer.url)\"]\n")
        _ = try alice.createIdentity()
        let allow = ["LINKSTR_ALLOW_PRIVATE_ADDRESSES": "1"]
        let blockedOut = try alice.ok(["relays", "block", blocked.url, "--json"], environment: allow).json() as! [String: Any]
        XCTAssertEqual(blockedOut["published"] as? Bool, true)
        let list = try XCTUnwrap(RustNostrPeer.query(relay: ours.url, filter: ["kinds": [10006]]).first, "our kind 10006 is on our relay")
        XCTAssertEqual(list["tags"] as? [[String]], [["relay", blocked.url]])

        let bobNpub = try PublicKey(hex: bob.publicKey.hex).npub, carolNpub = try PublicKey(hex: carol.publicKey.hex).npub
        let session = try alice.ok(["session", "create", "Outbox", "--member", bobNpub, "--member", carolNpub], environment: allow).trimmed
        let note = String(repeating: "a long note that no small relay takes. ", count: 40)
        let post = try alice.ok(["post", session, "https://example.com/outbox", "--note", note, "--json"], environment: allow).json() as! [String: Any]
        let postID = try XCTUnwrap(post["id"] as? String)
        let deliveries = try XCTUnwrap(post["deliveries"] as? [[String: Any]])
        let byMember = Dictionary(uniqueKeysWithValues: deliveries.map { ($0["pubkey"] as! String, $0) })
        XCTAssertEqual(byMember[bob.publicKey.hex]?["state"] as? String, "inbox")
        XCTAssertEqual(byMember[bob.publicKey.hex]?["relay"] as? String, inbox.url)
        XCTAssertEqual(byMember[carol.publicKey.hex]?["state"] as? String, "not_delivered", "Carol's only relay takes nothing this large")
        XCTAssertTrue((byMember[carol.publicKey.hex]?["why"] as? String ?? "").contains("too large for this relay"), "\(deliveries)")
        // In words too, per member, on stderr.
        let said = try alice.ok(["react", postID, "👍"], environment: allow)
        XCTAssertEqual(said.status, 0)
        let text = try alice.ok(["post", session, "https://example.com/second"], environment: allow)
        XCTAssertTrue(text.err.contains("not delivered: ws://127.0.0.1:\(small.port): too large"), text.err)
        try alice.ok(["session", "members", session, "--set", bobNpub], environment: allow)

        // Bob reads only his inbox, with AUTH: every message is there.
        let fetched = try RustNostrPeer.fetch(relay: inbox.url, recipient: bob)
        XCTAssertEqual(fetched.errors, [])
        let contents = fetched.gifts.compactMap { ($0["rumor"] as? [String: Any])?["content"] as? String }
        func count(_ type: String) -> Int { contents.filter { $0.contains("\"\(type)\"") }.count }
        XCTAssertEqual(count("session_create"), 1, "\(contents)")
        XCTAssertEqual(count("root"), 2)
        XCTAssertEqual(count("reaction"), 1)
        XCTAssertEqual(count("session_members"), 1)
        XCTAssertEqual(try RustNostrPeer.query(relay: small.url, filter: ["kinds": [1059]]).count, 0, "nothing too large was sent to the small relay")
        XCTAssertEqual(attempts(), baseline, "the blocked relay was never dialled")

        // The doctor names every relay and reason; its text fits 80 columns.
        let doctor = try alice.ok(["doctor", session, "--json"], environment: allow).json() as! [String: Any]
        let members = try XCTUnwrap(doctor["members"] as? [[String: Any]])
        let bobReport = try XCTUnwrap(members.first { $0["pubkey"] as? String == bob.publicKey.hex })
        XCTAssertEqual(bobReport["source"] as? String, "inbox")
        XCTAssertEqual(bobReport["found_on"] as? String, indexer.url)
        let relays = Dictionary(uniqueKeysWithValues: (bobReport["relays"] as! [[String: Any]]).map { ($0["url"] as! String, $0) })
        XCTAssertEqual(relays[blocked.url]?["blocked"] as? Bool, true)
        XCTAssertEqual(relays[small.url]?["max_message_length"] as? Int, 1200)
        XCTAssertEqual(relays[inbox.url]?["auth_required"] as? Bool, true)
        XCTAssertEqual(relays[inbox.url]?["answered"] as? Bool, true)
        XCTAssertEqual((bobReport["last_delivery"] as? [String: Any])?["state"] as? String, "inbox")
        XCTAssertEqual(attempts(), baseline, "nor by the doctor")
        let ourPart = try XCTUnwrap(doctor["ours"] as? [String: Any])
        XCTAssertEqual(ourPart["blocked"] as? [String], [blocked.url])
        let words = try alice.ok(["doctor", session], environment: allow).out
        for line in words.split(separator: "\n") { XCTAssertLessThanOrEqual(line.count, 80, String(line)) }
        XCTAssertTrue(words.contains("needs AUTH"), words)
        print(words)
        print("outbox: Bob's AUTH inbox found on the indexer got all 4 kinds of message; the blocked relay saw 0 connections; Carol reported not reached")
    }
}
