import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

@testable import LinkstrRelay
@testable import LinkstrSync

/// While a history is read, posts whose session has not come yet wait in memory, unrecorded, and are
/// written with it (`SessionlessHold`); those whose session never comes are staged in the store on a
/// flush, as before.
final class EngineSessionlessHoldTests: XCTestCase {
    let relay = "ws://a.test"
    let history = SyncSubscription.history(.giftWraps, relay: 0, page: 0).id

    /// A gift wrap to `me` from `sender` carrying `payload`, dated `at`.
    func wrap(_ payload: LinkstrPayload, from sender: SecretKey, to me: Pubkey, at t: Int64) throws -> NostrEvent {
        try NIP59.giftWrap(rumor: UnsignedEvent(pubkey: sender.publicKey, createdAt: t, kind: 44001, content: payload.encoded()),
                           sender: sender, recipient: try PublicKey(hex: me), now: t)
    }

    /// Advances past the history's flush delay and waits until `opened` wraps were opened.
    func flushByTimer(_ t: EngineUnderTest, opened: Int) async {
        let clock = t.clock, start = clock.elapsed
        await eventually("a flush timer for history") { clock.hasSleeper(until: start + IngestState.historyDelay) }
        clock.advance(by: IngestState.historyDelay)
        await eventually("\(opened) opened and written") {
            let (stats, flushing) = await (t.engine.stats, t.engine.ingestion.activeFlushes)
            return stats.decryptions == opened && flushing == 0
        }
    }

    func testPostsBeforeTheirSessionWaitUnrecordedAndComeWithIt() async throws {
        let t = try EngineUnderTest()
        let bob = SecretKey.generate()
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        let sid = LinkstrID.make(SystemRandom()), now = t.clock.start
        let posts = try (0..<3).map { i in
            try wrap(LinkstrPayload(conversationID: sid, rootID: "", kind: .root, url: "https://example.com/\(i)", timestamp: now - 50 + Int64(i)),
                     from: bob, to: t.me, at: now - 50 + Int64(i))
        }
        for p in posts { await t.engine.handle(.event(relay: relay, subscription: history, p)) }
        await flushByTimer(t, opened: 3)
        XCTAssertEqual(try t.store.stagedCount(), 0, "held in memory, not staged")
        XCTAssertEqual(try t.store.alreadyProcessed(posts.map(\.id.hex)), [], "not recorded: after a crash they are fetched and opened again")
        let held = await t.engine.ingestion.hold.count
        XCTAssertEqual(held, 3)
        // The same wrap again (NIP-77 finds it missing from the processed set): not opened twice.
        await t.engine.handle(.event(relay: relay, subscription: SyncSubscription.reconcileFetch(.giftWraps, relay: 0, batch: 0).id, posts[0]))
        let again = await t.engine.stats
        XCTAssertEqual(again.decryptions, 3)
        XCTAssertEqual(again.wrapsAlreadyProcessed, 1)

        let create = try wrap(LinkstrPayload(conversationID: sid, rootID: "op", kind: .sessionCreate, timestamp: now - 100, sessionName: "Films",
                                             memberPubkeys: [bob.publicKey.hex, t.me]), from: bob, to: t.me, at: now - 100)
        await t.engine.handle(.event(relay: relay, subscription: history, create))
        await flushByTimer(t, opened: 4)
        XCTAssertEqual(try t.store.postCount(in: sid), 3, "written with their session")
        XCTAssertEqual(try t.store.stagedCount(), 0)
        XCTAssertEqual(try t.store.alreadyProcessed((posts + [create]).map(\.id.hex)), Set((posts + [create]).map(\.id.hex)))
        XCTAssertEqual(try t.store.negentropySet().items.count, 4, "each with its date, for NIP-77")
        let left = await t.engine.ingestion.hold.count
        XCTAssertEqual(left, 0)
        let stats = await t.engine.settledStats()
        XCTAssertEqual(stats.applied, 4)
        await t.engine.stop()
    }

    func testAPostWhoseSessionNeverComesIsStagedOnAFlushAndOnStop() async throws {
        for viaStop in [false, true] {
            let t = try EngineUnderTest()
            let bob = SecretKey.generate()
            try await t.engine.start()
            await t.engine.handle(.ready(relay: relay))
            let sid = LinkstrID.make(SystemRandom())
            let post = try wrap(LinkstrPayload(conversationID: sid, rootID: "", kind: .root, url: "https://example.com/x", timestamp: t.clock.start - 5),
                                from: bob, to: t.me, at: t.clock.start - 5)
            await t.engine.handle(.event(relay: relay, subscription: history, post))
            await flushByTimer(t, opened: 1)
            XCTAssertEqual(try t.store.stagedCount(), 0)
            if viaStop { await t.engine.stop() } else { await t.engine.flush() }
            XCTAssertEqual(try t.store.stagedCount(), 1, viaStop ? "stop" : "flush")
            XCTAssertEqual(try t.store.alreadyProcessed([post.id.hex]), [post.id.hex])
            let held = await t.engine.ingestion.hold.count
            XCTAssertEqual(held, 0)
            if !viaStop { await t.engine.stop() }
        }
    }
}
