import LinkstrDomain
import LinkstrStorage
import NostrProtocol
import XCTest

@testable import LinkstrRelay
@testable import LinkstrSync

/// The ingest pipeline over a fake pool: a wrap is opened once however often it comes, the pool's
/// consumer is held while batches wait, junk is told to the relay's meter, and stop ends a flood.
final class EngineIngestTests: XCTestCase {
    let relay = "ws://a.test"

    func testAWrapIsOpenedOnceHoweverOftenAndWhereverItComes() async throws {
        let t = try EngineUnderTest()
        let bob = SecretKey.generate()
        try await t.engine.start()
        await t.engine.handle(.ready(relay: relay))
        await t.engine.handle(.eose(relay: relay, subscription: SyncSubscription.live.id))
        let rumor = try XCTUnwrap({ () -> OutboundRumor? in
            guard case .success(let s) = OutboundPlanner.createSession(name: "Films", members: [t.me], me: bob.publicKey.hex, now: t.clock.start,
                                                                        random: SystemRandom()) else { return nil }
            return s.rumor
        }())
        let wraps = try wrap(rumor, from: bob, at: t.clock.start)
        let mine = try XCTUnwrap(wraps.first { $0.tags.contains(["p", t.me]) })
        var updates = t.engine.updates.makeAsyncIterator()
        for subscription in [SyncSubscription.live, .history(.giftWraps, relay: 0, page: 0), .live] {
            await t.engine.handle(.event(relay: relay, subscription: subscription.id, mine))
        }
        await t.engine.flush()
        await t.engine.handle(.event(relay: relay, subscription: SyncSubscription.live.id, mine))
        await t.engine.flush()
        let stats = await t.engine.stats
        XCTAssertEqual(stats.wrapsReceived, 4)
        XCTAssertEqual(stats.decryptions, 1, "opened once: the others were in flight or already processed")
        XCTAssertEqual(stats.applied, 1)
        XCTAssertEqual(try t.store.sessionSummaries(archived: false).map(\.name), ["Films"])
        let ingested = await t.said(&updates) { update -> Set<String>? in
            if case .ingested(let touched, _) = update { return touched } else { return nil }
        }
        XCTAssertEqual(ingested, [[rumor.payload.conversationID]])
        await t.engine.stop()
    }

    func testThePoolsConsumerIsHeldWhileBatchesWaitAndJunkIsToldToTheRelaysMeter() async throws {
        let t = try EngineUnderTest()
        try await t.engine.start()
        let stranger = SecretKey.generate()
        // Well-formed wraps that are not for us: each costs an unwrap attempt and is junk.
        let junk = (0..<1_500).map { i in
            UnsignedEvent(pubkey: stranger.publicKey, createdAt: t.clock.start - Int64(i), kind: NIP59.giftWrapKind, tags: [["p", t.me]],
                          content: "not a sealed message \(i)").signed(with: stranger)
        }
        var most = 0
        for e in junk {
            await t.engine.handle(.event(relay: relay, subscription: SyncSubscription.live.id, e))
            most = max(most, await t.engine.ingestion.batcher.buffer.count)
        }
        XCTAssertLessThan(most, 256 * IngestState.queuedBatches, "the consumer waits once two full batches are buffered")
        await t.engine.flush()
        let stats = await t.engine.stats
        XCTAssertEqual(stats.invalidWraps, 1_500)
        XCTAssertEqual(t.pool.state.withLock { $0.checked[relay]?.junk }, 1_500)
        await t.engine.stop()
    }

    func testStopEndsAFloodAndIngestsWhatWasBuffered() async throws {
        let t = try EngineUnderTest()
        try await t.engine.start()
        let stranger = SecretKey.generate()
        let pool = t.pool, me = t.me, relay = relay
        let flood = Task {
            var i: Int64 = 0
            while !Task.isCancelled {
                i += 1
                let e = UnsignedEvent(pubkey: stranger.publicKey, createdAt: i, kind: NIP59.giftWrapKind, tags: [["p", me]], content: "\(i)").signed(with: stranger)
                pool.sink.yield(.event(relay: relay, subscription: SyncSubscription.live.id, e))
                await Task.yield()
            }
        }
        await eventually("the flood being received") { await t.engine.stats.wrapsReceived > 300 }
        await t.engine.stop()
        flood.cancel()
        let stats = await t.engine.stats
        let value1 = await t.engine.ingestion.batcher.buffer.count
        XCTAssertEqual(value1, 0, "what was buffered was ingested")
        XCTAssertEqual(stats.invalidWraps + stats.wrapsAlreadyProcessed, stats.wrapsReceived)
    }
}
