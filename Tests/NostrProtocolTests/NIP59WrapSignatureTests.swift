import LinkstrTestSupport
import NostrProtocol
import XCTest

/// `NIP59.unwrap` does not check the one-time key's signature (anyone can mint one): what stands in
/// for it is the wrap's id, NIP-44's MAC and the seal's signature. Each forgery here is stopped by one.
final class NIP59WrapSignatureTests: XCTestCase {
    private let recipient = SecretKey.generate(using: SeededRandom(seed: 5901))
    private let sender = SecretKey.generate(using: SeededRandom(seed: 5902))
    private let random = SeededRandom(seed: 5903)

    private func genuine(_ text: String = "hello") throws -> NostrEvent {
        let rumor = UnsignedEvent(pubkey: sender.publicKey, createdAt: 1_795_000_000, kind: 44001, content: text)
        return try NIP59.giftWrap(rumor: rumor, sender: sender, recipient: recipient.publicKey, now: 1_795_000_000, random: random)
    }

    private func replacing(_ e: NostrEvent, pubkey: PublicKey? = nil, content: String? = nil, sig: Signature? = nil, rehash: Bool) -> NostrEvent {
        let unsigned = UnsignedEvent(pubkey: pubkey ?? e.pubkey, createdAt: e.createdAt, kind: e.kind, tags: e.tags, content: content ?? e.content)
        return NostrEvent(id: rehash ? unsigned.id : e.id, pubkey: unsigned.pubkey, createdAt: e.createdAt, kind: e.kind, tags: e.tags,
                          content: unsigned.content, sig: sig ?? e.sig)
    }

    private func expect(_ wrap: NostrEvent, _ check: (GiftWrapError) -> Bool, _ message: String) {
        XCTAssertThrowsError(try NIP59.unwrap(wrap, recipient: recipient), message) { error in
            XCTAssertTrue(check(error as! GiftWrapError), "\(message): \(error)")
        }
    }

    func testAWrapWithAnotherSignatureOpensToTheSameRumorFromTheSameSender() throws {
        let wrap = try genuine()
        let zeroed = replacing(wrap, sig: Signature(bytes: [UInt8](repeating: 0, count: 64))!, rehash: false)
        XCTAssertThrowsError(try zeroed.verify())
        let opened = try NIP59.unwrap(zeroed, recipient: recipient), original = try NIP59.unwrap(wrap, recipient: recipient)
        XCTAssertEqual(opened.rumorID, original.rumorID)
        XCTAssertEqual(opened.sender, sender.publicKey)
        XCTAssertEqual(opened.rumor.content, "hello")
    }

    func testChangedContentIsStoppedByTheIDOrByTheMAC() throws {
        let wrap = try genuine()
        var bytes = Array(wrap.content.utf8)
        bytes[60] = bytes[60] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let changed = String(decoding: bytes, as: UTF8.self)
        expect(replacing(wrap, content: changed, rehash: false), { $0 == .invalidWrap(.idMismatch) }, "content changed, id kept")
        expect(replacing(wrap, content: changed, rehash: true), { $0 == .notRecipient }, "content changed, id made again")
    }

    func testAnotherOneTimeKeyCannotOpenTheSeal() throws {
        let wrap = try genuine()
        let other = SecretKey.generate(using: random).publicKey
        expect(replacing(wrap, pubkey: other, rehash: true), { $0 == .notRecipient }, "the wrap claims another one-time key")
    }

    func testContentThatIsNotNIP44IsRefusedBeforeAnyKeyIsDerived() throws {
        let wrap = try genuine()
        expect(replacing(wrap, content: "not a payload", rehash: true), { $0 == .cannotDecrypt(.invalidPayloadSize(13)) }, "too short")
        let base64 = Data(repeating: 7, count: 300).base64EncodedString()
        expect(replacing(wrap, content: base64, rehash: true), { $0 == .cannotDecrypt(.unsupportedVersion(7)) }, "version 7")
    }

    /// A forger with a one-time key of its own signs a valid wrap around a seal it cannot sign as the sender.
    func testAWellSignedForgeryIsStoppedByTheSeal() throws {
        let forger = SecretKey.generate(using: random)
        let rumor = UnsignedEvent(pubkey: sender.publicKey, createdAt: 1, kind: 44001, content: "forged")
        let key = try NIP44.conversationKey(secretKey: forger, publicKey: recipient.publicKey)
        let seal = UnsignedEvent(pubkey: forger.publicKey, createdAt: 1, kind: NIP59.sealKind,
                                 content: try NIP44.encrypt(rumor.rumorJSON(), conversationKey: key, random: random)).signed(with: forger, random: random)
        let wrap = try NIP59.wrap(seal: seal, recipient: recipient.publicKey, now: 1, random: random)
        XCTAssertNoThrow(try wrap.verify())
        expect(wrap, { if case .senderMismatch = $0 { return true }; return false }, "the seal is the forger's")
    }
}
