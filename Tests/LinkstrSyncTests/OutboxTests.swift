import NostrProtocol
import XCTest

@testable import LinkstrDomain
@testable import LinkstrSync

/// The outbox without a network or a store: who gets a wrap of what, what our own ingest applies, and
/// which relays beyond ours inbox delivery uses. Real keys and real NIP-59 (each wrap is opened).
final class OutboxTests: XCTestCase {
    let me = SecretKey.generate(), alice = SecretKey.generate(), bob = SecretKey.generate()

    func rumor(_ kind: PayloadKind, to recipients: [String], at: Int64 = 1_700_000_000) -> OutboundRumor {
        let payload = LinkstrPayload(conversationID: "S1", rootID: LinkstrID.make(SystemRandom()), kind: kind,
                                     url: kind == .root ? "https://example.com/a" : nil, timestamp: at,
                                     sessionName: kind == .sessionCreate ? "Films" : nil,
                                     memberPubkeys: kind == .sessionCreate ? recipients : nil)
        return OutboundRumor(payload: payload, tags: [], recipients: recipients, createdAt: at)
    }

    func testEveryRecipientAndWeGetOneWrapThatOpensToTheRumor() throws {
        let a = alice.publicKey.hex, b = bob.publicKey.hex
        // Alice twice (once as an npub) and ourselves among the recipients: each key still gets one wrap.
        let create = rumor(.sessionCreate, to: [me.publicKey.hex, a, b])
        let post = rumor(.root, to: [a, alice.publicKey.npub, me.publicKey.hex.uppercased()])
        let batch = try OutboxBatch.seal([create, post], identity: me, now: 1_700_000_005, random: SystemRandom(), cache: nil)

        XCTAssertEqual(batch.sent.map(\.wrapIDs.count), [3, 2])
        XCTAssertEqual(batch.wraps.map(\.id.hex), batch.sent.flatMap(\.wrapIDs), "published in the order of the rumors")
        for (sent, outbound) in zip(batch.sent, [create, post]) {
            XCTAssertEqual(sent.rumorID, outbound.rumor(author: me.publicKey).id.hex)
        }
        // Each wrap opens for exactly one of the intended keys, to the rumor it stands for, from us.
        var opened = [String: [String]]()
        for (sent, wrapID) in batch.sent.flatMap({ s in s.wrapIDs.map { (s, $0) } }) {
            let wrap = try XCTUnwrap(batch.wraps.first { $0.id.hex == wrapID })
            let openers = [me, alice, bob].filter { (try? NIP59.unwrap(wrap, recipient: $0)) != nil }
            XCTAssertEqual(openers.count, 1)
            let gift = try NIP59.unwrap(wrap, recipient: openers[0])
            XCTAssertEqual(gift.rumorID.hex, sent.rumorID)
            XCTAssertEqual(gift.sender, me.publicKey)
            opened[sent.rumorID, default: []].append(openers[0].publicKey.hex)
        }
        XCTAssertEqual(Set(opened[batch.sent[0].rumorID] ?? []), [me.publicKey.hex, a, b])
        XCTAssertEqual(Set(opened[batch.sent[1].rumorID] ?? []), [me.publicKey.hex, a])

        // Inbox delivery gets the others' wraps, never our own copies.
        XCTAssertEqual(Set(batch.wrapsByRecipient.keys), [a, b])
        XCTAssertEqual(batch.wrapsByRecipient[a]?.count, 2)
        XCTAssertEqual(batch.wrapsByRecipient[b]?.count, 1)
        for wrap in batch.wrapsByRecipient.values.flatMap({ $0 }) {
            XCTAssertThrowsError(try NIP59.unwrap(wrap, recipient: me))
        }
    }

    func testOurIngestAppliesEachRumorWithItsWrapsAndOnlyPostsCountAsStarted() throws {
        let a = alice.publicKey.hex
        let create = rumor(.sessionCreate, to: [me.publicKey.hex, a]), post = rumor(.root, to: [a])
        let batch = try OutboxBatch.seal([create, post], identity: me, now: 1_700_000_009, random: SystemRandom(), cache: nil)
        XCTAssertEqual(batch.localMessages.map(\.rumorID), batch.sent.map(\.rumorID))
        XCTAssertEqual(batch.localMessages.map(\.wrapIDs), batch.sent.map(\.wrapIDs))
        XCTAssertEqual(batch.localMessages.map(\.source), [.local, .local])
        XCTAssertEqual(batch.localMessages.map(\.receivedAt), [1_700_000_009, 1_700_000_009])
        XCTAssertEqual(batch.localMessages.map(\.sender), [me.publicKey.hex, me.publicKey.hex])
        XCTAssertEqual(batch.startedPosts, [batch.sent[1].rumorID], "the session is not a post")
    }

    func testARecipientThatIsNotAKeyIsLeftOutWithoutStoppingTheSend() throws {
        // 64 hex digits that are not an x coordinate on the curve.
        let offCurve = String(repeating: "f", count: 64)
        let batch = try OutboxBatch.seal([rumor(.root, to: [offCurve, alice.publicKey.hex])], identity: me, now: 1_700_000_000,
                                         random: SystemRandom(), cache: nil)
        XCTAssertEqual(batch.sent[0].wrapIDs.count, 2, "alice and us")
        XCTAssertNil(batch.wrapsByRecipient[offCurve])
    }
}
