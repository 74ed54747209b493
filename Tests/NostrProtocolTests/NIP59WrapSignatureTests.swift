import LinkstrTestSupport
import NostrProtocol
import XCTest

/// `NIP59.unwrap` checks every layer, the one-time key's signature included (issue 53: the iOS app
/// refuses a wrap without it, and without it anyone can mint variants of a genuine wrap). Each forgery
/// here is stopped by one check, and the cheap ones come first.
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

    func testAWrapWithAZeroedOrAnotherWrapsSignatureIsRefused() throws {
        let wrap = try genuine(), other = try genuine("other")
        XCTAssertEqual(try NIP59.unwrap(wrap, recipient: recipient).rumor.content, "hello")
        expect(replacing(wrap, sig: Signature(bytes: [UInt8](repeating: 0, count: 64))!, rehash: false),
               { $0 == .invalidWrap(.invalidSignature) }, "a zeroed signature")
        expect(replacing(wrap, sig: other.sig, rehash: false), { $0 == .invalidWrap(.invalidSignature) }, "another wrap's signature")
    }

    /// A relay's variant of a genuine wrap: a new date, the id made again, the old signature (or any).
    func testAVariantWithANewDateIsRefusedByTheSignature() throws {
        let wrap = try genuine()
        for shift: Int64 in [1, -3_600, 86_400] {
            let moved = UnsignedEvent(pubkey: wrap.pubkey, createdAt: wrap.createdAt + shift, kind: wrap.kind, tags: wrap.tags, content: wrap.content)
            let variant = NostrEvent(id: moved.id, pubkey: wrap.pubkey, createdAt: moved.createdAt, kind: wrap.kind, tags: wrap.tags,
                                     content: wrap.content, sig: wrap.sig)
            expect(variant, { $0 == .invalidWrap(.invalidSignature) }, "dated \(shift) s apart")
        }
    }

    /// The same wrap signed again by a key of the forger's: its id and signature are right.
    private func resigned(_ e: NostrEvent, content: String? = nil, by key: SecretKey) -> NostrEvent {
        UnsignedEvent(pubkey: key.publicKey, createdAt: e.createdAt, kind: e.kind, tags: e.tags, content: content ?? e.content).signed(with: key, random: random)
    }

    func testChangedContentIsStoppedByTheIDTheSignatureOrTheMAC() throws {
        let wrap = try genuine()
        var bytes = Array(wrap.content.utf8)
        bytes[60] = bytes[60] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        let changed = String(decoding: bytes, as: UTF8.self)
        expect(replacing(wrap, content: changed, rehash: false), { $0 == .invalidWrap(.idMismatch) }, "content changed, id kept")
        expect(replacing(wrap, content: changed, rehash: true), { $0 == .invalidWrap(.invalidSignature) }, "content changed, id made again")
        expect(resigned(wrap, content: changed, by: SecretKey.generate(using: random)), { $0 == .notRecipient }, "content changed, signed anew")
    }

    func testAnotherOneTimeKeyCannotOpenTheSeal() throws {
        let wrap = try genuine()
        let other = SecretKey.generate(using: random)
        expect(replacing(wrap, pubkey: other.publicKey, rehash: true), { $0 == .invalidWrap(.invalidSignature) }, "another key, the old signature")
        expect(resigned(wrap, by: other), { $0 == .notRecipient }, "the wrap signed by another one-time key")
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
