import Foundation
import NostrProtocol
import XCTest

final class NIP59VectorTests: XCTestCase {
    private func cases() throws -> [[String: Any]] {
        let root = try Fixtures.json("vectors/nip59.rust-nostr.json") as! [String: Any]
        return root["cases"] as! [[String: Any]]
    }

    private func wrap(_ c: [String: Any]) throws -> NostrEvent {
        try NostrEvent(json: Fixtures.jsonString(c["gift_wrap"]!))
    }

    func testEveryRustNostrCase() throws {
        let all = try cases()
        XCTAssertEqual(all.count, 15)
        var valid = 0, invalid = 0, zeroedSignature = 0
        for c in all {
            let name = c["name"] as! String
            let recipient = try SecretKey(hex: c["recipient_secret_key"] as! String)
            let event = try wrap(c)
            if name == "wrap signature zeroed" {
                // rust-nostr's event check (its pool's, on arrival), and ours inside the unwrap: the base
                // case's wrap, id and content unchanged, refused for its signature alone.
                XCTAssertThrowsError(try event.verify(), name)
                let base = try wrap(all.first { $0["name"] as? String == "base for tampering" }!)
                XCTAssertEqual(event.id, base.id, name)
                XCTAssertThrowsError(try NIP59.unwrap(event, recipient: recipient), name) { error in
                    XCTAssertEqual(error as? GiftWrapError, .invalidWrap(.invalidSignature), name)
                }
                zeroedSignature += 1
                continue
            }
            if let sender = c["expect_sender"] as? String {
                let gift = try NIP59.unwrap(event, recipient: recipient)
                let rumor = c["expect_rumor"] as! [String: Any]
                XCTAssertEqual(gift.sender.hex, sender, name)
                XCTAssertEqual(gift.rumor.pubkey.hex, rumor["pubkey"] as? String, name)
                XCTAssertEqual(gift.rumorID.hex, rumor["id"] as? String, name)
                XCTAssertEqual(gift.rumor.kind, rumor["kind"] as? Int, name)
                XCTAssertEqual(gift.rumor.content, rumor["content"] as? String, name)
                XCTAssertEqual(gift.rumor.createdAt, Int64(rumor["created_at"] as! Int), name)
                XCTAssertEqual(gift.rumor.tags, rumor["tags"] as? [[String]], name)
                XCTAssertEqual(gift.wrap.id, event.id)
                valid += 1
            } else {
                let expected = c["expect_error"] as! String
                XCTAssertThrowsError(try NIP59.unwrap(event, recipient: recipient), name) { error in
                    guard let e = error as? GiftWrapError else { return XCTFail("\(name): untyped \(error)") }
                    switch (expected, e) {
                    case ("invalid event id / signature or NIP-44 MAC", .invalidWrap(.idMismatch)),
                         ("cannot decrypt: not the recipient", .notRecipient),
                         ("seal pubkey != rumor pubkey", .senderMismatch),
                         ("not a gift wrap (and id no longer matches)", .notGiftWrap(kind: 4)):
                        break
                    default:
                        XCTFail("\(name): expected \(expected), got \(e)")
                    }
                }
                invalid += 1
            }
        }
        print("NIP-59 rust-nostr cases: \(valid) opened, \(invalid) rejected, \(zeroedSignature) refused for its wrap signature alone")
        XCTAssertEqual(valid, 10)
        XCTAssertEqual(invalid, 4)
        XCTAssertEqual(zeroedSignature, 1)
    }

    /// The impersonation wrap is otherwise perfect: every signature and id checks out.
    func testImpersonationIsCaughtOnlyByTheAuthorCheck() throws {
        let c = try cases().first { ($0["name"] as! String).hasPrefix("impersonation") }!
        let event = try wrap(c)
        XCTAssertNoThrow(try event.verify())
        XCTAssertThrowsError(try NIP59.unwrap(event, recipient: SecretKey(hex: c["recipient_secret_key"] as! String))) {
            guard case .senderMismatch(let seal, let rumor)? = $0 as? GiftWrapError else { return XCTFail("\($0)") }
            XCTAssertNotEqual(seal, rumor)
        }
    }

    func testTheExampleInNIP59Opens() throws {
        let text = try Fixtures.text("nips/59.md")
        // The last ```json block of "3. Wrap the seal" holds the gift wrap.
        let section = text.components(separatedBy: "### 3. Wrap the seal")[1]
        var block = section.components(separatedBy: "```json")[1].components(separatedBy: "```")[0]
        // The NIP's example ends its object with a trailing comma, which strict JSON (rightly) refuses.
        XCTAssertThrowsError(try NostrEvent(json: block))
        block = block.replacingOccurrences(of: "]],\n}", with: "]]\n}")
        let wrapEvent = try NostrEvent(json: block)
        let recipient = try SecretKey(hex: "e108399bd8424357a710b606ae0c13166d853d327e47a6e5e038197346bdbf45")
        let gift = try NIP59.unwrap(wrapEvent, recipient: recipient)
        XCTAssertEqual(gift.sender.hex, "611df01bfcf85c26ae65453b772d8f1dfd25c264621c0277e1fc1518686faef9")
        XCTAssertEqual(gift.rumor.content, "Are you going to the party tonight?")
        XCTAssertEqual(gift.rumorID.hex, "9dd003c6d3b73b74a85a9ab099469ce251653a7af76f523671ab828acd2a0ef9")
    }

    func testOurWrapHasTheRequiredShape() throws {
        let sender = SecretKey.generate(), recipient = SecretKey.generate()
        let now: Int64 = 1_795_000_000
        let rumor = UnsignedEvent(pubkey: sender.publicKey, createdAt: now, kind: 44001, content: #"{"kind":"root"}"#)
        let wrap = try NIP59.giftWrap(rumor: rumor, sender: sender, recipient: recipient.publicKey, now: now)
        XCTAssertEqual(wrap.kind, 1059)
        XCTAssertEqual(wrap.tags, [["p", recipient.publicKey.hex]])
        XCTAssertNotEqual(wrap.pubkey, sender.publicKey, "wraps are signed by a one-time key")
        XCTAssertTrue((now - NIP59.maxTimestampTweak)...now ~= wrap.createdAt)
        let gift = try NIP59.unwrap(wrap, recipient: recipient)
        XCTAssertTrue(gift.seal.tags.isEmpty)
        XCTAssertEqual(gift.seal.kind, 13)
        XCTAssertEqual(gift.seal.pubkey, sender.publicKey)
        XCTAssertTrue((now - NIP59.maxTimestampTweak)...now ~= gift.seal.createdAt)
        XCTAssertEqual(gift.rumorID, rumor.id)
        XCTAssertThrowsError(try NIP59.unwrap(wrap, recipient: SecretKey.generate())) { XCTAssertEqual($0 as? GiftWrapError, .notRecipient) }
    }

    func testTimestampsAreSpreadOverTwoDays() throws {
        let sender = SecretKey.generate(), recipient = SecretKey.generate()
        let now: Int64 = 1_795_000_000
        let rumor = UnsignedEvent(pubkey: sender.publicKey, createdAt: now, kind: 44001, content: "x")
        var offsets = Set<Int64>()
        for _ in 0..<20 {
            let wrap = try NIP59.giftWrap(rumor: rumor, sender: sender, recipient: recipient.publicKey, now: now)
            offsets.insert(now - wrap.createdAt)
        }
        XCTAssertGreaterThan(offsets.count, 15, "wrap timestamps must be randomized")
        XCTAssertTrue(offsets.allSatisfy { (0...NIP59.maxTimestampTweak).contains($0) })
    }

    func testSealsWithTagsAndSignedRumorsAreRejected() throws {
        let sender = SecretKey.generate(), recipient = SecretKey.generate()
        let random = SystemRandom()
        func wrapSeal(_ seal: NostrEvent) throws -> NostrEvent {
            try NIP59.wrap(seal: seal, recipient: recipient.publicKey, now: 1_795_000_000, random: random)
        }
        let ck = try NIP44.conversationKey(secretKey: sender, publicKey: recipient.publicKey)
        let rumor = UnsignedEvent(pubkey: sender.publicKey, createdAt: 1, kind: 44001, content: "x")
        // A seal with a p tag.
        let tagged = UnsignedEvent(pubkey: sender.publicKey, createdAt: 1, kind: 13, tags: [["p", recipient.publicKey.hex]],
                                   content: try NIP44.encrypt(rumor.rumorJSON(), conversationKey: ck)).signed(with: sender)
        XCTAssertThrowsError(try NIP59.unwrap(wrapSeal(tagged), recipient: recipient)) { XCTAssertEqual($0 as? GiftWrapError, .sealHasTags) }
        // A signed rumor.
        let signedRumor = rumor.signed(with: sender).jsonString()
        let seal2 = UnsignedEvent(pubkey: sender.publicKey, createdAt: 1, kind: 13,
                                  content: try NIP44.encrypt(signedRumor, conversationKey: ck)).signed(with: sender)
        XCTAssertThrowsError(try NIP59.unwrap(wrapSeal(seal2), recipient: recipient)) { XCTAssertEqual($0 as? GiftWrapError, .rumorIsSigned) }
        // A rumor whose claimed id is wrong.
        let badID = rumor.rumorJSON().replacingOccurrences(of: rumor.id.hex, with: String(repeating: "0", count: 64))
        let seal3 = UnsignedEvent(pubkey: sender.publicKey, createdAt: 1, kind: 13,
                                  content: try NIP44.encrypt(badID, conversationKey: ck)).signed(with: sender)
        XCTAssertThrowsError(try NIP59.unwrap(wrapSeal(seal3), recipient: recipient)) { XCTAssertEqual($0 as? GiftWrapError, .rumorIDMismatch) }
        // A seal of the wrong kind.
        let seal4 = UnsignedEvent(pubkey: sender.publicKey, createdAt: 1, kind: 14,
                                  content: try NIP44.encrypt(rumor.rumorJSON(), conversationKey: ck)).signed(with: sender)
        XCTAssertThrowsError(try NIP59.unwrap(wrapSeal(seal4), recipient: recipient)) { XCTAssertEqual($0 as? GiftWrapError, .sealNotKind13(kind: 14)) }
    }
}
