import Dispatch
import LinkstrTestSupport
import NostrProtocol

/// What a junk gift wrap costs `NIP59.unwrap` before it is refused (µs each, one core): the kinds a
/// relay can send without our key. `junk` and `junk-stream` measure a flood through the app, where a
/// relay sending mostly junk is soon dropped; this is the cost of each one until then.
enum JunkUnwrapBench {
    static func run(recipient: SecretKey, count: Int = 2_000) throws {
        let stranger = SecretKey.generate(using: SeededRandom(seed: 31))
        let random = SeededRandom(seed: 32)
        func wrap(_ content: String, signedBy key: SecretKey) -> NostrEvent {
            UnsignedEvent(pubkey: key.publicKey, createdAt: 1_795_000_000, kind: NIP59.giftWrapKind, tags: [["p", recipient.publicKey.hex]],
                          content: content).signed(with: key, random: random)
        }
        func withBadSignature(_ e: NostrEvent) -> NostrEvent {
            NostrEvent(id: e.id, pubkey: e.pubkey, createdAt: e.createdAt, kind: e.kind, tags: e.tags, content: e.content,
                       sig: Signature(bytes: random.bytes(64))!)
        }
        // As `Tests/Interop/junk.py` makes them: 300 random bytes in base64, a wrong signature.
        let randomContent = (0..<count).map { _ in withBadSignature(wrap(Base64.encode(random.bytes(300)), signedBy: stranger)) }
        // The costliest junk: a real NIP-44 payload under another key (the MAC fails), well signed.
        let other = try NIP44.conversationKey(secretKey: stranger, publicKey: SecretKey.generate(using: random).publicKey)
        let payload = try NIP44.encrypt(String(repeating: "x", count: 600), conversationKey: other, random: random)
        let nip44Shaped = (0..<count).map { _ in wrap(payload, signedBy: SecretKey.generate(using: random)) }
        print("junk gift wraps refused by the unwrap (1 core), µs each")
        for (label, wraps) in [("random content, bad signature (junk.py)", randomContent), ("a NIP-44 payload not for us, well signed", nip44Shaped),
                               ("the same, bad signature", nip44Shaped.map(withBadSignature))] {
            let start = DispatchTime.now().uptimeNanoseconds
            for w in wraps { precondition((try? NIP59.unwrap(w, recipient: recipient)) == nil) }
            let us = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3 / Double(wraps.count)
            print("  " + label.padding(toLength: 46, withPad: " ", startingAt: 0) + String(format: "%8.1f", us))
        }
    }
}
