import Foundation
import LinkstrTestSupport
import NostrProtocol
import XCTest

/// Round trips through rust-nostr (nostr-sdk PyPI wheel, an independent implementation).
final class RustNostrInteropTests: XCTestCase {
    private func peer(_ command: String, _ request: [String: Any]) throws -> [String: Any] {
        let python = try TestEnvironment.python()
        let input = try JSONSerialization.data(withJSONObject: request)
        let result = try ProcessRunner.run(python, [TestEnvironment.interopScript("rust_nostr_peer.py").path, command], stdin: input)
        guard result.status == 0 else { throw ProcessRunner.Failure(description: "rust-nostr peer failed: \(result.stderrText)") }
        return try JSONSerialization.jsonObject(with: result.stdout) as! [String: Any]
    }

    func testRustNostrOpensOurWrapAndWeOpenTheirs() throws {
        let alice = SecretKey.generate(), bob = SecretKey.generate()
        let payload = #"{"conversation_id":"3F2504E04F8911D39A0C0305E82C3301","root_id":"","kind":"root","url":"https:\/\/example.com\/a?b=c","note":"ünïcödé ✓ \"quoted\"\n","timestamp":1795000000}"#
        let rumor = UnsignedEvent(pubkey: alice.publicKey, createdAt: 1_795_000_000, kind: 44001,
                                  tags: [["e", String(repeating: "ab", count: 32), "", "root"]], content: payload)
        // Ours → rust-nostr.
        let ours = try NIP59.giftWrap(rumor: rumor, sender: alice, recipient: bob.publicKey, now: 1_795_000_000)
        let opened = try peer("unwrap", ["recipient_secret": bob.revealHex(),
                                         "wrap": try JSONSerialization.jsonObject(with: Data(ours.jsonBytes()))])
        XCTAssertNil(opened["error"], "rust-nostr refused our wrap: \(opened["error"] ?? "")")
        XCTAssertEqual(opened["sender"] as? String, alice.publicKey.hex)
        let theirRumor = opened["rumor"] as! [String: Any]
        XCTAssertEqual(theirRumor["content"] as? String, payload)
        XCTAssertEqual(theirRumor["id"] as? String, rumor.id.hex)
        XCTAssertEqual(theirRumor["tags"] as? [[String]], rumor.tags)

        // rust-nostr → ours.
        let theirs = try peer("wrap", ["sender_secret": bob.revealHex(), "recipient_pubkey": alice.publicKey.hex, "kind": 44001,
                                       "content": payload, "created_at": 1_795_000_100, "tags": rumor.tags])
        let wrapEvent = try NostrEvent(json: Fixtures.jsonString(theirs))
        let gift = try NIP59.unwrap(wrapEvent, recipient: alice)
        XCTAssertEqual(gift.sender, bob.publicKey)
        XCTAssertEqual(gift.rumor.content, payload)
        XCTAssertEqual(gift.rumor.createdAt, 1_795_000_100)
        XCTAssertEqual(gift.rumor.tags, rumor.tags)

        // rust-nostr refuses a wrap addressed to someone else, as we do.
        let refused = try peer("unwrap", ["recipient_secret": SecretKey.generate().revealHex(),
                                          "wrap": try JSONSerialization.jsonObject(with: Data(ours.jsonBytes()))])
        XCTAssertNotNil(refused["error"])
        print("rust-nostr interop: our wrap opened by rust-nostr, theirs by us")
    }
}
